"""A matplotlib canvas for the panes that scroll: the mouse wheel scrolls the pane (matplotlib's
canvas would take the wheel for its own scroll events and the pane would not move)."""

from __future__ import annotations

from typing import Any

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg


class ShortTextCanvas(FigureCanvasQTAgg):
    """:class:`FigureCanvasQTAgg` that shortens a chart's over-long texts before drawing it (a
    name or label of a megabyte would hold the GUI thread for minutes)."""

    def draw(self) -> None:
        from iaa_desktop.core.export.charts import quiet_drawing, shorten_texts

        shorten_texts(self.figure)
        with quiet_drawing():
            super().draw()


class ChartCanvas(ShortTextCanvas):
    """:class:`ShortTextCanvas` whose wheel events go to the scroll area around it."""

    def wheelEvent(self, event: Any) -> None:
        from PySide6.QtWidgets import QAbstractScrollArea, QApplication

        area = self.parentWidget()
        while area is not None and not isinstance(area, QAbstractScrollArea):
            area = area.parentWidget()
        if area is None:
            event.ignore()
            return
        QApplication.sendEvent(area.viewport(), event)  # the pane scrolls, as over its margin
        event.accept()


def chart_canvas(fig: Any, min_width_share: float = 1.0) -> ChartCanvas:
    """``fig`` as a widget at its natural height (the pane scrolls) and at least
    ``min_width_share`` of its natural width."""
    c = ChartCanvas(fig)
    w, h = fig.get_size_inches() * fig.dpi
    c.setMinimumSize(int(w * min_width_share), int(h))
    return c


__all__ = ["ChartCanvas", "ShortTextCanvas", "chart_canvas"]

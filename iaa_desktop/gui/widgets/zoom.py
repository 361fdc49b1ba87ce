"""Zoom for the text views: ``Ctrl +`` / ``Ctrl −`` (also ``Ctrl =``), ``Ctrl 0`` resets.

A :class:`TextZoom` owns the shortcuts of one panel and zooms every text view registered with it
by the same step, so two passages side by side stay the same size. Views that build their HTML
with sizes of their own read :attr:`TextZoom.factor` and re-render on :attr:`TextZoom.changed`.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QTextEdit, QWidget

STEP = 1.0  # points per key press
LIMIT = 12  # steps either way


class TextZoom(QObject):
    """Zoom shortcuts on ``panel`` for the text views in it."""

    changed = Signal(float)  # the new factor

    def __init__(self, panel: QWidget, views: list[QTextEdit] | None = None) -> None:
        super().__init__(panel)
        self.views: list[QTextEdit] = []
        self.steps = 0
        self._base = panel.font().pointSizeF() or 10.0
        for keys, step in (
            (("Ctrl++", "Ctrl+=", QKeySequence.StandardKey.ZoomIn), 1),
            (("Ctrl+-", QKeySequence.StandardKey.ZoomOut), -1),
            (("Ctrl+0",), 0),
        ):
            for key in keys:
                sc = QShortcut(QKeySequence(key), panel)
                sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                sc.activated.connect(lambda s=step: self.zoom(s))
        for v in views or []:
            self.add(v)

    @property
    def factor(self) -> float:
        """Size relative to the default (1.0 = not zoomed)."""
        return (self._base + self.steps * STEP) / self._base

    def add(self, view: QTextEdit) -> None:
        self.views.append(view)
        if self.steps:
            view.zoomIn(int(self.steps * STEP))

    def zoom(self, step: int) -> None:
        """One step in (1), out (−1), or back to the default size (0)."""
        new = 0 if step == 0 else max(-LIMIT, min(LIMIT, self.steps + step))
        delta = new - self.steps
        if not delta:
            return
        self.steps = new
        for v in self.views:
            v.zoomIn(int(delta * STEP))
        self.changed.emit(self.factor)

"""Presentation zoom: one size for every table, list, headline, text pane and chart of the
application's windows, for a meeting on a projector read from the back row.

View → Zoom in / Zoom out / Actual size (``Ctrl +`` / ``Ctrl −`` / ``Ctrl 0``) step through
:data:`LEVELS`. The application font is scaled (every widget that does not set a size of its
own follows), the rows of the tables are made as tall as the new font, and matplotlib canvases
are drawn at a scaled resolution (their text, markers and lines grow with the rest). Views that
write sizes into their own HTML read :func:`factor` and re-render on :attr:`Zoom.changed`.
The main window remembers the level in its settings.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QMainWindow,
    QTableView,
    QWidget,
)

LEVELS: tuple[float, ...] = (0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5)
SETTINGS_KEY = "view/zoom"
_BASE_DPI = "_iaa_base_dpi"
_BASE_MIN = "_iaa_base_min"


class Zoom(QObject):
    """The application's zoom level (one per application: :func:`zoom`)."""

    changed = Signal(float)

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.app = app
        self.base_font = QFont(app.font())
        self.factor = 1.0

    def step(self, direction: int) -> float:
        """One level up (1), down (−1), or back to 100 % (0); the new factor."""
        if direction == 0:
            return self.set_factor(1.0)
        if direction > 0:
            bigger = [x for x in LEVELS if x > self.factor + 1e-6]
            return self.set_factor(bigger[0] if bigger else LEVELS[-1])
        smaller = [x for x in LEVELS if x < self.factor - 1e-6]
        return self.set_factor(smaller[-1] if smaller else LEVELS[0])

    def set_factor(self, factor: float) -> float:
        factor = float(min(LEVELS[-1], max(LEVELS[0], factor)))
        if abs(factor - self.factor) < 1e-6:
            return self.factor
        ratio = factor / self.factor
        self.factor = factor
        f = QFont(self.base_font)
        size = self.base_font.pointSizeF()
        if size > 0:
            f.setPointSizeF(size * factor)
        else:
            f.setPixelSize(max(6, round(self.base_font.pixelSize() * factor)))
        self.app.setFont(f)
        # the widgets take the new font from posted events: deliver them before measuring
        QApplication.sendPostedEvents(None, QEvent.Type.ApplicationFontChange)
        for top in self.app.topLevelWidgets():
            rescale(top, ratio)
        self.changed.emit(factor)
        return factor

    def scaled_font(self, relative: float = 1.0) -> QFont:
        """The application's font at ``relative`` times the zoomed size."""
        f = QFont(self.base_font)
        size = self.base_font.pointSizeF()
        if size > 0:
            f.setPointSizeF(size * self.factor * relative)
        return f


def zoom() -> Zoom:
    """The application's :class:`Zoom` (made on first use)."""
    app = QApplication.instance()
    assert isinstance(app, QApplication), "a QApplication is needed"
    existing = app.findChild(Zoom)
    return existing if isinstance(existing, Zoom) else Zoom(app)


def factor() -> float:
    """The current zoom factor (1.0 without an application)."""
    app = QApplication.instance()
    z = app.findChild(Zoom) if app is not None else None
    return z.factor if isinstance(z, Zoom) else 1.0


def base_font() -> QFont:
    """The application's font at 100 %."""
    app = QApplication.instance()
    z = app.findChild(Zoom) if app is not None else None
    if isinstance(z, Zoom):
        return QFont(z.base_font)
    return QApplication.font()


def rescale(root: QWidget, ratio: float = 1.0) -> None:
    """Bring what does not follow the font by itself to the current zoom: row heights of the
    tables in ``root`` and the resolution of its matplotlib canvases; after a zoom step by
    ``ratio``, the widths of the table columns (fitted to their text at the old size, a number
    would be cut)."""
    for view in _with_self(root, QTableView):
        vh = view.verticalHeader()
        if vh.sectionResizeMode(0) != QHeaderView.ResizeMode.ResizeToContents:
            vh.setDefaultSectionSize(view.fontMetrics().height() + 6)
        refit = getattr(view, "refit_to_font", None)
        if callable(refit):
            refit()
        elif abs(ratio - 1.0) > 1e-6:
            _scale_columns(view, ratio)
    for view in _with_self(root, QAbstractItemView):
        view.doItemsLayout()
    for w in _with_self(root, QWidget):
        sheet = w.styleSheet()
        if sheet:  # a widget with a style sheet keeps the font it was polished with: again
            w.setStyleSheet(sheet)
    if isinstance(root, QMainWindow):  # its menu bar keeps the old height otherwise
        root.menuBar().updateGeometry()
        layout = root.layout()
        if layout is not None:
            layout.invalidate()
    _rescale_canvases(root)


def _scale_columns(view: QTableView, ratio: float) -> None:
    """Widen (or narrow) the columns a user or a fit can size by ``ratio``."""
    hh = view.horizontalHeader()
    last = hh.count() - 1
    for c in range(hh.count()):
        if view.isColumnHidden(c) or (c == last and hh.stretchLastSection()):
            continue
        if hh.sectionResizeMode(c) != QHeaderView.ResizeMode.Interactive:
            continue
        view.setColumnWidth(c, max(hh.minimumSectionSize(), round(hh.sectionSize(c) * ratio)))


def _with_self(root: QWidget, cls: type) -> Iterable:
    if isinstance(root, cls):
        yield root
    yield from root.findChildren(cls)


def _rescale_canvases(root: QWidget) -> None:
    try:
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
    except ImportError:  # charts are optional in a window without matplotlib loaded
        return
    for canvas in _with_self(root, FigureCanvasQTAgg):
        scale_canvas(canvas)


def scale_canvas(canvas) -> None:
    """Draw a matplotlib canvas at the zoom's resolution: the figure keeps its size in inches,
    its pixels (and a minimum size set for a scrolling pane) grow with the zoom."""
    fig = canvas.figure
    base = canvas.property(_BASE_DPI)
    if base is None:
        base = float(fig.dpi) / max(1.0, float(canvas.device_pixel_ratio))
        canvas.setProperty(_BASE_DPI, base)
        m = canvas.minimumSize()
        canvas.setProperty(_BASE_MIN, (m.width(), m.height()))
    z = factor()
    ratio = float(canvas.device_pixel_ratio)
    fig._original_dpi = base * z  # what matplotlib scales by the device pixel ratio
    fig.set_dpi(base * z * ratio)
    w0, h0 = canvas.property(_BASE_MIN) or (0, 0)
    if w0 or h0:
        canvas.setMinimumSize(round(w0 * z), round(h0 * z))
    w, h = canvas.width() * ratio, canvas.height() * ratio
    if w > 0 and h > 0:
        fig.set_size_inches(w / fig.dpi, h / fig.dpi, forward=False)
    canvas.draw_idle()


__all__ = [
    "LEVELS",
    "SETTINGS_KEY",
    "Zoom",
    "base_font",
    "factor",
    "rescale",
    "scale_canvas",
    "zoom",
]

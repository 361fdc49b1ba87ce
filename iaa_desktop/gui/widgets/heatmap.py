"""A matrix heatmap painted with QPainter: instant, and no GIL-holding renderer in the GUI's way.

The report draws the same matrices with matplotlib (``core/export/charts_table.py``); on screen
a native widget keeps the window responsive while large studies compute.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from iaa_desktop.gui.widgets.short_text import TEXT_CHARS, shown

# colour stops (position, r, g, b)
DIVERGING = [
    (0.0, 165, 0, 38),
    (0.25, 244, 109, 67),
    (0.5, 255, 255, 191),
    (0.75, 116, 196, 98),
    (1.0, 0, 104, 55),
]
SEQUENTIAL = [(0.0, 247, 251, 255), (0.5, 107, 174, 214), (1.0, 8, 48, 107)]


def colour_at(t: float, stops: list[tuple[float, int, int, int]]) -> QColor:
    t = min(1.0, max(0.0, t))
    for (p0, *c0), (p1, *c1) in zip(stops, stops[1:]):
        if t <= p1:
            f = 0.0 if p1 == p0 else (t - p0) / (p1 - p0)
            return QColor(*(int(a + (b - a) * f) for a, b in zip(c0, c1)))
    return QColor(*stops[-1][1:])


class MatrixHeatmap(QWidget):
    """Rows × columns of coloured cells with their values; hover shows the pair and the value;
    a click on a cell emits :attr:`cell_clicked` (row, column) so a view can list what is behind it.
    """

    cell_clicked = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(220, 180)
        self.setMouseTracking(True)
        self._values = np.zeros((0, 0))
        self._rows: list[str] = []
        self._cols: list[str] = []
        self._title = ""
        self._vmin, self._vmax = -1.0, 1.0
        self._stops = DIVERGING
        self._digits = 2
        self._cells: list[tuple[QRectF, int, int]] = []

    def set_matrix(
        self,
        values,
        rows,
        cols,
        title: str = "",
        vmin: float | None = None,
        vmax: float | None = None,
        sequential: bool = False,
        digits: int = 2,
    ) -> None:
        self._values = np.asarray(values, dtype=float)
        # names measured at every paint: shown shortened (a name of a megabyte took seconds)
        self._rows, self._cols = [shown(r) for r in rows], [shown(c) for c in cols]
        self._title = shown(title, TEXT_CHARS)
        finite = self._values[np.isfinite(self._values)]
        self._vmin = vmin if vmin is not None else (float(finite.min()) if finite.size else 0.0)
        self._vmax = vmax if vmax is not None else (float(finite.max()) if finite.size else 1.0)
        self._stops = SEQUENTIAL if sequential else DIVERGING
        self._digits = digits
        self.update()

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), self.palette().base())
        n_r, n_c = self._values.shape if self._values.ndim == 2 else (0, 0)
        if n_r == 0 or n_c == 0:
            p.end()
            return
        font = QFont(self.font())
        fm = QFontMetrics(font)
        title_h = fm.height() + 8 if self._title else 4
        left = min(
            max((fm.horizontalAdvance(r) for r in self._rows), default=0) + 12, self.width() // 3
        )
        bottom = min(
            max((fm.horizontalAdvance(c) for c in self._cols), default=0) * 0.75 + 16,
            self.height() // 3,
        )
        legend_w = 46
        avail_w = self.width() - left - legend_w - 8
        avail_h = self.height() - title_h - bottom - 4
        cell = max(8.0, min(avail_w / n_c, avail_h / n_r))
        x0 = left + max(0.0, (avail_w - cell * n_c) / 2)
        y0 = title_h
        if self._title:
            bold = QFont(font)
            bold.setBold(True)
            p.setFont(bold)
            p.drawText(
                QRectF(0, 2, self.width(), title_h),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                self._title,
            )
            p.setFont(font)
        span = (self._vmax - self._vmin) or 1.0
        self._cells = []
        small = QFont(font)
        small.setPointSizeF(max(6.0, min(font.pointSizeF(), cell / 4.2)))
        for i in range(n_r):
            for j in range(n_c):
                v = self._values[i, j]
                rect = QRectF(x0 + j * cell, y0 + i * cell, cell, cell)
                self._cells.append((rect, i, j))
                if math.isnan(v):
                    p.fillRect(rect, QColor(235, 235, 235))
                    continue
                t = (v - self._vmin) / span
                colour = colour_at(t, self._stops)
                p.fillRect(rect, colour)
                if cell >= 26:
                    p.setFont(small)
                    p.setPen(QColor("white") if colour.lightnessF() < 0.45 else QColor("black"))
                    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{v:.{self._digits}f}")
        p.setFont(font)
        p.setPen(QPen(self.palette().text().color()))
        for i, name in enumerate(self._rows):
            p.drawText(
                QRectF(0, y0 + i * cell, x0 - 6, cell),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                fm.elidedText(name, Qt.TextElideMode.ElideRight, int(x0 - 8)),
            )
        for j, name in enumerate(self._cols):
            p.save()
            p.translate(x0 + (j + 0.5) * cell, y0 + n_r * cell + 6)
            p.rotate(35)
            p.drawText(
                0, fm.ascent(), fm.elidedText(name, Qt.TextElideMode.ElideRight, int(bottom * 1.3))
            )
            p.restore()
        self._paint_legend(p, fm, x0 + n_c * cell + 12, y0, n_r * cell)
        p.end()

    def _paint_legend(self, p: QPainter, fm: QFontMetrics, lx: float, y0: float, lh: float) -> None:
        """The colour scale beside the matrix, with its two ends (outside the cells)."""
        steps = 40
        for k in range(steps):
            t = 1 - k / (steps - 1)
            p.fillRect(
                QRectF(lx, y0 + k * lh / steps, 12, lh / steps + 1), colour_at(t, self._stops)
            )
        p.drawText(
            QRectF(lx + 14, y0 - 2, 40, fm.height()),
            Qt.AlignmentFlag.AlignLeft,
            f"{self._vmax:.2g}",
        )
        p.drawText(
            QRectF(lx + 14, y0 + lh - fm.height() + 2, 40, fm.height()),
            Qt.AlignmentFlag.AlignLeft,
            f"{self._vmin:.2g}",
        )

    #: what a click on a cell does, for the tooltip ("" = nothing)
    click_hint = ""

    def cell_at(self, pos) -> tuple[int, int] | None:
        for rect, i, j in self._cells:
            if rect.contains(pos):
                return i, j
        return None

    def mouseMoveEvent(self, event) -> None:
        hit = self.cell_at(event.position())
        if hit is None:
            self.setToolTip("")
            self.unsetCursor()
            return
        i, j = hit
        v = self._values[i, j]
        self.setToolTip(
            f"{self._rows[i]} × {self._cols[j]}: "
            + ("– (undefined)" if math.isnan(v) else f"{v:.{max(self._digits, 3)}f}")
            + (f"\n{self.click_hint}" if self.click_hint else "")
        )
        if self.click_hint:
            self.setCursor(Qt.CursorShape.PointingHandCursor)

    def mousePressEvent(self, event) -> None:
        hit = self.cell_at(event.position())
        if hit is not None and event.button() == Qt.MouseButton.LeftButton:
            self.cell_clicked.emit(*hit)
        super().mousePressEvent(event)

    def cell_centre(self, i: int, j: int):
        """Centre of cell (i, j) in widget coordinates (tests click there)."""
        for rect, a, b in self._cells:
            if (a, b) == (i, j):
                return rect.center()
        return None

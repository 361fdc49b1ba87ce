"""A timeline of annotators' units: one lane per annotator, blocks on a shared time axis.

Each unit is a block from its start to its end (a point, of length zero, a diamond), filled with
its label's colour, its border in the colour of its group's agreement (as the spans view marks
them); the units of one group in neighbouring lanes are linked by a line. Ctrl + wheel or the
+ / − keys zoom around the pointer (or the view's centre), the wheel and the scroll bar scroll.
A click on a block emits :attr:`TimelineView.unit_clicked` with the block's group; Space emits
:attr:`TimelineView.play_requested`.
Painting draws only the blocks in view (found by binary search), so a recording of hours with
tens of thousands of units scrolls at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPolygonF,
    QWheelEvent,
)
from PySide6.QtWidgets import QScrollArea, QWidget

LANE_HEIGHT = 34
AXIS_HEIGHT = 22
NAME_WIDTH = 120
#: the widest canvas Qt draws (its limit is 16,777,215 pixels)
MAX_WIDTH = 8_000_000
#: more units than this in view are drawn as coverage (grey to red: the share in disagreement)
MAX_BLOCKS = 1500
#: shades of the coverage, from every unit agreeing (grey) to every unit disagreeing (red)
SHADES = ("#9e9e9e", "#b98080", "#c86060", "#d03030", "#c00000")


@dataclass
class TimelineData:
    """What the timeline shows: lanes, and per block its lane, start and end (ms), label, fill
    colour, border colour, group and a note for its tooltip."""

    lanes: list[str]
    duration: int
    lane: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    start: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    end: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    label: list[str] = field(default_factory=list)
    fill: list[str] = field(default_factory=list)
    border: list[str] = field(default_factory=list)
    group: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: what the block's tooltip says after its lane, label and time (its kind of agreement)
    note: list[str] = field(default_factory=list)
    #: blocks sorted by start; the longest block (to find those reaching into view)
    order: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    longest: int = 0
    #: the border colour of units that agree (coverage draws the others in red)
    agree_colour: str = "#2e7d32"

    def tooltip(self, k: int) -> str:
        """Block ``k`` as a sentence: lane, label, time in seconds, note."""
        a, b = int(self.start[k]), int(self.end[k])
        note = f" — {self.note[k]}" if k < len(self.note) else ""
        return f"{self.lanes[int(self.lane[k])]}: {self.label[k]} {a / 1000:.3f}–{b / 1000:.3f} s{note}"

    def prepare(self) -> None:
        self.order = np.argsort(self.start, kind="stable")
        self.longest = int((self.end - self.start).max(initial=0))

    def visible(self, t0: float, t1: float) -> NDArray[np.int64]:
        """Blocks meeting [t0, t1] (ms)."""
        starts = self.start[self.order]
        lo = int(np.searchsorted(starts, t0 - self.longest, side="left"))
        hi = int(np.searchsorted(starts, t1, side="right"))
        ix = self.order[lo:hi]
        return ix[self.end[ix] >= t0]


def tick_step(px_per_ms: float) -> int:
    """A round time step (ms) putting axis ticks at least 80 pixels apart."""
    for step in (
        1,
        2,
        5,
        10,
        20,
        50,
        100,
        200,
        500,
        1000,
        2000,
        5000,
        10_000,
        15_000,
        30_000,
        60_000,
        120_000,
        300_000,
        600_000,
        900_000,
        1_800_000,
        3_600_000,
    ):
        if step * px_per_ms >= 80:
            return step
    return 7_200_000


def time_text(ms: int, step: int) -> str:
    """``m:ss`` (with ``.s``/``.ss``/``.sss`` as the step asks), hours when there are any."""
    sign = "-" if ms < 0 else ""
    ms = abs(ms)
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, frac = divmod(rest, 1000)
    digits = 0 if step % 1000 == 0 else 1 if step % 100 == 0 else 2 if step % 10 == 0 else 3
    tail = f".{frac:03d}"[: digits + 1] if digits else ""
    return f"{sign}{h}:{m:02d}:{s:02d}{tail}" if h else f"{sign}{m}:{s:02d}{tail}"


class _Canvas(QWidget):
    def __init__(self, view: TimelineView) -> None:
        super().__init__()
        self.view = view
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:
        return self.size()

    def x_of(self, ms: float) -> float:
        return NAME_WIDTH + ms * self.view.px_per_ms

    def ms_of(self, x: float) -> float:
        return (x - NAME_WIDTH) / self.view.px_per_ms

    def lane_y(self, lane: int) -> int:
        return AXIS_HEIGHT + lane * LANE_HEIGHT

    def block_at(self, pos: QPoint) -> int:
        data = self.view.data
        if data is None:
            return -1
        lane = (pos.y() - AXIS_HEIGHT) // LANE_HEIGHT
        t = self.ms_of(pos.x())
        slack = 4 / self.view.px_per_ms  # a point or a thin block is hit within 4 pixels
        ix = data.visible(t - slack, t + slack)
        ix = ix[data.lane[ix] == lane]
        return int(ix[0]) if len(ix) else -1

    def mousePressEvent(self, event: QMouseEvent) -> None:
        k = self.block_at(event.position().toPoint())
        if k >= 0 and self.view.data is not None:
            self.view.select(int(self.view.data.group[k]))
            self.view.selected_block = k
            self.view.unit_clicked.emit(int(self.view.data.group[k]))
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        k = self.block_at(event.position().toPoint())
        data = self.view.data
        self.setToolTip(data.tooltip(k) if k >= 0 and data is not None else "")
        super().mouseMoveEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        data = self.view.data
        p = QPainter(self)
        p.fillRect(event.rect(), QColor("white"))
        if data is None:
            return
        r = event.rect()
        t0, t1 = self.ms_of(r.left()), self.ms_of(r.right())
        ppm = self.view.px_per_ms
        # lanes
        for k, _name in enumerate(data.lanes):
            y = self.lane_y(k)
            if k % 2:
                p.fillRect(QRectF(r.left(), y, r.width(), LANE_HEIGHT), QColor("#f6f6f6"))
        # axis
        step = tick_step(ppm)
        p.setPen(QPen(QColor("#888")))
        first = max(0, int(t0 // step) * step)
        t = first
        while t <= min(t1, data.duration) + step:
            x = self.x_of(t)
            p.drawLine(QPointF(x, AXIS_HEIGHT - 6), QPointF(x, self.height()))
            p.drawText(QPointF(x + 3, AXIS_HEIGHT - 8), time_text(t, step))
            t += step
        p.setPen(QPen(QColor("#ddd")))
        p.drawLine(
            QPointF(self.x_of(data.duration), 0), QPointF(self.x_of(data.duration), self.height())
        )
        ix = data.visible(t0, t1)
        if len(ix) > MAX_BLOCKS:  # too many to tell apart: where units and disagreements are
            self._coverage(p, data, ix, r.left(), r.right())
        else:
            self._links(p, data, ix)
            self._blocks(p, data, ix)
        # lane names, fixed at the left edge of the view
        left = self.view.horizontalScrollBar().value()
        p.fillRect(QRectF(left, 0, NAME_WIDTH - 4, self.height()), QColor("#fafafa"))
        p.setPen(QColor("#333"))
        p.setFont(self.font())
        fm = QFontMetrics(self.font())
        for k, name in enumerate(data.lanes):
            rect = QRectF(left + 4, self.lane_y(k), NAME_WIDTH - 10, LANE_HEIGHT)
            p.drawText(
                rect,
                Qt.AlignmentFlag.AlignVCenter,
                fm.elidedText(name, Qt.TextElideMode.ElideRight, NAME_WIDTH - 12),
            )
        p.end()

    def _blocks(self, p: QPainter, data: TimelineData, ix: NDArray[np.int64]) -> None:
        """Each unit a block (a point a diamond), its label inside when it fits."""
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1))
        p.setFont(font)
        fm = QFontMetrics(font)
        sel = self.view.selected
        h = LANE_HEIGHT - 10
        for k in ix.tolist():
            y = self.lane_y(int(data.lane[k])) + 5
            x0, x1 = self.x_of(float(data.start[k])), self.x_of(float(data.end[k]))
            pen = QPen(QColor(data.border[k]), 3 if data.group[k] == sel else 1.5)
            if data.group[k] == sel:
                pen.setColor(QColor("black"))
            p.setPen(pen)
            p.setBrush(QColor(data.fill[k]))
            if data.end[k] == data.start[k]:  # a point (Praat's point tiers)
                diamond = [(0, 0), (5, h / 2), (0, h), (-5, h / 2)]
                p.drawPolygon(QPolygonF([QPointF(x0 + dx, y + dy) for dx, dy in diamond]))
                continue
            p.drawRect(QRectF(x0, y, max(x1 - x0, 1.0), h))
            if x1 - x0 > 12:
                p.setPen(QColor("black"))
                text = fm.elidedText(data.label[k], Qt.TextElideMode.ElideRight, int(x1 - x0 - 6))
                p.drawText(QRectF(x0 + 3, y, x1 - x0 - 6, h), Qt.AlignmentFlag.AlignVCenter, text)

    def _coverage(
        self, p: QPainter, data: TimelineData, ix: NDArray[np.int64], left: int, right: int
    ) -> None:
        """Per lane, the pixel columns that units cover, shaded from grey (every unit there
        agrees) to red (every unit there is in a disagreement): runs of columns of one shade,
        not one shape per unit."""
        width = right - left + 1
        x0 = np.floor(NAME_WIDTH + data.start[ix] * self.view.px_per_ms).astype(np.int64) - left
        x1 = np.ceil(NAME_WIDTH + data.end[ix] * self.view.px_per_ms).astype(np.int64) - left
        x0, x1 = np.clip(x0, 0, width), np.clip(np.maximum(x1, x0 + 1), 0, width)
        bad = (np.array(data.border, dtype=object)[ix] != data.agree_colour).astype(np.int64)
        for lane in range(len(data.lanes)):
            sel = data.lane[ix] == lane
            counts = []
            for weight in (np.ones(int(sel.sum()), dtype=np.int64), bad[sel]):
                diff = np.zeros(width + 1, dtype=np.int64)
                np.add.at(diff, x0[sel], weight)
                np.add.at(diff, x1[sel], -weight)
                counts.append(np.cumsum(diff)[:width])
            every, worse = counts
            # 0: nothing; 1..5: covered, from all agreeing to all disagreeing
            level = np.where(every > 0, 1 + np.round(4 * worse / np.maximum(every, 1)), 0)
            cuts = np.flatnonzero(np.diff(level)) + 1
            y = self.lane_y(lane) + 5
            for a, b in zip(
                np.concatenate([[0], cuts]).tolist(), np.concatenate([cuts, [width]]).tolist()
            ):
                if level[a]:
                    p.fillRect(
                        QRectF(left + a, y, b - a, LANE_HEIGHT - 10),
                        QColor(SHADES[int(level[a]) - 1]),
                    )

    def _links(self, p: QPainter, data: TimelineData, ix: NDArray[np.int64]) -> None:
        """A line from each block to the block of its group in the next lane down."""
        if not len(ix):
            return
        by: dict[tuple[int, int], int] = {}
        for k in ix.tolist():
            by.setdefault((int(data.group[k]), int(data.lane[k])), k)
        for (g, lane), k in by.items():
            below = next((by[(g, m)] for m in range(lane + 1, len(data.lanes)) if (g, m) in by), -1)
            if below < 0:
                continue
            p.setPen(QPen(QColor(data.border[k]), 1, Qt.PenStyle.DashLine))
            a = (self.x_of(float(data.start[k])) + self.x_of(float(data.end[k]))) / 2
            b = (self.x_of(float(data.start[below])) + self.x_of(float(data.end[below]))) / 2
            p.drawLine(
                QPointF(a, self.lane_y(lane) + LANE_HEIGHT - 5),
                QPointF(b, self.lane_y(int(data.lane[below])) + 5),
            )


class TimelineView(QScrollArea):
    """The timeline (see the module docstring)."""

    unit_clicked = Signal(int)
    #: Space pressed: play the selected unit's stretch of the recording
    play_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data: TimelineData | None = None
        self.px_per_ms = 0.1
        self.selected = -1
        #: the block clicked in the selected group (-1: selected otherwise)
        self.selected_block = -1
        #: the document shown (set by the view that fills it)
        self.document = -1
        self.canvas = _Canvas(self)
        self.setWidget(self.canvas)
        self.setWidgetResizable(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setObjectName("timeline")

    def set_data(self, data: TimelineData) -> None:
        data.prepare()
        self.data = data
        self.selected = -1
        width = max(self.viewport().width() - NAME_WIDTH - 10, 200)
        self.px_per_ms = width / max(data.duration, 1)  # the whole recording in view
        self._resize()

    def _resize(self) -> None:
        data = self.data
        if data is None:
            return
        width = int(NAME_WIDTH + data.duration * self.px_per_ms + 20)
        height = AXIS_HEIGHT + LANE_HEIGHT * len(data.lanes) + 4
        self.canvas.resize(min(width, MAX_WIDTH), max(height, self.viewport().height() - 2))
        self.canvas.update()

    def zoom(self, factor: float, at_x: float | None = None) -> None:
        """Zoom by ``factor`` keeping the time under ``at_x`` (viewport pixels) in place."""
        if self.data is None:
            return
        bar = self.horizontalScrollBar()
        at_x = self.viewport().width() / 2 if at_x is None else at_x
        t = self.canvas.ms_of(bar.value() + at_x)
        most = (MAX_WIDTH - NAME_WIDTH - 20) / max(self.data.duration, 1)
        least = (self.viewport().width() - NAME_WIDTH - 10) / max(self.data.duration, 1) / 2
        self.px_per_ms = min(max(self.px_per_ms * factor, min(least, most)), max(most, 1e-6), 20.0)
        self._resize()
        bar.setValue(int(self.canvas.x_of(t) - at_x))

    def select(self, group: int, scroll: bool = False) -> None:
        """Mark the blocks of ``group``; with ``scroll``, bring the first into view."""
        self.selected = group
        self.selected_block = -1
        data = self.data
        if scroll and data is not None:
            ix = np.flatnonzero(data.group == group)
            if len(ix):
                a = self.canvas.x_of(float(data.start[ix].min()))
                b = self.canvas.x_of(float(data.end[ix].max()))
                self.horizontalScrollBar().setValue(int((a + b) / 2 - self.viewport().width() / 2))
        self.canvas.update()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            self.zoom(1.25**steps, event.position().x())
            event.accept()
            return
        if event.angleDelta().y() and not event.angleDelta().x():
            bar = self.horizontalScrollBar()
            bar.setValue(bar.value() - int(event.angleDelta().y()))
            event.accept()
            return
        super().wheelEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.5)
        elif event.key() in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom(1 / 1.5)
        elif event.key() == Qt.Key.Key_Space:
            self.play_requested.emit()
        else:
            super().keyPressEvent(event)

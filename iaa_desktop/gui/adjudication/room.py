"""How the adjudication panel shares its width between the queue, the unit and the side panel.

The queue needs room for every annotator's version (and the decision) to be read: about
:data:`READABLE_CHARS` characters each, beside the state, the unit, its group and the severity.
When the window (at the current zoom) has that room beside the unit's minimum and the side
panel, nothing changes; when it has not, the side panel (agreement, this sitting's decisions,
exports) folds away first (the toolbar's "Agreement" button brings it back) and the queue takes
what the unit leaves, never less than :func:`useful_width` (the state, the severity, the unit
and two versions). Shared again on a zoom step and when the window is first shown or resized,
until the person drags the splitter themselves.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QSplitter, QTableView, QWidget

#: characters each version column is given when there is room
READABLE_CHARS = 9
#: below this, the side panel folds away to give the queue room
KEEP_SIDE_CHARS = 6


def _fixed(view: QTableView, model: Any) -> tuple[int, int, int]:
    """(char width, columns beside the versions at their usual width, extras: scroll bar and
    frame)."""
    fm, hfm = view.fontMetrics(), view.horizontalHeader().fontMetrics()
    ch = max(1, fm.averageCharWidth())
    state_w = fm.horizontalAdvance("✓•=") + 10
    severity_w = max(hfm.horizontalAdvance("Severity") + 30, fm.horizontalAdvance("0.00") + 20)
    unit = min(ch * 14, max(ch * 8, model.property("unit_width") or view.columnWidth(1)))
    group = 0 if view.isColumnHidden(2) else ch * 5
    extras = view.verticalScrollBar().sizeHint().width() + 2 * view.frameWidth() + 4
    return ch, state_w + severity_w + unit + group, extras


def queue_width(view: QTableView, model: Any, chars: int) -> int:
    """The queue's width with ``chars`` characters for every version and the decision."""
    ch, fixed, extras = _fixed(view, model)
    shared = model.decision_column() - 2
    return fixed + shared * ch * chars + extras


def useful_width(view: QTableView, model: Any) -> int:
    """The least a queue is of use with: its fixed columns and two versions of six
    characters (the others are reached by scrolling)."""
    ch, fixed, extras = _fixed(view, model)
    return fixed + 2 * ch * 6 + extras


class RoomSharer(QObject):
    """Shares ``split``'s width (queue, unit, side panel) as the module docstring says."""

    folded = Signal(bool)  # whether the side panel is folded away now

    def __init__(self, split: QSplitter, view: QTableView, model: Any) -> None:
        super().__init__(split)
        self.split, self.view, self.model = split, view, model
        self.user_moved = False
        self.user_folded = False
        self.side_folded = False
        # after the splitter and the fonts have laid out their children
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self.share)
        split.splitterMoved.connect(self._moved)
        split.installEventFilter(self)

    def _moved(self, _pos: int, _index: int) -> None:
        self.user_moved = True
        self._set_folded(self.split.sizes()[2] == 0)

    def _set_folded(self, on: bool) -> None:
        if on != self.side_folded:
            self.side_folded = on
            self.folded.emit(on)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show) and not self.user_moved:
            self._soon.start()
        return super().eventFilter(watched, event)

    def zoomed(self) -> None:
        """After a zoom step: shared again, whatever the person had dragged."""
        self.user_moved = False
        self._soon.start()

    def _part(self, k: int) -> QWidget:
        w = self.split.widget(k)
        assert w is not None
        return w

    def share(self) -> None:
        split = self.split
        if split.count() < 3 or split.width() <= 0:
            return
        queue, center, side = (self._part(k) for k in range(3))
        handles = split.handleWidth() * 2
        total = split.width() - handles
        center_min = center.minimumSizeHint().width()
        side_min = side.minimumSizeHint().width()
        useful = useful_width(self.view, self.model)
        # the queue keeps its place in the splitter at the least useful width (when the window
        # has that beside the unit)
        queue.setMinimumWidth(max(0, min(useful, total - center_min)))
        keep = queue_width(self.view, self.model, KEEP_SIDE_CHARS)
        sizes = split.sizes()
        if side.isHidden():
            sizes[2] = 0
        # hidden by another hand (the full-screen meeting layout): left so, its room not counted
        elsewhere = side.isHidden() and not self.side_folded
        if elsewhere:
            side_min = 0
        if keep + center_min + side_min <= total and not self.user_folded:
            if elsewhere:
                q = max(sizes[0], keep)
                split.setSizes([q, total - q, 0])
                return
            side.show()
            q = max(sizes[0], keep)
            s = max(side_min, sizes[2])
            c = total - q - s
            if c < center_min:
                q = max(keep, total - s - center_min)
                c = total - q - s
            split.setSizes([q, c, s])
            self._set_folded(False)
            return
        want = queue_width(self.view, self.model, READABLE_CHARS)
        q = max(min(useful, total - center_min), min(want, total - center_min))
        split.setSizes([q, total - q, 0])
        if not elsewhere:
            side.hide()  # hidden, its minimum width does not widen the window
            self._set_folded(True)

    def show_side(self, on: bool) -> None:
        """The toolbar's button: the side panel back (taken from the unit, then the queue),
        or folded away."""
        split = self.split
        q, c, s = split.sizes()
        side = self._part(2)
        self.user_folded = not on
        if on:
            side.show()
            want = side.minimumSizeHint().width()
            total = q + c + s
            center_min = self._part(1).minimumSizeHint().width()
            c2 = max(center_min, total - q - want)
            q2 = max(0, total - c2 - want)
            split.setSizes([q2, c2, want])
        else:
            side.hide()
            split.setSizes([q, c + s, 0])
        self._set_folded(not on)
        self.user_moved = True  # the person chose: a resize keeps it

"""The adjudication queue: one row per unit, every annotator's version side by side.

Columns: the state (``•`` open, ``=`` merged automatically, ``✓`` decided), the unit, its group
(document, target, text), one column per annotator in display order (the shown names in blind
mode) with each version in its value's colour, the decision (decided by hand, or merged
automatically) in its value's colour, and the severity. Rows are tinted by severity.
The model is a thin read-only adapter over the session: the rows are an index array, values are
looked up when painted.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QHeaderView, QTableView

from iaa_desktop.core.adjudication import AdjudicationSession
from iaa_desktop.gui.widgets.colours import ValueColours, severity_colour
from iaa_desktop.gui.widgets.frame_model import Role
from iaa_desktop.gui.widgets.short_text import shown, shown_text, tip
from iaa_desktop.gui.widgets.text import bidi_cell

_Index = QModelIndex | QPersistentModelIndex
STATE_TIP = "• = to decide · = = merged automatically (the strategy) · ✓ = decided"
#: the room a version keeps before the unit and group columns give way (in characters)
VERSION_CHARS = 8
#: the least room a version is shown in; narrower, the queue scrolls sideways
MIN_VERSION_CHARS = 5
#: longest version shown in a cell (the full one is in the tooltip)
CELL_CHARS = 40


class QueueModel(QAbstractTableModel):
    """See the module docstring."""

    UnitRole = Role.RowKey  # the unit index of a row

    def __init__(self, session: AdjudicationSession, parent: Any = None) -> None:
        super().__init__(parent)
        self._s = session
        self._idx = np.zeros(0, dtype=np.int64)
        m = session.model
        self.colours = ValueColours(m.colour_values(), ordered=bool(m.numeric))
        self._fixed = ["state", "unit", "group"]
        self._has_group = any(m.groups)

    # -- rows ---------------------------------------------------------------------------------

    def set_indices(self, idx: np.ndarray) -> None:
        """New queue; one unit leaving (the usual case after a decision) is a row removal, so the
        view keeps its place without relaying out every row."""
        new = np.asarray(idx, dtype=np.int64)
        old = self._idx
        if len(new) == len(old) - 1 and len(old):
            diff = np.flatnonzero(old[: len(new)] != new)
            k = int(diff[0]) if len(diff) else len(new)
            if np.array_equal(old[k + 1 :], new[k:]):
                self.beginRemoveRows(QModelIndex(), k, k)
                self._idx = new
                self.endRemoveRows()
                return
        elif np.array_equal(new, old):
            if len(new):
                self.dataChanged.emit(
                    self.index(0, 0), self.index(len(new) - 1, self.columnCount() - 1)
                )
            return
        self.beginResetModel()
        self._idx = new
        self.endResetModel()

    def indices(self) -> np.ndarray:
        return self._idx

    def row_of(self, unit: int) -> int:
        hit = np.flatnonzero(self._idx == unit)
        return int(hit[0]) if len(hit) else -1

    def refresh_names(self) -> None:
        """The shown names changed (blind mode): headers and cells again."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)
        if len(self._idx):
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self._idx) - 1, self.columnCount() - 1)
            )

    # -- columns ------------------------------------------------------------------------------

    def _annotator_column(self, column: int) -> int | None:
        """The annotator column (model order) shown in ``column``, or None."""
        k = column - 3
        order = self._s.annotator_order
        return order[k] if 0 <= k < len(order) else None

    def decision_column(self) -> int:
        return 3 + len(self._s.model.annotators)

    def decision_text(self, i: int) -> str:
        """What unit ``i``'s gold is: the value decided (or merged automatically), else empty."""
        v = self._gold_value(i)
        return "" if v is None else self._s.model.describe_value(i, v)

    def _gold_value(self, i: int) -> str | None:
        d = self._s.decision(i)
        return d.value if d is not None else self._s.auto_value(i)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._idx)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 3 + len(self._s.model.annotators) + 2

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < self.columnCount():
            return None
        n = len(self._s.model.annotators)
        if role == Qt.ItemDataRole.DisplayRole:
            if section < 3:
                return ("", "Unit", "Group")[section]
            if section < 3 + n:
                return shown(short_names(self._s.display_names())[section - 3])
            return "Decision" if section == 3 + n else "Severity"
        if role == Qt.ItemDataRole.ToolTipRole:
            if section == 0:
                return STATE_TIP
            if section == 3 + n:
                return "the gold so far: decided (✓) or merged automatically (=); empty = to decide"
            if section == 4 + n:
                return (
                    "how far apart the versions are, 0–1, on the scale of the level of "
                    "measurement; rows are tinted by it"
                )
            if 3 <= section < 3 + n:
                return f"{tip(self._s.display_names()[section - 3])}: this annotator's version; one colour per value, {self._s.model.missing_legend}"
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        i = int(self._idx[index.row()])
        c = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(i, c)
        if role == Role.RowKey:
            return i
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._background(i, c)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(i, c)
        if role == Qt.ItemDataRole.TextAlignmentRole and c == self.columnCount() - 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _state(self, i: int) -> str:
        s = self._s
        return "✓" if s.is_decided(i) else ("=" if s.auto_value(i) is not None else "•")

    def _display(self, i: int, c: int) -> str:
        s, m = self._s, self._s.model
        if c == 0:
            return self._state(i)
        if c == 1:
            title, group = s.title(i), str(m.groups[i])
            for sep in (": ", "/"):  # the group has its own column
                if group and title.startswith(group + sep) and len(title) > len(group + sep):
                    title = title[len(group + sep) :]
                    break
            return queue_cell(title)
        if c == 2:
            return queue_cell(str(m.groups[i]))
        x = self._annotator_column(c)
        if x is not None or c == self.decision_column():
            if x is not None:
                v = m.versions[i, x]
                missing = m.missing_text(i, x) if v is None else None
                text = m.describe_value(i, v) if v is not None else missing
                text = "—" if text is None else text
            else:
                text = self.decision_text(i)
            return queue_cell(text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…")
        d = m.disagreement[i]
        return f"{d:.2f}" if np.isfinite(d) else "–"

    def _background(self, i: int, c: int) -> QBrush | None:
        m = self._s.model
        x = self._annotator_column(c)
        if x is not None or c == self.decision_column():
            v = m.versions[i, x] if x is not None else self._gold_value(i)
            colour = self.colours.colour(v) if v is not None else None
            return QBrush(colour) if colour is not None else None
        d = m.disagreement[i]
        if c != 0 and np.isfinite(d) and d > 0:
            return QBrush(severity_colour(min(1.0, float(d))))
        return None

    def _tooltip(self, i: int, c: int) -> str | None:
        m = self._s.model
        if c == 0:
            return STATE_TIP
        if c in (1, 2):
            return self._s.title(i)
        x = self._annotator_column(c)
        if x is not None:
            v = m.versions[i, x]
            missing = m.missing_text(i, x) if v is None else None
            return m.describe_value(i, v) if missing is None else m.missing_legend
        if c == self.decision_column():
            return self.decision_text(i) or "to decide"
        return None


#: a quote as the kinds write it, isolated (‘FSI text PDI’), once :func:`bidi_cell` escaped it
_OWN_ISOLATE = re.compile("‘<U\\+2068>(.*?)<U\\+2069>’")


def queue_cell(text: str) -> str:
    """:func:`bidi_cell`, keeping the isolates a kind puts around a quoted text (‘⁨…⁩’:
    a right-to-left quote stays in its place beside the offsets); any other bidirectional
    control, a quoted one too, is shown escaped."""
    return _OWN_ISOLATE.sub("‘⁨\\1⁩’", bidi_cell(shown_text(text)))


def short_names(names: Sequence[str]) -> list[str]:
    """Column titles that tell the annotators apart in narrow columns: a prefix every name
    shares (``annotator_1`` … ``annotator_5``) is left out, "…" in its place; the names as they
    are when they share less than three characters or one name is all prefix."""
    names = list(names)
    prefix = os.path.commonprefix(names) if len(names) > 1 else ""
    if len(prefix) < 3 or any(len(n) == len(prefix) for n in names):
        return names
    return ["…" + n[len(prefix) :] for n in names]


def share_columns(view: QTableView, model: QueueModel) -> None:
    """The annotators' versions and the decision share the queue's width (elided, the whole text
    in the tooltip); the state and the severity columns
    are as wide as their text; the unit and group columns give way (down to a few characters)
    so that every version keeps room for :data:`VERSION_CHARS` characters. Called again when the queue is
    resized (:class:`ColumnSharer`)."""
    hh = view.horizontalHeader()
    fm, hfm = view.fontMetrics(), hh.fontMetrics()
    ch = max(1, fm.averageCharWidth())
    n = model.columnCount()
    hh.setStretchLastSection(False)
    mode = QHeaderView.ResizeMode
    for c in (0, n - 1):
        hh.setSectionResizeMode(c, mode.Fixed)
    state_w = fm.horizontalAdvance("✓•=") + 10
    severity_w = max(hfm.horizontalAdvance("Severity") + 30, fm.horizontalAdvance("0.00") + 20)
    view.setColumnWidth(0, state_w)
    view.setColumnWidth(n - 1, severity_w)
    shared = model.decision_column() - 2  # annotators and the decision
    avail = view.viewport().width() - state_w - severity_w - shared * ch * VERSION_CHARS
    unit = min(ch * 22, max(ch * 10, model.property("unit_width") or view.columnWidth(1)))
    group = 0 if view.isColumnHidden(2) else min(ch * 12, view.columnWidth(2))
    if unit + group > avail:
        group = 0 if view.isColumnHidden(2) else max(ch * 5, min(group, max(0, avail) // 3))
        unit = max(ch * 8, avail - group)
    view.setColumnWidth(1, unit)
    if not view.isColumnHidden(2):
        view.setColumnWidth(2, group)
    # fewer than MIN_VERSION_CHARS each (a large zoom): the versions keep that width and the
    # queue scrolls sideways, rather than showing "…" alone
    room = view.viewport().width() - state_w - severity_w - unit - group
    narrow = room < shared * ch * MIN_VERSION_CHARS
    for c in range(3, model.decision_column() + 1):
        if narrow:
            hh.setSectionResizeMode(c, mode.Interactive)
            view.setColumnWidth(c, ch * (MIN_VERSION_CHARS + 1))
        else:
            hh.setSectionResizeMode(c, mode.Stretch)
    # too narrow for every column (a large zoom beside the side panels): the severity is shown
    # right after the state, where scrolling never hides part of its number
    least = ch * (MIN_VERSION_CHARS + 1) if narrow else hh.minimumSectionSize()
    needed = state_w + severity_w + unit + group + shared * least
    place = 1 if needed > view.viewport().width() else n - 1
    if hh.visualIndex(n - 1) != place:
        hh.moveSection(hh.visualIndex(n - 1), place)


class ColumnSharer(QObject):
    """Shares the queue's width again whenever its viewport is resized."""

    def __init__(self, view: QTableView, model: QueueModel) -> None:
        super().__init__(view)
        self._view, self._model = view, model
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        view = getattr(self, "_view", None)
        if view is not None and event.type() == QEvent.Type.Resize:
            share_columns(view, self._model)
        return super().eventFilter(watched, event)

"""A thin read-only table model over a DataFrame snapshot, sorted with pandas."""

from __future__ import annotations

import math
from enum import IntEnum
from typing import Any

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor


class Role(IntEnum):
    """Custom roles of the project's table models."""

    SortValue = Qt.ItemDataRole.UserRole + 1
    RowKey = Qt.ItemDataRole.UserRole + 2
    FilterText = Qt.ItemDataRole.UserRole + 3


def format_value(v: Any, digits: int = 3) -> str:
    if v is None:
        return ""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float):
        if math.isnan(v):
            return "–"
        if v.is_integer() and abs(v) < 1e15:
            return str(int(v))
        return f"{v:.{digits}f}"
    if hasattr(v, "item"):
        return format_value(v.item(), digits)
    return str(v)


class DataFrameModel(QAbstractTableModel):
    """Read-only adapter over a DataFrame. ``set_frame`` resets; ``sort`` sorts in pandas.

    ``tooltips`` maps column names to header tooltips; ``tint_column`` names a column in 0..1 whose
    value tints the row (e.g. disagreement).
    """

    def __init__(
        self,
        frame=None,
        parent=None,
        digits: int = 3,
        tooltips: dict[str, str] | None = None,
        tint_column: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(parent)
        import pandas as pd

        self._frame = frame if frame is not None else pd.DataFrame()
        self._digits = digits
        self._tooltips = tooltips or {}
        self._tint = tint_column
        self._headers = headers or {}
        self._row_tooltips: dict[str, str] = {}
        self._full = self._frame
        self._search = None
        self._needle = ""
        self._cache_columns()

    @property
    def frame(self):
        return self._frame

    def set_frame(self, frame) -> None:
        self.beginResetModel()
        self._full = frame.reset_index(drop=True)
        self._search = None
        self._frame = self._apply_filter(self._full)
        self._cache_columns()
        self.endResetModel()

    def set_filter(self, text: str) -> None:
        """Show only the rows with ``text`` in any cell (case-insensitive), computed in pandas."""
        self._needle = text.casefold().strip()
        self.beginResetModel()
        self._frame = self._apply_filter(self._full)
        self._cache_columns()
        self.endResetModel()

    def _apply_filter(self, frame):
        needle = getattr(self, "_needle", "")
        if not needle or frame.empty:
            return frame
        if self._search is None:  # built on the first filter, then reused
            self._search = frame.astype(str).agg(" ".join, axis=1).str.casefold()
        mask = self._search.str.contains(needle, regex=False).to_numpy()
        return frame[mask].reset_index(drop=True)

    def _cache_columns(self) -> None:
        # plain per-column arrays: a cell lookup in data() must not go through pandas indexing
        self._columns = [self._frame[c].to_numpy() for c in self._frame.columns]
        self._tint_values = (
            self._frame[self._tint].to_numpy(dtype=float)
            if self._tint and self._tint in self._frame.columns
            else None
        )

    def set_row_tooltips(self, by_first_column: dict[str, str]) -> None:
        self._row_tooltips = by_first_column

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._frame)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._frame.columns)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        value = self._columns[index.column()][index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return format_value(value, self._digits)
        if role == Role.SortValue:
            return value
        if role == Role.RowKey:
            return index.row()
        if role == Role.FilterText:
            return " ".join(str(col[index.row()]) for col in self._columns)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if isinstance(value, int | float | np.integer | np.floating) and not isinstance(
                value, bool
            ):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole and self._tint_values is not None:
            t = self._tint_values[index.row()]
            if not math.isnan(t) and t > 0:
                return QBrush(QColor(220, 60, 60, int(15 + 55 * min(1.0, t))))
        if role == Qt.ItemDataRole.ToolTipRole and self._row_tooltips:
            return self._row_tooltips.get(str(self._columns[0][index.row()]))
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self._frame.columns):
            name = str(self._frame.columns[section])
            if role == Qt.ItemDataRole.DisplayRole:
                return self._headers.get(name, name)
            if role == Qt.ItemDataRole.ToolTipRole:
                return self._tooltips.get(name)
        if orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
            return str(section + 1)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not (0 <= column < len(self._frame.columns)):
            return
        self.layoutAboutToBeChanged.emit()
        name = self._frame.columns[column]
        ascending = order == Qt.SortOrder.AscendingOrder
        self._full = self._full.sort_values(
            name, ascending=ascending, kind="stable", na_position="last"
        ).reset_index(drop=True)
        self._search = None
        self._frame = self._apply_filter(self._full)
        self._cache_columns()
        self.layoutChanged.emit()


class TextFilterProxy(QSortFilterProxyModel):
    """Filters rows by a text contained in any cell (reads ``Role.FilterText``); sorting is
    delegated to the source model, which sorts in pandas."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._needle = ""
        self.setFilterRole(Role.FilterText)

    def set_needle(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt ≥ 6.9; invalidateFilter() is deprecated there
            self.beginFilterChange()
            self._needle = text.casefold().strip()
            self.endFilterChange()
        else:
            self._needle = text.casefold().strip()
            self.invalidateFilter()

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        if not self._needle:
            return True
        idx = self.sourceModel().index(source_row, 0, source_parent)
        return self._needle in str(self.sourceModel().data(idx, Role.FilterText)).casefold()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)

"""THE table model of the GUI: a thin read-only adapter over a DataFrame snapshot.

Every table of every view is a :class:`DataFrameModel` (custom roles in :class:`Role`). It

* formats numbers once (digits, percentages, ``–`` for an undefined value with a tooltip saying
  why, ``yes``/``no``), and embeds right-to-left text (:func:`~iaa_desktop.gui.widgets.text.bidi_cell`);
* shows human column titles and the Measures text as header tooltips
  (:mod:`iaa_desktop.core.export.titles`);
* tints a row by its disagreement severity and each label cell by its value (one colour per
  label value, a ramp for an ordered scale);
* sorts in numpy (stable, undefined values last in both directions) as a layout change that keeps
  persistent indexes, so a selection survives sorting (Orange3's table models do the same);
* filters by a text and by a row mask (``disagreements only``) without a proxy model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from enum import IntEnum
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush

from iaa_desktop.core.export.titles import column_title, column_tooltip
from iaa_desktop.gui.widgets.colours import ValueColours, severity_colour
from iaa_desktop.gui.widgets.short_text import is_shortened, shown, shown_text, tip
from iaa_desktop.gui.widgets.text import bidi_cell, is_rtl, wrap_tip

UNDEFINED = "–"
UNDEFINED_TIP = (
    "– = undefined: too few items, or the expected agreement is 1 (the annotators used one value "
    "only), so the coefficient divides by zero"
)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_Index = QModelIndex | QPersistentModelIndex


class Role(IntEnum):
    """Custom roles of the project's table models."""

    #: the cell's value as held in the frame (numbers stay numbers)
    Raw = Qt.ItemDataRole.UserRole + 1
    #: the row's position in the frame given to ``set_frame`` (stable across sorting and filters)
    RowKey = Qt.ItemDataRole.UserRole + 2
    #: the whole row as one case-folded text (what the text filter searches)
    FilterText = Qt.ItemDataRole.UserRole + 3
    #: the row's disagreement severity in 0..1 (NaN = none)
    Severity = Qt.ItemDataRole.UserRole + 4


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float | np.integer | np.floating) and not isinstance(
        v, bool | np.bool_
    )


def _is_nan(v: Any) -> bool:
    return isinstance(v, float | np.floating) and not math.isfinite(float(v))


def format_value(v: Any, digits: int = 3, percent: bool = False) -> str:
    """A cell as text: ``–`` for undefined, ``yes``/``no``, integers without decimals."""
    if v is None:
        return ""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if not math.isfinite(v):
            return UNDEFINED
        if percent:
            return f"{100 * v:.1f}%"
        if v.is_integer() and abs(v) < 1e15:
            return str(int(v))
        return f"{v:.{digits}f}"
    return str(v)


def _sort_keys(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(float keys, missing mask) of a column: numbers by value, anything else by its text.

    Vectorised (pandas): sorting a column of hundreds of thousands of rows stays a few ms.
    """
    series = pd.Series(values, dtype=object)
    numeric = pd.to_numeric(series, errors="coerce").to_numpy(float)
    missing = series.isna().to_numpy() | (series.astype(str) == "").to_numpy()
    if np.isfinite(numeric[~missing]).all():
        return np.nan_to_num(numeric, nan=0.0), missing
    codes, _uniq = pd.factorize(series.astype(str).str.casefold(), sort=True)
    return codes.astype(float), missing


def _row_text(frame: pd.DataFrame) -> pd.Series:
    """Every row as one case-folded text (columns joined), built column by column (vectorised)."""
    out: pd.Series | None = None
    # text columns only: numbers are found by their own columns' sort and filters
    text_cols = [c for c in frame.columns if frame[c].dtype == object] or list(frame.columns)
    for c in text_cols:
        col = frame[c].astype(str)
        out = col if out is None else out + "\x1f" + col
    return (out if out is not None else pd.Series([""] * len(frame))).str.casefold()


class DataFrameModel(QAbstractTableModel):
    """Read-only model over a DataFrame (see the module docstring).

    Parameters
    ----------
    frame : the snapshot (may be set later with :meth:`set_frame`)
    digits : decimals of non-integer numbers
    percent : columns shown as percentages
    hidden : columns kept in the frame (for lookups) but not shown
    headers : column → title, where a view names a column its own way
    tooltips : column → header tooltip (default: the Measures text of the column)
    cell_tooltips : column → (hidden) column whose value is the tooltip of its cells
    severity_column : column in 0..1 whose value tints the row (the disagreement severity)
    label_columns : columns holding labels; each label value gets its colour
    ordered_labels : the label values form an ordered scale (colours as a ramp)
    """

    def __init__(
        self,
        frame: pd.DataFrame | None = None,
        parent: Any = None,
        *,
        digits: int = 3,
        percent: Iterable[str] = (),
        hidden: Iterable[str] = (),
        headers: Mapping[str, str] | None = None,
        tooltips: Mapping[str, str] | None = None,
        cell_tooltips: Mapping[str, str] | None = None,
        severity_column: str | None = None,
        label_columns: Iterable[str] = (),
        ordered_labels: bool = False,
    ) -> None:
        super().__init__(parent)
        self._digits = digits
        self._percent = set(percent)
        self._hidden = set(hidden)
        self._headers = dict(headers or {})
        self._tooltips = dict(tooltips or {})
        self._cell_tips = dict(cell_tooltips or {})
        self._severity_col = severity_column
        self._label_cols = set(label_columns)
        self._ordered = ordered_labels
        self._colours = ValueColours()
        self._needle = ""
        self._masks: dict[str, np.ndarray] = {}
        self._sort: tuple[str, bool] | None = None
        self._label_values: list[Any] | None = None
        self._order_cols: list[str] = []
        self._full = pd.DataFrame()
        self._load(frame if frame is not None else pd.DataFrame())

    # -- snapshot -----------------------------------------------------------------------------

    def _load(self, frame: pd.DataFrame) -> None:
        self._full = (
            frame if isinstance(frame.index, pd.RangeIndex) else frame.reset_index(drop=True)
        )
        shown = [c for c in self._full.columns if c not in self._hidden]
        if self._order_cols:
            first = [c for c in self._order_cols if c in shown]
            shown = first + [c for c in shown if c not in first]
        self._cols = shown
        # native dtypes (no copy for numbers): a cell lookup in data() must not go through pandas
        self._by_name = {c: self._full[c].to_numpy() for c in self._full.columns}
        self._values = [self._by_name[c] for c in self._cols]
        n = len(self._full)
        sev = self._by_name.get(self._severity_col) if self._severity_col else None
        self._severity = (
            pd.to_numeric(pd.Series(sev), errors="coerce").to_numpy(float)
            if sev is not None
            else np.full(n, np.nan)
        )
        # the distinct label values only (a study may hold a million labels)
        if self._label_values is not None:
            values: Iterable[Any] = self._label_values
        else:
            labels = [pd.unique(self._full[c]) for c in self._cols if c in self._label_cols]
            values = (v for col in labels for v in col)
        self._colours = ValueColours(values, ordered=self._ordered)
        self._search: pd.Series | None = None
        self._masks = {k: m for k, m in self._masks.items() if len(m) == n}
        self._order = self._compute_order()
        self._frame_cache: pd.DataFrame | None = None

    def set_frame(
        self,
        frame: pd.DataFrame,
        percent: Iterable[str] | None = None,
        label_columns: Iterable[str] | None = None,
        ordered_labels: bool | None = None,
        label_values: Iterable[Any] | None = None,
        columns: Sequence[str] | None = None,
    ) -> None:
        """Show a new snapshot (the sort column and the filters stay); ``percent``,
        ``label_columns`` and ``ordered_labels`` replace the constructor's when given;
        ``label_values`` (the scale) spares looking for the values in the label columns;
        ``columns`` puts these columns first, in this order (the frame is not copied)."""
        self.beginResetModel()
        self._label_values = list(label_values) if label_values is not None else None
        self._order_cols = list(columns) if columns is not None else []
        if percent is not None:
            self._percent = set(percent)
        if label_columns is not None:
            self._label_cols = set(label_columns)
        if ordered_labels is not None:
            self._ordered = ordered_labels
        self._load(frame)
        self.endResetModel()

    @property
    def frame(self) -> pd.DataFrame:
        """The rows shown, in the order shown (every column, hidden ones too)."""
        if self._frame_cache is None:
            self._frame_cache = self._full.iloc[self._order].reset_index(drop=True)
        return self._frame_cache

    @property
    def source_frame(self) -> pd.DataFrame:
        """Every row of the snapshot, in its own order."""
        return self._full

    @property
    def colours(self) -> ValueColours:
        return self._colours

    def column_of(self, name: str) -> int:
        return self._cols.index(name)

    def column_name(self, column: int) -> str:
        return str(self._cols[column])

    def columns(self) -> list[str]:
        return [str(c) for c in self._cols]

    def record(self, row: int) -> pd.Series:
        """The shown row ``row`` as a Series (every column)."""
        return self._full.iloc[int(self._order[row])]

    def value(self, row: int, name: str) -> Any:
        return self._by_name[name][int(self._order[row])]

    def key_of_row(self, row: int) -> int:
        return int(self._order[row])

    def row_of_key(self, key: int) -> int:
        """The shown row of source row ``key`` (−1 when filtered out)."""
        hit = np.flatnonzero(self._order == key)
        return int(hit[0]) if len(hit) else -1

    def row_where(self, name: str, value: Any) -> int:
        """The first shown row whose column ``name`` equals ``value`` (−1 when none)."""
        col = self._by_name.get(name)
        if col is None or not len(self._order):
            return -1
        hit = np.flatnonzero(col[self._order] == value)
        return int(hit[0]) if len(hit) else -1

    # -- filters and sorting ------------------------------------------------------------------

    def set_filter(self, text: str) -> None:
        """Show only the rows with ``text`` in any cell (case-insensitive)."""
        self._needle = text.casefold().strip()
        self._refilter()

    def set_row_mask(self, mask: np.ndarray | None, name: str = "rows") -> None:
        """Show only the source rows where ``mask`` is true (``None`` = all rows).

        Masks of different ``name`` combine (a cell clicked in a matrix and *disagreements only*).
        """
        if mask is None:
            self._masks.pop(name, None)
        else:
            self._masks[name] = np.asarray(mask, bool)
        self._refilter()

    def row_mask(self, name: str = "rows") -> np.ndarray | None:
        return self._masks.get(name)

    def severity(self) -> np.ndarray:
        """Severity of every source row (NaN = none)."""
        return self._severity

    def set_disagreements_only(self, on: bool) -> None:
        """Show only rows with a disagreement (severity above 0)."""
        with np.errstate(invalid="ignore"):
            self.set_row_mask(
                np.nan_to_num(self._severity) > 0 if on else None, name="disagreements"
            )

    def _refilter(self) -> None:
        self.beginResetModel()
        self._order = self._compute_order()
        self._frame_cache = None
        self.endResetModel()

    def _compute_order(self) -> np.ndarray:
        n = len(self._full)
        keep = np.ones(n, bool)
        for m in self._masks.values():
            keep &= m
        if self._needle and n:
            if self._search is None:  # built on the first text filter, then reused
                self._search = _row_text(self._full)
            keep &= self._search.str.contains(self._needle, regex=False).to_numpy(bool)
        idx = np.arange(n)
        if self._sort is not None and self._sort[0] in self._by_name and n:
            name, ascending = self._sort
            keys, missing = _sort_keys(self._by_name[name])
            k = keys if ascending else -keys
            # lexsort: the last key is primary → missing last, then the value, then file order
            idx = np.lexsort((idx, k, missing))
        return idx[keep[idx]]

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self._cols):
            return
        self.sort_by(str(self._cols[column]), order == Qt.SortOrder.AscendingOrder)

    def sort_by(self, name: str, ascending: bool = True) -> None:
        """Sort by column ``name`` as a layout change (persistent indexes follow their rows)."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        keys = [int(self._order[p.row()]) if p.row() < len(self._order) else -1 for p in old]
        self._sort = (name, ascending)
        self._order = self._compute_order()
        self._frame_cache = None
        pos = np.full(len(self._full), -1, dtype=np.int64)
        pos[self._order] = np.arange(len(self._order))
        new = [
            self.index(int(pos[k]), p.column()) if k >= 0 and pos[k] >= 0 else QModelIndex()
            for k, p in zip(keys, old)
        ]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def sort_column(self) -> tuple[int, Qt.SortOrder] | None:
        """The column and order the rows are sorted by (for the view's sort indicator)."""
        if self._sort is None or self._sort[0] not in self._cols:
            return None
        order = Qt.SortOrder.AscendingOrder if self._sort[1] else Qt.SortOrder.DescendingOrder
        return self._cols.index(self._sort[0]), order

    def clear_sort(self) -> None:
        """Back to the snapshot's own order (e.g. the core's ranking, worst first)."""
        self._sort = None
        self._refilter()

    # -- Qt API -------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._cols)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, c = int(self._order[index.row()]), index.column()
        v = self._values[c][r]
        if role == Qt.ItemDataRole.DisplayRole:
            text = format_value(v, self._digits, self._cols[c] in self._percent)
            # a text is shown shortened (a cell of a megabyte would hold the view's layout);
            # the frame, the copies and the exports keep it whole
            return bidi_cell(shown_text(text)) if isinstance(v, str) else text
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if _is_number(v) or is_rtl(shown_text(v)) else _LEFT
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._background(r, c, v)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._cell_tooltip(r, c, v)
        if role == Role.Raw:
            return v
        if role == Role.RowKey:
            return r
        if role == Role.Severity:
            return float(self._severity[r])
        if role == Role.FilterText:
            return "\x1f".join(str(col[r]) for col in self._values).casefold()
        return None

    def _background(self, r: int, c: int, v: Any) -> QBrush | None:
        if self._cols[c] in self._label_cols:
            colour = self._colours.colour(v)
            if colour is not None:
                return QBrush(colour)
            if v is None or v == "":  # not annotated: drawn apart from the row's disagreement
                return None
        t = self._severity[r]
        if math.isfinite(t) and t > 0:
            return QBrush(severity_colour(t))
        return None

    def _cell_tooltip(self, r: int, c: int, v: Any) -> str | None:
        tip_col = self._cell_tips.get(self._cols[c])
        if tip_col is not None and tip_col in self._by_name:
            return tip(self._by_name[tip_col][r])
        if _is_nan(v):
            return UNDEFINED_TIP
        if isinstance(v, str) and len(v) > 40:
            return _wrap_tip(tip(v))
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if not 0 <= section < len(self._cols):
                return None
            name = str(self._cols[section])
            if role == Qt.ItemDataRole.DisplayRole:
                return shown(self.title_of(name))
            if role == Qt.ItemDataRole.ToolTipRole:
                text = self._tooltips.get(name) or column_tooltip(name)
                if not text and is_shortened(self.title_of(name)):
                    text = tip(self.title_of(name))  # the name cut in the header, longer here
                return _wrap_tip(text) if text else None
            return None
        if role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self._order):
            return str(section + 1)
        return None

    def title_of(self, name: str) -> str:
        if name in self._headers:
            return self._headers[name]
        if name in self._label_cols:
            return name  # an annotator's name is shown as written
        return column_title(name)

    def export_frame(self) -> pd.DataFrame:
        """The shown rows and columns with their shown titles (for CSV/XLSX export)."""
        df = self.frame[list(self._cols)].copy()
        df.columns = [self.title_of(str(c)) for c in self._cols]
        return df


def _wrap_tip(text: str) -> str:
    """A tooltip as rich text: Qt wraps a rich-text tooltip at about 80 characters, where plain
    text would be one screen-wide line."""
    return wrap_tip(text)


def frame_of_rows(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> pd.DataFrame:
    """A DataFrame of ``rows`` with exactly ``columns`` (also when there is no row)."""
    return pd.DataFrame(list(rows), columns=list(columns))

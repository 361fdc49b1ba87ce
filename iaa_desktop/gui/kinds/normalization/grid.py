"""The character grid of one token: one column per historical unit, one row per annotator (then
the modernization rows), Full or Diff labels; cells where the annotators differ are tinted.

Diff labels (Bollmann et al. 2016): ``_`` = the unit is kept as written, ``∅`` = the unit is
deleted, anything else = its replacement.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

DISAGREE_BG = QColor("#ffd9d6")
MOD_BG = QColor("#eef3ff")
MOD_DISAGREE_BG = QColor("#f3d0ff")
GRID_LEGEND = (
    "Diff: _ = kept as written, ∅ = deleted, otherwise the replacement · Full: the normalized "
    "characters of each unit · tinted: the annotators differ (violet: in the modernization rows)"
)


class CharacterGridModel(QAbstractTableModel):
    """One column per historical unit, one row per annotator (then the modernization rows)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._units: list[str] = []
        self._rows: list[tuple[str, list[str], list[str], bool]] = []  # name, full, diff, is_mod
        self._differs: dict[bool, np.ndarray] = {}
        self.mode = "diff"

    def set_token(self, info: dict[str, Any] | None, mode: str | None = None) -> None:
        self.beginResetModel()
        if mode:
            self.mode = mode
        self._units, self._rows = [], []
        if info is not None:
            self._units = list(info["units"])
            anns = info["annotators"]
            for name, a in anns.items():
                self._rows.append((name, a["full"], a["diff"], False))
            if any(a["mod"] for a in anns.values()):
                for name, a in anns.items():
                    # no modernization: the modernized form is the normalization itself
                    full = a["mod_full"] if a["mod_full"] is not None else a["full"]
                    diff = a["mod_diff"] if a["mod_diff"] is not None else a["diff"]
                    self._rows.append((f"{name} · mod", full, diff, True))
        for layer in (False, True):
            rows = [r[1] for r in self._rows if r[3] == layer]
            if rows:
                arr = np.array(rows, dtype=object)
                self._differs[layer] = (arr != arr[:1]).any(axis=0)
            else:
                self._differs[layer] = np.zeros(len(self._units), bool)
        self.endResetModel()

    def set_mode(self, mode: str) -> None:
        self.beginResetModel()
        self.mode = mode
        self.endResetModel()

    def differs(self, column: int, modernization: bool = False) -> bool:
        return bool(self._differs.get(modernization, np.zeros(0, bool))[column])

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._units)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        name, full, diff, is_mod = self._rows[index.row()]
        c = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (diff if self.mode == "diff" else full)[c]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{name}: unit '{self._units[c]}' → Full '{full[c]}', Diff '{diff[c]}'"
        if role == Qt.ItemDataRole.BackgroundRole:
            if self.differs(c, is_mod):
                return QBrush(MOD_DISAGREE_BG if is_mod else DISAGREE_BG)
            return QBrush(MOD_BG) if is_mod else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._units[section] if section < len(self._units) else None
        return self._rows[section][0] if section < len(self._rows) else None

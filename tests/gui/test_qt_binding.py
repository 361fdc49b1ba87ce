"""The Qt binding keeps Python's reference counts: a model's ``data()`` returns None for every
role it leaves empty, and Qt's views call it from C++ thousands of times a second. A binding that
dropped a reference each time (PySide6 6.12.0 does for None) ends a long session, or the
interpreter's exit, with "deallocating None"."""

from __future__ import annotations

import gc
import sys

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt


class _Empty(QAbstractTableModel):
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 1

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 1

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> None:
        return None


def test_none_returned_to_qt_keeps_its_references(qapp):
    model = _Empty()
    index = model.index(0, 0)
    gc.disable()
    try:
        before = sys.getrefcount(None)
        for _ in range(1000):
            index.data(Qt.ItemDataRole.ToolTipRole)  # Qt calls the override from C++
        after = sys.getrefcount(None)
    finally:
        gc.enable()
    assert after - before > -10, f"None lost {before - after} references in 1,000 calls"

"""The Kind combo of the import dialog: the arrow keys open its list, and only the entry the list
closes on (Return) is applied, not every kind passed on the way."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from tests.conftest import FIXTURES
from tests.gui import user


def test_arrow_keys_open_the_list_and_apply_only_the_chosen_kind(qtbot, window) -> None:
    dialog = window.open_selection([Path(FIXTURES / "table" / "k2011_wide.csv")])
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=120000)
    combo = dialog.kind_combo
    applied = []
    combo.activated.connect(lambda i: applied.append(combo.itemData(i)))
    start = combo.currentIndex()
    # a click opens the list, Esc closes it: the box keeps the focus, the kind unchanged
    user.activate(qtbot, combo)
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton, pos=QPoint(6, combo.height() // 2))
    qtbot.waitUntil(combo.view().isVisible)
    qtbot.keyClick(combo.view(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not combo.view().isVisible())
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # on the closed box: the list opens
    view = combo.view()
    qtbot.waitUntil(view.isVisible)
    assert not applied and combo.currentIndex() == start
    target = (start + 2) % combo.count()
    key = Qt.Key.Key_Down if target > view.currentIndex().row() else Qt.Key.Key_Up
    while view.currentIndex().row() != target:
        qtbot.keyClick(view, key)
    assert not applied  # passing over the kinds applies none of them
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible())
    assert applied == [combo.itemData(target)]
    assert dialog.forced_kind == combo.itemData(target)

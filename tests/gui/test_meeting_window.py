"""The main window in a meeting: N / P work on every tab (the filter box takes the focus only
when clicked or on Ctrl+F)."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication

from tests.conftest import FIXTURES

CTRL = Qt.KeyboardModifier.ControlModifier


def _open_durel(qtbot, window) -> None:
    window.open_inputs([FIXTURES / "durel" / "study"], "durel")
    assert window.session.wait(120)
    qtbot.waitUntil(lambda: window.tabs.count() > 1, timeout=5000)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)


def test_n_and_p_after_a_tab_switch_step_through_pairs(qtbot, window) -> None:
    _open_durel(qtbot, window)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    pairs_tab = titles.index("Pairs")
    first = window.tabs.currentWidget()
    views = [v for v in first.findChildren(QAbstractItemView) if v.isVisible()]
    qtbot.mouseClick(views[0].viewport(), Qt.MouseButton.LeftButton)
    while window.tabs.currentIndex() != pairs_tab:
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_PageDown, CTRL)
    panel = window.tabs.widget(pairs_tab)
    assert QApplication.focusWidget() is panel.list_view  # not the filter box
    before = panel.list_view.currentIndex().row()
    for key in (Qt.Key.Key_N, Qt.Key.Key_P):  # (the first pair shown may be the last to step to)
        qtbot.keyClick(QApplication.focusWidget(), key)
    assert panel.bar.filter.text() == ""
    assert panel.list_view.currentIndex().row() != before
    # the filter is one key away
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_F, CTRL)
    assert QApplication.focusWidget() is panel.bar.filter

"""Opening a second study while the first is shown: from the moment it opens, no view shows the
first study's figures; "computing" stands in their place until its own arrive."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from iaa_desktop.core.study_file import load_study
from iaa_desktop.gui.start_page import examples_dir
from tests.gui import user


def test_a_second_study_replaces_the_first_ones_figures_at_once(qtbot, window, monkeypatch):
    first = next((examples_dir() / "judgments").glob("*.iaa-study"))
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        window.open_study(load_study(first), first)
    old_tabs = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert "Overview" in old_tabs and window.headline_label.parts
    assert window.study_panel.annotators.count() == 4
    second = next((examples_dir() / "durel").glob("*.iaa-study"))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(second), ""))
    user.activate(qtbot, window)
    seen_while_computing = []
    window.session.computation_started.connect(
        lambda _g: seen_while_computing.append(
            (
                [window.tabs.tabText(i) for i in range(window.tabs.count())],
                window.stack.currentWidget() is window.computing_page,
                list(window.headline_label.parts),
                window.study_panel.annotators.count(),
            )
        )
    )
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)  # File ▸ Open
        # at once, before any figure of the new study exists
        assert window.session.result is None
        assert window.tabs.count() == 0
        assert window.stack.currentWidget() is window.computing_page
        assert "Computing the figures of" in window.computing_page.title.text()
        assert window.headline_label.parts == []
        assert window.study_panel.annotators.count() == 0
        assert window.status_label.text() == "Computing…"
    assert seen_while_computing and seen_while_computing[0] == ([], True, [], 0)
    assert blocker.args[0].kind == "durel"
    tabs = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert tabs and tabs != old_tabs
    assert window.stack.currentWidget() is window.tabs
    assert [window.study_panel.annotators.item(i).text() for i in range(3)] == [
        "Lea",
        "Omar",
        "Sven",
    ]
    assert window.headline_label.parts != []

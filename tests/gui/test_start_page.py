"""The first-run page: one example study per kind, each opening with one click; new; recent."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from iaa_desktop.core.study_file import load_study
from iaa_desktop.gui.start_page import KIND_BLURBS, StartPage, examples_dir, find_examples
from tests.gui import user

KINDS = ["coref", "normalization", "durel", "candidates", "multilabel"]


def test_examples_are_package_data_one_per_kind():
    found = find_examples()
    assert [e.kind_folder for e in found][:5] == KINDS
    assert {e.kind_folder for e in found} <= set(KIND_BLURBS)
    for e in found:
        study = load_study(e.path)
        assert study.kind in (e.kind_folder, "table")
        assert all(p.exists() for p in study.inputs), e.path
    # the checkout's resources/examples points at the same files (README uses the ratings path)
    root = Path(__file__).resolve().parents[2] / "resources" / "examples"
    assert (root / "judgments" / "ratings.csv").is_file()
    for k in KINDS:
        assert (root / k).resolve() == (examples_dir() / k).resolve()


def test_start_page_shows_examples_new_and_recent(qtbot, tmp_path):
    page = StartPage()
    qtbot.addWidget(page)
    page.show()
    assert len(page.cards) == len(find_examples()) >= 5
    with qtbot.waitSignal(page.new_requested, timeout=1000):
        user.press(qtbot, page.new_button)
    with qtbot.waitSignal(page.open_requested, timeout=1000) as blocker:
        user.press(qtbot, page.cards[0].button)
    assert blocker.args[0].endswith(".iaa-study")
    existing = tmp_path / "mine.iaa-study"
    existing.write_text("{}", encoding="utf-8")
    page.set_recent([str(existing), str(tmp_path / "gone.iaa-study")])
    assert page.recent.count() == 2
    assert not page.recent.item(1).flags() & Qt.ItemFlag.ItemIsEnabled
    with qtbot.waitSignal(page.open_requested, timeout=1000) as blocker:
        user.click_row(qtbot, page.recent, 0)
        qtbot.keyClick(page.recent, Qt.Key.Key_Return)
    assert blocker.args[0] == str(existing)
    page.set_recent([])
    assert page.recent.isHidden() and not page.no_recent.isHidden()


def test_missing_examples_folder_gives_an_empty_but_working_page(qtbot, tmp_path):
    page = StartPage(examples_root=tmp_path / "nothing")
    qtbot.addWidget(page)
    assert page.cards == []


def test_main_window_starts_on_the_start_page(window):
    assert isinstance(window.start_page, StartPage)
    assert window.stack.currentWidget() is window.start_page


@pytest.mark.parametrize("kind", KINDS + ["judgments"])
def test_each_example_opens_with_one_click(qtbot, window, kind):
    card = next(c for c in window.start_page.cards if c.example.kind_folder == kind)
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        user.press(qtbot, card.button)
    result = blocker.args[0]
    assert not result.errors, [str(e) for e in result.errors]
    assert window.stack.currentWidget() is window.tabs and window.tabs.count() >= 1
    # the example opened as the user's own copy, in the data folder, never inside the package
    opened = Path(window.recent_files()[0])
    assert opened.name == card.example.path.name
    assert opened.is_relative_to(window.data_dir / "examples" / kind)
    assert window.study_path == opened

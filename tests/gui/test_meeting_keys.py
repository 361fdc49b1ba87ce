"""The adjudication window in a meeting, driven by the keys: Esc clears the filter and never closes
the window, Ctrl+W closes it (asking about a note not used), undo shows the unit it changed, the
queue shows the decisions, bulk actions and the gold export say what they do."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QMargins, QRect, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from iaa_desktop.cli import compute
from iaa_desktop.gui.adjudication import open_adjudication
from iaa_desktop.gui.geometry import fitted_rect

EXAMPLES = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples"
CTRL = Qt.KeyboardModifier.ControlModifier


def _ratings():
    return compute(
        "table",
        [EXAMPLES / "judgments" / "ratings.csv"],
        {"level": "ordinal", "group_by": "topic"},
    )


@pytest.fixture
def dialog(qtbot, tmp_path):
    dlg = open_adjudication(None, _ratings(), None, store_path=tmp_path / "s.sqlite", show=True)
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    dlg.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dlg.panel.queue_view, timeout=5000)
    yield dlg
    dlg.panel.value_edit.clear()
    dlg.panel.note_edit.clear()
    dlg.close()


def _answer_modal(qtbot, seen: list[str], button_text: str | None = None) -> None:
    """When a message box opens: note its text, press the button (by its text, else the
    default one) with the mouse."""

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(50, answer)
            return
        seen.append(box.text())
        target = next(
            (b for b in box.findChildren(QPushButton) if button_text and b.text() == button_text),
            box.defaultButton() or box.findChildren(QPushButton)[0],
        )
        qtbot.mouseClick(target, Qt.MouseButton.LeftButton)

    QTimer.singleShot(50, answer)


def test_esc_clears_the_filter_and_never_closes_the_window(qtbot, dialog) -> None:
    panel = dialog.panel
    edit = panel.toolbar.search_edit
    n_all = panel.queue_model.rowCount()
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
    assert QApplication.focusWidget() is edit
    qtbot.keyClicks(edit, "zzzz-nothing")
    qtbot.waitUntil(lambda: panel.queue_model.rowCount() == 0, timeout=3000)
    qtbot.keyClick(edit, Qt.Key.Key_Escape)
    assert edit.text() == "" and dialog.isVisible()
    assert panel.queue_model.rowCount() == n_all
    assert QApplication.focusWidget() is panel.queue_view  # N / P work again at once
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_Escape)
    assert dialog.isVisible()
    # Ctrl+F is the way back into the filter without the mouse
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_F, CTRL)
    assert QApplication.focusWidget() is edit


def test_n_and_p_never_type_into_the_filter(qtbot, dialog) -> None:
    panel = dialog.panel
    assert panel.toolbar.search_edit.focusPolicy() == Qt.FocusPolicy.ClickFocus
    first = panel.current
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_Tab)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_N)
    assert panel.toolbar.search_edit.text() == ""
    assert panel.current != first


def test_undo_shows_the_unit_it_changed_and_the_queue_shows_decisions(qtbot, dialog) -> None:
    panel = dialog.panel
    s = panel.session
    model = panel.queue_model
    first = panel.current
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_1)
    assert s.is_decided(first) and panel.current != first
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_Z, CTRL)
    assert not s.is_decided(first)
    assert panel.current == first  # the undone unit is the one shown …
    row = panel.queue_view.currentIndex().row()
    assert int(model.indices()[row]) == first  # … and selected in the queue
    # the Decision column: empty while undecided, the value once decided
    header = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    col = header.index("Decision")
    assert model.data(model.index(row, col)) == ""
    # every unit shown: the decided one stays in the list with its decision
    combo = panel.toolbar.filter_combo
    while combo.currentData() != "all":
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_1)
    row = model.row_of(first)
    value = s.model.describe_value(first, s.decision(first).value)
    assert model.data(model.index(row, col)) == value


def test_ctrl_w_closes_and_asks_about_a_note_not_used(qtbot, dialog) -> None:
    panel = dialog.panel
    qtbot.mouseClick(panel.note_edit, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(panel.note_edit, "ask the group")
    seen: list[str] = []
    _answer_modal(qtbot, seen, "Cancel")
    qtbot.keyClick(panel.note_edit, Qt.Key.Key_W, CTRL)
    qtbot.waitUntil(lambda: bool(seen), timeout=3000)
    assert "ask the group" in seen[0] and dialog.isVisible()
    panel.note_edit.clear()
    dialog.activateWindow()  # back from the message box
    qtbot.waitUntil(dialog.isActiveWindow, timeout=3000)
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_W, CTRL)
    assert not dialog.isVisible()


def test_window_title_names_the_study(qtbot, tmp_path) -> None:
    from iaa_desktop.gui.adjudication.dialog import window_title

    dlg = open_adjudication(None, _ratings(), None, store_path=tmp_path / "s.sqlite", show=False)
    qtbot.addWidget(dlg)
    assert dlg.windowTitle() == "Adjudication of ratings.csv — iaa_desktop"
    assert window_title(dlg.panel.session, "My study") == "Adjudication of My study — iaa_desktop"
    dlg.close()


def test_bulk_accept_says_what_it_will_do_and_did(qtbot, dialog) -> None:
    panel = dialog.panel
    s = panel.session
    agreed = sum(
        1 for i in range(s.model.n_units) if s.auto_value(i) is not None and not s.is_decided(i)
    )
    assert agreed  # the unanimous strategy merged them already
    seen: list[str] = []
    _answer_modal(qtbot, seen, "&Yes")
    assert panel.bulk_menu.accept_unanimous()
    assert f"{agreed:,} merged automatically already" in seen[0]
    notice = panel.toolbar.notice_label.text()
    assert "0 unit(s) newly resolved" in notice and "merged automatically already" in notice


def test_gold_export_says_how_many_units_are_undecided_and_where(
    qtbot, dialog, tmp_path, monkeypatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    panel = dialog.panel
    resolved, total = panel.session.progress()
    out = tmp_path / "gold"
    out.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(out))
    seen: list[str] = []
    _answer_modal(qtbot, seen)
    qtbot.mouseClick(panel.side.export_gold_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(seen), timeout=3000)
    assert f"{total - resolved:,} of {total:,} units are still undecided" in seen[0]
    assert str(out / "undecided.csv") in seen[0]


def test_a_window_with_its_frame_fits_the_screen() -> None:
    screen = QRect(0, 0, 1280, 720)
    frame = QMargins(1, 22, 1, 1)  # openbox's title bar
    r = fitted_rect(QRect(0, 0, 1400, 900), frame, screen)
    assert (r.x(), r.y(), r.width(), r.height()) == (1, 22, 1278, 697)
    # a window already small enough is only moved up so its bottom is on the screen
    r = fitted_rect(QRect(100, 300, 800, 600), frame, screen)
    assert (r.x(), r.y(), r.width(), r.height()) == (100, 119, 800, 600)


def test_zoom_and_meeting_layout_in_the_adjudication_window(qtbot, dialog) -> None:
    from iaa_desktop.gui import presentation

    panel = dialog.panel
    row0 = panel.queue_view.verticalHeader().defaultSectionSize()
    try:
        qtbot.keyClick(panel.queue_view, Qt.Key.Key_Plus, CTRL)
        assert presentation.factor() == 1.1
        assert panel.queue_view.verticalHeader().defaultSectionSize() > row0
    finally:
        presentation.zoom().set_factor(1.0)
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_F11)
    qtbot.waitUntil(dialog.isFullScreen, timeout=3000)
    assert not panel.side.isVisible()
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not dialog.isFullScreen(), timeout=3000)
    assert panel.side.isVisible()


def test_queue_columns_share_the_width_and_severity_is_never_cut(qtbot, dialog) -> None:
    panel = dialog.panel
    view, model = panel.queue_view, panel.queue_model
    for width in (1280, 1100):
        dialog.resize(width, 700)
        qtbot.waitUntil(lambda w=width: dialog.width() == w, timeout=3000)
        shown = sum(
            view.columnWidth(c) for c in range(model.columnCount()) if not view.isColumnHidden(c)
        )
        assert shown <= view.viewport().width() + 1  # no column hidden to the right
        severity = model.columnCount() - 1
        assert view.columnWidth(severity) >= view.fontMetrics().horizontalAdvance("0.00") + 10
        ch = view.fontMetrics().averageCharWidth()
        for c in range(3, model.decision_column() + 1):
            assert view.columnWidth(c) >= ch * 5

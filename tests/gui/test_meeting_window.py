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


def test_presentation_zoom_scales_tables_and_charts_and_is_remembered(
    qtbot, window, settings
) -> None:
    from iaa_desktop.gui import presentation
    from iaa_desktop.gui.app import create_main_window

    _open_durel(qtbot, window)
    app = QApplication.instance()
    size0 = app.font().pointSizeF()
    views = [v for v in window.tabs.currentWidget().findChildren(QAbstractItemView)]
    tables = [v for v in views if hasattr(v, "verticalHeader")]
    row0 = tables[0].verticalHeader().defaultSectionSize()
    qtbot.keyClick(window, Qt.Key.Key_Equal, CTRL)
    qtbot.keyClick(window, Qt.Key.Key_Plus, CTRL)
    assert presentation.factor() == 1.25
    assert app.font().pointSizeF() == pytest.approx(size0 * 1.25)
    assert tables[0].verticalHeader().defaultSectionSize() > row0
    # the charts of the Agreement tab are drawn at the zoom's resolution
    from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg

    canvases = window.tabs.findChildren(FigureCanvasQTAgg)
    assert canvases and all(
        c.figure.dpi == pytest.approx(c.property("_iaa_base_dpi") * 1.25 * c.device_pixel_ratio)
        for c in canvases
    )
    assert float(settings.value("view/zoom")) == 1.25
    # a new window comes back at the same zoom; Ctrl+0 is 100 % again
    again = create_main_window(settings=settings, data_dir=window.data_dir)
    qtbot.addWidget(again)
    assert presentation.factor() == 1.25
    qtbot.keyClick(window, Qt.Key.Key_0, CTRL)
    assert presentation.factor() == 1.0
    assert app.font().pointSizeF() == pytest.approx(size0)


def test_f11_meeting_layout_hides_the_docks_and_comes_back(qtbot, window) -> None:
    assert window.study_dock.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_F11)
    qtbot.waitUntil(window.isFullScreen, timeout=3000)
    assert not window.study_dock.isVisible() and not window.settings_dock.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not window.isFullScreen(), timeout=3000)
    assert window.study_dock.isVisible()
    # the side panels fold away with one key, for room beside five annotators, and come back
    qtbot.keyClick(window, Qt.Key.Key_F9)
    assert not window.study_dock.isVisible() and not window.settings_dock.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_F9)
    assert window.study_dock.isVisible()


def test_first_computation_shows_progress_and_cancel_then_how_to_compute_again(
    qtbot, window, tmp_path
) -> None:
    from tests.gui.test_main_window import _big_study

    big = _big_study(tmp_path, 100_000)
    window.open_inputs([big], "table", {"interval": "bootstrap"})
    qtbot.waitUntil(lambda: window.session.running, timeout=5000)
    page = window.computing_page
    assert window.stack.currentWidget() is page  # not a blank grey area
    assert page.bar.isVisible() and page.cancel_button.isVisible()
    with qtbot.waitSignal(window.session.computation_cancelled, timeout=5000):
        qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is page
    assert page.title.text() == "Cancelled — press F5 to compute again."
    assert not page.cancel_button.isVisible()
    # F5 computes again, with the progress back
    qtbot.keyClick(window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.session.running, timeout=5000)
    assert page.cancel_button.isVisible()
    window.session.cancel()


def test_report_export_shows_progress_then_open_and_show_in_folder(
    qtbot, window, tmp_path, monkeypatch
) -> None:
    from PySide6.QtGui import QDesktopServices
    from PySide6.QtWidgets import QFileDialog

    _open_durel(qtbot, window)
    out = tmp_path / "out" / "report.html"
    out.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()))
    shift = Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_E, CTRL | shift)
    assert window.progress.isVisible()  # something is happening
    bar = window.message_bar
    qtbot.waitUntil(lambda: "Open" in bar.buttons, timeout=60_000)
    assert out.exists() and str(out) in bar.details.text()
    assert not window.progress.isVisible()
    qtbot.mouseClick(bar.buttons["Show in folder"], Qt.MouseButton.LeftButton)
    assert opened == [str(out.parent)]

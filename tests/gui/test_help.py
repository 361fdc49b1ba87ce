"""Help → Measures and Help → About."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication

from iaa_desktop import __version__
from iaa_desktop.core.measures import MEASURES
from iaa_desktop.gui.app import create_main_window
from iaa_desktop.gui.help_dialogs import BUNDLED_LIBRARIES, AboutDialog, MeasuresDialog, about_html
from tests.gui import user


def test_measures_dialog_lists_every_measure_and_jumps(qtbot):
    d = MeasuresDialog(measure="ceafe")
    qtbot.addWidget(d)
    keys = [d.list.item(i).data(256) for i in range(d.list.count())]
    assert [k for k in keys if k] == [m.key for m in MEASURES]
    assert d.list.currentItem().data(256) == "ceafe"
    text = d.browser.toPlainText()
    for m in MEASURES:
        assert m.title in text
    assert d.show_measure("cohen_kappa_mean") and not d.show_measure("n_items")
    d.show()
    user.type_filter(qtbot, d.search, "Levenshtein")
    visible = [
        d.list.item(i).data(256) for i in range(d.list.count()) if not d.list.item(i).isHidden()
    ]
    assert "alpha_nld" in visible and "muc" not in visible


def test_about_names_version_licences_and_sources(qtbot):
    d = AboutDialog()
    qtbot.addWidget(d)
    text = d.browser.toPlainText()
    assert __version__ in text
    for _dist, _shown, lic in BUNDLED_LIBRARIES:
        assert lic.split(" ")[0] in text
    for needle in (
        "LGPL-3.0",
        "Bernard of Clairvaux",
        "Psalms",
        "TRoTR",
        "spelling normalization",
        "decomposition-based",
    ):
        assert needle in text
    assert "GPL-3.0-or-later" in about_html()


def test_help_menu_opens_both_dialogs(qtbot, tmp_path):
    w = create_main_window(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    seen = []

    def close_modal():  # a person reads the dialog, then presses Esc
        dlg = QApplication.activeModalWidget()
        if dlg is not None and dlg.isVisible():
            seen.append(type(dlg).__name__)
            qtbot.keyClick(dlg, Qt.Key.Key_Escape)

    closer = QTimer()
    closer.setInterval(100)
    closer.timeout.connect(close_modal)
    closer.start()
    w.show()
    qtbot.waitExposed(w)
    # each entry: a click on Help in the menu bar, the arrow keys to the entry, Return
    for action in w.help_menu.actions():
        if action.isSeparator() or not action.isEnabled():
            continue
        user.menu_command(qtbot, w, w.help_menu, action.text())
        qtbot.waitUntil(lambda: QApplication.activeModalWidget() is None)
    closer.stop()
    assert seen == ["MeasuresDialog", "AboutDialog"]
    qtbot.waitUntil(lambda: w.session.is_warm, timeout=60000)  # the shown window warmed up
    w.session.cancel()

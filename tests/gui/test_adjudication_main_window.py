"""The main window's "Adjudicate…" action (Ctrl+J) opens an adjudication beside the study file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.conftest import shared_path
from tests.gui import user


def test_adjudicate_action_opens_the_store_beside_the_study(qtbot, window, tmp_path: Path) -> None:
    d = shared_path("candidates")
    with qtbot.waitSignal(window.session.results_ready, timeout=60000):
        window.open_inputs([d / "pairs.tsv", d / "labels.tsv"], "candidates", {})
    window.study_path = tmp_path / "study.iaa.json"
    assert window.adjudicate_action.shortcut().toString() == "Ctrl+J"
    user.activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    dlg = window.adjudication_window
    assert dlg is not None
    qtbot.addWidget(dlg)
    assert dlg.panel.session.store.path == tmp_path / "study.iaa.adjudication.sqlite"
    assert dlg.panel.session.model.kind == "candidates"
    dlg.close()
    assert dlg.panel.session.store.closed

"""The main window's "Adjudicate…" action (Ctrl+J) opens an adjudication beside the study file."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import shared_path


def test_adjudicate_action_opens_the_store_beside_the_study(qtbot, window, tmp_path: Path) -> None:
    d = shared_path("candidates")
    with qtbot.waitSignal(window.session.results_ready, timeout=60000):
        window.open_inputs([d / "pairs.tsv", d / "labels.tsv"], "candidates", {})
    window.study_path = tmp_path / "study.iaa.json"
    assert window.adjudicate_action.shortcut().toString() == "Ctrl+J"
    window.adjudicate_action.trigger()
    dlg = window.adjudication_window
    assert dlg is not None
    qtbot.addWidget(dlg)
    assert dlg.panel.session.store.path == tmp_path / "study.iaa.adjudication.sqlite"
    assert dlg.panel.session.model.kind == "candidates"
    dlg.close()
    assert dlg.panel.session.store.closed

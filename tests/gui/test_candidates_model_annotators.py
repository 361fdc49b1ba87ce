"""A candidate-pairs study's annotator ticked as a model in the import dialog, by a click."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from tests.gui import user

EXAMPLE = Path(__file__).resolve().parents[2] / "iaa_desktop/resources/examples/candidates"


def test_an_annotator_of_candidate_pairs_ticked_as_model(qtbot, window):
    dialog = window.open_selection([EXAMPLE / "pairs.tsv", EXAMPLE / "labels.tsv"])
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=120000)
    t = dialog.annotators
    assert not t.isColumnHidden(3)  # the kind compares models with humans: a box per annotator
    names = [t.item(r, 0).text() for r in range(t.rowCount())]
    assert names == ["A1", "A2", "A3"]
    rect = t.visualItemRect(t.item(2, 3))
    qtbot.mouseClick(
        t.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.left() + 12, rect.center().y())
    )
    assert dialog.models() == ["A3"]
    with qtbot.waitSignal(window.session.results_ready, timeout=180000) as blocker:
        user.press(qtbot, dialog.open_button)
    result = blocker.args[0]
    assert window.session.study.kind == "candidates"
    assert window.session.study.options["model_annotators"] == "A3"
    assert result.annotators == ("A1", "A2")
    (m,) = result.to_json()["model_annotators"]
    assert m["name"] == "A3" and [p["with"] for p in m["agreement"]] == [
        "human majority",
        "A1",
        "A2",
    ]
    # the pair list shows the model's labels and the human majority beside the humans'
    assert {"A3", "human majority"} <= set(result.pair_table().columns)

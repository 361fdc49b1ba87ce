"""The relations of a spans study drawn as arcs over each annotator's text, one document at a
time, chosen by the user from the document list."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.gui.kinds.spans import ARC_COLOURS, RelationsPanel, create_panels
from iaa_desktop.gui.main_window import ViewContext
from tests.conftest import FIXTURES
from tests.gui import user

REL = FIXTURES / "spans" / "relations" / "brat"


def _project(root: Path) -> list[Path]:
    """doc1 as annotated (A and B differ), doc2 where B has A's annotations (they agree)."""
    for who in ("A", "B"):
        (root / who).mkdir()
        for doc, src in (("doc1", who), ("doc2", "A")):
            for ext in (".txt", ".ann"):
                shutil.copy(REL / src / f"doc1{ext}", root / who / f"{doc}{ext}")
    return [root / "A", root / "B"]


def test_relations_tab_draws_arcs_per_annotator_and_follows_the_document(qtbot, tmp_path):
    result = run_to_end(
        get_kind("spans").run(_project(tmp_path), {"n_resamples": 50, "gamma": False})
    )
    tabs = dict(create_panels(result, ViewContext()))
    panel = tabs["Relations"]
    assert isinstance(panel, RelationsPanel)
    qtbot.addWidget(panel)
    panel.resize(1280, 720)
    panel.show()
    qtbot.waitExposed(panel)
    arcs = panel.arcs
    qtbot.waitUntil(lambda: arcs.arcs_drawn == 10)  # A's 4 and B's 6 relations of doc1
    names = [b.name for b in arcs.blocks]
    assert names == ["A", "B"]
    b = arcs.blocks[1]
    colours = {a.label: a.colour for a in b.arcs}
    assert colours["Employer"] == ARC_COLOURS["matched"]
    assert colours["Located"] == ARC_COLOURS["link in the other direction"]
    assert colours["Does"] == ARC_COLOURS["argument not annotated by the other"]
    assert colours["Based"] == ARC_COLOURS["argument boundary differs"]
    user.choose_text(qtbot, panel.doc_combo, "doc2")
    qtbot.waitUntil(lambda: arcs.arcs_drawn == 8)  # both have A's 4
    assert all(
        a.colour == ARC_COLOURS["matched"] and not a.dashed for bl in arcs.blocks for a in bl.arcs
    )
    pairs = panel.models[0]
    headers = [pairs.headerData(c, Qt.Orientation.Horizontal) for c in range(pairs.columnCount())]
    assert "relations of a" in headers
    # the F1 columns come before the counts and are in view without scrolling
    view = panel.views[0]
    for title in ("exact F1", "overlap F1"):
        assert title in headers
        column = headers.index(title)
        assert column < headers.index("relations of a")
        right = view.columnViewportPosition(column) + view.columnWidth(column)
        assert 0 <= right <= view.viewport().width()


def test_no_relations_no_relations_tab(qtbot):
    from iaa_desktop.gui.start_page import examples_dir

    root = examples_dir() / "spans"
    result = run_to_end(
        get_kind("spans").run([root / "Noa", root / "Omar"], {"n_resamples": 20, "gamma": False})
    )
    tabs = [t for t, _ in create_panels(result, ViewContext())]
    assert "Relations" not in tabs


def test_adjudicating_a_relation_unit_by_its_label_key(qtbot, tmp_path):
    from PySide6.QtWidgets import QApplication

    from iaa_desktop.cli import compute
    from iaa_desktop.gui.adjudication import open_adjudication

    result = compute("spans", [REL / "A", REL / "B"], {"n_resamples": 20, "gamma": False})
    dlg = open_adjudication(None, result, None, store_path=tmp_path / "s.sqlite", show=True)
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    dlg.activateWindow()
    panel = dlg.panel
    s = panel.session
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=5000)
    target = next(i for i, t in enumerate(s.model.titles) if "Bob\u2069’ → ‘\u2068Carol" in t)
    for _ in range(s.model.n_units):  # N until the relabelled link Bob → Carol is shown
        if panel.current == target:
            break
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_N)
    assert panel.current == target
    # the typed value of a relation unit is its labels, and the hint says so (not span offsets)
    assert panel.value_edit.placeholderText().startswith("relation LABEL")
    context = panel.context_view.toPlainText()
    assert "Meets" in context and "Knows" in context and "Bob" in context
    meets = next(c for c in s.choices(target) if c.choice == "label:Meets")
    qtbot.keyClick(QApplication.focusWidget(), getattr(Qt.Key, f"Key_{meets.key.upper()}"))
    assert s.is_decided(target) and s.decision(target).value == "Meets"
    # a span unit keeps the kind's hint
    for _ in range(s.model.n_units):  # P back to a span unit in disagreement
        if "|rel|" not in s.model.keys[panel.current]:
            break
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_P)
    assert "|rel|" not in s.model.keys[panel.current]
    assert panel.value_edit.placeholderText().startswith("LABEL START END")
    s.store.close()


def test_labels_of_crowded_arcs_never_cover_one_another(qtbot):
    """More arcs over a line than its levels hold (a span linked to many others, as in a
    clinical text): every label is still readable, no label box over another."""
    from iaa_desktop.gui.widgets.arcs import Arc, ArcBlock, ArcView

    text = "It causes fever, cough, rash, pain, fatigue and nausea in most patients."
    words = ["fever", "cough", "rash", "pain", "fatigue", "nausea"]
    spans = [((0, 2), "#dddddd")] + [
        ((text.index(w), text.index(w) + len(w)), "#ffdddd") for w in words
    ]
    arcs = [Arc((0, 2), b, lab, "#2e7d32") for (b, _c), lab in zip(spans[1:], ["Produces"] * 6)]
    arcs.append(Arc((0, 2), spans[3][0], "Is_a", "#c00000", dashed=True))
    view = ArcView()
    qtbot.addWidget(view)
    view.resize(900, 300)
    view.set_blocks([ArcBlock("A", text, spans, arcs)])
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.arcs_drawn == 7)
    (boxes,) = view.label_boxes
    assert len(boxes) == 7
    for i, a in enumerate(boxes):
        assert 0 <= a.left() and a.right() <= view.width()
        for b in boxes[i + 1 :]:
            assert not a.intersects(b), (a, b)

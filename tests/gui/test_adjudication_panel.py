"""pytest-qt: adjudicate real data sets by keyboard, export the gold, load it back, full agreement."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from iaa_desktop.cli import compute
from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore, units_for
from iaa_desktop.gui.adjudication import AdjudicationPanel, open_adjudication
from tests.conftest import shared_path
from tests.gui import user


def _panel(qtbot, result, tmp_path: Path, **kw) -> AdjudicationPanel:
    session = AdjudicationSession(
        units_for(result), AdjudicationStore.open(tmp_path / "s.adjudication.sqlite"), **kw
    )
    panel = AdjudicationPanel(session)
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    return panel


def _press(
    qtbot, panel: AdjudicationPanel, key, times: int = 1, modifier=Qt.KeyboardModifier.NoModifier
) -> None:
    for _ in range(times):
        qtbot.keyClick(panel.queue_view, key, modifier)


def _adjudicate_by_keyboard(qtbot, panel: AdjudicationPanel, n: int = 6) -> None:
    s = panel.session
    done0, total = s.progress()
    assert panel.progress_label.text() == f"{done0} / {total} resolved"
    first = panel.current
    assert first is not None and not s.is_decided(first)
    expected = s.model.versions[first, s.annotator_order[0]]
    _press(qtbot, panel, Qt.Key.Key_1)
    if expected is not None:
        assert s.is_decided(first) and s.gold[first] == expected
        assert panel.current != first  # moved on to the next unresolved unit
    # undo / redo through the keyboard
    _press(qtbot, panel, Qt.Key.Key_Z, modifier=Qt.KeyboardModifier.ControlModifier)
    assert not s.is_decided(first)
    _press(
        qtbot,
        panel,
        Qt.Key.Key_Z,
        modifier=Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert s.is_decided(first) == (expected is not None)
    # keep pressing 1 (an annotator without a version is skipped with 2)
    for _ in range(n):
        if panel.current is None or s.progress()[0] == total:
            break
        before = s.progress()[0]
        _press(qtbot, panel, Qt.Key.Key_1)
        if s.progress()[0] == before:
            _press(qtbot, panel, Qt.Key.Key_2)
    done, _ = s.progress()
    assert done > done0
    assert panel.progress_label.text() == f"{done} / {total} resolved"
    # the live agreement table follows the gold
    agree = s.agreement()
    first_name = s.model.annotators[s.annotator_order[0]]
    row = panel.last_agreement.set_index("annotator").loc[first_name]
    assert row["n_agree"] == agree.set_index("annotator").loc[first_name, "n_agree"]


def _check_loaded_back(model, gold, model2) -> None:
    x = model2.annotators.index("gold")
    back = dict(zip(model2.keys, model2.versions[:, x]))
    assert all(back.get(k) == g for k, g in zip(model.keys, gold))


def test_table_kind_by_keyboard(qtbot, tmp_path: Path) -> None:
    j = shared_path("trotr", "(Genesis 1 1)", "judgments.tsv")
    opts = {"level": "ordinal", "missing": "0,0.0", "item": "identifier1,identifier2"}
    r = compute("table", [j], opts)
    panel = _panel(qtbot, r, tmp_path)
    _adjudicate_by_keyboard(qtbot, panel)
    # graded: the mean is offered on key "a"
    i = panel.current
    mean = [c for c in panel.session.choices(i) if c.choice == "mean"]
    if mean:
        _press(qtbot, panel, Qt.Key.Key_A)
        assert panel.session.gold[i] == mean[0].value
    files = panel.export_gold(tmp_path / "gold")
    r2 = compute("table", [j, files[0]], opts)
    _check_loaded_back(panel.session.model, panel.session.gold, units_for(r2))
    panel.close_store()


def test_durel_by_keyboard(qtbot, tmp_path: Path) -> None:
    t = shared_path("trotr")
    r = compute("durel", [t / "(Genesis 1 1)", t / "(John 15 13)"], {})
    panel = _panel(qtbot, r, tmp_path)
    _adjudicate_by_keyboard(qtbot, panel)
    user.type_filter(qtbot, panel.note_edit, "discussed")
    i = panel.current
    _press(qtbot, panel, Qt.Key.Key_D)  # median
    assert (
        panel.session.decision(i).choice == "median"
        and panel.session.decision(i).note == "discussed"
    )
    panel.export_gold(tmp_path / "gold")
    r2 = compute("durel", [tmp_path / "gold"], {})
    _check_loaded_back(panel.session.model, panel.session.gold, units_for(r2))
    panel.close_store()


def test_candidates_by_keyboard(qtbot, tmp_path: Path) -> None:
    d = shared_path("candidates")
    r = compute("candidates", [d / "pairs.tsv", d / "labels.tsv"], {})
    panel = _panel(qtbot, r, tmp_path)
    _adjudicate_by_keyboard(qtbot, panel)
    i = panel.current
    _press(qtbot, panel, Qt.Key.Key_M)  # 3 annotators on a binary label: there is always a majority
    assert panel.session.decision(i).choice == "majority"
    files = panel.export_gold(tmp_path / "gold")
    r2 = compute("candidates", [d / "pairs.tsv", files[0]], {})
    _check_loaded_back(panel.session.model, panel.session.gold, units_for(r2))
    panel.close_store()


def test_multilabel_by_keyboard_with_a_typed_value(qtbot, tmp_path: Path) -> None:
    d = shared_path("multilabel")
    r = compute("multilabel", [d / "annotations.tsv"], {})
    panel = _panel(qtbot, r, tmp_path)
    _adjudicate_by_keyboard(qtbot, panel)
    i = panel.current
    qtbot.keyClicks(panel.value_edit, "Success; Complication")
    qtbot.keyClick(panel.value_edit, Qt.Key.Key_Return)
    assert panel.session.gold[i] == "Complication;Success"
    files = panel.export_gold(tmp_path / "gold")
    r2 = compute("multilabel", [d / "annotations.tsv", files[0]], {})
    _check_loaded_back(panel.session.model, panel.session.gold, units_for(r2))
    panel.close_store()


def test_normalization_by_keyboard_blind(qtbot, tmp_path: Path) -> None:
    d = shared_path("normalization")
    files_in = sorted(d.glob("annotator_*.tsv"))
    r = compute("normalization", files_in, {})
    panel = _panel(qtbot, r, tmp_path, blind=True, seed=5)
    m = panel.agreement_model
    assert m.data(m.index(0, 0)) == "Annotator 1"
    assert all("annotator_" not in b.text() for b in panel._choice_buttons)
    _adjudicate_by_keyboard(qtbot, panel)
    # typed value with modernization
    i = panel.current
    qtbot.keyClicks(panel.value_edit, "heilig | heilig | SEM")
    qtbot.keyClick(panel.value_edit, Qt.Key.Key_Return)
    assert panel.session.gold[i] == "heilig\theilig\tSEM"
    files = panel.export_gold(tmp_path / "gold")
    from iaa_desktop.core.kinds.normalization.adjudication import model_from_inputs

    _check_loaded_back(
        panel.session.model, panel.session.gold, model_from_inputs([*files_in, files[0]])
    )
    panel.close_store()


def test_next_previous_filter_and_clear(qtbot, tmp_path: Path) -> None:
    d = shared_path("candidates")
    r = compute("candidates", [d / "pairs.tsv", d / "labels.tsv"], {})
    panel = _panel(qtbot, r, tmp_path)
    s = panel.session
    q = list(s.queue())
    assert panel.current == q[0]
    _press(qtbot, panel, Qt.Key.Key_N)
    assert panel.current == q[1]
    _press(qtbot, panel, Qt.Key.Key_P)
    assert panel.current == q[0]
    user.choose(qtbot, panel.toolbar.filter_combo, "all")
    assert panel.queue_model.rowCount() == s.model.n_units
    user.type_filter(qtbot, panel.toolbar.search_edit, "Psalms")
    qtbot.waitUntil(lambda: 0 < panel.queue_model.rowCount() < s.model.n_units, timeout=3000)
    user.type_filter(qtbot, panel.toolbar.search_edit, "")
    user.choose(qtbot, panel.toolbar.filter_combo, "unresolved")
    i = panel.current
    _press(qtbot, panel, Qt.Key.Key_1)
    user.go_to_unit(qtbot, panel, i)
    assert panel.clear_button.isEnabled()
    user.press(qtbot, panel.clear_button)
    assert not s.is_decided(i)
    _press(qtbot, panel, Qt.Key.Key_Z, modifier=Qt.KeyboardModifier.ControlModifier)
    assert s.is_decided(i)
    panel.close_store()


def test_second_window_is_offered_read_only(qtbot, tmp_path: Path, monkeypatch) -> None:
    d = shared_path("candidates")
    r = compute("candidates", [d / "pairs.tsv", d / "labels.tsv"], {})
    store = tmp_path / "s.adjudication.sqlite"
    first = open_adjudication(None, r, None, store_path=store, show=False)
    assert first is not None
    qtbot.addWidget(first)
    _press(qtbot, first.panel, Qt.Key.Key_1)
    asked = []

    def answer(*args, **kw):
        asked.append(args[2])
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    second = open_adjudication(None, r, None, store_path=store, show=False)
    qtbot.addWidget(second)
    assert asked and "another session holds" in asked[0]
    assert second.panel.session.read_only
    assert not second.panel.typed_button.isEnabled()
    assert second.panel.session.progress() == first.panel.session.progress()
    n = second.panel.session.progress()[0]
    _press(qtbot, second.panel, Qt.Key.Key_1)  # nothing happens read-only
    assert second.panel.session.progress()[0] == n
    second.close()
    first.close()


def test_corrupt_store_offers_a_new_one_beside_it(qtbot, tmp_path: Path, monkeypatch) -> None:
    d = shared_path("candidates")
    r = compute("candidates", [d / "pairs.tsv", d / "labels.tsv"], {})
    study = tmp_path / "study.json"
    bad = tmp_path / "study.adjudication.sqlite"
    bad.write_bytes(b"\x00garbage" * 100)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    dlg = open_adjudication(None, r, study, show=False)
    qtbot.addWidget(dlg)
    assert dlg.panel.session.store.path.name == "study-2.adjudication.sqlite"
    assert bad.read_bytes() == b"\x00garbage" * 100
    dlg.close()


def test_coref_by_keyboard(qtbot, tmp_path: Path) -> None:
    from iaa_desktop.core.kinds.coref.adjudication import load_documents, model_from_inputs

    d = shared_path("psalms-coref")
    model = model_from_inputs([d / "A", d / "B"])
    session = AdjudicationSession(model, AdjudicationStore.open(tmp_path / "s.adjudication.sqlite"))
    panel = AdjudicationPanel(session)
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    _adjudicate_by_keyboard(qtbot, panel, n=10)
    # a class pair: the union by "u"
    pair = next(int(i) for i in session.queue() if model.units[int(i)].kind == "group")
    user.go_to_unit(qtbot, panel, pair)
    _press(qtbot, panel, Qt.Key.Key_U)
    assert session.decision(pair).choice == "union"
    # a lone mention: drop by "x"
    lone = next(int(i) for i in session.queue() if model.units[int(i)].kind == "mention")
    user.go_to_unit(qtbot, panel, lone)
    _press(qtbot, panel, Qt.Key.Key_X)
    assert session.gold[lone] == "drop"
    panel.export_gold(tmp_path / "gold")
    _names, docs, _fmt, _err = load_documents([tmp_path / "gold" / "gold", d / "A"])
    for doc, (mentions, chains) in zip(docs, model.gold_chains(session.gold)):
        assert doc.annotations[0].mentions == mentions and set(doc.annotations[0].classes) == set(
            chains
        )
    panel.close_store()


def test_blind_mode_hides_names_in_coref_titles_and_context(qtbot, tmp_path: Path) -> None:
    from iaa_desktop.core.kinds.coref.adjudication import model_from_inputs

    d = shared_path("psalms-coref")
    model = model_from_inputs([d / "A", d / "B"])
    session = AdjudicationSession(
        model, AdjudicationStore.open(tmp_path / "s.sqlite"), blind=True, seed=3
    )
    panel = AdjudicationPanel(session)
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    lone = next(i for i, u in enumerate(model.units) if u.kind == "mention")
    user.go_to_unit(qtbot, panel, lone)
    assert "Annotator" in panel.unit_label.text() and not panel.unit_label.text().endswith(" A")
    row = (
        int(np.flatnonzero(panel.queue_model.indices() == lone)[0])
        if lone in panel.queue_model.indices()
        else None
    )
    if row is not None:
        text = panel.queue_model.data(panel.queue_model.index(row, 1))
        assert "only Annotator" in text
    assert "Annotator 1" in panel.context_view.toHtml()
    panel.close_store()


def test_decisions_on_units_the_comparison_lacks_are_kept_and_reported(
    qtbot, tmp_path: Path
) -> None:
    from iaa_desktop.core.adjudication import AdjudicationModel, Decide, Decision

    store_path = tmp_path / "s.sqlite"
    with AdjudicationStore.open(store_path) as st:
        st.apply(Decide("gone", None, Decision("typed", "x", "", "t")))
    model = AdjudicationModel(("A", "B"), ["u1"], np.array([["a", "b"]], dtype=object))
    session = AdjudicationSession(model, AdjudicationStore.open(store_path))
    panel = AdjudicationPanel(session)
    qtbot.addWidget(panel)
    assert session.unknown_units == ["gone"]
    assert any("1 decision(s)" in w.text() for w in panel.findChildren(type(panel.progress_label)))
    panel.close_store()
    with AdjudicationStore.open(store_path, read_only=True) as st:
        assert st.decision("gone").value == "x"


def test_open_adjudication_of_a_coref_result(qtbot, tmp_path: Path) -> None:
    d = shared_path("psalms-coref")
    r = compute("coref", [d / "A", d / "B"], {})
    dlg = open_adjudication(None, r, None, store_path=tmp_path / "c.sqlite", show=False)
    qtbot.addWidget(dlg)
    model = dlg.panel.session.model
    assert model.kind == "coref" and model.annotators == ("A", "B")
    # the class pairs are the comparison's own matched rows
    n_rows = sum(
        1
        for doc in r.documents
        for p in doc.pairs
        for row in p.rows
        if row.class_a.startswith("C") and row.class_b.startswith("C") and row.M > 0
    )
    assert sum(u.kind == "group" for u in model.units) == n_rows
    dlg.close()

"""Every kind's adjudication opens ready for the keyboard: the first unresolved unit is shown with
its text, one key press decides it without a click, and N / P walk the list, whose selection
follows."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from iaa_desktop.cli import compute
from iaa_desktop.gui.adjudication import open_adjudication
from tests.conftest import shared_path
from tests.gui import user

EXAMPLES = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples"


def _ratings():
    return compute(
        "table",
        [EXAMPLES / "judgments" / "ratings.csv"],
        {"level": "ordinal", "group_by": "topic"},
    )


def _durel():
    t = shared_path("trotr")
    return compute("durel", [t / "(Genesis 1 1)", t / "(John 15 13)"], {})


def _candidates():
    d = shared_path("candidates")
    return compute("candidates", [d / "pairs.tsv", d / "labels.tsv"], {})


def _multilabel():
    return compute("multilabel", [shared_path("multilabel") / "annotations.tsv"], {})


def _normalization():
    d = shared_path("normalization")
    return compute("normalization", sorted(d.glob("annotator_*.tsv"))[:3], {})


def _coref():
    d = shared_path("psalms-coref")
    return compute("coref", [d / "A", d / "B"], {})


def _spans():
    root = EXAMPLES / "spans"
    return compute("spans", [root / "Noa", root / "Omar", root / "Lena"], {"n_resamples": 50})


def _text_of(result, model, i: int) -> str:
    """A piece of what the unit is about that the panel must show."""
    kind = result.kind
    if kind == "table":
        return dict(model.context(i))["text"]
    if kind == "durel":
        return model._use(i, "1").text[:30]
    if kind == "candidates":
        return str(model._pairs.iloc[i]["target_text"])[:30]
    if kind == "multilabel":
        return model.texts[i][:30]
    if kind == "normalization":
        return model.orig[i]
    if kind == "spans":
        return model._text(i).strip()[:20]
    u = model.units[i]  # coref: a mention of the unit, as written in the text
    m = u.mention if u.mention is not None else min(u.union, key=lambda m: m[1])
    return model.docs[u.doc].surface(m)


@pytest.mark.parametrize(
    "make", [_ratings, _durel, _candidates, _multilabel, _normalization, _coref, _spans]
)
def test_one_key_decides_the_first_unit_and_n_p_follow_the_list(qtbot, tmp_path, make) -> None:
    result = make()
    dlg = open_adjudication(None, result, None, store_path=tmp_path / "s.sqlite", show=True)
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    dlg.activateWindow()
    panel = dlg.panel
    s = panel.session
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=5000)
    focus = QApplication.focusWidget()
    assert focus is panel.queue_view  # the keys work at once, no click first
    first = panel.current
    queue = [int(i) for i in panel.queue_model.indices()]
    assert first == queue[0] and not s.resolved_mask()[first]
    # the unit is shown in context: its text is on the panel
    assert _text_of(result, s.model, first).strip() in panel.context_view.toPlainText()
    # one key press decides it (the first version, or the second when the first has none)
    key = (
        Qt.Key.Key_1 if s.model.versions[first, s.annotator_order[0]] is not None else Qt.Key.Key_2
    )
    qtbot.keyClick(focus, key)
    assert s.is_decided(first)
    # … and the panel moved on to the next unit of the list, the list's selection with it
    second = panel.current
    assert second != first and second in [int(i) for i in panel.queue_model.indices()]
    assert not s.resolved_mask()[second]
    row = panel.queue_view.currentIndex().row()
    assert int(panel.queue_model.indices()[row]) == second
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_N)
    third = panel.current
    assert third != second
    assert int(panel.queue_model.indices()[panel.queue_view.currentIndex().row()]) == third
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_P)
    assert panel.current == second
    assert int(panel.queue_model.indices()[panel.queue_view.currentIndex().row()]) == second
    dlg.close()


def test_click_a_version_in_the_text_bulk_actions_and_the_queue_model(
    qtbot, qtmodeltester, tmp_path
) -> None:
    from iaa_desktop.gui.adjudication.context import CHOOSE

    dlg = open_adjudication(None, _ratings(), None, store_path=tmp_path / "s.sqlite", show=True)
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    panel = dlg.panel
    s = panel.session
    qtmodeltester.check(panel.queue_model)
    qtmodeltester.check(panel.agreement_model)
    i = panel.current
    choices = s.choices(i)
    n = next(k for k, c in enumerate(choices) if c.value is not None and c.key == "2")
    html = panel.context_view.toHtml()
    assert f"{CHOOSE}{n}" in html  # every version is a link in the unit's page
    user.click_anchor(qtbot, panel.context_view, f"{CHOOSE}{n}")
    assert s.decision(i).value == choices[n].value
    # every annotator's version side by side in the queue, in its value's colour
    assert panel.queue_model.columnCount() == 3 + len(s.model.annotators) + 2
    idx = panel.queue_model.index(0, 3)
    assert panel.queue_model.data(idx, Qt.ItemDataRole.BackgroundRole) is not None or (
        panel.queue_model.data(idx) == "—"
    )
    # bulk: one step decides many, one undo takes them all back
    done = s.progress()[0]
    first = s.display_names()[0]
    answers = user.answer_dialogs(qtbot, QMessageBox.StandardButton.Yes)
    user.press(qtbot, panel.toolbar.bulk_button)
    user.menu_item(qtbot, panel.bulk_menu, f"Take {first}'s version for every open unit of ")
    qtbot.waitUntil(lambda: s.progress()[0] > done)
    answers.timer.stop()
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert s.progress()[0] == done
    # the filter by annotator pair and by value
    user.choose_index(qtbot, panel.toolbar.pair_combo, 1)
    a, b = panel.toolbar.pair_combo.currentData()
    codes = s.model.codes
    for k in panel.queue_model.indices():
        assert codes[k, a] >= 0 and codes[k, b] >= 0 and codes[k, a] != codes[k, b]
    user.choose_index(qtbot, panel.toolbar.label_combo, 1)
    value = panel.toolbar.label_combo.currentData()
    for k in panel.queue_model.indices():
        assert value in [v for v in s.model.versions[k] if v is not None]
    dlg.close()


def test_coref_chain_edited_mention_by_mention(qtbot, tmp_path) -> None:
    from iaa_desktop.core.kinds.coref.adjudication import decode_class

    dlg = open_adjudication(None, _coref(), None, store_path=tmp_path / "s.sqlite", show=True)
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    panel = dlg.panel
    s = panel.session
    i = next(int(k) for k in s.queue() if s.model.units[int(k)].kind == "group")
    user.activate(qtbot, panel.queue_view)
    while panel.current != i:  # N walks the list to the first chain
        qtbot.keyClick(panel.queue_view, Qt.Key.Key_N)
    u = s.model.units[i]
    m = sorted(u.union, key=lambda m: m[1])[0]
    href = f"mention:{m[0]} {m[1]} {m[2]}"
    assert href in panel.context_view.toHtml()  # the chain's mentions are clickable
    user.click_anchor(qtbot, panel.context_view, href)
    assert s.decision(i).choice == "typed" and decode_class(s.gold[i]) == {m}
    user.click_anchor(qtbot, panel.context_view, href)  # again: taken out
    assert decode_class(s.gold[i]) == set()
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert decode_class(s.gold[i]) == {m}
    dlg.close()


def test_live_agreement_in_a_worker(qtbot, tmp_path, monkeypatch) -> None:
    from iaa_desktop.gui.adjudication import live_agreement

    monkeypatch.setattr(live_agreement, "SYNC_AGREEMENT_CELLS", 0)
    dlg = open_adjudication(None, _ratings(), None, store_path=tmp_path / "s.sqlite", show=True)
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    panel = dlg.panel
    qtbot.waitUntil(lambda: len(panel.last_agreement) > 0, timeout=10000)
    with qtbot.waitSignal(panel.live.ready, timeout=10000):
        qtbot.keyClick(panel.queue_view, Qt.Key.Key_1)
    expected = panel.session.agreement()
    first = expected["annotator"].iloc[0]
    got = panel.last_agreement.set_index("annotator").loc[first, "n_agree"]
    assert got == expected.set_index("annotator").loc[first, "n_agree"]
    dlg.close()

"""An adjudication meeting held with the keyboard, as a person holds it: open, decide three units,
undo one, filter, accept the agreed units in bulk, export the gold and the decision log, reopen.

The exported record is checked against the data: each quoted text is the words of the unit's
own document at the version's offsets, the gold holds the decisions, and the decisions survive
closing and reopening the window. The file chooser of the operating system is the one thing not
driven by keys: it answers with the test's folder.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from iaa_desktop.cli import compute
from iaa_desktop.gui.adjudication import open_adjudication
from tests.gui import user

EXAMPLES = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples"
QUOTE = re.compile(r"(\S+) ‘\u2068(.*?)\u2069’ (\d+)–(\d+)")


def _open(qtbot, result, store: Path):
    dlg = open_adjudication(None, result, None, store_path=store, show=True)
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    user.activate(qtbot, dlg)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dlg.panel.queue_view)
    return dlg


def _key(qtbot, key, mods=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget(), key, mods)


def _press(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(4, button.height() // 2))


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def _check_quotes(rows, model, columns) -> int:
    """Every quoted text in ``columns`` is the unit's own document at the quoted offsets."""
    keys = list(model.keys)
    n = 0
    for row in rows:
        text = model.corpus.texts[model.group_doc[keys.index(row["unit"])]] or ""
        for col in columns:
            for _label, quoted, a, b in QUOTE.findall(row[col]):
                if " … " not in quoted:
                    assert text[int(a) : int(b)] == quoted, (row["unit"], col, row[col])
                    n += 1
    return n


def test_spans_meeting_by_keys_quotes_each_unit_from_its_own_document(qtbot, tmp_path, monkeypatch):
    root = EXAMPLES / "spans"
    result = compute("spans", [root / "Noa", root / "Omar", root / "Lena"], {"n_resamples": 20})
    store = tmp_path / "meeting.sqlite"
    dlg = _open(qtbot, result, store)
    panel, s = dlg.panel, dlg.panel.session
    docs = {s.model.group_doc[i] for i in panel.queue_model.indices()}
    assert len(docs) > 1  # the queue spans several documents, in several scripts
    # the queue quotes each version from its own unit's document, the quote isolated (its
    # own isolates are not shown escaped as "<U+2068>")
    quotes = 0
    for row, i in enumerate(panel.queue_model.indices()):
        text = s.model.corpus.texts[s.model.group_doc[int(i)]] or ""
        for col in range(panel.queue_model.columnCount()):
            shown = str(panel.queue_model.index(row, col).data() or "")
            assert "<U+2068>" not in shown and "<U+2069>" not in shown, shown
            for _label, quoted, a, b in QUOTE.findall(shown):
                if " … " not in quoted:
                    assert text[int(a) : int(b)] == quoted
                    quotes += 1
    assert quotes > 0
    # decide three units with one key each, undo the last
    decided = []
    for _ in range(3):
        i = panel.current
        x = s.annotator_order[0]
        _key(qtbot, Qt.Key.Key_1 if s.model.versions[i, x] is not None else Qt.Key.Key_2)
        assert s.is_decided(i)
        decided.append(i)
    _key(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not s.is_decided(decided[-1])
    kept = decided[:2]
    # filter the queue by a word of another document, typed into the search field
    other = next(
        int(i)
        for i in panel.queue_model.indices()
        if s.model.group_doc[int(i)] != s.model.group_doc[kept[0]]
    )
    name = s.model.groups[other]
    user.focus(qtbot, panel.toolbar.search_edit)
    qtbot.keyClicks(panel.toolbar.search_edit, name)
    qtbot.waitUntil(
        lambda: all(s.model.groups[int(i)] == name for i in panel.queue_model.indices()),
        timeout=5000,
    )
    qtbot.keyClick(panel.toolbar.search_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(panel.toolbar.search_edit, Qt.Key.Key_Delete)
    # bulk: accept every unit the annotators agree on (the question answered Yes)
    answers = user.answer_dialogs(qtbot, QMessageBox.StandardButton.Yes)
    _press(qtbot, panel.toolbar.bulk_button)
    menu = panel.bulk_menu
    qtbot.waitUntil(menu.isVisible)
    qtbot.keyClick(menu, Qt.Key.Key_Down)
    qtbot.keyClick(menu, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: any("decide" in a for a in answers), timeout=5000)
    answers.timer.stop()
    # export the gold and the decision log (the file chooser answers with the test's folders)
    gold_dir, log = tmp_path / "gold", tmp_path / "decision_log.csv"
    gold_dir.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(gold_dir))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(log), ""))
    answers = user.answer_dialogs(qtbot)
    _press(qtbot, panel.side.export_gold_button)
    _press(qtbot, panel.side.export_log_button)
    qtbot.waitUntil(log.exists, timeout=5000)
    answers.timer.stop()
    rows = _read(log)
    logged = {r["unit"] for r in rows}
    assert {s.model.keys[i] for i in kept} <= logged
    assert (
        s.model.keys[decided[-1]] not in logged
        or s.model.versions[decided[-1]].tolist().count(None) == 0
    )  # the undone unit is back only if the bulk accepted it as agreed
    cols = [*s.model.annotators, "decision"]
    assert _check_quotes(rows, s.model, cols) > 0
    undecided = _read(gold_dir / "undecided.csv")
    _check_quotes(undecided, s.model, list(s.model.annotators))
    assert len(undecided) == sum(1 for g in s.gold if g is None)
    assert _gold_matches_the_decisions(result, s.model, s.gold, gold_dir) >= len(kept)
    wrong = s.gold
    wrong[kept[0]] = None  # a decision missing from the gold is seen
    with pytest.raises(AssertionError):
        _gold_matches_the_decisions(result, s.model, wrong, gold_dir)
    # close (Ctrl+W) and reopen: the decisions are still there
    user.activate(qtbot, dlg)  # back from the export's message boxes
    qtbot.keyClick(
        dlg.panel.queue_view, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier
    )  # Esc never closes it
    qtbot.waitUntil(lambda: not dlg.isVisible())
    again = _open(qtbot, result, store)
    for i in kept:
        assert again.panel.session.is_decided(i)
    assert not again.panel.session.is_decided(decided[-1]) or s.model.keys[decided[-1]] in logged
    again.close()


def _ratings():
    return compute(
        "table", [EXAMPLES / "judgments" / "ratings.csv"], {"level": "ordinal", "group_by": "topic"}
    )


def _example(kind: str, folder: str, *names: str):
    def make():
        root = EXAMPLES / folder
        paths = [root / n for n in names] if names else sorted(root.glob("*.tsv"))
        return compute(kind, paths, {})

    make.__name__ = kind
    return make


MAKERS = [
    _ratings,
    _example("durel", "durel/targets", "(Matthew 7 7)", "(Proverbs 16 18)"),
    _example("candidates", "candidates", "pairs.tsv", "labels.tsv"),
    _example("multilabel", "multilabel", "annotations.tsv", "sentences.tsv"),
    _example("normalization", "normalization"),
    _example("coref", "coref", "A", "B"),
    _example("spans", "spans", "Noa", "Omar", "Lena"),
]


def _gold_matches_the_decisions(result, model, gold, gold_dir: Path) -> int:
    """Read the gold written into ``gold_dir`` back with the kind's own reader, beside the
    annotators' inputs, and check it holds exactly ``gold`` (every unit: decided, merged
    automatically, or undecided). Returns how many units hold a gold value."""
    from iaa_desktop.core.adjudication import units_for

    kind = model.kind
    written = sorted(p for p in gold_dir.rglob("*") if p.is_file() and p.name != "undecided.csv")
    assert written, "no gold file written"
    if kind == "coref":
        from iaa_desktop.core.kinds.coref.adjudication import load_documents

        _names, docs, _fmt, _err = load_documents([gold_dir / "gold", Path(result.inputs[0])])
        chains = model.gold_chains(gold)
        assert len(docs) == len(chains)
        for doc, (mentions, classes) in zip(docs, chains):
            assert doc.annotations[0].mentions == mentions
            assert set(doc.annotations[0].classes) == set(classes)
        return sum(g is not None for g in gold)
    if kind == "spans":
        back = compute("spans", [*map(Path, result.inputs), gold_dir / "gold"], {"n_resamples": 1})
        want = model.gold_spans(gold)
        for d, name in enumerate(model.corpus.names):
            got = sorted(
                set(back.corpus.docs[name]["gold"].spans), key=lambda s: (s.start, s.end, s.label)
            )
            assert got == want[d], name
        return sum(g is not None for g in gold)
    if kind == "durel":
        back = compute("durel", sorted(gold_dir.iterdir()), {})
    elif kind == "normalization":
        from iaa_desktop.core.kinds.normalization.adjudication import model_from_inputs

        loaded = model_from_inputs([*map(Path, result.inputs), *written])
        back = None
    else:
        options = {"level": "ordinal", "group_by": "topic"} if kind == "table" else {}
        kept = [Path(p) for p in result.inputs if not Path(p).name.startswith("label")]
        back = compute(kind, [*kept, *written], options)
    if back is not None:
        loaded = units_for(back)
    x = loaded.annotators.index(next(a for a in loaded.annotators if a.startswith("gold")))
    got = dict(zip(loaded.keys, loaded.versions[:, x]))
    for k, g in zip(model.keys, gold):
        assert got.get(k) == g, (k, got.get(k), g)
    return sum(g is not None for g in gold)


@pytest.mark.parametrize("make", MAKERS, ids=lambda m: m.__name__)
def test_a_meeting_by_keys_keeps_its_decisions(qtbot, tmp_path, monkeypatch, make):
    """Decide three units, undo one, filter, accept the agreed ones in bulk, export, reopen."""
    result = make()
    store = tmp_path / "meeting.sqlite"
    dlg = _open(qtbot, result, store)
    panel, s = dlg.panel, dlg.panel.session
    decided = []
    for _ in range(3):
        i = panel.current
        if i is None:
            break
        x = s.annotator_order[0]
        _key(qtbot, Qt.Key.Key_1 if s.model.versions[i, x] is not None else Qt.Key.Key_2)
        assert s.is_decided(i)
        decided.append(i)
    assert len(decided) >= 2
    _key(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not s.is_decided(decided[-1])
    kept = decided[:-1]
    group = next((g for g in s.model.groups if g), "")
    if group:  # the search field narrows the list to one group
        user.type_filter(qtbot, panel.toolbar.search_edit, group)
        qtbot.waitUntil(
            lambda: all(group in s.model.groups[int(i)] for i in panel.queue_model.indices()),
            timeout=5000,
        )
        user.type_filter(qtbot, panel.toolbar.search_edit, "")
    answers = user.answer_dialogs(qtbot, QMessageBox.StandardButton.Yes)
    _press(qtbot, panel.toolbar.bulk_button)
    user.menu_item(qtbot, panel.bulk_menu, "Accept every unit the annotators agree on")
    qtbot.waitUntil(lambda: len(answers) > 0, timeout=5000)
    answers.timer.stop()
    gold_dir, log = tmp_path / "gold", tmp_path / "decision_log.csv"
    gold_dir.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(gold_dir))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(log), ""))
    answers = user.answer_dialogs(qtbot)
    _press(qtbot, panel.side.export_gold_button)
    _press(qtbot, panel.side.export_log_button)
    qtbot.waitUntil(log.exists, timeout=5000)
    answers.timer.stop()
    rows = {r["unit"]: r for r in _read(log)}
    for i in kept:  # each decision is in the log with the value the gold holds
        row = rows[s.model.keys[i]]
        assert row["decision"] and row["choice"] != ""
    assert any(gold_dir.iterdir())
    assert len(_read(gold_dir / "undecided.csv")) == sum(1 for g in s.gold if g is None)
    for i in kept:
        assert s.gold[i] is not None
    # the gold written holds exactly the decisions (and the automatic merges), read back
    assert _gold_matches_the_decisions(result, s.model, s.gold, gold_dir) >= len(kept)
    wrong = s.gold
    wrong[kept[0]] = None  # a decision missing from the gold file would be seen
    with pytest.raises(AssertionError):
        _gold_matches_the_decisions(result, s.model, wrong, gold_dir)
    user.activate(qtbot, dlg)  # back from the export's message boxes
    qtbot.keyClick(dlg.panel.queue_view, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not dlg.isVisible())
    again = _open(qtbot, result, store)
    for i in kept:
        assert again.panel.session.is_decided(i)
        assert again.panel.session.gold[i] == s.gold[i]
    again.close()

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
    # the queue quotes each version from its own unit's document
    for row, i in enumerate(panel.queue_model.indices()):
        text = s.model.corpus.texts[s.model.group_doc[int(i)]] or ""
        for col in range(panel.queue_model.columnCount()):
            shown = str(panel.queue_model.index(row, col).data() or "")
            for _label, quoted, a, b in QUOTE.findall(shown):
                if " … " not in quoted:
                    assert text[int(a) : int(b)] == quoted
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

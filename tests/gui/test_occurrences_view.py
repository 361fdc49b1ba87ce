"""The Occurrences tab and the form-level decision, driven by keys and clicks."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from iaa_desktop.cli import compute
from iaa_desktop.gui.adjudication import open_adjudication
from tests.gui import user

EXAMPLES = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples"
ROWS = {
    "A": ["pottée\tpotée", "und\tund", "pottée\tpotée", "Pottée\tpotée", "vnd\tund"],
    "B": ["pottée\tpottée", "und\tund", "pottée\tpotée", "Pottée\tpotee", "vnd\tvnd"],
    "C": ["pottée\tpotée", "und\tund", "pottée\tpotée", "Pottée\tpotée", "vnd\tund"],
}


def _norm_result(tmp_path: Path, options=None):
    files = []
    for name, toks in ROWS.items():
        f = tmp_path / f"{name}.tsv"
        body = "".join(f"T1\t{k + 1}\t{t}\t\t\n" for k, t in enumerate(toks))
        f.write_text("text_id\ttoken_id\torig\tnorm\tmod\tmod_type\n" + body, encoding="utf-8")
        files.append(f)
    return compute("normalization", files, {"lowercase": False, **(options or {})})


def _panel(qtbot, result, view_module):
    panels = dict(view_module.create_panels(result, SimpleNamespace(session=None, cache={})))
    panel = panels["Occurrences"]
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def _kwic(panel) -> list[dict]:
    m = panel.kwic_model
    return [m.record(r).to_dict() for r in range(m.rowCount())]


def test_normalization_forms_filtered_and_listed_in_context(qtbot, tmp_path):
    from iaa_desktop.gui.kinds import normalization

    panel = _panel(qtbot, _norm_result(tmp_path), normalization)
    # three forms were treated in more than one way; "Pottée" (as written) and "vnd" are the
    # most inconsistent (one occurrence each, two treatments), "Pottée" first by name
    assert panel.forms_model.rowCount() == 3
    assert panel.current_form() == "Pottée"
    assert [r["B"] for r in _kwic(panel)] == ["potee"]
    # filtered by a treatment: only the forms someone normalized "vnd"
    user.type_filter(qtbot, panel.filter_edit, "vnd")
    qtbot.waitUntil(lambda: panel.forms_model.rowCount() == 1)
    qtbot.waitUntil(lambda: panel.current_form() == "vnd")
    assert [r["B"] for r in _kwic(panel)] == ["vnd"]
    user.type_filter(qtbot, panel.filter_edit, "")
    # the forms an annotator treated in two ways: B normalized "pottée" two ways, C never
    user.choose_text(qtbot, panel.annotator_combo, "B")
    qtbot.waitUntil(lambda: panel.forms_model.rowCount() == 1)
    qtbot.waitUntil(lambda: panel.current_form() == "pottée")
    rows = _kwic(panel)
    assert [r["B"] for r in rows] == ["pottée", "potée"]
    assert rows[0]["right"].startswith("und")  # the words after the first occurrence
    user.choose_text(qtbot, panel.annotator_combo, "C")
    qtbot.waitUntil(lambda: panel.forms_model.rowCount() == 0)
    user.choose_text(qtbot, panel.annotator_combo, "any annotator")
    # the consistent forms too, when asked for; a click shows one
    user.check(qtbot, panel.only_check, False)
    qtbot.waitUntil(lambda: panel.forms_model.rowCount() == 4)
    row = panel.forms_model.row_where("key", "und")
    user.click_row(qtbot, panel.forms_view, row)
    qtbot.waitUntil(lambda: panel.current_form() == "und")
    assert [r["A"] for r in _kwic(panel)] == ["und"]
    # each annotator with themself: B treated one of the 1 forms met twice in two ways
    ann = panel.annotators_model
    b = next(ann.record(r) for r in range(ann.rowCount()) if ann.record(r)["annotator"] == "B")
    assert (b["repeated_forms"], b["inconsistent_forms"]) == (1, 1)


def test_case_insensitive_matching_is_a_setting(qtbot, tmp_path):
    from iaa_desktop.gui.kinds import normalization

    panel = _panel(qtbot, _norm_result(tmp_path, {"occurrence_match": "case"}), normalization)
    assert panel.current_form() == "pottée"
    assert len(_kwic(panel)) == 3  # "Pottée" joins it


def test_spans_example_occurrences_tab(qtbot):
    from iaa_desktop.gui.kinds import spans

    ex = EXAMPLES / "spans"
    result = compute("spans", [ex / "Noa", ex / "Omar", ex / "Lena"], {"gamma": False})
    panel = _panel(qtbot, result, spans)
    user.type_filter(qtbot, panel.filter_edit, "Brussels")
    qtbot.waitUntil(lambda: panel.current_form() == "Brussels")
    rows = _kwic(panel)
    assert [(r["Noa"], r["Omar"], r["Lena"]) for r in rows] == [("LOC", "LOC", "ORG")]
    assert rows[0]["left"].endswith("in ") or "in" in rows[0]["left"]
    # the Hebrew forms are there too, matched as written
    user.type_filter(qtbot, panel.filter_edit, "")
    keys = [panel.forms_model.value(r, "key") for r in range(panel.forms_model.rowCount())]
    assert "צרפת" in keys


def _press(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(4, button.height() // 2))


def test_a_form_decided_once_from_the_bulk_menu_and_undone_in_one_step(qtbot, tmp_path):
    result = _norm_result(tmp_path)
    dlg = open_adjudication(None, result, None, store_path=tmp_path / "s.sqlite", show=True)
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    user.activate(qtbot, dlg)
    panel = dlg.panel
    qtbot.waitUntil(lambda: QApplication.focusWidget() is panel.queue_view)
    s = panel.session
    first = s.model.keys.index("T1/1")
    third = s.model.keys.index("T1/3")
    # the first queued unit is an occurrence of "pottée"; walk to it with the arrow keys
    queue = [int(i) for i in panel.queue_model.indices()]
    row = queue.index(first)
    user.click_row(qtbot, panel.queue_view, row)
    qtbot.waitUntil(lambda: panel.current == first)
    # open the Bulk menu and treat every occurrence of the form as "potée"
    answers = user.answer_dialogs(qtbot, QMessageBox.StandardButton.Yes)
    _press(qtbot, panel.toolbar.bulk_button)
    user.menu_item(qtbot, panel.bulk_menu, "Treat every occurrence of ‘\u2068pottée\u2069’ (2) as")
    qtbot.waitUntil(lambda: s.is_decided(first), timeout=5000)
    answers.timer.stop()
    assert s.gold[first] == s.gold[third] == "potée\t\t"
    assert s.decision(third).choice == "form:potée"
    # one Ctrl+Z undoes both
    user.focus(qtbot, panel.queue_view)
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not s.is_decided(first) and not s.is_decided(third), timeout=5000)
    s.store.close()


def test_a_table_with_a_token_column_has_an_occurrences_tab(qtbot, tmp_path):
    from iaa_desktop.gui.kinds import table

    f = tmp_path / "senses.csv"
    f.write_text(
        "item,annotator,label,token\n1,A,FIN,bank\n1,B,FIN,bank\n2,A,GEO,bank\n2,B,FIN,bank\n",
        encoding="utf-8",
    )
    panel = _panel(qtbot, compute("table", [f], {}), table)
    assert panel.current_form() == "bank"
    assert [(r["A"], r["B"]) for r in _kwic(panel)] == [("FIN", "FIN"), ("GEO", "FIN")]

"""The DURel pairs table tells "can't decide" from "not judged", with a legend saying which."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from iaa_desktop.gui.start_page import examples_dir
from tests.gui import user


def _open_with_ruth(qtbot, window, tmp_path):
    # a third target where Omar did not judge one pair and Sven could not decide another
    target = tmp_path / "(Ruth 1 16)"
    target.mkdir()
    (target / "uses.tsv").write_text(
        "lemma\tidentifier\tcontext\tindexes_target_token\tindexes_target_sentence\n"
        + "".join(
            f"whither\tw{k}\tWhither thou goest, I will go {k}.\t0:7\t0:30\n" for k in (1, 2, 3)
        ),
        encoding="utf-8",
    )
    (target / "judgments.tsv").write_text(
        "identifier1\tidentifier2\tannotator\tjudgment\tcomment\tlemma\n"
        "w1\tw2\tLea\t4\t\twhither\nw1\tw2\tSven\t0\t\twhither\nw1\tw2\tOmar\t3\t\twhither\n"
        "w1\tw3\tLea\t2\t\twhither\nw1\tw3\tSven\t2\t\twhither\n",
        encoding="utf-8",
    )
    study = next((examples_dir() / "durel").glob("*.iaa-study"))
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        window.open_inputs([*sorted((study.parent / "targets").iterdir()), target], "durel", {})


def test_cant_decide_and_not_judged_are_told_apart(qtbot, window, tmp_path):
    _open_with_ruth(qtbot, window, tmp_path)
    user.click_tab(qtbot, window, "Pairs")
    panel = window.tabs.currentWidget()
    model = panel.model
    user.type_filter(qtbot, panel.bar.filter, "w1")
    qtbot.waitUntil(lambda: model.rowCount() == 2)
    cells = {
        model.value(r, "pair"): (
            model.data(model.index(r, model.column_of("Sven"))),
            model.data(model.index(r, model.column_of("Omar"))),
        )
        for r in range(model.rowCount())
    }
    assert cells["w1 × w2"] == ("?", "3")  # Sven could not decide
    assert cells["w1 × w3"] == ("2", "")  # Omar did not judge it
    assert "? = can't decide" in panel.hint.text() and "empty = not judged" in panel.hint.text()
    # "can't decide" takes no colour of the scale; the judged values do
    assert model.colours.colour("?") is None
    assert model.colours.colour(np.float64(3.0)) is not None


def test_the_adjudication_queue_uses_the_same_glyphs_and_legend(qtbot, window, tmp_path):
    from PySide6.QtWidgets import QLabel

    _open_with_ruth(qtbot, window, tmp_path)
    window.study_path = tmp_path / "study.iaa.json"  # the store goes beside it
    user.activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)  # Adjudicate…
    qtbot.waitUntil(lambda: window.adjudication_window is not None)
    dlg = window.adjudication_window
    qtbot.addWidget(dlg)
    panel = dlg.panel
    user.choose(qtbot, panel.toolbar.filter_combo, "all")
    user.type_filter(qtbot, panel.toolbar.search_edit, "w1")
    model = panel.queue_model
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=5000)
    names = panel.session.display_names()
    column = {n: 3 + k for k, n in enumerate(names)}
    cells = {
        model.data(model.index(r, 1)).strip("\u2068\u2069"): (
            model.data(model.index(r, column["Sven"])),
            model.data(model.index(r, column["Omar"])),
        )
        for r in range(model.rowCount())
    }
    assert cells["w1 × w2"] == ("?", "3")  # Sven could not decide
    assert cells["w1 × w3"] == ("2", "")  # Omar did not judge it
    legends = [w.text() for w in panel.findChildren(QLabel) if "can't decide" in w.text()]
    assert legends and "? = can't decide · empty = not judged" in legends[0]
    # the unit's versions say the same: walk to the pair with the arrow keys
    row = next(r for r in range(model.rowCount()) if "w2" in model.data(model.index(r, 1)))
    user.click_row(qtbot, panel.queue_view, row, 1)
    choices = {c.label.partition(":")[0]: c.label for c in panel.session.choices(panel.current)}
    assert choices["Sven"].endswith(": ?") and choices["Omar"].startswith("Omar: 3")
    versions = panel.context_view.toPlainText().split("accept it:")[-1]
    assert "—" not in versions and "?" in versions
    dlg.close()

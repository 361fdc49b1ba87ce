"""The spans view: annotators one above the other, filters, N/P, right-to-left text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.gui.kinds.spans import create_panels, render_document
from iaa_desktop.gui.main_window import ViewContext
from iaa_desktop.gui.start_page import examples_dir
from tests.gui import user


def _panel(qtbot):
    root = examples_dir() / "spans"
    result = run_to_end(
        get_kind("spans").run([root / "Noa", root / "Omar", root / "Lena"], {"n_resamples": 50})
    )
    ctx = ViewContext()
    panel = create_panels(result, ctx)[0][1]
    qtbot.addWidget(panel)
    panel.resize(1280, 720)
    panel.show()
    return result, panel


def test_disagreements_filter_and_step(qtbot):
    result, panel = _panel(qtbot)
    n = panel.dis_model.rowCount()
    assert n == len(result.frames["disagreements"]) > 0
    user.choose(qtbot, panel.kind_combo, "label")
    assert set(panel.dis_model.frame["kind"]) == {"label"}
    user.choose_index(qtbot, panel.kind_combo, 0)
    user.choose(qtbot, panel.label_combo, result.labels.index("ORG"))
    assert all("ORG" in s for s in panel.dis_model.frame["labels"])
    user.choose_index(qtbot, panel.label_combo, 0)
    qtbot.keyClick(panel.dis_view, Qt.Key.Key_N)
    assert panel.dis_view.currentIndex().row() == 1
    qtbot.keyClick(panel.dis_view, Qt.Key.Key_P)
    assert panel.dis_view.currentIndex().row() == 0
    assert "of" in panel.position.text()


def test_right_to_left_documents_render_each_annotator(qtbot):
    result, panel = _panel(qtbot)
    d = result.corpus.names.index("haaretz")
    html = render_document(result, d)
    assert "dir='rtl'" in html
    for who in result.annotators:
        assert who in html
    assert "ירושלים" in html
    row = int((panel.doc_model.frame["document"] == "haaretz").to_numpy().nonzero()[0][0])
    user.click_row(qtbot, panel.doc_view, row)
    assert "haaretz" in panel.title.text()


def test_adjudication_shows_each_choice_of_the_current_unit_once(qtbot, tmp_path):
    """A unit with fewer choices than the one before shows no button of the one before."""
    from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore, units_for
    from iaa_desktop.gui.adjudication import AdjudicationPanel

    result, _ = _panel(qtbot)
    model = units_for(result)
    session = AdjudicationSession(model, AdjudicationStore.open(tmp_path / "s.sqlite"))
    panel = AdjudicationPanel(session)
    qtbot.addWidget(panel)
    panel.resize(1280, 720)
    panel.show()
    counts = [len(session.choices(i)) for i in range(len(model.keys))]
    many = max(range(len(counts)), key=counts.__getitem__)
    few = min(range(len(counts)), key=counts.__getitem__)
    assert counts[many] > counts[few]
    user.go_to_unit(qtbot, panel, many)
    user.go_to_unit(qtbot, panel, few)
    QApplication.processEvents()  # shows the new buttons; deleteLater waits for an event loop
    shown = [
        w.text() for w in panel.findChildren(QPushButton) if w.isVisible() and "  ·  " in w.text()
    ]
    assert len(shown) == counts[few] == len(set(shown))
    assert sum("drop" in t for t in shown) == 1
    session.store.close()


def test_figures_and_pairs_show_their_intervals_with_tooltips(qtbot):
    root = examples_dir() / "spans"
    result = run_to_end(
        get_kind("spans").run([root / "Noa", root / "Omar", root / "Lena"], {"n_resamples": 50})
    )
    tabs = dict(create_panels(result, ViewContext()))
    model = tabs["Figures"].model
    assert "explanation" not in model.columns()
    row = model.row_where("figure", "Unitizing α (αU)")
    fig = result.overall["unitizing_alpha"]
    assert fig["ci_low"] <= fig["value"] <= fig["ci_high"]
    assert model.value(row, "ci_low") == fig["ci_low"]
    tip = model.data(model.index(row, model.column_of("ci_low")), Qt.ItemDataRole.ToolTipRole)
    assert "unitizing" in tip and "bootstrap over documents" in tip and "50 resamples" in tip
    pairs = tabs["Tables"].models[0]
    c = pairs.column_of("exact_f1_macro")
    tip = pairs.data(pairs.index(0, c), Qt.ItemDataRole.ToolTipRole)
    lo = result.frames["pairs"]["exact_f1_macro_ci_low"].iloc[0]
    assert tip.startswith("95% bootstrap interval") and f"{lo:.3f}" in tip

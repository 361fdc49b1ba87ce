"""The table kind's Annotators tab, driven as a user: the verdict, the per-human test, and the
per-batch table following the coefficient chosen in its combo box."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt

from iaa_desktop.cli import compute
from iaa_desktop.gui.kinds.table import create_panels
from tests.gui import user


def _study(path):
    rng = np.random.default_rng(2)
    rows = []
    dates = pd.date_range("2024-03-04", periods=21, freq="D")
    for i in range(90):
        truth = "ABC"[rng.integers(0, 3)]
        for a, p in {"ann": 0.9, "bo": 0.8, "cy": 0.6, "gpt": 0.85}.items():
            p = p - 0.4 if i >= 60 else p
            lab = truth if rng.random() < p else "ABC"[rng.integers(0, 3)]
            rows.append((f"i{i:02d}", a, lab, dates[i // 5].strftime("%Y-%m-%d")))
    pd.DataFrame(rows, columns=["item", "annotator", "label", "date"]).to_csv(path, index=False)


@pytest.fixture
def panel(qtbot, tmp_path):
    path = tmp_path / "j.csv"
    _study(path)
    r = compute(
        "table",
        [path],
        {"model_annotators": "gpt", "batch_column": "date", "competence": True, "n_resamples": 200},
    )
    panels = dict(create_panels(r, SimpleNamespace(cache={}, session=None)))
    for w in panels.values():
        qtbot.addWidget(w)
    w = panels["Annotators"]
    w.resize(1000, 650)
    w.show()
    qtbot.waitExposed(w)
    return r, panels, w


def test_annotators_tab_shows_the_verdict_and_follows_the_chosen_coefficient(qtbot, panel):
    r, panels, w = panel
    (m,) = r.to_json()["model_annotators"]
    verdict = "passes" if m["passes"] else "does not pass"
    assert f"gpt</b> (model) {verdict}" in w.headline.text()
    assert f"ω = {m['winning_rate']:.2f}" in w.headline.text()
    # the model never sits among the humans of the overview's figures
    assert "gpt" not in r.annotators
    alt = w.tables.views["alt_test_gpt"].model()
    assert alt.rowCount() == len(m["per_human"]) == 3
    # choose Fleiss' κ for the per-batch table: its values follow
    per_batch = r.to_json()["per_batch"]
    user.choose(qtbot, w.batch_metric, "fleiss_kappa")
    qtbot.waitUntil(lambda: w.batch_metric.currentData() == "fleiss_kappa")
    view = w.tables.views["per_batch"]
    frame = view.model().frame
    expected = [b["overall"]["fleiss_kappa"]["value"] for b in per_batch]
    np.testing.assert_allclose(frame["value"].to_numpy(dtype=float), expected)
    # the chart under it draws the chosen coefficient
    from iaa_desktop.core.metrics.catalogue import title

    assert w.charts["per_batch"].figure.axes[0].get_xlabel() == title("fleiss_kappa")
    # the last, drifting week is flagged in the table and in the headline
    assert frame["below the study"].iloc[-1] == "yes"
    assert "lies below the study" in w.headline.text()
    # a click on a competence row selects it (the table is a normal list of the app)
    comp = w.tables.views["competence"]
    user.click_row(qtbot, comp, 1)
    assert comp.currentIndex().row() == 1


def test_no_tab_without_the_options(qtbot, tmp_path):
    path = tmp_path / "j.csv"
    _study(path)
    r = compute("table", [path], {"interval": "none"})
    names = [n for n, w in create_panels(r, SimpleNamespace(cache={}, session=None))]
    for _, w in create_panels(r, SimpleNamespace(cache={}, session=None)):
        qtbot.addWidget(w)
    assert "Annotators" not in names


def test_an_annotator_ticked_as_model_in_the_import_dialog(qtbot, window):
    from pathlib import Path

    from PySide6.QtCore import QPoint, Qt

    ratings = (
        Path(__file__).resolve().parents[2] / "iaa_desktop/resources/examples/judgments/ratings.csv"
    )
    dialog = window.open_selection([ratings])
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=120000)
    t = dialog.annotators
    assert not t.isColumnHidden(3)
    names = [t.item(r, 0).text() for r in range(t.rowCount())]
    row = names.index("Cem")
    rect = t.visualItemRect(t.item(row, 3))
    qtbot.mouseClick(
        t.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.left() + 12, rect.center().y())
    )
    assert t.item(row, 3).checkState() == Qt.CheckState.Checked
    assert dialog.models() == ["Cem"]
    with qtbot.waitSignal(window.session.results_ready, timeout=180000) as blocker:
        user.press(qtbot, dialog.open_button)
    result = blocker.args[0]
    assert window.session.study.options["model_annotators"] == "Cem"
    assert "Cem" not in result.annotators
    assert result.to_json()["model_annotators"][0]["name"] == "Cem"


def test_the_overview_marks_the_model_column_and_lists_its_disagreements_first(qtbot, panel):
    r, panels, _w = panel
    ov = panels["Overview"]
    ov.resize(1000, 650)
    ov.show()
    qtbot.waitExposed(ov)
    qtbot.waitUntil(lambda: ov.items_view.currentIndex().isValid(), timeout=3000)
    model = ov.items_model
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert "gpt (model)" in titles and "human majority" in titles
    flags = model.frame["model_disagrees"].to_numpy()
    assert flags[0] >= 1 and (np.diff(flags) <= 0).all()
    # the first item is one where the model's label is not the human majority's
    first = model.record(0)
    assert first["gpt (model)"] != first["human majority"]
    # the selected item's detail lists the model's label, marked, and the majority's
    detail = ov.detail.toPlainText()
    assert "gpt (model)" in detail and "human majority" in detail


def test_the_overview_says_how_batches_went_and_leads_to_their_chart(qtbot, window, tmp_path):
    from iaa_desktop.gui.kinds.table import AnnotatorsPanel, OverviewPanel

    path = tmp_path / "j.csv"
    _study(path)
    options = {"batch_column": "date", "n_resamples": 200}
    with qtbot.waitSignal(window.session.results_ready, timeout=180000) as blocker:
        window.open_inputs([path], "table", options)
    per_batch = blocker.args[0].to_json()["per_batch"]
    below = [b["batch"] for b in per_batch if b["below_study"]]
    user.click_tab(qtbot, window, "Overview")
    ov = window.tabs.currentWidget()
    assert isinstance(ov, OverviewPanel)
    line = ov.batches_label.text()
    assert f"Agreement over {len(per_batch)} batches" in line
    assert f"<b>{len(below)}</b> with an interval below the study's" in line and below[-1] in line
    user.press(qtbot, ov.batches_button)
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), AnnotatorsPanel))
    ann = window.tabs.currentWidget()
    qtbot.waitUntil(lambda: not ann.tables.views["per_batch"].visibleRegion().isEmpty())
    assert ann.charts["per_batch"].isVisible()


def test_no_batches_line_without_a_batch_column(qtbot, panel, tmp_path):
    path = tmp_path / "j.csv"
    _study(path)
    r = compute("table", [path], {"interval": "none"})
    panels = dict(create_panels(r, SimpleNamespace(cache={}, session=None)))
    for w in panels.values():
        qtbot.addWidget(w)
    assert panels["Overview"].batches_label.isHidden()
    assert panels["Overview"].batches_button.isHidden()

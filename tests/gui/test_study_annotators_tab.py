"""The Annotators tab of the DURel, multi-label, normalization and spans views, the model's
column in the DURel pairs list, and the import dialog's "model" box for these kinds — driven as
a user: the study opened, the tab clicked, tables chosen with a click and the arrow keys."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QPoint, Qt

from iaa_desktop.core.kinds.annotators.matrix import StudyAnnotators
from iaa_desktop.core.metrics.catalogue import title, tooltip
from iaa_desktop.gui.widgets.annotators import TABLE_TITLES, StudyAnnotatorsPanel
from tests.conftest import shared_path
from tests.gui import user

EXAMPLES = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples"
DUREL = sorted((EXAMPLES / "durel" / "targets").iterdir())
STUDIES = {
    "durel": (DUREL, "Sven"),
    "trotr": ((), "AndreaMariaC"),
    "multilabel": (
        [EXAMPLES / "multilabel/annotations.tsv", EXAMPLES / "multilabel/sentences.tsv"],
        "A3",
    ),
    "normalization": (sorted((EXAMPLES / "normalization").glob("*.tsv")), "annotator_Mira"),
    "spans": ([EXAMPLES / "spans" / n for n in ("Lena", "Noa", "Omar")], "Omar"),
}


def _open(qtbot, window, kind: str, options: dict):
    inputs, _model = STUDIES[kind]
    if kind == "trotr":  # the real TRoTR judgments: every human shares ≥ 30 pairs with the model
        inputs, kind = [shared_path("trotr")], "durel"
    with qtbot.waitSignal(window.session.results_ready, timeout=180000) as blocker:
        window.open_inputs(list(inputs), kind, options)
    return blocker.args[0]


def _annotators_tab(qtbot, window) -> StudyAnnotatorsPanel:
    user.click_tab(qtbot, window, "Annotators")
    panel = window.tabs.currentWidget()
    assert isinstance(panel, StudyAnnotatorsPanel)
    qtbot.waitExposed(panel)
    return panel


def _titles(panel) -> list[str]:
    return [panel.index.item(r).text() for r in range(panel.index.count())]


def _pick(qtbot, panel, name: str) -> None:
    """Click the first table in the list, then walk down to ``name`` with the arrow key."""
    names = [panel.index.item(r).data(Qt.ItemDataRole.UserRole) for r in range(panel.index.count())]
    user.click_row(qtbot, panel.index, names.index(name))
    qtbot.waitUntil(lambda: panel.current_table() == name)


def test_durel_annotators_tab_shows_the_verdict_tables_and_charts(qtbot, window):
    model = STUDIES["trotr"][1]
    result = _open(qtbot, window, "trotr", {"model_annotators": model, "planning": True})
    js = result.to_json()
    (m,) = js["model_annotators"]
    assert len(m["per_human"]) == 3  # shur, Nisha and iosakwe tested
    panel = _annotators_tab(qtbot, window)
    verdict = "passes" if m["passes"] else "does not pass"
    assert (
        f"<b>{model}</b> (model) {verdict} the alternative annotator test" in panel.headline.text()
    )
    assert f"ω = {m['winning_rate']:.2f}" in panel.headline.text()
    # every table of the figures, by title, the catalogue's explanation as the tooltip
    tables = result.annotator_figures.tables()
    assert _titles(panel) == [TABLE_TITLES[n] for n in TABLE_TITLES if n in tables]
    assert tooltip("winning_rate")[:40] in panel.index.item(0).toolTip()
    # the per-human test: one row per human tested, p-values as the core computed them
    _pick(qtbot, panel, "alt_test")
    frame = panel.model.frame
    assert list(frame["human"]) == [h["human"] for h in m["per_human"]]
    np.testing.assert_allclose(
        [float(p) for p in frame["p_value"]], [h["p_value"] for h in m["per_human"]], rtol=1e-2
    )
    # the model's agreement with the majority and each human, beside the humans' range
    _pick(qtbot, panel, "model_agreement")
    assert list(panel.model.frame["with"]) == [p["with"] for p in m["agreement"]]
    lo, _med, hi = m["human_kappa_range"]
    assert f"ranges from {lo:.2f} to {hi:.2f}" in panel.caption.text()
    ax = panel.chart.figure.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == [p["with"] for p in m["agreement"]]
    # the planning curve: one coefficient at a time in the table, every one in the chart
    qtbot.keyClick(panel.index, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: panel.current_table() == "planning")
    combo = panel.choices["metric"]
    assert combo.isVisible() and combo.currentData() == "krippendorff_alpha"
    user.choose(qtbot, combo, "fleiss_kappa")
    qtbot.waitUntil(
        lambda: set(panel.model.frame["n_items"]) and combo.currentData() == "fleiss_kappa"
    )
    curve = [c for c in js["planning"] if c["metric"] == "fleiss_kappa"]
    np.testing.assert_allclose(
        panel.model.frame["half_width"].to_numpy(dtype=float), [c["half_width"] for c in curve]
    )
    ax = panel.chart.figure.axes[0]
    assert ax.get_xlabel() == "doubly annotated items"
    assert {line.get_label() for line in ax.get_lines()} >= {title("fleiss_kappa")}
    needed = [n for n in js["planning_needed"] if n["metric"] == "krippendorff_alpha"][0]
    assert f"<b>{needed['n_items']:,}</b>" in panel.caption.text()


def test_a_table_the_core_adds_is_listed_without_change(qtbot, window, monkeypatch):
    """A table new to the view (here a test–retest table) is listed by its title and shown."""
    tables = StudyAnnotators.tables

    def with_retest(self):
        out = tables(self)
        out["retest"] = pd.DataFrame({"annotator": ["Lea"], "krippendorff_alpha": [0.5]})
        out["drift_by_hour"] = pd.DataFrame({"hour": [1, 2], "value": [0.1, 0.2]})
        out["per_batch"] = pd.DataFrame(
            {
                "batch": ["w1", "w2", "w1", "w2"],
                "metric": ["krippendorff_alpha"] * 2 + ["fleiss_kappa"] * 2,
                "value": [0.5, 0.2, 0.4, 0.1],
                "ci_low": [0.4, 0.1, 0.3, 0.0],
                "ci_high": [0.6, 0.3, 0.5, 0.2],
            }
        )
        return out

    monkeypatch.setattr(StudyAnnotators, "tables", with_retest)
    _open(qtbot, window, "durel", {"planning": True})
    panel = _annotators_tab(qtbot, window)
    assert "Planning: about" in panel.headline.text() and "(model)" not in panel.headline.text()
    assert _titles(panel) == [
        TABLE_TITLES["per_batch"],
        TABLE_TITLES["retest"],
        TABLE_TITLES["planning"],
        "Drift by hour",
    ]
    # a table of batches × coefficients: one coefficient at a time, charted batch by batch
    _pick(qtbot, panel, "per_batch")
    combo = panel.choices["metric"]
    assert combo.currentData() == "krippendorff_alpha"
    assert list(panel.model.frame["value"]) == [0.5, 0.2]
    user.choose(qtbot, combo, "fleiss_kappa")
    qtbot.waitUntil(lambda: list(panel.model.frame["value"]) == [0.4, 0.1])
    ax = panel.chart.figure.axes[0]
    assert ax.get_xlabel() == title("fleiss_kappa")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["w1", "w2"]
    _pick(qtbot, panel, "drift_by_hour")
    assert panel.model.rowCount() == 2
    assert panel.model.title_of("value")


def test_multilabel_annotators_tab_narrows_to_one_label(qtbot, window):
    model = STUDIES["multilabel"][1]
    result = _open(qtbot, window, "multilabel", {"model_annotators": model, "planning": True})
    js = result.to_json()
    panel = _annotators_tab(qtbot, window)
    tested = [m for m in js["model_annotators"] if m["per_human"]]
    passed = [m for m in tested if m["passes"]]
    expected = (
        f"passes the alternative annotator test on {len(passed)} of the {len(tested)} labels"
        if tested
        else "could not be tested on any label"
    )
    assert f"<b>{model}</b> (model) {expected}" in panel.headline.text()
    _pick(qtbot, panel, "model_agreement")
    combo = panel.choices["label"]
    labels = list(result.labels)
    assert combo.isVisible() and [combo.itemData(i) for i in range(combo.count())] == labels
    user.choose(qtbot, combo, labels[-1])
    qtbot.waitUntil(lambda: combo.currentData() == labels[-1])
    (mine,) = [m for m in js["model_annotators"] if m["label"] == labels[-1]]
    np.testing.assert_allclose(
        panel.model.frame["kappa"].to_numpy(dtype=float),
        [np.nan if p["kappa"] is None else p["kappa"] for p in mine["agreement"]],
    )


@pytest.mark.parametrize("kind", ["normalization", "spans"])
def test_token_kinds_show_the_annotators_tab_when_asked(qtbot, window, kind):
    model = STUDIES[kind][1]
    result = _open(qtbot, window, kind, {"model_annotators": model})
    (m,) = result.to_json()["model_annotators"]
    panel = _annotators_tab(qtbot, window)
    assert f"<b>{model}</b> (model)" in panel.headline.text()
    _pick(qtbot, panel, "alt_test")
    assert panel.model.rowCount() == len(m["per_human"])


def test_no_annotators_tab_unless_asked(qtbot, window):
    _open(qtbot, window, "durel", {})
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert "Pairs" in titles and "Annotators" not in titles


def test_durel_pairs_list_marks_the_model_and_lists_its_disagreements_first(qtbot, window):
    model = STUDIES["durel"][1]
    _open(qtbot, window, "durel", {"model_annotators": model})
    user.click_tab(qtbot, window, "Pairs")
    panel = window.tabs.currentWidget()
    m = panel.model
    titles = [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())]
    assert f"{model} (model)" in titles and "human majority" in titles
    assert model not in titles  # never among the humans
    flags = m.frame["model_disagrees"].to_numpy()
    assert flags[0] >= 1 and (np.diff(flags) <= 0).all()
    first = m.record(0)
    assert first[f"{model} (model)"] != first["human majority"]
    # the selected pair's judgments name the model as one
    qtbot.waitUntil(lambda: f"{model} (model)" in panel.judgments.toPlainText())


@pytest.mark.parametrize("kind", ["durel", "normalization"])
def test_an_annotator_ticked_as_model_in_the_import_dialog(qtbot, window, kind):
    inputs, model = STUDIES[kind]
    dialog = window.open_selection(
        list(inputs) if kind != "durel" else [EXAMPLES / "durel" / "targets"]
    )
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=120000)
    assert dialog.plan.kind == kind
    t = dialog.annotators
    assert not t.isColumnHidden(3)
    names = [t.item(r, 0).text() for r in range(t.rowCount())]
    row = names.index(model)
    rect = t.visualItemRect(t.item(row, 3))
    qtbot.mouseClick(
        t.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.left() + 12, rect.center().y())
    )
    assert t.item(row, 3).checkState() == Qt.CheckState.Checked
    with qtbot.waitSignal(window.session.results_ready, timeout=180000) as blocker:
        user.press(qtbot, dialog.open_button)
    result = blocker.args[0]
    assert window.session.study.options["model_annotators"] == model
    assert model not in result.annotators
    assert [m["name"] for m in result.to_json()["model_annotators"]] == [model]
    assert "Annotators" in [window.tabs.tabText(i) for i in range(window.tabs.count())]


def test_model_columns_compare_labels_as_well_as_judgments():
    from iaa_desktop.gui.kinds.pairs.pair_panel import with_model_columns

    table = pd.DataFrame(
        {
            "pair": ["a", "b", "c", "d"],
            "gpt": ["yes", "no", None, 3.0],
            "human majority": ["yes", "yes", "no", 4.0],
        }
    )
    out, marked = with_model_columns(table, ["gpt", "absent"])
    assert marked == ["gpt (model)", "human majority", "model_disagrees"]
    assert list(out["model_disagrees"]) == [0, 1, 0, 1]
    assert with_model_columns(table, []) == (table, [])


def test_candidate_pairs_where_the_humans_tie_have_no_majority_to_differ_from(qtbot, window):
    """Candidate labels are text and "" marks a pair whose humans tie: a model's label there
    differs from no majority."""
    ex = EXAMPLES / "candidates"
    with qtbot.waitSignal(window.session.results_ready, timeout=180000):
        window.open_inputs(
            [ex / "pairs.tsv", ex / "labels.tsv"], "candidates", {"model_annotators": "A3"}
        )
    user.click_tab(qtbot, window, "Pairs")
    m = window.tabs.currentWidget().model
    frame = m.frame
    tie = frame["human majority"].isna() | (frame["human majority"].astype(str) == "")
    assert tie.any() and (~tie).any()
    assert (frame.loc[tie, "model_disagrees"] == 0).all()
    assert (
        frame.loc[~tie, "model_disagrees"]
        == (
            frame.loc[~tie, "A3 (model)"].astype(str)
            != frame.loc[~tie, "human majority"].astype(str)
        )
    ).all()
    assert frame["model_disagrees"].iloc[0] == 1  # the disagreements first


def test_the_competence_line_names_the_most_and_least_competent():
    from iaa_desktop.gui.widgets.annotators import competence_line

    rows = [
        {"method": "dawid_skene", "annotator": "Lena", "competence": 0.894},
        {"method": "dawid_skene", "annotator": "Noa", "competence": 1.0},
        {"method": "mace", "annotator": "Omar", "competence": 0.2},
    ]
    line = competence_line({"competence": rows})
    assert "highest <b>Noa</b> 1.00" in line and "lowest <b>Lena</b> 0.89" in line
    per_label = [{**r, "label": lab} for r in rows for lab in ("a", "b")]
    assert "per label for 2 labels" in competence_line({"competence": per_label})
    assert competence_line({}) == ""


def test_multilabel_batches_and_retest_narrow_to_one_label(qtbot, window, tmp_path):
    """Agreement per batch and test–retest per label: the label and metric chosen in their
    drop-downs narrow the table and its chart; the headline counts the batches once."""
    from tests.core.test_multilabel_batches import _rows, _write_long

    path = _write_long(tmp_path / "plot.tsv", _rows())
    options = {"batch_column": "timestamp", "retest": True, "occasion_column": "round"}
    with qtbot.waitSignal(window.session.results_ready, timeout=180000) as blocker:
        window.open_inputs([path], "multilabel", options)
    js = blocker.args[0].to_json()
    panel = _annotators_tab(qtbot, window)
    assert "Agreement over 4 batches" in panel.headline.text()
    assert _titles(panel)[:3] == [
        TABLE_TITLES["per_batch"],
        TABLE_TITLES["per_batch_study"],
        TABLE_TITLES["retest"],
    ]
    _pick(qtbot, panel, "per_batch")
    labels, metrics = panel.choices["label"], panel.choices["metric"]
    assert labels.isVisible() and metrics.isVisible()
    assert [labels.itemData(i) for i in range(labels.count())] == js["labels"]
    assert metrics.currentData() == "krippendorff_alpha"
    user.choose(qtbot, labels, "Success")
    qtbot.waitUntil(lambda: labels.currentData() == "Success")
    mine = [b for b in js["per_batch"] if b["label"] == "Success"]
    shown = panel.model.frame
    assert list(shown["batch"]) == [b["batch"] for b in mine]
    np.testing.assert_allclose(
        shown["value"].to_numpy(dtype=float),
        [b["overall"]["krippendorff_alpha"]["value"] for b in mine],
    )
    qtbot.waitUntil(lambda: panel.chart is not None and panel.chart.isVisible())
    _pick(qtbot, panel, "retest")
    qtbot.waitUntil(lambda: labels.isVisible())
    assert labels.currentData() == "Success"  # the label chosen stays
    rows = [r for r in js["retest"] if r["label"] == "Success"]
    assert list(panel.model.frame["annotator"]) == [r["annotator"] for r in rows]
    np.testing.assert_allclose(
        panel.model.frame["value"].to_numpy(dtype=float),
        [r["krippendorff_alpha"]["value"] for r in rows],
    )


def test_the_batches_line_names_a_batch_without_figures():
    """A batch where no item was judged by two annotators has no figures and no table row: the
    headline counts the batches shown and names the one without."""
    from iaa_desktop.gui.widgets.annotators import batches_line

    alpha = {"krippendorff_alpha": {"value": 0.5, "ci_low": 0.3, "ci_high": 0.7}}
    batches = [
        {"batch": "week of 2024-03-04", "overall": alpha, "below_study": []},
        {"batch": "week of 2024-03-11", "overall": alpha, "below_study": ["krippendorff_alpha"]},
        {"batch": "week of 2024-03-25", "overall": {}, "below_study": []},
    ]
    line = batches_line({"per_batch": batches})
    assert line.startswith("Agreement over 2 batches (and 1 with no item judged by two")
    assert "week of 2024-03-25)" in line and "<b>1</b> with an interval below" in line

"""Model annotators and planning in a candidate-pairs study: the figures equal the table kind's on
the same judgments written as a table (an independent route: the table kind's reader and
coefficients, nominal level)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.candidates.compare import KIND as CANDIDATES
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.progress import run_to_end
from tests.conftest import shared_path

ANNOTATORS = ("ann1", "ann2", "ann3", "ann4", "llm")
LABELS = ("accept", "reject", "unsure")


def _judgments(seed=3, n=48):
    """Accept/reject/unsure labels of ``n`` candidate pairs, some left out (pair, annotator,
    label)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        truth = rng.choice(3, p=[0.45, 0.45, 0.1])
        for a, noise in zip(ANNOTATORS, (0.15, 0.25, 0.35, 0.2, 0.3), strict=True):
            if rng.random() < 0.1 and a != "llm":
                continue
            lab = truth if rng.random() > noise else rng.integers(0, 3)
            rows.append((f"P{i:03d}", a, LABELS[lab]))
    return rows


def _write_candidates(folder, rows, wide=False):
    folder.mkdir(parents=True)
    ids = sorted({p for p, _a, _l in rows})
    pairs = ["pair_id\tmethod\ttarget_text\tsource_text"]
    pairs += [
        f"{p}\t{'sw' if k % 2 else 'cos'}\tin principio erat verbum {k}\tin principio creavit {k}"
        for k, p in enumerate(ids)
    ]
    (folder / "pairs.tsv").write_text("\n".join(pairs) + "\n", encoding="utf-8")
    long = pd.DataFrame(rows, columns=["pair_id", "annotator", "label"])
    if wide:
        w = long.pivot(index="pair_id", columns="annotator", values="label").fillna("")
        w.reset_index().to_csv(folder / "labels_wide.csv", index=False)
        return [folder / "pairs.tsv", folder / "labels_wide.csv"]
    long.to_csv(folder / "labels.tsv", sep="\t", index=False)
    return [folder / "pairs.tsv", folder / "labels.tsv"]


def _write_table(path, rows):
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_csv(path, index=False)
    return path


def _both(tmp_path, rows, **options):
    cand = run_to_end(CANDIDATES.run(_write_candidates(tmp_path / "c", rows), options))
    table = run_to_end(
        TABLE.run([_write_table(tmp_path / "t.csv", rows)], {"level": "nominal", **options})
    )
    return cand.to_json(), table.to_json(), cand


def test_model_figures_equal_the_table_kinds(tmp_path):
    cj, tj, cand = _both(tmp_path, _judgments(), model_annotators="llm", epsilon=0.15)
    assert cand.annotators == ("ann1", "ann2", "ann3", "ann4")
    (cm,) = cj["model_annotators"]
    (tm,) = tj["model_annotators"]
    assert cm["score"] == tm["score"] == "accuracy" and cm["epsilon"] == 0.15
    assert cm["n_items"] == tm["n_items"] >= 30
    for key in ("winning_rate", "advantage_probability", "passes", "n_items", "q"):
        assert cm[key] == pytest.approx(tm[key], rel=1e-12), key
    by_name = {h["human"]: h for h in tm["per_human"]}
    assert {h["human"] for h in cm["per_human"]} == set(by_name) == set(cand.annotators)
    for h in cm["per_human"]:
        t = by_name[h["human"]]
        for key in ("n_items", "rho_model", "rho_human", "p_value", "p_adjusted", "model_beats"):
            assert h[key] == pytest.approx(t[key], rel=1e-12), (h["human"], key)
    t_pairs = {p["with"]: p for p in tm["agreement"]}
    assert [p["with"] for p in cm["agreement"]] == ["human majority", *cand.annotators]
    for p in cm["agreement"]:
        t = t_pairs[p["with"]]
        for key, v in p.items():
            if key != "with":
                assert v == pytest.approx(t[key], rel=1e-12, nan_ok=True), (p["with"], key)
    assert cm["human_kappa_range"] == pytest.approx(tm["human_kappa_range"], rel=1e-12)
    # the CSV tables of the model annotators
    tables = cand.tables()
    assert {"model_annotators", "alt_test", "model_agreement"} <= set(tables)
    assert list(tables["alt_test"]["human"]) == [h["human"] for h in cm["per_human"]]
    assert len(tables["model_agreement"]) == len(cm["agreement"])
    json.dumps(cj)


def test_the_model_is_not_a_human(tmp_path):
    """The study's multi-κ with the model marked is the multi-κ of the humans' labels alone."""
    rows = _judgments()
    with_model = run_to_end(
        CANDIDATES.run(_write_candidates(tmp_path / "a", rows), {"model_annotators": "llm"})
    ).to_json()
    humans = [r for r in rows if r[1] != "llm"]
    alone = run_to_end(CANDIDATES.run(_write_candidates(tmp_path / "b", humans), {})).to_json()
    assert with_model["overall"] == alone["overall"]
    assert with_model["pairwise"] == alone["pairwise"]
    assert with_model["annotators"] == alone["annotators"] == list(ANNOTATORS[:4])


def test_wide_labels_give_the_same_figures(tmp_path):
    rows = _judgments(seed=7)
    opts = {"model_annotators": "llm", "planning": True}
    long = run_to_end(CANDIDATES.run(_write_candidates(tmp_path / "l", rows), opts)).to_json()
    wide = run_to_end(
        CANDIDATES.run(_write_candidates(tmp_path / "w", rows, wide=True), opts)
    ).to_json()
    assert long["model_annotators"] == wide["model_annotators"]
    assert long["planning"] == wide["planning"]


def test_the_pair_list_shows_the_model_and_the_human_majority(tmp_path):
    rows = _judgments()
    cand = run_to_end(
        CANDIDATES.run(_write_candidates(tmp_path / "c", rows), {"model_annotators": "llm"})
    )
    pairs = cand.pair_table()
    llm = {p: lab for p, a, lab in rows if a == "llm"}
    assert list(pairs["llm"]) == [llm[p] for p in pairs["pair"]]
    # the majority of the humans' labels, none ("") when two labels tie
    for p, got in zip(pairs["pair"], pairs["human majority"], strict=True):
        counts = pd.Series([lab for q, a, lab in rows if q == p and a != "llm"]).value_counts()
        top = counts[counts == counts.max()]
        assert got == (top.index[0] if len(top) == 1 else ""), p


def test_planning_equals_the_table_kinds(tmp_path):
    cj, tj, _ = _both(tmp_path, _judgments(seed=5, n=40), planning=True)
    assert cj["planning"] and cj["planning"] == tj["planning"]
    assert cj["planning_needed"] == tj["planning_needed"]
    assert {c["metric"] for c in cj["planning"]} == {
        "krippendorff_alpha",
        "fleiss_kappa",
        "cohen_kappa_mean",
    }
    assert "model_annotators" not in cj


def test_without_the_options_nothing_is_added(tmp_path):
    j = run_to_end(CANDIDATES.run(_write_candidates(tmp_path / "c", _judgments()), {})).to_json()
    assert not {"model_annotators", "planning", "planning_needed"} & set(j)
    assert "llm" in j["annotators"]


def test_unknown_model_name_is_refused(tmp_path):
    inputs = _write_candidates(tmp_path / "c", _judgments())
    with pytest.raises(OptionError, match="'Zed' is not an annotator"):
        run_to_end(CANDIDATES.run(inputs, {"model_annotators": "Zed"}))
    with pytest.raises(OptionError, match="fewer than two human"):
        run_to_end(CANDIDATES.run(inputs, {"model_annotators": "ann1,ann2,ann3,llm"}))


def test_report_has_the_model_and_planning_sections(tmp_path):
    from iaa_desktop.core.export import report as R

    inputs = _write_candidates(tmp_path / "c", _judgments())
    res = run_to_end(CANDIDATES.run(inputs, {"model_annotators": "llm", "planning": True}))
    html = R.build_report(res, R.ReportContext(title="Annotators")).html
    for part in (
        "Model annotators",
        "<b>llm</b>",
        "Planning",
        "alternative annotator test (Calderon, Reichart &amp; Dror 2025)",
        "Benjamini, Y. &amp; Yekutieli, D. (2001)",
        "nominal category",
        "1/√n law",
    ):
        assert part in html, part
    plain = R.build_report(run_to_end(CANDIDATES.run(inputs, {})), R.ReportContext()).html
    assert "Model annotators" not in plain and "Calderon" not in plain


def test_the_shared_study_with_one_annotator_as_the_model():
    """The shared candidates study (600 pairs, three annotators) with A3 as the model: the same
    figures as the table kind reading its long labels, and the verdict ε decides."""
    folder = shared_path("candidates")
    labels = folder / "labels.tsv"
    table_opts = {"level": "nominal", "item": "pair_id", "model_annotators": "A3"}
    for eps, passes in ((0.2, True), (0.1, False)):
        cand = run_to_end(CANDIDATES.run([folder], {"model_annotators": "A3", "epsilon": eps}))
        table = run_to_end(TABLE.run([labels], {**table_opts, "epsilon": eps}))
        (cm,) = cand.to_json()["model_annotators"]
        (tm,) = table.to_json()["model_annotators"]
        assert cm["n_items"] == 600 and cm["passes"] is passes
        for key in ("winning_rate", "advantage_probability"):
            assert cm[key] == pytest.approx(tm[key], rel=1e-12), key
        for h, t in zip(cm["per_human"], tm["per_human"], strict=True):
            assert h["human"] == t["human"]
            for key in ("rho_model", "rho_human", "p_value", "p_adjusted"):
                assert h[key] == pytest.approx(t[key], rel=1e-12), (h["human"], key)
        for p, t in zip(cm["agreement"], tm["agreement"], strict=True):
            assert (p["with"], p["kappa"]) == (t["with"], pytest.approx(t["kappa"], rel=1e-12))
    # ρ: against either human, A3 is at least as well aligned on 493 of the 600 pairs
    assert cm["advantage_probability"] == pytest.approx(493 / 600, rel=1e-12)

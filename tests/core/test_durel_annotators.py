"""Model annotators and planning in a DURel study: the figures equal the table kind's on the same
judgments written as a table (an independent route: the table kind's reader and coefficients)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.durel.compare import KIND as DUREL
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.progress import run_to_end

ANNOTATORS = ("ann1", "ann2", "ann3", "ann4", "llm")


def _judgments(seed=3, n=48):
    """Graded judgments 1–4 of ``n`` use pairs, some left out (item, annotator, judgment)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        truth = rng.integers(1, 5)
        for a, noise in zip(ANNOTATORS, (0.5, 0.7, 1.0, 0.8, 0.6), strict=True):
            if rng.random() < 0.1 and a != "llm":
                continue
            v = int(np.clip(np.rint(truth + rng.normal(0, noise)), 1, 4))
            rows.append((i, a, v))
    return rows


def _write_durel(folder, rows):
    folder.mkdir(parents=True)
    lines = ["identifier1\tidentifier2\tannotator\tjudgment\tcomment\tlemma"]
    lines += [f"u{i}\tv{i}\t{a}\t{v}\t\tarm" for i, a, v in rows]
    (folder / "judgments.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "judgments.tsv"


def _write_table(path, rows):
    frame = pd.DataFrame(
        [(f"arm|u{i}|v{i}", a, v) for i, a, v in rows], columns=["item", "annotator", "label"]
    )
    frame.to_csv(path, index=False)
    return path


def _both(tmp_path, rows, **options):
    durel = run_to_end(DUREL.run([_write_durel(tmp_path / "arm", rows)], options))
    table = run_to_end(
        TABLE.run([_write_table(tmp_path / "t.csv", rows)], {"level": "ordinal", **options})
    )
    return durel.to_json(), table.to_json(), durel


def test_model_figures_equal_the_table_kinds(tmp_path):
    dj, tj, durel = _both(tmp_path, _judgments(), model_annotators="llm", epsilon=0.15)
    assert durel.annotators == ("ann1", "ann2", "ann3", "ann4")
    (dm,) = dj["model_annotators"]
    (tm,) = tj["model_annotators"]
    assert dm["score"] == "neg_rmse" and dm["epsilon"] == 0.15
    assert dm["n_items"] == tm["n_items"] >= 30
    for key in ("winning_rate", "advantage_probability", "passes", "n_items"):
        assert dm[key] == pytest.approx(tm[key], rel=1e-12), key
    by_name = {h["human"]: h for h in tm["per_human"]}
    assert {h["human"] for h in dm["per_human"]} == set(by_name)
    for h in dm["per_human"]:
        t = by_name[h["human"]]
        for key in ("n_items", "rho_model", "rho_human", "p_value", "p_adjusted", "model_beats"):
            assert h[key] == pytest.approx(t[key], rel=1e-12), (h["human"], key)
    t_pairs = {p["with"]: p for p in tm["agreement"]}
    assert [p["with"] for p in dm["agreement"]][0] == "human majority"
    for p in dm["agreement"]:
        t = t_pairs[p["with"]]
        for key, v in p.items():
            if key == "with":
                continue
            assert v == pytest.approx(t[key], rel=1e-12, nan_ok=True), (p["with"], key)
    assert dm["human_kappa_range"] == pytest.approx(tm["human_kappa_range"], rel=1e-12)
    # the model is not a human: the study's α is the humans' α
    assert dj["overall"]["all"]["krippendorff_alpha"] == pytest.approx(
        tj["overall"]["krippendorff_alpha"]["value"], rel=1e-12
    )
    # the pair view shows the model's judgments and the human majority
    pairs = durel.pair_table()
    assert "llm" in pairs and "human majority" in pairs
    tables = durel.tables()
    assert {"model_annotators", "alt_test", "model_agreement"} <= set(tables)
    json.dumps(dj)


def test_planning_equals_the_table_kinds(tmp_path):
    dj, tj, _ = _both(tmp_path, _judgments(seed=5, n=40), planning=True)
    assert dj["planning"] and dj["planning"] == tj["planning"]
    assert dj["planning_needed"] == tj["planning_needed"]
    assert {c["metric"] for c in dj["planning"]} >= {"krippendorff_alpha", "cohen_kappa_mean"}


def test_without_the_options_nothing_is_added(tmp_path):
    folder = _write_durel(tmp_path / "arm", _judgments())
    j = run_to_end(DUREL.run([folder], {})).to_json()
    assert not {"model_annotators", "planning", "planning_needed"} & set(j)
    assert "llm" in j["annotators"]


def test_unknown_model_name_is_refused(tmp_path):
    folder = _write_durel(tmp_path / "arm", _judgments())
    with pytest.raises(OptionError, match="'Zed' is not an annotator"):
        run_to_end(DUREL.run([folder], {"model_annotators": "Zed"}))
    with pytest.raises(OptionError, match="fewer than two human"):
        run_to_end(DUREL.run([folder], {"model_annotators": "ann1,ann2,ann3,ann4"}))


def test_report_has_the_model_and_planning_sections(tmp_path):
    from iaa_desktop.core.export import report as R

    folder = _write_durel(tmp_path / "arm", _judgments())
    res = run_to_end(DUREL.run([folder], {"model_annotators": "llm", "planning": True}))
    html = R.build_report(res, R.ReportContext(title="Annotators")).html
    for part in (
        "Model annotators",
        "<b>llm</b>",
        "Planning",
        "alternative annotator test (Calderon, Reichart &amp; Dror 2025)",
        "Benjamini, Y. &amp; Yekutieli, D. (2001)",
        "ordered categories",
        "1/√n law",
    ):
        assert part in html, part
    plain = R.build_report(run_to_end(DUREL.run([folder], {})), R.ReportContext()).html
    assert "Model annotators" not in plain and "Calderon" not in plain

"""Model annotators and planning in a normalization study (each token an item, its normalization
the label): the figures equal the table kind's on the same normalizations written as a judgment
table (an independent route: the table kind's reader and coefficients)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.normalization.compare import KIND as NORM
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.progress import run_to_end

# file names in sorted order: the resamples follow the order of the tally's rows
ANNOTATORS = ("a1", "a2", "a3", "a4", "bot")
FORMS = {
    "vnd": ("und", "unt"),
    "vber": ("über", "uber"),
    "jar": ("jahr", "jar"),
    "do": ("da", "do"),
}


def _tokens(seed=6, n=44):
    rng = np.random.default_rng(seed)
    origs = list(FORMS)
    rows = []  # (token, orig, {annotator: norm})
    for t in range(n):
        o = origs[rng.integers(0, len(origs))]
        good, other = FORMS[o]
        norms = {
            a: good if rng.random() > p else other
            for a, p in zip(ANNOTATORS, (0.1, 0.2, 0.3, 0.15, 0.12), strict=True)
        }
        rows.append((f"{t:03d}", o, norms))
    return rows


def _norm_folder(path, rows):
    path.mkdir()
    for a in ANNOTATORS:
        lines = ["text_id\ttoken_id\torig\tnorm"] + [f"T\t{t}\t{o}\t{ns[a]}" for t, o, ns in rows]
        (path / f"{a}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _table(tmp_path, rows, **options):
    frame = pd.DataFrame(
        [(f"T|{t}", a, ns[a]) for t, _o, ns in rows for a in ANNOTATORS],
        columns=["item", "annotator", "label"],
    )
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    return run_to_end(TABLE.run([path], {"level": "nominal", **options})).to_json()


def test_model_figures_equal_the_table_kinds(tmp_path):
    rows = _tokens()
    res = run_to_end(
        NORM.run([_norm_folder(tmp_path / "n", rows)], {"model_annotators": "bot", "epsilon": 0.1})
    )
    assert res.annotators == ANNOTATORS[:4]
    j = res.to_json()
    (m,) = j["model_annotators"]
    (t,) = _table(tmp_path, rows, model_annotators="bot", epsilon=0.1)["model_annotators"]
    assert m["score"] == t["score"] == "accuracy" and m["n_items"] == 44
    for key in ("winning_rate", "advantage_probability", "passes", "n_items", "epsilon"):
        assert m[key] == pytest.approx(t[key], rel=1e-12, nan_ok=True), key
    assert [h["human"] for h in m["per_human"]] == [h["human"] for h in t["per_human"]]
    for h, th in zip(m["per_human"], t["per_human"], strict=True):
        for key in ("n_items", "rho_model", "rho_human", "p_value", "p_adjusted", "model_beats"):
            assert h[key] == pytest.approx(th[key], rel=1e-12, nan_ok=True), key
    for p, tp in zip(m["agreement"], t["agreement"], strict=True):
        assert p["with"] == tp["with"]
        for key in p:
            if key != "with":
                assert p[key] == pytest.approx(tp[key], rel=1e-12, nan_ok=True), (p["with"], key)
    assert m["human_kappa_range"] == pytest.approx(t["human_kappa_range"], rel=1e-12)
    assert {"alt_test", "model_agreement"} <= set(res.tables())
    json.dumps(j)


def test_planning_equals_the_table_kinds(tmp_path):
    rows = _tokens(seed=9, n=30)
    j = run_to_end(NORM.run([_norm_folder(tmp_path / "n", rows)], {"planning": True})).to_json()
    t = _table(tmp_path, rows, planning=True)
    assert j["planning"] and j["planning"] == t["planning"]
    assert j["planning_needed"] == t["planning_needed"]


def test_without_the_options_nothing_is_added_and_unknown_models_are_refused(tmp_path):
    folder = _norm_folder(tmp_path / "n", _tokens())
    j = run_to_end(NORM.run([folder], {})).to_json()
    assert not {"model_annotators", "planning", "planning_needed"} & set(j)
    with pytest.raises(OptionError, match="'Zed' is not an annotator"):
        run_to_end(NORM.run([folder], {"model_annotators": "Zed"}))


def test_report_has_the_model_and_planning_sections(tmp_path):
    from iaa_desktop.core.export import report as R

    folder = _norm_folder(tmp_path / "n", _tokens())
    res = run_to_end(NORM.run([folder], {"model_annotators": "bot", "planning": True}))
    html = R.build_report(res, R.ReportContext(title="Annotators")).html
    for part in ("Model annotators", "<b>bot</b>", "Planning", "Calderon, Reichart &amp; Dror"):
        assert part in html, part
    plain = R.build_report(run_to_end(NORM.run([folder], {})), R.ReportContext()).html
    assert "Model annotators" not in plain and "Calderon" not in plain

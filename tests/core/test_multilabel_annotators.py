"""Model annotators and planning per label in a multi-label study: each label's figures equal the
table kind's on that label written as a 0/1 judgment table (an independent route: the table
kind's reader and coefficients)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.multilabel.compare import KIND as MULTI
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.progress import run_to_end

LABELS = ("Complication", "Resolution", "Success")
# named in sorted order: the planning curve's resamples follow the order of the tally's rows
ANNOTATORS = ("A1", "A2", "A3", "A4", "bot")


def _sets(seed=4, n=45):
    """(item, annotator, set of labels); each annotator sees most items."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        truth = rng.random(3) < (0.5, 0.3, 0.6)
        for a, flip in zip(ANNOTATORS, (0.1, 0.15, 0.25, 0.2, 0.12), strict=True):
            if a != "bot" and rng.random() < 0.08:
                continue
            got = truth ^ (rng.random(3) < flip)
            rows.append((f"i{i:02d}", a, {lab for lab, g in zip(LABELS, got, strict=True) if g}))
    return rows


def _write_multi(path, rows):
    lines = ["item\tannotator\tlabels"]
    lines += [f"{i}\t{a}\t{';'.join(lab for lab in LABELS if lab in s)}" for i, a, s in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _table(tmp_path, rows, label, **options):
    frame = pd.DataFrame(
        [(i, a, int(label in s)) for i, a, s in rows], columns=["item", "annotator", "present"]
    )
    path = tmp_path / f"{label}.csv"
    frame.to_csv(path, index=False)
    return run_to_end(TABLE.run([path], {"level": "nominal", **options})).to_json()


def _multi(tmp_path, rows, **options):
    path = _write_multi(tmp_path / "m.tsv", rows)
    return run_to_end(MULTI.run([path], {"labels": ",".join(LABELS), **options}))


def test_model_figures_per_label_equal_the_table_kinds(tmp_path):
    rows = _sets()
    res = _multi(tmp_path, rows, model_annotators="bot", epsilon=0.1)
    assert res.annotators == ("A1", "A2", "A3", "A4")
    j = res.to_json()
    assert [m["label"] for m in j["model_annotators"]] == list(LABELS)
    for m in j["model_annotators"]:
        (t,) = _table(tmp_path, rows, m["label"], model_annotators="bot", epsilon=0.1)[
            "model_annotators"
        ]
        assert m["score"] == t["score"] == "accuracy"
        for key in ("winning_rate", "advantage_probability", "passes", "n_items", "epsilon"):
            assert m[key] == pytest.approx(t[key], rel=1e-12, nan_ok=True), key
        by_name = {h["human"]: h for h in t["per_human"]}
        assert sorted(h["human"] for h in m["per_human"]) == sorted(by_name)
        for h in m["per_human"]:
            for key, v in h.items():
                if key == "human":
                    continue
                assert v == pytest.approx(by_name[h["human"]][key], rel=1e-12, nan_ok=True), key
        t_pairs = {p["with"]: p for p in t["agreement"]}
        for p in m["agreement"]:
            for key, v in p.items():
                if key != "with":
                    assert v == pytest.approx(t_pairs[p["with"]][key], rel=1e-12, nan_ok=True)
        assert m["human_kappa_range"] == pytest.approx(t["human_kappa_range"], rel=1e-12)
    tables = res.tables()
    assert set(tables["alt_test"]["label"]) == set(LABELS)
    json.dumps(j)


def test_planning_per_label_equals_the_table_kinds(tmp_path):
    rows = _sets(seed=8, n=30)
    j = _multi(tmp_path, rows, planning=True).to_json()
    for lab in LABELS:
        t = _table(tmp_path, rows, lab, planning=True)
        mine = [
            {k: v for k, v in c.items() if k != "label"} for c in j["planning"] if c["label"] == lab
        ]
        assert mine and mine == t["planning"]
        need = [
            {k: v for k, v in c.items() if k != "label"}
            for c in j["planning_needed"]
            if c["label"] == lab
        ]
        assert need == t["planning_needed"]


def test_without_the_options_nothing_is_added_and_unknown_models_are_refused(tmp_path):
    rows = _sets()
    j = _multi(tmp_path, rows).to_json()
    assert not {"model_annotators", "planning", "planning_needed"} & set(j)
    with pytest.raises(OptionError, match="'Zed' is not an annotator"):
        _multi(tmp_path, rows, model_annotators="Zed")


def test_report_has_per_label_sections(tmp_path):
    from iaa_desktop.core.export import report as R

    res = _multi(tmp_path, _sets(), model_annotators="bot", planning=True)
    html = R.build_report(res, R.ReportContext(title="Annotators")).html
    for lab in LABELS:
        assert f"Model annotators: {lab}" in html and f"Planning: {lab}" in html
    assert "alternative annotator test (Calderon, Reichart &amp; Dror 2025)" in html
    assert "Benjamini, Y. &amp; Yekutieli, D. (2001)" in html
    plain = R.build_report(_multi(tmp_path, _sets()), R.ReportContext()).html
    assert "Model annotators" not in plain and "Calderon" not in plain

"""Agreement per batch, test–retest agreement and planning curves in the table kind: each figure
equals the study's own functions run on the subset's rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.kinds.table.annotator_time import batch_labels
from iaa_desktop.core.kinds.table.compare import KIND
from iaa_desktop.core.metrics import krippendorff_alpha
from iaa_desktop.core.progress import run_to_end

CATS = "A,B,C"


def _rows(seed=2, n=90, drift=True):
    rng = np.random.default_rng(seed)
    rows = []
    dates = pd.date_range("2024-03-04", periods=21, freq="D")
    for i in range(n):
        truth = "ABC"[rng.integers(0, 3)]
        d = dates[i // 5].strftime("%Y-%m-%d")
        late = drift and i >= 60
        for a, p in {"ann": 0.9, "bo": 0.8, "cy": 0.6, "gpt": 0.85}.items():
            lab = truth if rng.random() < (p - 0.4 if late else p) else "ABC"[rng.integers(0, 3)]
            rows.append((f"i{i:02d}", a, lab, d, 1))
        if i % 2 == 0:
            lab = truth if rng.random() < 0.8 else "ABC"[rng.integers(0, 3)]
            rows.append((f"i{i:02d}", "ann", lab, d, 2))
    return pd.DataFrame(rows, columns=["item", "annotator", "label", "date", "session"])


def _run(path, **options):
    return run_to_end(KIND.run([path], {"categories": CATS, **options}))


def test_per_batch_equals_the_study_of_each_batch(tmp_path):
    frame = _rows()
    path = tmp_path / "j.csv"
    frame.to_csv(path, index=False)
    res = _run(path, batch_column="date", model_annotators="gpt")
    batches = res.to_json()["per_batch"]
    weeks = batch_labels(frame["date"], "")
    assert [b["batch"] for b in batches] == sorted(set(weeks))
    for b in batches:
        rows = frame[(weeks == b["batch"]).to_numpy() & (frame.annotator != "gpt").to_numpy()]
        sub = tmp_path / "sub.csv"
        rows.drop(columns=["date", "session"]).to_csv(sub, index=False)
        plain = _run(sub)
        assert b["n_judgments"] == len(rows)
        for k, v in plain.overall.items():
            assert b["overall"][k]["value"] == pytest.approx(v.value, nan_ok=True), k
            assert b["overall"][k]["ci_low"] == pytest.approx(v.ci_low, nan_ok=True), k
    # the drifting last week lies below the study
    assert "krippendorff_alpha" in batches[-1]["below_study"]
    assert "krippendorff_alpha" not in batches[0]["below_study"]
    assert "per_batch" in res.tables()


def test_batch_sizes():
    dates = pd.Series(["2024-03-04", "2024-03-10", "2024-03-11", "2024-04-02"])
    assert batch_labels(dates, "").tolist() == [
        "week of 2024-03-04",
        "week of 2024-03-04",
        "week of 2024-03-11",
        "week of 2024-04-01",
    ]
    assert batch_labels(dates, "month").tolist() == ["2024-03"] * 3 + ["2024-04"]
    assert batch_labels(dates, "7").tolist()[:3] == ["2024-03-04 (+7 d)"] * 2 + [
        "2024-03-11 (+7 d)"
    ]
    assert batch_labels(pd.Series(["1", "4", "5"]), "3").tolist() == ["0–3", "3–6", "3–6"]
    assert batch_labels(pd.Series(["x", "y"]), "").tolist() == ["x", "y"]


def test_retest_equals_the_occasions_as_annotators(tmp_path):
    frame = _rows()
    path = tmp_path / "j.csv"
    frame.to_csv(path, index=False)
    for options in ({"occasion_column": "session"}, {}):  # a column, or the order in the file
        res = _run(path, retest=True, **options)
        (r,) = res.to_json()["retest"]
        ann = frame[frame.annotator == "ann"].assign(annotator=lambda f: f.session.astype(str))
        sub = tmp_path / "ann.csv"
        ann.drop(columns=["date", "session"]).to_csv(sub, index=False)
        plain = _run(sub)
        assert r["annotator"] == "ann" and r["n_occasions"] == 2 and r["n_items"] == 45
        for k in ("krippendorff_alpha", "cohen_kappa_mean", "fleiss_kappa", "percent_agreement"):
            assert r[k]["value"] == pytest.approx(plain.overall[k].value), k
            assert r[k]["ci_high"] == pytest.approx(plain.overall[k].ci_high), k


def test_planning_curve(tmp_path):
    frame = _rows(n=100, drift=False)
    path = tmp_path / "j.csv"
    frame[frame.session == 1].to_csv(path, index=False)
    res = _run(path, planning=True, n_resamples=600)
    j = res.to_json()
    curve = [c for c in j["planning"] if c["metric"] == "krippendorff_alpha"]
    sizes = [c["n_items"] for c in curve]
    hw = np.array([c["half_width"] for c in curve])
    assert sizes[0] == 10 and sizes[-1] == 200
    assert hw[-1] < hw[0] / 3  # ≈ 1/√20 of the first
    # at the study's own size the half-width is the study's bootstrap interval's (Monte Carlo)
    at_100 = hw[sizes.index(100)]
    study = j["overall"]["krippendorff_alpha"]
    assert at_100 == pytest.approx((study["ci_high"] - study["ci_low"]) / 2, rel=0.15)
    # independently: resample 50 items with replacement and compute α on each resample
    codes = np.full((100, 4), -1)
    pos = {a: k for k, a in enumerate(["ann", "bo", "cy", "gpt"])}
    for row in frame[frame.session == 1].itertuples():
        codes[int(row.item[1:]), pos[row.annotator]] = "ABC".index(row.label)
    rng = np.random.default_rng(0)
    vals = [
        krippendorff_alpha(codes[rng.integers(0, 100, 50)], "nominal").value for _ in range(600)
    ]
    lo, hi = np.quantile(vals, [0.025, 0.975])
    assert hw[sizes.index(50)] == pytest.approx((hi - lo) / 2, rel=0.15)
    needed = {(n["metric"], n["half_width"]): n for n in j["planning_needed"]}
    assert (
        needed["krippendorff_alpha", 0.1]["n_items"] in sizes
        or needed["krippendorff_alpha", 0.1]["extrapolated"]
    )


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 1000))
def test_one_batch_is_the_study(tmp_path_factory, seed):
    frame = _rows(seed=seed, n=30).assign(date="2024-05-06")
    frame = frame[frame.session == 1]
    path = tmp_path_factory.mktemp("b") / "j.csv"
    frame.to_csv(path, index=False)
    res = _run(path, batch_column="date", n_resamples=200)
    (b,) = res.to_json()["per_batch"]
    for k, v in res.overall.items():
        assert b["overall"][k]["value"] == pytest.approx(v.value, nan_ok=True)
        assert b["overall"][k]["ci_low"] == pytest.approx(v.ci_low, nan_ok=True)
    assert b["below_study"] == []


def test_report_has_a_section_and_a_methods_paragraph_per_question(tmp_path):
    from iaa_desktop.core.export import report as R

    path = tmp_path / "j.csv"
    _rows().to_csv(path, index=False)
    res = _run(
        path,
        batch_column="date",
        retest=True,
        occasion_column="session",
        planning=True,
        model_annotators="gpt",
        competence=True,
        n_resamples=200,
    )
    html = R.build_report(res, R.ReportContext(title="Annotators")).html
    for part in (
        "Model annotators",
        "gpt</b> passes",
        "Annotator competence",
        "Agreement over batches",
        "below the study",
        "Test–retest agreement",
        "Planning",
        "alternative annotator test (Calderon, Reichart &amp; Dror 2025)",
        "Dawid, A. P. &amp; Skene, A. M. (1979)",
        "Hovy, D., Berg-Kirkpatrick",
        "Benjamini, Y. &amp; Yekutieli, D. (2001)",
        "first occasion",
    ):
        assert part in html, part
    # the inter-annotator figures use each annotator's first occasion: no repeat is an error
    assert not [e for e in res.errors if "twice" in str(e)]
    tables = res.tables()
    for name in ("alt_test", "model_agreement", "competence", "inferred", "per_batch", "retest"):
        assert name in tables and len(tables[name]), name


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 1000))
def test_retest_does_not_depend_on_the_occasions_names(tmp_path_factory, seed):
    frame = _rows(seed=seed, n=40)
    d = tmp_path_factory.mktemp("r")
    a, b = d / "a.csv", d / "b.csv"
    frame.to_csv(a, index=False)
    frame.assign(session=frame.session.map({1: "later", 2: "earlier"})).to_csv(b, index=False)
    ra = _run(a, retest=True, occasion_column="session", n_resamples=200).to_json()["retest"]
    rb = _run(b, retest=True, occasion_column="session", n_resamples=200).to_json()["retest"]
    (x,), (y,) = ra, rb
    for k in ("krippendorff_alpha", "cohen_kappa_mean", "fleiss_kappa", "percent_agreement"):
        assert x[k]["value"] == pytest.approx(y[k]["value"]), k
    assert 0.0 <= x["percent_agreement"]["value"] <= 1.0

"""The durel kind: TRoTR per-target figures (seed 002), the filter, PhiTag input, bad input."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.kinds.durel.compare import KIND
from iaa_desktop.core.kinds.durel.measures import (
    grouped_alpha,
    grouped_spearman_weighted,
    item_statistics,
)
from iaa_desktop.core.kinds.durel.options import DurelOptions
from iaa_desktop.core.metrics import encode_numeric, krippendorff_alpha, spearman_weighted
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, shared_path

DUREL = FIXTURES / "durel"
DEFAULTS = DurelOptions(
    filter_range=2.0, filter_mean_low=2.0, filter_mean_high=3.0, label_threshold=2.5
)


def run(inputs, **options):
    return run_to_end(KIND.run([Path(p) for p in inputs], options))


@pytest.fixture(scope="module")
def trotr():
    return run([shared_path("trotr")])


def test_trotr_every_target_equals_published(trotr):
    exp = pd.read_csv(shared_path("trotr", "expected_per_target.csv"))
    got = {t["target"]: t for t in trotr.targets}
    assert set(got) == set(exp["target"])
    for e in exp.itertuples(index=False):
        a, f = got[e.target]["all"], got[e.target]["filtered"]
        assert a["n_annotators"] == e.n_annotators
        assert a["n_judgments"] == e.n_judgments_all
        assert a["n_cant_decide"] == e.n_cant_decide_all
        assert a["n_items"] == e.n_pairs_all
        assert f["n_items"] == e.n_pairs_filtered
        assert (f["n_label0"], f["n_label1"]) == (e.n_label0_filtered, e.n_label1_filtered)
        assert a["krippendorff_alpha"] == pytest.approx(e.alpha_ordinal_all, abs=5e-4)
        assert f["krippendorff_alpha"] == pytest.approx(e.alpha_ordinal_filtered, abs=5e-4)
        assert a["spearman_weighted"] == pytest.approx(e.spearman_all, abs=5e-4)
        assert f["spearman_weighted"] == pytest.approx(e.spearman_filtered, abs=5e-4)


def test_trotr_pooled_figures_are_reported(trotr):
    # pooled over the ten targets (computed on all items together, not averaged)
    a, f = trotr.overall["all"], trotr.overall["filtered"]
    assert a["n_items"] == 1500 and f["n_items"] == 956
    assert (f["n_label0"], f["n_label1"]) == (736, 220)
    assert a["krippendorff_alpha"] == pytest.approx(0.4473, abs=1e-4)
    assert a["spearman_weighted"] == pytest.approx(0.5358, abs=1e-4)
    assert f["krippendorff_alpha"] == pytest.approx(0.6005, abs=1e-4)
    assert f["spearman_weighted"] == pytest.approx(0.7309, abs=1e-4)


def test_trotr_alpha_cross_checked_with_krippendorff_library(trotr):
    krippendorff = pytest.importorskip("krippendorff")
    annotators = list(trotr.annotators)
    for target in ("(Genesis 1 1)", "(1 Timothy 2 12)"):
        rows = trotr.items[trotr.items["target"] == target]
        data = rows[annotators].to_numpy(dtype=float).T
        ref = krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal")
        mine = next(t for t in trotr.targets if t["target"] == target)["all"]["krippendorff_alpha"]
        assert mine == pytest.approx(ref, abs=1e-9)


def test_trotr_ranking_annotators_and_json(trotr):
    rank = trotr.topic_ranking
    assert list(rank["rank"]) == list(range(1, 11))
    assert rank["mean_judgment"].is_monotonic_increasing
    assert set(trotr.annotator_table["annotator"]) == set(trotr.annotators)
    assert trotr.annotator_table["spearman_vs_others_all"].between(-1, 1).all()
    data = json.loads(json.dumps(trotr.to_json()))
    assert set(data["overall"]["all"]) >= {"n_items", "krippendorff_alpha", "spearman_weighted"}
    assert set(data["overall"]["filtered"]) >= {
        "n_items",
        "krippendorff_alpha",
        "spearman_weighted",
        "n_label0",
        "n_label1",
    }
    assert {"target", "all", "filtered"} <= set(data["targets"][0])
    assert set(trotr.tables()) >= {"overall", "targets", "items", "annotators", "topic_ranking"}
    # spans that paraphrase the quotation are warned about, never an error
    assert any("shown as given" in w.message for w in trotr.warnings)
    assert not trotr.errors


def test_filter_boundaries():
    v = np.array(
        [
            [2, 2, 2],  # mean exactly 2: stays, label 0
            [3, 3, np.nan],  # mean exactly 3: stays, label 1
            [2, 3, 3],  # mean 2.67: dropped
            [1, 3, np.nan],  # range 2: dropped
            [np.nan, np.nan, np.nan],  # nothing valid: dropped
            [4, np.nan, np.nan],  # one judgment: range 0, kept
            [2, 3, np.nan],  # mean 2.5 (between 2 and 3): dropped
        ],
        dtype=float,
    )
    s = item_statistics(v, DEFAULTS)
    assert s["kept"].tolist() == [True, True, False, False, False, True, False]
    assert s["label"][[0, 1, 5]].tolist() == [0.0, 1.0, 1.0]
    relaxed = item_statistics(v, replace(DEFAULTS, filter_range=3.0, filter_mean_low=9.0))
    assert relaxed["kept"].tolist() == [True, True, True, True, False, True, True]


def test_phitag_export_gives_the_same_figures():
    durel = run([DUREL / "study"])
    phitag = run([DUREL / "phitag"])
    for part in ("all", "filtered"):
        for key in ("n_items", "krippendorff_alpha", "spearman_weighted", "n_cant_decide"):
            assert durel.overall[part][key] == pytest.approx(phitag.overall[part][key], nan_ok=True)
    assert durel.overall["all"]["n_cant_decide"] == 2
    # a single target folder and its judgments file are inputs too
    one = run([DUREL / "study" / "(Love 1 1)"])
    assert [t["target"] for t in one.targets] == ["(Love 1 1)"]
    same = run([DUREL / "study" / "(Love 1 1)" / "judgments.tsv"])
    assert same.overall == one.overall


def test_levels_are_selectable():
    ordinal = run([DUREL / "study"])
    interval = run([DUREL / "study"], level="interval")
    nominal = run([DUREL / "study"], level="nominal")
    values = {
        ordinal.overall["all"]["krippendorff_alpha"],
        interval.overall["all"]["krippendorff_alpha"],
        nominal.overall["all"]["krippendorff_alpha"],
    }
    assert len(values) == 3


def test_pair_detail_emoji_offsets_and_judgments():
    r = run([DUREL / "study"])
    i = int(np.flatnonzero((r.items["id1"] == "u1") & (r.items["id2"] == "u2"))[0])
    d = r.pair_detail(i)
    assert d.text_a[d.span_a[0] : d.span_a[1]] == "Love is patient"
    assert d.text_b[d.span_b[0] : d.span_b[1]] == "love is patient"
    assert not d.span_warnings
    assert {"love", "is", "patient"} <= d.shared
    assert d.alignment.n_matches >= 3
    assert [j[0] for j in d.judgments] == ["ann1", "ann2", "ann3"]
    assert math.isfinite(r.items.loc[i, "overlap"])
    cant = r.pair_detail(
        int(np.flatnonzero((r.items["id1"] == "u1") & (r.items["id2"] == "u3"))[0])
    )
    assert len(cant.judgments) == 2


def test_bad_input_is_reported_and_the_rest_computed():
    r = run([DUREL / "bad"])
    messages = " | ".join(str(e) for e in r.errors)
    assert "lies outside its text" in messages  # offsets outside the text
    assert "'b9' is not in uses.tsv" in messages  # use missing from uses.tsv
    assert "outside the scale" in messages  # judgment 7.0
    # same annotator, same pair, two values: the median (2.5) is off the scale → missing
    assert any("the median of the non-zero judgments (2.5)" in w.message for w in r.warnings)
    assert any("does not match" in w.message or "not the quoted" in w.message for w in r.warnings)
    assert any("counted once" in w.message for w in r.warnings)
    assert r.overall["all"]["n_items"] == 6
    assert math.isfinite(r.overall["all"]["krippendorff_alpha"])
    # the use with a bad span is shown without one
    i = int(np.flatnonzero((r.items["id1"] == "b1") & (r.items["id2"] == "b3"))[0])
    assert r.pair_detail(i).span_b is None


def test_detected_and_registered():
    assert detect_kind([DUREL / "study"]) == "durel"
    assert get_kind("durel").kind is KIND
    assert KIND.sniff([FIXTURES / "candidates"]) == 0.0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["ordinal", "interval", "nominal"]))
def test_grouped_figures_equal_the_metrics_per_group(seed, level):
    """The vectorised per-target α and Spearman equal the lead's metrics on each target."""
    rng = np.random.default_rng(seed)
    n, c, g = int(rng.integers(2, 60)), int(rng.integers(2, 5)), int(rng.integers(1, 5))
    values = rng.integers(1, 5, size=(n, c)).astype(float)
    judged = rng.random((n, c)) < 0.8
    values[~judged] = np.nan
    values[judged & (rng.random((n, c)) < 0.05)] = np.nan  # can't decide
    groups = rng.integers(0, g, n)
    alpha = grouped_alpha(values, groups, g, level)
    rho = grouped_spearman_weighted(values, judged, groups, g)
    for k in range(g):
        m = groups == k
        codes, cats = encode_numeric(values[m])
        ref_a = (
            krippendorff_alpha(codes, level, cats).value
            if ((codes >= 0).sum(axis=1) >= 2).any()
            else math.nan
        )
        ref_r = spearman_weighted(values[m], judged[m]).value if m.any() else math.nan
        assert alpha[k] == pytest.approx(ref_a, abs=1e-9, nan_ok=True)
        assert rho[k] == pytest.approx(ref_r, abs=1e-9, nan_ok=True)

"""The candidates kind: overlap, multi-κ per factor level and overlap bin with Bayesian intervals
(seed 000; METHODS.md §1, §5), and a calibration check of the Bayesian interval."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.kinds import detect_kind
from iaa_desktop.core.kinds.candidates.compare import KIND, overlap_bins
from iaa_desktop.core.metrics import bayes_multi_kappa, multi_kappa
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, shared_path

CAND = FIXTURES / "candidates"


def run(inputs, **options):
    options.setdefault("bayes_draws", 1000)
    return run_to_end(KIND.run([Path(p) for p in inputs], options))


@pytest.fixture(scope="module")
def real():
    return run([shared_path("candidates")])


def test_overlap_equals_published_column(real):
    given = pd.read_csv(shared_path("candidates", "pairs.tsv"), sep="\t")
    assert (real.pairs["overlap"].round(4).to_numpy() == given["overlap"].to_numpy()).all()
    assert [p["overlap"] for p in real.to_json()["pairs"]][:3] == pytest.approx(
        given["overlap"][:3], abs=5e-5
    )


def test_published_agreement_by_overlap_quintile(real):
    # README "Measured on the committed files": pairwise agreement per quintile and bin bounds
    assert [round(b["percent_agreement"], 3) for b in real.by_overlap_bin] == [
        0.748,
        0.711,
        0.650,
        0.729,
        0.794,
    ]
    assert [round(e, 3) for e in real.overlap_edges] == [0.059, 0.111, 0.211, 0.336]
    assert real.overall["multi_kappa"]["observed"] == pytest.approx(0.727, abs=5e-4)


def test_multi_kappa_per_method_with_intervals(real):
    levels = {lv["level"]: lv for lv in real.by_factor["method"]}
    assert set(levels) == {"smith-waterman", "soft-cosine"}
    for lv in levels.values():
        k = lv["multi_kappa"]
        assert lv["n_items"] == 300
        assert (
            k["bayes_95"][0]
            < k["bayes_89"][0]
            < k["bayes_median"]
            < k["bayes_89"][1]
            < k["bayes_95"][1]
        )
        assert (k["ci_low"], k["ci_high"]) == tuple(k["bayes_95"])
    assert len(real.by_factor["book"]) == 50
    assert {"known", "method", "book"} <= set(real.by_factor)
    k = real.overall["multi_kappa"]
    assert k["value"] == pytest.approx(
        multi_kappa(np.array(real.pairs[list(real.annotators)].astype(int))).value
    )
    data = json.loads(json.dumps(real.to_json()))
    assert {"value", "ci_low", "ci_high", "bayes_median", "bayes_89", "bayes_95"} <= set(
        data["overall"]["multi_kappa"]
    )
    assert {"level", "n_items", "multi_kappa"} <= set(data["by_factor"]["method"][0])
    assert len(data["pairs"]) == 600


def test_long_and_wide_labels_agree_and_folder_input():
    long = run([CAND / "pairs.tsv", CAND / "labels.tsv"])
    wide = run([CAND / "labels_wide.csv", CAND / "pairs.tsv"])
    folder = run([CAND])
    for r in (wide, folder):
        assert r.overall["multi_kappa"]["value"] == pytest.approx(
            long.overall["multi_kappa"]["value"]
        )
        assert r.factors == long.factors
    assert long.factors == ["method", "known"]
    # lemmas are used where given: P03 shares 'dominus', 'ego' (×2), 'nihil', 'desum' by lemma
    p03 = long.pairs.set_index("pair_id").loc["P03", "overlap"]
    assert p03 == pytest.approx(5 / 8)
    assert detect_kind([CAND]) == "candidates"


def test_factor_with_one_level_and_bad_labels():
    r = run([CAND / "labels_bad.tsv", CAND / "pairs.tsv"], factors="method,corpus")
    messages = " | ".join(str(e) for e in r.errors)
    assert "only one level" in messages
    assert "P99" in messages
    assert "twice with different labels" in messages
    assert r.factors == ["method"]
    assert math.isfinite(r.overall["multi_kappa"]["value"])
    assert r.pairs.set_index("pair_id").loc["P03", "A1"] == ""


def test_overlap_bins_boundary_goes_up():
    x = np.array([0.1, 0.2, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
    bins, edges = overlap_bins(x, 5)
    assert edges.tolist() == pytest.approx(np.quantile(x, [0.2, 0.4, 0.6, 0.8]).tolist())
    for v, b in zip(x, bins):
        assert b == int(np.searchsorted(edges, v, side="right"))
    on_edge = np.flatnonzero(np.isin(x, edges))
    assert all(bins[i] == list(edges).index(x[i]) + 1 for i in on_edge)


def test_bayesian_interval_covers_the_true_kappa():
    """Labels drawn from known pairwise-outcome probabilities θ (two annotators, so the true
    κ = (Σθ_kk − Σ_k θ_k· θ_·k) / (1 − Σ_k θ_k· θ_·k) is known): over 200 simulated studies the
    95% posterior interval must cover it in 90–99% of them."""
    rng = np.random.default_rng(2024)
    theta = np.array([[0.45, 0.10], [0.15, 0.30]])
    a_o = np.trace(theta)
    a_e = theta.sum(axis=1) @ theta.sum(axis=0)
    true_kappa = (a_o - a_e) / (1 - a_e)
    covered = 0
    for study in range(200):
        outcome = rng.choice(4, size=300, p=theta.ravel())
        codes = np.stack([outcome // 2, outcome % 2], axis=1)
        b = bayes_multi_kappa(codes, n_draws=1000, seed=study)
        covered += b["low95"] <= true_kappa <= b["high95"]
    assert 0.90 <= covered / 200 <= 0.99

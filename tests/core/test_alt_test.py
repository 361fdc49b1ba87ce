"""The alternative annotator test (Calderon, Reichart & Dror 2025) and its use in the table kind.

Figures are checked against a worked example by hand, against an independent naive computation
(dictionaries, SciPy's ``ttest_1samp``, statsmodels' ``multipletests(method="fdr_by")``), and by
invariants. The authors' reference program was run on the data it ships (outside the test suite):
all 52 printed verdicts, winning rates and advantage probabilities and 354 per-human p-values
(to 1e-16) agree.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.metrics.alt_test import alt_test, by_adjusted, one_sided_t

scipy_stats = pytest.importorskip("scipy.stats")
multitest = pytest.importorskip("statsmodels.stats.multitest")


def naive_alt_test(model, humans, score, eps, q=0.05):
    """The procedure written again from the paper, item by item over dictionaries."""
    h_of = {}
    for i in range(len(model)):
        h_of[i] = [j for j in range(humans.shape[1]) if not math.isnan(humans[i, j])]
    items = [i for i in h_of if len(h_of[i]) >= 2 and not math.isnan(model[i])]

    def s(pred, anns):
        if score == "accuracy":
            return sum(pred == a for a in anns) / len(anns)
        return -math.sqrt(sum((pred - a) ** 2 for a in anns) / len(anns))

    ps, rhos, who = [], [], []
    for j in range(humans.shape[1]):
        mine = [i for i in items if j in h_of[i]]
        if len(mine) < 30:
            continue
        d, wf = [], []
        for i in mine:
            rest = [humans[i, k] for k in h_of[i] if k != j]
            sh, sf = s(humans[i, j], rest), s(model[i], rest)
            wf.append(1 if sf >= sh else 0)
            d.append((1 if sh >= sf else 0) - wf[-1])
        ps.append(scipy_stats.ttest_1samp(d, eps, alternative="less").pvalue)
        rhos.append(np.mean(wf))
        who.append(j)
    rej, padj, _, _ = multitest.multipletests(ps, alpha=q, method="fdr_by")
    return who, ps, list(padj), list(rej), float(np.mean(rhos)), float(np.mean(rej))


def _study(rng, n=60, h=4, q=3, p_same=0.7, model_p=0.8):
    truth = rng.integers(0, q, n)
    hum = np.where(rng.random((n, h)) < p_same, truth[:, None], rng.integers(0, q, (n, h)))
    hum = hum.astype(float)
    hum[rng.random((n, h)) < 0.15] = np.nan
    model = np.where(rng.random(n) < model_p, truth, rng.integers(0, q, n)).astype(float)
    return model, hum


def test_worked_example_by_hand():
    # 30 items, two humans: A always the model's label, B differs on 10 items; the model is
    # compared with B (only other human: A) and A with B.
    model = np.zeros(30)
    a = np.zeros(30)
    b = np.zeros(30)
    b[:10] = 1.0
    r = alt_test(model, np.stack([a, b], 1), epsilon=0.2)
    # human A vs model, other = B: both score equally on every item: d = 0 everywhere, s = 0,
    # mean 0 < 0.2: p = 0; human B vs model, other = A: the model wins 10 items alone, ties on
    # 20: d = -1 on 10 items, 0 on 20: mean -1/3, s = sqrt(30/29 · (1/3)(2/3)) ...
    d = np.array([-1.0] * 10 + [0.0] * 20)
    t = (d.mean() - 0.2) / (d.std(ddof=1) / math.sqrt(30))
    assert r.per_human[0].p_value == 0.0
    assert r.per_human[1].p_value == pytest.approx(scipy_stats.t.cdf(t, 29), abs=1e-15)
    assert r.per_human[1].rho_model == 1.0 and r.per_human[1].rho_human == pytest.approx(2 / 3)
    # BY with m = 2, c(2) = 1.5: p_(1) = 0 rejected; p_(2) ≈ 1e-7 ≤ 2/2 · 0.05/1.5
    assert r.winning_rate == 1.0 and r.passes
    assert r.advantage_probability == 1.0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("score", ["accuracy", "neg_rmse"])
def test_equals_independent_computation(seed, score):
    rng = np.random.default_rng(seed)
    model, hum = _study(rng, n=70, h=5)
    eps = [0.1, 0.15, 0.2][seed % 3]
    r = alt_test(model, hum, score, eps)
    who, ps, padj, rej, rho, omega = naive_alt_test(model, hum, score, eps)
    assert [x.human for x in r.per_human] == who
    np.testing.assert_allclose([x.p_value for x in r.per_human], ps, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose([x.p_adjusted for x in r.per_human], padj, rtol=1e-12)
    assert [x.model_beats for x in r.per_human] == rej
    assert r.advantage_probability == pytest.approx(rho)
    assert r.winning_rate == pytest.approx(omega)


def test_by_adjusted_equals_statsmodels():
    rng = np.random.default_rng(3)
    for m in (1, 2, 5, 13):
        p = rng.random(m) ** 3
        expected = multitest.multipletests(p, method="fdr_by")[1]
        np.testing.assert_allclose(by_adjusted(p), expected, rtol=1e-12)


def test_one_sided_t_equals_scipy():
    rng = np.random.default_rng(5)
    for _ in range(20):
        d = rng.integers(-1, 2, 40).astype(float)
        assert one_sided_t(d, 0.1) == pytest.approx(
            scipy_stats.ttest_1samp(d, 0.1, alternative="less").pvalue, rel=1e-12
        )


def test_humans_with_few_items_are_not_tested():
    rng = np.random.default_rng(1)
    model, hum = _study(rng, n=80, h=3)
    hum[:, :2] = np.where(np.isnan(hum[:, :2]), 0.0, hum[:, :2])
    hum[10:, 2] = np.nan  # the third human shares at most 10 items
    r = alt_test(model, hum)
    assert [x.human for x in r.per_human] == [0, 1]
    assert 2 in r.skipped and r.skipped[2] <= 10
    empty = alt_test(model, hum[:, :1])  # one human: no item has two
    assert math.isnan(empty.winning_rate) and not empty.passes


labels = st.integers(0, 2)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.0, 0.5), st.permutations(range(4)))
def test_invariants(seed, eps, perm):
    rng = np.random.default_rng(seed)
    model, hum = _study(rng, n=45, h=4)
    r = alt_test(model, hum, epsilon=eps)
    if r.per_human:
        assert 0 <= r.winning_rate <= 1 and 0 <= r.advantage_probability <= 1
        for x in r.per_human:
            # a tie wins for both: the two win rates sum to at least 1
            assert x.rho_model + x.rho_human >= 1 - 1e-12
            assert x.p_adjusted >= x.p_value - 1e-15 or math.isnan(x.p_value)
    # the order of the humans changes nothing
    r2 = alt_test(model, hum[:, list(perm)], epsilon=eps)
    assert r2.winning_rate == r.winning_rate or (
        math.isnan(r.winning_rate) and math.isnan(r2.winning_rate)
    )
    by_human = {perm[x.human]: x.p_value for x in r2.per_human}
    for x in r.per_human:
        assert by_human[x.human] == pytest.approx(x.p_value, nan_ok=True)
    # a larger ε never makes the model beat fewer humans
    r3 = alt_test(model, hum, epsilon=min(1.0, eps + 0.2))
    assert sum(x.model_beats for x in r3.per_human) >= sum(x.model_beats for x in r.per_human)


def test_a_copy_of_the_majority_beats_every_noisy_human():
    rng = np.random.default_rng(11)
    truth = rng.integers(0, 4, 120).astype(float)
    hum = np.stack([np.where(rng.random(120) < 0.6, truth, (truth + 1) % 4) for _ in range(4)], 1)
    r = alt_test(truth, hum, epsilon=0.1)
    assert r.winning_rate == 1.0 and r.passes


# ---- in the table kind -------------------------------------------------------------------------

EXAMPLE = Path(__file__).parents[2] / "iaa_desktop/resources/examples/judgments/ratings.csv"


def _run(options, path=EXAMPLE):
    from iaa_desktop.core.kinds.table.compare import KIND
    from iaa_desktop.core.progress import run_to_end

    return run_to_end(KIND.run([path], options))


def test_model_never_counts_as_human_and_equals_the_reference_procedure(tmp_path):
    import pandas as pd

    with_model = _run({"level": "ordinal", "model_annotators": "Cem", "epsilon": 0.15})
    frame = pd.read_csv(EXAMPLE)
    humans_only = frame[frame.annotator != "Cem"]
    tmp = tmp_path / "humans.csv"
    humans_only.to_csv(tmp, index=False)
    plain = _run({"level": "ordinal"}, tmp)
    assert with_model.annotators == ("Ada", "Bea", "Dov")
    for k, v in plain.overall.items():
        assert with_model.overall[k].value == pytest.approx(v.value, nan_ok=True), k
    j = with_model.to_json()
    (m,) = j["model_annotators"]
    assert m["name"] == "Cem" and m["epsilon"] == 0.15 and m["score"] == "neg_rmse"
    # the same test from the file's rows by the independent computation
    items = sorted(set(frame["item"]))
    hum_names = ["Ada", "Bea", "Dov"]
    hum = np.full((len(items), 3), np.nan)
    mod = np.full(len(items), np.nan)
    for row in frame.itertuples():
        i = items.index(row.item)
        if row.annotator == "Cem":
            mod[i] = row.rating
        else:
            hum[i, hum_names.index(row.annotator)] = row.rating
    who, ps, padj, rej, rho, omega = naive_alt_test(mod, hum, "neg_rmse", 0.15)
    assert [h["human"] for h in m["per_human"]] == [hum_names[w] for w in who]
    np.testing.assert_allclose([h["p_value"] for h in m["per_human"]], ps, rtol=1e-12)
    np.testing.assert_allclose([h["p_adjusted"] for h in m["per_human"]], padj, rtol=1e-12)
    assert m["winning_rate"] == pytest.approx(omega)
    assert m["advantage_probability"] == pytest.approx(rho)
    assert m["passes"] == (omega >= 0.5)
    # the model's κ with each human equals the study's pairwise κ of that pair
    full = _run({"level": "ordinal"})
    pw = full.pairwise
    for p in m["agreement"][1:]:
        row = pw[((pw.a == "Cem") & (pw.b == p["with"])) | ((pw.b == "Cem") & (pw.a == p["with"]))]
        assert p["kappa"] == pytest.approx(float(row.cohen_kappa.iloc[0]))
        assert p["kappa_ci_low"] <= p["kappa"] <= p["kappa_ci_high"]
    assert m["agreement"][0]["with"] == "human majority"
    # items where the model differs from the human majority come first
    flags = with_model.items["model_disagrees"].to_numpy()
    assert (np.diff(flags) <= 0).all() and flags[0] >= 1
    assert "alt_test" in with_model.tables() and "model_agreement" in with_model.tables()
    json.dumps(j)


def test_unknown_model_name_is_refused():
    from iaa_desktop.core.errors import OptionError

    with pytest.raises(OptionError, match="'Zed' is not an annotator"):
        _run({"model_annotators": "Zed"})
    with pytest.raises(OptionError, match="fewer than two human"):
        _run({"model_annotators": "Ada,Bea,Cem"})

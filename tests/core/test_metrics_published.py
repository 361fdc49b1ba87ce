"""Published figures of the coded-item coefficients, named after the publication they reproduce,
and cross-checks against irrCAC (Gwet's own implementation) on data with missing labels.

The data sets are written here from the publications and irrCAC's documented package data
(``cac.raw4raters``, ``cac.raw5obser``, ``cac.raw.g1g2``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from iaa_desktop.core.metrics import (
    batch,
    bennett_s,
    bootstrap_batch,
    bootstrap_interval,
    conger_kappa,
    encode,
    fleiss_kappa,
    gwet_ac1,
    gwet_ac2,
    krippendorff_alpha,
    multi_kappa,
    per_category_agreement,
    percent_agreement,
    tally,
    weighted_kappa,
)
from iaa_desktop.core.metrics.alpha import (
    alpha_strings_from_codes,
    alpha_strings_pairs,
    nld_expected_sums,
    nld_pairs,
)
from iaa_desktop.core.metrics.uncertainty import bayes_multi_kappa

_ = None
# Gwet (2014), Handbook of Inter-Rater Reliability, 4 raters × 12 units (irrCAC: cac.raw4raters)
RAW4RATERS = [
    [1, 1, _, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [_, 5, 5, 5], [_, _, 1, 1], [_, _, 3, _],
]  # fmt: skip
# irrCAC: cac.raw5obser (5 observers × 15 units)
RAW5OBSER = [
    [1, 1, 2, _, 2], [1, 1, 0, 1, _], [2, 3, 3, 3, _], [_, 0, 0, _, 0], [0, 0, 0, _, 0],
    [0, 0, 0, _, 0], [1, 0, 2, _, 1], [1, _, 2, 0, _], [2, 2, 2, _, 2], [2, 1, 1, 1, _],
    [_, 1, 0, 0, _], [0, 0, 0, 0, _], [1, 2, 2, 2, _], [3, 3, 2, 2, 3], [1, 1, 1, _, 1],
]  # fmt: skip
# irrCAC: cac.raw.g1g2 (4 raters × 14 units, letters)
G1G2 = [
    ["a", "a", _, "a"], ["b", "b", "c", "b"], ["c", "c", "c", "c"], ["c", "c", "c", "c"],
    ["b", "b", "b", "b"], ["a", "b", "c", "d"], ["d", "d", "d", "d"], ["a", "a", "b", "a"],
    ["b", "b", "b", "b"], [_, "e", "e", "e"], [_, _, "a", "a"], [_, _, "c", _],
    ["b", "b", "c", "b"], ["b", "a", "c", "b"],
]  # fmt: skip

# (data, Fleiss, Conger, Brennan–Prediger/Bennett, AC1) as irrCAC's documentation prints them
IRRCAC = {
    "raw4raters": (RAW4RATERS, 0.76117, 0.76282, 0.77273, 0.77544),
    "raw5obser": (RAW5OBSER, 0.45762, 0.46927, 0.48741, 0.49662),
    "g1g2": (G1G2, 0.65725, 0.65859, 0.67949, 0.68460),
}


@pytest.mark.parametrize("name", list(IRRCAC))
def test_gwet_2014_irrcac_figures_with_missing_labels(name):
    data, fleiss, conger, bp, ac1 = IRRCAC[name]
    codes, _cats = encode(data)
    assert round(fleiss_kappa(codes).value, 5) == pytest.approx(fleiss, abs=1e-5)
    assert round(conger_kappa(codes).value, 5) == pytest.approx(conger, abs=1e-5)
    assert conger_kappa(codes).value == pytest.approx(multi_kappa(codes).value, abs=1e-15)
    assert round(bennett_s(codes).value, 5) == pytest.approx(bp, abs=1e-5)
    assert round(gwet_ac1(codes).value, 5) == pytest.approx(ac1, abs=1e-5)


def test_fleiss_with_complete_data_is_unchanged_by_the_missing_label_convention():
    """Fleiss (1971)'s own table has no missing labels: 0.210 as before."""
    rows = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
            [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]  # fmt: skip
    codes = np.array([[k for k, n in enumerate(r) for _ in range(n)] for r in rows])
    assert fleiss_kappa(codes).value == pytest.approx(0.2099, abs=5e-5)


def test_gwet_2014_ac2_with_bipolar_weights():
    """irrCAC's documentation: AC2 = 0.90037 with bipolar weights on cac.raw4raters."""
    from irrCAC.weights import Weights

    codes, cats = encode(RAW4RATERS)
    w = np.asarray(Weights(cats.tolist())["bipolar"])
    assert round(gwet_ac2(codes, w, cats).value, 5) == pytest.approx(0.90037, abs=1e-5)
    assert gwet_ac2(codes, "identity").value == pytest.approx(gwet_ac1(codes).value)


def test_randolph_2005_free_marginal_kappa():
    """Randolph (2005), p. 17: the same observed agreement, κ_free 0.33 in both examples, while
    Fleiss' κ falls from 0.33 to −0.20 when the marginals become skewed."""
    ex1 = [["Yes", "Yes", "Yes"], ["Yes", "Yes", "No"], ["No", "No", "Yes"], ["No", "No", "No"]]
    ex2 = [["Yes", "Yes", "Yes"], ["Yes", "Yes", "No"], ["Yes", "Yes", "No"], ["Yes", "Yes", "Yes"]]
    c1, c2 = encode(ex1)[0], encode(ex2)[0]
    assert bennett_s(c1).value == pytest.approx(1 / 3) and fleiss_kappa(c1).value == pytest.approx(
        1 / 3
    )
    assert bennett_s(c2).value == pytest.approx(1 / 3)
    assert fleiss_kappa(c2).value == pytest.approx(-0.2, abs=5e-3)


# Krippendorff (1980), Content Analysis, p. 139: 3 coders × 9 units, values 1–4
K1980 = [[1, 1, 1], [1, 2, 2], [2, 2, 2], [4, 4, 4], [1, 4, 4], [2, 2, 2], [1, 2, 3], [3, 3, 3], [2, 2, 2]]  # fmt: skip


def test_krippendorff_1980_category_specific_alpha():
    codes, cats = encode(K1980)
    pc = per_category_agreement(codes)
    assert pc["alpha"].round(3).tolist() == [0.381, 0.711, 0.717, 0.764]
    assert krippendorff_alpha(codes, "nominal", cats).value == pytest.approx(0.642, abs=5e-4)
    assert krippendorff_alpha(codes, "interval", cats).value == pytest.approx(0.547, abs=5e-4)
    assert krippendorff_alpha(codes, "ratio", cats).value == pytest.approx(0.483, abs=5e-4)


# --------------------------------------------------------------------------- weighted κ


def test_weighted_kappa_of_a_pair_does_not_change_when_another_annotator_uses_a_new_point():
    """Cohen (1968): the weights come from the category values. A and B use 1, 2, 4; C also uses
    3. The pair A–B is coded in the study's categories (with or without C's 3), and its weighted κ
    must not move — with rank weights (the old convention) it does."""
    a = [1, 2, 4, 4, 1, 2, 4, 1]
    b = [1, 4, 4, 2, 1, 2, 2, 1]
    c = [3, 3, 4, 3, 1, 2, 3, 1]
    without_c, cats_ab = encode(np.array([a, b]).T)
    with_c, cats_abc = encode(np.array([a, b, c]).T)
    for kind in ("linear", "quadratic"):
        k_ab = weighted_kappa(without_c, kind, values=cats_ab)
        k_abc = weighted_kappa(with_c[:, :2], kind, len(cats_abc), values=cats_abc)
        assert k_abc.value == pytest.approx(k_ab.value, abs=1e-12)
        ranks = weighted_kappa(with_c[:, :2], kind, len(cats_abc))  # index weights: 1,2,3,4
        ranks_ab = weighted_kappa(without_c, kind)  # index weights: 1,2,4 as 0,1,2
        assert ranks.value != pytest.approx(ranks_ab.value, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(arrays(np.int32, (12, 2), elements=st.integers(0, 4)), st.floats(0.5, 3.0))
def test_weighted_kappa_is_invariant_to_the_scale_of_the_values(codes, factor):
    values = np.array([1.0, 2.0, 3.5, 7.0, 8.0])
    a = weighted_kappa(codes, "quadratic", 5, values=values).value
    b = weighted_kappa(codes, "quadratic", 5, values=values * factor + 3).value
    assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-9)


# --------------------------------------------------------------------------- irrCAC cross-checks


@st.composite
def with_missing(draw):
    n = draw(st.integers(4, 25))
    c = draw(st.integers(2, 4))
    q = draw(st.integers(2, 4))
    codes = draw(arrays(np.int32, (n, c), elements=st.integers(-1, q - 1)))
    return codes, q


def _irrcac(codes, q, weights="identity"):
    import pandas as pd
    from irrCAC.raw import CAC

    df = pd.DataFrame(np.where(codes >= 0, codes + 1.0, np.nan))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # irrCAC sets values on a filtered frame (pandas warns)
        return CAC(df, weights=weights, categories=[float(k + 1) for k in range(q)], digits=12)


def _comparable(codes):
    valid = codes >= 0
    pairable = valid.sum(axis=1) >= 2
    shared = all(
        (valid[:, x] & valid[:, y]).any()
        for x in range(codes.shape[1])
        for y in range(x + 1, codes.shape[1])
    )
    # irrCAC's variance divides by n(n − 1): it needs two rated items
    return pairable.any() and valid.any(axis=1).sum() >= 2 and valid.any(axis=0).all() and shared


@settings(max_examples=40, deadline=None)
@given(with_missing())
def test_fleiss_conger_bennett_ac1_match_irrcac(data):
    codes, q = data
    if not _comparable(codes):
        return
    cac = _irrcac(codes, q)
    ours = {
        "fleiss": fleiss_kappa(codes, q),
        "conger": conger_kappa(codes, q),
        "bp": bennett_s(codes, q),
        "gwet": gwet_ac1(codes, q),
    }
    for method, r in ours.items():
        if not r.expected < 1 - 1e-9:
            continue  # every label identical: the coefficient is 0/0 (irrCAC divides by zero)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = getattr(cac, method)()["est"]["coefficient_value"]
        assert r.value == pytest.approx(ref, abs=1e-9), method


@settings(max_examples=30, deadline=None)
@given(with_missing(), st.sampled_from(["linear", "quadratic"]))
def test_ac2_matches_irrcac(data, kind):
    codes, q = data
    if not _comparable(codes):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = _irrcac(codes, q, kind).gwet()["est"]["coefficient_value"]
    ours = gwet_ac2(codes, kind, np.arange(1, q + 1), q).value
    if math.isfinite(ref):
        assert ours == pytest.approx(ref, abs=1e-9)


# --------------------------------------------------------------------------- per category


@settings(max_examples=40, deadline=None)
@given(with_missing())
def test_per_category_kappa_and_alpha_are_the_binary_coefficients(data):
    codes, q = data
    pc = per_category_agreement(codes, q)
    for k in range(q):
        binary = np.where(codes >= 0, (codes == k).astype(np.int32), -1)
        fk = fleiss_kappa(binary, 2).value
        ak = krippendorff_alpha(binary, "nominal", n_categories=2).value
        assert (math.isnan(fk) and math.isnan(pc["kappa"][k])) or pc["kappa"][k] == pytest.approx(
            fk
        )
        assert (math.isnan(ak) and math.isnan(pc["alpha"][k])) or pc["alpha"][k] == pytest.approx(
            ak
        )


# --------------------------------------------------------------------------- the tally


@settings(max_examples=25, deadline=None)
@given(with_missing(), st.integers(0, 2))
def test_large_key_spaces_give_the_same_coefficients(data, widen):
    """Many annotators or categories take the sorting path of the tally: same figures."""
    codes, q = data
    wide = np.concatenate([codes] * (1 + 12 * widen), axis=1)  # up to 52 annotators
    big_q = q + 5000 * widen  # unused categories widen the key space
    for fn in (percent_agreement, fleiss_kappa, multi_kappa, gwet_ac1):
        a, b = fn(wide, q).value, fn(wide, big_q).value
        if fn is not gwet_ac1:  # AC1's chance term depends on q
            assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b)
    t = tally(wide, q)
    assert t.freq.sum() == codes.shape[0]
    assert {tuple(r) for r in t.codes.tolist()} == {tuple(r) for r in wide.tolist()}


@settings(max_examples=30, deadline=None)
@given(with_missing())
def test_spearman_from_the_pair_tables_matches_scipy(data):
    from scipy.stats import spearmanr

    codes, q = data
    t = tally(codes, q)
    from iaa_desktop.core.metrics import aggregate

    rho = batch.spearman_pairs(t, aggregate(t))[0]
    for p, (x, y) in enumerate(t.pairs):
        both = (codes[:, x] >= 0) & (codes[:, y] >= 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = (
                spearmanr(codes[both, x], codes[both, y]).statistic if both.sum() >= 2 else math.nan
            )
        assert (math.isnan(ref) and math.isnan(rho[p])) or rho[p] == pytest.approx(ref, abs=1e-9)


# --------------------------------------------------------------------------- intervals


def test_matrix_bootstrap_equals_the_bootstrap_one_resample_at_a_time():
    codes, _cats = encode(RAW5OBSER)
    t = tally(codes)
    from iaa_desktop.core.metrics import aggregate

    def ev(ag):
        return {"fleiss": batch.fleiss(t, ag).value, "ac1": batch.gwet_ac1(t, ag).value}

    fast = bootstrap_batch(t, ev, 400, seed=3)
    assert fast["fleiss"] == pytest.approx(bootstrap_interval(codes, fleiss_kappa, 400, seed=3))
    assert fast["ac1"] == pytest.approx(bootstrap_interval(codes, gwet_ac1, 400, seed=3))
    assert aggregate(t).n_resamples == 1


@settings(max_examples=40, deadline=None)
@given(
    arrays(np.int32, st.tuples(st.integers(2, 8), st.integers(2, 4)), elements=st.integers(-1, 3))
)
def test_bayesian_interval_stays_in_kappas_range(codes):
    r = bayes_multi_kappa(codes, n_draws=500, seed=0, n_categories=4)
    for k in ("low95", "low89", "median", "high89", "high95"):
        assert math.isnan(r[k]) or -1.0 <= r[k] <= 1.0


def test_bayesian_interval_is_reproducible_and_ordered():
    codes, _ = encode(RAW5OBSER)
    a = bayes_multi_kappa(codes, seed=5)
    assert a == bayes_multi_kappa(codes, seed=5)
    assert a["low95"] <= a["low89"] <= a["median"] <= a["high89"] <= a["high95"]


# --------------------------------------------------------------------------- α with NLD


def test_nld_expected_sums_equal_the_sum_over_every_pair():
    labels = ["", "a", "ab", "ba", "abc", "bca", "xyz", "ä", "äöü", "שלום", "שלם"]
    w = np.arange(1, len(labels) + 1, dtype=float)
    d = np.array([[nld_pairs([s], [u])[0] for u in labels] for s in labels])
    assert nld_expected_sums(labels, w, chunk=3)[0] == pytest.approx(w @ d @ w)
    two = np.stack([w, w[::-1]], axis=1)
    assert nld_expected_sums(labels, two, chunk=4) == pytest.approx(
        [w @ d @ w, w[::-1] @ d @ w[::-1]]
    )


def test_alpha_nld_of_each_pair_is_the_alpha_of_its_two_columns():
    rng = np.random.default_rng(7)
    words = ["haus", "hauß", "huse", "hus", "maus", "", "mus"]
    codes = rng.integers(-1, len(words), size=(40, 3))
    by_pair = alpha_strings_pairs(codes, words)
    for (x, y), value in by_pair.items():
        ref = alpha_strings_from_codes(codes[:, [x, y]], words).value
        assert (math.isnan(ref) and math.isnan(value)) or value == pytest.approx(ref, abs=1e-12)

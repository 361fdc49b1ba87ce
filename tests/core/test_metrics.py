"""Coefficients: published values, invariants (Hypothesis) and cross-checks against other libraries."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from iaa_desktop.core.metrics import (
    bayes_multi_kappa,
    bootstrap_interval,
    cohen_kappa,
    encode,
    fleiss_kappa,
    gwet_ac1,
    item_agreement,
    krippendorff_alpha,
    krippendorff_alpha_strings,
    multi_kappa,
    pairwise_matrix,
    per_category_agreement,
    percent_agreement,
    scott_pi,
    spearman_weighted,
    weighted_kappa,
)

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", 4 observers × 12 units
K2011 = [
    [1, 1, None, 1],
    [2, 2, 3, 2],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [2, 2, 2, 2],
    [1, 2, 3, 4],
    [4, 4, 4, 4],
    [1, 1, 2, 1],
    [2, 2, 2, 2],
    [None, 5, 5, 5],
    [None, None, 1, 1],
    [None, 3, None, None],
]
AP_EXAMPLE1 = [[0, 0]] * 20 + [[0, 1]] * 10 + [[1, 0]] * 20 + [[1, 1]] * 50


# --------------------------------------------------------------------------- published values


@pytest.mark.parametrize(
    "level, expected",
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_krippendorff_2011_reliability_data(level, expected):
    codes, cats = encode(K2011)
    assert krippendorff_alpha(codes, level, cats).value == pytest.approx(expected, abs=5e-4)


def test_artstein_poesio_2008_example_1():
    assert cohen_kappa(AP_EXAMPLE1).value == pytest.approx(0.348, abs=5e-4)
    assert scott_pi(AP_EXAMPLE1).value == pytest.approx(0.341, abs=5e-4)
    assert percent_agreement(AP_EXAMPLE1).value == pytest.approx(0.7)


def test_fleiss_1971_table():
    rows = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
    codes = np.array([[k for k, n in enumerate(r) for _ in range(n)] for r in rows])
    r = fleiss_kappa(codes)
    assert r.observed == pytest.approx(0.378, abs=5e-4)
    assert r.expected == pytest.approx(0.213, abs=5e-4)
    assert r.value == pytest.approx(0.210, abs=5e-4)


# --------------------------------------------------------------------------- strategies


@st.composite
def reliability(draw, min_items=2, max_items=40, max_ann=5, max_q=4, missing=True):
    n = draw(st.integers(min_items, max_items))
    c = draw(st.integers(2, max_ann))
    q = draw(st.integers(2, max_q))
    lo = -1 if missing else 0
    codes = draw(arrays(np.int32, (n, c), elements=st.integers(lo, q - 1)))
    return codes, q


def _nan_or_le_one(v: float) -> bool:
    return math.isnan(v) or v <= 1 + 1e-12


# --------------------------------------------------------------------------- invariants


@settings(max_examples=60, deadline=None)
@given(reliability())
def test_coefficients_bounded_above_by_one(data):
    codes, q = data
    for fn in (fleiss_kappa, multi_kappa, gwet_ac1, percent_agreement):
        assert _nan_or_le_one(fn(codes, q).value)
    assert _nan_or_le_one(krippendorff_alpha(codes, "nominal", n_categories=q).value)
    pa = percent_agreement(codes, q).value
    assert math.isnan(pa) or 0 <= pa <= 1


@settings(max_examples=40, deadline=None)
@given(reliability(missing=False))
def test_perfect_agreement_is_one(data):
    codes, q = data
    perfect = np.repeat(codes[:, :1], codes.shape[1], axis=1)
    if len(np.unique(perfect)) < 2:
        perfect[0, :] = (perfect[0, 0] + 1) % q  # need two categories for chance correction
    for fn in (fleiss_kappa, multi_kappa, gwet_ac1, percent_agreement):
        assert fn(perfect, q).value == pytest.approx(1.0)
    for level in ("nominal", "ordinal", "interval", "ratio"):
        assert krippendorff_alpha(
            perfect, level, np.arange(1, q + 1), n_categories=q
        ).value == pytest.approx(1.0)


@settings(max_examples=40, deadline=None)
@given(reliability(), st.randoms(use_true_random=False))
def test_invariant_under_item_and_annotator_permutation(data, rnd):
    codes, q = data
    items = list(range(codes.shape[0]))
    anns = list(range(codes.shape[1]))
    rnd.shuffle(items)
    rnd.shuffle(anns)
    perm = codes[items][:, anns]
    for fn in (fleiss_kappa, multi_kappa, gwet_ac1, percent_agreement):
        a, b = fn(codes, q).value, fn(perm, q).value
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b)
    for level in ("nominal", "ordinal", "interval"):
        a = krippendorff_alpha(codes, level, n_categories=q).value
        b = krippendorff_alpha(perm, level, n_categories=q).value
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b)


@settings(max_examples=40, deadline=None)
@given(reliability(max_ann=2))
def test_pair_coefficients_symmetric_and_relabel_invariant(data):
    codes, q = data
    codes = codes[:, :2]
    swapped = codes[:, ::-1]
    relabel = np.random.default_rng(0).permutation(q)
    relabelled = np.where(codes >= 0, relabel[np.maximum(codes, 0)], -1)
    for fn in (cohen_kappa, scott_pi):
        a = fn(codes, q).value
        for other in (fn(swapped, q).value, fn(relabelled, q).value):
            assert (math.isnan(a) and math.isnan(other)) or a == pytest.approx(other)


@settings(max_examples=30, deadline=None)
@given(reliability(max_ann=2, missing=False))
def test_two_annotators_multi_kappa_is_cohen_and_fleiss_is_scott_like_alpha(data):
    codes, q = data
    codes = codes[:, :2]
    mk, ck = multi_kappa(codes, q).value, cohen_kappa(codes, q).value
    assert (math.isnan(mk) and math.isnan(ck)) or mk == pytest.approx(ck)
    fk, sp = fleiss_kappa(codes, q).value, scott_pi(codes, q).value
    assert (math.isnan(fk) and math.isnan(sp)) or fk == pytest.approx(sp)
    # α nominal = π corrected for sample size: α = 1 − (1 − π)·(n−1)/n ... with n = 2N values
    n = 2 * codes.shape[0]
    al = krippendorff_alpha(codes, "nominal", n_categories=q).value
    if not math.isnan(sp):
        assert al == pytest.approx(1 - (1 - sp) * (n - 1) / n)


def test_item_agreement_ignores_single_labels():
    agr = item_agreement([[0, 0, -1], [0, -1, -1], [1, 0, 1]])
    assert agr[0] == 1 and math.isnan(agr[1]) and agr[2] == pytest.approx(1 / 3)


def test_per_category_two_annotators_specific_agreement():
    codes = np.array(AP_EXAMPLE1)
    r = per_category_agreement(codes)
    # 2 n_kk / (n_k. + n_.k): category 0: 40 / (30 + 40)
    assert r["specific"][0] == pytest.approx(40 / 70)
    assert r["specific"][1] == pytest.approx(100 / (70 + 60))


# --------------------------------------------------------------------------- cross-checks


@settings(max_examples=40, deadline=None)
@given(reliability(max_ann=2, missing=False, min_items=3))
def test_cohen_and_weighted_kappa_match_scikit_learn(data):
    from sklearn.metrics import cohen_kappa_score

    codes, q = data
    x, y = codes[:, 0], codes[:, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn warns where κ is undefined; we compare NaN
        for w, ours in (
            (None, cohen_kappa(codes[:, :2], q)),
            ("linear", weighted_kappa(codes[:, :2], "linear", q)),
            ("quadratic", weighted_kappa(codes[:, :2], "quadratic", q)),
        ):
            ref = cohen_kappa_score(x, y, weights=w, labels=list(range(q)))
            if math.isnan(ref):
                assert (
                    math.isnan(ours.value)
                    or ours.value == pytest.approx(0)
                    or ours.value == pytest.approx(1)
                )
            else:
                assert ours.value == pytest.approx(ref, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(reliability(missing=False, min_items=3))
def test_fleiss_matches_statsmodels(data):
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    from iaa_desktop.core.metrics import category_counts

    codes, q = data
    ours = fleiss_kappa(codes, q).value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = sm_fleiss(category_counts(codes, q), method="fleiss")
    if math.isnan(ref) or math.isinf(ref):
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(ref, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(reliability(max_ann=5, max_q=5))
def test_alpha_matches_krippendorff_package(data):
    import krippendorff

    codes, q = data
    values = np.array([1.0, 2.5, 3.0, 7.0, 8.0])[:q]
    pairable_values = np.unique(codes[(codes >= 0).sum(axis=1) >= 2])
    pairable_values = pairable_values[pairable_values >= 0]
    if len(pairable_values) < 2:
        return  # the package raises when there is one value only
    rel = np.where(codes >= 0, values[np.maximum(codes, 0)], np.nan).T
    for level in ("nominal", "ordinal", "interval", "ratio"):
        ours = krippendorff_alpha(codes, level, values, n_categories=q).value
        ref = krippendorff.alpha(
            reliability_data=rel, level_of_measurement=level, value_domain=values
        )
        assert ours == pytest.approx(ref, abs=1e-9), level


def test_gwet_ac1_matches_irrcac_with_missing_values():
    pd = pytest.importorskip("pandas")
    irr = pytest.importorskip("irrCAC.raw")
    codes, cats = encode(K2011)
    df = pd.DataFrame(
        np.where(codes >= 0, cats[np.maximum(codes, 0)], np.nan), columns=list("abcd")
    )
    ref = irr.CAC(df).gwet()["est"]["coefficient_value"]
    assert gwet_ac1(codes).value == pytest.approx(ref, abs=1e-5)


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(["", "a", "ab", "abc", "ba", "bab", "x", None]), min_size=3, max_size=3
        ),
        min_size=3,
        max_size=12,
    )
)
def test_alpha_nld_matches_nltk(rows):
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import edit_distance

    labels = [[v for v in r] for r in rows]
    triples = [
        (str(a), str(i), labels[i][a])
        for i in range(len(labels))
        for a in range(3)
        if labels[i][a] is not None
    ]
    pairable = [i for i in range(len(labels)) if sum(v is not None for v in labels[i]) >= 2]
    distinct = {labels[i][a] for i in pairable for a in range(3) if labels[i][a] is not None}
    if len(pairable) < 1 or len(distinct) < 2:
        return
    # nltk needs every item to be labelled by every coder it knows; keep complete items only
    complete = [i for i in range(len(labels)) if all(v is not None for v in labels[i])]
    if len(complete) < 2 or len({labels[i][a] for i in complete for a in range(3)}) < 2:
        return
    triples = [(str(a), str(i), labels[i][a]) for i in complete for a in range(3)]

    def nld(a, b):
        m = max(len(a), len(b))
        return edit_distance(a, b) / m if m else 0.0

    ref = AnnotationTask(triples, distance=nld).alpha()
    ours = krippendorff_alpha_strings([labels[i] for i in complete]).value
    assert ours == pytest.approx(ref, abs=1e-9)


def test_spearman_weighted_matches_scipy_pairs():
    from scipy.stats import spearmanr

    rng = np.random.default_rng(3)
    v = rng.integers(1, 5, size=(60, 3)).astype(float)
    v[rng.random(v.shape) < 0.2] = np.nan
    judged = ~np.isnan(v)
    num = den = 0.0
    for x, y in ((0, 1), (0, 2), (1, 2)):
        both = judged[:, x] & judged[:, y]
        rho = spearmanr(v[both, x], v[both, y]).statistic
        num += both.sum() * rho
        den += both.sum()
    assert spearman_weighted(v).value == pytest.approx(num / den, abs=1e-12)


def test_pairwise_matrix_symmetric_with_unit_diagonal():
    codes, _ = encode(K2011)
    vals, ns = pairwise_matrix(codes, cohen_kappa)
    assert np.allclose(np.diag(vals), 1)
    assert np.allclose(vals, vals.T, equal_nan=True)
    assert ns[0, 1] == 9  # A labelled units 1–9, B units 1–10 and 12


# --------------------------------------------------------------------------- intervals


def test_bootstrap_interval_contains_estimate_and_is_reproducible():
    codes, cats = encode(K2011)
    lo, hi = bootstrap_interval(codes, fleiss_kappa, n_resamples=300, seed=1)
    assert lo <= fleiss_kappa(codes).value <= hi
    assert (lo, hi) == bootstrap_interval(codes, fleiss_kappa, n_resamples=300, seed=1)


def test_bayes_interval_brackets_the_estimate():
    r = bayes_multi_kappa(AP_EXAMPLE1, n_draws=4000, seed=2)
    assert r["low95"] < r["low89"] < r["median"] < r["high89"] < r["high95"]
    assert r["median"] == pytest.approx(0.348, abs=0.03)


@settings(max_examples=30, deadline=None)
@given(reliability(max_ann=4))
def test_pairwise_cohen_equals_cohen_per_pair(data):
    from iaa_desktop.core.metrics import pairwise_cohen_kappa

    codes, q = data
    fast = pairwise_cohen_kappa(codes, q)
    for (x, y), r in fast.items():
        slow = cohen_kappa(codes[:, [x, y]], q)
        assert (math.isnan(r.value) and math.isnan(slow.value)) or r.value == pytest.approx(
            slow.value
        )
        assert r.n_items == slow.n_items

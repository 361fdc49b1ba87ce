"""Span metrics: unitizing α against DKPro Statistics' published test values, span F1 and the
interval-overlap helpers (Hypothesis invariants, brute-force cross-checks)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.metrics import spans as S
from iaa_desktop.core.metrics.unitizing import (
    UnitizingStudy,
    category_disagreements,
    unitizing_alpha,
)


def krippendorff_1995(stretch: float) -> UnitizingStudy:
    """Krippendorff (1995, p. 57)'s four categories A–D, as DKPro's Krippendorff1995Test builds them."""
    units = [
        (2, 8, 0, 0), (14, 6, 0, 0), (4, 4, 1, 0), (15, 2, 1, 0),
        (0, 18, 0, 1), (0, 2, 1, 1), (2, 1, 1, 1), (3, 1, 1, 1), (4, 1, 1, 1), (5, 1, 1, 1),
        (6, 3, 1, 1), (9, 1, 1, 1),
        (2, 6, 0, 2), (10, 2, 0, 2), (14, 4, 0, 2), (20, 2, 0, 2), (0, 2, 1, 2), (4, 4, 1, 2),
        (10, 4, 1, 2), (16, 2, 1, 2), (20, 2, 1, 2),
        (0, 2, 0, 3), (2, 8, 0, 3), (10, 4, 0, 3), (14, 6, 0, 3), (20, 4, 0, 3), (0, 4, 1, 3),
        (4, 4, 1, 3), (8, 7, 1, 3), (15, 2, 1, 3), (17, 7, 1, 3),
    ]  # fmt: skip
    s = lambda x: int(x * stretch)  # noqa: E731
    return UnitizingStudy.of([(s(b), s(n), r, c) for b, n, r, c in units], 2, s(24))


def test_krippendorff_1995_observed_disagreement_as_dkpro():
    study = krippendorff_1995(1)
    observed = [category_disagreements(study, k)[0] for k in range(4)]
    assert observed == pytest.approx([0.03125, 2.26736, 0.02777, 0.38715], abs=1e-5)


def test_krippendorff_1995_expected_and_alpha_as_dkpro():
    r = unitizing_alpha(krippendorff_1995(1200000 / 24))["categories"]
    assert [r[k][2] for k in range(4)] == pytest.approx(
        [0.06990, 1.17731, 0.08642, 0.41445], abs=0.005
    )
    assert [r[k][0] for k in range(4)] == pytest.approx([0.553, -0.926, 0.679, 0.066], abs=0.02)


@pytest.mark.parametrize(
    ("stretch", "d_e", "tol", "alpha"),
    [
        (12 / 24, 0.05494, 1e-5, 0.494),
        (120 / 24, 0.08234, 0.005, 0.663),
        (1200 / 24, 0.08600, 0.005, 0.677),
    ],
)
def test_krippendorff_1995_varying_lengths(stretch, d_e, tol, alpha):
    d_o, de = category_disagreements(krippendorff_1995(stretch), 2)
    assert d_o == pytest.approx(0.02777, abs=1e-5)
    assert de == pytest.approx(d_e, abs=tol)
    assert 1 - d_o / de == pytest.approx(alpha, abs=0.02)


def krippendorff_2004() -> UnitizingStudy:
    return UnitizingStudy.of(
        [(225, 70, 0, 0), (370, 30, 0, 0), (220, 80, 1, 0), (355, 20, 1, 0), (400, 20, 1, 0),
         (180, 60, 0, 1), (300, 50, 0, 1), (180, 60, 1, 1), (300, 50, 1, 1)],
        2, 300, 150,
    )  # fmt: skip


def test_krippendorff_2004_as_dkpro():
    r = unitizing_alpha(krippendorff_2004())
    assert r["alpha"] == pytest.approx(0.8591, abs=0.0005)
    c, k = r["categories"][0], r["categories"][1]
    assert (c[1], c[2], c[0]) == pytest.approx((0.0144, 0.0532, 0.7286), abs=1e-4)
    assert (k[1], k[2], k[0]) == pytest.approx((0.0, 0.0490, 1.0), abs=1e-4)


def test_dkpro_unitizing_agreement_test_cases():
    r = unitizing_alpha(
        UnitizingStudy.of([(1, 8, 0, 0), (2, 1, 1, 0), (4, 1, 1, 0), (6, 1, 1, 0)], 2, 10)
    )
    assert (r["observed"], r["expected"], r["alpha"]) == pytest.approx(
        (0.9100, 0.5351, -0.7003), abs=1e-4
    )
    assert unitizing_alpha(UnitizingStudy.of([(0, 1, 0, 0)], 3, 20))["alpha"] == 0.0
    assert math.isnan(unitizing_alpha(UnitizingStudy.of([], 3, 20))["alpha"])
    zero = UnitizingStudy.of([(0, 0, 0, 0), (0, 0, 1, 1)], 2, 15)
    assert unitizing_alpha(zero)["alpha"] == pytest.approx(0.0)
    mixed = UnitizingStudy.of([(0, 0, 0, 0), (2, 5, 0, 0), (2, 5, 1, 0)], 2, 15)
    assert unitizing_alpha(mixed)["alpha"] == pytest.approx(1.0)


intervals = st.lists(
    st.tuples(st.integers(0, 60), st.integers(1, 12)).map(lambda t: (t[0], t[0] + t[1])),
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(intervals, intervals)
def test_overlap_edges_equal_brute_force(a, b):
    sa, ea = (
        np.array([x[0] for x in a], dtype=np.int64),
        np.array([x[1] for x in a], dtype=np.int64),
    )
    sb, eb = (
        np.array([x[0] for x in b], dtype=np.int64),
        np.array([x[1] for x in b], dtype=np.int64),
    )
    i, j = S.overlap_edges(sa, ea, sb, eb)
    got = sorted(zip(i.tolist(), j.tolist()))
    want = sorted(
        (p, q)
        for p in range(len(a))
        for q in range(len(b))
        if a[p][0] < b[q][1] and b[q][0] < a[p][1]
    )
    assert got == want


@settings(max_examples=40, deadline=None)
@given(intervals)
def test_unitizing_alpha_is_one_for_identical_raters(units):
    # one rater's units without overlaps, copied to a second rater
    kept, end = [], -1
    for s, e in sorted(units):
        if s >= end:
            kept.append((s, e))
            end = e
    if not kept:
        return
    study = UnitizingStudy.of([(s, e - s, r, 0) for s, e in kept for r in (0, 1)], 2, 80)
    assert unitizing_alpha(study)["alpha"] == pytest.approx(1.0)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=1, max_size=20),
    st.lists(st.integers(0, 5), min_size=1, max_size=20),
)
def test_f1_bounds_and_symmetry(x, y):
    tp = min(len(set(x) & set(y)), len(x), len(y))
    f = S.f1_from_counts(np.array([tp]), np.array([len(x)]), np.array([len(y)]))[0]
    g = S.f1_from_counts(np.array([tp]), np.array([len(y)]), np.array([len(x)]))[0]
    assert 0.0 <= f <= 1.0 and f == g


def test_batch_coefficients_equal_the_single_ones():
    from iaa_desktop.core.metrics import cohen_kappa, fleiss_kappa, krippendorff_alpha

    rng = np.random.default_rng(3)
    codes = rng.integers(0, 4, size=(60, 3))
    w = rng.integers(1, 5, size=60).astype(float)
    assert S.fleiss_kappa_batch(codes, 4, w[None])[0] == pytest.approx(
        fleiss_kappa(codes, 4, w).value
    )
    assert S.alpha_nominal_batch(codes, 4, w[None])[0] == pytest.approx(
        krippendorff_alpha(codes, n_categories=4, weights=w).value
    )
    assert S.cohen_kappa_batch(codes[:, :2], 4, w[None])[0] == pytest.approx(
        cohen_kappa(codes[:, :2], 4, w).value
    )


def test_maximum_matching_counts_no_span_twice():
    # one long span of A overlaps two short spans of B: one match only
    i, j = S.overlap_edges(np.array([0]), np.array([10]), np.array([0, 5]), np.array([3, 8]))
    a, b = S.max_overlap_matching(1, 2, i, j)
    assert len(a) == 1

"""The vectorised decomposition (METHODS.md §6) against brute force and scikit-learn."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.metrics import decomposition as dec

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def sk_kappa(x: np.ndarray, y: np.ndarray) -> float:
    """scikit-learn's κ, NaN where it is undefined (it warns and returns NaN there)."""
    if len(x) == 0:
        return float("nan")
    if len(set(x.tolist()) | set(y.tolist())) < 2:
        return float("nan")  # A_e = 1
    return float(sklearn_metrics.cohen_kappa_score(x, y))


def brute_force(x: np.ndarray, y: np.ndarray, s1: np.ndarray, k: int) -> tuple[float, list[float]]:
    """Filter the items and call scikit-learn, as the paper describes."""
    cx, cy = s1[x].astype(int), s1[y].astype(int)
    first = sk_kappa(cx, cy)
    agree = cx == cy
    second = [
        sk_kappa((x[agree] >> (k - 1 - j)) & 1, (y[agree] >> (k - 1 - j)) & 1) for j in range(k)
    ]
    return first, second


def test_artstein_poesio_example_1() -> None:
    # (0,0)=20 (0,1)=10 (1,0)=20 (1,1)=50 → κ = 0.348
    kappa, observed, expected = dec.kappa_from_counts(100, 50, 70, 60)
    assert round(float(kappa), 3) == 0.348
    assert float(observed) == pytest.approx(0.7)
    assert float(expected) == pytest.approx(0.54)


def test_undefined_kappa_is_nan() -> None:
    kappa, _, _ = dec.kappa_from_counts(
        np.array([10, 0]), np.array([10, 0]), np.array([10, 0]), np.array([10, 0])
    )
    assert np.isnan(kappa).all()


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_number_of_partitions(k: int) -> None:
    parts = dec.exhaustive_partitions(k)
    assert len(parts) == dec.n_partitions(k) == 2 ** (2**k - 1) - 1
    assert len(np.unique(parts, axis=0)) == len(parts)
    # each partition once: no row is the complement of another
    comp = {(~r).tobytes() for r in parts}
    assert not comp & {r.tobytes() for r in parts}
    size = parts.sum(axis=1)
    assert (size >= 1).all() and (2 * size <= 2**k).all()


def test_k3_has_127_partitions_and_starts_with_000() -> None:
    parts = dec.exhaustive_partitions(3)
    assert len(parts) == 127
    assert np.flatnonzero(parts[0]).tolist() == [0]  # {000} first


@pytest.mark.parametrize("k,bound", [(3, 4), (3, 2), (5, 2), (5, 3)])
def test_bounded_partitions(k: int, bound: int) -> None:
    parts = dec.bounded_partitions(k, bound)
    assert len(parts) == dec.n_bounded_partitions(k, bound)
    assert parts.sum(axis=1).max() == bound
    if k == 3 and bound == 4:
        ex = {r.tobytes() for r in dec.exhaustive_partitions(3)}
        assert {r.tobytes() for r in parts} == ex


def test_largest_bound() -> None:
    assert dec.n_bounded_partitions(5, 4) == 32 + 496 + 4960 + 35960
    assert dec.largest_bound(5, 50_000) == 4
    assert dec.largest_bound(3, 10**9) == 4


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_decompose_equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = 3
    n = 300
    x = rng.integers(0, 8, n)
    y = np.where(rng.random(n) < 0.6, x, rng.integers(0, 8, n))
    parts = dec.exhaustive_partitions(k)
    out = dec.decompose(dec.joint_counts(x, y, k), parts)
    for i in range(0, len(parts), 7):
        first, second = brute_force(x, y, parts[i], k)
        np.testing.assert_allclose(out.first[0, i], first, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(out.second[0, i], second, rtol=1e-12, atol=1e-12)
        assert out.n_agree[0, i] == (parts[i][x] == parts[i][y]).sum()


def test_per_label_equals_sklearn() -> None:
    rng = np.random.default_rng(5)
    x = rng.integers(0, 16, 500)
    y = np.where(rng.random(500) < 0.5, x, rng.integers(0, 16, 500))
    pl = dec.per_label_agreement(dec.joint_counts(x, y, 4), 4)
    for j in range(4):
        bx, by = (x >> (3 - j)) & 1, (y >> (3 - j)) & 1
        assert pl["kappa"][j] == pytest.approx(sklearn_metrics.cohen_kappa_score(bx, by), abs=1e-12)
        assert pl["percent_agreement"][j] == pytest.approx((bx == by).mean())
    assert pl["exact_set_agreement"] == pytest.approx((x == y).mean())


def test_missing_codes_are_left_out() -> None:
    j = dec.joint_counts(np.array([0, 1, -1, 3]), np.array([0, -1, 2, 3]), 2)
    assert j.sum() == 2 and j[0, 0] == 1 and j[3, 3] == 1


codes3 = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=0, max_size=40)


@settings(max_examples=60, deadline=None)
@given(pairs=codes3, part=st.integers(0, 126))
def test_hypothesis_brute_force_and_invariants(pairs: list[tuple[int, int]], part: int) -> None:
    x = np.array([p[0] for p in pairs], dtype=np.int64)
    y = np.array([p[1] for p in pairs], dtype=np.int64)
    s1 = dec.exhaustive_partitions(3)[part]
    j = dec.joint_counts(x, y, 3)
    out = dec.decompose(j, s1[None])
    first, second = brute_force(x, y, s1, 3)
    np.testing.assert_allclose(out.first[0, 0], first, atol=1e-12)
    np.testing.assert_allclose(out.second[0, 0], second, atol=1e-12)
    # symmetric in the two annotators and in S1 ↔ S2
    swapped = dec.decompose(j.T, s1[None])
    comp = dec.decompose(j, (~s1)[None])
    for other in (swapped, comp):
        np.testing.assert_allclose(other.first, out.first, atol=1e-12)
        np.testing.assert_allclose(other.second, out.second, atol=1e-12)
    # bounds
    vals = np.concatenate([out.first.ravel(), out.second.ravel()])
    vals = vals[~np.isnan(vals)]
    assert (vals <= 1 + 1e-12).all() and (vals >= -1 - 1e-12).all()


@settings(max_examples=30, deadline=None)
@given(codes=st.lists(st.integers(0, 7), min_size=2, max_size=30))
def test_perfect_agreement(codes: list[int]) -> None:
    x = np.array(codes)
    out = dec.decompose(dec.joint_counts(x, x, 3), dec.exhaustive_partitions(3))
    f = out.first[~np.isnan(out.first)]
    s = out.second[~np.isnan(out.second)]
    assert np.allclose(f, 1.0) and np.allclose(s, 1.0)


def test_several_pairs_at_once_equal_one_at_a_time() -> None:
    rng = np.random.default_rng(3)
    joints = rng.integers(0, 20, size=(3, 8, 8))
    parts = dec.exhaustive_partitions(3)
    together = dec.decompose(joints, parts)
    for p in range(3):
        alone = dec.decompose(joints[p], parts)
        np.testing.assert_array_equal(together.first[p], alone.first[0])
        np.testing.assert_array_equal(together.second[p], alone.second[0])


def test_chunks_and_float64_path_agree() -> None:
    rng = np.random.default_rng(4)
    joints = rng.integers(0, 50, size=(2, 16, 16))
    parts = dec.exhaustive_partitions(4)
    a = dec.decompose(joints, parts)
    b = dec.decompose(joints, parts, chunk=1000)
    big = dec.decompose(joints * 2**20, parts)  # > 2**24 items: float64 path; κ is scale-free
    np.testing.assert_allclose(a.first, b.first, atol=1e-12)
    np.testing.assert_allclose(a.first, big.first, atol=1e-9)
    np.testing.assert_allclose(a.second, big.second, atol=1e-9, equal_nan=True)


def test_rank_order_puts_undefined_last() -> None:
    v = np.array([0.5, np.nan, 0.1, 0.9, np.nan])
    assert dec.rank_order(v).tolist() == [2, 0, 3, 1, 4]
    assert dec.rank_order(v, descending=True).tolist() == [3, 0, 2, 1, 4]


def test_means_strict_and_defined() -> None:
    v = np.array([[0.5, np.nan], [0.7, 0.2]])
    assert np.isnan(dec.mean_strict(v, axis=0)[1])
    assert dec.mean_defined(v, axis=0)[1] == pytest.approx(0.2)


def test_search_finds_the_exhaustive_best() -> None:
    rng = np.random.default_rng(9)
    x = rng.integers(0, 8, 400)
    y = np.where(rng.random(400) < 0.6, x, rng.integers(0, 8, 400))
    j = dec.joint_counts(x, y, 3)[None]
    parts = dec.exhaustive_partitions(3)
    out = dec.decompose(j, parts)
    first = out.first.mean(axis=0)
    second = out.second.mean(axis=(0, 2))
    best1, _ = dec.search_partitions(j, "first", top=1)
    best2, _ = dec.search_partitions(j, "second", top=1)
    assert (best1[0] == parts[dec.rank_order(first)[0]]).all()
    assert (best2[0] == parts[dec.rank_order(second, descending=True)[0]]).all()


def test_search_k5_never_enumerates_everything() -> None:
    rng = np.random.default_rng(2)
    x = rng.integers(0, 32, 2000)
    y = np.where(rng.random(2000) < 0.6, x, rng.integers(0, 32, 2000))
    j = dec.joint_counts(x, y, 5)[None]
    best, n_eval = dec.search_partitions(j, "second", top=5)
    assert len(best) == 5
    assert n_eval < dec.n_partitions(5) / 1000
    sc = dec.decompose(j, best).second.mean(axis=(0, 2))
    # at least as good as every partition with |S1| = 1
    singles = dec.decompose(j, np.eye(32, dtype=bool)).second.mean(axis=(0, 2))
    assert sc[0] >= np.nanmax(singles) - 1e-12
    assert math.isfinite(sc[0])


@pytest.mark.parametrize("k,parts_of", [(4, "exhaustive"), (5, "bounded")])
def test_larger_k_samples_equal_brute_force(k: int, parts_of: str) -> None:
    rng = np.random.default_rng(k)
    n = 2000
    x = rng.integers(0, 2**k, n)
    y = np.where(rng.random(n) < 0.6, x, rng.integers(0, 2**k, n))
    parts = (
        dec.exhaustive_partitions(k) if parts_of == "exhaustive" else dec.bounded_partitions(k, 3)
    )
    pick = rng.choice(len(parts), size=15, replace=False)
    out = dec.decompose(dec.joint_counts(x, y, k), parts[pick])
    for j, i in enumerate(pick):
        first, second = brute_force(x, y, parts[i], k)
        np.testing.assert_allclose(out.first[0, j], first, atol=1e-12)
        np.testing.assert_allclose(out.second[0, j], second, atol=1e-12)

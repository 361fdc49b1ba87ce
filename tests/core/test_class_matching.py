"""Class matching on the sparse overlap graph (core/align/class_matching.py).

The optimum (minimal cost, then the largest total intersection) is compared with the dense
assignment over every pair of sets (the former implementation, kept as a test oracle) and with a
brute force over all assignments; the Psalms files are checked in test_coref.py.
"""

from __future__ import annotations

import math
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import iaa_desktop.core.align.class_matching as cm
from iaa_desktop.core.align.class_matching import COSTS, match_sets
from tests.oracles import class_matching_dense as dense


def _objective(rows, cost: str) -> tuple[float, int]:
    """(cost, Σ M) of the rows, as each variant defines its cost."""
    pairs = [r for r in rows if r.class_a != "-" and r.class_b != "-"]
    if cost == "jaccard":
        return round(sum(r.d for r in pairs), 9), sum(r.M for r in rows)
    if cost == "opt":
        return sum(r.D for r in rows), sum(r.M for r in rows)
    return sum(r.D for r in pairs), sum(r.M for r in rows)


@st.composite
def set_lists(draw, max_mentions=24, max_sets=7):
    n = draw(st.integers(0, max_mentions))
    ka, kb = draw(st.integers(0, max_sets)), draw(st.integers(0, max_sets))
    la = draw(st.lists(st.integers(-1, max(0, ka - 1)), min_size=n, max_size=n))
    lb = draw(st.lists(st.integers(-1, max(0, kb - 1)), min_size=n, max_size=n))
    sa = [[m for m in range(n) if la[m] == k] for k in range(ka)]
    sb = [[m for m in range(n) if lb[m] == k] for k in range(kb)]
    if draw(st.booleans()):  # empty sets stay (an empty S) or go
        sa, sb = [s for s in sa if s], [s for s in sb if s]
    return sa, sb


def _names(sets):
    return [f"C{i}" for i in range(len(sets))]


def _check_rows(rows, sa, sb, cost):
    """Every set appears once; L, M, R are those of the sets named."""
    index_a = {f"C{i}": set(s) for i, s in enumerate(sa)}
    index_b = {f"C{i}": set(s) for i, s in enumerate(sb)}
    seen_a = [r.class_a for r in rows if r.class_a != "-"]
    seen_b = [r.class_b for r in rows if r.class_b != "-"]
    assert len(seen_a) == len(set(seen_a)) and len(seen_b) == len(set(seen_b))
    if cost != "opt" or len(sa) >= len(sb):
        assert sorted(seen_a) == sorted(index_a)
    if cost != "opt" or len(sb) >= len(sa):
        assert sorted(seen_b) == sorted(index_b)
    for r in rows:
        a = index_a.get(r.class_a, set())
        b = index_b.get(r.class_b, set())
        assert (r.L, r.M, r.R) == (len(a - b), len(a & b), len(b - a))
    matched = [r for r in rows if r.class_a != "-" and r.class_b != "-"]
    assert len(matched) == min(len(sa), len(sb))


@settings(max_examples=150, deadline=None)
@given(set_lists(), st.sampled_from(COSTS))
def test_same_optimum_as_the_dense_assignment(data, cost):
    sa, sb = data
    ours = match_sets(sa, sb, _names(sa), _names(sb), cost)
    want = dense.match_sets(sa, sb, _names(sa), _names(sb), cost)
    _check_rows(ours, sa, sb, cost)
    got, ref = _objective(ours, cost), _objective(want, cost)
    if cost == "jaccard":
        assert got[0] == pytest.approx(ref[0], abs=1e-9)
        if math.isclose(got[0], ref[0], abs_tol=1e-12):
            assert got[1] == ref[1]
    else:
        assert got == ref


@settings(max_examples=60, deadline=None)
@given(set_lists(max_mentions=12, max_sets=5), st.sampled_from(["symdiff", "opt"]))
def test_optimum_by_brute_force(data, cost):
    """Every assignment tried: minimal cost, then the largest total intersection."""
    sa, sb = data
    ours = _objective(match_sets(sa, sb, _names(sa), _names(sb), cost), cost)
    small, large = (sa, sb) if len(sa) <= len(sb) else (sb, sa)
    best = (math.inf, 0)
    for perm in permutations(range(len(large)), len(small)):
        pairs = [(set(small[i]), set(large[j])) for i, j in enumerate(perm)]
        c = sum(len(a ^ b) for a, b in pairs)
        if cost == "opt":  # the larger side's sets left out cost their size
            c += sum(len(large[j]) for j in set(range(len(large))) - set(perm))
        m = sum(len(a & b) for a, b in pairs)
        best = min(best, (c, -m))
    assert ours == (best[0], -best[1])


# Cases (from random draws) where the balance of the Lagrangian search jumps over zero at one λ:
# the solution comes from walking between the two optimal solutions on either side.
TIES = [
    (
        "opt",
        [[5, 6, 11], [10, 15], [13], [7], [1, 3], [2, 9], [0, 4, 8]],
        [[15], [8, 10], [2, 3, 7], [12], [1, 13]],
    ),
    (
        "symdiff",
        [[4, 7, 14, 18], [], [0, 1, 6, 13], [5, 8, 11, 12, 16, 19]],
        [[0, 2, 8, 11], [13, 16], [1, 3, 10, 14, 19]],
    ),
    (
        "opt",
        [[4, 13, 14, 16], [6], [1, 3, 5, 8, 9, 15]],
        [[3, 11], [1, 4], [0, 5, 10, 16], [8], [2, 6, 7, 13, 14]],
    ),
]


@pytest.mark.parametrize(("cost", "sa", "sb"), TIES)
def test_ties_are_balanced_without_the_dense_assignment(cost, sa, sb, monkeypatch):
    walked = []
    walk = cm._PartnerSearch._walk

    def spy(self, low, high, lam):
        out = walk(self, low, high, lam)
        walked.append(out is not None)
        return out

    def no_dense(ov, cost):
        raise AssertionError("the dense assignment was needed")

    monkeypatch.setattr(cm._PartnerSearch, "_walk", spy)
    monkeypatch.setattr(cm, "_dense_partner", no_dense)
    ours = match_sets(sa, sb, _names(sa), _names(sb), cost)
    want = dense.match_sets(sa, sb, _names(sa), _names(sb), cost)
    assert _objective(ours, cost) == _objective(want, cost)
    assert walked == [True]


@settings(max_examples=40, deadline=None)
@given(set_lists(), st.sampled_from(["symdiff", "opt"]))
def test_the_dense_fallback_gives_the_same_optimum(data, cost):
    sa, sb = data
    ours = _objective(match_sets(sa, sb, _names(sa), _names(sb), cost), cost)
    original = cm._PartnerSearch.run
    cm._PartnerSearch.run = lambda self: None  # as when no λ balances
    try:
        fallback = _objective(match_sets(sa, sb, _names(sa), _names(sb), cost), cost)
    finally:
        cm._PartnerSearch.run = original
    assert fallback == ours


def test_thousands_of_classes():
    rng = np.random.default_rng(5)
    n = 6_000
    a = rng.integers(0, 1_200, n)
    b = np.where(rng.random(n) < 0.85, a, rng.integers(0, 1_000, n))
    sa = [list(np.flatnonzero(a == k)) for k in range(1_200)]
    sb = [list(np.flatnonzero(b == k)) for k in range(1_000)]
    sa, sb = [s for s in sa if s], [s for s in sb if s]
    for cost in COSTS:
        ours = match_sets(sa, sb, _names(sa), _names(sb), cost)
        want = dense.match_sets(sa, sb, _names(sa), _names(sb), cost)
        got, ref = _objective(ours, cost), _objective(want, cost)
        assert got[0] == pytest.approx(ref[0], abs=1e-6) and got[1] == ref[1], cost


def test_unknown_cost_is_refused():
    with pytest.raises(ValueError, match="cost must be one of"):
        match_sets([[1]], [[1]], ["C1"], ["C1"], "hamming")

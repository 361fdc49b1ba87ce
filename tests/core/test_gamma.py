"""Mathet et al.'s γ computed by the core, against pygamma-agreement's recorded results.

The references (``tests/fixtures/gamma/*.json``) were recorded by pygamma-agreement itself (see
``make_reference.py`` there) on the continua beside them (hand-written ones, seeded generated
ones and the bundled spans example; see the README there): the best
alignment and its unitary disorders must be the same, the observed disorder the same sum of
them, and, with the same seed, sampler and precision level, the same sampled continua (their
disorders equal to single precision, as pygamma-agreement stores them), hence the same γ, γ-cat
and γ-k.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.metrics.gamma import gamma
from iaa_desktop.core.metrics.gamma_align import (
    Dissimilarity,
    best_alignment,
    make_continuum,
)
from iaa_desktop.core.metrics.gamma_fast import fast_alignment
from tests.conftest import FIXTURES

GAMMA = FIXTURES / "gamma"
REFERENCES = sorted(GAMMA.glob("*.json"))


def units_of(path: Path) -> list[tuple[str, float, float, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return [(r[0], float(r[2]), float(r[3]), r[1]) for r in csv.reader(f) if r]


def source_of(ref: dict) -> Path:
    return GAMMA / ref["source"]


def dissimilarity_of(ref: dict) -> Dissimilarity:
    """The combined dissimilarity of the recorded run (α = 1 unless recorded otherwise)."""
    return Dissimilarity(alpha=ref.get("alpha", 1.0))


def check_alignment(al, c, ref: dict) -> None:
    assert [list(map(int, t)) for t in al.tuples] == ref["alignment"]
    assert [float(d) for d in al.disorders] == ref["unitary_disorders"]
    total = np.sum(np.array(ref["unitary_disorders"], dtype=np.float32), dtype=np.float32)
    assert al.disorder == float(total) / c.avg_units
    # pygamma-agreement divides in single precision under NumPy 2, in double under NumPy 1
    assert al.disorder == pytest.approx(ref["observed_disorder"], rel=1e-6)


@pytest.mark.parametrize("path", REFERENCES, ids=lambda p: p.stem)
def test_best_alignment_equals_pygamma(path):
    ref = json.loads(path.read_text(encoding="utf-8"))
    c = make_continuum(units_of(source_of(ref)))
    assert list(c.annotators) == ref["annotators"]
    dis = dissimilarity_of(ref)
    al = fast_alignment(c, dis) if ref["fast"] else best_alignment(c, dis)
    check_alignment(al, c, ref)


@pytest.mark.parametrize(
    "path", [p for p in REFERENCES if "gamma" in json.loads(p.read_text())], ids=lambda p: p.stem
)
def test_gamma_equals_pygamma_for_the_same_seed(path):
    ref = json.loads(path.read_text(encoding="utf-8"))
    c = make_continuum(units_of(source_of(ref)))
    r = gamma(
        c,
        dissimilarity_of(ref),
        seed=ref["seed"],
        precision_level=ref["precision_level"],
        sampler=ref["sampler"],
        fast=ref["fast"],
        processes=1,
    )
    check_alignment(r.alignment, c, ref)
    assert r.n_samples == len(ref["chance_disorders"])
    np.testing.assert_allclose(r.chance_disorders, ref["chance_disorders"], rtol=1e-6)
    p = ref["precision_level"]
    assert abs(r.gamma - ref["gamma"]) < 1e-6  # far inside the declared precision
    assert ref["gamma_range"][0] <= r.gamma <= ref["gamma_range"][1] or r.gamma == 1
    assert r.interval == pytest.approx(ref["gamma_range"], abs=1e-6)
    assert r.precision_level == p and r.seed == ref["seed"]
    assert r.gamma_cat == pytest.approx(ref["gamma_cat"], abs=1e-6)
    assert r.gamma_k == pytest.approx(ref["gamma_k"], abs=1e-6)


def test_every_pygamma_reference_is_present():
    """The comparisons above cannot pass vacuously: the recorded runs are there."""
    names = {p.stem for p in REFERENCES}
    assert {
        "three_small",
        "three_small-shuffle",
        "three_small-alpha3",
        "four_small",
        "five_almost_same",
        "three_sparse",
        "two_split",
        "three_by_100",
        "three_by_100-fast",
        "spans_example",
    } <= names
    assert sum("gamma" in json.loads(p.read_text()) for p in REFERENCES) >= 10


# -- invariants ---------------------------------------------------------------------------------

spans = st.tuples(st.integers(0, 60), st.integers(1, 15), st.sampled_from(["a", "b", "c"])).map(
    lambda t: (float(t[0]), float(t[0] + t[1]), t[2])
)
studies = st.lists(
    st.lists(spans, min_size=0, max_size=4, unique_by=lambda u: u),
    min_size=2,
    max_size=3,
).filter(lambda anns: any(anns))


def build(anns, names=None):
    names = names or [f"r{i}" for i in range(len(anns))]
    units = [(names[i], s, e, c) for i, mine in enumerate(anns) for s, e, c in mine]
    return make_continuum(units, annotators=names)


def brute_force(c, dis):
    """Least total disorder over every alignment: all unitary alignments, no pruning."""
    from scipy.optimize import LinearConstraint, milp

    sizes = c.sizes
    n = len(sizes)
    tuples = np.array(list(itertools.product(*[range(s + 1) for s in sizes])), dtype=np.int64)
    tuples = tuples[(tuples < sizes).any(axis=1)]
    costs = np.zeros(len(tuples))
    for a in range(n):
        for b in range(a):
            for k, t in enumerate(tuples):
                if t[a] == sizes[a] or t[b] == sizes[b]:
                    costs[k] += dis.delta_empty
                else:
                    costs[k] += float(
                        dis.pair_values(c, a, np.array([t[a]]), b, np.array([t[b]]))[0]
                    )
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    cover = np.zeros((int(offsets[-1]), len(tuples)))
    for k, t in enumerate(tuples):
        for a in range(n):
            if t[a] < sizes[a]:
                cover[offsets[a] + t[a], k] = 1
    res = milp(
        costs / (n * (n - 1) // 2),
        constraints=LinearConstraint(cover, 1, 1),
        integrality=np.ones(len(tuples)),
        options={"mip_rel_gap": 0},
    )
    return res.fun / c.avg_units


@settings(max_examples=40, deadline=None)
@given(studies)
def test_pruned_programme_finds_the_least_disorder(anns):
    c = build(anns)
    al = best_alignment(c, Dissimilarity())
    assert al.disorder == pytest.approx(brute_force(c, Dissimilarity()), rel=1e-5, abs=1e-7)


@settings(max_examples=40, deadline=None)
@given(studies)
def test_alignment_covers_every_unit_once_within_bounds(anns):
    c = build(anns)
    al = best_alignment(c, Dissimilarity())
    for a, size in enumerate(c.sizes):
        col = al.tuples[:, a]
        assert sorted(col[col < size].tolist()) == list(range(size))
    # between perfect agreement and every unit alone (n·Δ∅)
    assert 0 <= al.disorder <= len(c.annotators) + 1e-6
    assert np.all(al.disorders >= 0) and len(al.tuples) <= c.num_units


@settings(max_examples=25, deadline=None)
@given(studies, st.randoms(use_true_random=False))
def test_observed_disorder_ignores_the_annotators_order(anns, rnd):
    names = ["r0", "r1", "r2"][: len(anns)]
    shuffled = names[:]
    rnd.shuffle(shuffled)
    a = best_alignment(build(anns, names), Dissimilarity())
    b = best_alignment(build(anns, shuffled), Dissimilarity())
    assert a.disorder == pytest.approx(b.disorder, rel=1e-6, abs=1e-9)


@settings(max_examples=10, deadline=None)
@given(st.lists(spans, min_size=1, max_size=5, unique_by=lambda u: u), st.integers(2, 4))
def test_perfect_agreement_has_gamma_one_and_no_disorder(mine, n):
    c = build([mine] * n)
    r = gamma(c, seed=1, precision_level="low", processes=1)
    assert r.observed_disorder == 0 and r.gamma == 1 and r.interval == (1.0, 1.0)
    assert r.gamma_cat == 1


@settings(max_examples=10, deadline=None)
@given(studies, st.integers(0, 2**31 - 1))
def test_gamma_is_reproducible_from_its_seed(anns, seed):
    c = build(anns)
    r1 = gamma(c, seed=seed, precision_level="low", processes=1)
    r2 = gamma(c, seed=seed, precision_level="low", processes=1)
    assert r1.gamma == r2.gamma or (math.isnan(r1.gamma) and math.isnan(r2.gamma))
    assert r1.chance_disorders == r2.chance_disorders and r1.seed == seed


def test_fast_gamma_is_never_below_the_exact_disorder():
    c = make_continuum(units_of(GAMMA / "three_by_100.csv"))
    exact = best_alignment(c, Dissimilarity())
    fast = fast_alignment(c, Dissimilarity(), 3)
    assert fast.disorder >= exact.disorder - 1e-9
    assert fast.disorder == pytest.approx(exact.disorder, rel=0.05)


def test_a_unit_without_length_is_refused():
    with pytest.raises(ValueError, match="no length"):
        make_continuum([("A", 3, 3, "x"), ("B", 1, 2, "x")])


def test_unknown_sampler_and_precision_are_refused():
    c = make_continuum([("A", 0, 3, "x"), ("B", 1, 2, "x")])
    with pytest.raises(ValueError, match="sampler"):
        gamma(c, sampler="nope")
    with pytest.raises(ValueError, match="precision"):
        gamma(c, precision_level=1.5)

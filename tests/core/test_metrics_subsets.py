"""π* and α with the normalized Levenshtein distance over subsets (core/metrics/subsets.py).

Published figures (Fleiss' κ worked example), cross-checks against the project's own coefficient
functions, NLTK's ``AnnotationTask`` (independent) and the ``krippendorff`` package, and
Hypothesis invariants.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from iaa_desktop.core.metrics import fleiss_kappa, percent_agreement
from iaa_desktop.core.metrics.alpha import alpha_strings_from_codes
from iaa_desktop.core.metrics.subsets import (
    SubsetReliability,
    nld_matrix,
    nld_pairs,
    subset_agreements,
)

LABELS = ["", "a", "ab", "b", "abc", "_t", "nte", "ſ"]

FLEISS_ROWS = [
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


def test_fleiss_worked_example_0378_0213_0210():
    """Wikipedia's worked example of Fleiss' κ: P̄ = 0.378, P̄_e = 0.213, κ = 0.210."""
    codes = np.array([[k for k, n in enumerate(r) for _ in range(n)] for r in FLEISS_ROWS])
    a = SubsetReliability(codes, list("12345")).agreement()
    assert a.percent_agreement == pytest.approx(0.378, abs=5e-4)
    assert a.expected_pi == pytest.approx(0.213, abs=5e-4)
    assert a.pi == pytest.approx(0.210, abs=5e-4)
    # one-character labels: NLD is the nominal distance, α nominal of the krippendorff package
    krippendorff = pytest.importorskip("krippendorff")
    ref = krippendorff.alpha(reliability_data=codes.T, level_of_measurement="nominal")
    assert a.alpha_nld == pytest.approx(ref, abs=1e-12)


def test_nld_helpers():
    assert nld_pairs(["gewain", "", "a"], ["weinte", "", ""]).tolist() == [5 / 6, 0.0, 1.0]
    d = nld_matrix(["a", "ab", ""])
    assert d.tolist() == [[0.0, 0.5, 1.0], [0.5, 0.0, 1.0], [1.0, 1.0, 0.0]]
    assert nld_matrix(["a"], ["ab", "abc"]).tolist() == [[0.5, 2 / 3]]


@st.composite
def complete_data(draw, max_items=30, max_ann=5):
    n = draw(st.integers(1, max_items))
    c = draw(st.integers(2, max_ann))
    q = draw(st.integers(1, len(LABELS)))
    codes = draw(arrays(np.int64, (n, c), elements=st.integers(0, q - 1)))
    mask = draw(arrays(np.bool_, (n,)))
    return codes, LABELS[:q], mask


def _same(x: float | None, y: float) -> bool:
    assert x is not None
    return (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(complete_data())
def test_each_subset_equals_the_coefficients_on_that_subset(data):
    codes, labels, mask = data
    got = SubsetReliability(codes, labels).agreement(mask)
    if not mask.any():
        assert got.n_items == 0 and math.isnan(got.pi)
        return
    sub = codes[mask]
    q = len(labels)
    assert got.n_items == int(mask.sum())
    assert _same(got.percent_agreement, percent_agreement(sub, q).value)
    assert _same(got.pi, fleiss_kappa(sub, q).value)
    assert _same(got.alpha_nld, alpha_strings_from_codes(sub, labels).value)


@settings(max_examples=25, deadline=None)
@given(complete_data(max_items=12, max_ann=4))
def test_against_nltk_annotation_task(data):
    """NLTK (avg_Ao, multi-π, α with the same NLD) computes every coefficient independently."""
    from nltk.metrics.agreement import AnnotationTask

    codes, labels, _ = data
    lab = np.asarray(labels, dtype=object)[codes]
    if len({*lab.ravel()}) < 2:
        return  # NLTK divides by zero without variation
    triples = [(str(x), str(i), lab[i, x]) for i in range(len(lab)) for x in range(lab.shape[1])]
    got = SubsetReliability(codes, labels).agreement()
    assert got.percent_agreement == pytest.approx(AnnotationTask(triples).avg_Ao(), abs=1e-9)
    assert got.pi == pytest.approx(AnnotationTask(triples).pi(), abs=1e-9)

    def nld(a, b):
        return float(nld_pairs([a], [b])[0])

    assert got.alpha_nld == pytest.approx(AnnotationTask(triples, distance=nld).alpha(), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(complete_data(), st.randoms(use_true_random=False))
def test_invariants(data, rnd):
    codes, labels, mask = data
    rel = SubsetReliability(codes, labels)
    a = rel.agreement()
    assert 0.0 <= a.percent_agreement <= 1.0
    assert math.isnan(a.pi) or a.pi <= 1.0 + 1e-12
    assert a.alpha_nld is not None and (math.isnan(a.alpha_nld) or a.alpha_nld <= 1.0 + 1e-12)
    # the order of the annotators and of the items changes nothing
    cols = list(range(codes.shape[1]))
    rows = list(range(codes.shape[0]))
    rnd.shuffle(cols)
    rnd.shuffle(rows)
    b = SubsetReliability(codes[rows][:, cols], labels).agreement(mask[rows])
    c = rel.agreement(mask)
    for x, y in ((b.percent_agreement, c.percent_agreement), (b.pi, c.pi)):
        assert _same(x, y)
    assert _same(b.alpha_nld, c.alpha_nld if c.alpha_nld is not None else math.nan)
    # perfect agreement with some variation: every coefficient is 1
    same = np.repeat(codes[:, :1], codes.shape[1], axis=1)
    if len(np.unique(same)) > 1:
        p = SubsetReliability(same, labels).agreement()
        assert p.percent_agreement == 1.0 and p.pi == pytest.approx(1.0)
        assert p.alpha_nld == pytest.approx(1.0)


def test_many_subsets_at_once_and_the_blockwise_expected_disagreement(monkeypatch):
    rng = np.random.default_rng(3)
    codes = rng.integers(0, len(LABELS), size=(200, 4))
    masks = [rng.random(200) < 0.5 for _ in range(6)] + [np.zeros(200, bool)]
    dense = subset_agreements(codes, LABELS, masks)
    # above the dense limit the label × label distances are computed block by block
    import iaa_desktop.core.metrics.subsets as subsets

    monkeypatch.setattr(subsets, "MAX_DENSE_LABELS", 2)
    blocks = subset_agreements(codes, LABELS, masks)
    for x, y in zip(dense, blocks):
        assert _same(x.alpha_nld, y.alpha_nld if y.alpha_nld is not None else math.nan)
        assert _same(x.pi, y.pi)
    assert dense[-1].n_items == 0 and math.isnan(dense[-1].percent_agreement)
    one = SubsetReliability(codes, LABELS, with_alpha=False).agreement(masks[0])
    assert one.alpha_nld is None and one.pi == pytest.approx(dense[0].pi)


def test_pairwise_is_scott_pi_per_pair():
    codes = np.array([[0, 0, 1], [1, 1, 1], [0, 1, 0], [2, 2, 2]])
    agr, pi = SubsetReliability(codes, ["x", "y", "z"]).pairwise()
    assert agr[0, 1] == pytest.approx(0.75) and agr[1, 0] == agr[0, 1]
    assert np.diag(pi).tolist() == [1.0, 1.0, 1.0]
    from iaa_desktop.core.metrics import scott_pi

    assert pi[0, 2] == pytest.approx(scott_pi(codes[:, [0, 2]], 3).value)


def test_rejects_a_flat_array():
    with pytest.raises(ValueError, match="two-dimensional"):
        SubsetReliability(np.zeros(3, dtype=int), ["a"])

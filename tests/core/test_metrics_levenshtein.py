"""The bit-parallel Levenshtein sums of α's expected disagreement against NLTK's edit distance."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.metrics.distance import edit_distance

from iaa_desktop.core.metrics import levenshtein
from iaa_desktop.core.metrics.alpha import (
    alpha_strings_from_codes,
    krippendorff_alpha_strings,
    nld_expected_sums,
)

# Latin with a combining mark, Hebrew, an emoji outside the BMP, and NUL (which NumPy's
# fixed-width strings drop at the end of a string)
ALPHABET = "abé\u0301אב😀\x00"


def _ld_sums(queries, choices, w):
    """Σ_j w[j, k] LD(q_i, c_j) by NLTK."""
    out = np.zeros((w.shape[1], len(queries)))
    for i, q in enumerate(queries):
        for j, c in enumerate(choices):
            out[:, i] += w[j] * edit_distance(q, c)
    return out


def _nld_sum(labels, w):
    d = np.array([[edit_distance(a, b) / max(len(a), len(b), 1) for b in labels] for a in labels])
    return np.einsum("ik,ij,jk->k", w, d, w)


def _fixed(length):
    return st.text(alphabet=ALPHABET, min_size=length, max_size=length)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 10), st.integers(0, 12), st.integers(1, 4), st.data())
def test_uncompiled_kernel_equals_nltk(la, extra, lanes, data):
    """The compiled kernel's arithmetic run in Python on a block of queries of one length, against
    a block of choices (off the diagonal) and against itself (on it), few lanes per pass."""
    lb = la + extra
    queries = data.draw(st.lists(_fixed(la), min_size=1, max_size=9))
    choices = data.draw(st.lists(_fixed(lb), min_size=1, max_size=7))
    labels = queries + choices
    ids = levenshtein.encode_characters(labels, np.array([len(s) for s in labels]))
    qc, cc = ids[: len(queries), :la], ids[len(queries) :, :lb]
    w = np.arange(1.0, 2 * len(labels) + 1).reshape(-1, 2)
    wq, wc = w[: len(queries)], w[len(queries) :]
    got = levenshtein.block_sums(qc, cc, wc, False, levenshtein._block_sums, lanes)
    assert got == pytest.approx(_ld_sums(queries, choices, wc))
    # on the diagonal each pair j < i is skipped, the other triangle of each pass's corner
    # halved: per query the sums differ, weighted over the queries they make Σ_{i<j}
    got = levenshtein.block_sums(qc, qc, wq, True, levenshtein._block_sums, lanes)
    upper = (_ld_sums(queries, queries, wq) * wq.T).sum(axis=1) / 2
    assert (got * wq.T).sum(axis=1) == pytest.approx(upper)


def test_kernel_lane_widths_and_limits():
    assert [levenshtein.lane_dtype(n) for n in (1, 8, 9, 16, 17, 32, 33, 64)] == [
        np.uint8,
        np.uint8,
        np.uint16,
        np.uint16,
        np.uint32,
        np.uint32,
        np.uint64,
        np.uint64,
    ]
    one = np.zeros((1, 65), dtype=np.int32)
    with pytest.raises(ValueError, match="64"):
        levenshtein.block_sums(one, one, np.ones((1, 1)), True, levenshtein._block_sums)


def test_uncompiled_kernel_at_every_lane_width():
    """Queries of 8, 9, 17 and 40 characters: 8-, 16-, 32- and 64-bit lanes."""
    rng = np.random.default_rng(3)
    for la in (8, 9, 17, 40):
        queries = ["".join(rng.choice(list("abc"), la)) for _ in range(3)]
        choices = ["".join(rng.choice(list("abcd"), int(rng.integers(la, 70)))) for _ in range(1)]
        labels = queries + choices
        ids = levenshtein.encode_characters(labels, np.array([len(s) for s in labels]))
        w = np.ones((1, 1))
        got = levenshtein.block_sums(
            ids[:3, :la], ids[3:, : len(choices[0])], w, False, levenshtein._block_sums, 2
        )
        assert got[0].tolist() == [edit_distance(q, choices[0]) for q in queries]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET, max_size=10), min_size=1, max_size=14, unique=True))
def test_expected_sums_of_both_engines_equal_nltk(labels):
    pytest.importorskip("numba")
    w = np.column_stack([np.arange(1.0, len(labels) + 1), np.full(len(labels), 0.5)])
    want = _nld_sum(labels, w)
    for engine in ("rapidfuzz", "bitparallel"):
        assert nld_expected_sums(labels, w, chunk=3, engine=engine) == pytest.approx(want)


def test_long_labels_go_to_rapidfuzz_within_the_bitparallel_engine():
    pytest.importorskip("numba")
    labels = ["", "ab", "b" * 70, "a" * 66 + "b", "c" * 300, "ba"]
    w = np.array([2.0, 1.0, 3.0, 1.0, 1.0, 4.0])
    want = _nld_sum(labels, w[:, None])
    assert nld_expected_sums(labels, w, engine="bitparallel") == pytest.approx(want)


def test_bitparallel_equals_rapidfuzz_over_thousands_of_labels():
    """Several passes of 128 lanes, every lane width, on the diagonal and off it."""
    pytest.importorskip("numba")
    rng = np.random.default_rng(0)
    alphabet = np.array(list("abcdefgäöüßאב"))
    labels = sorted({"".join(rng.choice(alphabet, rng.integers(1, 24))) for _ in range(1500)})
    w = rng.integers(1, 9, (len(labels), 3)).astype(float)
    fast = nld_expected_sums(labels, w, engine="bitparallel")
    ref = nld_expected_sums(labels, w, engine="rapidfuzz")
    assert fast == pytest.approx(ref, rel=1e-13)


def test_unknown_engine():
    with pytest.raises(ValueError, match="engine"):
        nld_expected_sums(["a"], np.ones(1), engine="gpu")


def test_labels_differing_by_a_trailing_nul_stay_distinct():
    """NumPy's fixed-width strings would drop the NUL and merge the two labels."""
    got = krippendorff_alpha_strings([["a", "a\x00"], ["b", "b"], ["a", "a"]]).value
    codes = np.array([[0, 1], [2, 2], [0, 0]])
    assert got == pytest.approx(alpha_strings_from_codes(codes, ["a", "a\x00", "b"]).value)
    assert got != pytest.approx(
        krippendorff_alpha_strings([["a", "a"], ["b", "b"], ["a", "a"]]).value
    )


def test_auto_engine_imports_numba_only_when_one_call_repays_it(monkeypatch):
    from iaa_desktop.core.metrics import alpha

    assert alpha._nld_kernel("auto", alpha.BITPARALLEL_FROM - 1) is None
    assert alpha._nld_kernel("rapidfuzz", 10**6) is None
    with monkeypatch.context() as patch:  # as if numba were not loaded yet (nothing imports it)
        patch.delitem(sys.modules, "numba", raising=False)
        assert alpha._nld_kernel("auto", alpha.BITPARALLEL_IMPORT_FROM - 1) is None
    pytest.importorskip("numba")
    assert alpha._nld_kernel("auto", alpha.BITPARALLEL_FROM) is not None


def test_rapidfuzz_engine_exact_with_large_and_fractional_weights():
    """Single-precision products would round: weights of 2^24 and of thirds."""
    labels = ["ab", "ba", "abc", "x", "xyz", ""]
    for w in (np.array([2.0**24, 3.0, 1.0, 2.0**25, 5.0, 7.0]), np.arange(1, 7) / 3):
        want = _nld_sum(labels, w[:, None])
        got = nld_expected_sums(labels, w, engine="rapidfuzz")
        assert got == pytest.approx(want, rel=1e-14)


def test_without_numba_auto_falls_back_to_rapidfuzz(monkeypatch):
    from iaa_desktop.core.metrics import alpha

    monkeypatch.setitem(sys.modules, "numba", None)  # `import numba` raises ImportError
    levenshtein.block_kernel.cache_clear()
    try:
        assert levenshtein.block_kernel() is None
        assert alpha._nld_kernel("auto", 10**6) is None
        with pytest.raises(RuntimeError, match="numba"):
            alpha._nld_kernel("bitparallel", 10)
    finally:
        levenshtein.block_kernel.cache_clear()

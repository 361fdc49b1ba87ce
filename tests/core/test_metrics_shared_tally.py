"""One count of a study for several coefficients: the shared path gives exactly the figures of the
separate public functions, and the blocked count equals counting the distinct rows directly."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.metrics import (
    aggregate,
    bennett_s,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    multi_kappa,
    pairwise_cohen_kappa,
    per_category_agreement,
    percent_agreement,
    table_coefficients,
    tally,
)
from iaa_desktop.core.metrics.table import TABLE_COEFFICIENTS

tally_module = importlib.import_module("iaa_desktop.core.metrics.tally")


@st.composite
def studies(draw):
    n = draw(st.integers(1, 40))
    c = draw(st.integers(2, 5))
    q = draw(st.integers(1, 5))
    codes = np.array(
        draw(
            st.lists(
                st.lists(st.integers(-1, q - 1), min_size=c, max_size=c), min_size=n, max_size=n
            )
        ),
        dtype=np.int32,
    )
    weights = draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(0, 4), min_size=n, max_size=n).map(np.array),
            st.lists(st.floats(0.1, 3.0), min_size=n, max_size=n).map(np.array),
        )
    )
    return codes, q, weights


def same(a, b):
    """Equal results: every field the same number (NaN equal to NaN)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            same(a[k], b[k])
        return
    if isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
        return
    for field in ("value", "observed", "expected", "n_items", "n_annotators"):
        x, y = getattr(a, field), getattr(b, field)
        assert (isinstance(x, float) and math.isnan(x) and math.isnan(y)) or x == y, field


SEPARATE = {
    "percent_agreement": percent_agreement,
    "fleiss_kappa": fleiss_kappa,
    "multi_kappa": multi_kappa,
    "conger_kappa": conger_kappa,
    "gwet_ac1": gwet_ac1,
    "bennett_s": bennett_s,
}


@settings(max_examples=60, deadline=None)
@given(studies())
def test_shared_tally_equals_the_separate_functions(study):
    codes, q, weights = study
    names = list(TABLE_COEFFICIENTS)
    unweighted = {"pairwise_cohen_kappa", "per_category_agreement"}
    names = [n for n in names if weights is None or n not in unweighted]
    got = table_coefficients(codes, names, q, weights, level="interval")
    for name, fn in SEPARATE.items():
        same(got[name], fn(codes, q, weights))
    same(
        got["krippendorff_alpha"],
        krippendorff_alpha(codes, "interval", n_categories=q, weights=weights),
    )
    if weights is None:
        same(got["pairwise_cohen_kappa"], pairwise_cohen_kappa(codes, q))
        same(got["per_category_agreement"], per_category_agreement(codes, q))


@settings(max_examples=40, deadline=None)
@given(studies())
def test_a_tally_given_to_each_function_equals_its_codes(study):
    codes, q, weights = study
    t = tally(codes, q, weights)
    for fn in SEPARATE.values():
        same(fn(t), fn(codes, q, weights))
    for level in ("nominal", "ordinal", "interval"):
        same(
            krippendorff_alpha(t, level),
            krippendorff_alpha(codes, level, n_categories=q, weights=weights),
        )


@settings(max_examples=40, deadline=None)
@given(studies())
def test_frequency_totals_equal_the_sparse_aggregate(study):
    codes, q, weights = study
    t = tally(codes, q, weights)
    a, b = t.aggregates, aggregate(t)
    for field in ("ms", "ann", "pair_both", "pair_agree", "pair_judged", "pair_x", "pair_y"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    if b.pair_cells is not None:
        np.testing.assert_array_equal(a.pair_cells, b.pair_cells)


def _reference_rows(codes, judged=None, weights=None):
    """Distinct rows (symbols: 0 missing, k + 1, q + 1 judged without value) → total weight."""
    q = int(codes.max()) + 1
    sym = np.where(codes < 0, 0, codes + 1)
    if judged is not None:
        sym = np.where(judged & (codes < 0), q + 1, sym)
    w = np.ones(len(codes)) if weights is None else weights
    out: dict[tuple[int, ...], float] = {}
    for r, wi in zip(map(tuple, sym.tolist()), w.tolist()):
        out[r] = out.get(r, 0.0) + wi
    return {k: v for k, v in out.items() if v > 0}


@pytest.mark.parametrize("weighted", [False, True])
def test_blocked_count_equals_the_distinct_rows(weighted):
    rng = np.random.default_rng(1)
    n = 3 * tally_module._KEY_BLOCK + 17  # several blocks and a short last one
    codes = rng.integers(-1, 4, (n, 4)).astype(np.int64)
    codes[::7, 1] = -5  # any negative code is missing
    judged = rng.random((n, 4)) < 0.2
    weights = rng.integers(0, 3, n).astype(float) if weighted else None
    t = tally(codes, 4, weights, judged)
    got = {tuple(r): f for r, f in zip(t.sym.tolist(), t.freq.tolist())}
    assert got == _reference_rows(np.maximum(codes, -1), judged, weights)


def test_a_bad_code_in_a_later_block_is_an_error():
    codes = np.zeros((2 * tally_module._KEY_BLOCK + 5, 3), dtype=np.int32)
    codes[-1, 2] = 3
    with pytest.raises(ValueError, match="not below the number of categories"):
        tally(codes, 3)


def test_a_tally_refuses_other_categories_or_weights():
    t = tally([[0, 1], [1, 1]], 2)
    with pytest.raises(ValueError, match="2 categories, not 3"):
        fleiss_kappa(t, 3)
    with pytest.raises(ValueError, match="weights"):
        fleiss_kappa(t, None, [1, 1])
    with pytest.raises(ValueError, match="unknown coefficient"):
        table_coefficients(t, ["fleiss"])

r"""Sufficient statistics of coded reliability data: the distinct rows and how often each occurs.

Every coefficient of coded items (percent agreement, Cohen's κ and Scott's π per pair, Fleiss' κ,
multi-κ/Conger's κ, weighted κ, Gwet's AC1/AC2, Bennett's S, Krippendorff's α at every level,
per-category agreement) is a function of the *histogram of distinct item rows*: two items whose
annotators gave the same labels are interchangeable. A study of N items and c annotators is
tallied once:

* each row becomes one integer key, its digits in base q + 2 over the annotators (0 = missing,
  k + 1 = category k, q + 1 = judged without a usable value, e.g. "can't decide");
* one ``bincount`` over at most (q + 2)^c keys (or a sort of the keys when that space is large,
  or a column-by-column compression when it does not fit in 64 bits) gives the distinct rows R
  and their frequencies f_r.

The *multisets* of the rows (which labels an item received, whoever gave them) are tallied again
from the R rows: they carry the per-item counts :math:`n_{ik}` that Fleiss-type and α-type
coefficients need, as an S × q table (dense, or sparse when q is large).

:func:`aggregate` turns row weights W (B × R: the frequencies, or B bootstrap resamples drawn as
multinomial counts over the rows) into the per-resample totals every coefficient is computed
from: multiset weights (B × S), each annotator's label counts (B × c × q) and, per annotator
pair, the co-labelled counts (B × P × (q+2)²; or, for many categories, the agreements and the
two marginals). One sparse product serves all resamples at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from iaa_desktop.core.metrics.coding import n_categories_of

__all__ = ["Aggregates", "Tally", "aggregate", "as_tally", "tally"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: above this many (q + 2)² cells per pair, pairs are kept as agreements + marginals
_MAX_PAIR_CELLS = 4096
#: a dense bincount over the key space is used while the space is at most this large
_MAX_DENSE_KEYS = 1 << 24
#: rows keyed and counted together in the common case (a block's keys stay in the cache)
_KEY_BLOCK = 1 << 15
#: a dense S × q count table is used while it has at most this many cells
_MAX_DENSE_COUNTS = 1 << 22


def _row_keys(sym: npt.NDArray[Any], base: int) -> tuple[IntArray, int, bool]:
    """One int64 key per row of a small-integer matrix: (keys, key space, digits exact).

    Columns are combined as digits in ``base`` while the key space fits in 64 bits; when it
    would overflow, the key so far is replaced by its rank among the distinct keys (at most N)
    and combining goes on, so any number of annotators and categories is handled with a few
    sorts. ``digits exact`` is false once that happened (the keys then no longer decode).
    """
    n, c = sym.shape
    if c == 0:
        return np.zeros(n, dtype=np.int64), 1, True
    key = sym[:, 0].astype(np.int64)
    space, exact = base, True
    for x in range(1, c):
        if space * base >= 1 << 62:
            _, key = np.unique(key, return_inverse=True)
            space, exact = (int(key.max()) + 1 if n else 1), False
        key *= base
        key += sym[:, x]
        space *= base
    return key, space, exact


def _checked(arr: npt.NDArray[Any], q: int) -> npt.NDArray[Any]:
    """``arr`` with every negative code as -1 (missing); an error for a code not below q."""
    if arr.size and int(arr.min()) < -1:
        arr = np.where(arr < 0, -1, arr)
    if arr.size and int(arr.max()) >= q:
        raise ValueError("a code is not below the number of categories")
    return arr


def _distinct(sym: npt.NDArray[Any], base: int) -> tuple[IntArray, IntArray]:
    """Distinct rows: (index of one item per distinct row, item → distinct row)."""
    n = sym.shape[0]
    key, space, _ = _row_keys(sym, base)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    del space
    return first.astype(np.int64), inverse.astype(np.int64).ravel()


@dataclass(frozen=True, eq=False)
class Tally:
    """The distinct rows of reliability data and their frequencies (see the module docstring).

    Attributes
    ----------
    sym : (R, c) row symbols: 0 missing, k + 1 category k, q + 1 judged without a value
    freq : (R,) total weight of the items with that row
    n_categories : q
    ms_of_row : (R,) the multiset (which labels, whoever gave them) of each row
    ms_sym : (S, c) the symbols of each multiset, sorted (judged-without-value as missing)
    """

    sym: npt.NDArray[np.int32]
    freq: FloatArray
    n_categories: int
    ms_of_row: IntArray
    ms_sym: npt.NDArray[np.int32]
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def n_rows(self) -> int:
        return int(self.sym.shape[0])

    @property
    def n_annotators(self) -> int:
        return int(self.sym.shape[1])

    @property
    def base(self) -> int:
        return self.n_categories + 2

    @property
    def n_items(self) -> float:
        return float(self.freq.sum())

    @cached_property
    def pairs(self) -> list[tuple[int, int]]:
        return list(combinations(range(self.n_annotators), 2))

    @property
    def dense_pairs(self) -> bool:
        """Whether pairs are tallied as full (q + 2)² cell tables."""
        return self.base * self.base <= _MAX_PAIR_CELLS

    @cached_property
    def codes(self) -> npt.NDArray[np.int32]:
        """The distinct rows as category codes (-1 missing)."""
        out = self.sym.astype(np.int32) - 1
        out[out >= self.n_categories] = -1
        return out

    # ------------------------------------------------------------------ the multiset table

    @cached_property
    def ms_m(self) -> FloatArray:
        """m_s: number of labels of each multiset."""
        return np.asarray((self.ms_sym > 0).sum(axis=1), dtype=np.float64)

    @cached_property
    def ms_counts(self) -> Any:
        """n_sk: how many labels k each multiset holds (S × q, dense or a sparse CSR array)."""
        s, c = self.ms_sym.shape
        q = self.n_categories
        rows = np.repeat(np.arange(s), c)
        cols = self.ms_sym.ravel().astype(np.int64) - 1
        ok = cols >= 0
        if s * q <= _MAX_DENSE_COUNTS:
            dense = np.zeros((s, max(q, 1)), dtype=np.float64)
            np.add.at(dense, (rows[ok], cols[ok]), 1.0)
            return dense[:, :q]
        from scipy import sparse

        return sparse.csr_array(
            (np.ones(int(ok.sum())), (rows[ok], cols[ok])), shape=(s, q), dtype=np.float64
        )

    @cached_property
    def ms_sum_sq(self) -> FloatArray:
        """Σ_k n_sk² of each multiset (= m_s + 2·number of agreeing label pairs)."""
        sym = self.ms_sym
        out: FloatArray = (sym > 0).sum(axis=1).astype(np.float64)
        c = sym.shape[1]
        for x in range(c):
            for y in range(x + 1, c):
                out += 2.0 * ((sym[:, x] == sym[:, y]) & (sym[:, x] > 0))
        return out

    @cached_property
    def aggregates(self) -> Aggregates:
        """The totals of the data itself (:func:`aggregate` under the frequencies), computed
        once: every coefficient given this tally reads them."""
        totals = _frequency_totals(self)
        if totals is None:
            return aggregate(self)
        return _split(self, totals[0], totals[1])

    def ms_feature(self, name: str, fn: Any) -> Any:
        """A per-multiset feature computed once and kept (``fn(self)``)."""
        if name not in self._cache:
            self._cache[name] = fn(self)
        return self._cache[name]


def tally(
    codes: Any,
    n_categories: int | None = None,
    weights: Any = None,
    judged: Any = None,
) -> Tally:
    """Tally reliability data (N × c codes, -1 missing) into its distinct rows.

    ``weights`` counts item i w_i times (items of weight 0 are left out); ``judged`` (N × c bool)
    marks judgments without a usable value (e.g. "can't decide"), which count as missing for
    every coefficient but as judged for the weights of the weighted Spearman mean.

    >>> t = tally([[0, 0], [0, 0], [1, -1]])
    >>> t.codes.tolist(), t.freq.tolist()
    ([[0, 0], [1, -1]], [2.0, 1.0])
    """
    arr = np.asarray(codes)
    if arr.ndim != 2:
        raise ValueError("reliability data must be a 2-D array: items × annotators")
    n, c = arr.shape
    q = n_categories_of(arr, n_categories)
    base = q + 2
    space = base**c if c else 1
    dense = bool(c) and space <= max(_MAX_DENSE_KEYS // 4, 4 * n) and space <= _MAX_DENSE_KEYS
    if not dense:
        arr = _checked(arr, q)
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    if w is not None and w.shape != (n,):
        raise ValueError("weights must give one value per item")
    if n == 0:
        empty = np.zeros((0, c), dtype=np.int32)
        return Tally(empty, np.zeros(0), q, np.zeros(0, dtype=np.int64), empty)
    jm = None
    if judged is not None:
        jm = np.asarray(judged, dtype=bool) & (arr < 0)
        jm = jm if jm.any() else None
    if dense:
        # the common case: a matrix-vector product gives every row's key (digits code + 1 in
        # base q + 2), a bincount over the key space the distinct rows and their frequencies.
        # Done in blocks of rows that stay in the cache (checked, keyed and counted while
        # there), the product in single precision (BLAS): every key is a whole number below
        # the key space ≤ 2**24, exact in float32; unweighted counts are whole numbers, exact
        # in any order, weighted ones are summed by one bincount over all keys.
        powers = base ** np.arange(c - 1, -1, -1, dtype=np.int64)
        exact32 = arr.dtype.kind in "iub"
        p_arr = (
            powers.astype(np.float32)
            if exact32
            else powers.astype(arr.dtype if arr.dtype.itemsize >= 4 else np.int32)
        )
        offset = int(powers.sum())
        buf = np.empty((min(n, _KEY_BLOCK), c), dtype=np.float32) if exact32 else None
        keys = np.empty(n, dtype=np.int64) if w is not None else None
        hist = np.zeros(space, dtype=np.int64)
        for lo in range(0, n, _KEY_BLOCK):
            block = _checked(arr[lo : lo + _KEY_BLOCK], q)
            if buf is not None:
                b = buf[: len(block)]
                b[...] = block
                key = (b @ p_arr).astype(np.int64)
            else:
                key = block @ p_arr
            key += offset
            if jm is not None:
                key += (jm[lo : lo + _KEY_BLOCK] * ((q + 1) * powers)).sum(axis=1).astype(key.dtype)
            if keys is not None:
                keys[lo : lo + len(key)] = key
            else:
                hist += np.bincount(key, minlength=space)
        if keys is not None:
            hist = np.bincount(keys, weights=w, minlength=space)
        nz = np.flatnonzero(hist > 0)
        freq = hist[nz].astype(np.float64)
        rows = ((nz[:, None] // powers[None, :]) % base).astype(np.int32)
    else:
        sym = arr.astype(np.int64) + 1
        if jm is not None:
            sym[jm] = q + 1
        key, _, _ = _row_keys(sym, base)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        freq = np.bincount(inverse.ravel(), weights=w, minlength=len(first)).astype(np.float64)
        keep = freq > 0
        rows = sym[first[keep]].astype(np.int32)
        freq = freq[keep]
    # multisets: the row's symbols sorted, judged-without-value counted as missing
    ms_rows = np.where(rows > q, 0, rows)
    ms_rows.sort(axis=1)
    ms_first, ms_of_row = _distinct(ms_rows, base)
    return Tally(rows, freq, q, ms_of_row, ms_rows[ms_first].astype(np.int32))


def as_tally(codes: Any, n_categories: int | None = None, weights: Any = None) -> Tally:
    """``codes`` itself when it is a :class:`Tally` (counted already), else :func:`tally` of it.

    A tally carries its categories and item weights: with a tally, ``n_categories`` may only
    repeat its number of categories and ``weights`` must be ``None``.
    """
    if not isinstance(codes, Tally):
        return tally(codes, n_categories, weights)
    if weights is not None:
        raise ValueError("item weights are given to tally(), not beside a tally")
    if n_categories is not None and int(n_categories) != codes.n_categories:
        raise ValueError(f"the tally has {codes.n_categories} categories, not {int(n_categories)}")
    return codes


# ---------------------------------------------------------------------------------------------
# aggregation over row weights


@dataclass(frozen=True, eq=False)
class Aggregates:
    """Totals of B weightings of the rows (B = 1 for the data itself, or B bootstrap resamples).

    ``ms`` (B, S) multiset weights; ``ann`` (B, c, q) each annotator's label counts over all
    items; ``pair_cells`` (B, P, q+2, q+2) co-occurrence of the two annotators' symbols or
    ``None`` when the categories are many, in which case ``pair_both`` (items both labelled),
    ``pair_agree`` (of those, with equal labels), ``pair_judged`` (items both judged),
    ``pair_x`` and ``pair_y`` (B, P, q) (the two annotators' labels on the co-labelled items) hold
    what the coefficients need.
    """

    ms: FloatArray
    ann: FloatArray
    pair_cells: FloatArray | None
    pair_both: FloatArray
    pair_agree: FloatArray
    pair_judged: FloatArray
    pair_x: FloatArray
    pair_y: FloatArray

    @property
    def n_resamples(self) -> int:
        return int(self.ms.shape[0])


def _pair_blocks(t: Tally) -> tuple[list[IntArray], int]:
    """Column index of each row's feature in each pair block, and the width of one block."""
    q, s = t.n_categories, t.base
    out: list[IntArray] = []
    if t.dense_pairs:
        for x, y in t.pairs:
            out.append(t.sym[:, x].astype(np.int64) * s + t.sym[:, y])
        return out, s * s
    return out, 3 + 2 * q


def _compact_pair_columns(t: Tally, x: int, y: int) -> tuple[IntArray, IntArray]:
    """(row, column) of the non-zero features of pair (x, y) in the compact layout.

    Columns: 0 both labelled, 1 equal labels, 2 both judged, 3.. x's label, 3 + q.. y's label.
    """
    q = t.n_categories
    a, b = t.sym[:, x].astype(np.int64), t.sym[:, y].astype(np.int64)
    both = (a > 0) & (a <= q) & (b > 0) & (b <= q)
    judged = (a > 0) & (b > 0)
    r_both = np.flatnonzero(both)
    r_eq = np.flatnonzero(both & (a == b))
    r_j = np.flatnonzero(judged)
    rows = np.concatenate([r_both, r_eq, r_j, r_both, r_both])
    cols = np.concatenate(
        [
            np.zeros(len(r_both), np.int64),
            np.ones(len(r_eq), np.int64),
            np.full(len(r_j), 2, np.int64),
            2 + a[r_both],
            2 + q + b[r_both],
        ]
    )
    return rows, cols


def _feature_matrix(t: Tally) -> tuple[Any, dict[str, tuple[int, int]]]:
    """Sparse R × K indicator matrix of every feature, and the column range of each block."""
    from scipy import sparse

    if "features" in t._cache:
        cached: tuple[Any, dict[str, tuple[int, int]]] = t._cache["features"]
        return cached
    r_n, c, q = t.n_rows, t.n_annotators, t.n_categories
    rows: list[IntArray] = []
    cols: list[IntArray] = []
    spans: dict[str, tuple[int, int]] = {}
    arange = np.arange(r_n, dtype=np.int64)
    offset = 0
    s_n = t.ms_sym.shape[0]
    rows.append(arange)
    cols.append(t.ms_of_row.astype(np.int64))
    spans["ms"] = (0, s_n)
    offset = s_n
    for x in range(c):
        v = (t.sym[:, x] > 0) & (t.sym[:, x] <= q)
        rows.append(arange[v])
        cols.append(offset + x * q + t.sym[v, x].astype(np.int64) - 1)
    spans["ann"] = (offset, offset + c * q)
    offset += c * q
    cells, width = _pair_blocks(t)
    for p, (x, y) in enumerate(t.pairs):
        if t.dense_pairs:
            rows.append(arange)
            cols.append(offset + p * width + cells[p])
        else:
            pr, pc = _compact_pair_columns(t, x, y)
            rows.append(pr)
            cols.append(offset + p * width + pc)
    spans["pairs"] = (offset, offset + len(t.pairs) * width)
    k = offset + len(t.pairs) * width
    r_all, c_all = np.concatenate(rows), np.concatenate(cols)
    mat = sparse.csr_array((np.ones(len(r_all), dtype=np.float32), (c_all, r_all)), shape=(k, r_n))
    t._cache["features"] = (mat, spans)
    return mat, spans


def _split(t: Tally, totals: FloatArray, spans: dict[str, tuple[int, int]]) -> Aggregates:
    """Cut the B × K totals into the named blocks."""
    b_n = totals.shape[0]
    c, q, p_n, s = t.n_annotators, t.n_categories, len(t.pairs), t.base
    lo, hi = spans["ms"]
    ms = totals[:, lo:hi]
    lo, hi = spans["ann"]
    ann = totals[:, lo:hi].reshape(b_n, c, q)
    lo, hi = spans["pairs"]
    block = totals[:, lo:hi]
    if t.dense_pairs:
        cells = block.reshape(b_n, p_n, s, s)
        inner = cells[:, :, 1 : q + 1, 1 : q + 1]
        both = inner.sum(axis=(2, 3))
        agree = np.trace(inner, axis1=2, axis2=3)
        judged = cells[:, :, 1:, 1:].sum(axis=(2, 3))
        return Aggregates(ms, ann, cells, both, agree, judged, inner.sum(axis=3), inner.sum(axis=2))
    blk = block.reshape(b_n, p_n, 3 + 2 * q)
    return Aggregates(
        ms,
        ann,
        None,
        blk[:, :, 0],
        blk[:, :, 1],
        blk[:, :, 2],
        blk[:, :, 3 : 3 + q],
        blk[:, :, 3 + q :],
    )


def _frequency_totals(t: Tally) -> tuple[FloatArray, dict[str, tuple[int, int]]] | None:
    """The (1, K) totals of the frequencies in the layout of :func:`_feature_matrix`, one
    ``bincount`` per block (no sparse matrix to build for a single weighting), or ``None``
    where :func:`aggregate` is used: pairs in the compact layout, or frequencies that are not
    whole numbers (sums of whole numbers are exact in any order, so both ways agree)."""
    f = t.freq
    if not t.dense_pairs or not (float(f.sum()) < 2**53 and bool(np.array_equal(f, np.round(f)))):
        return None
    c, q = t.n_annotators, t.n_categories
    s_n = int(t.ms_sym.shape[0])
    blocks = [np.bincount(t.ms_of_row, weights=f, minlength=s_n)[:s_n]]
    for x in range(c):
        col = t.sym[:, x]
        v = (col > 0) & (col <= q)
        blocks.append(np.bincount(col[v].astype(np.int64) - 1, weights=f[v], minlength=q)[:q])
    cells, width = _pair_blocks(t)
    for cell in cells:
        blocks.append(np.bincount(cell, weights=f, minlength=width)[:width])
    totals = np.concatenate([np.asarray(b, dtype=np.float64) for b in blocks])[None, :]
    a_n = s_n + c * q
    spans = {"ms": (0, s_n), "ann": (s_n, a_n), "pairs": (a_n, a_n + len(cells) * width)}
    return totals, spans


def aggregate(t: Tally, weights: Any = None) -> Aggregates:
    """Totals of every feature under row weights (R,) or (B, R); default: the frequencies.

    For B weightings one sparse product (features × weights) computes all of them: its cost is
    the number of non-zero features (R·(P + c + 1)) times B.
    """
    w = t.freq if weights is None else np.asarray(weights)
    w2 = w[None, :] if w.ndim == 1 else w
    if w2.shape[1] != t.n_rows:
        raise ValueError("weights must give one value per distinct row")
    mat, spans = _feature_matrix(t)
    # counts up to 2**24 are exact in single precision, which halves the memory traffic
    if np.issubdtype(w2.dtype, np.integer):
        exact32 = int(w2.sum(axis=1).max(initial=0)) < 2**24 and int(w2.min(initial=0)) >= 0
    else:
        exact32 = float(np.abs(w2).sum(axis=1).max(initial=0.0)) < 2**24 and bool(
            np.array_equal(w2, np.round(w2))
        )
    wt = np.ascontiguousarray(w2.T, dtype=np.float32 if exact32 else np.float64)
    m = mat if exact32 else mat.astype(np.float64)
    totals = np.asarray(m @ wt, dtype=np.float64).T
    return _split(t, totals, spans)


def resample_rows(
    t: Tally, n_resamples: int, rng: np.random.Generator, chunk: int | None = None
) -> list[IntArray]:
    """Bootstrap resamples of the items as multinomial counts over the distinct rows.

    Drawing N items with replacement and tallying them is the same distribution as drawing the
    row counts from Multinomial(N, f / N) (Efron & Tibshirani 1993, resampling cases), at a cost
    independent of N. Returned in chunks of at most ``chunk`` resamples (bounded memory).
    """
    n = int(round(t.n_items))
    r_n = t.n_rows
    if n == 0 or r_n == 0 or n_resamples <= 0:
        return []
    p = t.freq / t.freq.sum()
    size = chunk or max(1, min(n_resamples, (1 << 23) // max(r_n, 1)))
    out: list[IntArray] = []
    left = n_resamples
    while left > 0:
        b = min(size, left)
        out.append(rng.multinomial(n, p, size=b))
        left -= b
    return out


def log_key_space(t: Tally) -> float:
    """log2 of the row key space (for diagnostics and benchmarks)."""
    return t.n_annotators * math.log2(t.base) if t.n_annotators else 0.0

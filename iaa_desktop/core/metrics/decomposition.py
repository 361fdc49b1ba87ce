"""Multi-label agreement and the whether/which decomposition (Levi & Shenhav 2022), vectorised.

Each annotator gives each item a subset of ``k`` labels, written as a ``k``-bit *code* whose
leftmost bit is the first label (``101`` = first and third label). For a pair of annotators
everything follows from their ``K × K`` joint count matrix ``J`` (``K = 2**k``):
``J[a, b]`` = number of items on which the first annotator chose code ``a`` and the second
code ``b``.

A *decomposition* is a partition of the ``K`` codes into two non-empty sets ``S1``, ``S2``. It
defines the binary label ``C_S1`` (0 when the code is in ``S1``). The *first level* is Cohen's κ
on ``C_S1``; the *second level* is, per label, Cohen's κ on "has the label" over only the items
on which the pair agrees on ``C_S1``. There are ``2**(K - 1) - 1`` partitions (127 for k = 3).

Every quantity needed is a bilinear form in the partition's indicator vector ``s``
(``s_a = 1`` when code ``a`` is in ``S1``) and the joint counts, so all partitions of all pairs
are computed with a handful of matrix products, never by filtering items per partition:

* ``q(f, g) = s^T diag(f) J diag(g) s`` (both annotators' codes in ``S1``),
* ``r(f, g) = s^T diag(f) J g`` and ``c(f, g) = f^T J diag(g) s`` (one of them in ``S1``),
* ``t(f, g) = f^T J g``,

with ``f, g`` either the all-ones vector or ``e_j`` (``e_j[a] = 1`` when code ``a`` has label
``j``). Restricted to the items where the pair agrees on ``C_S1`` (both in ``S1`` or both in
``S2``), a count is ``R(f, g) = 2 q + t − r − c``.

This module is pure numpy and imports nothing else from the project.

References
----------
Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and Psychological
Measurement* 20(1), 37–46.
Levi, E. & Shenhav, S. R. (2022). A decomposition-based approach for evaluating and analyzing
inter-annotator disagreement. (Levi & Shenhav 2022.)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "DecompositionArrays",
    "bit_matrix",
    "bounded_partitions",
    "canonical_partitions",
    "code_string",
    "decompose",
    "exhaustive_partitions",
    "joint_counts",
    "kappa_from_counts",
    "largest_bound",
    "n_bounded_partitions",
    "n_partitions",
    "per_label_agreement",
    "rank_order",
    "search_partitions",
]

#: above this many items the float32 fast path could lose exactness (24-bit mantissa)
_FLOAT32_LIMIT = 2**24


def code_string(code: int, k: int) -> str:
    """The code as ``k`` bits, first label leftmost: ``code_string(5, 3) == '101'``."""
    return format(int(code), f"0{k}b")


def bit_matrix(k: int) -> NDArray[Any]:
    """``E[a, j] = 1`` when code ``a`` has label ``j`` (label 0 = leftmost bit); shape (2**k, k)."""
    codes = np.arange(2**k)[:, None]
    shifts = (k - 1 - np.arange(k))[None, :]
    return np.asarray((codes >> shifts) & 1, dtype=np.int64)


def n_partitions(k: int) -> int:
    """Number of decompositions of ``2**k`` codes: ``2**(2**k − 1) − 1`` (127 for k = 3)."""
    return int(2 ** (2**k - 1) - 1)


def n_bounded_partitions(k: int, max_size: int) -> int:
    """Number of partitions whose smaller side ``S1`` has at most ``max_size`` codes."""
    n_codes = 2**k
    total = 0
    for j in range(1, min(max_size, n_codes // 2) + 1):
        c = math.comb(n_codes, j)
        total += c // 2 if 2 * j == n_codes else c
    return total


def largest_bound(k: int, budget: int = 50_000) -> int:
    """The largest ``|S1|`` bound whose number of partitions stays within ``budget`` (≥ 1)."""
    b = 1
    while b < 2 ** (k - 1) and n_bounded_partitions(k, b + 1) <= budget:
        b += 1
    return b


def canonical_partitions(s1: NDArray[Any]) -> NDArray[Any]:
    """Put each partition in canonical form: ``S1`` is the smaller side; on a tie, the side
    holding code 0 (so ``{000}`` and the paper's tables read as they do there).

    Parameters
    ----------
    s1 : bool array (P, K), ``True`` where the code is in one side of the partition.
    """
    s1 = np.asarray(s1, dtype=bool)
    n_codes = s1.shape[1]
    size = s1.sum(axis=1)
    flip = (2 * size > n_codes) | ((2 * size == n_codes) & ~s1[:, 0])
    return np.where(flip[:, None], ~s1, s1)


def _sorted_partitions(s1: NDArray[Any]) -> NDArray[Any]:
    """Order by ``|S1|``, then lexicographically by the codes in ``S1``."""
    if len(s1) == 0:
        return s1
    keys = [~s1[:, a] for a in range(s1.shape[1] - 1, -1, -1)] + [s1.sum(axis=1)]
    return np.asarray(s1[np.lexsort(keys)])


@lru_cache(maxsize=8)
def _exhaustive_cached(k: int) -> NDArray[Any]:
    n_codes = 2**k
    if n_codes > 24:
        raise ValueError(f"{n_partitions(k):,} partitions for k = {k}: too many to enumerate")
    # every non-empty subset of the codes 1..K−1; its complement holds code 0
    m = np.arange(1, 2 ** (n_codes - 1), dtype=np.int64)
    side = np.zeros((len(m), n_codes), dtype=bool)
    side[:, 1:] = ((m[:, None] >> np.arange(n_codes - 1)[None, :]) & 1).astype(bool)
    out = _sorted_partitions(canonical_partitions(side))
    out.setflags(write=False)
    return out


def exhaustive_partitions(k: int) -> NDArray[Any]:
    """All ``2**(2**k − 1) − 1`` partitions as a read-only bool array (P, 2**k) of ``S1``.

    Sorted by ``|S1|`` then by codes; only for ``k ≤ 4`` (32,767 partitions).
    """
    return _exhaustive_cached(int(k))


def bounded_partitions(k: int, max_size: int) -> NDArray[Any]:
    """Every partition with ``1 ≤ |S1| ≤ max_size`` (``S1`` the smaller side), bool (P, 2**k)."""
    n_codes = 2**k
    max_size = max(1, min(int(max_size), n_codes // 2))
    blocks = []
    for j in range(1, max_size + 1):
        combos = np.fromiter(
            itertools.chain.from_iterable(itertools.combinations(range(n_codes), j)),
            dtype=np.int64,
        ).reshape(-1, j)
        block = np.zeros((len(combos), n_codes), dtype=bool)
        np.put_along_axis(block, combos, True, axis=1)
        if 2 * j == n_codes:  # both halves appear: keep the one holding code 0
            block = block[block[:, 0]]
        blocks.append(block)
    return _sorted_partitions(np.concatenate(blocks)) if blocks else np.zeros((0, n_codes), bool)


def joint_counts(codes_x: NDArray[Any], codes_y: NDArray[Any], k: int) -> NDArray[Any]:
    """Joint count matrix (2**k, 2**k) of two annotators' codes over items both labelled.

    Negative codes are missing and left out.
    """
    codes_x = np.asarray(codes_x, dtype=np.int64)
    codes_y = np.asarray(codes_y, dtype=np.int64)
    both = (codes_x >= 0) & (codes_y >= 0)
    n_codes = 2**k
    flat = codes_x[both] * n_codes + codes_y[both]
    return np.bincount(flat, minlength=n_codes * n_codes).reshape(n_codes, n_codes)


def kappa_from_counts(
    n: NDArray[Any], n11: NDArray[Any], n1x: NDArray[Any], n1y: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    r"""Cohen's κ of binary labels from counts, vectorised over any shape.

    .. math::
        \kappa = \frac{A_o - A_e}{1 - A_e}, \quad
        A_o = \frac{n_{11} + n_{00}}{n}, \quad
        A_e = \frac{n_{1\cdot} n_{\cdot 1} + n_{0\cdot} n_{\cdot 0}}{n^2}

    computed as ``(n (n11 + n00) − e) / (n² − e)`` with ``e = n1x·n1y + (n − n1x)(n − n1y)`` so
    integer counts stay exact in float64 (up to about 9·10⁷ items).

    Parameters
    ----------
    n : number of items; n11 : items both say 1; n1x, n1y : items each annotator says 1.

    Returns
    -------
    kappa, observed, expected : float arrays; NaN where κ is undefined (``A_e = 1`` or ``n = 0``).

    References
    ----------
    Cohen (1960); Artstein & Poesio (2008), example 1: counts (0,0)=20 (0,1)=10 (1,0)=20
    (1,1)=50 give κ = 0.348.

    >>> k, _, _ = kappa_from_counts(np.array(100.), np.array(50.), np.array(70.), np.array(60.))
    >>> round(float(k), 3)
    0.348
    """
    n = np.asarray(n, dtype=np.float64)
    n11 = np.asarray(n11, dtype=np.float64)
    n1x = np.asarray(n1x, dtype=np.float64)
    n1y = np.asarray(n1y, dtype=np.float64)
    agree = n - n1x - n1y + 2.0 * n11
    chance = n1x * n1y + (n - n1x) * (n - n1y)
    den = n * n - chance
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = np.where(den > 0, (n * agree - chance) / np.where(den > 0, den, 1.0), np.nan)
        observed = np.where(n > 0, agree / np.where(n > 0, n, 1.0), np.nan)
        expected = np.where(n > 0, chance / np.where(n > 0, n * n, 1.0), np.nan)
    return kappa, observed, expected


def per_label_agreement(joint: NDArray[Any], k: int) -> dict[str, NDArray[Any]]:
    """Per-label percent agreement and Cohen's κ of one pair from its joint count matrix.

    For label j, "has label j" is compared over every item of the pair.

    Returns
    -------
    dict with arrays of length k: ``percent_agreement`` (share of items, 0..1, NaN when
    there are no items), ``kappa`` (NaN when undefined), ``expected``, ``n11``, ``n1x``, ``n1y``;
    and scalars ``n_items`` and ``exact_set_agreement`` (share of items with the same code).
    """
    joint = np.asarray(joint, dtype=np.float64)
    e = bit_matrix(k).astype(np.float64)
    n = joint.sum()
    n11 = np.einsum("aj,ab,bj->j", e, joint, e)
    n1x = e.T @ joint.sum(axis=1)
    n1y = e.T @ joint.sum(axis=0)
    exact = float(np.trace(joint) / n) if n > 0 else float("nan")
    return label_agreement_from_counts(float(n), n11, n1x, n1y, exact)


def label_agreement_from_counts(
    n: float, n11: NDArray[Any], n1x: NDArray[Any], n1y: NDArray[Any], exact: float
) -> dict[str, Any]:
    """The figures of :func:`per_label_agreement` from the per-label counts of one pair."""
    kappa, observed, expected = kappa_from_counts(np.full(len(n11), n), n11, n1x, n1y)
    return {
        "percent_agreement": observed,
        "kappa": kappa,
        "expected": expected,
        "n11": n11,
        "n1x": n1x,
        "n1y": n1y,
        "n_items": int(n),
        "exact_set_agreement": exact,
    }


@dataclass(frozen=True, slots=True)
class DecompositionArrays:
    """First and second level of many partitions for many pairs.

    Attributes
    ----------
    first : (m, P) κ on ``C_S1`` per pair and partition (NaN = undefined)
    second : (m, P, k) per-label κ on the items where the pair agrees on ``C_S1``
    n_items : (m,) items of each pair
    n_agree : (m, P) items on which the pair agrees on ``C_S1`` (the second level's items)
    """

    first: NDArray[Any]
    second: NDArray[Any]
    n_items: NDArray[Any]
    n_agree: NDArray[Any]


def decompose(joints: NDArray[Any], s1: NDArray[Any], chunk: int = 65_536) -> DecompositionArrays:
    """First- and second-level κ for every pair and every partition, from joint counts only.

    Parameters
    ----------
    joints : (m, K, K) integer joint count matrices, one per annotator pair (K = 2**k)
    s1 : (P, K) bool, ``True`` where the code is in ``S1``
    chunk : partitions per block (bounds the memory of the intermediate products)

    Notes
    -----
    With the indicator ``s`` of ``S1`` and ``F = [1, e_1 … e_k]`` (K × (k+1)), the products
    ``M = S · [diag(F_f) J]_f`` then ``(M ∘ S) · F`` give every ``q(f, g)`` for all partitions in
    two matrix products; ``r`` and ``c`` are one product each with precomputed vectors. See the
    module docstring for the formulas. Cost: O(P · K² · (k+1) · m).
    """
    joints = np.asarray(joints)
    if joints.ndim == 2:
        joints = joints[None]
    m, n_codes, _ = joints.shape
    k = int(round(math.log2(n_codes)))
    s1 = np.asarray(s1, dtype=bool)
    n_part = s1.shape[0]
    big = joints.reshape(m, -1).sum(axis=1).max(initial=0) >= _FLOAT32_LIMIT
    dtype = np.float64 if big else np.float32  # float32 sums of counts < 2**24 are exact

    f = np.concatenate([np.ones((n_codes, 1)), bit_matrix(k)], axis=1)  # (K, k+1)
    jf = joints.astype(np.float64)
    # the (f, g) index pairs needed: (1,1), then (e_j,1), (1,e_j), (e_j,e_j) for every label j
    lab = np.arange(1, k + 1)
    fi = np.concatenate([[0], lab, np.zeros(k, dtype=int), lab])
    gi = np.concatenate([[0], np.zeros(k, dtype=int), lab, lab])
    n_sel = len(fi)
    # diag(F_f) J for each pair and f, laid side by side: (K, m·(k+1)·K)
    jcat = f.T[None, :, :, None] * jf[:, None, :, :]  # (m, k+1, K[a], K[b])
    jcat = np.ascontiguousarray(jcat.transpose(2, 0, 1, 3).reshape(n_codes, -1), dtype=dtype)
    # r(f, g) = s · (F_f ∘ (J F)_g) and c(f, g) = s · ((Jᵀ F)_f ∘ F_g), only the needed (f, g)
    jf_f = jf @ f  # (m, K, k+1)
    jtf = np.swapaxes(jf, 1, 2) @ f  # (m, K, k+1)
    v_row = f[None, :, fi] * jf_f[:, :, gi]  # (m, K, n_sel)
    v_col = jtf[:, :, fi] * f[None, :, gi]  # (m, K, n_sel)
    v = np.stack([v_row, v_col], axis=2)  # (m, K, 2, n_sel)
    v = np.ascontiguousarray(v.transpose(1, 0, 2, 3).reshape(n_codes, -1), dtype=dtype)
    tot = np.einsum("af,mab,bg->mfg", f, jf, f)[:, fi, gi]  # (m, n_sel)
    f_d = f.astype(dtype)

    first = np.empty((m, n_part))
    second = np.empty((m, n_part, k))
    n_agree = np.empty((m, n_part))
    for start in range(0, n_part, chunk):
        t = s1[start : start + chunk].astype(dtype)  # (p, K)
        p = len(t)
        # q(f, g) for all f, g: one product for M = S·[diag(F_f) J], one for (M ∘ S)·F
        y = (t @ jcat).reshape(p, m * (k + 1), n_codes)
        y *= t[:, None, :]
        q = (y.reshape(-1, n_codes) @ f_d).reshape(p, m, k + 1, k + 1)[:, :, fi, gi]
        lin = (t @ v).reshape(p, m, 2, n_sel)
        q = q.astype(np.float64)
        r = lin[:, :, 0].astype(np.float64)
        c = lin[:, :, 1].astype(np.float64)
        sl = slice(start, start + p)
        first[:, sl] = _kappa(tot[None, :, 0], q[..., 0], r[..., 0], c[..., 0]).T
        agreed = 2.0 * q + tot[None] - r - c  # counts over the items agreeing on C_S1
        n_agree[:, sl] = agreed[..., 0].T
        sec = _kappa(
            agreed[..., :1],
            agreed[..., 2 * k + 1 :],
            agreed[..., 1 : k + 1],
            agreed[..., k + 1 : 2 * k + 1],
        )  # (p, m, k)
        second[:, sl, :] = sec.transpose(1, 0, 2)
    n_items = tot[:, 0].astype(np.int64)
    for arr in (first, second, n_agree, n_items):
        arr.setflags(write=False)  # results are handed to other threads
    return DecompositionArrays(first=first, second=second, n_items=n_items, n_agree=n_agree)


def _kappa(
    n: NDArray[Any], n11: NDArray[Any], n1x: NDArray[Any], n1y: NDArray[Any]
) -> NDArray[Any]:
    """κ only (see :func:`kappa_from_counts`), with fewer temporaries for the inner loop."""
    chance = n1x * n1y + (n - n1x) * (n - n1y)
    den = n * n - chance
    num = n * (n - n1x - n1y + 2.0 * n11) - chance
    with np.errstate(divide="ignore", invalid="ignore"):
        out: NDArray[Any] = num / den
    out[den <= 0] = np.nan
    return out


def mean_strict(values: NDArray[Any], axis: int | tuple[int, ...]) -> NDArray[Any]:
    """Mean that is NaN as soon as one value is undefined (Levi & Shenhav 2022)."""
    return np.asarray(np.mean(values, axis=axis))


def mean_defined(values: NDArray[Any], axis: int | tuple[int, ...]) -> NDArray[Any]:
    """Mean over the defined (non-NaN) values only; NaN when none is defined."""
    values = np.asarray(values, dtype=np.float64)
    ok = ~np.isnan(values)
    count = ok.sum(axis=axis)
    total = np.where(ok, values, 0.0).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.where(count > 0, count, 1), np.nan)


def rank_order(values: NDArray[Any], descending: bool = False) -> NDArray[Any]:
    """Indices sorting ``values`` (ascending or descending), undefined (NaN) last, stable."""
    values = np.asarray(values, dtype=np.float64)
    key = -values if descending else values
    key = np.where(np.isnan(key), np.inf, key)
    return np.asarray(np.lexsort((np.arange(len(values)), np.isnan(values).astype(int), key)))


def _scores(dec: DecompositionArrays, criterion: str) -> NDArray[Any]:
    """Score to *minimise* for the search: first level, or minus the second-level average."""
    if criterion == "first":
        s = mean_strict(dec.first, axis=0)
    else:
        s = -mean_strict(dec.second, axis=(0, 2))
    return np.where(np.isnan(s), np.inf, s)


def search_partitions(
    joints: NDArray[Any],
    criterion: str,
    beam: int = 24,
    top: int = 20,
    max_rounds: int = 64,
    starts: Iterable[Sequence[int]] | None = None,
) -> tuple[NDArray[Any], int]:
    """Beam search for the best partitions without enumerating them all (for k ≥ 5).

    Starts from every single code (and the given ``starts``, lists of codes in ``S1``); each
    round flips every code of every partition in the beam, evaluates the new partitions in one
    vectorised :func:`decompose` call and keeps the ``beam`` best. Stops when the beam no longer
    changes.

    Parameters
    ----------
    joints : (m, K, K) joint counts of the pairs
    criterion : ``"first"`` (lowest mean first-level κ) or ``"second"`` (highest mean
        second-level average)

    Returns
    -------
    s1 : bool (≤ top, K) the best partitions found, best first
    n_evaluated : number of distinct partitions evaluated
    """
    if criterion not in ("first", "second"):
        raise ValueError("criterion must be 'first' or 'second'")
    joints = np.asarray(joints)
    if joints.ndim == 2:
        joints = joints[None]
    n_codes = joints.shape[1]
    init = np.eye(n_codes, dtype=bool)
    if starts:
        extra = np.zeros((0, n_codes), dtype=bool)
        rows = []
        for codes in starts:
            row = np.zeros(n_codes, dtype=bool)
            row[list(codes)] = True
            if 0 < row.sum() < n_codes:
                rows.append(row)
        if rows:
            extra = np.array(rows)
        init = np.concatenate([init, extra])
    seen: dict[bytes, float] = {}
    store: dict[bytes, NDArray[Any]] = {}

    def evaluate(cands: NDArray[Any]) -> None:
        cands = canonical_partitions(cands)
        keep = [i for i, row in enumerate(cands) if row.tobytes() not in seen]
        if not keep:
            return
        cands = np.unique(cands[keep], axis=0)
        sc = _scores(decompose(joints, cands), criterion)
        for row, score in zip(cands, sc):
            seen[row.tobytes()] = float(score)
            store[row.tobytes()] = row

    def best(n: int) -> list[bytes]:
        return sorted(seen, key=lambda b: (seen[b], b))[:n]

    evaluate(init)
    frontier = best(beam)
    for _ in range(max_rounds):
        current = np.array([store[b] for b in frontier])
        flips = current[:, None, :] ^ np.eye(n_codes, dtype=bool)[None]
        flips = flips.reshape(-1, n_codes)
        size = flips.sum(axis=1)
        evaluate(flips[(size > 0) & (size < n_codes)])
        new_frontier = best(beam)
        if new_frontier == frontier:
            break
        frontier = new_frontier
    winners = best(top)
    return np.array([store[b] for b in winners]).reshape(-1, n_codes), len(seen)

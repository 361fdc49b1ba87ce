r"""Weighted sums of Levenshtein distances over every pair of two label sets, bit-parallel.

The expected disagreement of α with a string distance needs
:math:`\sum_{c,k} w_c w_k\,\mathrm{LD}(c, k)` over every pair of distinct labels: for a block of
labels of one length (the queries, at most 64 characters) against a block of labels of another
(the choices), this module computes :math:`\mathrm{acc}_{k,i} = \sum_j W_{jk}\,\mathrm{LD}(q_i,
c_j)` without materialising the distance matrix.

Each query is a bit vector (one bit per character, Myers 1999), and the distance of a query to a
choice is the bit-parallel recurrence of Hyyrö (2003) for the Levenshtein distance, run over the
choice's characters. Many queries are processed at once, one per lane of a vector of unsigned
integers as narrow as the query length allows (8 bits up to 8 characters, then 16, 32, 64):
the lane loop is compiled with numba and vectorised by LLVM, so one machine instruction advances
dozens of query–choice pairs by one character. Characters are first numbered densely (the
distance only compares characters), so the pattern table of a block has one row per character
of the block whatever the script.

References: Myers, G. (1999). A fast bit-vector algorithm for approximate string matching based
on dynamic programming. *Journal of the ACM* 46(3), 395–415. Hyyrö, H. (2003). A bit-vector
algorithm for computing Levenshtein and Damerau edit distances. *Nordic Journal of Computing*
10(1), 29–39.

numba is optional (the ``speed`` extra): :func:`block_kernel` returns ``None`` when it is not
installed, and callers use rapidfuzz's ``cdist`` instead (the same distances, slower).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: queries per pass of the kernel (two 512-bit vectors of 8-bit lanes)
LANES = 128
#: the longest query a 64-bit lane holds
MAX_QUERY = 64
#: a lane's running distance never exceeds the longer length; 8-bit lanes bound it
MAX_CHOICE = 255


def lane_dtype(query_length: int) -> type[np.unsignedinteger[Any]]:
    """The narrowest unsigned integer with one bit per query character (≤ 64 characters)."""
    if query_length <= 8:
        return np.uint8
    if query_length <= 16:
        return np.uint16
    if query_length <= 32:
        return np.uint32
    return np.uint64


def encode_characters(labels: Sequence[str], lengths: NDArray[np.int64]) -> NDArray[np.int32]:
    """(q, max length) dense character numbers of each label; beyond its length: anything.

    Equal characters get equal numbers and different ones different numbers, which is all the
    Levenshtein distance looks at. (NumPy's fixed-width strings drop trailing NULs; a NUL is code
    point 0 like the padding, and only the first ``len(label)`` positions are ever read.)
    """
    width = max(int(lengths.max()), 1)
    points = np.array(list(labels), dtype=f"<U{width}").view(np.uint32).reshape(-1, width)
    _, ids = np.unique(points, return_inverse=True)
    return np.ascontiguousarray(ids.reshape(points.shape), dtype=np.int32)


def _block_sums(
    lane: Any, qc: Any, cc: Any, wc: Any, diag: bool, lanes: int
) -> Any:  # pragma: no cover - compiled by numba (the same code runs uncompiled in the tests)
    """acc[k, i] = Σ_j wc[j, k] LD(q_i, c_j); with ``diag`` (queries = choices) only j ≥ the
    first query of i's pass, the square corner of each pass counted half.

    Every intermediate is cast back to the lane type ``T`` so that LLVM keeps the lane loop in
    lanes of that width (numba computes integer expressions at 64 bits otherwise).
    """
    T = lane
    nq, la = qc.shape
    nc, lb = cc.shape
    n_k = wc.shape[1]
    last = T(T(1) << T(la - 1))
    n_alpha = max(qc.max(), cc.max()) + 1
    acc = np.zeros((n_k, nq))
    pm = np.zeros((n_alpha, lanes), dtype=T)
    vp = np.empty(lanes, dtype=T)
    vn = np.empty(lanes, dtype=T)
    sc = np.empty(lanes, dtype=T)
    part = np.empty((n_k, lanes))
    for i0 in range(0, nq, lanes):
        nb = min(lanes, nq - i0)
        for b in range(nb):
            for t in range(la):
                pm[qc[i0 + b, t], b] |= T(T(1) << T(t))
        part[:] = 0.0
        for j in range(i0 if diag else 0, nc):
            vp[:] = T(~T(0))
            vn[:] = 0
            sc[:] = la
            for t in range(lb):
                c = cc[j, t]
                for b in range(lanes):
                    x = T(pm[c, b] | vn[b])
                    v = vp[b]
                    d0 = T(T(T(T(x & v) + v) ^ v) | x)
                    hp = T(vn[b] | T(~T(d0 | v)))
                    hn = T(v & d0)
                    # ± the last row's bit: min(bit & h, 1), no shift (there is no 8-bit
                    # vector shift: LLVM would widen the lanes to 64 bits)
                    up, down = T(min(T(hp & last), T(1))), T(min(T(hn & last), T(1)))
                    sc[b] = T(T(sc[b] + up) - down)
                    x = T(T(hp << T(1)) | T(1))
                    vn[b] = T(x & d0)
                    vp[b] = T(T(hn << T(1)) | T(~T(x | d0)))
            half = 0.5 if diag and j < i0 + lanes else 1.0
            for k in range(n_k):
                wk = wc[j, k] * half
                for b in range(lanes):
                    part[k, b] += wk * sc[b]
        for k in range(n_k):
            for b in range(nb):
                acc[k, i0 + b] = part[k, b]
        for b in range(nb):  # clear only the rows this pass set
            for t in range(la):
                pm[qc[i0 + b, t], b] = 0
    return acc


Kernel = Callable[[Any, NDArray[np.int32], NDArray[np.int32], NDArray[np.float64], bool, int], Any]


@functools.lru_cache(maxsize=1)
def block_kernel() -> Kernel | None:
    """:func:`_block_sums` compiled by numba (cached on disk, GIL released), or ``None``."""
    try:
        import numba
    except (ImportError, AttributeError):  # not installed, or an install that fails to import
        return None
    compiled: Kernel = numba.njit(cache=True, nogil=True)(_block_sums)
    return compiled


def block_sums(
    qc: NDArray[np.int32],
    cc: NDArray[np.int32],
    wc: NDArray[np.float64],
    diag: bool,
    kernel: Kernel | None = None,
    lanes: int = LANES,
) -> NDArray[np.float64]:
    """(K, n_queries) Σ_j wc[j, k] LD(q_i, c_j) for queries of one length ≤ 64 (see the module).

    ``qc`` and ``cc`` are the character numbers of the queries and the choices (each block of one
    length; the choices at most 255 characters); ``diag``: the choices are the queries, pairs
    j < i are skipped and the square corner of each pass of ``lanes`` queries counts half.
    ``kernel`` defaults to the compiled one; :func:`_block_sums` itself runs the same arithmetic
    in Python (slowly: tests only, with few ``lanes``).
    """
    fn = kernel if kernel is not None else block_kernel()
    if fn is None:
        raise RuntimeError("the bit-parallel Levenshtein kernel needs numba")
    la, lb = qc.shape[1], cc.shape[1]
    if not 0 < la <= MAX_QUERY or lb > MAX_CHOICE:
        raise ValueError("queries of 1 to 64 characters and choices of at most 255 only")
    with np.errstate(over="ignore"):  # the uncompiled kernel: lanes wrap around by design
        acc = fn(
            lane_dtype(la),
            np.ascontiguousarray(qc, dtype=np.int32),
            np.ascontiguousarray(cc, dtype=np.int32),
            np.ascontiguousarray(wc, dtype=np.float64),
            diag,
            lanes,
        )
    return np.asarray(acc, dtype=np.float64)

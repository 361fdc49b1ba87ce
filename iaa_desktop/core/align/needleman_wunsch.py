"""Needleman–Wunsch global alignment of many pairs of segment sequences at once, in numpy.

The scoring is LingPy's ``nw_align`` default (List & Forkel 2016): +1 for identical segments, −1
for different ones, ``gap`` (−1) for a gap; ties in the dynamic programme are broken as in
``lingpy.algorithm.cython._malign.nw_align`` (a gap in the first sequence first, then a match or
mismatch, then a gap in the second sequence), and the traceback starts at the bottom-right
cell, so every alignment equals LingPy's segment for segment (the tests compare them on every
pair of the normalization test corpora).

How it is vectorised
--------------------
Pairs are grouped into buckets of similar lengths and each bucket is solved for all its pairs
at once: the programme runs over the rows of the second sequence; within a row, cell ``j``
depends on cell ``j − 1`` only through the gap term, so with ``h_j = max(up_j, diagonal_j)`` the
row is

.. math:: S_{i,j} = \\max_{k \\le j} (h_k + (j - k)\\,g) = j g + \\operatorname{cummax}_{k \\le j}(h_k - k g)

— one ``np.maximum.accumulate`` per row for every pair of the bucket. The traceback walks all
pairs back together. Padding beyond a pair's own lengths is never read: a cell depends only on
cells above and to its left.

The result is compact (:class:`Alignments`: one operation code per alignment column);
:meth:`Alignments.to_lists` gives LingPy's output format. A handful of pairs (one alignment asked
for in the GUI) runs the same programme in plain Python: setting up the arrays would take longer.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["GAP", "MATCH", "DELETE", "INSERT", "Alignments", "nw_align", "nw_align_many"]

#: gap symbol in alignments (LingPy's)
GAP = "-"
#: operation codes: a segment of each sequence aligned together (identical or not)
MATCH = 1
#: a segment of the first sequence against a gap
DELETE = 2
#: a segment of the second sequence against a gap
INSERT = 3

#: code of a segment longer than one character: interned ids above the Unicode range
_MULTI = 0x110000
#: pairs solved together at most (bounds the traceback table: chunk × rows × columns bytes)
_CHUNK = 1 << 15
#: up to this many pairs the programme runs in plain Python (see :func:`_scalar_ops`)
_SCALAR_MAX = 8

Segments = str | Sequence[str]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Alignments:
    """Alignments of many pairs: operation codes per column, and where each pair's are.

    Attributes
    ----------
    ops : int8 array, the operation of every alignment column of every pair, pair after pair
        (:data:`MATCH`, :data:`DELETE`, :data:`INSERT`)
    starts : int64 array (P + 1,), pair ``k``'s columns are ``ops[starts[k]:starts[k + 1]]``
    """

    ops: npt.NDArray[np.int8]
    starts: IntArray
    seqs_a: Sequence[Segments]
    seqs_b: Sequence[Segments]

    def __len__(self) -> int:
        return len(self.starts) - 1

    def ops_of(self, k: int) -> npt.NDArray[np.int8]:
        return self.ops[self.starts[k] : self.starts[k + 1]]

    def pair(self, k: int) -> tuple[list[str], list[str]]:
        """Pair ``k`` as LingPy gives it: two equally long segment lists, ``"-"`` for gaps."""
        a, b = self.seqs_a[k], self.seqs_b[k]
        alm_a: list[str] = []
        alm_b: list[str] = []
        i = j = 0
        for op in self.ops_of(k).tolist():
            if op == INSERT:
                alm_a.append(GAP)
            else:
                alm_a.append(a[j])
                j += 1
            if op == DELETE:
                alm_b.append(GAP)
            else:
                alm_b.append(b[i])
                i += 1
        return alm_a, alm_b

    def to_lists(self) -> list[tuple[list[str], list[str]]]:
        """Every pair as :meth:`pair` gives it, gathered in bulk."""
        n = np.diff(self.starts)
        ops = self.ops
        step_a = (ops != INSERT).astype(np.int64)
        step_b = (ops != DELETE).astype(np.int64)
        flat_a, off_a = _flatten(self.seqs_a)
        flat_b, off_b = _flatten(self.seqs_b)
        # position of each column's segment within the flat segment lists (gap → the last one)
        first = self.starts[:-1]
        ca, cb = np.cumsum(step_a), np.cumsum(step_b)
        base_a = np.repeat(np.concatenate(([0], ca))[first], n)
        base_b = np.repeat(np.concatenate(([0], cb))[first], n)
        pair_of = np.repeat(np.arange(len(n)), n)
        ja = np.where(ops == INSERT, len(flat_a), off_a[pair_of] + ca - base_a - 1)
        ib = np.where(ops == DELETE, len(flat_b), off_b[pair_of] + cb - base_b - 1)
        seg_a = np.empty(len(flat_a) + 1, dtype=object)
        seg_a[:-1] = flat_a
        seg_a[-1] = GAP
        seg_b = np.empty(len(flat_b) + 1, dtype=object)
        seg_b[:-1] = flat_b
        seg_b[-1] = GAP
        xa: list[str] = seg_a[ja].tolist()
        xb: list[str] = seg_b[ib].tolist()
        # hundreds of thousands of small lists of strings, none in a cycle: the cyclic garbage
        # collector would scan the growing heap again and again while they are made
        enabled = gc.isenabled()
        gc.disable()
        try:
            ends = zip(first.tolist(), self.starts[1:].tolist())
            return [(xa[s:e], xb[s:e]) for s, e in ends]
        finally:
            if enabled:
                gc.enable()


def _flatten(seqs: Sequence[Segments]) -> tuple[list[str], IntArray]:
    lens = np.fromiter(map(len, seqs), dtype=np.int64, count=len(seqs))
    flat = [s for seq in seqs for s in seq]
    return flat, np.concatenate(([0], np.cumsum(lens)[:-1])).astype(np.int64)


def _encode(
    seqs: Sequence[Segments], index: dict[str, int]
) -> tuple[npt.NDArray[np.int32], IntArray]:
    """One integer per segment (its code point when one character long) and the lengths.

    All sequences are joined into one string and encoded as UTF-32 at once; only a sequence
    with a segment of several code points (a grapheme with combining marks) is coded segment by
    segment, with ids above the Unicode range interned in ``index``.
    """
    n = len(seqs)
    lens = np.fromiter(map(len, seqs), dtype=np.int64, count=n)
    try:  # strings: one segment per character
        text = "".join(seqs)  # type: ignore[arg-type]
    except TypeError:
        text = None
    if text is not None and len(text) == lens.sum():
        return np.frombuffer(text.encode("utf-32-le"), dtype="<u4").astype(np.int32), lens
    joined = list(map("".join, seqs))
    jlens = np.fromiter(map(len, joined), dtype=np.int64, count=n)
    points = np.frombuffer("".join(joined).encode("utf-32-le"), dtype="<u4").astype(np.int32)
    slow = np.flatnonzero(jlens != lens)
    if len(slow) == 0:
        return points, lens
    out = np.empty(int(lens.sum()), dtype=np.int32)
    fast = np.ones(n, dtype=bool)
    fast[slow] = False
    out[np.repeat(fast, lens)] = points[np.repeat(fast, jlens)]
    segments = [s for k in slow.tolist() for s in seqs[k]]
    for s in dict.fromkeys(segments):
        if s not in index:
            index[s] = ord(s) if len(s) == 1 else _MULTI + len(index)
    out[np.repeat(~fast, lens)] = np.fromiter(
        map(index.__getitem__, segments), dtype=np.int32, count=len(segments)
    )
    return out, lens


def _padded(
    codes: npt.NDArray[np.int32], off: IntArray, lens: IntArray, fill: int
) -> npt.NDArray[np.int32]:
    """(max length × P) codes of P sequences, padded with ``fill``."""
    width = int(lens.max(initial=0))
    pos = np.arange(width)[:, None]
    valid = pos < lens[None, :]
    out = np.full((width, len(lens)), fill, dtype=np.int32)
    out[valid] = codes[(off[None, :] + pos)[valid]]
    return out


def _solve_bucket(
    a: npt.NDArray[np.int32], la: IntArray, b: npt.NDArray[np.int32], lb: IntArray, gap: int
) -> npt.NDArray[np.int8]:
    """Operation codes, last column first, of the P pairs of one bucket: (max steps × P)."""
    ma, nb = a.shape[0], b.shape[0]
    p = a.shape[1]
    bound = (ma + nb) * max(1, abs(gap))
    # the narrowest integer type that holds every score: less memory traffic per row
    dt: type[np.signedinteger[Any]] = (
        np.int8 if bound < 120 else np.int16 if bound < 30_000 else np.int64
    )
    col_gap: npt.NDArray[np.signedinteger[Any]] = (np.arange(ma + 1) * gap).astype(dt)[:, None]
    prev = np.repeat(col_gap, p, axis=1)
    cur = np.empty_like(prev)
    # traceback table, two bits per cell: 1 = the cell above gives the score, 2 = the diagonal
    # does; row 0 and column 0 are set apart (left and up only), tb[0, 0] = 0 ends the path
    tb = np.empty((nb + 1, ma + 1, p), dtype=np.int8)
    tb[0] = 0
    tb[1:, 0] = 1
    s: npt.NDArray[np.signedinteger[Any]] = np.empty((ma, p), dtype=dt)
    up_best = np.empty((ma, p), dtype=np.int8)
    for i in range(1, nb + 1):
        np.equal(a, b[i - 1], out=s, casting="unsafe")
        s += s
        s -= 1  # +1 identical, −1 different
        diag = prev[:-1] + s
        up = prev[1:] + gap
        cur[0] = i * gap
        np.maximum(up, diag, out=cur[1:])
        cur -= col_gap
        np.maximum.accumulate(cur, axis=0, out=cur)
        cur += col_gap
        t = tb[i, 1:]
        np.equal(diag, cur[1:], out=t, casting="unsafe")
        t += t
        np.equal(up, cur[1:], out=up_best, casting="unsafe")
        t += up_best
        prev, cur = cur, prev
    row, col = lb.copy(), la.copy()
    cols = np.arange(p)
    ops = np.zeros((ma + nb, p), dtype=np.int8)
    for step in range(ma + nb):
        t = tb[row, col, cols]
        moving = (row > 0) | (col > 0)
        if not moving.any():
            return ops[:step]
        # LingPy's order of preference on ties: up (INSERT), then diagonal (MATCH), then left
        op = np.where(t & 1, INSERT, np.where(t & 2, MATCH, DELETE)).astype(np.int8)
        op[~moving] = 0
        ops[step] = op
        row -= (op == INSERT) | (op == MATCH)
        col -= (op == DELETE) | (op == MATCH)
    return ops


def _scalar_ops(seq_a: Segments, seq_b: Segments, gap: int) -> list[int]:
    """The operation codes of one pair, first column first: the same programme in plain Python
    (rows over ``seq_b``, columns over ``seq_a``, LingPy's order of preference on ties)."""
    m, n = len(seq_a), len(seq_b)
    prev = [j * gap for j in range(m + 1)]
    tb: list[list[int]] = [[DELETE] * (m + 1)]
    for i in range(1, n + 1):
        b = seq_b[i - 1]
        cur = [i * gap] + [0] * m
        row = [INSERT] + [0] * m
        for j in range(1, m + 1):
            up = prev[j] + gap
            left = cur[j - 1] + gap
            diag = prev[j - 1] + (1 if seq_a[j - 1] == b else -1)
            if up >= diag and up >= left:
                cur[j], row[j] = up, INSERT
            elif diag >= left:
                cur[j], row[j] = diag, MATCH
            else:
                cur[j], row[j] = left, DELETE
        tb.append(row)
        prev = cur
    ops: list[int] = []
    i, j = n, m
    while i > 0 or j > 0:
        op = tb[i][j] if (i > 0 and j > 0) else (INSERT if j == 0 else DELETE)
        ops.append(op)
        i -= op != DELETE
        j -= op != INSERT
    return ops[::-1]


def _bucket_of(n: IntArray) -> IntArray:
    """Length classes: exact up to 8 in steps of 2, steps of 4 up to 32, then powers of two."""
    up = np.where(n <= 8, (n + 1) // 2 * 2, (n + 3) // 4 * 4)
    pow2 = np.left_shift(1, np.ceil(np.log2(np.maximum(n, 1))).astype(np.int64))
    return np.where(n <= 32, up, pow2).astype(np.int64)


def nw_align_many(
    seqs_a: Sequence[Segments], seqs_b: Sequence[Segments], gap: int = -1
) -> Alignments:
    """Needleman–Wunsch alignments of ``seqs_a[k]`` with ``seqs_b[k]`` for every ``k``.

    Parameters
    ----------
    seqs_a, seqs_b : equally long sequences of segment sequences (a string is a sequence of
        one-character segments, as in LingPy; a tuple of graphemes keeps marks with their base)
    gap : gap penalty

    Returns
    -------
    Alignments : compact; ``.pair(k)`` or ``.to_lists()`` give LingPy's lists.

    References
    ----------
    Needleman & Wunsch (1970), J. Mol. Biol. 48: 443–453; List & Forkel (2016), LingPy 2.5.

    >>> nw_align_many(["gewain"], ["weinte"]).pair(0)
    (['g', 'e', 'w', 'a', 'i', 'n', '-', '-'], ['-', '-', 'w', 'e', 'i', 'n', 't', 'e'])
    """
    if len(seqs_a) != len(seqs_b):
        raise ValueError("seqs_a and seqs_b must hold the same number of sequences")
    if len(seqs_a) <= _SCALAR_MAX:
        # a few pairs: the arrays' set-up would cost more than the programme itself
        ops_lists = [_scalar_ops(a, b, gap) for a, b in zip(seqs_a, seqs_b)]
        lengths = np.fromiter(map(len, ops_lists), dtype=np.int64, count=len(ops_lists))
        flat_ops = np.fromiter(
            (op for ops in ops_lists for op in ops), dtype=np.int8, count=int(lengths.sum())
        )
        starts = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
        return Alignments(flat_ops, starts, seqs_a, seqs_b)
    index: dict[str, int] = {}
    codes_a, la = _encode(seqs_a, index)
    codes_b, lb = _encode(seqs_b, index)
    off_a = np.concatenate(([0], np.cumsum(la)[:-1])).astype(np.int64)
    off_b = np.concatenate(([0], np.cumsum(lb)[:-1])).astype(np.int64)
    n_pairs = len(la)
    key = _bucket_of(la) * (1 << 32) + _bucket_of(lb)
    order = np.argsort(key, kind="stable")
    bounds = np.flatnonzero(np.diff(key[order])) + 1
    pieces: list[tuple[IntArray, npt.NDArray[np.int8]]] = []
    n_ops = np.zeros(n_pairs, dtype=np.int64)
    for lo, hi in zip(np.r_[0, bounds].tolist(), np.r_[bounds, n_pairs].tolist()):
        for s in range(lo, hi, _CHUNK):
            idx = order[s : min(hi, s + _CHUNK)]
            ops = _solve_bucket(
                _padded(codes_a, off_a[idx], la[idx], -1),
                la[idx],
                _padded(codes_b, off_b[idx], lb[idx], -2),
                lb[idx],
                gap,
            )
            n_ops[idx] = (ops != 0).sum(axis=0)
            pieces.append((idx, ops))
    starts = np.concatenate(([0], np.cumsum(n_ops))).astype(np.int64)
    flat = np.zeros(int(starts[-1]), dtype=np.int8)
    for idx, ops in pieces:
        forward = ops[::-1].T  # pair × column, leading zeros where a pair is shorter
        n = n_ops[idx]
        shift = starts[idx] - np.concatenate(([0], np.cumsum(n)[:-1]))
        flat[np.repeat(shift, n) + np.arange(int(n.sum()))] = forward[forward != 0]
    return Alignments(flat, starts, seqs_a, seqs_b)


def nw_align(seq_a: Segments, seq_b: Segments, gap: int = -1) -> tuple[list[str], list[str]]:
    """Needleman–Wunsch alignment of one pair, identical to LingPy's ``nw_align``.

    >>> nw_align("gewain", "weinte")
    (['g', 'e', 'w', 'a', 'i', 'n', '-', '-'], ['-', '-', 'w', 'e', 'i', 'n', 't', 'e'])
    """
    return nw_align_many([seq_a], [seq_b], gap).pair(0)

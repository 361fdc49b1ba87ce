r"""Matching two annotators' coreference classes (the Psalms coreference study, ETCBC).

Each side is the list of its classes C1..Cm in file order plus S (the mentions in no class). A
minimum-cost assignment pairs the sets; for matched sets a, b:

.. math:: L = |a \setminus b|,\quad M = |a \cap b|,\quad R = |b \setminus a|,\quad
          D = L + R,\quad d = D / (L + M + R)

Costs: ``symdiff`` |a △ b| (the original study's), ``jaccard`` d, ``opt`` a square problem in
which leaving a set unmatched costs its size. ``symdiff`` and ``jaccard`` pair every set of the
smaller side (min(m, k) pairs, as a rectangular assignment does). Among the assignments of minimal
cost, one with the largest total intersection Σ M is taken (the weight of a pair is
cost × (N + 1) − M, N the number of mentions); rows may differ only where several assignments
tie on both.

Sparse throughout
-----------------
Two sets that share no mention differ only by their sizes, so the assignment is solved on the
overlap graph (about two edges per set in real and simulated data) with the classic gadget for
optional matching: beside each overlapping pair, every set may stay unmatched at a price, and
:func:`scipy.sparse.csgraph.min_weight_full_bipartite_matching` (sparse Jonker–Volgenant) solves
every connected component of that graph at once. Sets left unmatched are then paired among
themselves where the variant pairs them (any such pairing costs the same):

* ``opt``, and ``symdiff`` with equally many sets: a set left unmatched costs its size, exactly
  what a disjoint pair costs;
* ``jaccard``: a set of the smaller side costs 1 unmatched (d of a disjoint pair), the larger
  side's 0; two empty sets pair at d = 0;
* ``symdiff`` with more sets on one side: every set of the smaller side must be paired, and a
  disjoint pair costs both sizes, so which sets of the larger side stay out matters. A set of the
  smaller side may stay unmatched at a price λ for the partner it will get, and a set of the
  larger side of size below λ is then such a partner. For the λ at which partners and sets that
  need one come out equal (λ is searched), the solution is an optimal assignment: its cost equals
  the Lagrangian bound, which no assignment goes below. Where the balance jumps over zero at one
  λ (tied solutions), the alternating paths between the optima on either side are applied one
  by one, each keeping the optimum, until it balances; only if that fails too is the dense
  assignment solved (never seen on thousands of random cases).

d of two empty sets (an empty S on both sides) is defined as 0: nothing to disagree on.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["COSTS", "MatchRow", "format_d", "match_sets", "totals"]

COSTS = ("symdiff", "jaccard", "opt")

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MatchRow:
    class_a: str  # "C3", "S" or "-"
    class_b: str
    L: int
    M: int
    R: int

    @property
    def D(self) -> int:
        return self.L + self.R

    @property
    def d(self) -> float:
        total = self.L + self.M + self.R
        return self.D / total if total else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "class_a": self.class_a,
            "class_b": self.class_b,
            "L": self.L,
            "M": self.M,
            "R": self.R,
            "D": self.D,
            "d": round(self.d, 4),
        }


def format_d(d: float) -> str:
    """4 decimals without trailing zeros, as the original files print it (0.4, 0.4286, 1.0)."""
    return repr(round(float(d), 4))


@dataclass(frozen=True)
class _Overlap:
    """Sizes of the sets of both sides and their nonzero intersections (a, b, M)."""

    size_a: IntArray
    size_b: IntArray
    rows: IntArray
    cols: IntArray
    inter: IntArray
    n_mentions: int

    def transposed(self) -> _Overlap:
        return _Overlap(self.size_b, self.size_a, self.cols, self.rows, self.inter, self.n_mentions)


def _overlap(
    sets_a: Sequence[Sequence[Hashable]], sets_b: Sequence[Sequence[Hashable]]
) -> _Overlap:
    from scipy.sparse import csr_matrix

    index: dict[Hashable, int] = {}
    ids = [[index.setdefault(m, len(index)) for m in s] for s in (*sets_a, *sets_b)]
    size = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
    n_a = len(sets_a)
    size_a, size_b = size[:n_a], size[n_a:]
    n = len(index)
    if n == 0 or n_a == 0 or len(sets_b) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return _Overlap(size_a, size_b, empty, empty, empty, n)
    cols = np.fromiter((i for s in ids for i in s), dtype=np.int64, count=int(size.sum()))
    owner = np.repeat(np.arange(len(ids)), size)
    cut = int(size_a.sum())
    one = np.ones(len(cols), dtype=np.int64)
    inc_a = csr_matrix((one[:cut], (owner[:cut], cols[:cut])), shape=(n_a, n))
    inc_b = csr_matrix((one[cut:], (owner[cut:] - n_a, cols[cut:])), shape=(len(sets_b), n))
    inter = (inc_a @ inc_b.T).tocoo()
    keep = inter.data > 0
    return _Overlap(
        size_a,
        size_b,
        inter.row[keep].astype(np.int64),
        inter.col[keep].astype(np.int64),
        inter.data[keep].astype(np.int64),
        n,
    )


def _gadget_matching(
    ov: _Overlap, pair: FloatArray, unmatched_a: FloatArray, unmatched_b: FloatArray
) -> IntArray:
    """Minimum-cost matching on the overlap graph where each set may stay unmatched at a price.

    The bipartite gadget (left: A then B', right: B then A'): a–b costs ``pair``, a–a' leaves a
    unmatched, b'–b leaves b unmatched, and b'–a' (one for every edge a–b, cost 0) completes the
    perfect matching when a and b are matched. Returns the right node of every left node.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    n_a, n_b = len(ov.size_a), len(ov.size_b)
    e = len(ov.rows)
    rows = np.concatenate([ov.rows, np.arange(n_a), n_a + ov.cols, n_a + np.arange(n_b)])
    cols = np.concatenate([ov.cols, n_b + np.arange(n_a), n_b + ov.rows, np.arange(n_b)])
    w = np.concatenate([pair, unmatched_a, np.zeros(e), unmatched_b])
    # every perfect matching has n_a + n_b edges: a shift changes no optimum, and keeps every
    # weight nonzero (the solver drops explicit zeros)
    w = w - w.min() + 1.0 if len(w) else w
    graph = coo_matrix((w, (rows, cols)), shape=(n_a + n_b, n_b + n_a)).tocsr()
    _, partner = min_weight_full_bipartite_matching(graph)
    return np.asarray(partner, dtype=np.int64)


def _a_partners(full: IntArray, n_a: int, n_b: int) -> IntArray:
    """Each A set's partner in a gadget matching, −1 when unmatched."""
    out = full[:n_a].copy()
    out[out >= n_b] = -1
    return out


def _optional_matching(
    ov: _Overlap, pair: FloatArray, unmatched_a: FloatArray, unmatched_b: FloatArray
) -> IntArray:
    """:func:`_gadget_matching`, read as each A set's partner (−1: unmatched)."""
    full = _gadget_matching(ov, pair, unmatched_a, unmatched_b)
    return _a_partners(full, len(ov.size_a), len(ov.size_b))


def _scales(ov: _Overlap) -> tuple[float, float]:
    """(big, big2): weight = (cost × big − M) × big2 + Σ matched sizes, integers.

    Σ M ≤ N < big, so cost decides first and the intersection second; the third criterion,
    Σ of the matched sets' sizes ≤ 2N < big2, leaves the larger sets out where the first two
    tie. Weights stay exact in float64 even when scaled by the number of sets (as
    :class:`_PartnerSearch` may); where they would not, the third criterion is dropped.
    """
    n = ov.n_mentions
    big = float(n + 1)
    big2 = float(2 * n + 1)
    scale = 2.0 * (n + 1) * (len(ov.size_a) + len(ov.size_b) + 1)
    return big, (big2 if scale * big * big2 < 2.0**52 else 1.0)


def _weights(ov: _Overlap, cost: str) -> FloatArray:
    """Weight of each overlapping pair under ``cost`` (see :func:`_scales`)."""
    big, big2 = _scales(ov)
    m = ov.inter.astype(np.float64)
    sa, sb = ov.size_a[ov.rows], ov.size_b[ov.cols]
    if cost == "jaccard":
        tot = sa + sb - m
        d = np.where(tot > 0, (sa + sb - 2 * m) / np.maximum(tot, 1), 0.0)
        # lexicographic on floats: intersections only decide between (numerically) equal costs
        return np.asarray(d - m * (1e-9 / big))
    third = (sa + sb) if big2 > 1 else 0
    return np.asarray(((sa + sb) * big - m * (2 * big + 1)) * big2 + third, dtype=np.float64)


def _with_empty_pairs(ov: _Overlap) -> tuple[_Overlap, FloatArray]:
    """Jaccard: two empty sets pair at d = 0, so they get an edge of their own (weight 0)."""
    ea, eb = np.flatnonzero(ov.size_a == 0), np.flatnonzero(ov.size_b == 0)
    w = _weights(ov, "jaccard")
    if len(ea) and len(eb):
        r, c = np.repeat(ea, len(eb)), np.tile(eb, len(ea))
        z = np.zeros(len(r), dtype=np.int64)
        ov = _Overlap(
            ov.size_a,
            ov.size_b,
            np.concatenate([ov.rows, r]),
            np.concatenate([ov.cols, c]),
            np.concatenate([ov.inter, z]),
            ov.n_mentions,
        )
        w = np.concatenate([w, np.zeros(len(r))])
    return ov, w


def _pair_leftovers(partner: IntArray, n_b: int, pool: IntArray | None = None) -> IntArray:
    """Pair the unmatched A sets with unmatched B sets (from ``pool`` when given), in order."""
    out = partner.copy()
    free_a = np.flatnonzero(out < 0)
    if pool is None:
        taken = np.zeros(n_b, dtype=bool)
        taken[out[out >= 0]] = True
        pool = np.flatnonzero(~taken)
    k = min(len(free_a), len(pool))
    out[free_a[:k]] = pool[:k]
    return out


class _PartnerSearch:
    """Fewer A sets than B sets, every A set paired; a B set costs ``unused_b`` when left out
    and ``extra_b`` more when it is the partner of an A set it does not overlap.

    Lagrangian relaxation (see the module docstring): an A set may stay unpaired at the price
    λ, a B set may be a partner for ``extra_b − λ``; every weight is an integer. A solution in
    which the partners and the unpaired A sets come out equal is optimal. λ is searched over the
    partners' costs, then over the integers between the two that bracket the balance. Where the
    balance jumps over zero at one λ (a tie between solutions), that λ is found exactly (a
    fraction p/q: the weights are scaled by q) and the alternating paths and cycles between the
    solutions on either side are applied one by one, each keeping the optimum, until it
    balances.
    """

    def __init__(
        self,
        ov: _Overlap,
        pair: FloatArray,
        base_a: FloatArray,
        unused_b: FloatArray,
        extra_b: FloatArray,
    ) -> None:
        self.ov, self.pair, self.base_a = ov, pair, base_a
        self.unused_b, self.extra_b = unused_b, extra_b
        self.n_a, self.n_b = len(ov.size_a), len(ov.size_b)
        self.weight = dict(zip(zip(ov.rows.tolist(), ov.cols.tolist()), pair.tolist()))

    def solve(self, num: float, den: int = 1) -> IntArray:
        """A gadget matching optimal at λ = num / den (weights scaled by den, all integers)."""
        b_cost = den * self.unused_b + np.minimum(0.0, den * self.extra_b - num)
        return _gadget_matching(self.ov, den * self.pair, den * self.base_a + num, b_cost)

    def gaps(self, partner: IntArray, lam: float) -> tuple[int, int, IntArray]:
        """(need − cheap − level, need − cheap, the B sets that could be partners)."""
        taken = np.zeros(self.n_b, dtype=bool)
        taken[partner[partner >= 0]] = True
        cheap = ~taken & (self.extra_b < lam)
        level = ~taken & (self.extra_b == lam)
        need = int((partner < 0).sum())
        pool = np.concatenate([np.flatnonzero(cheap), np.flatnonzero(level)])
        return need - int(cheap.sum()) - int(level.sum()), need - int(cheap.sum()), pool

    def finish(self, partner: IntArray, lam: float) -> IntArray | None:
        """The assignment of a balanced solution (partners: the cheap, then level B sets)."""
        lo, hi, pool = self.gaps(partner, lam)
        if lo > 0 or hi < 0:
            return None
        need = int((partner < 0).sum())
        return _pair_leftovers(partner, self.n_b, np.sort(pool[:need]))

    def line(self, partner: IntArray, floor: int) -> tuple[int, int]:
        """(K, s): the relaxed objective of ``partner`` is K + λ·s for floor ≤ λ ≤ floor + 1."""
        matched = partner >= 0
        taken = np.zeros(self.n_b, dtype=bool)
        taken[partner[matched]] = True
        rows = np.flatnonzero(matched).tolist()
        k = sum(int(self.weight[(i, j)]) for i, j in zip(rows, partner[matched].tolist()))
        k += int(self.base_a[~matched].sum())
        free = ~taken
        partners = free & (self.extra_b <= floor)
        k += int(self.unused_b[free].sum()) + int(self.extra_b[partners].sum())
        return k, int((~matched).sum()) - int(partners.sum())

    def step(self, lam: float, ends: dict[int, tuple[float, IntArray]]) -> IntArray | None:
        """Solve at an integer λ: the assignment when balanced, else the bracket moves."""
        partner = _a_partners(self.solve(lam), self.n_a, self.n_b)
        done = self.finish(partner, lam)
        if done is None:
            ends[-1 if self.gaps(partner, lam)[0] > 0 else 1] = (lam, partner)
        return done

    def run(self) -> IntArray | None:
        cands = np.unique(self.extra_b)
        ends: dict[int, tuple[float, IntArray]] = {}
        for lam in (float(cands[0]) - 1.0, float(cands[-1]) + 1.0):
            done = self.step(lam, ends)
            if done is not None:
                return done
        lo, hi = 0, len(cands) - 1
        while lo <= hi:
            mid = (lo + hi) // 2
            done = self.step(float(cands[mid]), ends)
            if done is not None:
                return done
            lo, hi = (
                (mid + 1, hi) if ends.get(-1, (None,))[0] == float(cands[mid]) else (lo, mid - 1)
            )
        first, last = int(ends[-1][0]) + 1, int(ends[1][0]) - 1
        while first <= last:
            lam = float((first + last) // 2)
            done = self.step(lam, ends)
            if done is not None:
                return done
            first, last = (int(lam) + 1, last) if ends[-1][0] == lam else (first, int(lam) - 1)
        return self._tie(ends)

    def _tie(self, ends: dict[int, tuple[float, IntArray]]) -> IntArray | None:
        """The balance jumps over zero between two consecutive integers: find the λ where the
        solutions on either side are both optimal, then walk from one to the other."""
        if -1 not in ends or 1 not in ends or ends[1][0] - ends[-1][0] != 1:
            return None
        floor = int(ends[-1][0])
        low, high = ends[-1][1], ends[1][1]
        for _ in range(32):
            (k_lo, s_lo), (k_hi, s_hi) = self.line(low, floor), self.line(high, floor)
            if s_lo <= s_hi:
                return None
            num, den = k_hi - k_lo, s_lo - s_hi  # where the two lines cross: λ = num / den
            if not floor * den <= num <= (floor + 1) * den:
                return None
            mid = _a_partners(self.solve(float(num), den), self.n_a, self.n_b)
            k_m, s_m = self.line(mid, floor)
            if k_m * den + s_m * num == k_lo * den + s_lo * num:  # both lines are optimal there
                return self._walk(low, high, num / den)
            if s_m == 0:  # a strictly better, balanced solution
                return self.finish(mid, num / den)
            low, high = (mid, high) if s_m > 0 else (low, mid)
        return None

    def _walk(self, low: IntArray, high: IntArray, lam: float) -> IntArray | None:
        """Apply the alternating paths and cycles between two optimal matchings one by one."""
        n_a = self.n_a
        edges = [(i, n_a + int(j)) for i, j in enumerate(low.tolist()) if j >= 0 and high[i] != j]
        edges += [(i, n_a + int(j)) for i, j in enumerate(high.tolist()) if j >= 0 and low[i] != j]
        adj: dict[int, list[int]] = {}
        for u, v in edges:
            adj.setdefault(u, []).append(v)
            adj.setdefault(v, []).append(u)
        seen: set[int] = set()
        current = low.copy()
        for start in adj:
            if start in seen:
                continue
            part, stack = [], [start]
            seen.add(start)
            while stack:
                u = stack.pop()
                part.append(u)
                fresh = [v for v in adj[u] if v not in seen]
                seen.update(fresh)
                stack += fresh
            trial = current.copy()
            a_nodes = [u for u in part if u < n_a]
            trial[a_nodes] = high[a_nodes]
            lo_gap, hi_gap, _ = self.gaps(trial, lam)
            if hi_gap >= 0:  # this part does not overshoot: keep it
                current = trial
                if lo_gap <= 0:
                    return self.finish(current, lam)
        return None


def _dense_partner(ov: _Overlap, cost: str) -> IntArray:
    """The assignment on the dense weight matrix (the fallback of :class:`_PartnerSearch`)."""
    from scipy.optimize import linear_sum_assignment

    big, big2 = _scales(ov)
    third = 1.0 if big2 > 1 else 0.0
    n_a, n_b = len(ov.size_a), len(ov.size_b)
    both = np.add.outer(ov.size_a, ov.size_b).astype(np.float64)
    weight = both * big * big2 + both * third
    weight[ov.rows, ov.cols] = _weights(ov, cost)
    if cost == "opt":  # square: a set left out costs its size
        size = max(n_a, n_b)
        full = np.zeros((size, size))
        full[:n_a, :n_b] = weight
        full[:n_a, n_b:] = (ov.size_a * big * big2)[:, None]
        full[n_a:, :n_b] = (ov.size_b * big * big2)[None, :]
        weight = full
    r, c = linear_sum_assignment(weight)
    out = np.full(n_a, -1, dtype=np.int64)
    keep = (r < n_a) & (c < n_b)
    out[r[keep]] = c[keep]
    return out


def _partners(ov: _Overlap, cost: str) -> IntArray:
    """Each A set's partner (−1: unmatched) under ``cost``."""
    n_a, n_b = len(ov.size_a), len(ov.size_b)
    if n_a == 0 or n_b == 0:
        return np.full(n_a, -1, dtype=np.int64)
    if n_a > n_b:
        # solve with the smaller side as A, then read the partners back
        back = _partners(ov.transposed(), cost)
        out = np.full(n_a, -1, dtype=np.int64)
        matched = back >= 0
        out[back[matched]] = np.flatnonzero(matched)
        return out
    if cost == "jaccard":
        ov, pair = _with_empty_pairs(ov)
        return _pair_leftovers(_optional_matching(ov, pair, np.ones(n_a), np.zeros(n_b)), n_b)
    pair = _weights(ov, cost)
    big, big2 = _scales(ov)
    third = 1.0 if big2 > 1 else 0.0
    w_a = ov.size_a * big * big2 + ov.size_a * third
    w_b = ov.size_b * big * big2
    if n_a == n_b:  # every set is paired: one left out costs what a disjoint pair costs
        return _pair_leftovers(_optional_matching(ov, pair, w_a, w_b + ov.size_b * third), n_b)
    if cost == "opt":  # a B set left out costs its size; as a partner its size counts once more
        search = _PartnerSearch(ov, pair, w_a, w_b, ov.size_b * third)
    else:  # symdiff: a B set left out costs nothing; as a partner it costs its size
        search = _PartnerSearch(ov, pair, w_a, np.zeros(n_b), w_b + ov.size_b * third)
    found = search.run()
    return found if found is not None else _dense_partner(ov, cost)


def _row(
    names_a: Sequence[str],
    names_b: Sequence[str],
    ov: _Overlap,
    inter: dict[tuple[int, int], int],
    i: int,
    j: int,
) -> MatchRow:
    m = inter.get((i, j), 0)
    return MatchRow(names_a[i], names_b[j], int(ov.size_a[i]) - m, m, int(ov.size_b[j]) - m)


def match_sets(
    sets_a: Sequence[Sequence[Hashable]],
    sets_b: Sequence[Sequence[Hashable]],
    names_a: Sequence[str],
    names_b: Sequence[str],
    cost: str = "symdiff",
) -> list[MatchRow]:
    """Match two lists of mention sets; rows in the original study's order.

    ``symdiff``/``jaccard``: matched pairs in A's order, then unmatched A sets, then unmatched B
    sets. ``opt``: one row per set of the larger side, in that side's order.
    """
    if cost not in COSTS:
        raise ValueError(f"cost must be one of {', '.join(COSTS)}")
    ov = _overlap(sets_a, sets_b)
    partner = _partners(ov, cost)
    n_a, n_b = len(sets_a), len(sets_b)
    inter = dict(zip(zip(ov.rows.tolist(), ov.cols.tolist()), ov.inter.tolist()))
    rows: list[MatchRow] = []
    part = partner.tolist()
    if cost == "opt" and n_b > n_a:
        by_b = {j: i for i, j in enumerate(part) if j >= 0}
        for j in range(n_b):
            i = by_b.get(j)
            rows.append(
                _row(names_a, names_b, ov, inter, i, j)
                if i is not None
                else MatchRow("-", names_b[j], 0, 0, int(ov.size_b[j]))
            )
        return rows
    if cost == "opt":
        return [
            _row(names_a, names_b, ov, inter, i, j)
            if j >= 0
            else MatchRow(names_a[i], "-", int(ov.size_a[i]), 0, 0)
            for i, j in enumerate(part)
        ]
    rows = [_row(names_a, names_b, ov, inter, i, j) for i, j in enumerate(part) if j >= 0]
    rows += [
        MatchRow(names_a[i], "-", int(ov.size_a[i]), 0, 0) for i, j in enumerate(part) if j < 0
    ]
    matched_b = {j for j in part if j >= 0}
    rows += [
        MatchRow("-", names_b[j], 0, 0, int(ov.size_b[j])) for j in range(n_b) if j not in matched_b
    ]
    return rows


def totals(rows: Sequence[MatchRow]) -> MatchRow:
    """Micro totals: sum L, M, R over the rows; D and d recomputed."""
    return MatchRow(
        "total", "total", sum(r.L for r in rows), sum(r.M for r in rows), sum(r.R for r in rows)
    )

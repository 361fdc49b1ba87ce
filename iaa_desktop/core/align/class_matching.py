r"""Matching two annotators' coreference classes (the Psalms coreference study, ETCBC).

Each side is the list of its classes C1..Cm in file order plus S (the mentions in no class). A
minimum-cost assignment pairs the sets; for matched sets a, b:

.. math:: L = |a \setminus b|,\quad M = |a \cap b|,\quad R = |b \setminus a|,\quad
          D = L + R,\quad d = D / (L + M + R)

Costs: ``symdiff`` |a △ b| (the seed's), ``jaccard`` d, ``opt`` a square problem in which leaving
a set unmatched costs its size. Ties are broken by the largest total intersection Σ M, then by
the solver's (deterministic) order. Intersections come from sparse mention × set incidence
matrices, so thousands of classes match in milliseconds.

d of two empty sets (an empty S on both sides) is defined as 0: nothing to disagree on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

COSTS = ("symdiff", "jaccard", "opt")


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
    """4 decimals without trailing zeros, as the seed's files print it (0.4, 0.4286, 1.0)."""
    return repr(round(float(d), 4))


def _incidence(sets: Sequence[Sequence[Any]], index: dict[Any, int]):
    from scipy.sparse import csr_matrix

    rows, cols = [], []
    for i, s in enumerate(sets):
        for m in s:
            rows.append(i)
            cols.append(index[m])
    data = np.ones(len(rows), dtype=np.int64)
    return csr_matrix((data, (rows, cols)), shape=(len(sets), len(index)))


def match_sets(  # noqa: C901  (to split)
    sets_a: Sequence[Sequence[Any]],
    sets_b: Sequence[Sequence[Any]],
    names_a: Sequence[str],
    names_b: Sequence[str],
    cost: str = "symdiff",
) -> list[MatchRow]:
    """Match two lists of mention sets; rows in the seed's order (see the module docstring)."""
    from scipy.optimize import linear_sum_assignment

    if cost not in COSTS:
        raise ValueError(f"cost must be one of {', '.join(COSTS)}")
    mentions: dict[Any, int] = {}
    for s in list(sets_a) + list(sets_b):
        for m in s:
            mentions.setdefault(m, len(mentions))
    n_a, n_b = len(sets_a), len(sets_b)
    size_a = np.array([len(s) for s in sets_a], dtype=np.int64)
    size_b = np.array([len(s) for s in sets_b], dtype=np.int64)
    from scipy.sparse import csr_matrix

    if mentions and n_a and n_b:
        inter_sparse = (_incidence(sets_a, mentions) @ _incidence(sets_b, mentions).T).tocoo()
    else:
        inter_sparse = csr_matrix((n_a, n_b), dtype=np.int64).tocoo()
    ri, ci, mi = inter_sparse.row, inter_sparse.col, inter_sparse.data.astype(np.float64)
    big = float(
        len(mentions) + 1
    )  # Σ M ≤ N: cost × (N + 1) − M orders by cost, then by intersection
    # dense weights start from the cost of two disjoint sets; only overlapping pairs (sparse) differ
    if cost == "jaccard":
        weight = np.ones((n_a, n_b))
        tot = size_a[ri] + size_b[ci] - mi
        d = np.where(tot > 0, (size_a[ri] + size_b[ci] - 2 * mi) / np.maximum(tot, 1), 0.0)
        # lexicographic on floats: intersections only decide between (numerically) equal costs
        weight[ri, ci] = d - mi * (1e-9 / big)
        if n_a and n_b:
            both_empty = (size_a[:, None] == 0) & (size_b[None, :] == 0)
            weight[both_empty] = 0.0
    else:
        weight = np.add.outer(size_a * big, size_b * big)
        weight[ri, ci] -= mi * (2 * big + 1)  # (|a| + |b| − 2M)·big − M
    if cost == "opt":
        size = max(n_a, n_b)
        full = np.zeros((size, size))
        full[:n_a, :n_b] = weight
        full[:n_a, n_b:] = (size_a * big)[:, None]  # A set left unmatched: D = |a|
        full[n_a:, :n_b] = (size_b * big)[None, :]
        r_idx, c_idx = linear_sum_assignment(full)
    else:
        r_idx, c_idx = linear_sum_assignment(weight)
    lookup = {(int(r), int(c)): int(m) for r, c, m in zip(ri, ci, mi)}

    class _Inter:
        def __getitem__(self, rc: tuple[int, int]) -> int:
            return lookup.get((int(rc[0]), int(rc[1])), 0)

    inter = _Inter()

    class _Diff:
        def __init__(self, sizes: np.ndarray, axis: int) -> None:
            self.sizes, self.axis = sizes, axis

        def __getitem__(self, rc: tuple[int, int]) -> int:
            return int(self.sizes[rc[self.axis]]) - inter[rc]

    L, R = _Diff(size_a, 0), _Diff(size_b, 1)
    pairs = {int(r): int(c) for r, c in zip(r_idx, c_idx) if r < n_a and c < n_b}
    rows: list[MatchRow] = []
    if cost == "opt":
        # one row per set of the larger side, in that side's order
        if n_b > n_a:
            by_b = {c: r for r, c in pairs.items()}
            for j in range(n_b):
                i = by_b.get(j)
                rows.append(
                    MatchRow(names_a[i], names_b[j], int(L[i, j]), int(inter[i, j]), int(R[i, j]))
                    if i is not None
                    else MatchRow("-", names_b[j], 0, 0, int(size_b[j]))
                )
        else:
            for i in range(n_a):
                j = pairs.get(i)
                rows.append(
                    MatchRow(names_a[i], names_b[j], int(L[i, j]), int(inter[i, j]), int(R[i, j]))
                    if j is not None
                    else MatchRow(names_a[i], "-", int(size_a[i]), 0, 0)
                )
        return rows
    for i in range(n_a):
        j = pairs.get(i)
        if j is not None:
            rows.append(
                MatchRow(names_a[i], names_b[j], int(L[i, j]), int(inter[i, j]), int(R[i, j]))
            )
    for i in range(n_a):
        if i not in pairs:
            rows.append(MatchRow(names_a[i], "-", int(size_a[i]), 0, 0))
    matched_b = set(pairs.values())
    for j in range(n_b):
        if j not in matched_b:
            rows.append(MatchRow("-", names_b[j], 0, 0, int(size_b[j])))
    return rows


def totals(rows: Sequence[MatchRow]) -> MatchRow:
    """Micro totals: sum L, M, R over the rows; D and d recomputed."""
    return MatchRow(
        "total", "total", sum(r.L for r in rows), sum(r.M for r in rows), sum(r.R for r in rows)
    )

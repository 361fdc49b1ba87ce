r"""Continua, dissimilarities and best alignments for Mathet et al.'s γ.

A *continuum* holds the units (start, end, category) of n annotators; a *unitary alignment* takes
at most one unit of every annotator (the others are the empty unit ∅), and an *alignment* is a set
of unitary alignments in which every unit appears exactly once.

Dissimilarities (Mathet, Widlöcher & Métivier 2015, §4.1; pygamma-agreement's definitions, in
single precision as it computes them):

.. math::
    d_{pos}(u, v) = \Big(\frac{|s_u - s_v| + |e_u - e_v|}{\ell_u + \ell_v}\Big)^2 \Delta_\emptyset
    \qquad d_{cat}(u, v) = M_{cat(u), cat(v)} \, \Delta_\emptyset
    \qquad d(u, v) = \alpha\, d_{pos} + \beta\, d_{cat}

with :math:`M` 0 on the diagonal and 1 elsewhere unless a matrix is given, and
:math:`d(u, \emptyset) = \Delta_\emptyset`. The disorder of a unitary alignment is the mean of
:math:`d` over its :math:`\binom{n}{2}` pairs of annotators; the best alignment minimises the sum
of its unitary alignments' disorders, an integer programme (§5.1): one binary variable per
candidate unitary alignment, every unit covered exactly once. It is solved exactly by HiGHS
(:func:`scipy.optimize.milp`) after pruning the candidates no best alignment can hold: a unitary
alignment that costs more than two parts of it aligned apart (in particular more than its units
each alone, the empty alignment's cost) is never chosen. The candidates are the sets of units that
are pairwise close enough, found annotator by annotator; the programme splits into the connected
groups of units that share a candidate.

The fast-γ variant (Mathet 2017) aligns a sliding window of the leftmost units and keeps the
unitary alignments that end before the window's limit, as pygamma-agreement does.

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The Unified and Holistic Method Gamma (γ) for
Inter-Annotator Agreement Measure and Alignment. *Computational Linguistics* 41(3), 437–479.
Mathet, Y. (2017). The Agreement Measure γcat a Complement to γ Focused on Categorization of a
Continuum. *Computational Linguistics* 43(3), 661–681.
Titeux, H. & Riad, R. (2021). pygamma-agreement: Gamma γ measure for inter/intra-annotator
agreement in Python. *Journal of Open Source Software* 6(62), 2989.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

F32 = np.float32
Ints = NDArray[np.int64]
Floats = NDArray[np.float64]


@dataclass(frozen=True)
class Continuum:
    """Units of every annotator, annotators and categories in code-point order, every annotator's
    units sorted by (start, end, category) without repeats (pygamma-agreement's order)."""

    annotators: tuple[str, ...]
    categories: tuple[str, ...]
    start: tuple[Floats, ...]
    end: tuple[Floats, ...]
    cat: tuple[Ints, ...]

    @property
    def sizes(self) -> Ints:
        return np.array([len(s) for s in self.start], dtype=np.int64)

    @property
    def num_units(self) -> int:
        return int(self.sizes.sum())

    @property
    def avg_units(self) -> float:
        """Mean number of units per annotator (the observed disorder's denominator)."""
        return self.num_units / len(self.annotators)

    def bounds(self) -> tuple[float, float]:
        starts = [float(s[0]) for s in self.start if len(s)]
        ends = [float(e.max()) for e in self.end if len(e)]
        return min([0.0, *starts]), max([0.0, *ends])


def make_continuum(
    units: Iterable[tuple[str, float, float, str]],
    annotators: Sequence[str] = (),
    categories: Sequence[str] = (),
) -> Continuum:
    """The continuum of (annotator, start, end, category) units; ``annotators`` adds annotators
    without units, ``categories`` adds categories no unit has. A unit must have end > start."""
    rows = list(units)
    for who, s, e, _ in rows:
        if not float(e) > float(s):
            raise ValueError(f"unit of {who} from {s} to {e} has no length")
    names = tuple(sorted({r[0] for r in rows} | set(annotators)))
    cats = tuple(sorted({r[3] for r in rows} | set(categories)))
    cat_of = {c: i for i, c in enumerate(cats)}
    per: dict[str, set[tuple[float, float, int]]] = {a: set() for a in names}
    for who, s, e, c in rows:
        per[who].add((float(s), float(e), cat_of[c]))
    ordered = [sorted(per[a]) for a in names]
    return Continuum(
        names,
        cats,
        tuple(np.array([u[0] for u in o], dtype=np.float64) for o in ordered),
        tuple(np.array([u[1] for u in o], dtype=np.float64) for o in ordered),
        tuple(np.array([u[2] for u in o], dtype=np.int64) for o in ordered),
    )


@dataclass(frozen=True)
class Dissimilarity:
    """The combined dissimilarity :math:`\\alpha d_{pos} + \\beta d_{cat}` (α = β = Δ∅ = 1 as in
    pygamma-agreement); ``cat_matrix`` over the continuum's categories, absolute if ``None``."""

    alpha: float = 1.0
    beta: float = 1.0
    delta_empty: float = 1.0
    cat_matrix: Floats | None = field(default=None, compare=False)

    def pair_values(self, c: Continuum, a: int, i: Ints, b: int, j: Ints) -> NDArray[np.float32]:
        """d between units i of annotator a and j of b (single precision, as pygamma-agreement)."""
        delta = F32(self.delta_empty)
        s1, e1 = c.start[a][i].astype(F32), c.end[a][i].astype(F32)
        s2, e2 = c.start[b][j].astype(F32), c.end[b][j].astype(F32)
        l1 = (c.end[a][i] - c.start[a][i]).astype(F32)
        l2 = (c.end[b][j] - c.start[b][j]).astype(F32)
        dist = (np.abs(s1 - s2) + np.abs(e1 - e2)) / (l1 + l2)
        pos = dist * dist * delta
        ca, cb = c.cat[a][i], c.cat[b][j]
        if self.cat_matrix is None:
            cat = (ca != cb).astype(F32) * delta
        else:
            cat = np.asarray(self.cat_matrix, dtype=F32)[ca, cb] * delta
        mixed = self.alpha * pos.astype(np.float64) + self.beta * cat.astype(np.float64)
        return mixed.astype(F32)  # type: ignore[no-any-return]

    def positional(self, c: Continuum, a: int, i: Ints, b: int, j: Ints) -> Floats:
        """α·d_pos of units i of annotator a and j of b, in double precision (γ-cat's weights)."""
        s1, e1, s2, e2 = c.start[a][i], c.end[a][i], c.start[b][j], c.end[b][j]
        pos = (np.abs(s1 - s2) + np.abs(e1 - e2)) / ((e1 - s1) + (e2 - s2))
        return self.alpha * pos * pos * self.delta_empty  # type: ignore[no-any-return]

    def categorical(self, c: Continuum, a: int, i: Ints, b: int, j: Ints) -> Floats:
        """d_cat of units i of annotator a and j of b, in double precision."""
        ca, cb = c.cat[a][i], c.cat[b][j]
        if self.cat_matrix is None:
            return (ca != cb).astype(np.float64) * self.delta_empty  # type: ignore[no-any-return]
        return np.asarray(self.cat_matrix, dtype=np.float64)[ca, cb] * self.delta_empty  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Alignment:
    """The chosen unitary alignments: ``tuples[k, a]`` is the unit of annotator a (its size, the
    empty unit's index, if none), ``disorders[k]`` their disorders (single precision, pygamma's
    order), ``disorder`` the alignment's: their sum over the mean number of units per annotator."""

    tuples: Ints
    disorders: NDArray[np.float32]
    disorder: float


def _pairs(n: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(n) for b in range(a)]


class PairTable:
    """d of the pairs of units of annotators a > b close enough to share a unitary alignment
    (``limit``), sorted by (i, j) for look-up and by (j, i) for the units of a near a unit of b."""

    def __init__(self, c: Continuum, dis: Dissimilarity, a: int, b: int, limit: float) -> None:
        self.na, self.nb = int(len(c.start[a])), int(len(c.start[b]))
        self.delta = F32(dis.delta_empty)
        i, j = _close_pairs(c, dis, a, b, limit)
        d = dis.pair_values(c, a, i, b, j)
        keep = d <= limit
        i, j, d = i[keep], j[keep], d[keep]
        order = np.lexsort((j, i))
        self.keys = i[order] * (self.nb + 1) + j[order]
        self.vals = d[order]
        by_j = np.lexsort((i, j))
        self.i_by_j = i[by_j]
        self.j_start = np.searchsorted(j[by_j], np.arange(self.nb + 1))

    def values(self, i: Ints, j: Ints) -> NDArray[np.float32]:
        """d of units i of a and j of b (Δ∅ where either is the empty unit); both real units
        must be close (they are, in every candidate)."""
        out = np.full(len(i), self.delta, dtype=F32)
        real = (i < self.na) & (j < self.nb)
        pos = np.searchsorted(self.keys, i[real] * (self.nb + 1) + j[real])
        out[real] = self.vals[np.minimum(pos, len(self.vals) - 1)]
        return out

    def close(self, i: Ints, j: Ints) -> NDArray[np.bool_]:
        key = i * (self.nb + 1) + j
        pos = np.minimum(np.searchsorted(self.keys, key), max(len(self.keys) - 1, 0))
        return self.keys[pos] == key if len(self.keys) else np.zeros(len(i), dtype=bool)


def _close_pairs(
    c: Continuum, dis: Dissimilarity, a: int, b: int, limit: float
) -> tuple[Ints, Ints]:
    """Pairs (i of a, j of b) whose starts are near enough for d ≤ limit: α·d_pos ≥
    α((s_i - s_j)/(ℓ_i + ℓ_j))²Δ bounds how far apart they can start."""
    na, nb = len(c.start[a]), len(c.start[b])
    if not na or not nb:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if dis.alpha * dis.delta_empty <= 0:
        ii, jj = np.meshgrid(np.arange(na), np.arange(nb), indexing="ij")
        return ii.ravel(), jj.ravel()
    reach = np.sqrt(limit / (dis.alpha * dis.delta_empty)) * 1.001 + 1e-9
    len_b = c.end[b] - c.start[b]
    order = np.argsort(c.start[b], kind="stable")
    sb = c.start[b][order]
    span = reach * ((c.end[a] - c.start[a]) + len_b.max())
    lo = np.searchsorted(sb, c.start[a] - span, side="left")
    hi = np.searchsorted(sb, c.start[a] + span, side="right")
    count = hi - lo
    i = np.repeat(np.arange(na, dtype=np.int64), count)
    offs = np.arange(int(count.sum()), dtype=np.int64) - np.repeat(np.cumsum(count) - count, count)
    j = order[np.repeat(lo, count) + offs].astype(np.int64)
    return i, j


def tuple_costs(tuples: Ints, tables: dict[tuple[int, int], PairTable]) -> Floats:
    """Sum of d over the pairs of annotators of every tuple, in pygamma-agreement's order."""
    total = np.zeros(len(tuples), dtype=np.float64)
    for a, b in _pairs(tuples.shape[1]):
        total += tables[a, b].values(tuples[:, a], tuples[:, b])
    return total


def _grow(parts: Ints, a: int, tables: dict[tuple[int, int], PairTable], sizes: Ints) -> Ints:
    """Every partial tuple extended by annotator a's empty unit or by each of its units close to
    all the tuple's units."""
    m = len(parts)
    empty = np.column_stack([parts, np.full(m, sizes[a], dtype=np.int64)])
    real = parts < sizes[None, :a] if a else np.zeros((m, 0), dtype=bool)
    has = real.any(axis=1)
    lone = parts[~has]
    grown = [
        empty,
        np.column_stack(
            [np.repeat(lone, sizes[a], axis=0), np.tile(np.arange(sizes[a]), len(lone))]
        ),
    ]
    rows = np.flatnonzero(has)
    if len(rows):
        first = real[rows].argmax(axis=1)
        for b in np.unique(first):
            sel = rows[first == b]
            t = tables[a, b]
            j = parts[sel, b]
            lo, hi = t.j_start[j], t.j_start[j + 1]
            count = hi - lo
            owner = np.repeat(sel, count)
            offs = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
            units = t.i_by_j[np.repeat(lo, count) + offs]
            ok = np.ones(len(owner), dtype=bool)
            for other in range(int(b) + 1, a):
                col = parts[owner, other]
                there = col < sizes[other]
                ok[there] &= tables[a, other].close(units[there], col[there])
            grown.append(np.column_stack([parts[owner[ok]], units[ok]]))
    return np.concatenate(grown).astype(np.int64)  # type: ignore[no-any-return]


def candidates(
    c: Continuum, dis: Dissimilarity
) -> tuple[Ints, Floats, dict[tuple[int, int], PairTable]]:
    """The unitary alignments a best alignment may hold (the all-empty one excluded), their summed
    costs and the tables of d.

    A unitary alignment T of k units costs :math:`(\\binom n2 - \\binom k2)\\Delta + \\sum d`;
    split into parts of a and b units it would cost :math:`(\\binom n2 + ab)\\Delta` less the
    cross pairs' d more. T is dropped when a unit alone or the units each alone are cheaper, which
    first of all requires every pair of T closer than :math:`(\\binom n2 + n - 1)\\Delta`.
    """
    n, sizes, delta = len(c.annotators), c.sizes, dis.delta_empty
    c2n = n * (n - 1) // 2
    slack = 1e-6 * (c2n + n) * delta
    limit = (c2n + n - 1) * delta + slack
    tables = {(a, b): PairTable(c, dis, a, b, limit) for a, b in _pairs(n)}
    parts = np.zeros((1, 0), dtype=np.int64)
    for a in range(n):
        parts = _grow(parts, a, tables, sizes)
        parts = parts[_undominated(parts, tables, sizes, delta, c2n, n - 1 - a, slack)]
    parts = parts[(parts < sizes[None, :]).any(axis=1)]
    return parts, tuple_costs(parts, tables), tables


def _undominated(
    parts: Ints,
    tables: dict[tuple[int, int], PairTable],
    sizes: Ints,
    delta: float,
    c2n: int,
    rest: int,
    slack: float,
) -> NDArray[np.bool_]:
    """Partial tuples that may still end undominated: no unit farther from the others than
    :math:`(\\binom n2 + k - 1)\\Delta` with k the most units the tuple can end with, and, once
    complete, no dearer than its units each alone."""
    m, width = parts.shape
    real = parts < sizes[None, :width]
    k = real.sum(axis=1)
    tie = np.zeros((m, width), dtype=np.float64)
    for a, b in _pairs(width):
        both = np.flatnonzero(real[:, a] & real[:, b])
        d = tables[a, b].values(parts[both, a], parts[both, b])
        tie[both, a] += d
        tie[both, b] += d
    keep = (tie <= ((c2n + k + rest - 1) * delta + slack)[:, None]).all(axis=1)
    if rest == 0:
        # (C(n,2) - C(k,2))Δ + Σd ≤ k·C(n,2)·Δ: no dearer than the units each alone
        pair_sum = tie.sum(axis=1) / 2
        keep &= pair_sum <= ((k - 1) * c2n + k * (k - 1) / 2) * delta + slack
    return keep  # type: ignore[no-any-return]


def _cover(tuples: Ints, sizes: Ints) -> tuple[Ints, Ints, int]:
    """(row, column) of the ones of the covering matrix (a row per unit that some candidate has,
    a column per candidate) and its number of rows."""
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    cand, ann = np.nonzero(tuples < sizes[None, :])
    used, row = np.unique(tuples[cand, ann] + offsets[ann], return_inverse=True)
    return row.astype(np.int64), cand.astype(np.int64), len(used)


def _milp(tuples: Ints, cost: NDArray[np.float32], sizes: Ints) -> NDArray[np.bool_]:
    """The integer programme by HiGHS's branch and bound (no relative gap: exact)."""
    from scipy.optimize import LinearConstraint, milp
    from scipy.sparse import csr_matrix

    row, col, rows = _cover(tuples, sizes)
    cover = csr_matrix((np.ones(len(row)), (row, col)), shape=(rows, len(tuples)))
    res = milp(
        cost.astype(np.float64),
        constraints=LinearConstraint(cover, 1.0, 1.0),
        integrality=np.ones(len(tuples)),
        bounds=(0.0, 1.0),
        options={"mip_rel_gap": 0.0, "presolve": False},
    )
    if res.x is None:
        raise RuntimeError(f"the alignment programme has no solution: {res.message}")
    return np.asarray(res.x) > 0.5


def _solve_many(
    problems: list[tuple[Ints, NDArray[np.float32], Ints]],
) -> list[NDArray[np.bool_]]:
    """The exact integer programmes, min Σ cost·x with every unit covered once, x binary.

    Their linear relaxations are solved together, one block each in one programme (dual
    simplex, a vertex): a block whose optimum is integral holds its programme's integer optimum;
    the others go to HiGHS's branch and bound one by one."""
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix

    rows, cols, costs, spans = [], [], [], []
    r0 = c0 = 0
    for tuples, cost, sizes in problems:
        row, col, n_rows = _cover(tuples, sizes)
        rows.append(row + r0)
        cols.append(col + c0)
        costs.append(cost.astype(np.float64))
        spans.append((c0, c0 + len(tuples), r0, r0 + n_rows))
        r0, c0 = r0 + n_rows, c0 + len(tuples)
    row, col = np.concatenate(rows), np.concatenate(cols)
    cover = csr_matrix((np.ones(len(row)), (row, col)), shape=(r0, c0))
    lp = linprog(
        np.concatenate(costs), A_eq=cover, b_eq=np.ones(r0), bounds=(0.0, 1.0), method="highs-ds"
    )
    x = np.asarray(lp.x) if lp.x is not None else np.full(c0, 0.5)
    pick = x > 0.5
    covered = cover @ pick.astype(np.float64)
    out = []
    for (lo, hi, rlo, rhi), (tuples, cost, sizes) in zip(spans, problems):
        block = pick[lo:hi]
        exact = np.all(np.abs(x[lo:hi] - block) < 1e-9) and np.all(covered[rlo:rhi] == 1)
        out.append(block if exact else _milp(tuples, cost, sizes))
    return out


#: candidates of the programmes whose linear relaxations are solved together
BATCH = 3000


def best_alignments(cs: Sequence[Continuum], dis: Dissimilarity) -> list[Alignment]:
    """The alignment of least total disorder of every continuum (exact)."""
    problems, todo = [], []
    out: list[Alignment | None] = [None] * len(cs)
    for k, c in enumerate(cs):
        n, sizes = len(c.annotators), c.sizes
        if n < 2 or not c.num_units:
            raise ValueError("γ needs at least two annotators and one unit")
        tuples, costs, _ = candidates(c, dis)
        unit_cost = (costs.astype(F32) / F32(n * (n - 1) // 2)).astype(F32)
        if ((tuples < sizes[None, :]).sum(axis=1) == 1).all():
            out[k] = _alignment(tuples, unit_cost, c)
        else:
            problems.append((tuples, unit_cost, sizes))
            todo.append(k)
    start = 0
    while start < len(
        problems
    ):  # a few thousand candidates per programme: the simplex's sweet spot
        stop, width = start, 0
        while stop < len(problems) and (stop == start or width + len(problems[stop][0]) <= BATCH):
            width += len(problems[stop][0])
            stop += 1
        batch = problems[start:stop]
        for k, chosen, (tuples, unit_cost, sizes) in zip(
            todo[start:stop], _solve_many(batch), batch
        ):
            chosen = _merge_ties(tuples, unit_cost, chosen, sizes)
            out[k] = _alignment(tuples[chosen], unit_cost[chosen], cs[k])
        start = stop
    return [a for a in out if a is not None]


def _merge_ties(
    tuples: Ints, cost: NDArray[np.float32], chosen: NDArray[np.bool_], sizes: Ints
) -> NDArray[np.bool_]:
    """Two chosen unitary alignments replaced by the one that holds exactly their units when it
    costs no more (a tie, since the choice is optimal): of equally good alignments, the one that
    aligns more units together."""
    real = tuples < sizes[None, :]
    owner = [np.full(int(s) + 1, -1, dtype=np.int64) for s in sizes]
    for k in np.flatnonzero(chosen):
        for a in np.flatnonzero(real[k]):
            owner[a][tuples[k, a]] = k
    cand = np.flatnonzero(~chosen & (real.sum(axis=1) >= 2))
    if not len(cand):
        return chosen
    own = np.stack([owner[a][tuples[cand, a]] for a in range(len(sizes))], axis=1)
    big = np.iinfo(np.int64).max
    lo = np.where(real[cand], own, big).min(axis=1)
    hi = np.where(real[cand], own, -1).max(axis=1)
    two = (lo != hi) & np.all(~real[cand] | (own == lo[:, None]) | (own == hi[:, None]), axis=1)
    cand, lo, hi = cand[two], lo[two], hi[two]
    whole = real[lo].sum(axis=1) + real[hi].sum(axis=1) == real[cand].sum(axis=1)
    tie = cost[cand] <= (cost[lo] + cost[hi]).astype(F32)
    chosen = chosen.copy()
    for c, a, b in zip(cand[whole & tie], lo[whole & tie], hi[whole & tie]):
        if chosen[a] and chosen[b]:
            chosen[a] = chosen[b] = False
            chosen[c] = True
    return chosen


def best_alignment(c: Continuum, dis: Dissimilarity) -> Alignment:
    """The alignment of least total disorder (exact)."""
    return best_alignments([c], dis)[0]


def _alignment(tuples: Ints, disorders: NDArray[np.float32], c: Continuum) -> Alignment:
    """The alignment in pygamma-agreement's order (the first annotator's unit varying fastest)
    with its disorder, the single-precision sum over the mean number of units per annotator."""
    order = np.lexsort(tuples.T)
    tuples, disorders = tuples[order], disorders[order]
    return Alignment(tuples, disorders, float(np.sum(disorders, dtype=F32)) / c.avg_units)

r"""Fast-γ: the best alignment approximated window by window (Mathet 2017; pygamma-agreement).

The leftmost units (about w per annotator, taken as their ends come) and the units close enough
to them to share a unitary alignment (:math:`d \le n\Delta_\emptyset` from the rightmost one
taken) form a window; its best alignment is computed exactly and the unitary alignments that end
before the first units' limit are kept and their units removed, until no unit is left. The
window size w minimises pygamma-agreement's cost model of the whole computation; when no window
is cheaper than the exact programme it is aligned exactly.

References
----------
Mathet, Y. (2017). The Agreement Measure γcat a Complement to γ Focused on Categorization of a
Continuum. *Computational Linguistics* 43(3), 661–681.
Titeux, H. & Riad, R. (2021). pygamma-agreement: Gamma γ measure for inter/intra-annotator
agreement in Python. *Journal of Open Source Software* 6(62), 2989.
"""

from __future__ import annotations

import numpy as np

from iaa_desktop.core.metrics.gamma_align import (
    F32,
    Alignment,
    Continuum,
    Dissimilarity,
    Ints,
    best_alignment,
)


def _unit_d(c: Continuum, dis: Dissimilarity, x: tuple[int, int], y: tuple[int, int]) -> float:
    """d of two units (annotator, index) in double precision (pygamma-agreement's ``d``)."""
    a, i = x
    b, j = y
    ii, jj = np.array([i]), np.array([j])
    return float(
        dis.positional(c, a, ii, b, jj)[0] + dis.beta * dis.categorical(c, a, ii, b, jj)[0]
    )


def _first_window(
    c: Continuum, left: list[Ints], dis: Dissimilarity, w: int
) -> tuple[list[Ints], float]:
    """The units (indices into ``c``) of the first window of the units ``left`` and its limit."""
    n = len(c.annotators)
    idx = [0] * n
    sizes = [len(x) for x in left]
    taken: list[list[int]] = [[] for _ in range(n)]
    right: tuple[float, float, int] | None = None
    right_unit = (0, 0)
    count, to_take = 0, min(sum(sizes), w * n)
    while count < to_take:
        limit = min(float(c.end[a][left[a][idx[a]]]) for a in range(n) if idx[a] < sizes[a])
        for a in range(n):
            if idx[a] >= sizes[a]:
                continue
            u = int(left[a][idx[a]])
            if c.end[a][u] <= limit:
                taken[a].append(u)
                key = (float(c.start[a][u]), float(c.end[a][u]), int(c.cat[a][u]))
                if right is None or key > right:
                    right, right_unit = key, (a, u)
                count += 1
                idx[a] += 1
    x_limit = max([0.0] + [float(c.end[a][u]) for a in range(n) for u in taken[a]])
    for a in range(n):
        k = idx[a]
        while k < sizes[a]:
            u = int(left[a][k])
            if _unit_d(c, dis, right_unit, (a, u)) > dis.delta_empty * n:
                break
            taken[a].append(u)
            k += 1
    return [np.array(t, dtype=np.int64) for t in taken], x_limit


def _sub(c: Continuum, keep: list[Ints]) -> Continuum:
    return Continuum(
        c.annotators,
        c.categories,
        tuple(s[k] for s, k in zip(c.start, keep)),
        tuple(e[k] for e, k in zip(c.end, keep)),
        tuple(x[k] for x, k in zip(c.cat, keep)),
    )


def best_window_size(c: Continuum, dis: Dissimilarity) -> float:
    """pygamma-agreement's choice of window size (``inf``: align exactly)."""
    sizes = c.sizes
    first, _ = _first_window(c, [np.arange(s) for s in sizes], dis, 1)
    s = max(len(x) for x in first)
    n, p = int(c.avg_units), len(c.annotators)
    ws = np.arange(1, max(2, int(sizes.max())))
    nf = 1 / 20
    times = (
        n * p
        + (
            (n - ws) * p / 2
            + 2 * p
            + (ws + s * p) * p
            + (n - ws) * p / 2
            + nf * (ws + s) ** p
            + (ws + s) * p * np.log2((ws + s) * p)
            + ws * p
        )
        * (n / ws)
    ) + p * np.cumsum(np.log2(ws))
    best = int(np.argmin(times))
    return float(ws[best]) if times[best] < n * p + nf * n**p else float("inf")


def fast_alignment(c: Continuum, dis: Dissimilarity, window: float | None = None) -> Alignment:
    """The fast-γ alignment with windows of ``window`` units per annotator (chosen if None)."""
    w = best_window_size(c, dis) if window is None else window
    if not np.isfinite(w):
        return best_alignment(c, dis)
    sizes = c.sizes
    left = [np.arange(s, dtype=np.int64) for s in sizes]
    rows: list[Ints] = []
    disorders: list[np.float32] = []
    while any(len(x) for x in left):
        keep, x_limit = _first_window(c, left, dis, int(w))
        part = best_alignment(_sub(c, keep), dis)
        ends = []
        for t in part.tuples:
            ends.append(
                max(float(c.end[a][keep[a][u]]) for a, u in enumerate(t) if u < len(keep[a]))
            )
        order = sorted(range(len(ends)), key=lambda k: ends[k])
        # up to the first that ends past the limit, as pygamma-agreement does (at least one)
        stop = next((i for i, k in enumerate(order) if ends[k] > x_limit), len(order))
        chosen = order[: max(stop, 1)]
        for k in chosen:
            t = part.tuples[k]
            row = np.array(
                [keep[a][u] if u < len(keep[a]) else sizes[a] for a, u in enumerate(t)],
                dtype=np.int64,
            )
            rows.append(row)
            disorders.append(part.disorders[k])
            for a, u in enumerate(row):
                if u < sizes[a]:
                    left[a] = left[a][left[a] != u]
    tuples = np.array(rows, dtype=np.int64).reshape(-1, len(sizes))
    d = np.array(disorders, dtype=F32)
    total = float(np.sum(d, dtype=F32)) / c.avg_units
    order = np.lexsort(tuples.T)
    return Alignment(tuples[order], d[order], total)

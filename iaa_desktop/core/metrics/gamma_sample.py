r"""Random continua for γ's expected disorder, drawn as pygamma-agreement draws them.

γ's expected disorder is the mean disorder of the best alignments of continua built by chance
from the observed one (Mathet, Widlöcher & Métivier 2015, §5.2). Two samplers, each drawing from
NumPy's legacy generator in the order pygamma-agreement does, so that one seed gives the same
continua:

- ``statistical`` (pygamma-agreement's default): for every annotator a number of units, gaps
  between them and their lengths drawn from normal laws with the observed means and standard
  deviations, categories with the observed frequencies;
- ``shuffle`` (the paper's §5.2 and the Gamma software): every sampled annotator is a randomly
  chosen observed annotator whose units are shifted by a random pivot, the pivots at least half
  the mean unit length apart, units past the end wrapped to the beginning.

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The Unified and Holistic Method Gamma (γ) for
Inter-Annotator Agreement Measure and Alignment. *Computational Linguistics* 41(3), 437–479.
Titeux, H. & Riad, R. (2021). pygamma-agreement: Gamma γ measure for inter/intra-annotator
agreement in Python. *Journal of Open Source Software* 6(62), 2989.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from iaa_desktop.core.metrics.gamma_align import Continuum

#: pyannote.core's shortest segment: pygamma-agreement draws a unit's length again below it
SEGMENT_PRECISION = 1e-6

Sampler = Callable[[], Continuum]
SAMPLERS = ("statistical", "shuffle")


def _build(
    template: Continuum, names: list[str], units: list[list[tuple[float, float, int]]]
) -> Continuum:
    """A continuum of the sampled units, annotators in code-point order, every annotator's units
    in (start, end, category) order."""
    order = sorted(range(len(names)), key=lambda k: names[k])
    starts, ends, cats = [], [], []
    for k in order:
        arr = np.array(sorted(set(units[k])), dtype=np.float64).reshape(-1, 3)
        starts.append(arr[:, 0].copy())
        ends.append(arr[:, 1].copy())
        cats.append(arr[:, 2].astype(np.int64))
    return Continuum(
        tuple(names[k] for k in order), template.categories, tuple(starts), tuple(ends), tuple(cats)
    )


def statistical_sampler(c: Continuum, rs: np.random.RandomState) -> Sampler:
    """pygamma-agreement's ``StatisticalContinuumSampler``."""
    gaps: list[float] = [0.0]
    for s, e in zip(c.start, c.end):
        gaps.extend((s[1:] - e[:-1]).tolist())
    gaps.extend(float(s[0]) for s in c.start if len(s) and s[0] > 0)
    durations = np.concatenate([e - s for s, e in zip(c.start, c.end)])
    counts = c.sizes.astype(np.float64)
    present = sorted({int(x) for cat in c.cat for x in cat})
    weights = np.zeros(len(present))
    index = {k: i for i, k in enumerate(present)}
    for cat in c.cat:
        for x in cat.tolist():
            weights[index[x]] += 1
    weights /= c.num_units
    cdf = weights.cumsum()
    cdf /= cdf[-1]
    avg_gap, std_gap = float(np.mean(gaps)), float(np.std(gaps))
    avg_len, std_len = float(np.mean(durations)), float(np.std(durations))
    avg_n, std_n = float(np.mean(counts)), float(np.std(counts))
    names = list(c.annotators)

    def sample() -> Continuum:
        units: list[list[tuple[float, float, int]]] = []
        total = 0
        for _ in names:
            last = 0.0
            n = abs(int(rs.normal(avg_n, std_n)))
            if total == 0:
                n = max(1, n)
            mine = []
            for _ in range(n):
                start = last + rs.normal(avg_gap, std_gap)
                end = start + abs(rs.normal(avg_len, std_len))
                while end - start < SEGMENT_PRECISION:
                    end = start + abs(rs.normal(avg_len, std_len))
                # what RandomState.choice(p=weights) draws: one uniform looked up in the CDF
                cat = present[int(cdf.searchsorted(rs.random_sample(), side="right"))]
                mine.append((float(start), float(end), cat))
                last = end
            total += n
            units.append(mine)
        return _build(c, names, units)

    return sample


def _remove_pivot(
    pivot: float, segments: list[tuple[float, float]], dist: float
) -> list[tuple[float, float]]:
    """pygamma-agreement's ``_remove_pivot_segment``, segment for segment."""
    out: list[tuple[float, float]] = []
    segments = list(segments)
    while segments:
        s, e = segments.pop()
        if s >= pivot - dist:
            if e <= pivot + dist:
                continue
            out.append((pivot + dist, e))
        else:
            out.append((s, pivot - dist))
            if e > pivot + dist:
                out.append((pivot + dist, e))
    return out


def shuffle_sampler(c: Continuum, rs: np.random.RandomState) -> Sampler:
    """pygamma-agreement's ``ShuffleContinuumSampler`` with integer pivots (the Gamma software's)."""
    durations = [float(x) for e, s in zip(c.end, c.start) for x in (e - s).tolist()]
    total = 0.0
    for x in durations:
        total += x
    min_dist = total / len(durations) / 2
    lo, hi = c.bounds()
    names = list(c.annotators)

    def pivot_from(segments: list[tuple[float, float]]) -> float:
        weights = np.array([e - s for s, e in segments], dtype=np.float64)
        weights /= np.sum(weights)
        try:
            s, e = segments[int(rs.choice(len(segments), p=weights))]
        except ValueError:
            return 1
        return int(rs.uniform(s, e))

    def sample() -> Continuum:
        while True:
            free = [(lo, hi)]
            new_names, units = [], []
            for idx in range(len(names)):
                if free:
                    pivot = pivot_from(free)
                    free = _remove_pivot(pivot, free, min_dist)
                else:
                    pivot = rs.uniform(lo, hi)
                who = int(rs.choice(len(names)))
                s, e = c.start[who], c.end[who]
                wrap = s + pivot > hi
                ns = np.where(wrap, s + pivot + lo - hi, s + pivot)
                ne = np.where(wrap, e + pivot + lo - hi, e + pivot)
                new_names.append(f"Sampled_annotation {idx}")
                units.append(list(zip(ns.tolist(), ne.tolist(), c.cat[who].tolist())))
            if any(units):
                return _build(c, new_names, units)

    return sample


def make_sampler(kind: str, c: Continuum, rs: np.random.RandomState) -> Sampler:
    if kind == "statistical":
        return statistical_sampler(c, rs)
    if kind == "shuffle":
        return shuffle_sampler(c, rs)
    raise ValueError(f"unknown γ sampler {kind!r} (one of {', '.join(SAMPLERS)})")

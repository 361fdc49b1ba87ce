r"""Mathet, Widlöcher & Métivier's γ for units that may overlap, nest or be missing.

.. math::
    \gamma = 1 - \frac{\delta(\hat a)}{\delta_e}
    \qquad
    \delta(a) = \frac{1}{\bar p} \sum_{\breve u \in a} \frac{1}{\binom n2}
        \sum_{\{x, y\} \subset \breve u} d(x, y)

where :math:`\hat a` is the best alignment of the continuum (the alignment of least disorder,
see :mod:`iaa_desktop.core.metrics.gamma_align`), :math:`\bar p` the mean number of units per
annotator, n the number of annotators and :math:`\delta_e` the expected disorder, the mean
disorder of the best alignments of randomly sampled continua
(:mod:`iaa_desktop.core.metrics.gamma_sample`). γ is 1 when the observed disorder is 0.

The number of samples follows the precision asked for (Mathet et al. 2015, §5.3): 30 first, then
:math:`\lceil (1.96\, c_v / p)^2 \rceil` in all if more are needed, with :math:`c_v` the
coefficient of variation of the first 30 disorders and p the precision level; the interval
:math:`[1 - \delta(\hat a)/(\delta_e(1 - p)),\; 1 - \delta(\hat a)/(\delta_e(1 + p))]` bounds
γ for a relative error p of :math:`\delta_e` (pygamma-agreement's ``approx_gamma_range``).

γ-cat and γ-k (Mathet 2017) measure the categorisation alone: over the pairs of units aligned
together, the categorical dissimilarity weighted by :math:`\max(0, 1 - \alpha d_{pos})/(n_v - 1)`
(:math:`n_v` the units of the unitary alignment), a unit aligned with nothing weighing Δ∅ with
disorder Δ∅², as pygamma-agreement computes them; γ-k keeps the pairs where one unit has
category k.

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The Unified and Holistic Method Gamma (γ) for
Inter-Annotator Agreement Measure and Alignment. *Computational Linguistics* 41(3), 437–479.
Mathet, Y. (2017). The Agreement Measure γcat a Complement to γ Focused on Categorization of a
Continuum. *Computational Linguistics* 43(3), 661–681.
Titeux, H. & Riad, R. (2021). pygamma-agreement: Gamma γ measure for inter/intra-annotator
agreement in Python. *Journal of Open Source Software* 6(62), 2989.

>>> units = [("A", 0, 10, "x"), ("B", 0, 10, "x"), ("A", 20, 30, "y"), ("B", 20, 30, "y")]
>>> r = gamma(make_continuum(units))
>>> r.gamma, r.observed_disorder
(1.0, 0.0)
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.metrics.gamma_align import (
    Alignment,
    Continuum,
    Dissimilarity,
    best_alignments,
    make_continuum,
)
from iaa_desktop.core.metrics.gamma_fast import best_window_size, fast_alignment
from iaa_desktop.core.metrics.gamma_sample import make_sampler

__all__ = ["GammaResult", "gamma", "make_continuum", "Dissimilarity", "Continuum"]

#: pygamma-agreement's named precision levels
PRECISION_LEVELS = {"high": 0.01, "medium": 0.02, "low": 0.1}
FIRST_SAMPLES = 30


@dataclass
class GammaResult:
    """γ with its observed and expected disorders, the interval for the precision level, γ-cat,
    γ-k per category and the settings that reproduce it."""

    gamma: float
    interval: tuple[float, float]
    observed_disorder: float
    expected_disorder: float
    chance_disorders: list[float]
    gamma_cat: float
    gamma_k: dict[str, float]
    seed: int
    precision_level: float
    sampler: str
    fast: bool
    alignment: Alignment
    samples: list[tuple[Continuum, Alignment]] = field(repr=False, default_factory=list)

    @property
    def n_samples(self) -> int:
        return len(self.chance_disorders)


def align(c: Continuum, dis: Dissimilarity, window: float | None = None) -> Alignment:
    """The best alignment, exact or (``window`` finite) by fast-γ's windows of that size."""
    return align_many([c], dis, window)[0]


def align_many(
    cs: list[Continuum], dis: Dissimilarity, window: float | None = None
) -> list[Alignment]:
    """The best alignments of many continua (exact ones solved as one programme)."""
    if window is None or not math.isfinite(window):
        return best_alignments(cs, dis)
    return [fast_alignment(c, dis, window) for c in cs]


def _align_job(job: tuple[list[Continuum], Dissimilarity, float | None]) -> list[Alignment]:
    return align_many(*job)


def _align_all(
    samples: list[Continuum], dis: Dissimilarity, window: float | None, processes: int
) -> list[Alignment]:
    """The samples' alignments, in ``processes`` processes (half of the samples each) when there
    is enough work to pay for starting them (in this process if they cannot start)."""
    work = sum(s.num_units for s in samples)
    # a frozen application would start itself again in every process
    if processes > 1 and work > 40_000 and not getattr(sys, "frozen", False):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        chunks = [samples[k::processes] for k in range(processes)]
        try:
            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(processes, mp_context=ctx) as pool:
                parts = list(pool.map(_align_job, [(ch, dis, window) for ch in chunks]))
        except (OSError, BrokenProcessPool, RuntimeError):
            return align_many(samples, dis, window)
        out: list[Alignment | None] = [None] * len(samples)
        for k, part in enumerate(parts):
            out[k::processes] = part
        return [a for a in out if a is not None]
    return align_many(samples, dis, window)


def gamma(
    c: Continuum,
    dis: Dissimilarity | None = None,
    seed: int = 0,
    precision_level: float | str = 0.02,
    sampler: str = "statistical",
    fast: bool = False,
    processes: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> GammaResult:
    """γ, γ-cat and γ-k of a continuum of at least two annotators and one unit.

    ``seed`` seeds NumPy's legacy generator the samplers draw from (pygamma-agreement draws from
    the global one after ``np.random.seed(seed)``); ``precision_level`` is p above (or "high",
    "medium", "low"); ``fast`` aligns by fast-γ's windows; ``progress(done, total)`` is called
    as samples are aligned.
    """
    dis = dis or Dissimilarity()
    p = PRECISION_LEVELS[precision_level] if isinstance(precision_level, str) else precision_level
    if not 0 < p < 1:
        raise ValueError(f"the precision level must lie between 0 and 1, not {p}")
    window = best_window_size(c, dis) if fast else None
    best = align(c, dis, window)
    rs = np.random.RandomState(seed)
    draw = make_sampler(sampler, c, rs)
    samples = [draw() for _ in range(FIRST_SAMPLES)]
    aligned = _align_all(samples, dis, window, processes)
    if progress:
        progress(len(aligned), len(aligned))
    chance = [a.disorder for a in aligned]
    mean = float(np.mean(chance))
    cv = float(np.std(chance)) / mean if mean > 0 else 0.0
    required = math.ceil((cv * 1.96 / p) ** 2)
    if required > FIRST_SAMPLES:
        more = [draw() for _ in range(required - FIRST_SAMPLES)]
        samples += more
        aligned += _align_all(more, dis, window, processes)
        chance = [a.disorder for a in aligned]
        if progress:
            progress(len(aligned), len(aligned))
    observed, expected = best.disorder, float(np.mean(chance))
    if observed == 0:
        g, interval = 1.0, (1.0, 1.0)
    elif expected == 0:  # chance aligns perfectly: γ is undefined
        g, interval = math.nan, (math.nan, math.nan)
    else:
        g = 1 - observed / expected
        interval = (1 - observed / (expected * (1 - p)), 1 - observed / (expected * (1 + p)))
    pairs = list(zip(samples, aligned))
    g_cat, cat_k = _gamma_cats(c, best, pairs, dis)
    return GammaResult(
        gamma=g,
        interval=interval,
        observed_disorder=observed,
        expected_disorder=expected,
        chance_disorders=chance,
        gamma_cat=g_cat,
        gamma_k=cat_k,
        seed=seed,
        precision_level=p,
        sampler=sampler,
        fast=fast,
        alignment=best,
        samples=pairs,
    )


def _gamma_cats(
    c: Continuum, best: Alignment, pairs: list[tuple[Continuum, Alignment]], dis: Dissimilarity
) -> tuple[float, dict[str, float]]:
    """γ-cat and γ-k of every category."""
    keys: list[int | None] = [None, *range(len(c.categories))]
    observed = cat_disorders(c, best, dis, keys)
    chance = np.array([cat_disorders(s, a, dis, keys) for s, a in pairs]).reshape(-1, len(keys))
    out = []
    for i, key in enumerate(keys):
        expected = float(np.mean(chance[:, i]))
        if observed[i] == 0:
            out.append(1.0)
        elif expected == 0:
            out.append(0.0 if key is None else math.nan)
        else:
            out.append(1 - observed[i] / expected)
    return out[0], dict(zip(c.categories, out[1:]))


def _cats(c: Continuum, t: NDArray[np.int64], real: NDArray[np.bool_], a: int) -> NDArray[np.int64]:
    """The category of annotator a's unit in every unitary alignment, -1 for the empty unit."""
    out = np.full(len(t), -1, dtype=np.int64)
    out[real[:, a]] = c.cat[a][t[real[:, a], a]]
    return out


def cat_disorders(
    c: Continuum, al: Alignment, dis: Dissimilarity, keys: list[int | None]
) -> list[float]:
    """The categorical disorder of an alignment (pygamma-agreement's ``gamma_k_disorder``) over
    every pair of units (key None, γ-cat) or the pairs where one unit has category key (γ-k)."""
    t, sizes, n = al.tuples, c.sizes, len(c.annotators)
    real = t < sizes[None, :]
    nv = real.sum(axis=1)
    base = np.where(nv >= 2, 1.0 / np.maximum(nv - 1, 1), 0.0)
    cats = [_cats(c, t, real, a) for a in range(n)]
    m = len(keys)
    total, weight = np.zeros(m), np.zeros(m)
    any_pair, looped = np.zeros(m, dtype=bool), np.zeros(m, dtype=bool)
    d2 = dis.delta_empty * dis.delta_empty
    for a in range(n):
        for b in range(a + 1, n):
            ra, rb = real[:, a], real[:, b]
            both = np.flatnonzero(ra & rb)
            i, j = t[both, a], t[both, b]
            w = base[both] * np.maximum(0.0, 1 - dis.positional(c, a, i, b, j))
            cd = dis.categorical(c, a, i, b, j) * w
            for k, key in enumerate(keys):
                if key is None:
                    keep = ra | rb
                else:
                    keep = (cats[a] == key) | (cats[b] == key)
                if not keep.any():
                    continue
                any_pair[k] = True
                one = int(np.count_nonzero(keep & (ra ^ rb)))
                total[k] += one * d2
                weight[k] += one * dis.delta_empty
                sel = keep[both]
                if sel.any():
                    looped[k] = True
                    total[k] += float(np.sum(cd[sel]))
                    weight[k] += float(np.sum(w[sel]))
    out = []
    for k in range(m):
        if not looped[k]:
            out.append(0.0 if any_pair[k] else 1.0)
        else:
            out.append(0.0 if total[k] == 0 else float(total[k] / weight[k]))
    return out

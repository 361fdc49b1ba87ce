r"""Annotator competence and an inferred label per item: Dawid–Skene and MACE.

Both read *responses*: (item, annotator, category) triples, every response counting, an
annotator's repeated judgments of an item included.

**Dawid–Skene** (Dawid & Skene 1979): each annotator :math:`k` has a confusion matrix
:math:`\pi^{(k)}_{jl} = P(\text{answers } l \mid \text{true class } j)`, the classes have
prevalences :math:`p_j`. With :math:`n_{ikl}` the number of times :math:`k` answered :math:`l` on
item :math:`i` and :math:`T_{ij}` the posterior of class :math:`j` for item :math:`i`, EM
alternates

.. math::

   \hat p_j = \frac{1}{I}\sum_i T_{ij}, \qquad
   \hat\pi^{(k)}_{jl} = \frac{\sum_i T_{ij}\, n_{ikl}}{\sum_{l'} \sum_i T_{ij}\, n_{ikl'}},
   \qquad
   T_{ij} \propto \hat p_j \prod_k \prod_l \big(\hat\pi^{(k)}_{jl}\big)^{n_{ikl}},

started (as in the paper) from each item's share of responses per class,
:math:`T^{(0)}_{ij} = n_{i\cdot j} / n_{i\cdot\cdot}`, and iterated to the fixed point (no
:math:`T_{ij}` changing by more than :math:`10^{-8}`).

**MACE** (Hovy, Berg-Kirkpatrick, Vaswani & Hovy 2013): annotator :math:`a` knows the answer with
probability :math:`\xi_a` (its *competence*), else guesses from its own distribution
:math:`\theta_a`: :math:`P(\text{answer } l \mid \text{true } t) = \xi_a [l = t] + (1 - \xi_a)
\theta_{a,l}`, with a uniform prior over the true label. Variational Bayes EM with a
Beta(α = 0.5, β = 0.5) prior on the knowing/guessing split and a symmetric Dirichlet(10) prior on
:math:`\theta_a`; 50 iterations from each of 10 random starts, the start with the highest log
marginal likelihood kept — the defaults of the authors' reference program, computed as it
computes them (its random starts drawn as NumPy's ``RandomState(seed)`` draws them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.special import digamma

__all__ = [
    "DS_TOLERANCE",
    "MACE_ALPHA",
    "MACE_BETA",
    "MACE_ITERATIONS",
    "MACE_RESTARTS",
    "CrowdResult",
    "dawid_skene",
    "mace",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Dawid–Skene stops when no posterior changes by more than this
DS_TOLERANCE = 1e-8
#: an upper bound on Dawid–Skene's iterations (EM converges; this only guards a pathological case)
DS_MAX_ITERATIONS = 100_000
#: the defaults of the MACE reference program
#: log 0 in Dawid–Skene's E-step (finite, so that responses not given multiply it by 0)
_LOG_ZERO = -1e250
MACE_ALPHA = 0.5
MACE_BETA = 0.5
MACE_ITERATIONS = 50
MACE_RESTARTS = 10
MACE_NOISE = 0.5
MACE_STRATEGY_PRIOR = 10.0


@dataclass(frozen=True)
class CrowdResult:
    """An aggregation's figures.

    Attributes
    ----------
    posterior : (items, classes) the posterior of each item's true class (rows of items with no
        response are NaN)
    competence : (annotators,) Dawid–Skene: the annotator's probability of answering the true
        class, :math:`\\sum_j \\hat p_j \\pi^{(k)}_{jj}`; MACE: :math:`\\xi_a`
    confusion : (annotators, classes, classes) Dawid–Skene's :math:`\\pi^{(k)}` (true class ×
        answer); MACE: none
    prior : (classes,) Dawid–Skene's class prevalences; MACE: uniform
    log_likelihood : the log-likelihood of the responses at the estimate (MACE: marginal)
    iterations : Dawid–Skene: iterations to the fixed point; MACE: per restart
    seed : MACE: the random seed of the starts
    best_restart : MACE: the restart kept (1-based)
    """

    method: str
    posterior: FloatArray
    competence: FloatArray
    confusion: FloatArray | None
    prior: FloatArray
    log_likelihood: float
    iterations: int
    seed: int | None = None
    best_restart: int | None = None

    @property
    def labels(self) -> IntArray:
        """Per item the class of highest posterior (−1 when the item has no response)."""
        post = np.nan_to_num(self.posterior, nan=-1.0)
        out: IntArray = post.argmax(axis=1).astype(np.int64)
        out[np.isnan(self.posterior).all(axis=1)] = -1
        return out


def _counts(
    items: IntArray, annotators: IntArray, labels: IntArray, n_items: int, n_ann: int, q: int
) -> FloatArray:
    n = np.zeros((n_items, n_ann, q))
    np.add.at(n, (items, annotators, labels), 1.0)
    return n


def dawid_skene(
    items: npt.ArrayLike,
    annotators: npt.ArrayLike,
    labels: npt.ArrayLike,
    n_items: int | None = None,
    n_annotators: int | None = None,
    n_classes: int | None = None,
    tol: float = DS_TOLERANCE,
) -> CrowdResult:
    r"""Dawid & Skene's (1979) maximum-likelihood confusion matrices by EM (module docstring).

    Parameters
    ----------
    items, annotators, labels : one entry per response (integer codes from 0)
    n_items, n_annotators, n_classes : the sizes (default: the largest code + 1)
    tol : stop when no posterior :math:`T_{ij}` changes by more than this

    References
    ----------
    Dawid, A. P., & Skene, A. M. (1979). Maximum likelihood estimation of observer error-rates
    using the EM algorithm. Journal of the Royal Statistical Society C, 28(1), 20–28.

    Examples
    --------
    Three annotators, the third always answering the other class:

    >>> it = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    >>> an = [0, 1, 2] * 3
    >>> lab = [0, 0, 1, 1, 1, 0, 0, 0, 1]
    >>> r = dawid_skene(it, an, lab)
    >>> r.labels.tolist(), r.competence.round(3).tolist()
    ([0, 1, 0], [1.0, 1.0, 0.0])
    """
    it = np.asarray(items, dtype=np.int64)
    an = np.asarray(annotators, dtype=np.int64)
    lab = np.asarray(labels, dtype=np.int64)
    ni = int(n_items if n_items is not None else (it.max() + 1 if len(it) else 0))
    na = int(n_annotators if n_annotators is not None else (an.max() + 1 if len(an) else 0))
    q = int(n_classes if n_classes is not None else (lab.max() + 1 if len(lab) else 0))
    n = _counts(it, an, lab, ni, na, q)
    per_item = n.sum(axis=1)  # (I, q) responses per class
    total = per_item.sum(axis=1)
    has = total > 0
    t = np.zeros((ni, q))
    t[has] = per_item[has] / total[has, None]
    n_h = n[has]
    loglik = math.nan
    iterations = 0
    for iterations in range(1, DS_MAX_ITERATIONS + 1):  # noqa: B007 - the count is reported
        th = t[has]
        prior = th.mean(axis=0)
        num = np.einsum("ij,ikl->kjl", th, n_h)  # (K, q true, q answer)
        den = num.sum(axis=2, keepdims=True)
        pi = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
        with np.errstate(divide="ignore"):
            # log 0 as a finite "minus infinity", so that 0 · log 0 = 0 for responses not given
            log_pi = np.maximum(np.log(pi), _LOG_ZERO)
            log_prior = np.maximum(np.log(prior), _LOG_ZERO)
        ll = log_prior[None, :] + np.einsum("ikl,kjl->ij", n_h, log_pi)
        top = ll.max(axis=1, keepdims=True)
        w = np.exp(ll - top)
        new = w / w.sum(axis=1, keepdims=True)
        loglik = float((top[:, 0] + np.log(w.sum(axis=1))).sum())
        change = float(np.abs(new - th).max()) if len(th) else 0.0
        t[has] = new
        if change <= tol:
            break
    th = t[has]
    prior = th.mean(axis=0) if len(th) else np.full(q, np.nan)
    num = np.einsum("ij,ikl->kjl", th, n_h)
    den = num.sum(axis=2, keepdims=True)
    pi = np.divide(num, den, out=np.full_like(num, np.nan), where=den > 0)
    competence = np.nansum(prior[None, :] * np.einsum("kjj->kj", pi), axis=1)
    competence[~(n.sum(axis=(0, 2)) > 0)] = np.nan
    post = np.full((ni, q), np.nan)
    post[has] = t[has]
    return CrowdResult("dawid_skene", post, competence, pi, prior, loglik, iterations, None, None)


def _mace_e_step(
    it: IntArray,
    an: IntArray,
    lab: IntArray,
    ni: int,
    na: int,
    q: int,
    spam: FloatArray,
    theta: FloatArray,
) -> tuple[float, FloatArray, FloatArray, FloatArray]:
    """The reference program's E-step: log marginal likelihood, gold marginals, expected counts
    of the guessing strategies and of knowing/guessing."""
    base = spam[an, 0] * theta[an, lab]  # guessing and hitting the answer given
    know = spam[an, 1]
    # per response and candidate true label: base + know·[l == answer]
    prob = np.repeat(base[:, None], q, axis=1)
    prob[np.arange(len(lab)), lab] += know
    logp = np.zeros((ni, q))
    np.add.at(logp, it, np.log(prob))
    has = np.zeros(ni, dtype=bool)
    has[it] = True
    gold = np.where(has[:, None], np.exp(logp) / q, 0.0)
    inst = gold.sum(axis=1)
    with np.errstate(divide="ignore"):
        ll = float(np.log(inst[has]).sum()) if np.all(inst[has] > 0) else -math.inf
    inv = np.divide(1.0, inst, out=np.zeros_like(inst), where=inst > 0)
    strat_m = (gold[it] / prob).sum(axis=1) * base * inv[it]
    know_m = gold[it, lab] * know / (base + know) * inv[it]
    strategy = np.zeros((na, q))
    np.add.at(strategy, (an, lab), strat_m)
    knowing = np.zeros((na, 2))
    np.add.at(knowing[:, 0], an, strat_m)
    np.add.at(knowing[:, 1], an, know_m)
    return ll, gold, strategy, knowing


def _vb_normalize(counts: FloatArray, prior: FloatArray | float) -> FloatArray:
    c = counts + prior
    out: FloatArray = np.exp(digamma(c)) / np.exp(digamma(c.sum(axis=1, keepdims=True)))
    return out


def mace(
    items: npt.ArrayLike,
    annotators: npt.ArrayLike,
    labels: npt.ArrayLike,
    n_items: int | None = None,
    n_annotators: int | None = None,
    n_classes: int | None = None,
    seed: int = 0,
    restarts: int = MACE_RESTARTS,
    iterations: int = MACE_ITERATIONS,
    alpha: float = MACE_ALPHA,
    beta: float = MACE_BETA,
) -> CrowdResult:
    r"""MACE (Hovy et al. 2013) by variational Bayes EM, as its reference program computes it.

    Each restart draws the knowing/guessing split and the guessing distributions as
    :math:`1 + 0.5\,U(0, 1)`, normalised (``RandomState(seed)``: the two draws of restart 1, then
    those of restart 2, …), runs an E-step and then ``iterations`` variational M-steps each
    followed by an E-step; the restart whose final log marginal likelihood is highest is kept.
    Competence is :math:`\xi_a`, the probability that annotator :math:`a` knows (the reference
    program's ``.competence`` file).

    References
    ----------
    Hovy, D., Berg-Kirkpatrick, T., Vaswani, A., & Hovy, E. (2013). Learning Whom to Trust with
    MACE. NAACL-HLT 2013, 1120–1130.

    Examples
    --------
    >>> it = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    >>> an = [0, 1, 2] * 4
    >>> lab = [0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0]
    >>> r = mace(it, an, lab)
    >>> r.labels.tolist(), bool(r.competence[2] < r.competence[0])
    ([0, 1, 0, 1], True)
    """
    it = np.asarray(items, dtype=np.int64)
    an = np.asarray(annotators, dtype=np.int64)
    lab = np.asarray(labels, dtype=np.int64)
    ni = int(n_items if n_items is not None else (it.max() + 1 if len(it) else 0))
    na = int(n_annotators if n_annotators is not None else (an.max() + 1 if len(an) else 0))
    q = int(n_classes if n_classes is not None else (lab.max() + 1 if len(lab) else 0))
    rng = np.random.RandomState(seed)
    theta_prior = np.empty((na, 2))
    theta_prior[:, 0], theta_prior[:, 1] = alpha, beta
    best: tuple[float, FloatArray, FloatArray, int] | None = None
    for rr in range(restarts):
        spam = 1.0 + MACE_NOISE * rng.random_sample((na, 2))
        theta = 1.0 + MACE_NOISE * rng.random_sample((na, q))
        spam /= spam.sum(axis=1, keepdims=True)
        theta /= theta.sum(axis=1, keepdims=True)
        ll, _, strategy, knowing = _mace_e_step(it, an, lab, ni, na, q, spam, theta)
        for _ in range(iterations):
            spam = _vb_normalize(knowing, theta_prior)
            theta = _vb_normalize(strategy, MACE_STRATEGY_PRIOR)
            ll, _, strategy, knowing = _mace_e_step(it, an, lab, ni, na, q, spam, theta)
        if best is None or ll > best[0]:
            best = (ll, spam.copy(), theta.copy(), rr + 1)
    assert best is not None, "at least one restart"
    ll, spam, theta, at = best
    _, gold, _, _ = _mace_e_step(it, an, lab, ni, na, q, spam, theta)
    norm = gold.sum(axis=1, keepdims=True)
    post = np.divide(gold, norm, out=np.full_like(gold, np.nan), where=norm > 0)
    competence = spam[:, 1].copy()
    answered = np.zeros(na, dtype=bool)
    answered[an] = True
    competence[~answered] = np.nan
    return CrowdResult(
        "mace",
        post,
        competence,
        None,
        np.full(q, 1.0 / q) if q else np.zeros(0),
        ll,
        iterations,
        seed,
        at,
    )

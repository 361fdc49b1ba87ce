r"""Percent agreement, π* and α with the normalized Levenshtein distance over subsets of items.

A normalization study reports the same three coefficients for many subsets of its items (every
text × ALL / MEDIUM / STRICT tokens, word and character level). :class:`SubsetReliability`
computes the per-item parts once; each subset then costs a masked sum and a ``bincount``, and the
expected disagreement of all subsets comes from one matrix product with the label × label
distance matrix (with many labels, from one pass over the label pairs,
:func:`~iaa_desktop.core.metrics.alpha.nld_expected_sums`, one weight column per subset). Its values equal :func:`~iaa_desktop.core.metrics.percent_agreement`,
:func:`~iaa_desktop.core.metrics.fleiss_kappa` and
:func:`~iaa_desktop.core.metrics.alpha_strings_from_codes` computed on each subset (tests
check it, and NLTK's ``AnnotationTask``).

For complete reliability data (N items, each labelled by all c annotators; ``codes`` index
``labels``) and a subset S of the items:

.. math::
    A_o = \frac{1}{|S|}\sum_{i\in S}\frac{\sum_{x<y}[l_{ix}=l_{iy}]}{\binom{c}{2}},\qquad
    A_e = \sum_k p_k^2,\ p_k = \frac{n_k}{|S|\,c},\qquad
    \pi^* = \frac{A_o - A_e}{1 - A_e}

(percent agreement and multi-π, Fleiss' κ: Fleiss 1971; Artstein & Poesio 2008, §3), and
Krippendorff's α with δ = NLD, the Levenshtein distance divided by the longer length
(Bollmann, Dipper & Petran 2016):

.. math::
    D_o = \frac{1}{n}\sum_{i\in S}\frac{\sum_{x\neq y}\delta(l_{ix}, l_{iy})}{c-1},\qquad
    D_e = \frac{\sum_{k,k'} n_k n_{k'}\,\delta(k, k')}{n(n-1)},\qquad
    \alpha = 1 - \frac{D_o}{D_e},\quad n = |S|\,c

(Krippendorff 2011). NLD('', '') = 0, so the empty label (a unit aligned to a gap) is a string
like any other.

References
----------
Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
Bulletin 76(5), 378–382.
Artstein, R. & Poesio, M. (2008). Inter-coder agreement for computational linguistics.
Computational Linguistics 34(4), 555–596.
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
Communication, University of Pennsylvania.
Bollmann, M., Dipper, S. & Petran, F. (2016). Evaluating inter-annotator agreement on historical
spelling normalization. LAW X, 89–98.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from iaa_desktop.core.metrics.alpha import nld_expected_sums

__all__ = ["SubsetAgreement", "SubsetReliability", "nld_matrix", "nld_pairs", "subset_agreements"]

FloatArray = npt.NDArray[np.float64]

#: above this many distinct labels the label × label distance matrix is not kept: the expected
#: disagreements are summed over the label pairs without it
MAX_DENSE_LABELS = 3000


def nld_pairs(a: Sequence[str], b: Sequence[str]) -> FloatArray:
    """Normalized Levenshtein distance of ``a[k]`` and ``b[k]`` for every k; NLD('', '') = 0.

    >>> nld_pairs(["gewain", ""], ["weinte", ""]).round(4).tolist()
    [0.8333, 0.0]
    """
    from rapidfuzz.distance import Levenshtein

    dist = Levenshtein.distance
    out = np.empty(len(a))
    for j, (x, y) in enumerate(zip(a, b)):
        m = max(len(x), len(y))
        out[j] = dist(x, y) / m if m else 0.0
    return out


def nld_matrix(rows: Sequence[str], cols: Sequence[str] | None = None) -> FloatArray:
    """NLD between every label of ``rows`` and every label of ``cols`` (default: ``rows``).

    Levenshtein distances from rapidfuzz's ``cdist`` (compiled, all cores).

    >>> nld_matrix(["a", "ab", ""]).round(2).tolist()
    [[0.0, 0.5, 1.0], [0.5, 0.0, 1.0], [1.0, 1.0, 0.0]]
    """
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist

    rows = list(rows)
    cols = rows if cols is None else list(cols)
    len_r = np.fromiter(map(len, rows), dtype=np.float64, count=len(rows))
    len_c = np.fromiter(map(len, cols), dtype=np.float64, count=len(cols))
    ld = cdist(rows, cols, scorer=Levenshtein.distance, dtype=np.int32, workers=-1)
    denom = np.maximum(len_r[:, None], len_c[None, :])
    denom[denom == 0] = 1.0
    return np.asarray(ld / denom, dtype=np.float64)


@dataclass(frozen=True)
class SubsetAgreement:
    """The coefficients of one subset of items (see the module docstring).

    ``alpha_nld`` is None when it was not asked for; ``nan`` marks an undefined coefficient
    (no items, one annotator, or no variation: A_e = 1 or D_e = 0).
    """

    n_items: int
    percent_agreement: float
    pi: float
    alpha_nld: float | None
    expected_pi: float


class SubsetReliability:
    """Agreement coefficients of complete reliability data for any subset of its items.

    Parameters
    ----------
    codes : int array (N × c), every item labelled by every annotator, indexes into ``labels``
    labels : the label strings
    with_alpha : also compute α with NLD (the per-item distances and the label distance matrix)

    Attributes
    ----------
    item_agreement : (N,) share of agreeing annotator pairs per item
    item_distance : (N,) mean NLD over the annotator pairs of each item (0 without α)

    Examples
    --------
    The worked example of Fleiss' κ in Wikipedia's article (10 subjects, 14 raters, 5
    categories; Fleiss 1971's formulas): P̄ = 0.378, P̄_e = 0.213, κ = 0.210:

    >>> rows = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
    ...         [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
    ...         [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    >>> codes = np.array([[k for k, n in enumerate(r) for _ in range(n)] for r in rows])
    >>> a = SubsetReliability(codes, list("12345")).agreement()
    >>> round(a.percent_agreement, 3), round(a.expected_pi, 3), round(a.pi, 3)
    (0.378, 0.213, 0.21)
    """

    def __init__(
        self, codes: npt.ArrayLike, labels: Sequence[str], with_alpha: bool = True
    ) -> None:
        codes = np.asarray(codes, dtype=np.int64)
        if codes.ndim != 2:
            raise ValueError("codes must be a two-dimensional items × annotators array")
        self.codes = codes
        self.labels = list(labels)
        self.q = len(self.labels)
        n, c = codes.shape
        self.c = c
        self.with_alpha = with_alpha
        pairs = list(combinations(range(c), 2))
        eq = np.zeros(n)
        for x, y in pairs:
            eq += codes[:, x] == codes[:, y]
        self.item_agreement: FloatArray = eq / max(1, len(pairs))
        self.item_distance: FloatArray = np.zeros(n)
        self._dense: FloatArray | None = None
        if with_alpha and n and c >= 2:
            self.item_distance = self._item_distances(pairs)
            if self.q <= MAX_DENSE_LABELS:
                self._dense = nld_matrix(self.labels)

    def _item_distances(self, pairs: list[tuple[int, int]]) -> FloatArray:
        """Mean pairwise NLD per item: each distinct label pair's distance computed once."""
        codes, q = self.codes, self.q
        a = np.concatenate([np.minimum(codes[:, x], codes[:, y]) for x, y in pairs])
        b = np.concatenate([np.maximum(codes[:, x], codes[:, y]) for x, y in pairs])
        diff = a != b
        keys = a[diff] * q + b[diff]
        if q * q <= 20_000_000:
            # distinct label pairs by counting (linear; np.unique would sort millions of keys)
            seen = np.bincount(keys, minlength=q * q) > 0
            uniq = np.flatnonzero(seen)
            pos = (np.cumsum(seen) - 1)[keys]
        else:
            uniq, pos = np.unique(keys, return_inverse=True)
        d = nld_pairs([self.labels[k // q] for k in uniq], [self.labels[k % q] for k in uniq])
        dist = np.zeros(len(a))
        dist[diff] = d[pos]
        return np.asarray(dist.reshape(len(pairs), -1).sum(axis=0) / len(pairs))

    def _expected_sums(self, counts: FloatArray) -> FloatArray:
        """Σ_{k,k'} n_k n_k' δ(k, k') for each row of ``counts`` (subsets × q)."""
        if self._dense is not None:
            # one matrix product for all subsets (BLAS) instead of a sub-matrix per subset
            return np.asarray(np.einsum("ij,ij->i", counts @ self._dense, counts))
        # many labels: every pair of the labels used anywhere once, one weight column per subset
        # (never the distance matrix)
        used = np.flatnonzero(counts.sum(axis=0))
        names = [self.labels[k] for k in used]
        return np.asarray(nld_expected_sums(names, counts[:, used].T), dtype=np.float64)

    def agreement(self, mask: npt.ArrayLike | None = None) -> SubsetAgreement:
        """The coefficients over the items where ``mask`` is true (all items when None)."""
        m = np.ones(self.codes.shape[0], bool) if mask is None else np.asarray(mask, dtype=bool)
        return self.agreements([m])[0]

    def agreements(self, masks: Sequence[npt.ArrayLike]) -> list[SubsetAgreement]:
        """:meth:`agreement` for many subsets at once (D_e of all of them in one product)."""
        out: list[SubsetAgreement | None] = []
        rows: list[FloatArray] = []
        parts: list[tuple[int, float, float, float, float]] = []
        nan_alpha = math.nan if self.with_alpha else None
        for mask in masks:
            idx = np.asarray(mask, dtype=bool)
            n_items = int(idx.sum())
            if n_items == 0 or self.c < 2:
                out.append(SubsetAgreement(n_items, math.nan, math.nan, nan_alpha, math.nan))
                continue
            a_o = float(self.item_agreement[idx].mean())
            counts = np.bincount(self.codes[idx].ravel(), minlength=self.q).astype(float)
            n_values = float(n_items * self.c)
            a_e = float(((counts / n_values) ** 2).sum())
            # Σ_{x≠y} δ / (c − 1) = 2·C(c, 2)·(mean pairwise δ) / (c − 1) = c · mean pairwise δ
            d_o = float(self.item_distance[idx].sum() * self.c / n_values)
            out.append(None)
            rows.append(counts)
            parts.append((n_items, a_o, a_e, d_o, n_values))
        sums = (
            self._expected_sums(np.array(rows)) if self.with_alpha and rows else np.zeros(len(rows))
        )
        filled = iter(zip(parts, sums.tolist()))
        result: list[SubsetAgreement] = []
        for r in out:
            if r is not None:
                result.append(r)
                continue
            (n_items, a_o, a_e, d_o, n_values), e_sum = next(filled)
            pi = (a_o - a_e) / (1.0 - a_e) if a_e < 1.0 else math.nan
            alpha: float | None = None
            if self.with_alpha:
                d_e = e_sum / (n_values * (n_values - 1.0))
                alpha = 1.0 - d_o / d_e if d_e > 0 else math.nan
            result.append(SubsetAgreement(n_items, a_o, pi, alpha, a_e))
        return result

    def pairwise(self) -> tuple[FloatArray, FloatArray]:
        """(percent agreement, Scott's π) for every pair of annotators (c × c, diagonal 1)."""
        c = self.c
        agr = np.eye(c)
        pi = np.eye(c)
        n = self.codes.shape[0]
        for x, y in combinations(range(c), 2):
            a, b = self.codes[:, x], self.codes[:, y]
            a_o = float((a == b).mean()) if n else math.nan
            p = (
                np.bincount(np.concatenate([a, b]), minlength=self.q) / (2.0 * n)
                if n
                else np.zeros(1)
            )
            a_e = float((p**2).sum())
            agr[x, y] = agr[y, x] = a_o
            pi[x, y] = pi[y, x] = (a_o - a_e) / (1 - a_e) if a_e < 1 else math.nan
        return agr, pi


def subset_agreements(
    codes: npt.ArrayLike,
    labels: Sequence[str],
    masks: Sequence[npt.ArrayLike],
    with_alpha: bool = True,
) -> list[SubsetAgreement]:
    """Percent agreement, π* and α_NLD of complete reliability data over each subset in ``masks``.

    See :class:`SubsetReliability` (the same, keeping the per-item parts for more subsets).

    >>> codes = np.array([[0, 0], [0, 1], [1, 1], [2, 2]])
    >>> [round(a.percent_agreement, 3) for a in subset_agreements(codes, ["a", "ab", "b"],
    ...                                                          [[1, 1, 1, 1], [1, 0, 1, 1]])]
    [0.75, 1.0]
    """
    return SubsetReliability(codes, labels, with_alpha).agreements(masks)

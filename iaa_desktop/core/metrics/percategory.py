r"""Agreement on each category: specific agreement, κ and α of "this category vs the rest".

For category k and item i with :math:`n_{ik}` labels k among :math:`m_i`:

.. math::
    p_s(k) = \frac{\sum_i n_{ik}(n_{ik}-1)}{\sum_i n_{ik}(m_i-1)}

(specific agreement pooled over annotator pairs; for two annotators 2n_kk/(n_k· + n_·k),
Uebersax 1982). κ_k is Fleiss' κ of the binary data "k or not k" (Gwet's π for missing labels, as
:func:`~iaa_desktop.core.metrics.coefficients.fleiss_kappa`), and α_k Krippendorff's nominal α of
the same binary data — Krippendorff's category-singling α (Krippendorff 2008, "Systematic and
random disagreement and the reliability of nominal data", *Communication Methods and Measures*
2(4), 323–338):

.. math::
    \alpha_k = 1 - (n - 1)\,\frac{\sum_i 2 n_{ik}(m_i - n_{ik})/(m_i - 1)}{2\,n_k\,(n - n_k)}

with n_k the pairable values k and n all pairable values.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from iaa_desktop.core.metrics import batch
from iaa_desktop.core.metrics.tally import Aggregates, Tally

FloatArray = npt.NDArray[np.float64]

__all__ = ["per_category"]


def per_category(t: Tally, ag: Aggregates) -> dict[str, FloatArray]:
    """``specific``, ``kappa``, ``alpha`` and ``n_labels`` per category for the first weighting."""
    counts = t.ms_counts
    nk = counts if isinstance(counts, np.ndarray) else counts.toarray()
    m = t.ms_m[:, None]
    pair = (t.ms_m >= 2)[:, None]
    w = ag.ms[0][:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        specific = (w * pair * nk * (nk - 1)).sum(axis=0) / (w * pair * nk * (m - 1)).sum(axis=0)
        rest = m - nk
        agr = np.where(pair, (nk * (nk - 1) + rest * (rest - 1)) / (m * (m - 1)), 0.0)
        n_pair = float((w * pair).sum())
        a_o = (w * agr).sum(axis=0) / n_pair if n_pair > 0 else np.full(nk.shape[1], np.nan)
        pi = batch.category_shares(t, ag)[0]
        a_e = pi**2 + (1 - pi) ** 2
        kappa = batch.chance_corrected(a_o, a_e)
        n_c = (w * pair * nk).sum(axis=0)
        n = n_c.sum()
        d_o = (w * np.where(pair, 2.0 * nk * rest / (m - 1), 0.0)).sum(axis=0)
        d_e = 2.0 * n_c * (n - n_c)
        alpha = np.where((d_e > 0) & (n > 1), 1.0 - (n - 1) * d_o / d_e, np.nan)
    return {
        "specific": np.asarray(specific, dtype=np.float64),
        "kappa": np.asarray(kappa, dtype=np.float64),
        "alpha": np.asarray(alpha, dtype=np.float64),
        "n_labels": np.asarray((w * nk).sum(axis=0), dtype=np.float64),
    }

r"""Several coefficients of one coded study from one count of it.

Every coefficient of coded items is a function of the study's tally, the histogram of its
distinct item rows (:mod:`~iaa_desktop.core.metrics.tally`); counting the N × c codes is most of
the cost of each public function (for 1,000,000 items × 5 annotators the count is about ten
times the coefficients' own arithmetic). :func:`table_coefficients` counts once and evaluates each
named coefficient from that tally and its totals, so asking for Fleiss' κ and every pairwise
Cohen's κ together costs one count, not two. The values are those of the separate functions
(the same formulas on the same totals; a test checks they are equal).

References
----------
Artstein, R. & Poesio, M. (2008). Inter-coder agreement for computational linguistics.
*Computational Linguistics* 34(4), 555–596 (the coefficients and their notation).
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
Communication, University of Pennsylvania (α from the coincidences of pairable values).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from iaa_desktop.core.metrics.alpha import krippendorff_alpha
from iaa_desktop.core.metrics.coefficients import (
    bennett_s,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    multi_kappa,
    pairwise_cohen_kappa,
    per_category_agreement,
    percent_agreement,
)
from iaa_desktop.core.metrics.tally import Tally, as_tally

__all__ = ["TABLE_COEFFICIENTS", "table_coefficients"]

#: the coefficients :func:`table_coefficients` computes, by name
TABLE_COEFFICIENTS: dict[str, Callable[[Tally], Any]] = {
    "percent_agreement": percent_agreement,
    "fleiss_kappa": fleiss_kappa,
    "multi_kappa": multi_kappa,
    "conger_kappa": conger_kappa,
    "gwet_ac1": gwet_ac1,
    "bennett_s": bennett_s,
    "pairwise_cohen_kappa": pairwise_cohen_kappa,
    "per_category_agreement": per_category_agreement,
    "krippendorff_alpha": krippendorff_alpha,
}


def table_coefficients(
    codes: Any,
    names: Sequence[str] = ("fleiss_kappa", "pairwise_cohen_kappa"),
    n_categories: int | None = None,
    weights: Any = None,
    **alpha_options: Any,
) -> dict[str, Any]:
    r"""The named coefficients of one study, its codes counted once.

    Parameters
    ----------
    codes : (N, c) category indices, -1 = missing, or a
        :class:`~iaa_desktop.core.metrics.tally.Tally` of them
    names : keys of :data:`TABLE_COEFFICIENTS`
    n_categories : q (default: the largest code + 1)
    weights : per-item weights (item i counted w_i times)
    alpha_options : ``level``, ``values``, ``distance`` of
        :func:`~iaa_desktop.core.metrics.alpha.krippendorff_alpha`

    Returns
    -------
    dict
        name → what the function of that name returns for ``codes`` (an
        :class:`~iaa_desktop.core.metrics.result.AgreementResult`; for ``pairwise_cohen_kappa``
        a dict (x, y) → result; for ``per_category_agreement`` a dict of arrays).

    Fleiss' κ is :math:`(A_o - A_e)/(1 - A_e)` with :math:`A_o` the mean share of agreeing
    label pairs per pairable item and :math:`A_e = \sum_k \pi_k^2` (Fleiss 1971); Cohen's κ of
    annotators x, y is the same ratio with :math:`A_o = \sum_k p_{kk}` and
    :math:`A_e = \sum_k P_x(k) P_y(k)` over the items both labelled (Cohen 1960). Both are
    read off one tally's totals.

    Fleiss (1971)'s 10 subjects × 14 raters give κ = 0.210 (``fleiss_kappa`` alone gives the same):

    >>> rows = [[0,0,0,0,14],[0,2,6,4,2],[0,0,3,5,6],[0,3,9,2,0],[2,2,8,1,1],
    ...         [7,7,0,0,0],[3,2,6,3,0],[2,5,3,2,2],[6,5,2,1,0],[0,2,2,3,7]]
    >>> codes = [[k for k, n in enumerate(r) for _ in range(n)] for r in rows]
    >>> r = table_coefficients(codes, ["fleiss_kappa", "pairwise_cohen_kappa"])
    >>> round(r["fleiss_kappa"].value, 3), len(r["pairwise_cohen_kappa"])
    (0.21, 91)
    """
    unknown = [n for n in names if n not in TABLE_COEFFICIENTS]
    if unknown:
        raise ValueError(
            f"unknown coefficient(s) {', '.join(unknown)}; choose among "
            + ", ".join(TABLE_COEFFICIENTS)
        )
    t = as_tally(codes, n_categories, weights)
    out: dict[str, Any] = {}
    for name in names:
        fn = TABLE_COEFFICIENTS[name]
        out[name] = fn(t, **alpha_options) if name == "krippendorff_alpha" else fn(t)
    return out

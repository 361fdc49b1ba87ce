"""The functions of the catalogue's entries, one signature per kind of input.

* coded items: ``f(codes, n_categories=None, weights=None) -> AgreementResult``;
* values (items × annotators floats, NaN missing): ``f(values) -> AgreementResult | float``;
* partitions (coreference): ``f(key, response) -> float``, entity labels over one mention
  index (−1: the mention is absent on that side), the score's F1;
* units (unitizing): ``f(units, n_raters, continuum_length) -> float``;
* strings (spelling normalization): ``f(labels) -> AgreementResult``, items × annotators
  strings, ``None`` missing.

The common tests call every entry with a function this way. Variants of one coefficient (a
weighting, a level, a score's F1) are bound here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from iaa_desktop.core.metrics import alpha as _alpha
from iaa_desktop.core.metrics import coefficients as _co
from iaa_desktop.core.metrics.coefficients import (
    bennett_s,
    cohen_kappa,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    multi_kappa,
    percent_agreement,
    scott_pi,
)
from iaa_desktop.core.metrics.result import AgreementResult

__all__ = [
    "ac2_linear",
    "ac2_quadratic",
    "alpha_nld",
    "alpha_nominal",
    "bcub_f1",
    "blanc_f1",
    "ceafe_f1",
    "ceafm_f1",
    "conll_f1",
    "lea_f1",
    "mentions_f1",
    "muc_f1",
    "spearman_pair",
    "unitizing_alpha",
    "bennett_s",
    "cohen_kappa",
    "conger_kappa",
    "fleiss_kappa",
    "gwet_ac1",
    "multi_kappa",
    "percent_agreement",
    "scott_pi",
    "spearman",
    "wk_linear",
    "wk_quadratic",
]


def wk_linear(codes: Any, n_categories: int | None = None, weights: Any = None) -> AgreementResult:
    """Cohen's weighted κ with linear weights (see :func:`~..coefficients.weighted_kappa`)."""
    return _co.weighted_kappa(codes, "linear", n_categories, weights)


def wk_quadratic(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    """Cohen's weighted κ with quadratic weights (see :func:`~..coefficients.weighted_kappa`)."""
    return _co.weighted_kappa(codes, "quadratic", n_categories, weights)


def ac2_linear(codes: Any, n_categories: int | None = None, weights: Any = None) -> AgreementResult:
    """Gwet's AC2 with linear weights over the category ranks."""
    return _co.gwet_ac2(codes, "linear", None, n_categories, weights)


def ac2_quadratic(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    """Gwet's AC2 with quadratic weights over the category ranks."""
    return _co.gwet_ac2(codes, "quadratic", None, n_categories, weights)


def alpha_nominal(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    """Krippendorff's α at the nominal level."""
    return _alpha.krippendorff_alpha(codes, "nominal", n_categories=n_categories, weights=weights)


def spearman(values: Any) -> AgreementResult:
    """Spearman's ρ of every pair, averaged weighted by the items each pair shares."""
    from iaa_desktop.core.metrics.correlation import spearman_weighted

    return spearman_weighted(np.asarray(values, dtype=float))


def spearman_pair(values: Any) -> float:
    """Spearman's ρ of the two columns of ``values`` over the rows both judged."""
    from iaa_desktop.core.metrics.correlation import spearman_rho

    v = np.asarray(values, dtype=float)
    both = ~np.isnan(v).any(axis=1)
    return spearman_rho(v[both, 0], v[both, 1])


def _coref_f1(score: str, key: Any, response: Any) -> float:
    from iaa_desktop.core.metrics.coref_scores import score_labels

    return float(score_labels(key, response).to_json()[score]["f1"])


def muc_f1(key: Any, response: Any) -> float:
    """MUC F1 of two labellings of one mention index (entity label per mention, -1 absent)."""
    return _coref_f1("muc", key, response)


def bcub_f1(key: Any, response: Any) -> float:
    """B³ F1 of two labellings of one mention index."""
    return _coref_f1("bcub", key, response)


def ceafm_f1(key: Any, response: Any) -> float:
    """CEAF-m F1 of two labellings of one mention index."""
    return _coref_f1("ceafm", key, response)


def ceafe_f1(key: Any, response: Any) -> float:
    """CEAF-e F1 of two labellings of one mention index."""
    return _coref_f1("ceafe", key, response)


def blanc_f1(key: Any, response: Any) -> float:
    """BLANC F1 of two labellings of one mention index."""
    return _coref_f1("blanc", key, response)


def lea_f1(key: Any, response: Any) -> float:
    """LEA F1 of two labellings of one mention index."""
    return _coref_f1("lea", key, response)


def mentions_f1(key: Any, response: Any) -> float:
    """Mention identification F1 of two labellings of one mention index."""
    return _coref_f1("mentions", key, response)


def conll_f1(key: Any, response: Any) -> float:
    """The CoNLL average (MUC, B³, CEAF-e F1) of two labellings of one mention index."""
    return _coref_f1("conll", key, response)


def unitizing_alpha(units: Any, n_raters: int, continuum_length: int) -> float:
    """Krippendorff's αU of ``(begin, length, rater, category)`` units on ``[0, length)``."""
    from iaa_desktop.core.metrics.unitizing import UnitizingStudy
    from iaa_desktop.core.metrics.unitizing import unitizing_alpha as _alpha_u

    study = UnitizingStudy.of(list(units), n_raters, continuum_length)
    alpha = _alpha_u(study)["alpha"]
    return float(alpha) if isinstance(alpha, int | float) else math.nan


def alpha_nld(labels: Any) -> AgreementResult:
    """Krippendorff's α with the normalized Levenshtein distance over string labels."""
    return _alpha.krippendorff_alpha_strings(labels, "nld")

"""The one small result every coefficient returns, checked against the coefficient's range.

A value outside the range its formula guarantees for *any* data is a bug, never a result: the
result refuses to exist (:class:`CoefficientRangeError`), so no report, table or window can show
it. The ranges (written in the metrics catalogue, :mod:`iaa_desktop.core.metrics.catalogue`,
as each entry's ``bounds`` and ``checked_as``):

* percent agreement lies in [0, 1];
* Cohen's κ, Scott's π and Gwet's AC1 in [−1, 1] (their chance agreement is at most 1/2 when the
  observed agreement is 0; Gwet 2008 for AC1), so do Spearman's ρ and their means over pairs;
* every chance-corrected coefficient κ = (A_o − A_e)/(1 − A_e) (Fleiss' κ, Hubert's multi-κ,
  weighted κ, Krippendorff's α as 1 − D_o/D_e) is at most 1, and, with A_o ≥ 0, at least
  −A_e/(1 − A_e). That bound is below −1 when A_e > 1/2, which happens with missing labels:
  Fleiss' A_e then comes from every label, also those on items only one annotator labelled,
  while A_o comes from the items two or more labelled (Gwet 2014, ch. 2; the value irrCAC's
  ``fleiss.kappa.raw`` computes). Such a value is the coefficient's, not a bug; the kinds say so
  beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

_EPS = 1e-9
#: (name → range, name → title, names with agreement terms), from the metrics catalogue
_Checks = tuple[dict[str, tuple[float, float]], dict[str, str], frozenset[str]]
_CHECKS: _Checks | None = None


def install_range_checks(checks: _Checks) -> None:
    """Set the ranges every result is checked against. The metrics catalogue installs them when
    it is imported, which the metrics package does on its first import, before any result can
    be made (the catalogue's functions import this module: it never imports the catalogue)."""
    global _CHECKS
    _CHECKS = checks


def _checks() -> _Checks:
    """The catalogue's ranges (see :func:`install_range_checks`)."""
    if _CHECKS is None:
        raise RuntimeError("the metrics catalogue has not installed the coefficients' ranges")
    return _CHECKS


class CoefficientRangeError(ArithmeticError):
    """A coefficient came out outside the range its formula guarantees: a bug to report."""


def range_problem(
    name: str, value: float, observed: float = math.nan, expected: float = math.nan
) -> str | None:
    """Why ``value`` cannot be a value of coefficient ``name``, or None when it can.

    >>> range_problem("cohen_kappa", 0.4)
    >>> range_problem("percent_agreement", 1.2).startswith("Percent agreement = 1.2 is outside")
    True
    """
    if math.isnan(value):
        return None  # undefined (e.g. every label the same): shown as such
    ranges, titles, agreement_terms = _checks()
    title = titles.get(name, name)
    if math.isinf(value):
        return f"{title} = {value} is not a number."
    low, high = ranges.get(name, (-math.inf, math.inf))
    if name in agreement_terms and math.isfinite(observed) and math.isfinite(expected):
        for what, v in (("observed agreement", observed), ("expected agreement", expected)):
            if not -_EPS <= v <= 1 + _EPS:
                return f"{title}: the {what} {v:.6g} is outside [0, 1]."
        if expected < 1:
            low = max(low, -expected / (1 - expected))
    if not low - _EPS <= value <= high + _EPS:
        return f"{title} = {value:.6g} is outside its range [{low:.6g}, {high:.6g}]."
    return None


@dataclass(frozen=True, slots=True)
class AgreementResult:
    """Value of an agreement coefficient with what it was computed from.

    Attributes
    ----------
    name : short identifier in the field's notation (``cohen_kappa``, ``krippendorff_alpha`` ...)
    value : the coefficient (NaN when undefined, e.g. expected agreement of 1)
    observed : observed agreement A_o (or observed disagreement D_o for α)
    expected : expected agreement A_e (or expected disagreement D_e for α)
    n_items : number of items that entered the computation (pairable items)
    n_annotators : number of annotators who labelled at least one of those items
    ci_low, ci_high : interval bounds, NaN when none was computed
    extra : any further numbers (e.g. the Bayesian median)
    """

    name: str
    value: float
    observed: float = math.nan
    expected: float = math.nan
    n_items: int = 0
    n_annotators: int = 0
    ci_low: float = math.nan
    ci_high: float = math.nan
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problem = range_problem(self.name, self.value, self.observed, self.expected)
        if problem is not None:
            raise CoefficientRangeError(
                f"{problem} This is a bug in the computation, not a property of the data; "
                "the value is not shown. Please report it with the input files."
            )

    def with_interval(self, low: float, high: float, **extra: Any) -> AgreementResult:
        return replace(self, ci_low=float(low), ci_high=float(high), extra={**self.extra, **extra})

    def to_json(self) -> dict[str, Any]:
        def f(x: float) -> float | None:
            return None if x is None or not math.isfinite(x) else float(x)

        out: dict[str, Any] = {
            "value": f(self.value),
            "ci_low": f(self.ci_low),
            "ci_high": f(self.ci_high),
        }
        out.update({k: v for k, v in self.extra.items()})
        return out

    def __float__(self) -> float:
        return float(self.value)

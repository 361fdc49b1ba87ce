"""The one small result every coefficient returns."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any


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

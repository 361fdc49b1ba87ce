r"""How badly the annotators of one unit disagree, on the scale of the coefficient.

The severity of an item is the mean distance between the labels of its pairs of annotators,
divided by the largest distance the scale allows:

.. math:: s_i = \frac{1}{\max_{c,k}\delta(c,k)}\;
          \frac{\sum_{c,k} n_{ic}\, n_{ik}\, \delta(c,k)}{m_i (m_i - 1)}

with :math:`n_{ic}` the annotators who gave item *i* the value *c*, :math:`m_i = \sum_c n_{ic}`
and δ the distance of Krippendorff's α for the level of measurement (nominal ``[c ≠ k]``,
ordinal, interval ``(c − k)²``, ratio; Krippendorff 2011, *Computing Krippendorff's
Alpha-Reliability*) — the distance the coefficient itself uses, so that the ranking of the items
is the ranking of their contributions to the observed disagreement :math:`D_o`. On a 1–5 interval
scale a 4-vs-5 item has severity 1/16 and a 1-vs-5 item 1. Nominal severity is the share of
disagreeing pairs. Items with fewer than two labels have no severity (NaN).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.metrics.alpha import LEVELS, distance_matrix

#: above this many categories the distances are not tabulated (nominal severity instead)
MAX_TABULATED = 2000


def item_severity(
    codes: NDArray[Any],
    level: str = "nominal",
    values: Sequence[float] | NDArray[Any] | None = None,
) -> NDArray[Any]:
    """Severity of every item (see the module docstring).

    Parameters
    ----------
    codes : ``n × c`` integer category codes, ``-1`` = no label
    level : ``nominal``, ``ordinal``, ``interval`` or ``ratio``
    values : the numeric value of each category (needed beyond the nominal level)

    >>> import numpy as np
    >>> item_severity(np.array([[3, 4], [0, 4], [1, 1]]), "interval", [1, 2, 3, 4, 5]).round(4)
    array([0.0625, 1.    , 0.    ])
    """
    codes = np.asarray(codes)
    n = codes.shape[0]
    if n == 0:
        return np.zeros(0)
    q = int(codes.max()) + 1 if (codes >= 0).any() else 0
    if values is not None:
        q = max(q, len(values))
    if level not in LEVELS or values is None or q > MAX_TABULATED:
        level = "nominal"
    counts = np.zeros((n, max(q, 1)))
    rows, cols = np.nonzero(codes >= 0)
    np.add.at(counts, (rows, codes[rows, cols]), 1.0)
    m = counts.sum(axis=1)
    if level == "nominal":
        same = (counts * (counts - 1)).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = 1.0 - same / (m * (m - 1))
        return np.where(m >= 2, out, np.nan)
    vals = np.asarray(values, dtype=float)[:q]
    delta = distance_matrix(level, vals, counts.sum(axis=0))
    top = float(np.nanmax(delta)) if delta.size else 0.0
    pair_sum = np.einsum("iq,qr,ir->i", counts, delta, counts)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = pair_sum / (m * (m - 1)) / (top if top > 0 else 1.0)
    return np.where(m >= 2, np.clip(out, 0.0, 1.0), np.nan)


def label_severity(
    labels: NDArray[Any], level: str = "nominal", categories: Sequence[object] | None = None
) -> NDArray[Any]:
    """Severity from an ``n × c`` array of labels as text (``""`` or ``None`` = no label).

    ``categories`` are the values of the scale in order; numeric ones make the labels numbers
    (``"4"`` and ``"4.0"`` are one value). Without them the labels are nominal.
    """
    lab = np.asarray(labels, dtype=object)
    flat = lab.ravel()
    present = np.array([v is not None and str(v) != "" for v in flat], bool)
    numeric_scale = categories is not None and all(_is_number(c) for c in categories)
    codes = np.full(flat.shape, -1, dtype=np.int64)
    values: list[float] | None = None
    if numeric_scale and categories is not None:
        scale = sorted({_to_float(c) for c in categories})
        as_num = np.array([_to_float(v) for v in flat[present]])
        ok = np.isfinite(as_num)
        pos = np.searchsorted(scale, as_num[ok])
        inside = (pos < len(scale)) & (
            np.take(scale, np.minimum(pos, len(scale) - 1)) == as_num[ok]
        )
        idx = np.flatnonzero(present)[ok]
        codes[idx[inside]] = pos[inside]
        values = scale
    else:
        import pandas as pd

        c, _u = pd.factorize(pd.Series([str(v) for v in flat[present]], dtype=object))
        codes[present] = c
        level = "nominal"
    return item_severity(codes.reshape(lab.shape), level, values)


def value_severity(values: NDArray[Any], level: str = "interval") -> NDArray[Any]:
    """Severity from an ``n × c`` float array of numeric judgments (NaN = none); the scale is
    the set of values used."""
    v = np.asarray(values, dtype=float)
    finite = v[np.isfinite(v)]
    scale = np.unique(finite)
    codes = np.full(v.shape, -1, dtype=np.int64)
    ok = np.isfinite(v)
    codes[ok] = np.searchsorted(scale, v[ok])
    return item_severity(codes, level, scale.tolist())


def _is_number(v: object) -> bool:
    return isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool)


def _to_float(v: object) -> float:
    try:
        return float(str(v))
    except ValueError:
        return float("nan")

"""Agreement over batches and test–retest agreement, for any kind whose units reduce to item ×
annotator × label and whose inputs say when (a batch or date column) or how often (an
annotator's repeated judgments of an item) each judgment was made.

- ``per_batch[]``: the judgments carrying a batch value — one item may sit in several batches —
  are a study of their own: every coefficient of the code matrix of those judgments, with its
  bootstrap interval, and a batch is flagged where an interval lies wholly below the study's.
- ``retest[]``: an annotator's repeated judgments of the same items, the occasions standing in
  for annotators: Krippendorff's α, the mean Cohen's κ over pairs of occasions, Fleiss' κ over
  occasions and percent agreement, with intervals (test–retest reliability; Krippendorff 2004,
  §11.1 "stability").

The coefficients come from the metrics' tally (:mod:`iaa_desktop.core.metrics.tally`) as a
judgment table of those labels reports them; the kinds hand over one code matrix per batch and
per annotator (their own convention for a judgment repeated inside a batch applied).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.metrics import aggregate, bootstrap_batch, tally
from iaa_desktop.core.metrics.suite import CodedOptions, evaluate, evaluator

__all__ = [
    "RETEST_METRICS",
    "batch_labels",
    "batch_table",
    "code_matrix",
    "coded_overall",
    "file_order_occasions",
    "per_batch",
    "retest",
    "retest_table",
]

#: the coefficients of the test–retest table
RETEST_METRICS = ("krippendorff_alpha", "cohen_kappa_mean", "fleiss_kappa", "percent_agreement")


def _f(x: float) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


def batch_labels(values: pd.Series, size: str) -> pd.Series:
    """Each row's batch: the value itself; for dates a week (from Monday, default), a day, a month
    or a bin of N days from the first date; for numbers with a size a bin of that width."""
    text = values.astype(str).str.strip()
    size = str(size or "").strip().lower()
    num = pd.to_numeric(text, errors="coerce")
    if size and not num.isna().any():
        try:
            width = float(size)
        except ValueError:
            raise OptionError(
                f"Batch size: '{size}' is not a number (the batches are numbers)."
            ) from None
        if not width > 0:
            raise OptionError("Batch size: the width of a bin must be above zero.")
        low = np.floor(num.to_numpy() / width) * width
        return pd.Series([f"{lo:g}–{lo + width:g}" for lo in low], index=values.index)
    if not num.isna().all():  # numbers (or a mix): each value its own batch
        return text
    dates = pd.to_datetime(text, errors="coerce", format="mixed")
    if dates.isna().any():
        if size:
            raise OptionError(
                f"Batch size: '{size}' needs dates or numbers in the batch column; "
                f"'{text[dates.isna()].iloc[0]}' is neither."
            )
        return text
    day = dates.dt.normalize()
    if size in ("", "week"):
        start = day - pd.to_timedelta(day.dt.weekday, unit="D")
        return start.dt.strftime("week of %Y-%m-%d")
    if size == "day":
        return day.dt.strftime("%Y-%m-%d")
    if size == "month":
        return day.dt.strftime("%Y-%m")
    try:
        n_days = int(size)
    except ValueError:
        raise OptionError(
            f"Batch size: '{size}' is not week, day, month or a number of days."
        ) from None
    if n_days < 1:
        raise OptionError("Batch size: a number of days from 1.")
    first = day.min()
    k = ((day - first).dt.days // n_days).astype(int)
    return (first + pd.to_timedelta(k * n_days, unit="D")).dt.strftime(f"%Y-%m-%d (+{n_days} d)")


def file_order_occasions(keys: pd.DataFrame) -> pd.Series:
    """Each judgment's occasion in file order: its rank (1, 2, …, as text) among the judgments
    with the same ``keys`` row (item and annotator)."""
    cols = list(keys.columns)
    return (keys.groupby(cols, sort=False, dropna=False).cumcount() + 1).astype(str)


def code_matrix(
    rows: NDArray[Any], cols: NDArray[Any], codes: NDArray[Any], n_cols: int
) -> NDArray[Any]:
    """The items × columns code matrix (−1: none) of some responses (item row, column, code
    each), the first response of a cell kept; the items in the order they first appear, as a
    judgment table of these responses lists them (so that the bootstrap draws the same)."""
    rows = np.asarray(rows, dtype=np.int64)
    first, inverse = np.unique(rows, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    order = pd.unique(rows)
    rank[np.searchsorted(first, order)] = np.arange(len(order))
    out = np.full((len(first), n_cols), -1, dtype=np.int32)
    r, c = rank[inverse], np.asarray(cols, dtype=np.int64)
    cell = r * n_cols + c
    _, at = np.unique(cell, return_index=True)  # each cell's first response
    out[r[at], c[at]] = np.asarray(codes, dtype=np.int32)[at]
    return out


def coded_overall(
    codes: NDArray[Any],
    n_categories: int,
    coded: CodedOptions,
    n_resamples: int,
    seed: int,
    judged: NDArray[Any] | None = None,
) -> dict[str, dict[str, float | None]]:
    """Every overall coefficient of an items × annotators code matrix (−1: missing) with its
    percentile bootstrap interval (``n_resamples`` resamples from ``seed``); empty when no item
    has two judgments."""
    if not ((codes >= 0).sum(axis=1) >= 2).any():
        return {}
    t = tally(codes, n_categories, judged=judged)
    ag = aggregate(t)
    points = evaluate(t, ag, coded)
    intervals = bootstrap_batch(t, evaluator(t, coded), n_resamples, seed)
    out: dict[str, dict[str, float | None]] = {}
    for name, b in points.items():
        value = float(b.value[0])
        lo, hi = intervals.get(name, (math.nan, math.nan)) if math.isfinite(value) else (0, 0)
        out[name] = {
            "value": _f(value),
            "ci_low": _f(float(lo)) if math.isfinite(value) else None,
            "ci_high": _f(float(hi)) if math.isfinite(value) else None,
        }
    return out


def _pairable(codes: NDArray[Any]) -> int:
    return int(((codes >= 0).sum(axis=1) >= 2).sum())


def per_batch(
    batches: Sequence[tuple[str, int, NDArray[Any]]],
    n_categories: int,
    coded: CodedOptions,
    study: Mapping[str, Mapping[str, float | None]],
    n_resamples: int,
    seed: int,
) -> list[dict[str, Any]]:
    """``per_batch[]`` from (batch, number of judgments, items × annotators codes) each:
    pairable items and every coefficient with its interval; ``below_study`` names the
    coefficients whose interval lies wholly below the ``study``'s."""
    out: list[dict[str, Any]] = []
    for name, n_judgments, codes in batches:
        row: dict[str, Any] = {"batch": str(name), "n_judgments": int(n_judgments)}
        overall = coded_overall(codes, n_categories, coded, n_resamples, seed)
        row["n_items"] = _pairable(codes)
        row["overall"] = overall
        if not overall:
            row["note"] = "No item was judged by two or more annotators in this batch."
        row["below_study"] = [
            k
            for k, v in overall.items()
            if k in study
            and v["ci_high"] is not None
            and study[k].get("ci_low") is not None
            and float(v["ci_high"]) < float(study[k]["ci_low"])  # type: ignore[arg-type]
        ]
        out.append(row)
    return out


def retest(
    annotators: Sequence[tuple[str, Sequence[str], NDArray[Any]]],
    n_categories: int,
    coded: CodedOptions,
    n_resamples: int,
    seed: int,
) -> list[dict[str, Any]]:
    """``retest[]`` from (annotator, occasions, items × occasions codes) each: the annotator's
    agreement with themself over occasions, on the items judged on two or more of them
    (annotators with fewer occasions, or no item repeated, are left out)."""
    out: list[dict[str, Any]] = []
    for name, occasions, codes in annotators:
        if len(occasions) < 2 or _pairable(codes) == 0:
            continue
        overall = coded_overall(codes, n_categories, coded, n_resamples, seed)
        out.append(
            {
                "annotator": name,
                "n_occasions": len(occasions),
                "occasions": list(occasions),
                "n_items": _pairable(codes),
                **{k: overall[k] for k in RETEST_METRICS if k in overall},
            }
        )
    return out


def batch_table(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """``per_batch[]`` as a CSV table: one row per batch and coefficient (per label and batch
    when the rows name a ``label``, as a multi-label study's do)."""
    return pd.DataFrame(
        [
            {
                **({"label": r["label"]} if "label" in r else {}),
                "batch": r["batch"],
                "n_judgments": r["n_judgments"],
                "n_items": r["n_items"],
                "metric": k,
                **v,
                "below_study": k in r["below_study"],
            }
            for r in rows
            for k, v in r["overall"].items()
        ]
    )


def retest_table(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """``retest[]`` as a CSV table: one row per annotator and coefficient (per label and
    annotator when the rows name a ``label``)."""
    return pd.DataFrame(
        [
            {
                **({"label": r["label"]} if "label" in r else {}),
                "annotator": r["annotator"],
                "n_occasions": r["n_occasions"],
                "n_items": r["n_items"],
                "metric": k,
                **r[k],
            }
            for r in rows
            for k in RETEST_METRICS
            if k in r
        ]
    )

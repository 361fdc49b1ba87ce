"""Annotator competence and an inferred label per item, for any kind whose units reduce to
item × annotator × label (``--competence``).

Dawid–Skene (1979) and MACE (Hovy et al. 2013) from :mod:`iaa_desktop.core.metrics.crowd`, on
the kind's responses (models included, marked as such). Labels are treated as unordered
categories by both. The figures are written as ``competence[]`` (per method and annotator: the
competence, Dawid–Skene's confusion matrix, MACE's seed), ``inferred[]`` (per item: each method's
label with its posterior) and ``competence_fit`` (iterations, log-likelihood, prior, restart).
The inferred label is a suggestion for adjudication, never a decision.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.options import SEED
from iaa_desktop.core.metrics.crowd import MACE_RESTARTS, CrowdResult, dawid_skene, mace

__all__ = [
    "MAX_DS_CELLS",
    "MAX_DS_WORK",
    "METHOD_TITLES",
    "CompetenceFigures",
    "crowd_figures",
    "label_text",
    "matrix_competence",
    "matrix_responses",
    "suggestion",
]

METHOD_TITLES = {"dawid_skene": "Dawid–Skene", "mace": "MACE"}
#: Dawid–Skene holds an items × annotators × categories count table (8 bytes a cell)
MAX_DS_CELLS = 50_000_000
#: Dawid–Skene's M-step costs items × annotators × categories² per iteration
MAX_DS_WORK = 2_000_000_000


def label_text(categories: Sequence[Any], numeric: bool) -> list[str]:
    """The categories as the inferred labels are written (whole numbers without ``.0``)."""
    out = []
    for c in categories:
        if numeric and float(c).is_integer():
            out.append(str(int(float(c))))
        else:
            out.append(str(c))
    return out


def suggestion(method: str, label: str, posterior: float) -> str:
    """The adjudication hint, e.g. ``Dawid–Skene: B, 0.93``."""
    return f"{METHOD_TITLES[method]}: {label}, {posterior:.2f}"


#: the keys of a competence row not repeated in the confusion table
_NOT_CONFUSION = ("method", "model", "n_responses", "competence", "confusion", "seed")


def _f(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


@dataclass(frozen=True)
class CompetenceFigures:
    """``competence[]``, ``inferred[]`` and ``competence_fit`` of one study (or one label of
    it), their CSV tables, and per item the Dawid–Skene suggestion ("" where it has none)."""

    competence: tuple[dict[str, Any], ...] = ()
    inferred: tuple[dict[str, Any], ...] = ()
    fit: dict[str, Any] = field(default_factory=dict)
    hints: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "competence": list(self.competence),
            "inferred": list(self.inferred),
            "competence_fit": self.fit,
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """``competence`` (one row per method and annotator; the confusion matrices only in the
        JSON) and ``inferred`` (one row per item)."""
        return {
            "competence": pd.DataFrame(
                [{k: v for k, v in row.items() if k != "confusion"} for row in self.competence]
            ),
            "inferred": pd.DataFrame(list(self.inferred)),
        }

    def confusion_table(self) -> pd.DataFrame:
        """Dawid–Skene's confusion matrices, one row per annotator, true and given label:
        ``probability`` that the annotator gives ``answer`` when the true label is ``true``."""
        labels = list(self.fit.get("dawid_skene", {}).get("prior", {}))
        rows = []
        for row in self.competence:
            if "confusion" not in row:
                continue
            keep = {k: v for k, v in row.items() if k not in _NOT_CONFUSION}
            for t, line in enumerate(row["confusion"]):
                for a, p in enumerate(line):
                    rows.append({**keep, "true": labels[t], "answer": labels[a], "probability": p})
        return pd.DataFrame(rows)


def crowd_figures(
    item: NDArray[Any],
    annotator: NDArray[Any],
    label: NDArray[Any],
    annotators: Sequence[str],
    labels: Sequence[str],
    keys: Sequence[str],
    models: Sequence[str] = (),
    seed: int = SEED,
    what: str = "are the labels categories?",
    first: Mapping[str, Any] | None = None,
) -> CompetenceFigures:
    """Dawid–Skene and MACE on responses (item row, annotator, category code; one entry per
    response), ``labels`` naming the categories and ``keys`` the items. ``first`` is written
    first in every row (e.g. ``{"label": …}`` in a multi-label study); ``what`` ends the message
    refusing a count table too large."""
    extra = dict(first or {})
    n_items, n_ann, q = len(keys), len(annotators), len(labels)
    if n_items * n_ann * q > MAX_DS_CELLS:
        raise OptionError(
            f"Annotator competence: {n_items:,} items × {n_ann} annotators × {q:,} categories "
            "is more than Dawid–Skene's count table is computed for here "
            f"({MAX_DS_CELLS:,} cells); {what}"
        )
    fits: dict[str, CrowdResult] = {
        "dawid_skene": dawid_skene(item, annotator, label, n_items, n_ann, q),
        "mace": mace(item, annotator, label, n_items, n_ann, q, seed=seed),
    }
    n_resp = np.bincount(np.asarray(annotator, dtype=np.int64), minlength=n_ann)
    comp_rows: list[dict[str, Any]] = []
    for method, fit in fits.items():
        for k, name in enumerate(annotators):
            row: dict[str, Any] = {
                **extra,
                "method": method,
                "annotator": name,
                "model": name in models,
                "n_responses": int(n_resp[k]),
                "competence": _f(float(fit.competence[k])),
            }
            if fit.confusion is not None:
                row["confusion"] = [
                    [_f(float(x)) for x in line] for line in fit.confusion[k].tolist()
                ]
            if fit.seed is not None:
                row["seed"] = fit.seed
            comp_rows.append(row)
    inferred: list[dict[str, Any]] = []
    hints = [""] * n_items
    ds_lab, mace_lab = fits["dawid_skene"].labels, fits["mace"].labels
    for i, key in enumerate(keys):
        if ds_lab[i] < 0:
            continue
        p_ds = float(fits["dawid_skene"].posterior[i, ds_lab[i]])
        p_mace = float(fits["mace"].posterior[i, mace_lab[i]])
        inferred.append(
            {
                **extra,
                "item": key,
                "dawid_skene": labels[ds_lab[i]],
                "dawid_skene_posterior": p_ds,
                "mace": labels[mace_lab[i]],
                "mace_posterior": p_mace,
            }
        )
        hints[i] = suggestion("dawid_skene", labels[ds_lab[i]], p_ds)
    fit_meta = {
        "dawid_skene": {
            "iterations": fits["dawid_skene"].iterations,
            "log_likelihood": _f(fits["dawid_skene"].log_likelihood),
            "prior": dict(zip(labels, [float(x) for x in fits["dawid_skene"].prior], strict=True)),
        },
        "mace": {
            "seed": seed,
            "restarts": MACE_RESTARTS,
            "iterations": fits["mace"].iterations,
            "best_restart": fits["mace"].best_restart,
            "log_likelihood": _f(fits["mace"].log_likelihood),
        },
    }
    return CompetenceFigures(tuple(comp_rows), tuple(inferred), fit_meta, tuple(hints))


def matrix_responses(codes: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The responses of an items × annotators code matrix (−1 and other negative codes:
    none): item rows, annotator columns and codes, one entry per valid cell, item by item."""
    rows, cols = np.nonzero(codes >= 0)
    return (
        rows.astype(np.int64),
        cols.astype(np.int64),
        np.asarray(codes[rows, cols], dtype=np.int64),
    )


def matrix_competence(
    codes: NDArray[Any],
    annotators: Sequence[str],
    labels: Sequence[str],
    keys: Sequence[str],
    models: Sequence[str] = (),
    seed: int = SEED,
    first: Mapping[str, Any] | None = None,
) -> CompetenceFigures:
    """Dawid–Skene and MACE on an items × annotators code matrix (one response per cell; the
    category codes index ``labels``, −1 none), items named by ``keys``; ``first`` as in
    :func:`crowd_figures`."""
    n_items, n_ann, q = len(keys), len(annotators), len(labels)
    if codes.shape != (n_items, n_ann):
        raise ValueError(f"codes of shape {codes.shape}: {n_items} items × {n_ann} annotators")
    if n_items * n_ann * q * q > MAX_DS_WORK:
        raise OptionError(
            f"Annotator competence: {n_items:,} items × {n_ann} annotators × {q:,} categories "
            f"(each annotator's confusion matrix {q:,} × {q:,}) is more than Dawid–Skene is "
            "computed for here; competence needs a small set of categories."
        )
    item, ann, lab = matrix_responses(codes)
    return crowd_figures(
        item, ann, lab, annotators, labels, keys, models, seed, "too many categories.", first
    )

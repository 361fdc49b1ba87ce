"""Annotator competence and an inferred label per item for a table study (``--competence``).

Dawid–Skene (1979) and MACE (Hovy et al. 2013) from :mod:`iaa_desktop.core.metrics.crowd`, on
every response of the study (repeats included; models included, marked as such). Labels are
treated as unordered categories by both. The inferred label is a suggestion for adjudication,
never a decision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.table.options import TableOptions
from iaa_desktop.core.kinds.table.reliability import ReliabilityData
from iaa_desktop.core.kinds.table.responses import responses
from iaa_desktop.core.metrics.crowd import CrowdResult, dawid_skene, mace

__all__ = ["METHOD_TITLES", "competence_figures", "item_keys", "label_text", "suggestion"]

METHOD_TITLES = {"dawid_skene": "Dawid–Skene", "mace": "MACE"}
#: Dawid–Skene holds an items × annotators × categories count table (8 bytes a cell)
MAX_DS_CELLS = 50_000_000


def item_keys(data: ReliabilityData, options: TableOptions) -> list[str]:
    """The item keys as the items table writes them."""
    gb = options.group_by or None
    cols = [c for c in data.items.columns if c != gb]
    keys = data.items[cols].astype(str)
    joined = keys.agg(" | ".join, axis=1) if len(cols) > 1 else keys[cols[0]]
    return [str(k) for k in joined]


def label_text(categories: Sequence[Any], numeric: bool) -> list[str]:
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


def _f(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def competence_figures(
    frame: pd.DataFrame,
    item_cols: Sequence[str],
    options: TableOptions,
    data: ReliabilityData,
    models: Sequence[str] = (),
) -> tuple[dict[str, Any], dict[str, pd.DataFrame], list[str]]:
    """``competence[]`` and ``inferred[]`` for the JSON, their CSV tables, and per item of
    ``data`` the Dawid–Skene suggestion ("" where it has none)."""
    r = responses(frame, item_cols, options, data)
    n_ann, q = len(r.annotators), len(r.categories)
    if r.n_items * n_ann * q > MAX_DS_CELLS:
        raise OptionError(
            f"Annotator competence: {r.n_items:,} items × {n_ann} annotators × {q:,} categories "
            "is more than Dawid–Skene's count table is computed for here "
            f"({MAX_DS_CELLS:,} cells); are the labels categories?"
        )
    fits: dict[str, CrowdResult] = {
        "dawid_skene": dawid_skene(r.item, r.annotator, r.label, r.n_items, n_ann, q),
        "mace": mace(r.item, r.annotator, r.label, r.n_items, n_ann, q, seed=options.seed),
    }
    n_resp = np.bincount(r.annotator, minlength=n_ann)
    labels = label_text(r.categories, data.numeric)
    comp_rows: list[dict[str, Any]] = []
    for method, fit in fits.items():
        for k, name in enumerate(r.annotators):
            row: dict[str, Any] = {
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
    keys = item_keys(data, options)
    inferred: list[dict[str, Any]] = []
    hints = [""] * len(keys)
    ds_lab, mace_lab = fits["dawid_skene"].labels, fits["mace"].labels
    for i, key in enumerate(keys):
        if ds_lab[i] < 0:
            continue
        p_ds = float(fits["dawid_skene"].posterior[i, ds_lab[i]])
        p_mace = float(fits["mace"].posterior[i, mace_lab[i]])
        inferred.append(
            {
                "item": key,
                "dawid_skene": labels[ds_lab[i]],
                "dawid_skene_posterior": p_ds,
                "mace": labels[mace_lab[i]],
                "mace_posterior": p_mace,
            }
        )
        hints[i] = suggestion("dawid_skene", labels[ds_lab[i]], p_ds)
    meta = {
        "dawid_skene": {
            "iterations": fits["dawid_skene"].iterations,
            "log_likelihood": _f(fits["dawid_skene"].log_likelihood),
            "prior": dict(zip(labels, [float(x) for x in fits["dawid_skene"].prior], strict=True)),
        },
        "mace": {
            "seed": options.seed,
            "restarts": 10,
            "iterations": fits["mace"].iterations,
            "best_restart": fits["mace"].best_restart,
            "log_likelihood": _f(fits["mace"].log_likelihood),
        },
    }
    tables = {
        "competence": pd.DataFrame(
            [{k: v for k, v in row.items() if k != "confusion"} for row in comp_rows]
        ),
        "inferred": pd.DataFrame(inferred),
    }
    return (
        {"competence": comp_rows, "inferred": inferred, "competence_fit": meta},
        tables,
        hints,
    )

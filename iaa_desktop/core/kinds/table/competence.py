"""Annotator competence and an inferred label per item for a table study (``--competence``).

Dawid–Skene (1979) and MACE (Hovy et al. 2013), as every kind computes them
(:mod:`iaa_desktop.core.kinds.annotators.competence`), on every response of the study (repeats
included; models included, marked as such). Labels are treated as unordered categories by both.
The inferred label is a suggestion for adjudication, never a decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from iaa_desktop.core.kinds.annotators.competence import crowd_figures, label_text
from iaa_desktop.core.kinds.table.options import TableOptions
from iaa_desktop.core.kinds.table.reliability import ReliabilityData
from iaa_desktop.core.kinds.table.responses import responses

__all__ = ["competence_figures", "item_keys"]


def item_keys(data: ReliabilityData, options: TableOptions) -> list[str]:
    """The item keys as the items table writes them."""
    gb = options.group_by or None
    cols = [c for c in data.items.columns if c != gb]
    keys = data.items[cols].astype(str)
    joined = keys.agg(" | ".join, axis=1) if len(cols) > 1 else keys[cols[0]]
    return [str(k) for k in joined]


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
    keys = item_keys(data, options)
    assert len(keys) == r.n_items
    fig = crowd_figures(
        r.item,
        r.annotator,
        r.label,
        r.annotators,
        label_text(r.categories, data.numeric),
        keys,
        models,
        options.seed,
    )
    return fig.to_json(), fig.tables(), list(fig.hints)

"""Every form of a table of judgments whose items carry one — a token, a word, a term in a column
of their own — with each annotator's label of each item that is an occurrence of it
(:mod:`iaa_desktop.core.kinds.occurrences`): the same word labelled two ways in two places.

The form column is the ``occurrence_column`` option, or, left empty, the first metadata column
named ``form``, ``token``, ``word`` or ``term``; a table without one has no occurrences (a
``lemma`` column is not taken unasked: in DURel judgments it names the target every pair shares).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.occurrences import FormMatch, Occurrences, OccurrenceTable, gather

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.table.compare import TableResult

#: metadata column names taken as the items' form when no column is chosen
FORM_COLUMNS = ("form", "token", "word", "term")


def form_column(context: pd.DataFrame, chosen: str = "") -> str | None:
    """The column of ``context`` holding the items' forms (None: there is none); a chosen column
    the table does not have is an :class:`OptionError` naming the columns it has."""
    if chosen:
        if chosen not in context.columns or chosen == "item":
            have = [str(c) for c in context.columns if c != "item"]
            raise OptionError(
                f"Occurrences: form column '{chosen[:40]}' is not a column of the table's items"
                + (f" (they have: {', '.join(have[:10])})." if have else " (they have none).")
            )
        return chosen
    lower = {str(c).strip().lower(): str(c) for c in context.columns if c != "item"}
    return next((lower[n] for n in FORM_COLUMNS if n in lower), None)


def occurrences(
    result: TableResult, column: str = "", match: FormMatch = "exact"
) -> Occurrences | None:
    """The forms of ``result``'s items and how consistently each was labelled, or None when the
    items carry no form column."""
    ctx = result.item_context
    col = form_column(ctx, column) if len(ctx.columns) else None
    if col is None:
        return None
    forms_by_item = dict(zip(ctx["item"].astype(str), ctx[col].astype(str)))
    # the items in their input order (the items table is sorted by disagreement)
    items = result.items.assign(_key=result.items["item"].astype(str)).set_index("_key")
    keys = [k for k in ctx["item"].astype(str) if k in items.index]
    names = [a for a in result.annotators if a in items.columns]
    labels = items.loc[keys, names].to_numpy(dtype=object)
    treatments = np.full(labels.shape, None, dtype=object)
    for (r, x), v in np.ndenumerate(labels):
        if v is not None and not (isinstance(v, float) and np.isnan(v)) and str(v) != "":
            treatments[r, x] = str(v)
    return gather(
        OccurrenceTable(
            annotators=tuple(names),
            forms=tuple(forms_by_item.get(k, "") for k in keys),
            documents=tuple(keys),
            where=tuple(f"item {k}" for k in keys),
            treatments=treatments,
            units=tuple(keys),
        ),
        match,
    )

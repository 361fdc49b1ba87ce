"""What the judgment tables say about each item besides the labels: its text and metadata, and
the annotators' comments — shown beside the labels in the views and the adjudication panel.

A metadata column whose value is the same in every judgment of an item (a review's text, its
topic) describes the item; one whose value differs between the annotators of an item (DURel's
``comment``, a timestamp) is a note of each annotator.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

#: columns that are bookkeeping, not context
_SKIP = {"timestamp", "time", "date", "__line__", "__file__"}


def item_keys(frame: pd.DataFrame, item_cols: Sequence[str]) -> pd.Series:
    """The item key as the items table writes it (columns joined by `` | ``)."""
    keys = frame[list(item_cols)].astype(str)
    return keys.agg(" | ".join, axis=1) if len(item_cols) > 1 else keys[item_cols[0]]


def build_context(
    frame: pd.DataFrame, item_cols: Sequence[str], metadata: Sequence[str], annotator: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(items, notes)``: per item its constant metadata (``item`` + one column each), and per
    judgment the differing, non-empty metadata (``item, annotator, column, value``)."""
    cols = [c for c in metadata if c in frame.columns and c.lower() not in _SKIP]
    if frame.empty or not item_cols:
        return pd.DataFrame(columns=["item"]), pd.DataFrame(
            columns=["item", "annotator", "column", "value"]
        )
    keys = item_keys(frame, item_cols).to_numpy()
    values = pd.DataFrame(
        {c: frame[c].fillna("").astype(str).str.strip().to_numpy() for c in cols},
        columns=cols,
        index=pd.RangeIndex(len(frame)),
    )
    values.insert(0, "item", keys)
    # one pass over all the columns at once: a table with thousands of columns stays linear
    varying = values.groupby("item", sort=False)[cols].nunique().gt(1)
    first = values.drop_duplicates("item", keep="first").set_index("item")
    constant = ~varying.reindex(first.index).fillna(False).to_numpy(bool)
    items = first[cols].where(constant, "").reset_index()
    items = items[[c for c in items.columns if c == "item" or (items[c] != "").any()]]
    cells = values[cols].to_numpy()
    shown = varying.reindex(keys).fillna(False).to_numpy(bool) & (cells != "")
    col_ix, row_ix = np.nonzero(shown.T)  # column by column, rows in file order
    notes_df = pd.DataFrame(
        {
            "item": keys[row_ix],
            "annotator": frame[annotator].astype(str).to_numpy()[row_ix],
            "column": np.asarray(cols, dtype=object)[col_ix],
            "value": cells[row_ix, col_ix],
        },
        columns=["item", "annotator", "column", "value"],
    )
    return items, notes_df

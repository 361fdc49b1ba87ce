"""What the judgment tables say about each item besides the labels: its text and metadata, and
the annotators' comments — shown beside the labels in the views and the adjudication panel.

A metadata column whose value is the same in every judgment of an item (a review's text, its
topic) describes the item; one whose value differs between the annotators of an item (DURel's
``comment``, a timestamp) is a note of each annotator.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    df = frame[[annotator, *cols]].copy()
    df.insert(0, "item", keys)
    for c in cols:
        df[c] = df[c].fillna("").astype(str).str.strip()
    varying = {c: df.groupby("item", sort=False)[c].nunique().gt(1) for c in cols}
    items = df.drop_duplicates("item", keep="first")[["item"]].reset_index(drop=True)
    notes = []
    for c in cols:
        per_item = df.drop_duplicates("item", keep="first").set_index("item")[c]
        constant = ~varying[c].reindex(items["item"]).fillna(False).to_numpy(bool)
        items[c] = [v if ok else "" for v, ok in zip(per_item.reindex(items["item"]), constant)]
        differ = df[df["item"].map(varying[c]).fillna(False).to_numpy(bool) & (df[c] != "")]
        if len(differ):
            notes.append(
                pd.DataFrame(
                    {
                        "item": differ["item"].to_numpy(),
                        "annotator": differ[annotator].astype(str).to_numpy(),
                        "column": c,
                        "value": differ[c].to_numpy(),
                    }
                )
            )
    items = items[[c for c in items.columns if c == "item" or (items[c] != "").any()]]
    notes_df = (
        pd.concat(notes, ignore_index=True)
        if notes
        else pd.DataFrame(columns=["item", "annotator", "column", "value"])
    )
    return items, notes_df

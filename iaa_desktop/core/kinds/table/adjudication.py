"""Units of the ``table`` kind: each item's final label (for graded items also mean or median).

Gold export writes the judgment table in the layout of the inputs: a long table gets rows of
annotator ``gold``, a wide table a ``gold`` column, one-file-per-annotator inputs a ``gold`` file.
Undecided items get an empty label, which every reader of this tool treats as missing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.gold_io import free_name, table_suffix, write_table
from iaa_desktop.core.adjudication.model import AdjudicationModel
from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.kinds.annotators.suggestions import item_suggestions
from iaa_desktop.core.kinds.table.gold import SAME_SHAPE, GoldLayout

GOLD = "gold"


class TableModel(AdjudicationModel):
    kind = "table"

    def __init__(
        self,
        *args: Any,
        item_context: pd.DataFrame | None = None,
        notes: pd.DataFrame | None = None,
        gold_layout: GoldLayout | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        #: the shape of the inputs the gold table is written in (taken when they were read)
        self.gold_layout = gold_layout
        ctx = item_context if item_context is not None else pd.DataFrame(columns=["item"])
        self._context = ctx.drop_duplicates("item").set_index("item") if len(ctx) else None
        self._notes = notes if notes is not None and len(notes) else None

    def suggestion_html(self, i: int) -> str:
        return ""  # the context's "suggested" line shows it

    def context(self, i: int) -> list[tuple[str, str]]:
        """The item's metadata columns (text, topic …) as (column, value), non-empty ones."""
        s = self.suggestion(i)
        # an inferred label (Dawid & Skene 1979) is shown, decided only by the inferred merge
        out = [("suggested", s.text)] if s is not None else []
        if self._context is None or self.keys[i] not in self._context.index:
            return out
        row = self._context.loc[self.keys[i]]
        return out + [(str(c), str(v)) for c, v in row.items() if str(v).strip()]

    def notes_of(self, i: int) -> list[tuple[str, str, str]]:
        """The annotators' notes on the item: (annotator, column, value)."""
        if self._notes is None:
            return []
        n = self._notes[self._notes["item"] == self.keys[i]]
        return list(zip(n["annotator"], n["column"], n["value"]))

    def describe(self, i: int) -> str:
        g = self.groups[i]
        head = f"Item {self.titles[i]}" + (f"  ·  group {g}" if g else "")
        body = [f"{c}: {v}" for c, v in self.context(i)]
        return "\n".join([head, *body])

    def describe_html(self, i: int, names: Any = None, current: str | None = None) -> str:
        from iaa_desktop.core.adjudication.context_html import context_block

        g = self.groups[i]
        head = f"Item {self.titles[i]}" + (f" · group {g}" if g else "")
        names = list(names) if names is not None else list(self.annotators)
        by_name = dict(zip(self.annotators, names))
        notes = [(by_name.get(a, a), c, v) for a, c, v in self.notes_of(i)]
        return context_block(head, self.context(i), notes)

    def write_gold(self, gold: NDArray[Any], out_dir: Path, notes: Any = None) -> list[Path]:
        from iaa_desktop.core.kinds.table.reader import ANNOTATOR_NAMES, LABEL_NAMES, find_column

        shape = self.gold_layout
        if shape is None:
            raise IaaError("This table study's units carry no gold layout: run the comparison.")
        firsts, item_cols = shape.firsts, list(shape.item_columns)
        meta = list(shape.metadata_columns)
        layout = shape.layout
        if layout in SAME_SHAPE:
            sep, suffix, header = shape.delimiter, table_suffix(shape.first_file), shape.header
        else:
            # tool exports, triples, contingency and count tables: the gold is a long table
            # (item, annotator, label) that opens as any other long table
            sep, suffix, layout = ",", ".csv", "long"
            header = [*item_cols, "annotator", "label", *meta]
        gold_of = dict(zip(self.keys, gold))
        keys = firsts[item_cols].astype(str).agg(" | ".join, axis=1)
        labels = [("" if gold_of.get(k) is None else str(gold_of[k])) for k in keys]
        name = free_name(GOLD, self.annotators)
        if layout == "long":
            ann_col = (
                shape.annotator
                or find_column([c for c in header if c not in item_cols], ANNOTATOR_NAMES)
                or "annotator"
            )
            lab_col = shape.label or find_column(
                [c for c in header if c not in item_cols and c != ann_col], LABEL_NAMES
            )
            if lab_col is None:
                rest = [c for c in header if c not in item_cols and c != ann_col and c not in meta]
                lab_col = rest[0] if rest else "label"
            out = pd.DataFrame({c: firsts[c].to_numpy() for c in item_cols})
            out[ann_col] = name
            out[lab_col] = labels
            for m in meta:
                out[m] = firsts[m].to_numpy() if m in firsts.columns else ""
            cols = [c for c in header if c in out.columns] + [
                c for c in out.columns if c not in header
            ]
            out = out[cols]
        elif layout == "wide":
            out = pd.DataFrame({c: firsts[c].to_numpy() for c in item_cols})
            for m in meta:
                out[m] = firsts[m].to_numpy() if m in firsts.columns else ""
            out[name] = labels
        else:  # one file per annotator: item + label, the file name is the annotator
            lab_col = shape.label or next(
                (c for c in header if c not in item_cols and c not in meta), "label"
            )
            out = pd.DataFrame({c: firsts[c].to_numpy() for c in item_cols})
            out[lab_col] = labels
        path = out_dir / f"{name}{suffix}"
        return [write_table(out, path, sep)]


def _label_value(model: TableModel) -> Callable[[str, str], str | None]:
    """The unit's value of an inferred label: a version equal to it (as text, else as a
    number: ``3`` and ``3.0``), else the label as written."""

    def value(key: str, label: str) -> str | None:
        row = [v for v in model.versions[model.index[key]] if v is not None]
        if label in row:
            return label
        try:
            x = float(label)
        except ValueError:
            return label
        for v in row:
            try:
                if float(v) == x:
                    return str(v)
            except ValueError:
                continue
        return label

    return value


def units_for_table(result: Any) -> TableModel:
    """Units of a :class:`~iaa_desktop.core.kinds.table.compare.TableResult` (one per item)."""
    items: pd.DataFrame = result.items
    annotators = tuple(result.annotators)
    labels: NDArray[Any] = items[list(annotators)].to_numpy(dtype=object)
    versions = labels.copy()
    versions[labels == ""] = None
    groups = items["group"].astype(str).tolist() if "group" in items.columns else None
    numeric = result.level in ("ordinal", "interval", "ratio") and all(
        isinstance(c, int | float | np.integer | np.floating) for c in result.categories
    )
    if "severity" in items:
        disagreement = items["severity"].fillna(0.0).to_numpy(dtype=float)
    elif "disagreement" in items:
        disagreement = items["disagreement"].to_numpy(dtype=float)
    else:
        disagreement = None
    model = TableModel(
        annotators,
        items["item"].astype(str).tolist(),
        versions,
        titles=items["item"].astype(str).tolist(),
        groups=groups,
        disagreement=disagreement,
        inputs=result.inputs,
        options=result.options,
        item_context=getattr(result, "item_context", None),
        notes=getattr(result, "notes", None),
        gold_layout=getattr(result, "gold_layout", None),
    )
    inferred = getattr(getattr(result, "annotator_figures", None), "extra", {}).get("inferred")
    if inferred:
        model.suggestions = item_suggestions(
            inferred, lambda k: k if k in model.index else None, _label_value(model)
        )
    model.numeric = bool(numeric)
    model.level = str(result.level)
    if numeric:
        model.scale = tuple(float(c) for c in result.categories)
    return model

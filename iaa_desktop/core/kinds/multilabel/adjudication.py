"""Units of the ``multilabel`` kind: each item's final set of labels.

Values are the labels of the set joined by ``;`` in the study's label order (``""`` = the empty
set). Gold export writes the annotation table in the inputs' layout (long: item, annotator,
labels; wide: item, annotator, one 0/1 column per label) with annotator ``gold``. An undecided
item gets no ``gold`` row (the multi-label formats have no "missing" cell: an empty set is a
valid annotation), so it loads back as not annotated.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.gold_io import (
    delimiter_for,
    free_name,
    table_suffix,
    write_table,
)
from iaa_desktop.core.adjudication.model import AdjudicationModel, Suggestion
from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.suggestions import Part, part_suggestions

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.multilabel.result import MultiLabelResult

GOLD = "gold"
SEP = ";"


def set_text(code: int, labels: tuple[str, ...]) -> str:
    k = len(labels)
    return SEP.join(labels[b] for b in range(k) if (code >> (k - 1 - b)) & 1)


class MultiLabelModel(AdjudicationModel):
    kind = "multilabel"

    def __init__(
        self,
        *args: Any,
        labels: tuple[str, ...] = (),
        texts: tuple[str, ...] = (),
        layout: str = "long",
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        self.labels = labels
        self.texts = texts
        self.layout = layout

    def format_value(self, value: str | None) -> str:
        if value is None:
            return "—"
        return "{" + ", ".join(value.split(SEP)) + "}" if value else "(none)"

    def colour_values(self) -> list[str]:
        """Every label set in code order, as the study's other tables colour them. The empty
        set's value ``""`` takes no colour in a list of values, so its slot holds its name:
        every other set keeps its place, and its colour."""
        return ["(none)"] + [set_text(c, self.labels) for c in range(1, 2 ** len(self.labels))]

    def parse_value(self, text: str, i: int | None = None) -> str:
        t = text.strip().strip("{}")
        parts = [p.strip() for p in t.replace(",", SEP).split(SEP) if p.strip()]
        lower = {lab.casefold(): lab for lab in self.labels}
        bad = [p for p in parts if p.casefold() not in lower]
        if bad:
            raise OptionError(
                f"Unknown label(s) {', '.join(bad)}; the labels are {', '.join(self.labels)} "
                "(separate them with ';' or ','; nothing = the empty set)."
            )
        chosen = {lower[p.casefold()] for p in parts}
        return SEP.join(lab for lab in self.labels if lab in chosen)

    def describe(self, i: int) -> str:
        t = self.texts[i] if i < len(self.texts) else ""
        return f"Item {self.titles[i]}" + (f"\n\n{t}" if t else "")

    def describe_html(self, i: int, names: Any = None, current: str | None = None) -> str:
        t = self.texts[i] if i < len(self.texts) else ""
        return f"<p><b>{html.escape(self.titles[i])}</b></p><p dir='auto'>{html.escape(t)}</p>"

    def write_gold(self, gold: NDArray[Any], out_dir: Path, notes: Any = None) -> list[Path]:
        from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions
        from iaa_desktop.core.kinds.multilabel.reader import ColumnRoles, classify_columns
        from iaa_desktop.core.tabular import LINE, expand_inputs, read_table

        files = [p for p in expand_inputs([Path(p) for p in self.inputs])]
        first = None
        roles = ColumnRoles()
        layout = self.layout
        for f in files:
            df = read_table(f)
            lay, ro = classify_columns([c for c in df.columns if c != LINE], df.head(500))
            if lay in ("long", "wide"):
                first, roles, layout = f, ro, lay
                break
        item_col = roles.item or "item"
        ann_col = roles.annotator or "annotator"
        name = free_name(GOLD, self.annotators)
        decided = [i for i, v in enumerate(gold) if v is not None]
        out = pd.DataFrame({item_col: [self.keys[i] for i in decided], ann_col: name})
        if layout == "wide":
            cols = roles.label_columns or self.labels
            for lab in cols:
                out[str(lab)] = [("1" if lab in str(gold[i]).split(SEP) else "0") for i in decided]
        else:
            delim = MultiLabelOptions.resolve(self.options).label_delimiter or SEP
            lab_col = roles.labels or "labels"
            out[lab_col] = [delim.join(str(gold[i]).split(SEP)) if gold[i] else "" for i in decided]
        sep = delimiter_for(first) if first is not None else "\t"
        suffix = table_suffix(first) if first is not None else ".tsv"
        return [write_table(out, out_dir / f"gold{suffix}", sep)]


def set_distance(codes: NDArray[Any]) -> NDArray[Any]:
    """Per item, the mean Jaccard distance 1 − |a ∩ b| / |a ∪ b| between the label sets of its
    pairs of annotators (two empty sets: 0); 0 when fewer than two annotators labelled it."""
    codes = np.asarray(codes, dtype=np.int64)
    n, c = codes.shape
    total, pairs = np.zeros(n), np.zeros(n)
    for a in range(c):
        for b in range(a + 1, c):
            both = (codes[:, a] >= 0) & (codes[:, b] >= 0)
            x, y = codes[both, a], codes[both, b]
            inter = np.array([bin(v).count("1") for v in (x & y)], dtype=float)
            union = np.array([bin(v).count("1") for v in (x | y)], dtype=float)
            d = np.where(union > 0, 1.0 - inter / np.maximum(union, 1), 0.0)
            total[both] += d
            pairs[both] += 1
    return np.where(pairs > 0, total / np.maximum(pairs, 1), 0.0)


def units_for_multilabel(result: MultiLabelResult) -> MultiLabelModel:
    """Units of a :class:`~iaa_desktop.core.kinds.multilabel.compare.MultiLabelResult` (one per item)."""
    data = result.data
    assert data is not None, "a multi-label result holds the annotations it was computed from"
    labels = tuple(data.labels)
    codes = np.asarray(data.codes)
    uniq = np.unique(codes[codes >= 0])
    text_of = {int(c): set_text(int(c), labels) for c in uniq}
    versions = np.empty(codes.shape, dtype=object)
    for (i, x), c in np.ndenumerate(codes):
        versions[i, x] = None if c < 0 else text_of[int(c)]
    model = MultiLabelModel(
        data.annotators,
        data.items,
        versions,
        titles=data.items,
        groups=None,
        disagreement=set_distance(codes),
        inputs=result.inputs,
        options=result.options,
        labels=labels,
        texts=tuple(data.texts),
        layout=data.layout,
    )
    competence = getattr(result.annotator_figures, "competence", None)
    if competence:
        model.suggestions = label_suggestions(competence, labels, model.index)
    return model


def label_suggestions(
    competence: Mapping[str, Any], labels: tuple[str, ...], units: Mapping[str, int]
) -> dict[str, Suggestion]:
    """Per item, each label's inferred presence (Dawid & Skene 1979, label by label) with its
    posterior ("Dawid–Skene: Complication yes 0.93, Success no 0.88"); the item's value is the
    set of the labels inferred present, when every label of the study was inferred for it."""
    parts: dict[str, list[Part]] = {}
    present: dict[str, set[str]] = {}
    for lab in labels:
        fig = competence.get(lab)
        for row in fig.inferred if fig is not None else ():
            item = str(row["item"])
            if item not in units:
                continue
            yes = row["dawid_skene"] == "present"
            parts.setdefault(item, []).append(
                (lab, "yes" if yes else "no", float(row["dawid_skene_posterior"]))
            )
            if yes:
                present.setdefault(item, set()).add(lab)
    values = {
        item: SEP.join(lab for lab in labels if lab in present.get(item, set()))
        for item, ps in parts.items()
        if len(ps) == len(labels)
    }
    return part_suggestions(parts, values)

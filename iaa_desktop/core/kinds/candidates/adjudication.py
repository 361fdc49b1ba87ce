"""Units of the ``candidates`` kind: each candidate pair's final accept/reject label.

Gold export: the labels table of the inputs, in its layout, with the gold added — rows of
annotator ``gold`` (long) or a ``gold`` column (wide) — as ``gold_labels.<ext>``; the candidates
reader takes one labels table, so the annotators' labels stay in the file and it loads back with
the pairs table. Undecided pairs get an empty label (no label).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.gold_io import (
    delimiter_for,
    free_name,
    table_suffix,
    write_table,
)
from iaa_desktop.core.adjudication.model import AdjudicationModel
from iaa_desktop.core.kinds.annotators.suggestions import item_suggestions

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.candidates.compare import CandidatesResult

GOLD = "gold"


class CandidatesModel(AdjudicationModel):
    kind = "candidates"

    def __init__(
        self,
        *args: Any,
        pairs: pd.DataFrame | None = None,
        factors: tuple[str, ...] = (),
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        self._pairs = pairs
        self._factors = factors

    def context(self, i: int) -> list[tuple[str, str]]:
        """The pair's suggested label as (``suggested``, text) when competence was computed."""
        s = self.suggestion(i)
        # an inferred label (Dawid & Skene 1979) is shown, never decided
        return [("suggested", s.text)] if s is not None else []

    def suggestion_html(self, i: int) -> str:
        return ""  # in the pair's own context (describe_html)

    def describe(self, i: int) -> str:
        hint = "".join(f"\n{c}: {v}" for c, v in self.context(i))
        if self._pairs is None:
            return self.titles[i] + hint
        r = self._pairs.iloc[i]
        tref = f" ({r['target_ref']})" if "target_ref" in r else ""
        sref = f" ({r['source_ref']})" if "source_ref" in r else ""
        fac = ", ".join(f"{f}: {r[f]}" for f in self._factors)
        return f"Pair {self.titles[i]} — {fac}{hint}\n\ntarget{tref}: {r['target_text']}\n\nsource{sref}: {r['source_text']}"

    def describe_html(self, i: int, names: Any = None, current: str | None = None) -> str:
        if self._pairs is None:
            return super().describe_html(i)
        r = self._pairs.iloc[i]
        fac = ", ".join(f"{html.escape(str(f))}: {html.escape(str(r[f]))}" for f in self._factors)
        out = f"<p><b>Pair {html.escape(self.titles[i])}</b> — {fac}</p>"
        for c, v in self.context(i):
            out += f"<p dir='auto'><i>{html.escape(c)}</i>: {html.escape(v)}</p>"
        for side in ("target", "source"):
            ref = f" ({html.escape(str(r[side + '_ref']))})" if f"{side}_ref" in r else ""
            out += f"<p dir='auto'><i>{side}{ref}</i><br>{html.escape(str(r[side + '_text']))}</p>"
        return out

    def write_gold(self, gold: NDArray[Any], out_dir: Path, notes: Any = None) -> list[Path]:
        from iaa_desktop.core.kinds.candidates.options import CandidatesOptions
        from iaa_desktop.core.kinds.candidates.reader import pick_column, read_candidates
        from iaa_desktop.core.tabular import LINE, read_table

        spec = CandidatesOptions.resolve(self.options).columns
        data = read_candidates([Path(p) for p in self.inputs], spec)
        lp = data.labels_path
        assert lp is not None
        raw = read_table(lp)
        raw = raw[[c for c in raw.columns if c != LINE]]
        cols = list(raw.columns)
        name = free_name(GOLD, self.annotators)
        labels = ["" if v is None else str(v) for v in gold]
        wide = all(a in cols for a in data.annotators)
        c_id = (
            pick_column(cols, spec.pair_id, ("pair_id", "pair", "id", "item"), ("id",)) or cols[0]
        )
        if wide:
            g = pd.Series(labels, index=list(self.keys))
            out = raw.copy()
            out[name] = out[c_id].astype(str).str.strip().map(g).fillna("")
            missing = [k for k in self.keys if k not in set(out[c_id].astype(str).str.strip())]
            if missing:
                extra = pd.DataFrame({c: "" for c in cols}, index=range(len(missing)))
                extra[c_id] = missing
                extra[name] = [g[k] for k in missing]
                out = pd.concat([out, extra], ignore_index=True)
        else:
            c_ann = (
                pick_column(cols, spec.annotator, ("annotator", "coder", "rater", "user"))
                or "annotator"
            )
            c_lab = (
                pick_column(cols, spec.label, ("label", "judgment", "decision", "value")) or "label"
            )
            add = pd.DataFrame({c: "" for c in cols}, index=range(len(self.keys)))
            add[c_id] = list(self.keys)
            add[c_ann] = name
            add[c_lab] = labels
            out = pd.concat([raw, add], ignore_index=True)
        path = out_dir / f"gold_labels{table_suffix(lp)}"
        return [write_table(out, path, delimiter_for(lp))]


def units_for_candidates(result: CandidatesResult) -> CandidatesModel:
    """Units of a :class:`~iaa_desktop.core.kinds.candidates.compare.CandidatesResult` (one per pair)."""
    pairs: pd.DataFrame = result.pairs.reset_index(drop=True)
    annotators = tuple(result.annotators)
    labels = pairs[list(annotators)].fillna("").astype(str).to_numpy(dtype=object)
    versions: NDArray[Any] = labels.astype(object)
    versions[labels == ""] = None  # not labelled
    factors = tuple(f for f in [*result.factors, "overlap_bin"] if f in pairs.columns)
    groups = pairs[list(factors)].astype(str).agg(" · ".join, axis=1).tolist() if factors else None
    keys = pairs["pair_id"].astype(str).tolist()
    model = CandidatesModel(
        annotators,
        keys,
        versions,
        titles=keys,
        groups=groups,
        inputs=result.inputs,
        options=result.options,
        pairs=pairs,
        factors=factors,
    )
    competence = result.annotator_figures.competence
    if competence is not None:
        # a pair's inferred label (Dawid & Skene 1979): the label the annotators wrote
        model.suggestions = item_suggestions(
            competence.inferred,
            lambda k: k if k in model.index else None,
            lambda _k, label: label,
        )
    return model

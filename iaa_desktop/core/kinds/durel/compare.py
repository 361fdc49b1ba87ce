"""Graded judgments of use pairs (DURel / PhiTag exports; TRoTR, Periti et al. 2024).

For every target and for all targets pooled, before and after the TRoTR filter:

* Krippendorff's α (ordinal by default) over the items × annotators matrix, can't-decide as a
  missing value; pooled α is computed on all items together, not averaged over targets;
* the mean pairwise Spearman ρ weighted by the number of items both annotators judged
  (can't-decide included in that count: TRoTR) or, the ``spearman_weights`` setting, judged
  with a valid value (the WUGs pipeline, ``data2agr.py``); by default the latter for DWUG/WUGs
  folders (:func:`~iaa_desktop.core.kinds.durel.reader.is_wugs_layout`);
* the filter (TRiC gold set): keep an item if (max − min) of its valid judgments is below
  ``filter_range`` (2), then drop it if ``filter_mean_low`` < mean < ``filter_mean_high``
  (2 and 3, exclusive); binary label 1 if mean ≥ ``label_threshold`` (2.5);
* per target the mean judgment (mean of the item means; TRaC: lower = more topic variation),
  as a ranking;
* per annotator, Spearman against the mean of the others on the same items.

Each pair also gets the weighted Jaccard overlap of its two texts and a Smith–Waterman
alignment of their tokens for the pair view.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import InsufficientDataError, ReaderError
from iaa_desktop.core.kinds.durel.annotators import (
    DurelAnnotators,
    durel_annotators,
    split_models,
)
from iaa_desktop.core.kinds.durel.figures import Matrix, build_matrix, compute
from iaa_desktop.core.kinds.durel.measures import row_sd
from iaa_desktop.core.kinds.durel.options import DurelOptions
from iaa_desktop.core.kinds.durel.reader import (
    DurelData,
    Scale,
    Use,
    is_wugs_layout,
    looks_like_durel,
    normalise_quote,
    read_durel,
    use_key,
)
from iaa_desktop.core.kinds.spec import (
    StepsKind,
    TaskResult,
    annotator_names,
    rename_annotators,
    result_fields,
)
from iaa_desktop.core.kinds.use_pairs import PairDetail, json_safe, make_detail, pair_overlaps
from iaa_desktop.core.progress import Progress

#: the settings of the kind, made from the fields of :class:`DurelOptions`
SETTINGS = DurelOptions.settings()


# ---------------------------------------------------------------------------------------------
# judgments as text


def _fmt(v: float) -> str:
    if v is None or not math.isfinite(v):
        return "–"
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


@dataclass
class DurelResult(TaskResult):
    #: judgments on a graded scale (the pair view's graded agreement panel and severities)
    graded: ClassVar[bool] = True
    #: the result has an agreement model of its own (the pair view's Model tab)
    has_model: ClassVar[bool] = False
    annotators: tuple[str, ...] = ()
    level: str = "ordinal"
    #: the options the figures were computed with (``spearman_weights`` as applied: never auto)
    chosen: DurelOptions = field(default_factory=DurelOptions)
    overall: dict[str, dict[str, Any]] = field(default_factory=dict)
    targets: list[dict[str, Any]] = field(default_factory=list)
    #: one row per item: target, id1, id2, judgments per annotator, statistics, overlap
    items: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: long judgments with an ``item`` column (row of ``items``)
    judgments: pd.DataFrame = field(default_factory=pd.DataFrame)
    annotator_table: pd.DataFrame = field(default_factory=pd.DataFrame)
    pairwise: pd.DataFrame = field(default_factory=pd.DataFrame)
    topic_ranking: pd.DataFrame = field(default_factory=pd.DataFrame)
    uses: dict[str, Use] = field(default_factory=dict)
    #: model annotators and planning (empty unless the options ask for them)
    annotator_figures: DurelAnnotators = field(default_factory=DurelAnnotators)
    _alignments: dict[int, PairDetail] = field(default_factory=dict, repr=False)
    _by_item: dict[int, list[tuple[Any, float, Any]]] | None = field(default=None, repr=False)

    # -- view support -------------------------------------------------------------------------
    def pair_table(self) -> pd.DataFrame:
        """The list the pair view shows: one row per pair, most disagreeing first."""
        t = self.items
        out = pd.DataFrame(
            {
                "pair": t["id1"].astype(str) + " × " + t["id2"].astype(str),
                "target": t["target"],
                "mean": t["mean"],
                "range": t["range"],
                "n_judgments": t["n_judgments"],
                "kept": t["kept"],
                "overlap": t["overlap"],
            }
        )
        for a in self.annotators:  # NaN: not judged or can't decide
            out[a] = t[a]
        for m, v in self.annotator_figures.model_labels.items():  # models, the human majority
            out[m] = v
        out["disagreement"] = t["disagreement"]
        return out

    def filter_columns(self) -> list[str]:
        return ["target"]

    def pair_detail(self, i: int) -> PairDetail:
        """Texts, tokens, alignment and judgments of item ``i`` (cached)."""
        if i in self._alignments:
            return self._alignments[i]
        row = self.items.iloc[i]
        ua = self.uses.get(use_key(row["target"], row["id1"]))
        ub = self.uses.get(use_key(row["target"], row["id2"]))
        warn = []
        for u in (ua, ub):
            if u is not None and u.start is not None and u.quote:
                got, want = normalise_quote(u.text[u.start : u.end]), normalise_quote(u.quote)
                if want and got and not (got.startswith(want) or want.startswith(got)):
                    warn.append(
                        f"{u.identifier}: the span {u.start}:{u.end} does not match the quoted '{u.quote}'; shown as given."
                    )
        js = self._judgment_rows(i)
        judgments = tuple(
            (
                str(annotator),
                "can't decide" if math.isnan(value) else _fmt(value),
                str(comment or ""),
            )
            for annotator, value, comment in js
        )
        summary = (
            ("mean", _fmt(round(float(row["mean"]), 3)) if math.isfinite(row["mean"]) else "–"),
            ("range", _fmt(row["range"])),
            ("filter", "kept" if row["kept"] else "dropped"),
            ("label", _fmt(row["label"]) if row["kept"] else "–"),
        )
        d = make_detail(
            f"{row['target']}: {row['id1']} × {row['id2']}",
            ua.text if ua else "",
            ub.text if ub else "",
            span_a=(ua.start, ua.end) if ua and ua.start is not None else None,
            span_b=(ub.start, ub.end) if ub and ub.start is not None else None,
            span_warnings=tuple(warn)
            + (() if ua and ub else ("the texts of this pair are not in uses.tsv.",)),
            judgments=judgments,
            summary=summary,
            label_a=str(row["id1"]),
            label_b=str(row["id2"]),
        )
        self._alignments[i] = d
        return d

    def _judgment_rows(self, i: int) -> list[tuple[Any, float, Any]]:
        """(annotator, value, comment) of item ``i``'s judgments in table order, from columns
        grouped by item once."""
        if self._by_item is None:
            j = self.judgments
            order = np.argsort(j["item"].to_numpy(), kind="stable")
            item = j["item"].to_numpy()[order]
            cuts = np.flatnonzero(np.diff(item)) + 1
            starts = np.concatenate([[0], cuts])
            ends = np.concatenate([cuts, [len(item)]])
            rows = list(
                zip(
                    j["annotator"].to_numpy()[order].tolist(),
                    j["value"].to_numpy(dtype=float)[order].tolist(),
                    j["comment"].to_numpy()[order].tolist(),
                )
            )
            self._by_item = {int(item[s]): rows[s:e] for s, e in zip(starts, ends) if e > s}
        return self._by_item.get(i, [])

    # -- output --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.level,
            "annotators": list(self.annotators),
            "overall": json_safe(self.overall),
            "targets": json_safe(self.targets),
            "annotator_spearman": json_safe(self.annotator_table.to_dict("records")),
            "topic_ranking": json_safe(self.topic_ranking.to_dict("records")),
            **json_safe(self.annotator_figures.to_json()),
        }

    def targets_table(self) -> pd.DataFrame:
        rows = []
        for t in self.targets:
            row: dict[str, Any] = {"target": t["target"]}
            for part in ("all", "filtered"):
                for k, v in t[part].items():
                    row[f"{k}_{part}"] = v
            rows.append(row)
        return pd.DataFrame(rows)

    def tables(self) -> dict[str, pd.DataFrame]:
        overall = pd.DataFrame([{"subset": k, **v} for k, v in self.overall.items()])
        return {
            "overall": overall,
            "targets": self.targets_table(),
            "items": self.items.copy(),
            "annotators": self.annotator_table.copy(),
            "pairwise": self.pairwise.copy(),
            "topic_ranking": self.topic_ranking.copy(),
            **self.annotator_figures.tables(),
        }

    def headline(self) -> list[tuple[str, str]]:
        a, f = self.overall.get("all", {}), self.overall.get("filtered", {})

        def g(d: Mapping[str, Any], k: str) -> str:
            v = d.get(k, math.nan)
            return f"{v:.3f}" if v is not None and math.isfinite(v) else "–"

        return [
            ("pairs", str(a.get("n_items", 0))),
            ("targets", str(len(self.targets))),
            (f"α ({self.level})", g(a, "krippendorff_alpha")),
            ("Spearman", g(a, "spearman_weighted")),
            ("α filtered", g(f, "krippendorff_alpha")),
            ("Spearman filtered", g(f, "spearman_weighted")),
        ]


# ---------------------------------------------------------------------------------------------


def _no_judgments(inputs: Sequence[Path]) -> str:
    """The message when the inputs hold no judgment: the files named, the first one leading."""
    names = [str(p) for p in inputs]
    if len(names) == 1:
        return f"{names[0]}: no judgments were found (a header and no rows, or no rows at all)."
    return f"{names[0]}: no judgments were found, nor in {', '.join(names[1:])}."


def run(inputs: Sequence[Path], opts: DurelOptions) -> Generator[Progress, None, DurelResult]:
    """The comparison of the inputs with the options resolved (:meth:`DurelOptions.resolve`)."""
    yield Progress(0, 100, "Reading the judgments")
    record = opts.record()  # as given, for the study's record
    if opts.spearman_weights == "auto":
        wugs = is_wugs_layout([Path(p) for p in inputs])
        opts = replace(opts, spearman_weights="valid" if wugs else "judged")
        record["spearman_weights"] = opts.spearman_weights
    data = _read(inputs, opts)
    errors: list[ReaderError] = list(data.errors)
    warnings: list[ReaderError] = list(data.warnings)
    if data.judgments.empty:
        raise InsufficientDataError("; ".join(str(e) for e in errors[:3]) or _no_judgments(inputs))
    yield Progress(20, 100, "Building the judgment matrix")
    matrix = build_matrix(data.judgments)
    if len(matrix.annotators) < 2:
        raise InsufficientDataError(
            f"Only one annotator ('{matrix.annotators[0]}') was found; agreement needs at least two."
        )
    matrix, models = split_models(matrix, opts)
    figures = yield from compute(matrix, data.targets, opts)
    items = _items_table(matrix, figures["stats"])
    long = data.judgments[["target", "id1", "id2", "annotator", "value", "comment"]].copy()
    long["item"] = matrix.item_of_row
    result = DurelResult(
        **result_fields("durel", inputs, record, errors, warnings),
        annotators=matrix.annotators,
        level=opts.level,
        chosen=opts,
        overall=figures["overall"],
        targets=figures["targets"],
        items=items,
        judgments=long.reset_index(drop=True),
        annotator_table=figures["annotators"],
        pairwise=figures["pairwise"],
        topic_ranking=figures["topic_ranking"],
        uses=data.uses,
    )
    asked = opts.planning or opts.competence or opts.batch_column or opts.retest
    if models is not None or asked:
        yield Progress(80, 100, "Annotators: models, competence, batches, planning")
        result.annotator_figures = durel_annotators(matrix, models, opts, data.responses)
    if data.uses and len(items) <= opts.max_aligned:
        yield from _align_texts(result)
    yield Progress(100, 100, "Done")
    return result


def _read(inputs: Sequence[Path], opts: DurelOptions) -> DurelData:
    """The judgments on the scale of the options, annotators renamed as the options ask."""
    data: DurelData = read_durel(
        [Path(p) for p in inputs],
        Scale(opts.scale_low, opts.scale_high, opts.cant_decide_values),
    )
    names = annotator_names(opts.as_dict())
    if names:
        rename_annotators(data.judgments["annotator"].unique(), opts.as_dict())  # no two the same
        data.judgments["annotator"] = data.judgments["annotator"].replace(names)
        if not data.responses.empty:
            data.responses["annotator"] = data.responses["annotator"].replace(names)
    return data


def _items_table(matrix: Matrix, stats: Mapping[str, NDArray[Any]]) -> pd.DataFrame:
    """One row per item: target, ids, the judgment of each annotator, the item statistics and a
    disagreement key (range, ties broken by the standard deviation; -1 without judgments)."""
    items = matrix.items.copy()
    for j, a in enumerate(matrix.annotators):
        items[a] = matrix.values[:, j]
    items["n_judgments"] = matrix.judged.sum(axis=1)
    items["n_valid"] = stats["n_valid"]
    items["mean"] = stats["mean"]
    items["range"] = stats["range"]
    sd = row_sd(matrix.values)
    items["disagreement"] = np.where(
        np.isnan(stats["range"]), -1.0, stats["range"] + 0.01 * np.nan_to_num(sd)
    )
    items["kept"] = stats["kept"]
    items["label"] = np.where(stats["kept"], stats["label"], np.nan)
    items["overlap"] = np.nan
    return items


def _align_texts(result: DurelResult) -> Generator[Progress, None, None]:
    """The lexical overlap of every pair joins the items table (each use tokenised once); the
    alignment of a pair is made when it is shown (:meth:`DurelResult.pair_detail`)."""
    yield Progress(85, 100, "Lexical overlap of the texts")
    items, uses = result.items, result.uses

    def text(target: Any, ident: Any) -> str:
        u = uses.get(use_key(target, ident))
        return u.text if u else ""

    targets, id1, id2 = items["target"].tolist(), items["id1"].tolist(), items["id2"].tolist()
    items["overlap"] = pair_overlaps(
        [text(t, a) for t, a in zip(targets, id1)], [text(t, b) for t, b in zip(targets, id2)]
    )


KIND = StepsKind("durel", DurelOptions, looks_like_durel, run)

"""The generic kind: judgments of items in a table (categorical, ordinal, interval, ratio, text).

Inputs are CSV/TSV/XLSX files in long layout (item key, annotator, label, metadata), wide layout
(item, metadata, one column per annotator) or one file per annotator (item, label). Missing
labels are missing values: items judged by only some annotators are normal.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import (
    IaaError,
    InsufficientDataError,
    ReaderError,
    with_earlier_problems,
)
from iaa_desktop.core.kinds.occurrences import Occurrences
from iaa_desktop.core.kinds.options import IntervalProvenance
from iaa_desktop.core.kinds.spec import GivenOptions, TaskResult
from iaa_desktop.core.kinds.table.agreement import (
    MAX_TABLE_CATEGORIES,
    coincidences,
    compute_overall,
    compute_pairwise,
    declared_order,
    group_results,
    items_table,
    per_category_table,
    study_stats,
    with_categories,
)
from iaa_desktop.core.kinds.table.annotators import (
    AnnotatorFigures,
    annotator_figures,
    split_models,
    with_models,
)
from iaa_desktop.core.kinds.table.gold import GoldLayout, gold_layout
from iaa_desktop.core.kinds.table.layouts import sniff_export
from iaa_desktop.core.kinds.table.options import TableOptions
from iaa_desktop.core.kinds.table.reader import FILE, ColumnRoles, Judgments, read_judgments
from iaa_desktop.core.kinds.table.reliability import (
    ReliabilityData,
    build_reliability,
    factorize_chunked,
)
from iaa_desktop.core.kinds.table.responses import first_occasions
from iaa_desktop.core.metrics import AgreementResult
from iaa_desktop.core.metrics.catalogue import title as metric_title
from iaa_desktop.core.progress import Progress
from iaa_desktop.core.tabular import TABLE_SUFFIXES

__all__ = [
    "KIND",
    "METRIC_TITLES",
    "OVERALL_METRICS",
    "SETTINGS",
    "GroupResult",
    "ReliabilityData",
    "TableKind",
    "TableResult",
    "below_minus_one",
    "build_reliability",
    "factorize_chunked",
]

#: every pair of annotators is tallied and shown: above this many annotators (124,750 pairs) a
#: study is refused rather than left to run out of memory
MAX_ANNOTATORS = 500

#: overall metrics in the order the GUI and the report list them
OVERALL_METRICS = (
    "percent_agreement",
    "cohen_kappa_mean",
    "scott_pi_mean",
    "fleiss_kappa",
    "multi_kappa",
    "conger_kappa",
    "krippendorff_alpha",
    "gwet_ac1",
    "bennett_s",
    "spearman_weighted",
    "weighted_kappa_linear_mean",
    "weighted_kappa_quadratic_mean",
    "gwet_ac2_linear",
    "gwet_ac2_quadratic",
)

#: display titles, from the metrics catalogue (the one place where titles are written)
METRIC_TITLES = {k: metric_title(k) for k in OVERALL_METRICS}

SETTINGS = TableOptions.settings()


def _json_value(v: Any) -> Any:
    """NaN and infinities as null; numpy scalars as Python numbers."""
    if hasattr(v, "item"):
        v = v.item()
    return None if isinstance(v, float) and not math.isfinite(v) else v


@dataclass
class GroupResult:
    group: str
    n_items: int
    overall: dict[str, AgreementResult]

    def to_json(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "n_items": self.n_items,
            "overall": {k: v.to_json() for k, v in self.overall.items()},
        }


@dataclass
class TableResult(TaskResult):
    annotators: tuple[str, ...] = ()
    n_items: int = 0
    level: str = "nominal"
    categories: list[Any] = field(default_factory=list)
    overall: dict[str, AgreementResult] = field(default_factory=dict)
    pairwise: pd.DataFrame = field(default_factory=pd.DataFrame)
    items: pd.DataFrame = field(default_factory=pd.DataFrame)
    groups: list[GroupResult] = field(default_factory=list)
    coincidence: NDArray[Any] = field(default_factory=lambda: np.zeros((0, 0)))
    per_category: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: per item its text and metadata (``item`` + columns); per judgment the annotators' notes
    #: (``item, annotator, column, value``) — see :mod:`iaa_desktop.core.kinds.table.context`
    item_context: pd.DataFrame = field(default_factory=pd.DataFrame)
    notes: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: model annotators, competence, batches, retest, planning (see ``annotators.py``)
    annotator_figures: AnnotatorFigures = field(default_factory=AnnotatorFigures)
    #: the options it was computed with, and how its intervals were made
    chosen: TableOptions = field(default_factory=TableOptions)
    interval: IntervalProvenance = field(default_factory=IntervalProvenance)
    #: with a form column: every form with each annotator's label of each of its items
    occurrences: Occurrences | None = None
    #: the shape of the inputs the gold table is written in (see :mod:`.gold`)
    gold_layout: GoldLayout | None = None

    def pair_matrix(self, metric: str) -> pd.DataFrame:
        """Annotators × annotators matrix of a pair metric (diagonal 1, or n for ``n_items``)."""
        names = list(self.annotators)
        m = pd.DataFrame(np.nan, index=names, columns=names)
        for a in names:
            m.loc[a, a] = 1.0 if metric != "n_items" else np.nan
        if metric in self.pairwise.columns:
            for row in self.pairwise.itertuples(index=False):
                v = getattr(row, metric)
                m.loc[row.a, row.b] = v
                m.loc[row.b, row.a] = v
        return m

    def to_json(self) -> dict[str, Any]:
        pairs = [
            {k: _json_value(v) for k, v in rec.items()} for rec in self.pairwise.to_dict("records")
        ]
        return {
            "kind": self.kind,
            "n_items": self.n_items,
            "n_pairable": int(self.overall["percent_agreement"].n_items)
            if "percent_agreement" in self.overall
            else 0,
            "n_annotators": len(self.annotators),
            "annotators": list(self.annotators),
            "level": self.level,
            "categories": [c.item() if hasattr(c, "item") else c for c in self.categories],
            "overall": {k: v.to_json() for k, v in self.overall.items()},
            "pairwise": pairs,
            "groups": [g.to_json() for g in self.groups],
            "per_category": [
                {k: _json_value(v) for k, v in rec.items()}
                for rec in self.per_category.to_dict("records")
            ],
            **({"occurrences": self.occurrences.to_json()} if self.occurrences else {}),
            **self.annotator_figures.to_json(),
        }

    def overall_table(self, overall: Mapping[str, AgreementResult] | None = None) -> pd.DataFrame:
        overall = self.overall if overall is None else overall
        rows = []
        for k, r in overall.items():
            rows.append(
                {
                    "metric": k,
                    "title": metric_title(k),
                    "value": r.value,
                    "ci_low": r.ci_low,
                    "ci_high": r.ci_high,
                    "n_items": r.n_items,
                    **{kk: vv for kk, vv in r.extra.items() if isinstance(vv, int | float | str)},
                }
            )
        return pd.DataFrame(rows)

    def tables(self) -> dict[str, pd.DataFrame]:
        out = {
            "overall": self.overall_table(),
            "pairwise": self.pairwise.copy(),
            "items": self.items.copy(),
        }
        if len(self.per_category):
            out["per_category"] = self.per_category.copy()
        if self.coincidence.size:
            cats = [str(c) for c in self.categories]
            co = pd.DataFrame(self.coincidence, index=cats, columns=cats)
            co.insert(0, "value", cats, allow_duplicates=True)  # a label may be "value"
            out["coincidence"] = co.reset_index(drop=True)
        if self.groups:
            rows = []
            for g in self.groups:
                t = self.overall_table(g.overall)
                t.insert(0, "group", g.group)
                t.insert(1, "group_n_items", g.n_items)
                rows.append(t)
            out["groups"] = pd.concat(rows, ignore_index=True)
        if self.occurrences is not None:
            out.update(self.occurrences.tables())
        out.update(self.annotator_figures.tables())
        return out

    def headline(self) -> list[tuple[str, str]]:
        out = [("items", str(self.n_items)), ("annotators", str(len(self.annotators)))]
        for k in ("krippendorff_alpha", "fleiss_kappa", "percent_agreement"):
            r = self.overall.get(k)
            if r is not None and math.isfinite(r.value):
                out.append((METRIC_TITLES[k], f"{r.value:.3f}"))
        return out


def below_minus_one(overall: Mapping[str, AgreementResult]) -> list[ReaderError]:
    """Say why Fleiss' κ or multi-κ came out below −1 (possible only with missing labels).

    Their chance agreement A_e comes from every label, also those of items only one annotator
    labelled, while A_o comes from the items two or more labelled (Gwet 2014, ch. 2); with
    A_e > 1/2 and disagreeing pairs, (A_o − A_e)/(1 − A_e) falls below −1. The value is the
    coefficient's (:mod:`iaa_desktop.core.metrics.result` checks its range), but it must not be
    read as "worse than total disagreement".
    """
    out = []
    for name in ("fleiss_kappa", "multi_kappa"):
        r = overall.get(name)
        if r is not None and math.isfinite(r.value) and r.value < -1:
            out.append(
                ReaderError(
                    None,
                    None,
                    f"{metric_title(name)} = {r.value:.3f} is below −1: with missing labels its "
                    f"chance agreement ({r.expected:.3f}) also counts labels of items only one "
                    f"annotator labelled, while its observed agreement ({r.observed:.3f}) counts "
                    "only items labelled by two or more; the items compared disagree more than "
                    "those labels lead one to expect.",
                )
            )
    return out


class TableKind:
    name = "table"
    settings = SETTINGS
    #: the kind's options: resolved once (:meth:`TableOptions.resolve`), computed with as they are
    options = TableOptions

    def sniff(self, inputs: Sequence[Path]) -> float:
        files = []
        for p in inputs:
            p = Path(p)
            files.extend(sorted(p.iterdir()) if p.is_dir() else [p])
        tables = [f for f in files if f.suffix.lower() in TABLE_SUFFIXES]
        if tables:
            return 0.3
        exports = [f for f in files if f.is_file() and sniff_export(f)]
        return 0.5 if exports else 0.0

    def run(
        self, inputs: Sequence[Path], options: GivenOptions
    ) -> Generator[Progress, None, TableResult]:
        opts = TableOptions.resolve(options)
        yield Progress(0, 100, "Reading the tables")
        roles = ColumnRoles(
            item=opts.item_columns,
            annotator=opts.annotator or None,
            label=opts.label or None,
            group_by=opts.group_by or None,
            metadata=tuple(dict.fromkeys(opts.metadata_columns + opts.extra_columns)),
            layout=opts.layout,
            question=opts.question or None,
        )
        judgments = read_judgments(list(inputs), roles)
        gold = gold_layout(judgments, roles.annotator, roles.label)
        errors, warnings = list(judgments.errors), list(judgments.warnings)
        yield Progress(15, 100, "Building the reliability data")
        try:
            data = build_reliability(
                first_occasions(judgments.frame, judgments.item_columns, opts),
                judgments.item_columns,
                opts,
                errors,
                warnings,
            )
            data = declared_order(data, opts)
            if judgments.categories and not opts.categories.strip():
                data = _count_table_categories(data, judgments, warnings)
            _check_annotator_count(len(data.annotators))
            everyone, (data, models) = data, split_models(data, opts)  # models never humans
        except IaaError as e:  # the files left out are named too: they may be the cause
            raise with_earlier_problems(e, list(judgments.errors)) from e
        yield Progress(25, 100, "Computing overall agreement")
        stats = study_stats(data, opts)
        overall = compute_overall(data, opts, stats=stats)
        warnings.extend(below_minus_one(overall))
        yield Progress(60, 100, "Computing pairwise agreement")
        pairwise = compute_pairwise(data, opts, stats)
        yield Progress(70, 100, "Per-item disagreement")
        figures = annotator_figures(judgments, everyone, data, models, pairwise, overall, opts)
        items = with_models(items_table(data, opts), data, models, figures.hints)
        order = [k for k in ("model_disagrees", "severity", "disagreement") if k in items]
        items = items.sort_values(
            order, ascending=False, kind="stable", na_position="last"
        ).reset_index(drop=True)
        coinc = coincidences(stats)
        per_cat = (
            per_category_table(data, stats)
            if len(data.categories) <= MAX_TABLE_CATEGORIES
            else pd.DataFrame()
        )
        groups = [GroupResult(*g) for g in (yield from group_results(data, opts))]
        from iaa_desktop.core.kinds.table.context import build_context

        context, notes = build_context(
            judgments.frame,
            judgments.item_columns,
            [c for c in judgments.metadata_columns if c != opts.group_by],
            "annotator",
        )
        yield Progress(100, 100, "Done")
        result = TableResult(
            kind=self.name,
            inputs=tuple(str(p) for p in inputs),
            options=opts.record(),  # as given, for the study's record
            errors=errors,
            warnings=warnings,
            annotators=data.annotators,
            n_items=int(data.codes.shape[0]),
            level=opts.level,
            chosen=opts,
            interval=opts.provenance,
            categories=list(data.categories),
            overall=overall,
            pairwise=pairwise,
            items=items,
            groups=groups,
            coincidence=coinc,
            per_category=per_cat,
            item_context=context,
            gold_layout=gold,
            notes=notes,
            annotator_figures=figures,
        )
        from iaa_desktop.core.kinds.table.occurrences import occurrences

        result.occurrences = occurrences(result, opts.occurrence_column, opts.occurrence_match)
        return result


KIND = TableKind()


def _count_table_categories(
    data: ReliabilityData, judgments: Judgments, warnings: list[ReaderError]
) -> ReliabilityData:
    """The categories a count table's header declares, an unused one too (Fleiss 1971: every
    column is a category; Bennett's S, AC1 and AC2 depend on how many there are), with a warning
    naming those nobody chose."""
    used = set(judgments.frame["label"].astype(str))
    unused = [c for c in judgments.categories if c not in used]
    if unused:
        first = str(judgments.frame[FILE].iloc[0]) if len(judgments.frame) else ""
        warnings.append(
            ReaderError(
                Path(first),
                None,
                f"categories nobody chose: {', '.join(unused[:10])}"
                f"{' …' if len(unused) > 10 else ''}; the count table declares them, so they "
                "count among the categories (Bennett's S, AC1 and AC2 use their number).",
            )
        )
    return with_categories(data, list(judgments.categories))


def _check_annotator_count(n: int) -> None:
    if n > MAX_ANNOTATORS:
        raise InsufficientDataError(
            f"{n:,} annotators: agreement of every pair of them ({n * (n - 1) // 2:,} pairs) is "
            f"more than this tool computes (at most {MAX_ANNOTATORS} annotators). In a wide "
            "table every column besides the item columns is an annotator: is the layout right?"
        )

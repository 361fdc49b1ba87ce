"""The agreement figures of a table study: overall, per annotator pair, per category, intervals.

Every figure comes from one tally of the study's distinct rows
(:mod:`iaa_desktop.core.metrics.tally`): the overall coefficients and their bootstrap intervals
(all resamples at once, :func:`~iaa_desktop.core.metrics.uncertainty.bootstrap_batch`), the
pairwise table, the per-category table and the coincidence matrix. Each group of a grouped study
is tallied on its own. The GUI and the command line run this same code.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import InsufficientDataError, OptionError
from iaa_desktop.core.kinds.table.options import TableOptions
from iaa_desktop.core.metrics import (
    AgreementResult,
    Tally,
    aggregate,
    batch,
    bayes_multi_kappa,
    bootstrap_batch,
    item_agreement,
    tally,
)
from iaa_desktop.core.metrics.alpha import alpha_strings_from_codes, alpha_strings_pairs
from iaa_desktop.core.metrics.coefficients import per_category_agreement
from iaa_desktop.core.metrics.percategory import per_category
from iaa_desktop.core.metrics.suite import CodedOptions, evaluate, evaluator, pair_table
from iaa_desktop.core.metrics.tally import Aggregates
from iaa_desktop.core.progress import Progress

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.table.reliability import ReliabilityData

#: with a string distance, bootstrap intervals of α need the q × q distance matrix
MAX_NLD_BOOTSTRAP_LABELS = 1000
#: per-category and coincidence tables are shown up to this many categories
MAX_TABLE_CATEGORIES = 200


@dataclass(frozen=True, eq=False)
class StudyStats:
    """A study's tally, its aggregates and what the coefficients need besides."""

    tally: Tally
    aggregates: Aggregates
    options: CodedOptions
    nld: bool


def _nld_matrix(labels: list[str]) -> NDArray[Any]:
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist

    ld = cdist(labels, list(labels), scorer=Levenshtein.distance, dtype=np.int32, workers=-1)
    lens = np.array([len(s) for s in labels], dtype=float)
    den = np.maximum(lens[:, None], lens[None, :])
    den[den == 0] = 1
    return np.asarray(ld / den, dtype=np.float64)


def declared_order(data: ReliabilityData, options: TableOptions) -> ReliabilityData:
    """The categories as the ``categories`` option declares them (order, and unused ones).

    Numbers are ordered by value; other labels take the declared order, whose ranks ordinal α
    and the weighted coefficients use. A label used but not declared is an error.
    """
    names = [s.strip() for s in str(options.categories or "").split(",") if s.strip()]
    return with_categories(data, names)


def with_categories(data: ReliabilityData, names: Sequence[str]) -> ReliabilityData:
    """The data with ``names`` as its categories (see :func:`declared_order`); unchanged when
    there are none."""
    if not names:
        return data
    if data.numeric:
        try:
            declared = np.array(sorted({float(x) for x in names}))
        except ValueError:
            raise OptionError(
                "Category order: the labels are numbers, so the declared categories must be too."
            ) from None
        old: list[float] | list[str] = [float(c) for c in data.categories]
    else:
        declared = np.array(list(dict.fromkeys(names)), dtype=object)
        old = [str(c) for c in data.categories]
    index = {v: k for k, v in enumerate(declared.tolist())}
    unknown = [str(v) for v in old if v not in index]
    if unknown:
        raise OptionError(
            f"Category order: the label(s) {', '.join(repr(u) for u in unknown[:5])} are used "
            "but not declared."
        )
    mapping = np.array([index[v] for v in old], dtype=np.int64)
    codes = np.where(data.codes >= 0, mapping[np.maximum(data.codes, 0)], -1).astype(np.int32)
    return replace(data, codes=codes, categories=declared)


def parse_scale(spec: Any) -> tuple[float, float] | None:
    """Declared bounds of a numeric scale: ``"1,5"``, ``"1-5"`` or ``"1..5"``; None when empty."""
    text = str(spec or "").strip()
    if not text:
        return None
    for sep in ("..", ",", ";", " "):
        if sep in text:
            parts = [p for p in text.split(sep) if p.strip()]
            break
    else:
        parts = text.rsplit("-", 1) if text.count("-") == 1 and not text.startswith("-") else []
    try:
        lo, hi = (float(p) for p in parts)
    except ValueError:
        parts = []
    if len(parts) != 2 or not lo < hi:
        raise OptionError(f"Scale: '{text}' is not two numbers lowest,highest (e.g. 1,5).")
    return lo, hi


def coded_options(data: ReliabilityData, options: TableOptions) -> CodedOptions:
    """Level, category values, declared scale, α distance and Spearman for this study."""
    level = options.level
    q = len(data.categories)
    if level in ("interval", "ratio") and not data.numeric:
        raise OptionError(f"The {level} level needs numeric labels.")
    values = data.categories.astype(float) if data.numeric else np.arange(q, dtype=float)
    scale = parse_scale(options.scale) if data.numeric else None
    if scale is not None and q and (values.min() < scale[0] or values.max() > scale[1]):
        raise OptionError(
            f"Scale: the labels run from {values.min():g} to {values.max():g}, outside the "
            f"declared scale {scale[0]:g}–{scale[1]:g}."
        )
    nld = options.distance == "nld"
    delta = None
    if nld and q <= MAX_NLD_BOOTSTRAP_LABELS:
        delta = _nld_matrix([str(c) for c in data.categories])
    return CodedOptions(
        level="nominal" if nld else level,
        values=values,
        span=None if scale is None else scale[1] - scale[0],
        delta=delta,
        spearman=bool(data.numeric and level != "nominal" and data.values is not None),
    )


def study_stats(data: ReliabilityData, options: TableOptions) -> StudyStats:
    """Tally the study once; every figure below is computed from it."""
    opts = coded_options(data, options)
    judged = data.judged if opts.spearman and bool((data.judged & (data.codes < 0)).any()) else None
    t = tally(data.codes, len(data.categories), judged=judged)
    return StudyStats(t, aggregate(t), opts, options.distance == "nld")


def _nld_alpha(data: ReliabilityData) -> AgreementResult:
    return alpha_strings_from_codes(data.codes, [str(c) for c in data.categories])


def compute_overall(
    data: ReliabilityData,
    options: TableOptions,
    with_intervals: bool = True,
    stats: StudyStats | None = None,
) -> dict[str, AgreementResult]:
    """Every overall coefficient that applies to the level of measurement, with its interval."""
    if not ((data.codes >= 0).sum(axis=1) >= 2).any():
        raise InsufficientDataError(
            "No item was judged by two or more annotators; agreement cannot be computed."
        )
    st = stats or study_stats(data, options)
    t, ag, opts = st.tally, st.aggregates, st.options
    method = options.interval if with_intervals else "none"
    points = evaluate(t, ag, opts)
    n_pair = float(batch.observed(t, ag)[1][0])
    valid = (t.sym > 0) & (t.sym <= t.n_categories)
    n_ann = int(valid[valid.sum(axis=1) >= 2].any(axis=0).sum())
    intervals: dict[str, tuple[float, float]] = {}
    if method == "bootstrap":
        ev = evaluator(t, opts)
        if st.nld and opts.delta is None:  # α needs all label pairs: no interval
            ev = _without(ev, "krippendorff_alpha")
        intervals = bootstrap_batch(t, ev, options.n_resamples, options.seed)
    out: dict[str, AgreementResult] = {}
    for name, b in points.items():
        value = float(b.value[0])
        lo, hi = (
            intervals.get(name, (math.nan, math.nan))
            if math.isfinite(value)
            else (math.nan, math.nan)
        )
        extra: dict[str, Any] = {}
        if name == "krippendorff_alpha":
            extra["level"] = "nld" if st.nld else opts.level
        out[name] = AgreementResult(
            name,
            value,
            float(b.observed[0]),
            float(b.expected[0]),
            int(round(n_pair)),
            n_ann,
            lo,
            hi,
            extra,
        )
    if st.nld and opts.delta is None:
        r = _nld_alpha(data)
        out["krippendorff_alpha"] = AgreementResult(
            "krippendorff_alpha",
            r.value,
            r.observed,
            r.expected,
            r.n_items,
            r.n_annotators,
            extra={"level": "nld"},
        )
    if method == "bayes" and math.isfinite(out["multi_kappa"].value):
        out["multi_kappa"] = _with_bayes(out["multi_kappa"], data, options)
    return out


def _without(ev: Any, name: str) -> Any:
    def run(ag: Aggregates) -> dict[str, NDArray[Any]]:
        return {k: v for k, v in ev(ag).items() if k != name}

    return run


def _with_bayes(
    r: AgreementResult, data: ReliabilityData, options: TableOptions
) -> AgreementResult:
    b = bayes_multi_kappa(data.codes, n_categories=len(data.categories), seed=options.seed)
    return AgreementResult(
        r.name,
        r.value,
        r.observed,
        r.expected,
        r.n_items,
        r.n_annotators,
        b["low95"],
        b["high95"],
        {
            "bayes_median": b["median"],
            "bayes_89": [b["low89"], b["high89"]],
            "bayes_95": [b["low95"], b["high95"]],
        },
    )


def compute_pairwise(
    data: ReliabilityData, options: TableOptions, stats: StudyStats | None = None
) -> pd.DataFrame:
    """One row per annotator pair: percent agreement, κ, π, α, weighted κ, ρ where they apply."""
    st = stats or study_stats(data, options)
    cols = pair_table(st.tally, st.aggregates, st.options)
    if st.nld:
        by_pair = alpha_strings_pairs(data.codes, [str(c) for c in data.categories])
        cols["krippendorff_alpha"] = np.array([by_pair.get(p, math.nan) for p in st.tally.pairs])
    order = ["n_items", "percent_agreement", "cohen_kappa", "scott_pi", "krippendorff_alpha"]
    order += [k for k in cols if k not in order]
    rows = []
    for p, (x, y) in enumerate(st.tally.pairs):
        row: dict[str, Any] = {"a": data.annotators[x], "b": data.annotators[y]}
        n = int(round(float(cols["n_items"][p])))
        row["n_items"] = n
        for k in order[1:]:
            if k in cols:
                row[k] = float(cols[k][p]) if n else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def _label_text(data: ReliabilityData) -> NDArray[Any]:
    cats = data.categories
    if data.numeric:
        txt = np.array(
            [(str(int(v)) if float(v).is_integer() else repr(float(v))) for v in cats], dtype=object
        )
    else:
        txt = np.array([str(v) for v in cats], dtype=object)
    out = np.full(data.codes.shape, "", dtype=object)
    ok = data.codes >= 0
    out[ok] = txt[data.codes[ok]]
    return out


def items_table(data: ReliabilityData, options: TableOptions) -> pd.DataFrame:
    """One row per item: key, group, every annotator's label, the number of labels, disagreement."""
    gb = options.group_by or None
    key_cols = [c for c in data.items.columns if c != gb]
    keys = data.items[key_cols].astype(str)
    items = pd.DataFrame(
        {"item": keys.agg(" | ".join, axis=1) if len(key_cols) > 1 else keys[key_cols[0]]}
    )
    if gb:
        items["group"] = data.items[gb].to_numpy()
    # every annotator's column at once (thousands of inserts would fragment the frame)
    labels = pd.DataFrame(_label_text(data), columns=list(data.annotators), index=items.index)
    items = pd.concat([items.drop(columns=[c for c in items if c in labels]), labels], axis=1)
    n_labels = (data.codes >= 0).sum(axis=1)
    items["n_labels"] = n_labels
    items["disagreement"] = 1.0 - item_agreement(data.codes, len(data.categories))
    from iaa_desktop.core.adjudication.severity import item_severity

    # the share of disagreeing pairs ignores the scale; severity weighs each pair by the
    # distance of the level of measurement (a 4-vs-5 item is not a 1-vs-5 item)
    level = str(options.level)
    items["severity"] = item_severity(data.codes, level, data.categories if data.numeric else None)
    if data.numeric and data.values is not None:
        with np.errstate(all="ignore"):
            v = data.values
            has = ~np.isnan(v).all(axis=1)
            rng = np.full(v.shape[0], np.nan)
            mean = np.full(v.shape[0], np.nan)
            rng[has] = np.nanmax(v[has], axis=1) - np.nanmin(v[has], axis=1)
            mean[has] = np.nanmean(v[has], axis=1)
        items["range"] = rng
        items["mean"] = mean
    return items


def group_results(
    data: ReliabilityData, opts: TableOptions
) -> Generator[Progress, None, list[tuple[str, int, dict[str, AgreementResult]]]]:
    """(level, pairable items, overall figures) of each level of the ``group_by`` column; each
    group is tallied on its own."""
    groups: list[tuple[str, int, dict[str, AgreementResult]]] = []
    gb = opts.group_by
    if not gb:
        return groups
    levels = pd.unique(data.items[gb])
    for k, level_value in enumerate(levels):
        yield Progress(75 + 24 * k / max(1, len(levels)), 100, f"Group {level_value}")
        mask = (data.items[gb] == level_value).to_numpy()
        sub = replace(
            data,
            codes=data.codes[mask],
            values=None if data.values is None else data.values[mask],
            judged=data.judged[mask],
            items=data.items[mask].reset_index(drop=True),
        )
        try:
            g_overall = compute_overall(sub, opts)
        except InsufficientDataError:
            g_overall = {}
        groups.append((str(level_value), int(((sub.codes >= 0).sum(axis=1) >= 2).sum()), g_overall))
    return groups


def per_category_table(data: ReliabilityData, stats: StudyStats | None = None) -> pd.DataFrame:
    """Per category: how often used, specific agreement, κ and α of "this category vs the rest"."""
    if stats is not None:
        pc = per_category(stats.tally, stats.aggregates)
    else:
        pc = per_category_agreement(data.codes, len(data.categories))
    return pd.DataFrame(
        {
            "category": [str(c) for c in data.categories],
            "n_labels": pc["n_labels"].astype(int),
            "specific_agreement": pc["specific"],
            "kappa_one_vs_rest": pc["kappa"],
            "alpha_one_vs_rest": pc["alpha"],
        }
    )


def coincidences(stats: StudyStats) -> NDArray[Any]:
    """Krippendorff's coincidence matrix of the study (empty beyond the table size)."""
    if stats.tally.n_categories > MAX_TABLE_CATEGORIES:
        return np.zeros((0, 0))
    out: NDArray[Any] = batch.coincidences(stats.tally, stats.aggregates)[0]
    return out

"""The generic kind: judgments of items in a table (categorical, ordinal, interval, ratio, text).

Inputs are CSV/TSV/XLSX files in long layout (item key, annotator, label, metadata), wide layout
(item, metadata, one column per annotator) or one file per annotator (item, label). Missing
labels are missing values: items judged by only some annotators are normal.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InsufficientDataError, OptionError, ReaderError
from ..metrics import (
    AgreementResult,
    bayes_multi_kappa,
    bootstrap_interval,
    cohen_kappa,
    coincidence_matrix,
    fleiss_kappa,
    gwet_ac1,
    item_agreement,
    krippendorff_alpha,
    multi_kappa,
    pairwise_spearman,
    percent_agreement,
    scott_pi,
    spearman_weighted,
    weighted_kappa,
)
from ..metrics.alpha import alpha_strings_from_codes
from ..progress import Progress
from ..readers.judgments import FILE, ColumnRoles, read_judgments
from ..readers.tabular import LINE, TABLE_SUFFIXES
from .base import Setting, TaskResult

#: overall metrics in the order the GUI and the report list them
OVERALL_METRICS = (
    "percent_agreement", "cohen_kappa_mean", "scott_pi_mean", "fleiss_kappa", "multi_kappa",
    "krippendorff_alpha", "gwet_ac1", "spearman_weighted",
    "weighted_kappa_linear_mean", "weighted_kappa_quadratic_mean",
)

METRIC_TITLES = {
    "percent_agreement": "Percent agreement",
    "cohen_kappa_mean": "Cohen's κ (mean over pairs)",
    "scott_pi_mean": "Scott's π (mean over pairs)",
    "fleiss_kappa": "Fleiss' κ (π*)",
    "multi_kappa": "multi-κ (Hubert)",
    "krippendorff_alpha": "Krippendorff's α",
    "gwet_ac1": "Gwet's AC1",
    "spearman_weighted": "Spearman ρ (weighted mean of pairs)",
    "weighted_kappa_linear_mean": "Weighted κ, linear (mean over pairs)",
    "weighted_kappa_quadratic_mean": "Weighted κ, quadratic (mean over pairs)",
}

SETTINGS = [
    Setting("level", "Level of measurement", "nominal", str, ("nominal", "ordinal", "interval", "ratio"),
            "nominal, ordinal, interval or ratio: decides α's distance and which coefficients apply"),
    Setting("distance", "Distance for α", "level", str, ("level", "nld"),
            "'level' = the distance of the level of measurement; 'nld' = normalized Levenshtein between text labels"),
    Setting("missing", "Values meaning missing", "", str, (),
            "comma-separated values that mean 'no judgment' (e.g. 0,-); compared as numbers in a numeric column"),
    Setting("interval", "Interval method", "bootstrap", str, ("bootstrap", "bayes", "none"),
            "bootstrap: 95% percentile interval over resampled items; bayes: conjugate posterior of multi-κ"),
    Setting("n_resamples", "Bootstrap resamples", 1000, int, (), "number of bootstrap resamples"),
    Setting("seed", "Random seed", 0, int, (), "seed of the bootstrap and the posterior draws"),
    Setting("group_by", "Group by column", "", str, (), "a column whose values each get their own result"),
    Setting("item", "Item column(s)", "", str, (), "item key column(s), comma-separated (recognised from the header when empty)"),
    Setting("annotator", "Annotator column", "", str, (), "annotator column of a long table"),
    Setting("label", "Label column", "", str, (), "label column of a long table"),
    Setting("metadata", "Metadata columns", "", str, (), "columns of a wide table that are not annotators"),
]


@dataclass
class GroupResult:
    group: str
    n_items: int
    overall: dict[str, AgreementResult]

    def to_json(self) -> dict[str, Any]:
        return {"group": self.group, "n_items": self.n_items, "overall": {k: v.to_json() for k, v in self.overall.items()}}


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
    coincidence: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    per_category: pd.DataFrame = field(default_factory=pd.DataFrame)

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
        pairs = []
        for rec in self.pairwise.to_dict("records"):
            pairs.append({k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in rec.items()})
        return {
            "kind": self.kind,
            "n_items": self.n_items,
            "n_pairable": int(self.overall["percent_agreement"].n_items) if "percent_agreement" in self.overall else 0,
            "n_annotators": len(self.annotators),
            "annotators": list(self.annotators),
            "level": self.level,
            "categories": [c.item() if hasattr(c, "item") else c for c in self.categories],
            "overall": {k: v.to_json() for k, v in self.overall.items()},
            "pairwise": pairs,
            "groups": [g.to_json() for g in self.groups],
        }

    def overall_table(self, overall: Mapping[str, AgreementResult] | None = None) -> pd.DataFrame:
        overall = self.overall if overall is None else overall
        rows = []
        for k, r in overall.items():
            rows.append({"metric": k, "title": METRIC_TITLES.get(k, k), "value": r.value, "ci_low": r.ci_low,
                         "ci_high": r.ci_high, "n_items": r.n_items,
                         **{kk: vv for kk, vv in r.extra.items() if isinstance(vv, int | float | str)}})
        return pd.DataFrame(rows)

    def tables(self) -> dict[str, pd.DataFrame]:
        out = {"overall": self.overall_table(), "pairwise": self.pairwise.copy(), "items": self.items.copy()}
        if len(self.per_category):
            out["per_category"] = self.per_category.copy()
        if self.coincidence.size:
            cats = [str(c) for c in self.categories]
            co = pd.DataFrame(self.coincidence, index=cats, columns=cats)
            co.insert(0, "value", cats)
            out["coincidence"] = co.reset_index(drop=True)
        if self.groups:
            rows = []
            for g in self.groups:
                t = self.overall_table(g.overall)
                t.insert(0, "group", g.group)
                t.insert(1, "group_n_items", g.n_items)
                rows.append(t)
            out["groups"] = pd.concat(rows, ignore_index=True)
        return out

    def headline(self) -> list[tuple[str, str]]:
        out = [("items", str(self.n_items)), ("annotators", str(len(self.annotators)))]
        for k in ("krippendorff_alpha", "fleiss_kappa", "percent_agreement"):
            r = self.overall.get(k)
            if r is not None and math.isfinite(r.value):
                out.append((METRIC_TITLES[k], f"{r.value:.3f}"))
        return out


# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReliabilityData:
    """Items × annotators codes with the category values (read-only arrays)."""

    codes: np.ndarray
    categories: np.ndarray
    numeric: bool
    values: np.ndarray | None  # float values per item × annotator (NaN missing) when numeric
    judged: np.ndarray  # bool: annotator gave any judgment (incl. a 'missing' value such as 0)
    items: pd.DataFrame  # item key columns (+ group / metadata) per row of codes
    annotators: tuple[str, ...]

    def __post_init__(self) -> None:
        for a in (self.codes, self.categories, self.judged) + ((self.values,) if self.values is not None else ()):
            a.setflags(write=False)


def _parse_missing(spec: str) -> list[str]:
    return [s.strip() for s in str(spec or "").split(",") if s.strip() != ""]


def _to_number(s: pd.Series) -> pd.Series:
    return pd.to_numeric(s.str.replace(",", ".", regex=False) if s.str.contains(r"^\s*-?\d+,\d+\s*$", regex=True).all() else s, errors="coerce")


def build_reliability(frame: pd.DataFrame, item_cols: Sequence[str], options: Mapping[str, Any],
                      errors: list[ReaderError], warnings: list[ReaderError]) -> ReliabilityData:
    """Validate the long judgments and build the reliability data.

    Problems (duplicates with different labels, non-numbers at an interval level) are appended
    to ``errors`` and the offending judgments left out.
    """
    level = options.get("level", "nominal")
    missing = _parse_missing(options.get("missing", ""))
    df = frame.copy()
    label = df["label"].astype(str)
    num = pd.to_numeric(label, errors="coerce")
    nonempty = label != ""
    in_missing = label.isin(missing)
    # a numeric column: every label that is not empty and not a 'missing' marker is a number
    numeric_col = bool((nonempty & ~in_missing).any()) and bool(num[nonempty & ~in_missing].notna().all())
    is_missing = ~nonempty
    if missing:
        miss_num = pd.to_numeric(pd.Series(missing), errors="coerce").dropna().to_numpy()
        is_missing |= label.isin(missing)
        if numeric_col and len(miss_num):
            is_missing |= num.isin(miss_num)
    judged_row = nonempty.copy()
    if level in ("interval", "ratio"):
        bad = ~is_missing & num.isna()
        if bad.any():
            first = df[bad].iloc[0]
            n_bad = int(bad.sum())
            errors.append(ReaderError(first[FILE], int(first[LINE]),
                                      f"the label '{first['label']}' is not a number, but the level of measurement is {level}"
                                      + (f" ({n_bad - 1} more such labels left out)." if n_bad > 1 else "; it is left out.")))
            is_missing |= bad
        if level == "ratio" and ((num < 0) & ~is_missing).any():
            first = df[(num < 0) & ~is_missing].iloc[0]
            errors.append(ReaderError(first[FILE], int(first[LINE]), "a negative value at the ratio level; negative values are left out."))
            is_missing |= (num < 0)
    numeric = bool((~is_missing).any()) and not bool((~is_missing & num.isna()).any())

    # duplicates of (item, annotator)
    key_cols = list(item_cols) + ["annotator"]
    dup = df.duplicated(key_cols, keep=False)
    drop = pd.Series(False, index=df.index)
    if dup.any():
        d = df[dup]
        for _, grp in d.groupby(key_cols, sort=False):
            labels = grp["label"].unique()
            first, second = grp.iloc[0], grp.iloc[1]
            if len(labels) > 1:
                item_desc = ", ".join(str(first[c]) for c in item_cols)
                errors.append(ReaderError(second[FILE], int(second[LINE]),
                                          f"annotator '{first['annotator']}' judged item '{item_desc}' twice with different labels "
                                          f"('{first['label']}' on line {int(first[LINE])}, '{second['label']}' here); both judgments are left out."))
                drop[grp.index] = True
            else:
                drop[grp.index[1:]] = True
                if len(warnings) < 50:
                    warnings.append(ReaderError(second[FILE], int(second[LINE]), f"repeats line {int(first[LINE])} exactly; counted once."))
    df = df[~drop]
    is_missing = is_missing[~drop]
    judged_row = judged_row[~drop]
    num = num[~drop]

    annotators = tuple(pd.unique(df["annotator"]))
    if len(annotators) < 2:
        who = f" ('{annotators[0]}')" if annotators else ""
        files = ", ".join(sorted(set(df[FILE]))) if len(df) else "the inputs"
        raise InsufficientDataError(f"{files}: only one annotator{who} was found; agreement needs at least two.")

    item_key = df[list(item_cols)].astype(str).agg("\x1f".join, axis=1) if len(item_cols) > 1 else df[item_cols[0]].astype(str)
    item_codes, item_uniques = pd.factorize(item_key, sort=False)
    ann_codes = pd.Index(annotators).get_indexer(df["annotator"])
    n_items, c = len(item_uniques), len(annotators)

    valid = ~is_missing.to_numpy()
    if numeric:
        vals_all = num.to_numpy(dtype=float)
        cats, inv = np.unique(vals_all[valid], return_inverse=True)
    else:
        labs = df["label"].to_numpy(dtype=object)
        cats, inv = np.unique(labs[valid].astype(str), return_inverse=True)
    codes = np.full((n_items, c), -1, dtype=np.int32)
    codes[item_codes[valid], ann_codes[valid]] = inv
    judged = np.zeros((n_items, c), dtype=bool)
    judged[item_codes[judged_row.to_numpy()], ann_codes[judged_row.to_numpy()]] = True
    values = None
    if numeric:
        values = np.full((n_items, c), np.nan)
        values[item_codes[valid], ann_codes[valid]] = vals_all[valid]

    first_rows = df.drop_duplicates(list(item_cols)).set_index(item_key.loc[df.drop_duplicates(list(item_cols)).index])
    items = first_rows.loc[item_uniques, list(item_cols)].reset_index(drop=True)
    group_by = options.get("group_by") or ""
    if group_by:
        # an item belongs to the group its first judgment names
        items[group_by] = first_rows.loc[item_uniques, group_by].to_numpy()
    return ReliabilityData(codes, cats, numeric, values, judged, items, annotators)


def _interval(codes: np.ndarray, fn, options: Mapping[str, Any], q: int) -> tuple[float, float]:
    if options.get("interval") != "bootstrap":
        return math.nan, math.nan
    return bootstrap_interval(codes, fn, n_resamples=int(options.get("n_resamples", 1000)), seed=int(options.get("seed", 0)), n_categories=q)


def _mean_pair(fn):
    """A statistic 'mean of a pair coefficient over annotator pairs' that accepts weights."""

    def stat(codes: np.ndarray, q: int | None = None, weights: np.ndarray | None = None) -> AgreementResult:
        vals, ns = [], []
        w = np.ones(codes.shape[0]) if weights is None else weights
        for x, y in combinations(range(codes.shape[1]), 2):
            both = (codes[:, x] >= 0) & (codes[:, y] >= 0) & (w > 0)
            if both.any():
                r = fn(codes[both][:, [x, y]], q, weights=w[both])
                if math.isfinite(r.value):
                    vals.append(r.value)
                    ns.append(r.n_items)
        v = float(np.mean(vals)) if vals else math.nan
        return AgreementResult("mean", v, n_items=int(((codes >= 0).sum(axis=1) >= 2).sum()), n_annotators=codes.shape[1])

    return stat


def compute_overall(data: ReliabilityData, options: Mapping[str, Any], with_intervals: bool = True) -> dict[str, AgreementResult]:
    """Every overall coefficient that applies to the level of measurement."""
    codes, q = data.codes, len(data.categories)
    level = options.get("level", "nominal")
    opts = options if with_intervals else {**options, "interval": "none"}
    out: dict[str, AgreementResult] = {}
    if not ((codes >= 0).sum(axis=1) >= 2).any():
        raise InsufficientDataError("No item was judged by two or more annotators; agreement cannot be computed.")

    def add(name: str, fn, **extra) -> None:
        r = fn(codes, q)
        lo, hi = _interval(codes, fn, opts, q) if math.isfinite(r.value) else (math.nan, math.nan)
        out[name] = AgreementResult(name, r.value, r.observed, r.expected, r.n_items, r.n_annotators, lo, hi, {**r.extra, **extra})

    add("percent_agreement", percent_agreement)
    add("cohen_kappa_mean", _mean_pair(cohen_kappa))
    add("scott_pi_mean", _mean_pair(scott_pi))
    add("fleiss_kappa", fleiss_kappa)
    add("multi_kappa", multi_kappa)
    if opts.get("interval") == "bayes" and math.isfinite(out["multi_kappa"].value):
        b = bayes_multi_kappa(codes, n_categories=q, seed=int(opts.get("seed", 0)))
        r = out["multi_kappa"]
        out["multi_kappa"] = AgreementResult(r.name, r.value, r.observed, r.expected, r.n_items, r.n_annotators,
                                             b["low95"], b["high95"], {"bayes_median": b["median"], "bayes_89": [b["low89"], b["high89"]], "bayes_95": [b["low95"], b["high95"]]})
    # α with the distance of the level (values = the numeric categories where there are any)
    if options.get("distance") == "nld":
        labels = [str(c) for c in data.categories]
        r = alpha_strings_from_codes(codes, labels)
        lo = hi = math.nan
        if opts.get("interval") == "bootstrap" and q <= 2000:
            from rapidfuzz.distance import Levenshtein
            from rapidfuzz.process import cdist

            ld = cdist(labels, list(labels), scorer=Levenshtein.distance, dtype=np.int32)
            lens = np.array([len(s) for s in labels], dtype=float)
            den = np.maximum(lens[:, None], lens[None, :])
            den[den == 0] = 1
            delta = ld / den

            def fn_nld(cd, qq=None, weights=None):
                return krippendorff_alpha(cd, distance=delta, n_categories=q, weights=weights)

            lo, hi = _interval(codes, fn_nld, opts, q)
        out["krippendorff_alpha"] = AgreementResult("krippendorff_alpha", r.value, r.observed, r.expected, r.n_items, r.n_annotators, lo, hi, {"level": "nld"})
    else:
        vals = data.categories.astype(float) if data.numeric else np.arange(q, dtype=float)
        if level in ("interval", "ratio") and not data.numeric:
            raise OptionError(f"The {level} level needs numeric labels.")

        def fn_alpha(cd, qq=None, weights=None):
            return krippendorff_alpha(cd, level, vals, n_categories=q, weights=weights)

        add("krippendorff_alpha", fn_alpha, level=level)
    add("gwet_ac1", gwet_ac1)
    if data.numeric and level != "nominal" and data.values is not None:
        r = spearman_weighted(data.values, data.judged)
        lo = hi = math.nan
        if opts.get("interval") == "bootstrap" and data.values.shape[0] <= 20000:
            rng = np.random.default_rng(int(opts.get("seed", 0)))
            n = data.values.shape[0]
            stats = []
            for _ in range(min(int(opts.get("n_resamples", 1000)), 400)):
                idx = rng.integers(0, n, n)
                v = spearman_weighted(data.values[idx], data.judged[idx]).value
                if math.isfinite(v):
                    stats.append(v)
            if len(stats) >= 10:
                lo, hi = (float(x) for x in np.quantile(stats, [0.025, 0.975]))
        out["spearman_weighted"] = AgreementResult("spearman_weighted", r.value, n_items=r.n_items, n_annotators=r.n_annotators, ci_low=lo, ci_high=hi)
    if level in ("ordinal", "interval", "ratio") and q >= 2:
        add("weighted_kappa_linear_mean", _mean_pair(lambda cd, qq=None, weights=None: weighted_kappa(cd, "linear", qq, weights)))
        add("weighted_kappa_quadratic_mean", _mean_pair(lambda cd, qq=None, weights=None: weighted_kappa(cd, "quadratic", qq, weights)))
    return out


def compute_pairwise(data: ReliabilityData, options: Mapping[str, Any]) -> pd.DataFrame:
    codes, q = data.codes, len(data.categories)
    level = options.get("level", "nominal")
    vals = data.categories.astype(float) if data.numeric else np.arange(q, dtype=float)
    rhos = {}
    if data.numeric and data.values is not None and level != "nominal":
        for x, y, rho, _nv, _nj in pairwise_spearman(data.values, data.judged):
            rhos[(x, y)] = rho
    rows = []
    for x, y in combinations(range(codes.shape[1]), 2):
        both = (codes[:, x] >= 0) & (codes[:, y] >= 0)
        sub = codes[both][:, [x, y]]
        row: dict[str, Any] = {"a": data.annotators[x], "b": data.annotators[y], "n_items": int(both.sum())}
        if both.any():
            row["percent_agreement"] = float((sub[:, 0] == sub[:, 1]).mean())
            row["cohen_kappa"] = cohen_kappa(sub, q).value
            row["scott_pi"] = scott_pi(sub, q).value
            if options.get("distance") == "nld":
                row["krippendorff_alpha"] = alpha_strings_from_codes(sub, [str(c) for c in data.categories]).value
            else:
                row["krippendorff_alpha"] = krippendorff_alpha(sub, level if (data.numeric or level in ("nominal", "ordinal")) else "nominal", vals, n_categories=q).value
            if level in ("ordinal", "interval", "ratio"):
                row["weighted_kappa_linear"] = weighted_kappa(sub, "linear", q).value
                row["weighted_kappa_quadratic"] = weighted_kappa(sub, "quadratic", q).value
        else:
            row.update(percent_agreement=math.nan, cohen_kappa=math.nan, scott_pi=math.nan, krippendorff_alpha=math.nan)
        if rhos:
            row["spearman"] = rhos.get((x, y), math.nan)
        rows.append(row)
    return pd.DataFrame(rows)


def _label_text(data: ReliabilityData) -> np.ndarray:
    cats = data.categories
    if data.numeric:
        txt = np.array([(str(int(v)) if float(v).is_integer() else repr(float(v))) for v in cats], dtype=object)
    else:
        txt = np.array([str(v) for v in cats], dtype=object)
    out = np.full(data.codes.shape, "", dtype=object)
    ok = data.codes >= 0
    out[ok] = txt[data.codes[ok]]
    return out


def items_table(data: ReliabilityData, options: Mapping[str, Any]) -> pd.DataFrame:
    """One row per item: key, group, every annotator's label, the number of labels, disagreement."""
    gb = options.get("group_by") or None
    key_cols = [c for c in data.items.columns if c != gb]
    keys = data.items[key_cols].astype(str)
    items = pd.DataFrame({"item": keys.agg(" | ".join, axis=1) if len(key_cols) > 1 else keys[key_cols[0]]})
    if gb:
        items["group"] = data.items[gb].to_numpy()
    labels = _label_text(data)
    for j, a in enumerate(data.annotators):
        items[a] = labels[:, j]
    n_labels = (data.codes >= 0).sum(axis=1)
    items["n_labels"] = n_labels
    items["disagreement"] = 1.0 - item_agreement(data.codes, len(data.categories))
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


def per_category_table(data: ReliabilityData) -> pd.DataFrame:
    from ..metrics import per_category_agreement

    pc = per_category_agreement(data.codes, len(data.categories))
    return pd.DataFrame({
        "category": [str(c) for c in data.categories], "n_labels": pc["n_labels"].astype(int),
        "specific_agreement": pc["specific"], "kappa_one_vs_rest": pc["kappa"],
    })


class TableKind:
    name = "table"
    title = "Judgment table"
    settings = SETTINGS

    def sniff(self, inputs: Sequence[Path]) -> float:
        files = []
        for p in inputs:
            p = Path(p)
            files.extend(sorted(p.iterdir()) if p.is_dir() else [p])
        tables = [f for f in files if f.suffix.lower() in TABLE_SUFFIXES]
        return 0.3 if tables else 0.0

    def run(self, inputs: Sequence[Path], options: Mapping[str, Any]) -> Generator[Progress, None, TableResult]:
        from .base import resolve_options

        opts = resolve_options(self.settings, options)
        yield Progress(0, 100, "Reading the tables")
        roles = ColumnRoles(
            item=tuple(c.strip() for c in str(opts.get("item") or "").split(",") if c.strip()),
            annotator=opts.get("annotator") or None,
            label=opts.get("label") or None,
            group_by=opts.get("group_by") or None,
            metadata=tuple(c.strip() for c in str(opts.get("metadata") or "").split(",") if c.strip()),
        )
        judgments = read_judgments(list(inputs), roles)
        errors, warnings = list(judgments.errors), list(judgments.warnings)
        yield Progress(15, 100, "Building the reliability data")
        data = build_reliability(judgments.frame, judgments.item_columns, opts, errors, warnings)
        yield Progress(25, 100, "Computing overall agreement")
        overall = compute_overall(data, opts)
        yield Progress(60, 100, "Computing pairwise agreement")
        pairwise = compute_pairwise(data, opts)
        yield Progress(70, 100, "Per-item disagreement")
        items = items_table(data, opts)
        coinc = coincidence_matrix(data.codes, len(data.categories))
        per_cat = per_category_table(data) if len(data.categories) <= 200 else pd.DataFrame()
        groups: list[GroupResult] = []
        gb = opts.get("group_by")
        if gb:
            levels = pd.unique(data.items[gb])
            for k, level_value in enumerate(levels):
                yield Progress(75 + 24 * k / max(1, len(levels)), 100, f"Group {level_value}")
                mask = (data.items[gb] == level_value).to_numpy()
                sub = ReliabilityData(data.codes[mask], data.categories, data.numeric,
                                      None if data.values is None else data.values[mask], data.judged[mask],
                                      data.items[mask].reset_index(drop=True), data.annotators)
                try:
                    g_overall = compute_overall(sub, opts)
                except InsufficientDataError:
                    g_overall = {}
                groups.append(GroupResult(str(level_value), int(((sub.codes >= 0).sum(axis=1) >= 2).sum()), g_overall))
        yield Progress(100, 100, "Done")
        return TableResult(
            kind=self.name, inputs=tuple(str(p) for p in inputs), options=dict(opts), errors=errors, warnings=warnings,
            annotators=data.annotators, n_items=int(data.codes.shape[0]), level=opts["level"],
            categories=list(data.categories), overall=overall, pairwise=pairwise, items=items,
            groups=groups, coincidence=coinc, per_category=per_cat,
        )


KIND = TableKind()

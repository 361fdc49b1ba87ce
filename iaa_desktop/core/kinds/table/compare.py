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

from iaa_desktop.core.errors import InsufficientDataError, OptionError, ReaderError
from iaa_desktop.core.kinds.spec import Setting, TaskResult
from iaa_desktop.core.kinds.table import SPEC
from iaa_desktop.core.kinds.table.reader import FILE, ColumnRoles, read_judgments
from iaa_desktop.core.metrics import (
    AgreementResult,
    bayes_multi_kappa,
    bootstrap_interval,
    bootstrap_plan,
    cohen_kappa,
    coincidence_matrix,
    fleiss_kappa,
    gwet_ac1,
    item_agreement,
    kappa_from_confusion,
    krippendorff_alpha,
    multi_kappa,
    pairwise_spearman,
    percent_agreement,
    scott_pi,
    spearman_weighted,
    weighted_kappa,
)
from iaa_desktop.core.metrics.alpha import alpha_strings_from_codes
from iaa_desktop.core.progress import Progress
from iaa_desktop.core.tabular import LINE, TABLE_SUFFIXES

#: overall metrics in the order the GUI and the report list them
OVERALL_METRICS = (
    "percent_agreement",
    "cohen_kappa_mean",
    "scott_pi_mean",
    "fleiss_kappa",
    "multi_kappa",
    "krippendorff_alpha",
    "gwet_ac1",
    "spearman_weighted",
    "weighted_kappa_linear_mean",
    "weighted_kappa_quadratic_mean",
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
    Setting(
        "level",
        "Level of measurement",
        "nominal",
        str,
        ("nominal", "ordinal", "interval", "ratio"),
        "nominal, ordinal, interval or ratio: decides α's distance and which coefficients apply",
    ),
    Setting(
        "distance",
        "Distance for α",
        "level",
        str,
        ("level", "nld"),
        "'level' = the distance of the level of measurement; 'nld' = normalized Levenshtein between text labels",
    ),
    Setting(
        "missing",
        "Values meaning missing",
        "",
        str,
        (),
        "comma-separated values that mean 'no judgment' (e.g. 0,-); compared as numbers in a numeric column",
    ),
    Setting(
        "interval",
        "Interval method",
        "bootstrap",
        str,
        ("bootstrap", "bayes", "none"),
        "bootstrap: 95% percentile interval over resampled items; bayes: conjugate posterior of multi-κ",
    ),
    Setting("n_resamples", "Bootstrap resamples", 1000, int, (), "number of bootstrap resamples"),
    Setting("seed", "Random seed", 0, int, (), "seed of the bootstrap and the posterior draws"),
    Setting(
        "group_by",
        "Group by column",
        "",
        str,
        (),
        "a column whose values each get their own result",
    ),
    Setting(
        "item",
        "Item column(s)",
        "",
        str,
        (),
        "item key column(s), comma-separated (recognised from the header when empty)",
    ),
    Setting("annotator", "Annotator column", "", str, (), "annotator column of a long table"),
    Setting("label", "Label column", "", str, (), "label column of a long table"),
    Setting(
        "metadata",
        "Metadata columns",
        "",
        str,
        (),
        "columns of a wide table that are not annotators",
    ),
]


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
            pairs.append(
                {
                    k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                    for k, v in rec.items()
                }
            )
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
        }

    def overall_table(self, overall: Mapping[str, AgreementResult] | None = None) -> pd.DataFrame:
        overall = self.overall if overall is None else overall
        rows = []
        for k, r in overall.items():
            rows.append(
                {
                    "metric": k,
                    "title": METRIC_TITLES.get(k, k),
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
        for a in (self.codes, self.categories, self.judged) + (
            (self.values,) if self.values is not None else ()
        ):
            a.setflags(write=False)


def _parse_missing(spec: str) -> list[str]:
    return [s.strip() for s in str(spec or "").split(",") if s.strip() != ""]


def _to_number(s: pd.Series) -> pd.Series:
    return pd.to_numeric(
        s.str.replace(",", ".", regex=False)
        if s.str.contains(r"^\s*-?\d+,\d+\s*$", regex=True).all()
        else s,
        errors="coerce",
    )


def factorize_chunked(values: Any, chunk: int = 100_000) -> tuple[np.ndarray, list[Any]]:
    """``pandas.factorize`` in chunks: codes in order of first appearance and the distinct values.

    Hashing a million strings in one call holds the GIL for a few hundred milliseconds, which
    would freeze the GUI thread; chunks keep every hold short.
    """
    arr = np.asarray(values, dtype=object)
    codes = np.empty(len(arr), dtype=np.int64)
    index: dict[Any, int] = {}
    uniques: list[Any] = []
    for start in range(0, len(arr), chunk):
        part_codes, part_uniques = pd.factorize(arr[start : start + chunk], sort=False)
        mapping = np.empty(len(part_uniques), dtype=np.int64)
        for j, u in enumerate(part_uniques):
            k = index.get(u)
            if k is None:
                k = index[u] = len(uniques)
                uniques.append(u)
            mapping[j] = k
        codes[start : start + chunk] = mapping[part_codes]
    return codes, uniques


def build_reliability(  # noqa: C901  (to split)
    frame: pd.DataFrame,
    item_cols: Sequence[str],
    options: Mapping[str, Any],
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> ReliabilityData:
    """Validate the long judgments and build the reliability data.

    Problems (duplicates with different labels, non-numbers at an interval level) are appended
    to ``errors`` and the offending judgments left out. Everything per row works on integer
    codes; the text of labels is examined once per distinct label.
    """
    level = options.get("level", "nominal")
    missing = _parse_missing(options.get("missing", ""))
    lab_codes, lab_uniques = factorize_chunked(frame["label"].to_numpy())
    labs_u = pd.Series([str(v) for v in lab_uniques], dtype=object)
    num_u = pd.to_numeric(labs_u, errors="coerce").to_numpy(dtype=float)
    nonempty_u = (labs_u != "").to_numpy()
    in_missing_u = labs_u.isin(missing).to_numpy()
    # a numeric column: every label that is not empty and not a 'missing' marker is a number
    used = nonempty_u & ~in_missing_u
    numeric_col = bool(used.any()) and not bool(np.isnan(num_u[used]).any())
    missing_u = ~nonempty_u | in_missing_u
    if missing and numeric_col:
        miss_num = pd.to_numeric(pd.Series(missing), errors="coerce").dropna().to_numpy()
        missing_u |= np.isin(num_u, miss_num)

    def first_row_with(mask_u: np.ndarray) -> int:
        return int(np.flatnonzero(mask_u[lab_codes])[0])

    if level in ("interval", "ratio"):
        bad_u = ~missing_u & np.isnan(num_u)
        if bad_u.any():
            n_bad = int(bad_u[lab_codes].sum())
            r = first_row_with(bad_u)
            errors.append(
                ReaderError(
                    frame[FILE].iat[r],
                    int(frame[LINE].iat[r]),
                    f"the label '{frame['label'].iat[r]}' is not a number, but the level of measurement is {level}"
                    + (
                        f" ({n_bad - 1} more such labels left out)."
                        if n_bad > 1
                        else "; it is left out."
                    ),
                )
            )
            missing_u |= bad_u
        neg_u = ~missing_u & (num_u < 0)
        if level == "ratio" and neg_u.any():
            r = first_row_with(neg_u)
            errors.append(
                ReaderError(
                    frame[FILE].iat[r],
                    int(frame[LINE].iat[r]),
                    "a negative value at the ratio level; negative values are left out.",
                )
            )
            missing_u |= neg_u
    numeric = bool((~missing_u).any()) and not bool((~missing_u & np.isnan(num_u)).any())

    # item and annotator codes
    if len(item_cols) == 1:
        item_codes, item_uniques_list = factorize_chunked(frame[item_cols[0]].to_numpy())
    else:
        parts = [factorize_chunked(frame[c].to_numpy()) for c in item_cols]
        combined = np.zeros(len(frame), dtype=np.int64)
        for codes_c, uniq_c in parts:
            combined = combined * (len(uniq_c) + 1) + codes_c
        item_codes, _ = pd.factorize(combined, sort=False)
        item_codes = item_codes.astype(np.int64)
    ann_codes, annotators_list = factorize_chunked(frame["annotator"].to_numpy())
    c = len(annotators_list)
    keep = np.ones(len(frame), dtype=bool)

    # duplicates of (item, annotator)
    pair_key = pd.Series(item_codes * max(c, 1) + ann_codes)
    dup = pair_key.duplicated(keep=False).to_numpy()
    if dup.any():
        dup_rows = np.flatnonzero(dup)
        groups: dict[int, list[int]] = {}
        for r in dup_rows:
            groups.setdefault(int(pair_key.iat[r]), []).append(int(r))
        for rows in groups.values():
            first, second = rows[0], rows[1]
            if len({int(lab_codes[r]) for r in rows}) > 1:
                item_desc = ", ".join(str(frame[col].iat[first]) for col in item_cols)
                errors.append(
                    ReaderError(
                        frame[FILE].iat[second],
                        int(frame[LINE].iat[second]),
                        f"annotator '{frame['annotator'].iat[first]}' judged item '{item_desc}' twice with different labels "
                        f"('{frame['label'].iat[first]}' on line {int(frame[LINE].iat[first])}, "
                        f"'{frame['label'].iat[second]}' here); both judgments are left out.",
                    )
                )
                keep[rows] = False
            else:
                keep[rows[1:]] = False
                if len(warnings) < 50:
                    warnings.append(
                        ReaderError(
                            frame[FILE].iat[second],
                            int(frame[LINE].iat[second]),
                            f"repeats line {int(frame[LINE].iat[first])} exactly; counted once.",
                        )
                    )

    present = np.zeros(c, dtype=bool)
    present[ann_codes[keep]] = True
    if present.sum() < 2:
        names = [str(a) for a, p in zip(annotators_list, present) if p]
        who = f" ('{names[0]}')" if names else ""
        files = ", ".join(sorted(set(frame[FILE]))) if len(frame) else "the inputs"
        raise InsufficientDataError(
            f"{files}: only one annotator{who} was found; agreement needs at least two."
        )
    annotators = tuple(str(a) for a in annotators_list)

    # the first row of each item, in order of first appearance (= the order of the item codes)
    first_pos = np.flatnonzero(~pd.Series(item_codes).duplicated().to_numpy())
    n_items = len(first_pos)

    lab_missing = missing_u[lab_codes]
    valid = keep & ~lab_missing
    judged_row = keep & nonempty_u[lab_codes]
    if numeric:
        order = np.argsort(num_u[~missing_u])
        cats = num_u[~missing_u][order]
    else:
        cats_idx = np.flatnonzero(~missing_u)
        order = np.argsort(labs_u.to_numpy()[cats_idx].astype(str))
        cats = labs_u.to_numpy()[cats_idx][order].astype(str)
    # category index of each distinct label (-1 for missing ones)
    cat_of_u = np.full(len(lab_uniques), -1, dtype=np.int64)
    cat_of_u[np.flatnonzero(~missing_u)[order]] = np.arange(len(order))
    if numeric:  # different spellings of one number (2, 2.0) are one category
        cats, inverse = np.unique(cats, return_inverse=True)
        cat_of_u[cat_of_u >= 0] = inverse[cat_of_u[cat_of_u >= 0]]
    codes = np.full((n_items, c), -1, dtype=np.int32)
    codes[item_codes[valid], ann_codes[valid]] = cat_of_u[lab_codes[valid]]
    judged = np.zeros((n_items, c), dtype=bool)
    judged[item_codes[judged_row], ann_codes[judged_row]] = True
    values = None
    if numeric:
        values = np.full((n_items, c), np.nan)
        values[item_codes[valid], ann_codes[valid]] = num_u[lab_codes[valid]]

    items = frame[list(item_cols)].iloc[first_pos].reset_index(drop=True)
    group_by = options.get("group_by") or ""
    if group_by:
        # an item belongs to the group its first judgment names
        items[group_by] = frame[group_by].iloc[first_pos].to_numpy()
    return ReliabilityData(codes, np.asarray(cats), numeric, values, judged, items, annotators)


def _interval(
    codes: np.ndarray, fn, options: Mapping[str, Any], q: int, plan=None
) -> tuple[float, float]:
    if options.get("interval") != "bootstrap":
        return math.nan, math.nan
    return bootstrap_interval(
        codes,
        fn,
        n_resamples=int(options.get("n_resamples", 1000)),
        seed=int(options.get("seed", 0)),
        n_categories=q,
        plan=plan,
    )


def _mean_pair(fn):
    """A statistic 'mean of a pair coefficient over annotator pairs' that accepts weights.

    ``fn`` maps a pair's confusion matrix to an AgreementResult; each pair's confusion matrix is
    one weighted bincount, so a bootstrap resample costs a few microseconds per pair.
    """

    def stat(
        codes: np.ndarray, q: int | None = None, weights: np.ndarray | None = None
    ) -> AgreementResult:
        q = int(q if q is not None else codes.max() + 1)
        shifted = codes.astype(np.int64) + 1
        vals = []
        for x, y in combinations(range(codes.shape[1]), 2):
            key = shifted[:, x] * (q + 1) + shifted[:, y]
            cm = np.bincount(key, weights=weights, minlength=(q + 1) ** 2).reshape(q + 1, q + 1)[
                1:, 1:
            ]
            if cm.sum() > 0:
                v = fn(cm).value
                if math.isfinite(v):
                    vals.append(v)
        v = float(np.mean(vals)) if vals else math.nan
        return AgreementResult(
            "mean",
            v,
            n_items=int(((codes >= 0).sum(axis=1) >= 2).sum()),
            n_annotators=codes.shape[1],
        )

    return stat


def _weighted_kappa_cm(kind: str):
    def fn(cm: np.ndarray) -> AgreementResult:
        q = cm.shape[0]
        idx = np.arange(q)
        diff = np.abs(idx[:, None] - idx[None, :]).astype(float)
        wm = diff if kind == "linear" else diff**2
        p = cm / cm.sum()
        d_o = float((wm * p).sum())
        d_e = float((wm * np.outer(p.sum(axis=1), p.sum(axis=0))).sum())
        return AgreementResult("weighted_kappa", 1.0 - d_o / d_e if d_e > 0 else math.nan)

    return fn


def compute_overall(  # noqa: C901  (to split)
    data: ReliabilityData, options: Mapping[str, Any], with_intervals: bool = True
) -> dict[str, AgreementResult]:
    """Every overall coefficient that applies to the level of measurement."""
    codes, q = data.codes, len(data.categories)
    level = options.get("level", "nominal")
    opts = options if with_intervals else {**options, "interval": "none"}
    out: dict[str, AgreementResult] = {}
    if not ((codes >= 0).sum(axis=1) >= 2).any():
        raise InsufficientDataError(
            "No item was judged by two or more annotators; agreement cannot be computed."
        )

    plan = None
    if opts.get("interval") == "bootstrap":
        plan = bootstrap_plan(codes, int(opts.get("n_resamples", 1000)), int(opts.get("seed", 0)))

    def add(name: str, fn, **extra) -> None:
        r = fn(codes, q)
        lo, hi = (
            _interval(codes, fn, opts, q, plan) if math.isfinite(r.value) else (math.nan, math.nan)
        )
        out[name] = AgreementResult(
            name,
            r.value,
            r.observed,
            r.expected,
            r.n_items,
            r.n_annotators,
            lo,
            hi,
            {**r.extra, **extra},
        )

    add("percent_agreement", percent_agreement)
    add("cohen_kappa_mean", _mean_pair(kappa_from_confusion))
    add("scott_pi_mean", _mean_pair(lambda cm: kappa_from_confusion(cm, "scott_pi")))
    add("fleiss_kappa", fleiss_kappa)
    add("multi_kappa", multi_kappa)
    if opts.get("interval") == "bayes" and math.isfinite(out["multi_kappa"].value):
        b = bayes_multi_kappa(codes, n_categories=q, seed=int(opts.get("seed", 0)))
        r = out["multi_kappa"]
        out["multi_kappa"] = AgreementResult(
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

            lo, hi = _interval(codes, fn_nld, opts, q, plan)
        out["krippendorff_alpha"] = AgreementResult(
            "krippendorff_alpha",
            r.value,
            r.observed,
            r.expected,
            r.n_items,
            r.n_annotators,
            lo,
            hi,
            {"level": "nld"},
        )
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
        out["spearman_weighted"] = AgreementResult(
            "spearman_weighted",
            r.value,
            n_items=r.n_items,
            n_annotators=r.n_annotators,
            ci_low=lo,
            ci_high=hi,
        )
    if level in ("ordinal", "interval", "ratio") and q >= 2:
        add("weighted_kappa_linear_mean", _mean_pair(_weighted_kappa_cm("linear")))
        add("weighted_kappa_quadratic_mean", _mean_pair(_weighted_kappa_cm("quadratic")))
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
                    f"{METRIC_TITLES[name]} = {r.value:.3f} is below −1: with missing labels its "
                    f"chance agreement ({r.expected:.3f}) also counts labels of items only one "
                    f"annotator labelled, while its observed agreement ({r.observed:.3f}) counts "
                    "only items labelled by two or more; the items compared disagree more than "
                    "those labels lead one to expect.",
                )
            )
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
        row: dict[str, Any] = {
            "a": data.annotators[x],
            "b": data.annotators[y],
            "n_items": int(both.sum()),
        }
        if both.any():
            row["percent_agreement"] = float((sub[:, 0] == sub[:, 1]).mean())
            row["cohen_kappa"] = cohen_kappa(sub, q).value
            row["scott_pi"] = scott_pi(sub, q).value
            if options.get("distance") == "nld":
                row["krippendorff_alpha"] = alpha_strings_from_codes(
                    sub, [str(c) for c in data.categories]
                ).value
            else:
                row["krippendorff_alpha"] = krippendorff_alpha(
                    sub,
                    level if (data.numeric or level in ("nominal", "ordinal")) else "nominal",
                    vals,
                    n_categories=q,
                ).value
            if level in ("ordinal", "interval", "ratio"):
                row["weighted_kappa_linear"] = weighted_kappa(sub, "linear", q).value
                row["weighted_kappa_quadratic"] = weighted_kappa(sub, "quadratic", q).value
        else:
            row.update(
                percent_agreement=math.nan,
                cohen_kappa=math.nan,
                scott_pi=math.nan,
                krippendorff_alpha=math.nan,
            )
        if rhos:
            row["spearman"] = rhos.get((x, y), math.nan)
        rows.append(row)
    return pd.DataFrame(rows)


def _label_text(data: ReliabilityData) -> np.ndarray:
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


def items_table(data: ReliabilityData, options: Mapping[str, Any]) -> pd.DataFrame:
    """One row per item: key, group, every annotator's label, the number of labels, disagreement."""
    gb = options.get("group_by") or None
    key_cols = [c for c in data.items.columns if c != gb]
    keys = data.items[key_cols].astype(str)
    items = pd.DataFrame(
        {"item": keys.agg(" | ".join, axis=1) if len(key_cols) > 1 else keys[key_cols[0]]}
    )
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
    from iaa_desktop.core.metrics import per_category_agreement

    pc = per_category_agreement(data.codes, len(data.categories))
    return pd.DataFrame(
        {
            "category": [str(c) for c in data.categories],
            "n_labels": pc["n_labels"].astype(int),
            "specific_agreement": pc["specific"],
            "kappa_one_vs_rest": pc["kappa"],
        }
    )


class TableKind:
    name = "table"
    title = SPEC.title
    settings = SETTINGS

    def sniff(self, inputs: Sequence[Path]) -> float:
        files = []
        for p in inputs:
            p = Path(p)
            files.extend(sorted(p.iterdir()) if p.is_dir() else [p])
        tables = [f for f in files if f.suffix.lower() in TABLE_SUFFIXES]
        return 0.3 if tables else 0.0

    def run(
        self, inputs: Sequence[Path], options: Mapping[str, Any]
    ) -> Generator[Progress, None, TableResult]:
        from iaa_desktop.core.kinds.spec import resolve_options

        opts = resolve_options(self.settings, options)
        yield Progress(0, 100, "Reading the tables")
        roles = ColumnRoles(
            item=tuple(c.strip() for c in str(opts.get("item") or "").split(",") if c.strip()),
            annotator=opts.get("annotator") or None,
            label=opts.get("label") or None,
            group_by=opts.get("group_by") or None,
            metadata=tuple(
                c.strip() for c in str(opts.get("metadata") or "").split(",") if c.strip()
            ),
        )
        judgments = read_judgments(list(inputs), roles)
        errors, warnings = list(judgments.errors), list(judgments.warnings)
        yield Progress(15, 100, "Building the reliability data")
        data = build_reliability(judgments.frame, judgments.item_columns, opts, errors, warnings)
        yield Progress(25, 100, "Computing overall agreement")
        overall = compute_overall(data, opts)
        warnings.extend(below_minus_one(overall))
        yield Progress(60, 100, "Computing pairwise agreement")
        pairwise = compute_pairwise(data, opts)
        yield Progress(70, 100, "Per-item disagreement")
        items = (
            items_table(data, opts)
            .sort_values("disagreement", ascending=False, kind="stable", na_position="last")
            .reset_index(drop=True)
        )
        coinc = coincidence_matrix(data.codes, len(data.categories))
        per_cat = per_category_table(data) if len(data.categories) <= 200 else pd.DataFrame()
        groups: list[GroupResult] = []
        gb = opts.get("group_by")
        if gb:
            levels = pd.unique(data.items[gb])
            for k, level_value in enumerate(levels):
                yield Progress(75 + 24 * k / max(1, len(levels)), 100, f"Group {level_value}")
                mask = (data.items[gb] == level_value).to_numpy()
                sub = ReliabilityData(
                    data.codes[mask],
                    data.categories,
                    data.numeric,
                    None if data.values is None else data.values[mask],
                    data.judged[mask],
                    data.items[mask].reset_index(drop=True),
                    data.annotators,
                )
                try:
                    g_overall = compute_overall(sub, opts)
                except InsufficientDataError:
                    g_overall = {}
                groups.append(
                    GroupResult(
                        str(level_value), int(((sub.codes >= 0).sum(axis=1) >= 2).sum()), g_overall
                    )
                )
        yield Progress(100, 100, "Done")
        return TableResult(
            kind=self.name,
            inputs=tuple(str(p) for p in inputs),
            options=dict(opts),
            errors=errors,
            warnings=warnings,
            annotators=data.annotators,
            n_items=int(data.codes.shape[0]),
            level=opts["level"],
            categories=list(data.categories),
            overall=overall,
            pairwise=pairwise,
            items=items,
            groups=groups,
            coincidence=coinc,
            per_category=per_cat,
        )


KIND = TableKind()

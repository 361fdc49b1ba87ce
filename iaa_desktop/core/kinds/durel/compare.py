"""Graded judgments of use pairs (DURel / PhiTag exports; TRoTR, Periti et al. 2024).

For every target and for all targets pooled, before and after the TRoTR filter:

* Krippendorff's α (ordinal by default) over the items × annotators matrix, can't-decide as a
  missing value; pooled α is computed on all items together, not averaged over targets;
* the mean pairwise Spearman ρ weighted by the number of items both annotators judged
  (can't-decide included in that count);
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
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.align.tokens import (
    Alignment,
    Tokens,
    smith_waterman,
    tokenize,
    weighted_jaccard,
)
from iaa_desktop.core.errors import InsufficientDataError, ReaderError
from iaa_desktop.core.kinds.durel import SPEC
from iaa_desktop.core.kinds.durel.reader import (
    DurelData,
    Scale,
    Use,
    looks_like_durel,
    normalise_quote,
    read_durel,
    use_key,
)
from iaa_desktop.core.kinds.spec import (
    Setting,
    TaskResult,
    annotator_names,
    rename_annotators,
    resolve_options,
)
from iaa_desktop.core.metrics import (
    encode_numeric,
    krippendorff_alpha,
    pairwise_spearman,
    spearman_vs_others,
    spearman_weighted,
)
from iaa_desktop.core.progress import Progress

SETTINGS = [
    Setting(
        "level",
        "Level of measurement for α",
        "ordinal",
        str,
        ("ordinal", "interval", "nominal"),
        "Krippendorff's α distance: ordinal (TRoTR), interval or nominal",
    ),
    Setting("scale_low", "Lowest judgment", 1.0, float, (), "lowest valid judgment of the scale"),
    Setting(
        "scale_high", "Highest judgment", 4.0, float, (), "highest valid judgment of the scale"
    ),
    Setting(
        "cant_decide",
        "Can't-decide values",
        "0,-",
        str,
        (),
        "comma-separated judgments meaning 'can't decide' (a missing value)",
    ),
    Setting(
        "filter_range",
        "Filter: range below",
        2.0,
        float,
        (),
        "keep an item only if max − min of its judgments is below this",
    ),
    Setting(
        "filter_mean_low",
        "Filter: drop means above",
        2.0,
        float,
        (),
        "then drop items whose mean lies strictly between this ...",
    ),
    Setting("filter_mean_high", "Filter: ... and below", 3.0, float, (), "... and this"),
    Setting(
        "label_threshold",
        "Binary label 1 from mean",
        2.5,
        float,
        (),
        "binary label 1 if the item mean is at least this",
    ),
    Setting(
        "trac_min_spearman",
        "TRaC: minimum Spearman",
        0.15,
        float,
        (),
        "targets with a weighted Spearman below this are marked as left out of the TRaC ranking",
    ),
    Setting(
        "max_aligned",
        "Align texts up to N pairs",
        20000,
        int,
        (),
        "texts of larger studies are aligned when a pair is shown",
    ),
]


# ---------------------------------------------------------------------------------------------
# what the pair view shows (shared with the candidates kind)


@dataclass(frozen=True)
class PairDetail:
    """Everything the pair view needs for one pair of passages."""

    title: str
    text_a: str
    text_b: str
    tokens_a: Tokens
    tokens_b: Tokens
    shared: frozenset[str]
    alignment: Alignment
    overlap: float
    span_a: tuple[int, int] | None = None
    span_b: tuple[int, int] | None = None
    span_warnings: tuple[str, ...] = ()
    #: (annotator, value as text, comment)
    judgments: tuple[tuple[str, str, str], ...] = ()
    summary: tuple[tuple[str, str], ...] = ()
    label_a: str = "A"
    label_b: str = "B"


#: token pairs (passage A length × passage B length) aligned at most: 32 MB per matrix
MAX_ALIGNED_CELLS = 4_000_000


def make_detail(
    title: str,
    text_a: str,
    text_b: str,
    lemmas_a: str | None = None,
    lemmas_b: str | None = None,
    **kw: Any,
) -> PairDetail:
    """Tokenise, overlap and align two passages (the alignment only up to
    :data:`MAX_ALIGNED_CELLS` token pairs: its matrices grow with the product of the lengths)."""
    ta, tb = tokenize(text_a, lemmas_a), tokenize(text_b, lemmas_b)
    n_cells = len(ta.keys) * len(tb.keys)
    if n_cells <= MAX_ALIGNED_CELLS:
        al = smith_waterman(ta.keys, tb.keys)
    else:
        al = Alignment((), 0.0)
        note = (
            "alignment",
            f"not computed: {len(ta.keys):,} × {len(tb.keys):,} tokens, more than "
            f"{MAX_ALIGNED_CELLS:,} token pairs",
        )
        kw["summary"] = (*kw.get("summary", ()), note)
    return PairDetail(
        title,
        text_a,
        text_b,
        ta,
        tb,
        frozenset(ta.keys) & frozenset(tb.keys),
        al,
        weighted_jaccard(ta.keys, tb.keys),
        **kw,
    )


# ---------------------------------------------------------------------------------------------
# figures


def _fmt(v: float) -> str:
    if v is None or not math.isfinite(v):
        return "–"
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def subset_figures(values: np.ndarray, judged: np.ndarray, level: str) -> dict[str, Any]:
    """α and weighted Spearman of the given items (rows) of the reliability matrix."""
    codes, cats = encode_numeric(values)
    pairable = (codes >= 0).sum(axis=1) >= 2
    alpha = math.nan
    if pairable.any() and len(cats) >= 1:
        alpha = krippendorff_alpha(codes, level, cats).value
    rho = spearman_weighted(values, judged).value if values.shape[0] else math.nan
    return {
        "n_items": int(values.shape[0]),
        "krippendorff_alpha": alpha,
        "spearman_weighted": rho,
        "n_judgments": int(judged.sum()),
        "n_cant_decide": int((judged & np.isnan(values)).sum()),
        "n_annotators": int(judged.any(axis=0).sum()),
    }


# ---------------------------------------------------------------------------------------------
# the same figures for many targets at once (a loop over hundreds of targets calling the
# per-subset functions costs more than the whole pooled computation)


def _grouped_ranks(groups: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Average 1-based ranks of ``x`` within each group (ties share the mean rank)."""
    n = len(x)
    if n == 0:
        return np.zeros(0)
    order = np.lexsort((x, groups))
    gs, xs = groups[order], x[order]
    new_group = np.concatenate([[True], gs[1:] != gs[:-1]])
    group_start = np.maximum.accumulate(np.where(new_group, np.arange(n), 0))
    run_edge = np.concatenate([[True], (gs[1:] != gs[:-1]) | (xs[1:] != xs[:-1])])
    starts = np.flatnonzero(run_edge)
    ends = np.concatenate([starts[1:], [n]])
    run_rank = (starts + ends + 1) / 2.0 - group_start[starts]
    ranks = np.empty(n)
    ranks[order] = np.repeat(run_rank, ends - starts)
    return ranks


def grouped_spearman_weighted(
    values: np.ndarray, judged: np.ndarray, groups: np.ndarray, n_groups: int
) -> np.ndarray:
    r"""Weighted mean pairwise Spearman ρ of each group of items (TRoTR).

    Per group and annotator pair (x, y), ρ_xy is the Pearson correlation of the average ranks of
    the items both judged with valid values; the group's figure is
    :math:`\sum w_{xy} \rho_{xy} / \sum w_{xy}` with :math:`w_{xy}` the number of the group's items
    both judged (can't-decide included). Undefined ρ (fewer than two items, constant
    judgments) are left out; a group with none is NaN. Equals
    :func:`iaa_desktop.core.metrics.spearman_weighted` on each group (tested).
    """
    valid = ~np.isnan(values)
    num = np.zeros(n_groups)
    den = np.zeros(n_groups)
    for x, y in combinations(range(values.shape[1]), 2):
        w = np.bincount(groups[judged[:, x] & judged[:, y]], minlength=n_groups).astype(float)
        both = valid[:, x] & valid[:, y]
        g = groups[both]
        rx, ry = _grouped_ranks(g, values[both, x]), _grouped_ranks(g, values[both, y])
        n = np.bincount(g, minlength=n_groups).astype(float)
        sx, sy = np.bincount(g, rx, n_groups), np.bincount(g, ry, n_groups)
        with np.errstate(invalid="ignore", divide="ignore"):
            mx, my = sx / n, sy / n
            # centred sums per group (ranks are small, so no cancellation worth fearing)
            cx, cy = rx - mx[g], ry - my[g]
            sxy = np.bincount(g, cx * cy, n_groups)
            sxx = np.bincount(g, cx * cx, n_groups)
            syy = np.bincount(g, cy * cy, n_groups)
            rho = sxy / np.sqrt(sxx * syy)
        ok = (n >= 2) & (sxx > 1e-12) & (syy > 1e-12) & (w > 0) & np.isfinite(rho)
        num[ok] += w[ok] * rho[ok]
        den[ok] += w[ok]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def grouped_alpha(values: np.ndarray, groups: np.ndarray, n_groups: int, level: str) -> np.ndarray:
    r"""Krippendorff's α of each group of items (Krippendorff 2011), NaN for missing values.

    Coincidences per group :math:`o_{ck} = \sum_i (n_{ic} n_{ik} - [c=k] n_{ic})/(m_i - 1)` over
    pairable items, then :math:`\alpha = 1 - D_o/D_e` with the level's distance (the ordinal
    distance from the group's own marginals). Equals
    :func:`iaa_desktop.core.metrics.krippendorff_alpha` on each group (tested).
    """
    codes, cats = encode_numeric(values)
    q = len(cats)
    out = np.full(n_groups, np.nan)
    if q == 0:
        return out
    valid = codes >= 0
    rows = np.broadcast_to(np.arange(codes.shape[0])[:, None], codes.shape)[valid]
    counts = (
        np.bincount(rows * q + codes[valid], minlength=codes.shape[0] * q)
        .reshape(-1, q)
        .astype(float)
    )
    m = counts.sum(axis=1)
    keep = m >= 2
    c, g, w = counts[keep], groups[keep], 1.0 / (m[keep] - 1.0)
    pair = (c[:, :, None] * c[:, None, :]).reshape(len(c), q * q)
    pair[:, np.arange(q) * (q + 1)] -= c
    o = np.stack([np.bincount(g, pair[:, k] * w, n_groups) for k in range(q * q)], axis=1).reshape(
        n_groups, q, q
    )
    n_c = o.sum(axis=2)
    n = n_c.sum(axis=1)
    v = np.asarray(cats, dtype=float)
    if level == "nominal":
        delta = np.broadcast_to(1.0 - np.eye(q), (n_groups, q, q))
    elif level == "interval":
        delta = np.broadcast_to((v[:, None] - v[None, :]) ** 2, (n_groups, q, q))
    elif level == "ordinal":
        cum = np.concatenate([np.zeros((n_groups, 1)), np.cumsum(n_c, axis=1)], axis=1)
        a, b = np.arange(q)[:, None], np.arange(q)[None, :]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        delta = (cum[:, hi + 1] - cum[:, lo] - (n_c[:, lo] + n_c[:, hi]) / 2.0) ** 2
    else:
        raise ValueError(f"level {level!r} is not available for graded pairs")
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = (o * delta).sum(axis=(1, 2)) / n
        d_e = (n_c[:, :, None] * n_c[:, None, :] * delta).sum(axis=(1, 2)) / (n * (n - 1))
        alpha = 1.0 - d_o / d_e
    ok = (n > 1) & (d_e > 0)
    out[ok] = alpha[ok]
    return out


def grouped_figures(
    values: np.ndarray, judged: np.ndarray, groups: np.ndarray, n_groups: int, level: str
) -> list[dict[str, Any]]:
    """:func:`subset_figures` for every group at once."""
    cant = judged & np.isnan(values)
    alpha = grouped_alpha(values, groups, n_groups, level)
    rho = grouped_spearman_weighted(values, judged, groups, n_groups)
    n_items = np.bincount(groups, minlength=n_groups)
    n_judg = np.bincount(groups, judged.sum(axis=1), n_groups)
    n_cant = np.bincount(groups, cant.sum(axis=1), n_groups)
    ann = np.stack(
        [np.bincount(groups, judged[:, j], n_groups) > 0 for j in range(judged.shape[1])], axis=1
    )
    return [
        {
            "n_items": int(n_items[k]),
            "krippendorff_alpha": float(alpha[k]),
            "spearman_weighted": float(rho[k]),
            "n_judgments": int(n_judg[k]),
            "n_cant_decide": int(n_cant[k]),
            "n_annotators": int(ann[k].sum()),
        }
        for k in range(n_groups)
    ]


def item_statistics(values: np.ndarray, options: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Per item: number of valid judgments, mean, range, whether the filter keeps it, label."""
    valid = ~np.isnan(values)
    n_valid = valid.sum(axis=1)
    has = n_valid > 0
    filled_lo = np.where(valid, values, np.inf).min(axis=1)
    filled_hi = np.where(valid, values, -np.inf).max(axis=1)
    rng = np.where(has, filled_hi - filled_lo, np.nan)
    mean = np.where(has, np.where(valid, values, 0.0).sum(axis=1) / np.maximum(n_valid, 1), np.nan)
    lo, hi = float(options["filter_mean_low"]), float(options["filter_mean_high"])
    with np.errstate(invalid="ignore"):
        keep = has & (rng < float(options["filter_range"])) & ~((mean > lo) & (mean < hi))
        label = np.where(has, (mean >= float(options["label_threshold"])).astype(float), np.nan)
    return {"n_valid": n_valid, "mean": mean, "range": rng, "kept": keep, "label": label}


@dataclass
class DurelResult(TaskResult):
    spec = SPEC  # the kind's spec: report section, methods, adjudication
    annotators: tuple[str, ...] = ()
    level: str = "ordinal"
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
    _alignments: dict[int, PairDetail] = field(default_factory=dict, repr=False)

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
        js = self.judgments[self.judgments["item"] == i]
        judgments = tuple(
            (
                str(r.annotator),
                "can't decide" if math.isnan(r.value) else _fmt(r.value),
                str(r.comment or ""),
            )
            for r in js.itertuples(index=False)
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

    # -- output --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.level,
            "annotators": list(self.annotators),
            "overall": _clean(self.overall),
            "targets": _clean(self.targets),
            "annotator_spearman": _clean(self.annotator_table.to_dict("records")),
            "topic_ranking": _clean(self.topic_ranking.to_dict("records")),
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


def _clean(obj: Any) -> Any:
    """JSON-safe copy: NaN → None, numpy scalars → Python."""
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_clean(v) for v in obj]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Matrix:
    """Items × annotators judgments: values (NaN = missing or can't decide), judged mask."""

    items: pd.DataFrame  # target, id1, id2
    annotators: tuple[str, ...]
    values: np.ndarray
    judged: np.ndarray
    item_of_row: np.ndarray  # item index of each row of the long judgments


def build_matrix(judgments: pd.DataFrame) -> Matrix:
    key = (
        judgments["target"].astype(str)
        + "\x1f"
        + judgments["id1"].astype(str)
        + "\x1f"
        + judgments["id2"].astype(str)
    )
    item_codes, uniques = pd.factorize(key, sort=False)
    ann_codes, anns = pd.factorize(judgments["annotator"], sort=False)
    n, c = len(uniques), len(anns)
    values = np.full((n, c), np.nan)
    judged = np.zeros((n, c), dtype=bool)
    values[item_codes, ann_codes] = judgments["value"].to_numpy(dtype=float)
    judged[item_codes, ann_codes] = True
    parts = (
        pd.Series(uniques).str.split("\x1f", expand=True) if n else pd.DataFrame(columns=[0, 1, 2])
    )
    items = pd.DataFrame({"target": parts[0], "id1": parts[1], "id2": parts[2]})
    values.setflags(write=False)
    judged.setflags(write=False)
    return Matrix(items, tuple(str(a) for a in anns), values, judged, item_codes)


def compute(
    matrix: Matrix, target_order: Sequence[str], options: Mapping[str, Any]
) -> Generator[Progress, None, dict[str, Any]]:
    """All agreement figures of a built matrix (the part the benchmark times)."""
    level = options["level"]
    values, judged = matrix.values, matrix.judged
    stats = item_statistics(values, options)
    kept = stats["kept"]
    out: dict[str, Any] = {"stats": stats}
    overall_all = subset_figures(values, judged, level)
    overall_f = subset_figures(values[kept], judged[kept], level)
    lab = stats["label"][kept]
    overall_f.update(n_label0=int((lab == 0).sum()), n_label1=int((lab == 1).sum()))
    out["overall"] = {"all": overall_all, "filtered": overall_f}
    yield Progress(40, 100, "Per target")
    tcodes = pd.Categorical(
        matrix.items["target"],
        categories=list(dict.fromkeys(list(target_order) + list(matrix.items["target"]))),
    )
    groups = tcodes.codes.astype(np.int64)
    n_groups = len(tcodes.categories)
    fa = grouped_figures(values, judged, groups, n_groups, level)
    yield Progress(60, 100, "Per target, filtered")
    ff = grouped_figures(values[kept], judged[kept], groups[kept], n_groups, level)
    lab = stats["label"]
    n0 = np.bincount(groups[kept & (lab == 0)], minlength=n_groups)
    n1 = np.bincount(groups[kept & (lab == 1)], minlength=n_groups)
    n_items = np.bincount(groups, minlength=n_groups)
    has_mean = np.isfinite(stats["mean"])
    sum_mean = np.bincount(groups[has_mean], stats["mean"][has_mean], n_groups)
    cnt_mean = np.bincount(groups[has_mean], minlength=n_groups)
    targets = []
    means = []
    for k, name in enumerate(tcodes.categories):
        if not n_items[k]:
            continue
        ff[k].update(n_label0=int(n0[k]), n_label1=int(n1[k]))
        targets.append({"target": str(name), "all": fa[k], "filtered": ff[k]})
        means.append(float(sum_mean[k] / cnt_mean[k]) if cnt_mean[k] else math.nan)
    out["targets"] = targets
    min_rho = float(options.get("trac_min_spearman", 0.15))
    rank = pd.DataFrame(
        {
            "target": [t["target"] for t in targets],
            "mean_judgment": means,
            "spearman_all": [t["all"]["spearman_weighted"] for t in targets],
        }
    )
    rank["in_trac"] = rank["spearman_all"].fillna(-np.inf) >= min_rho
    rank = rank.sort_values("mean_judgment", kind="stable", na_position="last").reset_index(
        drop=True
    )
    rank.insert(0, "rank", np.arange(1, len(rank) + 1))
    out["topic_ranking"] = rank
    # per annotator: ρ against the mean of the others, all items and filtered items
    vs_all = spearman_vs_others(values)
    vs_f = spearman_vs_others(values[kept])
    out["annotators"] = pd.DataFrame(
        {
            "annotator": list(matrix.annotators),
            "n_judgments": judged.sum(axis=0),
            "n_cant_decide": (judged & np.isnan(values)).sum(axis=0),
            "spearman_vs_others_all": vs_all,
            "spearman_vs_others_filtered": vs_f,
        }
    )
    pw = pairwise_spearman(values, judged)
    pwf = {
        (x, y): (rho, nj) for x, y, rho, _nv, nj in pairwise_spearman(values[kept], judged[kept])
    }
    out["pairwise"] = pd.DataFrame(
        [
            {
                "a": matrix.annotators[x],
                "b": matrix.annotators[y],
                "n_items": nj,
                "spearman": rho,
                "n_items_filtered": pwf[(x, y)][1],
                "spearman_filtered": pwf[(x, y)][0],
            }
            for x, y, rho, _nv, nj in pw
        ]
    )
    return out


class DurelKind:
    name = "durel"
    title = SPEC.title
    settings = SETTINGS

    def sniff(self, inputs: Sequence[Path]) -> float:
        return looks_like_durel([Path(p) for p in inputs])

    def run(
        self, inputs: Sequence[Path], options: Mapping[str, Any]
    ) -> Generator[Progress, None, DurelResult]:
        opts = resolve_options(self.settings, options)
        yield Progress(0, 100, "Reading the judgments")
        cant = tuple(s.strip() for s in str(opts["cant_decide"]).split(",") if s.strip())
        data: DurelData = read_durel(
            [Path(p) for p in inputs],
            Scale(float(opts["scale_low"]), float(opts["scale_high"]), cant),
        )
        names = annotator_names(opts)
        if names:
            rename_annotators(data.judgments["annotator"].unique(), opts)  # no two the same
            data.judgments["annotator"] = data.judgments["annotator"].replace(names)
        errors: list[ReaderError] = list(data.errors)
        warnings: list[ReaderError] = list(data.warnings)
        if data.judgments.empty:
            raise InsufficientDataError(
                "; ".join(str(e) for e in errors[:3]) or "No judgments were found."
            )
        yield Progress(20, 100, "Building the judgment matrix")
        matrix = build_matrix(data.judgments)
        if len(matrix.annotators) < 2:
            raise InsufficientDataError(
                f"Only one annotator ('{matrix.annotators[0]}') was found; agreement needs at least two."
            )
        figures = yield from compute(matrix, data.targets, opts)
        stats = figures["stats"]
        items = matrix.items.copy()
        for j, a in enumerate(matrix.annotators):
            items[a] = matrix.values[:, j]
        items["n_judgments"] = matrix.judged.sum(axis=1)
        items["n_valid"] = stats["n_valid"]
        items["mean"] = stats["mean"]
        items["range"] = stats["range"]
        sd = _row_sd(matrix.values)
        items["disagreement"] = np.where(
            np.isnan(stats["range"]), -1.0, stats["range"] + 0.01 * np.nan_to_num(sd)
        )
        items["kept"] = stats["kept"]
        items["label"] = np.where(stats["kept"], stats["label"], np.nan)
        items["overlap"] = np.nan
        long = data.judgments[["target", "id1", "id2", "annotator", "value", "comment"]].copy()
        long["item"] = matrix.item_of_row
        result = DurelResult(
            kind=self.name,
            inputs=tuple(str(p) for p in inputs),
            options=dict(opts),
            errors=errors,
            warnings=warnings,
            annotators=matrix.annotators,
            level=opts["level"],
            overall=figures["overall"],
            targets=figures["targets"],
            items=items,
            judgments=long.reset_index(drop=True),
            annotator_table=figures["annotators"],
            pairwise=figures["pairwise"],
            topic_ranking=figures["topic_ranking"],
            uses=data.uses,
        )
        if data.uses and len(items) <= int(opts["max_aligned"]):
            overlap = np.full(len(items), np.nan)
            for i in range(len(items)):
                if i % 200 == 0:
                    yield Progress(85 + 15 * i / len(items), 100, "Aligning the texts")
                overlap[i] = result.pair_detail(i).overlap
            items["overlap"] = overlap
        yield Progress(100, 100, "Done")
        return result


def _row_sd(values: np.ndarray) -> np.ndarray:
    """Population standard deviation of each row over its non-NaN values (NaN for none).

    Written out rather than ``np.nanstd``, which warns on stderr for a row without values.
    """
    if values.size == 0:
        return np.zeros(values.shape[0])
    ok = ~np.isnan(values)
    n = ok.sum(axis=1)
    x = np.where(ok, values, 0.0)
    safe = np.maximum(n, 1)
    mean = x.sum(axis=1) / safe
    var = (np.where(ok, values - mean[:, None], 0.0) ** 2).sum(axis=1) / safe
    return np.where(n > 0, np.sqrt(var), np.nan)


KIND = DurelKind()

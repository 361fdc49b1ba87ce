"""The judgment matrix of graded use pairs and all its agreement figures (the part the benchmark
times): pooled, per target, the TRaC topic ranking, per annotator and per annotator pair."""

from __future__ import annotations

import math
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.kinds.durel.measures import (
    grouped_figures,
    item_statistics,
    subset_figures,
)
from iaa_desktop.core.kinds.durel.options import DurelOptions
from iaa_desktop.core.metrics import pairwise_spearman, spearman_vs_others
from iaa_desktop.core.progress import Progress


@dataclass(frozen=True)
class Matrix:
    """Items × annotators judgments: values (NaN = missing or can't decide), judged mask."""

    items: pd.DataFrame  # target, id1, id2
    annotators: tuple[str, ...]
    values: NDArray[Any]
    judged: NDArray[Any]
    item_of_row: NDArray[Any]  # item index of each row of the long judgments


def item_key(frame: pd.DataFrame, sep: str) -> pd.Series:
    """One key per use pair: ``target``, ``id1`` and ``id2`` of each row joined by ``sep``."""
    return (
        frame["target"].astype(str)
        + sep
        + frame["id1"].astype(str)
        + sep
        + frame["id2"].astype(str)
    )


def build_matrix(judgments: pd.DataFrame) -> Matrix:
    key = item_key(judgments, "\x1f")
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
    matrix: Matrix, target_order: Sequence[str], options: DurelOptions
) -> Generator[Progress, None, dict[str, Any]]:
    """All agreement figures of a built matrix (the part the benchmark times)."""
    stats = item_statistics(matrix.values, options)
    out: dict[str, Any] = {"stats": stats, "overall": overall_figures(matrix, stats, options)}
    yield Progress(40, 100, "Per target")
    out["targets"], means = yield from target_figures(matrix, stats, target_order, options)
    out["topic_ranking"] = topic_ranking(out["targets"], means, options)
    out["annotators"] = annotator_figures(matrix, stats["kept"])
    out["pairwise"] = pairwise_figures(matrix, stats["kept"])
    return out


def spearman_weight_mask(matrix: Matrix, options: DurelOptions) -> NDArray[Any]:
    """Who counts in the weight of an annotator pair's ρ: every judgment (can't-decide
    included; TRoTR, Periti et al. 2024) or, with ``spearman_weights = "valid"``, the valid
    values only (the WUGs pipeline's ``data2agr.py``: a can't-decide is a missing value there,
    and a pair's weight is the number of items both judged with a valid value)."""
    if options.spearman_weights == "valid":
        valid: NDArray[Any] = ~np.isnan(matrix.values)
        return valid
    return matrix.judged


def overall_figures(
    matrix: Matrix, stats: Mapping[str, NDArray[Any]], options: DurelOptions
) -> dict[str, dict[str, Any]]:
    """α and weighted ρ of all items pooled, and of the items the filter keeps (with the counts
    of their binary labels)."""
    level = options.level
    values, judged, kept = matrix.values, matrix.judged, stats["kept"]
    w = spearman_weight_mask(matrix, options)
    overall_all = subset_figures(values, judged, level, w)
    overall_f = subset_figures(values[kept], judged[kept], level, w[kept])
    lab = stats["label"][kept]
    overall_f.update(n_label0=int((lab == 0).sum()), n_label1=int((lab == 1).sum()))
    return {"all": overall_all, "filtered": overall_f}


def target_figures(
    matrix: Matrix,
    stats: Mapping[str, NDArray[Any]],
    target_order: Sequence[str],
    options: DurelOptions,
) -> Generator[Progress, None, tuple[list[dict[str, Any]], list[float]]]:
    """Per target (in ``target_order``, then in order of appearance; targets without items left
    out): the figures of all and of the filtered items, and the mean judgment (the mean of the
    item means)."""
    level = options.level
    values, judged, kept = matrix.values, matrix.judged, stats["kept"]
    tcodes = pd.Categorical(
        matrix.items["target"],
        categories=list(dict.fromkeys(list(target_order) + list(matrix.items["target"]))),
    )
    groups = tcodes.codes.astype(np.int64)
    n_groups = len(tcodes.categories)
    w = spearman_weight_mask(matrix, options)
    fa = grouped_figures(values, judged, groups, n_groups, level, w)
    yield Progress(60, 100, "Per target, filtered")
    ff = grouped_figures(values[kept], judged[kept], groups[kept], n_groups, level, w[kept])
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
    return targets, means


def topic_ranking(
    targets: Sequence[Mapping[str, Any]], means: Sequence[float], options: DurelOptions
) -> pd.DataFrame:
    """TRaC: the targets by mean judgment (lower = more topic variation), those whose weighted ρ
    is below ``trac_min_spearman`` marked as left out."""
    min_rho = options.trac_min_spearman
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
    return rank


def annotator_figures(matrix: Matrix, kept: NDArray[Any]) -> pd.DataFrame:
    """Per annotator: ρ against the mean of the others, all items and filtered items."""
    values, judged = matrix.values, matrix.judged
    vs_all = spearman_vs_others(values)
    vs_f = spearman_vs_others(values[kept])
    return pd.DataFrame(
        {
            "annotator": list(matrix.annotators),
            "n_judgments": judged.sum(axis=0),
            "n_cant_decide": (judged & np.isnan(values)).sum(axis=0),
            "spearman_vs_others_all": vs_all,
            "spearman_vs_others_filtered": vs_f,
        }
    )


def pairwise_figures(matrix: Matrix, kept: NDArray[Any]) -> pd.DataFrame:
    """Spearman ρ per annotator pair, all items and filtered items, with the numbers of items
    both judged."""
    values, judged = matrix.values, matrix.judged
    pw = pairwise_spearman(values, judged)
    pwf = {
        (x, y): (rho, nj) for x, y, rho, _nv, nj in pairwise_spearman(values[kept], judged[kept])
    }
    return pd.DataFrame(
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

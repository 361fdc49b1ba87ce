"""The partitions S1/S2 of a multi-label result: their JSON objects, the exploration table and
the items behind a partition's disagreements (Levi & Shenhav 2022)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.kinds.multilabel.codes import code_name, codes_of
from iaa_desktop.core.metrics import decomposition as dec

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.multilabel.result import MultiLabelResult


def partition_json(
    result: MultiLabelResult,
    arr: dec.DecompositionArrays,
    i: int,
    s1: NDArray[Any],
    means: tuple[Any, Any] | None = None,
) -> dict[str, Any]:
    """Partition ``i`` of ``arr`` (S1 = ``s1``): S1, S2, first level and second level means over
    pairs; ``means`` are those of every partition, computed once by the caller for a long list."""
    f_strict, f_def = means[0] if means else result.first_level_mean(arr)
    sec = means[1] if means else result.second_level_means(arr)
    second = {lab: float(sec["per_label"][i, j]) for j, lab in enumerate(result.labels)}
    second["average"] = float(sec["average"][i])
    out: dict[str, Any] = {
        "s1": result.set_codes(s1),
        "s2": result.set_codes(~s1),
        "s1_names": [code_name(c, result.labels) for c in codes_of(s1)],
        "first_level": float(f_strict[i]),
        "second_level": second,
    }
    if np.isnan(f_strict[i]) and not np.isnan(f_def[i]):
        out["first_level_mean_defined"] = float(f_def[i])
    if np.isnan(sec["average"][i]) and not np.isnan(sec["average_defined"][i]):
        out["second_level_mean_defined"] = float(sec["average_defined"][i])
    return out


def decomposition_json(result: MultiLabelResult) -> dict[str, Any]:
    """The chosen S1: its partition object with one entry per pair."""
    chosen = result.s1_decomposition
    assert chosen is not None
    labels = result.labels
    dj = partition_json(result, chosen, 0, result.s1)
    dj["pairs"] = [
        {
            "a": a,
            "b": b,
            "n_items": int(chosen.n_items[p]),
            "n_agree_first_level": int(chosen.n_agree[p, 0]),
            "first_level": float(chosen.first[p, 0]),
            "second_level": {
                **{lab: float(chosen.second[p, 0, j]) for j, lab in enumerate(labels)},
                "average": float(np.mean(chosen.second[p, 0])),
            },
        }
        for p, (a, b) in enumerate(result.pair_names())
    ]
    return dj


def exploration_json(result: MultiLabelResult) -> list[dict[str, Any]]:
    """The listed partitions, ordered by first level, with both ranks and their source."""
    assert result.exploration is not None
    r1, r2 = result.ranks()
    order = np.argsort(r1, kind="stable")  # the partitions listed (run chose them)
    rows = []
    means = (
        result.first_level_mean(result.exploration),
        result.second_level_means(result.exploration),
    )
    for i in order:
        obj = partition_json(result, result.exploration, int(i), result.partitions[i], means)
        obj["size"] = int(result.partitions[i].sum())
        obj["rank_first_level"] = int(r1[i])
        obj["rank_second_level"] = int(r2[i])
        obj["source"] = str(result.sources[i])
        rows.append(obj)
    return rows


def exploration_table(result: MultiLabelResult) -> pd.DataFrame:
    """Every explored partition: S1, S2, |S1|, first level, second level per label and
    average (means over pairs), ranks under both criteria, first level per pair."""
    assert result.exploration is not None
    parts = result.partitions
    f_strict, f_def = result.first_level_mean(result.exploration)
    sec = result.second_level_means(result.exploration)
    r1, r2 = result.ranks()
    codes = [result.code(c) for c in range(2**result.k)]
    codes_arr = np.array(codes, dtype=object)
    names = np.array(
        [f"{c} = {code_name(i, result.labels)}" for i, c in enumerate(codes)], dtype=object
    )
    data: dict[str, Any] = {
        "s1": [",".join(codes_arr[row]) for row in parts],
        "s2": [",".join(codes_arr[~row]) for row in parts],
        "s1_names": ["; ".join(names[row]) for row in parts],
        "size": parts.sum(axis=1),
        "first_level": f_strict,
    }
    for j, lab in enumerate(result.labels):
        data[f"second {lab}"] = sec["per_label"][:, j]
    data["second_average"] = sec["average"]
    data["rank_first_level"] = r1
    data["rank_second_level"] = r2
    data["first_level_mean_defined"] = f_def
    data["second_average_mean_defined"] = sec["average_defined"]
    for p, (a, b) in enumerate(result.pair_names()):
        data[f"first {a}–{b}"] = result.exploration.first[p]
        data[f"second {a}–{b}"] = result.exploration.second[p].mean(axis=1)
    data["source"] = result.sources
    return pd.DataFrame(data)


def partition_items(
    result: MultiLabelResult, pair: int, s1: NDArray[Any]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Items where the pair disagrees at the first level, and items where it agrees at the
    first level but not on the label set (second level), with text and both label sets."""
    d = result.data
    assert d is not None
    a, b = result.pair_index[pair]
    ca, cb = d.codes[:, a], d.codes[:, b]
    both = (ca >= 0) & (cb >= 0)
    s1 = np.asarray(s1, dtype=bool)
    ina = np.zeros(len(ca), dtype=bool)
    inb = np.zeros(len(cb), dtype=bool)
    ina[both] = s1[ca[both]]
    inb[both] = s1[cb[both]]
    first = both & (ina != inb)
    second = both & (ina == inb) & (ca != cb)
    names = np.array(
        [f"{result.code(c)} {code_name(c, result.labels)}" for c in range(2**result.k)] + [""],
        dtype=object,
    )
    an, bn = d.annotators[a], d.annotators[b]

    def frame(mask: NDArray[Any]) -> pd.DataFrame:
        idx = np.flatnonzero(mask)
        return pd.DataFrame(
            {
                "item": np.array(d.items, dtype=object)[idx],
                "text": np.array(d.texts, dtype=object)[idx],
                an: names[ca[idx]],
                bn: names[cb[idx]],
            }
        )

    return frame(first), frame(second)

"""Every judgment of a table study as a response, repeats included, and subsets of the judgments.

The reliability data (:mod:`~iaa_desktop.core.kinds.table.reliability`) keeps one label per item
and annotator; competence models count every response, test–retest agreement compares an
annotator's occasions and per-batch agreement takes the rows of a batch. All of them go through
:func:`~iaa_desktop.core.kinds.table.reliability.build_reliability` on a frame whose annotator
column says what is compared, so labels, missing values and categories are read exactly as the
study reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.kinds.spec import rename_annotators
from iaa_desktop.core.kinds.table.agreement import with_categories
from iaa_desktop.core.kinds.table.options import TableOptions
from iaa_desktop.core.kinds.table.reliability import ReliabilityData, build_reliability

__all__ = [
    "OCCASION_SEP",
    "Responses",
    "display_names",
    "first_occasions",
    "occasions",
    "responses",
    "subset_data",
]

#: joins an annotator's name and an occasion in a column name no reader produces
OCCASION_SEP = "\x1f"


def occasions(frame: pd.DataFrame, item_cols: Sequence[str], column: str = "") -> pd.Series:
    """Each judgment's occasion: the ``column``'s value, or its rank in file order among the same
    annotator's judgments of the same item (1, 2, …)."""
    if column:
        return frame[column].astype(str)
    keys = [*item_cols, "annotator"]
    return (frame.groupby(keys, sort=False, dropna=False).cumcount() + 1).astype(str)


def first_occasions(
    frame: pd.DataFrame, item_cols: Sequence[str], options: TableOptions
) -> pd.DataFrame:
    """In a test–retest study, each annotator's first judgment of each item (the lowest value of
    the occasion column — numbers by value —, else the first in the files): the judgments the
    agreement between annotators is computed on. Other studies: the frame as it is."""
    if not options.retest:
        return frame
    keys = [*item_cols, "annotator"]
    col = options.occasion_column
    if col and col in frame.columns:
        occ = frame[col].astype(str)
        num = pd.to_numeric(occ, errors="coerce")
        rank = num if not num.isna().any() else occ
        order = np.argsort(rank.to_numpy(), kind="stable")
        first = frame.iloc[order].drop_duplicates(keys, keep="first")
        return frame.loc[frame.index.isin(first.index)]
    return frame.drop_duplicates(keys, keep="first")


def subset_data(
    frame: pd.DataFrame,
    item_cols: Sequence[str],
    options: TableOptions,
    categories: Sequence[Any],
) -> ReliabilityData:
    """The reliability data of some of the study's rows, with the study's categories (so that the
    coefficients that count categories count the same ones)."""
    plain = replace(options, annotator_names={}, group_by="")
    data = build_reliability(frame, item_cols, plain, [], [])
    if list(data.categories) != list(categories):
        data = with_categories(data, [str(c) for c in categories])
    return data


@dataclass(frozen=True)
class Responses:
    """One entry per response: item row (of the study's data), annotator, category code."""

    item: NDArray[Any]
    annotator: NDArray[Any]
    label: NDArray[Any]
    n_items: int
    annotators: tuple[str, ...]
    categories: tuple[Any, ...]


def display_names(frame: pd.DataFrame, options: TableOptions) -> dict[str, str]:
    """Each annotator's name in the inputs → the name shown (the user's renaming applied)."""
    raw = [str(a) for a in pd.unique(frame["annotator"].astype(object))]
    return dict(zip(raw, rename_annotators(raw, options.as_dict()), strict=True))


def _keys(items: pd.DataFrame, item_cols: Sequence[str]) -> list[tuple[str, ...]]:
    return list(items[list(item_cols)].astype(str).itertuples(index=False, name=None))


def responses(
    frame: pd.DataFrame,
    item_cols: Sequence[str],
    options: TableOptions,
    data: ReliabilityData,
) -> Responses:
    """Every response of the study (repeats included) in the codes of ``data`` (items matched by
    their key, annotators by name: ``data`` may have been built from some of the rows)."""
    display = display_names(frame, options)
    f = frame.copy()
    f["annotator"] = (
        f["annotator"].astype(str) + OCCASION_SEP + occasions(frame, item_cols).to_numpy()
    )
    errors: list[ReaderError] = []
    plain = replace(options, annotator_names={}, group_by="")
    sub = build_reliability(f, item_cols, plain, errors, [])
    codes = sub.codes
    if list(sub.categories) != list(data.categories):
        sub = with_categories(sub, [str(c) for c in data.categories])
        codes = sub.codes
    owner = np.array(
        [data.annotators.index(display[c.split(OCCASION_SEP)[0]]) for c in sub.annotators],
        dtype=np.int64,
    )
    row_of = {k: i for i, k in enumerate(_keys(data.items, item_cols))}
    item_row = np.array([row_of.get(k, -1) for k in _keys(sub.items, item_cols)], dtype=np.int64)
    rows, cols = np.nonzero((codes >= 0) & (item_row >= 0)[:, None])
    return Responses(
        item_row[rows],
        owner[cols],
        codes[rows, cols].astype(np.int64),
        int(data.codes.shape[0]),
        data.annotators,
        tuple(data.categories),
    )

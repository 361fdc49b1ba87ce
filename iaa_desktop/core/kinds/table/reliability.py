"""Reliability data of the table kind: judgments in long form → items × annotators codes.

Labels are classified once per distinct label (numbers, missing values, those the level of
measurement leaves out); repeated judgments are counted once or, when they differ, reported and
left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import InsufficientDataError, ReaderError
from iaa_desktop.core.kinds.spec import rename_annotators
from iaa_desktop.core.kinds.table.options import TableOptions
from iaa_desktop.core.kinds.table.reader import FILE
from iaa_desktop.core.tabular import LINE


@dataclass(frozen=True)
class ReliabilityData:
    """Items × annotators codes with the category values (read-only arrays)."""

    codes: NDArray[Any]
    categories: NDArray[Any]
    numeric: bool
    values: NDArray[Any] | None  # float values per item × annotator (NaN missing) when numeric
    judged: NDArray[Any]  # bool: annotator gave any judgment (incl. a 'missing' value such as 0)
    items: pd.DataFrame  # item key columns (+ group / metadata) per row of codes
    annotators: tuple[str, ...]

    def __post_init__(self) -> None:
        for a in (self.codes, self.categories, self.judged) + (
            (self.values,) if self.values is not None else ()
        ):
            a.setflags(write=False)


def _parse_missing(spec: str) -> list[str]:
    return [s.strip() for s in str(spec or "").split(",") if s.strip() != ""]


def factorize_chunked(values: Any, chunk: int = 100_000) -> tuple[NDArray[Any], list[Any]]:
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


@dataclass(frozen=True)
class _Labels:
    """The distinct labels of a judgment table (``_u`` arrays: one entry per distinct label)."""

    codes: NDArray[Any]  # distinct-label index of every row
    text_u: pd.Series  # each label as text
    num_u: NDArray[Any]  # its number (NaN when not one)
    nonempty_u: NDArray[Any]  # not empty
    missing_u: NDArray[Any]  # a missing value (empty, a 'missing' marker, left out for the level)
    numeric: bool  # every label used is a number


def build_reliability(
    frame: pd.DataFrame,
    item_cols: Sequence[str],
    options: TableOptions,
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> ReliabilityData:
    """Validate the long judgments and build the reliability data.

    Problems (duplicates with different labels, non-numbers at an interval level) are appended
    to ``errors`` and the offending judgments left out. Everything per row works on integer
    codes; the text of labels is examined once per distinct label.
    """
    labels = _classify_labels(frame, options, errors)
    item_codes = _item_codes(frame, item_cols)
    ann_codes, annotators_list = factorize_chunked(frame["annotator"].to_numpy())
    c = len(annotators_list)
    keep = _keep_once(frame, item_cols, item_codes, ann_codes, labels.codes, c, errors, warnings)
    _require_two_annotators(frame, ann_codes[keep], annotators_list)
    annotators = rename_annotators([str(a) for a in annotators_list], options.as_dict())

    # the first row of each item, in order of first appearance (= the order of the item codes)
    first_pos = np.flatnonzero(~pd.Series(item_codes).duplicated().to_numpy())
    n_items = len(first_pos)
    lab_codes, num_u = labels.codes, labels.num_u
    valid = keep & ~labels.missing_u[lab_codes]
    judged_row = keep & labels.nonempty_u[lab_codes]
    cats, cat_of_u = _categories(labels)
    codes = np.full((n_items, c), -1, dtype=np.int32)
    codes[item_codes[valid], ann_codes[valid]] = cat_of_u[lab_codes[valid]]
    judged = np.zeros((n_items, c), dtype=bool)
    judged[item_codes[judged_row], ann_codes[judged_row]] = True
    values = None
    if labels.numeric:
        values = np.full((n_items, c), np.nan)
        values[item_codes[valid], ann_codes[valid]] = num_u[lab_codes[valid]]

    items = frame[list(item_cols)].iloc[first_pos].reset_index(drop=True)
    group_by = options.group_by or ""
    if group_by:
        # an item belongs to the group its first judgment names
        items[group_by] = frame[group_by].iloc[first_pos].to_numpy()
    return ReliabilityData(
        codes, np.asarray(cats), labels.numeric, values, judged, items, annotators
    )


def _classify_labels(
    frame: pd.DataFrame, options: TableOptions, errors: list[ReaderError]
) -> _Labels:
    """Which distinct labels are numbers and which are missing values (for the level)."""
    level = options.level
    missing = _parse_missing(options.missing)
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
    if level in ("interval", "ratio"):
        missing_u |= _not_for_level(frame, level, lab_codes, num_u, missing_u, errors)
    numeric = bool((~missing_u).any()) and not bool((~missing_u & np.isnan(num_u)).any())
    return _Labels(lab_codes, labs_u, num_u, nonempty_u, missing_u, numeric)


def _not_for_level(
    frame: pd.DataFrame,
    level: str,
    lab_codes: NDArray[Any],
    num_u: NDArray[Any],
    missing_u: NDArray[Any],
    errors: list[ReaderError],
) -> NDArray[Any]:
    """Distinct labels left out at the interval or ratio level: non-numbers, negative ratios
    (each problem reported once, at its first row)."""

    def first_row_with(mask_u: NDArray[Any]) -> int:
        return int(np.flatnonzero(mask_u[lab_codes])[0])

    out = np.zeros(len(num_u), dtype=bool)
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
        out |= bad_u
    neg_u = ~(missing_u | out) & (num_u < 0)
    if level == "ratio" and neg_u.any():
        r = first_row_with(neg_u)
        errors.append(
            ReaderError(
                frame[FILE].iat[r],
                int(frame[LINE].iat[r]),
                "a negative value at the ratio level; negative values are left out.",
            )
        )
        out |= neg_u
    return out


def _item_codes(frame: pd.DataFrame, item_cols: Sequence[str]) -> NDArray[Any]:
    """Item index of every row (several key columns make one key), in order of appearance."""
    if len(item_cols) == 1:
        item_codes, _ = factorize_chunked(frame[item_cols[0]].to_numpy())
        return item_codes
    parts = [factorize_chunked(frame[c].to_numpy()) for c in item_cols]
    combined = np.zeros(len(frame), dtype=np.int64)
    for codes_c, uniq_c in parts:
        combined = combined * (len(uniq_c) + 1) + codes_c
    item_codes, _ = pd.factorize(combined, sort=False)
    return np.asarray(item_codes, dtype=np.int64)


def _keep_once(
    frame: pd.DataFrame,
    item_cols: Sequence[str],
    item_codes: NDArray[Any],
    ann_codes: NDArray[Any],
    lab_codes: NDArray[Any],
    c: int,
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> NDArray[Any]:
    """Rows kept: an exact repeat of a judgment counts once; an annotator judging an item
    twice with different labels is reported and both judgments are left out."""
    keep = np.ones(len(frame), dtype=bool)
    pair_key = pd.Series(item_codes * max(c, 1) + ann_codes)
    dup = pair_key.duplicated(keep=False).to_numpy()
    if not dup.any():
        return keep
    groups: dict[int, list[int]] = {}
    for r in np.flatnonzero(dup):
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
    return keep


def _require_two_annotators(
    frame: pd.DataFrame, kept_ann_codes: NDArray[Any], annotators_list: list[Any]
) -> None:
    present = np.zeros(len(annotators_list), dtype=bool)
    present[kept_ann_codes] = True
    if present.sum() < 2:
        names = [str(a) for a, p in zip(annotators_list, present) if p]
        who = f" ('{names[0]}')" if names else ""
        files = ", ".join(sorted(set(frame[FILE]))) if len(frame) else "the inputs"
        raise InsufficientDataError(
            f"{files}: only one annotator{who} was found; agreement needs at least two."
        )


def _categories(labels: _Labels) -> tuple[NDArray[Any], NDArray[Any]]:
    """The categories in order (numbers by value, else texts), and the category index of each
    distinct label (-1 for missing ones)."""
    missing_u, num_u, labs_u = labels.missing_u, labels.num_u, labels.text_u
    if labels.numeric:
        order = np.argsort(num_u[~missing_u])
        cats = num_u[~missing_u][order]
    else:
        cats_idx = np.flatnonzero(~missing_u)
        # Python strings, never a fixed-width string array sized by the longest label
        texts = np.empty(len(cats_idx), dtype=object)
        texts[:] = [str(v) for v in labs_u.to_numpy()[cats_idx]]
        order = np.argsort(texts, kind="stable")
        cats = texts[order]
    cat_of_u = np.full(len(labs_u), -1, dtype=np.int64)
    cat_of_u[np.flatnonzero(~missing_u)[order]] = np.arange(len(order))
    if labels.numeric:  # different spellings of one number (2, 2.0) are one category
        cats, inverse = np.unique(cats, return_inverse=True)
        cat_of_u[cat_of_u >= 0] = inverse[cat_of_u[cat_of_u >= 0]]
    return cats, cat_of_u

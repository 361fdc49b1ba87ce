"""Reliability data as arrays: label codes, counts per item, coincidences.

A study of N items and c annotators is an integer array ``codes`` of shape (N, c): ``codes[i, x]``
is the index of annotator x's label for item i in a list of q categories, or ``-1`` when x did
not label i (a missing value is never a category). Every coefficient in this package takes such
an array and optional per-item ``weights`` (used by the bootstrap, which resamples the distinct
rows of ``codes`` instead of the items themselves).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

MISSING = -1


def encode(
    table: Any,
    missing: Iterable[Any] = (),
    categories: Sequence[Any] | None = None,
) -> tuple[NDArray[Any], NDArray[Any]]:
    """Turn a 2-D table of labels (items × annotators) into ``(codes, categories)``.

    ``None``, NaN and any value in ``missing`` are missing. Numeric tables give numeric,
    sorted categories; other tables give their distinct values sorted as strings unless
    ``categories`` fixes the order.

    >>> codes, cats = encode([[1, 2], [2, None], [3, 3]])
    >>> codes.tolist(), cats.tolist()
    ([[0, 1], [1, -1], [2, 2]], [1.0, 2.0, 3.0])
    """
    arr = np.asarray(table, dtype=object)
    if arr.ndim != 2:
        raise ValueError("reliability data must be a 2-D table: items × annotators")
    missing_set = set(missing)
    flat = arr.ravel()
    valid = np.ones(flat.shape, dtype=bool)
    numeric = True
    for j, v in enumerate(flat):
        if (
            v is None
            or (isinstance(v, float) and np.isnan(v))
            or (v in missing_set if _hashable(v) else False)
        ):
            valid[j] = False
        elif isinstance(v, str) and v == "":
            valid[j] = False
        elif not isinstance(v, int | float | np.integer | np.floating) or isinstance(v, bool):
            numeric = False
    if numeric and categories is None:
        vals = np.full(flat.shape, np.nan)
        vals[valid] = flat[valid].astype(float)
        return encode_numeric(vals.reshape(arr.shape))
    keys = np.array([str(v) if ok else "" for v, ok in zip(flat, valid)], dtype=object)
    if categories is None:
        cats = np.array(sorted(set(keys[valid].tolist())), dtype=object)
    else:
        cats = np.array([str(c) for c in categories], dtype=object)
    index = {c: k for k, c in enumerate(cats.tolist())}
    codes = np.full(flat.shape, MISSING, dtype=np.int32)
    for j in np.flatnonzero(valid):
        k = index.get(keys[j])
        if k is None:
            raise ValueError(f"label {keys[j]!r} is not among the declared categories")
        codes[j] = k
    return codes.reshape(arr.shape), cats


def _hashable(v: Any) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def encode_numeric(values: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Codes for a float array with NaN as missing; categories are the sorted distinct values."""
    values = np.asarray(values, dtype=float)
    valid = ~np.isnan(values)
    cats, inv = np.unique(values[valid], return_inverse=True)
    codes = np.full(values.shape, MISSING, dtype=np.int32)
    codes[valid] = inv
    return codes, cats


def n_categories_of(codes: NDArray[Any], n_categories: int | None = None) -> int:
    if n_categories is not None:
        return int(n_categories)
    return int(codes.max()) + 1 if codes.size and codes.max() >= 0 else 0


def category_counts(codes: NDArray[Any], n_categories: int | None = None) -> NDArray[Any]:
    """``counts[i, k]`` = number of annotators who gave item i the label k (shape N × q).

    >>> category_counts([[0, 1, 1], [2, -1, 2]], 3).tolist()
    [[1, 2, 0], [0, 0, 2]]
    """
    codes = np.asarray(codes)
    q = n_categories_of(codes, n_categories)
    n = codes.shape[0]
    if q <= 64:
        # one comparison pass per category over the annotator-major copy: no scatter, no masks
        by_annotator = np.ascontiguousarray(codes.T)
        out = np.empty((q, n), dtype=np.int64)
        for k in range(q):
            np.sum(by_annotator == k, axis=0, out=out[k])
        return out.T
    base = (np.arange(n, dtype=np.int64) * q)[:, None]
    flat = np.where(codes >= 0, base + codes, n * q)  # missing values go to a last, dropped bin
    return np.bincount(flat.ravel(), minlength=n * q + 1)[:-1].reshape(n, q)


def item_weights(n_items: int, weights: NDArray[Any] | None) -> NDArray[Any]:
    if weights is None:
        return np.ones(n_items)
    w = np.asarray(weights, dtype=float)
    if w.shape != (n_items,):
        raise ValueError("weights must give one value per item")
    return w


def coincidence_matrix(
    codes: NDArray[Any], n_categories: int | None = None, weights: NDArray[Any] | None = None
) -> NDArray[Any]:
    r"""Krippendorff's coincidence matrix over pairable items.

    .. math:: o_{ck} = \sum_i \frac{n_{ic} n_{ik} - [c = k] n_{ic}}{m_i - 1}

    with :math:`n_{ic}` the number of annotators giving item i value c and :math:`m_i` the number
    of values of item i; items with :math:`m_i < 2` contribute nothing.

    >>> coincidence_matrix([[0, 0], [0, 1]]).tolist()
    [[2.0, 1.0], [1.0, 0.0]]
    """
    counts = category_counts(np.asarray(codes), n_categories).astype(float)
    return coincidences_from_counts(counts, weights)


def coincidences_from_counts(
    counts: NDArray[Any], weights: NDArray[Any] | None = None
) -> NDArray[Any]:
    """:func:`coincidence_matrix` from the item × category counts."""
    m = counts.sum(axis=1)
    w = item_weights(counts.shape[0], weights)
    # weight 0 for items with fewer than two values instead of copying the pairable rows out
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(m >= 2, w / (m - 1.0), 0.0)
    scaled = counts * scale[:, None]
    o: NDArray[Any] = scaled.T @ counts - np.diag(scaled.sum(axis=0))
    return o


def annotators_on(codes: NDArray[Any], items: NDArray[Any]) -> int:
    """How many annotators labelled at least one of the ``items`` (boolean mask)."""
    codes = np.asarray(codes)
    return sum(bool(np.any((codes[:, x] >= 0) & items)) for x in range(codes.shape[1]))


def confusion_matrix(
    codes: NDArray[Any], n_categories: int | None = None, weights: NDArray[Any] | None = None
) -> NDArray[Any]:
    """Counts of (label by the first annotator, label by the second) over co-labelled items.

    >>> confusion_matrix([[0, 0], [0, 1], [1, 1], [1, -1]]).tolist()
    [[1.0, 1.0], [0.0, 1.0]]
    """
    codes = np.asarray(codes)
    if codes.ndim != 2 or codes.shape[1] != 2:
        raise ValueError("a confusion matrix needs exactly two annotators (an N × 2 array)")
    q = n_categories_of(codes, n_categories)
    # shift by one so that 'missing' (-1) becomes row/column 0, then drop it: no masking needed
    key = (codes[:, 0].astype(np.int64) + 1) * (q + 1) + (codes[:, 1] + 1)
    w = None if weights is None else np.asarray(weights, dtype=float)
    full = np.bincount(key, weights=w, minlength=(q + 1) ** 2).reshape(q + 1, q + 1)
    return full[1:, 1:].astype(float)


def pairwise_confusions(
    codes: NDArray[Any], n_categories: int | None = None
) -> dict[tuple[int, int], NDArray[Any]]:
    """Confusion matrices of every annotator pair (x < y), in one pass over annotator-major data.

    >>> pairwise_confusions([[0, 0, 1], [1, 1, -1]])[(0, 2)].tolist()
    [[0.0, 1.0], [0.0, 0.0]]
    """
    codes = np.asarray(codes)
    q = n_categories_of(codes, n_categories)
    shifted = np.ascontiguousarray(codes.T, dtype=np.int64) + 1  # missing → 0, dropped below
    out = {}
    c = codes.shape[1]
    for x in range(c):
        row = shifted[x] * (q + 1)
        for y in range(x + 1, c):
            full = np.bincount(row + shifted[y], minlength=(q + 1) ** 2).reshape(q + 1, q + 1)
            out[(x, y)] = full[1:, 1:].astype(float)
    return out


def pairable(codes: NDArray[Any]) -> NDArray[Any]:
    """Boolean mask of items labelled by at least two annotators."""
    return np.asarray((np.asarray(codes) >= 0).sum(axis=1) >= 2)


def unique_rows(codes: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Distinct rows of ``codes`` and how often each occurs (for fast resampling)."""
    codes = np.ascontiguousarray(codes)
    n, c = codes.shape
    base = int(codes.max()) + 2 if codes.size else 2
    if c and base**c < 2**62:
        # one integer per row (digits in base q + 1, missing = 0): a 1-D unique is far faster
        weights = base ** np.arange(c - 1, -1, -1, dtype=np.int64)
        keys = (codes.astype(np.int64) + 1) @ weights
        uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
        return codes[first], counts.astype(float)
    rows, counts = np.unique(codes, axis=0, return_counts=True)
    return rows, counts.astype(float)

r"""Krippendorff's α for any level of measurement or distance function.

.. math::
    o_{ck} = \sum_i \frac{n_{ic} n_{ik} - [c=k]\, n_{ic}}{m_i - 1},\qquad
    n_c = \sum_k o_{ck},\quad n = \sum_c n_c

.. math::
    D_o = \frac{1}{n}\sum_{c,k} o_{ck}\,\delta(c,k),\qquad
    D_e = \frac{1}{n(n-1)}\sum_{c,k} n_c n_k\,\delta(c,k),\qquad
    \alpha = 1 - \frac{D_o}{D_e}

Distances δ (Krippendorff 2011): nominal ``[c ≠ k]``; interval ``(c − k)²``; ratio
``((c − k)/(c + k))²``; ordinal ``(Σ_{g=c..k} n_g − (n_c + n_k)/2)²`` over the sorted values;
for strings the normalized Levenshtein distance ``LD(a, b) / max(|a|, |b|)`` (used as δ itself).

Reference: Krippendorff, K. (2011). *Computing Krippendorff's Alpha-Reliability*.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from typing import Any, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.metrics import batch, levenshtein
from iaa_desktop.core.metrics.coding import MISSING, n_categories_of
from iaa_desktop.core.metrics.result import AgreementResult
from iaa_desktop.core.metrics.tally import Tally, aggregate, as_tally, tally

#: Stevens' (1946) levels of measurement; each gives α its distance (Krippendorff 2011)
Level = Literal["nominal", "ordinal", "interval", "ratio"]
LEVELS: tuple[Level, ...] = get_args(Level)

Distance = Callable[[NDArray[Any], NDArray[Any]], NDArray[Any]]


def distance_matrix(
    level: str, values: NDArray[Any], marginals: NDArray[Any] | None = None
) -> NDArray[Any]:
    """δ(c, k) for every pair of categories with the given numeric ``values``.

    ``marginals`` (n_c) are needed for the ordinal level, whose distance depends on them.
    """
    v = np.asarray(values, dtype=float)
    q = len(v)
    if level == "nominal":
        return 1.0 - np.eye(q)
    if level == "interval":
        return np.asarray((v[:, None] - v[None, :]) ** 2)
    if level == "ratio":
        s = v[:, None] + v[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            d = ((v[:, None] - v[None, :]) / s) ** 2
        return np.where(s == 0, 0.0, d)
    if level == "ordinal":
        if marginals is None:
            raise ValueError("the ordinal distance needs the marginals n_c")
        order = np.argsort(v, kind="stable")
        n_sorted = np.asarray(marginals, dtype=float)[order]
        cum = np.concatenate([[0.0], np.cumsum(n_sorted)])
        # Σ_{g=a..b} n_g − (n_a + n_b)/2 for sorted positions a ≤ b
        a = np.arange(q)[:, None]
        b = np.arange(q)[None, :]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        d_sorted = (cum[hi + 1] - cum[lo] - (n_sorted[lo] + n_sorted[hi]) / 2.0) ** 2
        inv = np.empty(q, dtype=int)
        inv[order] = np.arange(q)
        return np.asarray(d_sorted[np.ix_(inv, inv)])
    raise ValueError(f"unknown level of measurement {level!r}; choose one of {', '.join(LEVELS)}")


def alpha_from_coincidences(
    o: NDArray[Any], delta: NDArray[Any], name: str = "krippendorff_alpha"
) -> AgreementResult:
    """α from a coincidence matrix and a distance matrix (see the module docstring)."""
    n_c = o.sum(axis=1)
    n = n_c.sum()
    if n <= 1:
        return AgreementResult(name, math.nan, n_items=0)
    d_o = float((o * delta).sum() / n)
    d_e = float((np.outer(n_c, n_c) * delta).sum() / (n * (n - 1)))
    value = 1.0 - d_o / d_e if d_e > 0 else math.nan
    return AgreementResult(name, value, d_o, d_e)


def _pairable_annotators(t: Tally) -> int:
    valid = (t.sym > 0) & (t.sym <= t.n_categories)
    return int(valid[valid.sum(axis=1) >= 2].any(axis=0).sum())


def krippendorff_alpha(
    codes: Any,
    level: str = "nominal",
    values: Sequence[float] | NDArray[Any] | None = None,
    distance: Distance | NDArray[Any] | None = None,
    n_categories: int | None = None,
    weights: Any = None,
) -> AgreementResult:
    """Krippendorff's α over pairable items.

    Parameters
    ----------
    codes : (N, c) category indices, -1 = missing; or a
        :class:`~iaa_desktop.core.metrics.tally.Tally` of them (counted once for several
        coefficients)
    level : ``nominal``, ``ordinal``, ``interval`` or ``ratio``
    values : numeric value of each category (default ``0..q-1``); used by interval, ratio and
        ordinal (for the order)
    distance : a (q, q) matrix, or a function ``f(values_c, values_k) -> δ`` applied to the
        broadcast category values, replacing the level's distance
    weights : per-item weights (bootstrap)

    Computed from the study's tally (:mod:`~iaa_desktop.core.metrics.tally`): the observed
    disagreement needs the distances of co-occurring labels only, the expected one the
    marginals (:func:`~iaa_desktop.core.metrics.batch.alpha`).

    Krippendorff (2011)'s reliability data (4 observers × 12 units, with missing values):

    >>> from iaa_desktop.core.metrics.coding import encode
    >>> data = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2],
    ...         [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5],
    ...         [None, None, 1, 1], [None, 3, None, None]]
    >>> codes, cats = encode(data)
    >>> [round(krippendorff_alpha(codes, lv, cats).value, 3)
    ...  for lv in ("nominal", "ordinal", "interval", "ratio")]
    [0.743, 0.815, 0.849, 0.797]
    """
    if isinstance(codes, Tally):
        q = as_tally(codes, n_categories, weights).n_categories
    else:
        codes = np.asarray(codes)
        q = n_categories_of(codes, n_categories)
    vals = np.arange(q, dtype=float) if values is None else np.asarray(values, dtype=float)
    if len(vals) != q:
        raise ValueError("values must give one number per category")
    if level not in LEVELS and distance is None:
        raise ValueError(
            f"unknown level of measurement {level!r}; choose one of {', '.join(LEVELS)}"
        )
    t = as_tally(codes, q, weights)
    ag = t.aggregates
    delta = None
    if distance is not None:
        delta = np.asarray(
            distance
            if isinstance(distance, np.ndarray)
            else distance(vals[:, None], vals[None, :]),
            dtype=float,
        )
    b = batch.alpha(t, ag, level, vals, delta)
    n_pair = float(batch.observed(t, ag)[1][0])
    return AgreementResult(
        "krippendorff_alpha",
        float(b.value[0]),
        float(b.observed[0]),
        float(b.expected[0]),
        int(round(n_pair)),
        _pairable_annotators(t),
        extra={"level": level if distance is None else "custom"},
    )


# ---------------------------------------------------------------------------------------------
# strings with the normalized Levenshtein distance


def nld_pairs(a: Sequence[str], b: Sequence[str]) -> NDArray[Any]:
    """NLD of aligned pairs (a[j], b[j]) in bulk (rapidfuzz ``cpdist``); NLD('', '') = 0."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cpdist

    if not len(a):
        return np.zeros(0)
    ld = cpdist(list(a), list(b), scorer=Levenshtein.distance, dtype=np.int32, workers=-1)
    la = np.fromiter(map(len, a), dtype=np.float64, count=len(a))
    lb = np.fromiter(map(len, b), dtype=np.float64, count=len(b))
    den = np.maximum(la, lb)
    return np.where(den > 0, ld / np.where(den > 0, den, 1.0), 0.0)


#: from this many distinct labels on, ``engine="auto"`` uses the compiled bit-parallel kernel
#: once numba is loaded (below, rapidfuzz takes milliseconds)
BITPARALLEL_FROM = 3000
#: ... and from this many, loads numba for it: importing numba and the cached kernel costs about
#: 0.25 s CPU once per process, which one call repays from ~60 M label pairs (rapidfuzz ``cdist``
#: ~5 ns a pair, the kernel under 1 ns, on one AVX-512 core)
BITPARALLEL_IMPORT_FROM = 11_000

ENGINES = ("auto", "bitparallel", "rapidfuzz")


def nld_expected_sums(
    labels: Sequence[str], weights: NDArray[Any], chunk: int = 1024, engine: str = "auto"
) -> NDArray[Any]:
    r"""Σ_{c,k} w_c w_k NLD(c, k) over all pairs of labels, for each column of ``weights``.

    ``weights`` is (q,) or (q, K): K weightings share one pass over the label pairs (the
    expected disagreement of a study and of each annotator pair, say); returns (K,) (or (1,)).
    This is the costly part of α with a string distance: every pair of labels. Labels are
    grouped by length, so within a block of two length groups the denominator max(|c|, |k|) is
    one number; each block pair is computed once (LD is symmetric; the shorter labels are the
    queries) and, within a length group, only the pairs on or above the diagonal (the square
    corner of each chunk counts half: it holds both triangles).

    ``engine``: ``bitparallel`` sums the distances of a block in the compiled bit-parallel
    kernel of :mod:`~iaa_desktop.core.metrics.levenshtein` (Hyyrö 2003; needs numba), which
    never materialises the distances; ``rapidfuzz`` computes them with rapidfuzz ``cdist`` as
    bytes and sums them by single-precision matrix products over exact small integers;
    ``auto`` takes the kernel when numba is installed, from :data:`BITPARALLEL_FROM` labels on
    if numba is loaded already, from :data:`BITPARALLEL_IMPORT_FROM` on otherwise.
    Blocks the kernel cannot hold (queries over 64 characters, the empty label) always go to
    rapidfuzz. Both give the same sums up to rounding.
    """
    labels = list(labels)
    w = np.asarray(weights, dtype=np.float64)
    w2 = w[:, None] if w.ndim == 1 else w
    lengths = np.fromiter(map(len, labels), dtype=np.int64, count=len(labels))
    total = np.zeros(w2.shape[1])
    if not len(labels):
        return total
    kernel = _nld_kernel(engine, len(labels))
    ids = None if kernel is None else levenshtein.encode_characters(labels, lengths)
    groups = [np.flatnonzero(lengths == ln) for ln in np.unique(lengths)]
    group_len = [int(lengths[g[0]]) for g in groups]
    for i, gi in enumerate(groups):
        la = group_len[i]
        for j in range(i, len(groups)):
            lb = group_len[j]
            if lb == 0:
                continue  # "" vs "": distance 0
            gj = groups[j]
            if ids is not None and 0 < la <= levenshtein.MAX_QUERY and lb <= levenshtein.MAX_CHOICE:
                acc = levenshtein.block_sums(ids[gi, :la], ids[gj, :lb], w2[gj], i == j, kernel)
                block = (acc.T * w2[gi]).sum(axis=0)
            else:
                block = _cdist_block(labels, gi, gj, w2, i == j, chunk)
            total += block / lb * 2.0
    return total


def _nld_kernel(engine: str, n_labels: int) -> levenshtein.Kernel | None:
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine == "auto":
        loaded = "numba" in sys.modules
        if n_labels < (BITPARALLEL_FROM if loaded else BITPARALLEL_IMPORT_FROM):
            return None
    elif engine == "rapidfuzz":
        return None
    kernel = levenshtein.block_kernel()
    if kernel is None and engine == "bitparallel":
        raise RuntimeError("engine='bitparallel' needs numba (pip install numba)")
    return kernel


def _cdist_block(
    labels: list[str],
    gi: NDArray[np.intp],
    gj: NDArray[np.intp],
    w2: NDArray[np.float64],
    diag: bool,
    chunk: int,
) -> NDArray[np.float64]:
    """Σ_{c ∈ gi, k ∈ gj} w_c w_k LD(c, k) by rapidfuzz ``cdist`` (pairs k < c skipped if diag):
    the distances as bytes, summed by matrix products over exact small integers."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist

    longest = max(len(labels[gi[0]]), len(labels[gj[0]]))
    dtype = np.uint8 if longest < 255 else np.int32
    queries = [labels[k] for k in gi]
    choices = queries if diag else [labels[k] for k in gj]
    # single precision is exact while every weight is an integer and every partial sum of
    # distance × weight stays below 2^24; otherwise double
    wj64 = w2[gj]
    exact32 = bool(np.all(wj64 == np.round(wj64))) and longest * np.abs(wj64).sum() < 2**24
    ftype: type[np.floating[Any]] = np.float32 if exact32 else np.float64
    wj: NDArray[np.floating[Any]] = wj64.astype(ftype)
    block = np.zeros(w2.shape[1])
    for start in range(0, len(gi), chunk):
        stop = min(start + chunk, len(gi))
        c0 = start if diag else 0
        ld = cdist(
            queries[start:stop],
            choices[c0:],
            scorer=Levenshtein.distance,
            dtype=dtype,
            workers=1,
        ).astype(ftype)
        if diag:
            side = stop - start
            part = ld[:, side:] @ wj[stop:] + (ld[:, :side] @ wj[start:stop]) / 2
        else:
            part = ld @ wj
        block += (w2[gi[start:stop]] * part.astype(np.float64)).sum(axis=0)
    return block


def _nld_expected_sum(
    labels: Sequence[str], n_c: NDArray[Any], chunk: int = 4096, engine: str = "auto"
) -> float:
    """Σ_{c,k} n_c n_k NLD(c, k) (see :func:`nld_expected_sums`)."""
    return float(nld_expected_sums(labels, np.asarray(n_c, dtype=np.float64), chunk, engine)[0])


def krippendorff_alpha_strings(
    labels: Any,
    distance: str | Callable[[str, str], float] = "nld",
    engine: str = "auto",
) -> AgreementResult:
    """Krippendorff's α for string labels with a string distance (default: normalized Levenshtein).

    ``labels`` is an (N, c) table of strings, ``None`` (or NaN) = missing. The empty string is a
    label (e.g. ∅, a deleted character), not a missing value. Only the distinct label pairs that
    co-occur in an item enter D_o; D_e needs every pair of distinct labels and is computed in
    blocks with rapidfuzz, so tens of thousands of distinct labels stay fast.

    NLD (Levenshtein distance over the longer length) is used as δ itself, not squared
    (Bollmann, Dipper & Petran 2016). ``engine`` chooses how D_e's distances are summed
    (:func:`nld_expected_sums`); every engine gives the same α.

    >>> round(krippendorff_alpha_strings([["abc", "abc"], ["abd", "abc"], ["x", "xy"]]).value, 4)
    0.5614
    """
    arr = np.asarray(labels, dtype=object)
    if arr.ndim != 2:
        raise ValueError("labels must be a 2-D table: items × annotators")
    flat = arr.ravel()
    valid = np.fromiter(map(str.__instancecheck__, flat), dtype=bool, count=len(flat))
    # distinct labels sorted by code point (as np.unique would, without sorting every label and
    # without NumPy's fixed-width strings, which drop trailing NULs)
    given = flat[valid].tolist()
    index = dict.fromkeys(given, 0)
    cats = sorted(index)
    index.update(zip(cats, range(len(cats))))
    codes = np.full(flat.shape, MISSING, dtype=np.int64)
    codes[valid] = np.fromiter(map(index.__getitem__, given), dtype=np.int64, count=len(given))
    codes = codes.reshape(arr.shape)
    return alpha_strings_from_codes(codes, [str(c) for c in cats], distance, engine)


def _string_distances(
    categories: Sequence[str],
    a: NDArray[Any],
    b: NDArray[Any],
    distance: str | Callable[[str, str], float],
) -> NDArray[Any]:
    if distance == "nld":
        return nld_pairs([categories[k] for k in a], [categories[k] for k in b])
    if isinstance(distance, str):
        raise ValueError(f"unknown string distance {distance!r}")
    return np.array([float(distance(categories[x], categories[y])) for x, y in zip(a, b)])


def alpha_strings_from_codes(
    codes: Any,
    categories: Sequence[str],
    distance: str | Callable[[str, str], float] = "nld",
    engine: str = "auto",
) -> AgreementResult:
    """:func:`krippendorff_alpha_strings` for already encoded labels (categories = the strings)."""
    t = tally(np.asarray(codes), len(categories))
    ag = aggregate(t)
    cu, ku, _ = batch.label_pairs(t)
    d_pairs = _string_distances(categories, cu, ku, distance)
    n_c = batch.pairable_marginals(t, ag)[0]
    n = float(n_c.sum())
    n_pair = float(batch.observed(t, ag)[1][0])
    if n_pair == 0 or n <= 1:
        return AgreementResult("krippendorff_alpha", math.nan, n_items=0)
    d_o = float(batch.pair_weights(t, ag)[0] @ d_pairs) / n
    present = np.flatnonzero(n_c > 0)
    labs = [categories[k] for k in present]
    if distance == "nld":
        e_sum = _nld_expected_sum(labs, n_c[present], engine=engine)
    else:
        fn = distance if callable(distance) else None
        assert fn is not None
        dm = np.array([[float(fn(s, u)) for u in labs] for s in labs])
        e_sum = float(n_c[present] @ dm @ n_c[present])
    d_e = e_sum / (n * (n - 1))
    value = 1.0 - d_o / d_e if d_e > 0 else math.nan
    return AgreementResult(
        "krippendorff_alpha",
        value,
        d_o,
        d_e,
        int(round(n_pair)),
        _pairable_annotators(t),
        extra={"level": "nld" if distance == "nld" else "custom"},
    )


def alpha_strings_pairs(
    codes: Any, categories: Sequence[str], distance: str = "nld"
) -> dict[tuple[int, int], float]:
    """α with the normalized Levenshtein distance of every annotator pair (x < y).

    Each pair's D_o needs the distances of the labels it pairs on co-labelled items (computed
    once for all pairs, in bulk); the pairs' D_e share one pass over all label pairs
    (:func:`nld_expected_sums` with one weight column per annotator pair).
    """
    if distance != "nld":
        raise ValueError("only the normalized Levenshtein distance is supported here")
    arr = np.asarray(codes)
    q = len(categories)
    pairs = [(x, y) for x in range(arr.shape[1]) for y in range(x + 1, arr.shape[1])]
    if not pairs or q == 0:
        return {}
    weights = np.zeros((q, len(pairs)))
    keys, owner = [], []
    for p, (x, y) in enumerate(pairs):
        both = (arr[:, x] >= 0) & (arr[:, y] >= 0)
        a, b = arr[both, x].astype(np.int64), arr[both, y].astype(np.int64)
        weights[:, p] = np.bincount(a, minlength=q) + np.bincount(b, minlength=q)
        diff = a != b
        keys.append(np.minimum(a[diff], b[diff]) * q + np.maximum(a[diff], b[diff]))
        owner.append(np.full(int(diff.sum()), p))
    key = np.concatenate(keys)
    uniq, pos = np.unique(key, return_inverse=True)
    d = nld_pairs([categories[k // q] for k in uniq], [categories[k % q] for k in uniq])
    d_sum = 2.0 * np.bincount(np.concatenate(owner), weights=d[pos.ravel()], minlength=len(pairs))
    present = np.flatnonzero(weights.sum(axis=1) > 0)
    e_sum = nld_expected_sums([categories[k] for k in present], weights[present])
    n = weights.sum(axis=0)
    out: dict[tuple[int, int], float] = {}
    for p, pair in enumerate(pairs):
        ok = n[p] > 1 and e_sum[p] > 0
        out[pair] = float(1.0 - (n[p] - 1.0) * d_sum[p] / e_sum[p]) if ok else math.nan
    return out

r"""Every coefficient of coded items, vectorised over B weightings of the distinct rows.

The functions here take a :class:`~iaa_desktop.core.metrics.tally.Tally` and its
:class:`~iaa_desktop.core.metrics.tally.Aggregates` (the data itself: B = 1; or B bootstrap
resamples) and return arrays of shape (B,): the point estimate and all resamples come from the
same code. Notation as in :mod:`iaa_desktop.core.metrics.coefficients`: :math:`n_{sk}` labels k in
multiset s, :math:`m_s` its number of labels; a multiset is *pairable* when :math:`m_s \ge 2` and
*rated* when :math:`m_s \ge 1`.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from iaa_desktop.core.metrics.tally import Aggregates, Tally

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "Batch",
    "alpha",
    "bennett_s",
    "chance_corrected",
    "cohen_pairs",
    "fleiss",
    "gwet_ac1",
    "gwet_ac2",
    "multi_kappa",
    "observed",
    "pair_alpha",
    "pair_mean",
    "scott_pairs",
    "spearman_pairs",
    "spearman_weighted",
    "weighted_kappa_pairs",
]


class Batch(NamedTuple):
    """Values of one coefficient for B weightings, with A_o (or D_o) and A_e (or D_e)."""

    value: FloatArray
    observed: FloatArray
    expected: FloatArray


def divide(a: Any, b: Any) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1.0), np.nan)


def chance_corrected(a_o: FloatArray, a_e: FloatArray) -> FloatArray:
    """(A_o − A_e)/(1 − A_e); NaN where A_e ≥ 1 (every label identical) or A_o is undefined."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (a_o - a_e) / (1.0 - a_e)
    return np.where(a_e < 1.0 - 1e-15, out, np.nan)


# ------------------------------------------------------------------ per-multiset features


def _ms_basic(t: Tally) -> dict[str, FloatArray]:
    def build(t: Tally) -> dict[str, FloatArray]:
        m = t.ms_m
        pairable = (m >= 2).astype(np.float64)
        rated = (m >= 1).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            agr = np.where(m >= 2, (t.ms_sum_sq - m) / (m * (m - 1.0)), 0.0)
            inv_m = np.where(m >= 1, 1.0 / m, 0.0)
            inv_m1 = np.where(m >= 2, 1.0 / (m - 1.0), 0.0)
        return {
            "m": m,
            "pairable": pairable,
            "rated": rated,
            "agr": agr * pairable,
            "inv_m": inv_m,
            "inv_m1": inv_m1,
        }

    out: dict[str, FloatArray] = t.ms_feature("basic", build)
    return out


def _weighted_counts(ms: FloatArray, scale: FloatArray, counts: Any) -> FloatArray:
    """(B, q) = Σ_s ms_bs · scale_s · n_sk (dense or sparse counts)."""
    return np.asarray((ms * scale[None, :]) @ counts, dtype=np.float64)


def observed(t: Tally, ag: Aggregates) -> tuple[FloatArray, FloatArray]:
    r"""A_o = mean over pairable items of Σ_k n_ik(n_ik − 1)/(m_i(m_i − 1)); and their number."""
    f = _ms_basic(t)
    n_pair = ag.ms @ f["pairable"]
    return divide(ag.ms @ f["agr"], n_pair), n_pair


def category_shares(t: Tally, ag: Aggregates) -> FloatArray:
    r"""π_k = (1/n) Σ_i n_ik/m_i over the n rated items (B, q) (Gwet 2014, §2.3)."""
    f = _ms_basic(t)
    n_rated = ag.ms @ f["rated"]
    shares = _weighted_counts(ag.ms, f["inv_m"], t.ms_counts)
    return divide(shares, n_rated[:, None])


def fleiss(t: Tally, ag: Aggregates) -> Batch:
    r"""Fleiss' κ with Gwet's π_k: A_e = Σ_k π_k²."""
    a_o, _ = observed(t, ag)
    pi = category_shares(t, ag)
    a_e = (pi**2).sum(axis=1)
    return Batch(chance_corrected(a_o, a_e), a_o, a_e)


def gwet_ac1(t: Tally, ag: Aggregates) -> Batch:
    r"""Gwet's AC1: A_e = Σ_k π_k(1 − π_k)/(q − 1)."""
    a_o, _ = observed(t, ag)
    q = t.n_categories
    if q < 2:
        nan = np.full(ag.n_resamples, np.nan)
        return Batch(nan, a_o, nan)
    pi = category_shares(t, ag)
    a_e = (pi * (1.0 - pi)).sum(axis=1) / (q - 1)
    return Batch(chance_corrected(a_o, a_e), a_o, a_e)


def gwet_ac2(t: Tally, ag: Aggregates, agreement_weights: FloatArray) -> Batch:
    r"""Gwet's AC2 with agreement weights w (q × q, 1 on the diagonal).

    A_o = mean over pairable items of Σ_k n_ik(n*_ik − 1)/(m_i(m_i − 1)), n*_ik = Σ_l w_kl n_il;
    A_e = T_w/(q(q − 1)) Σ_k π_k(1 − π_k), T_w = Σ_kl w_kl (Gwet 2014, §3.4).
    """
    q = t.n_categories
    wm = np.asarray(agreement_weights, dtype=np.float64)
    f = _ms_basic(t)

    def build(t: Tally) -> FloatArray:
        counts = t.ms_counts
        dense = counts if isinstance(counts, np.ndarray) else counts.toarray()
        num = (dense * (dense @ wm.T)).sum(axis=1) - f["m"]
        with np.errstate(divide="ignore", invalid="ignore"):
            agr = np.where(f["m"] >= 2, num / (f["m"] * (f["m"] - 1.0)), 0.0)
        return np.asarray(agr, dtype=np.float64)

    agr_w = t.ms_feature(f"ac2:{wm.tobytes().hex()}", build)
    n_pair = ag.ms @ f["pairable"]
    a_o = divide(ag.ms @ agr_w, n_pair)
    if q < 2:
        nan = np.full(ag.n_resamples, np.nan)
        return Batch(nan, a_o, nan)
    pi = category_shares(t, ag)
    a_e = wm.sum() / (q * (q - 1)) * (pi * (1.0 - pi)).sum(axis=1)
    return Batch(chance_corrected(a_o, a_e), a_o, a_e)


def bennett_s(t: Tally, ag: Aggregates) -> Batch:
    r"""Bennett, Alpert & Goldstein's S (Randolph's free-marginal κ): A_e = 1/q."""
    a_o, _ = observed(t, ag)
    q = t.n_categories
    a_e = np.full(ag.n_resamples, 1.0 / q if q >= 2 else np.nan)
    return Batch(chance_corrected(a_o, a_e), a_o, a_e)


def _pair_shares_item(ag: Aggregates) -> npt.NDArray[np.bool_]:
    return ag.pair_both > 0


def multi_kappa(t: Tally, ag: Aggregates) -> Batch:
    r"""Hubert's multi-κ = Conger's κ: A_e = mean over annotator pairs of Σ_k P(k|x) P(k|y).

    P(k|x) is the share of all of x's labels that are k; pairs that share no item are left out.
    """
    a_o, _ = observed(t, ag)
    tot = ag.ann.sum(axis=2, keepdims=True)
    p = divide(ag.ann, tot)
    if not t.pairs:
        nan = np.full(ag.n_resamples, np.nan)
        return Batch(nan, a_o, nan)
    xs = np.array([x for x, _ in t.pairs])
    ys = np.array([y for _, y in t.pairs])
    prod = np.einsum("bpk,bpk->bp", p[:, xs, :], p[:, ys, :])
    share = _pair_shares_item(ag)
    n_pairs = share.sum(axis=1)
    a_e = divide(np.where(share, prod, 0.0).sum(axis=1), n_pairs)
    return Batch(chance_corrected(a_o, a_e), a_o, a_e)


# ------------------------------------------------------------------ pairs


def cohen_pairs(ag: Aggregates) -> Batch:
    """Cohen's κ of every annotator pair (B, P) over the items both labelled."""
    n = ag.pair_both
    a_o = divide(ag.pair_agree, n)
    a_e = divide(np.einsum("bpk,bpk->bp", ag.pair_x, ag.pair_y), n * n)
    return Batch(chance_corrected(a_o, a_e), a_o, a_e)


def scott_pairs(ag: Aggregates) -> Batch:
    """Scott's π of every annotator pair (B, P): chance from the pair's pooled distribution."""
    n = ag.pair_both
    a_o = divide(ag.pair_agree, n)
    pooled = divide(ag.pair_x + ag.pair_y, 2.0 * n[:, :, None])
    a_e = (pooled**2).sum(axis=2)
    return Batch(chance_corrected(a_o, a_e), a_o, a_e)


def _inner_cells(t: Tally, ag: Aggregates) -> FloatArray:
    if ag.pair_cells is None:
        raise ValueError(
            "too many categories for pair tables; weighted coefficients need at most "
            f"{int(np.sqrt(4096)) - 2} categories"
        )
    q = t.n_categories
    return ag.pair_cells[:, :, 1 : q + 1, 1 : q + 1]


def weighted_kappa_pairs(t: Tally, ag: Aggregates, disagreement: FloatArray) -> Batch:
    r"""Cohen's weighted κ of every pair (B, P): κ_w = 1 − Σ d·p_o / Σ d·p_e.

    ``disagreement`` (q × q) holds the disagreement weights d_jk (0 on the diagonal); reported
    A_o = 1 − D_o and A_e = 1 − D_e.
    """
    cells = _inner_cells(t, ag)
    n = ag.pair_both
    d = np.asarray(disagreement, dtype=np.float64)
    d_o = divide(np.einsum("bpjk,jk->bp", cells, d), n)
    d_e = divide(np.einsum("bpj,jk,bpk->bp", ag.pair_x, d, ag.pair_y), n * n)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(d_e > 0, 1.0 - d_o / np.where(d_e > 0, d_e, 1.0), np.nan)
    return Batch(value, 1.0 - d_o, 1.0 - d_e)


def pair_mean(values: FloatArray, ag: Aggregates) -> FloatArray:
    """Mean over the pairs that share an item and whose value is defined (B,)."""
    ok = np.isfinite(values) & _pair_shares_item(ag)
    return divide(np.where(ok, values, 0.0).sum(axis=1), ok.sum(axis=1))


def spearman_pairs(t: Tally, ag: Aggregates) -> FloatArray:
    r"""Spearman's ρ of every pair (B, P) over the items both labelled with a value.

    Categories are in the order of their values, so each category's average rank follows from
    the marginal counts, :math:`r_k = \sum_{j<k} n_j + (n_k + 1)/2`, and ρ is the Pearson
    correlation of the ranks over the pair's joint table — the value of ``scipy.stats.spearmanr``
    on the items themselves, ties included.
    """
    cells = _inner_cells(t, ag)
    n = ag.pair_both
    x, y = ag.pair_x, ag.pair_y
    rx = np.cumsum(x, axis=2) - x + (x + 1.0) / 2.0
    ry = np.cumsum(y, axis=2) - y + (y + 1.0) / 2.0
    mean = (n + 1.0) / 2.0
    dx = rx - mean[:, :, None]
    dy = ry - mean[:, :, None]
    cov = np.einsum("bpjk,bpj,bpk->bp", cells, dx, dy)
    vx = np.einsum("bpj,bpj->bp", x, dx * dx)
    vy = np.einsum("bpk,bpk->bp", y, dy * dy)
    den = np.sqrt(vx * vy)
    rho = divide(cov, den)
    return np.where(n >= 2, np.clip(rho, -1.0, 1.0), np.nan)


def spearman_weighted(t: Tally, ag: Aggregates) -> FloatArray:
    """Mean of the pairs' ρ weighted by the items both judged (pairs with ρ undefined left out)."""
    rho = spearman_pairs(t, ag)
    w = ag.pair_judged
    ok = np.isfinite(rho) & (w > 0)
    return divide(np.where(ok, rho * w, 0.0).sum(axis=1), np.where(ok, w, 0.0).sum(axis=1))


# ------------------------------------------------------------------ Krippendorff's α


def label_pairs(t: Tally) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], Any]:
    r"""The distinct pairs of different labels that co-occur in an item, and their weights.

    Returns (c_u, k_u) with c_u < k_u for the U pairs and the S × U sparse matrix whose entry
    (s, u) is :math:`\sum 2/(m_s - 1)` over the label instances of multiset s forming pair u:
    with it, :math:`\sum_{c \ne k} o_{ck}\,\delta(c, k) = \sum_u (W P)_u\,\delta_u` for any
    symmetric distance δ — only the distances of labels that co-occur in an item are needed.
    """

    def build(t: Tally) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], Any]:
        from scipy import sparse

        q = t.n_categories
        sym = t.ms_sym.astype(np.int64)
        inv = _ms_basic(t)["inv_m1"]
        rows, keys, vals = [], [], []
        for x, y in combinations(range(sym.shape[1]), 2):
            a, b = sym[:, x], sym[:, y]
            ok = (a > 0) & (a != b)  # sorted rows: a ≤ b, and a > 0 means both are labels
            r = np.flatnonzero(ok)
            rows.append(r)
            keys.append((a[r] - 1) * q + (b[r] - 1))
            vals.append(2.0 * inv[r])
        key = np.concatenate(keys) if keys else np.zeros(0, np.int64)
        uniq, pos = np.unique(key, return_inverse=True)
        mat = sparse.csr_array(
            (
                np.concatenate(vals) if vals else np.zeros(0),
                (np.concatenate(rows) if rows else np.zeros(0, np.int64), pos.ravel()),
            ),
            shape=(sym.shape[0], len(uniq)),
        )
        return (uniq // max(q, 1)).astype(np.int64), (uniq % max(q, 1)).astype(np.int64), mat

    out: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], Any] = t.ms_feature(
        "label_pairs", build
    )
    return out


def pair_weights(t: Tally, ag: Aggregates) -> FloatArray:
    """(B, U): the weights of the co-occurring label pairs of :func:`label_pairs`."""
    _, _, mat = label_pairs(t)
    return np.asarray(ag.ms @ mat, dtype=np.float64)


def coincidences(t: Tally, ag: Aggregates) -> FloatArray:
    """Krippendorff's coincidence matrices (B, q, q) over the pairable items."""
    q = t.n_categories
    f = _ms_basic(t)
    counts = t.ms_counts
    dense = counts if isinstance(counts, np.ndarray) else counts.toarray()
    diag = np.asarray((ag.ms * f["inv_m1"][None, :]) @ (dense * (dense - 1.0)), dtype=np.float64)
    cu, ku, _ = label_pairs(t)
    pw = pair_weights(t, ag) / 2.0
    o = np.zeros((ag.n_resamples, q * q))
    idx = np.arange(q)
    o[:, idx * q + idx] = diag
    np.add.at(o.T, cu * q + ku, pw.T)
    np.add.at(o.T, ku * q + cu, pw.T)
    return o.reshape(-1, q, q)


def pairable_marginals(t: Tally, ag: Aggregates) -> FloatArray:
    """n_c (B, q): values of each category among the pairable items."""
    f = _ms_basic(t)
    return _weighted_counts(ag.ms, f["pairable"], t.ms_counts)


def midranks(n_c: FloatArray, values: FloatArray) -> FloatArray:
    r"""Mid-rank positions :math:`a_k = \sum_{g \le k} n_g - n_k/2` in the order of ``values``.

    Krippendorff's ordinal distance is :math:`(\sum_{g=c..k} n_g - (n_c + n_k)/2)^2 = (a_k -
    a_c)^2`: the interval distance between mid-ranks, so ordinal α is interval α on them.
    """
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(n_c[:, order], axis=1) - n_c[:, order] / 2.0
    out: FloatArray = np.empty_like(cum)
    out[:, order] = cum
    return out


def _alpha_from(d_o_sum: FloatArray, e_sum: FloatArray, n: FloatArray) -> Batch:
    d_o = divide(d_o_sum, n)
    d_e = divide(e_sum, n * (n - 1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where((d_e > 0) & (n > 1), 1.0 - d_o / np.where(d_e > 0, d_e, 1.0), np.nan)
    return Batch(value, d_o, d_e)


def _moment_sum(n_c: FloatArray, v: FloatArray) -> FloatArray:
    """Σ_ck n_c n_k (v_c − v_k)² = 2 n Σ n_c v_c² − 2 (Σ n_c v_c)², for each row (v: (q,) or (B, q))."""
    n = n_c.sum(axis=1)
    return np.asarray(
        2.0 * n * (n_c * v * v).sum(axis=1) - 2.0 * (n_c * v).sum(axis=1) ** 2, dtype=np.float64
    )


def ratio_distance(v: FloatArray) -> FloatArray:
    """Krippendorff's ratio δ((c − k)/(c + k))² (0 where c + k = 0)."""
    s = v[:, None] + v[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        r = ((v[:, None] - v[None, :]) / np.where(s == 0, 1.0, s)) ** 2
    return np.asarray(np.where(s == 0, 0.0, r), dtype=np.float64)


def alpha(
    t: Tally,
    ag: Aggregates,
    level: str = "nominal",
    values: FloatArray | None = None,
    delta: FloatArray | None = None,
    expected_sum: Any = None,
) -> Batch:
    r"""Krippendorff's α (B,) at a level of measurement, or with a distance matrix ``delta``.

    D_o from the co-occurring label pairs only (:func:`label_pairs`); D_e from the pairable
    marginals n_c: nominal :math:`n^2 - \sum_c n_c^2`; interval (values v) and ordinal (mid-ranks
    a, :func:`midranks`) :math:`2n\sum_c n_c v_c^2 - 2(\sum_c n_c v_c)^2`; ratio or a given
    ``delta``: :math:`n_c^\top \Delta\, n_c`, or ``expected_sum(n_c)`` when the q × q distance
    matrix is too large to hold (α with a string distance).
    """
    q = t.n_categories
    v = np.arange(q, dtype=np.float64) if values is None else np.asarray(values, np.float64)
    n_c = pairable_marginals(t, ag)
    n = n_c.sum(axis=1)
    cu, ku, _ = label_pairs(t)
    pw = pair_weights(t, ag)
    if delta is not None or expected_sum is not None:
        if delta is None:
            raise ValueError("a custom distance needs its matrix for the observed disagreement")
        dm = np.asarray(delta, dtype=np.float64)
        d_o_sum = pw @ dm[cu, ku]
        e_sum = (
            expected_sum(n_c)
            if expected_sum is not None
            else np.einsum("bj,jk,bk->b", n_c, dm, n_c)
        )
        return _alpha_from(d_o_sum, np.asarray(e_sum, dtype=np.float64), n)
    if level == "nominal":
        return _alpha_from(pw.sum(axis=1), n * n - (n_c**2).sum(axis=1), n)
    if level == "interval":
        return _alpha_from(pw @ (v[cu] - v[ku]) ** 2, _moment_sum(n_c, v), n)
    if level == "ordinal":
        a = midranks(n_c, v)
        d_o_sum = (pw * (a[:, cu] - a[:, ku]) ** 2).sum(axis=1)
        return _alpha_from(d_o_sum, _moment_sum(n_c, a), n)
    if level == "ratio":
        dm = ratio_distance(v)
        return _alpha_from(pw @ dm[cu, ku], np.einsum("bj,jk,bk->b", n_c, dm, n_c), n)
    raise ValueError(f"unknown level of measurement {level!r}")


def pair_alpha(t: Tally, ag: Aggregates, level: str, values: FloatArray | None) -> FloatArray:
    """Krippendorff's α of every annotator pair (B, P) from the pair's joint table.

    With two annotators each co-labelled item contributes (j, k) and (k, j) to the coincidences
    (m − 1 = 1), so o = J + Jᵀ; items only one of the two labelled are not pairable.
    """
    q = t.n_categories
    v = np.arange(q, dtype=np.float64) if values is None else np.asarray(values, np.float64)
    n_c = ag.pair_x + ag.pair_y
    n = 2.0 * ag.pair_both
    if level == "nominal":
        d_o_sum = 2.0 * (ag.pair_both - ag.pair_agree)
        e_sum = n * n - (n_c**2).sum(axis=2)
        return _alpha_from(d_o_sum, e_sum, n).value
    cells = _inner_cells(t, ag)
    o = cells + np.swapaxes(cells, 2, 3)
    if level == "ordinal":
        a = midranks(n_c.reshape(-1, q), v).reshape(n_c.shape)
        dm = (a[:, :, :, None] - a[:, :, None, :]) ** 2
    elif level == "interval":
        dm = np.broadcast_to((v[:, None] - v[None, :]) ** 2, o.shape)
    elif level == "ratio":
        dm = np.broadcast_to(ratio_distance(v), o.shape)
    else:
        raise ValueError(f"unknown level of measurement {level!r}")
    d_o_sum = np.einsum("bpjk,bpjk->bp", o, dm)
    e_sum = np.einsum("bpj,bpjk,bpk->bp", n_c, dm, n_c)
    return _alpha_from(d_o_sum, e_sum, n).value

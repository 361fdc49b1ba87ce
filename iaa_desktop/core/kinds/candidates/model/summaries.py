"""Posterior summaries of the agreement model: multi-κ per condition, curves, coefficients, LOO.

multi-κ of a condition (the Bernard of Clairvaux agreement study, Eq. 1, 7, 8), per posterior draw s:

    A_o^(s) = (1 / C(c,2)) Σ_{x<y} Σ_k θ^{xy,(s)}_{kk}          (Eq. 7)
    A_e     = (1 / C(c,2)) Σ_{x<y} Σ_k P(k|x)·P(k|y)            (Eq. 8, from the whole data set)
    κ^(s)   = (A_o^(s) − A_e) / (1 − A_e)

θ^{xy} are the outcome probabilities of annotator pair (x, y) under the condition: its own
intercepts, the fixed effects at the condition's values, the varying intercepts of the levels the
condition names. A factor with varying intercepts that the condition leaves open is either held
at its average level (ν = 0, "without varying intercepts") or, per draw, given a new level drawn
from its fitted multivariate normal ("with", the paper's marginalisation over books); a
categorical fixed effect left open is averaged over the study's combinations of levels, weighted
by their share of items; overlap is held at its mean (z = 0) except on the curves. The
per-condition chance agreement offered beside Eq. 8 is Cohen's, from the margins of θ^{xy}:
A_e = mean over pairs of Σ_k θ^{xy}_{k·} θ^{xy}_{·k}.
"""

from __future__ import annotations

import math
import warnings
from itertools import product
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.kinds.candidates.model.data import OVERLAP, OutcomeData
from iaa_desktop.core.kinds.candidates.model.fit import Posterior, log_softmax0

if TYPE_CHECKING:
    from arviz.stats.stats_utils import ELPDData

#: factors with at most this many levels are crossed in the combination table (Table 3)
CROSS_MAX_LEVELS = 12
CURVE_POINTS = 41


def _quantiles(v: NDArray[Any]) -> dict[str, Any]:
    v = v[np.isfinite(v)]
    if not len(v):
        return {"median": math.nan, "mean": math.nan, "q89": [math.nan] * 2, "q95": [math.nan] * 2}
    q = np.quantile(v, [0.025, 0.055, 0.5, 0.945, 0.975])
    return {
        "median": float(q[2]),
        "mean": float(v.mean()),
        "q89": [float(q[1]), float(q[3])],
        "q95": [float(q[0]), float(q[4])],
    }


def _mvn_draw(post: Posterior, g: int, rng: np.random.Generator) -> NDArray[Any]:
    """One new level per draw from the fitted MVN(0, diag σ · Ω · diag σ) of factor g."""
    sigma = post.flat(f"sigma_{g}")
    corr = post.flat(f"corr_{g}")
    chol = np.linalg.cholesky(corr + 1e-10 * np.eye(corr.shape[-1]))
    z = rng.standard_normal(sigma.shape)
    draw: NDArray[Any] = np.einsum("sij,sj->si", chol, z) * sigma
    return draw


def _fixed_combos(data: OutcomeData, values: dict[str, Any]) -> list[tuple[float, NDArray[Any]]]:
    """(weight, design row) pairs: given values fixed, open categorical effects averaged."""
    open_terms = [t for t in data.terms if t.levels and t.name not in values]
    if not open_terms:
        return [(1.0, data.design(values))]
    names = [t.name for t in open_terms]
    shares = pd.DataFrame({n: data.item_values[n] for n in names}).value_counts(normalize=True)
    out = []
    for row, share in shares.items():
        v = dict(values)
        v.update(dict(zip(names, row if isinstance(row, tuple) else (row,))))
        out.append((float(share), data.design(v)))
    return out


def condition_draws(
    post: Posterior,
    data: OutcomeData,
    condition: dict[str, Any],
    with_varying: bool,
    rng: np.random.Generator,
    new_levels: dict[int, NDArray[Any]] | None = None,
) -> dict[str, NDArray[Any]]:
    """Per-draw A_o, κ (Eq. 8 chance) and κ (per-condition chance) of one condition.

    ``condition`` maps factor names to levels (and ``overlap`` to a z-score; default 0).
    ``new_levels`` reuses the per-draw new levels of open varying factors across conditions, so
    that conditions differ only by what they name (as in the paper's plots).
    """
    alpha = post.flat("alpha")  # (S, P, K1)
    eta = alpha.copy()
    for g, name in enumerate(data.groups):
        if name in condition:
            k = data.group_levels[g].index(str(condition[name]))
            eta += post.flat(f"nu_{g}")[:, k, :][:, None, :]
        elif with_varying:
            nu = new_levels.get(g) if new_levels is not None else None
            eta += (nu if nu is not None else _mvn_draw(post, g, rng))[:, None, :]
    values = {t.name: condition[t.name] for t in data.terms if t.name in condition}
    if OVERLAP in [t.name for t in data.terms]:
        values.setdefault(OVERLAP, 0.0)
    q = data.q
    mixed: NDArray[Any] | float = 0.0
    for w, x in _fixed_combos(data, values):
        add = np.einsum("p,spo->so", x, post.flat("beta"))[:, None, :] if len(x) else 0.0
        mixed = mixed + w * np.exp(log_softmax0(eta + add))
    theta = np.asarray(mixed).reshape(*alpha.shape[:2], q, q)  # (S, P, q, q)
    a_o = np.trace(theta, axis1=2, axis2=3).mean(axis=1)
    rows, cols = theta.sum(axis=3), theta.sum(axis=2)
    a_e_cond = (rows * cols).sum(axis=2).mean(axis=1)
    a_e = data.chance_eq8
    return {
        "observed": a_o,
        "kappa": (a_o - a_e) / (1.0 - a_e),
        "kappa_cond": (a_o - a_e_cond) / (1.0 - a_e_cond),
        "expected_cond": a_e_cond,
    }


def _model_factors(data: OutcomeData) -> list[tuple[str, tuple[str, ...]]]:
    out = [(t.name, t.levels) for t in data.terms if t.levels]
    out += list(zip(data.groups, data.group_levels))
    return out


def _crossed(data: OutcomeData) -> list[tuple[str, tuple[str, ...]]]:
    """The factors whose levels are crossed into conditions (Table 3 rows, Figure 3 panels): the
    categorical fixed effects with few levels; varying intercepts are the table's −/+ columns."""
    return [(t.name, t.levels) for t in data.terms if 0 < len(t.levels) <= CROSS_MAX_LEVELS]


def _new_levels(post: Posterior, data: OutcomeData, seed: int) -> dict[int, NDArray[Any]]:
    rng = np.random.default_rng(seed)
    return {g: _mvn_draw(post, g, rng) for g in range(len(data.groups))}


def _row(
    cond: dict[str, Any], d_without: dict[str, NDArray[Any]], d_with: dict[str, NDArray[Any]]
) -> dict[str, Any]:
    return {
        "condition": {k: (str(v) if k != OVERLAP else float(v)) for k, v in cond.items()},
        "kappa": _quantiles(d_without["kappa"]),
        "kappa_with_varying": _quantiles(d_with["kappa"]),
        "kappa_cond": _quantiles(d_without["kappa_cond"]),
        "kappa_cond_with_varying": _quantiles(d_with["kappa_cond"]),
        "observed": _quantiles(d_without["observed"]),
    }


def kappa_tables(post: Posterior, data: OutcomeData, seed: int) -> dict[str, Any]:
    """multi-κ overall, by every level of every factor and for the crossing of the categorical
    fixed effects (the paper's Table 3), each without and with the variation of the open
    varying-intercept factors."""
    rng = np.random.default_rng(seed)
    new = _new_levels(post, data, seed)

    def row(cond: dict[str, Any]) -> dict[str, Any]:
        return _row(
            cond,
            condition_draws(post, data, cond, False, rng),
            condition_draws(post, data, cond, True, rng, new),
        )

    factors = _model_factors(data)
    by_level = {
        name: [dict(row({name: lv}), level=lv) for lv in levels] for name, levels in factors
    }
    small = _crossed(data)
    crossed = []
    if len(small) >= 2:
        for combo in product(*(lv for _, lv in small)):
            crossed.append(row(dict(zip([n for n, _ in small], combo))))
    return {
        "overall": row({}),
        "by_level": by_level,
        "crossed_factors": [n for n, _ in small] if len(small) >= 2 else [],
        "crossed": crossed,
    }


def kappa_curves(post: Posterior, data: OutcomeData, seed: int) -> dict[str, Any]:
    """κ over standardised overlap for each crossing of the categorical fixed effects (Figure 3)."""
    if OVERLAP not in [t.name for t in data.terms]:
        return {}
    lo, hi = data.z_range
    grid = np.linspace(lo, hi, CURVE_POINTS)
    term = next(t for t in data.terms if t.name == OVERLAP)
    small = _crossed(data)
    combos = [dict(zip([n for n, _ in small], c)) for c in product(*(lv for _, lv in small))]
    rng = np.random.default_rng(seed)
    new = _new_levels(post, data, seed)
    curves = []
    for cond in combos or [{}]:
        bands: dict[str, list[list[float]]] = {"without": [], "with": []}
        for z in grid:
            c = dict(cond, **{OVERLAP: float(z)})
            for key, with_v in (("without", False), ("with", True)):
                k = condition_draws(post, data, c, with_v, rng, new)["kappa"]
                bands[key].append(np.quantile(k, [0.055, 0.25, 0.5, 0.75, 0.945]).tolist())
        curves.append({"condition": {k: str(v) for k, v in cond.items()}, **bands})
    return {
        "z": grid.tolist(),
        "overlap": (grid * term.scale + term.center).tolist(),
        "quantiles": [0.055, 0.25, 0.5, 0.75, 0.945],
        "curves": curves,
    }


def kappa_cells(post: Posterior, data: OutcomeData) -> dict[str, NDArray[Any]]:
    """κ (Eq. 8 chance, without varying intercepts) of every condition the κ tables report,
    per draw, shaped (chains, draws): overall, each level of each factor, each crossing."""
    rng = np.random.default_rng(0)  # not drawn from: no varying intercepts are drawn here
    shape = (post.n_chains, post.n_draws)
    conditions: dict[str, dict[str, Any]] = {"overall": {}}
    for name, levels in _model_factors(data):
        for lv in levels:
            conditions[f"{name}={lv}"] = {name: lv}
    small = _crossed(data)
    if len(small) >= 2:
        for combo in product(*(lv for _, lv in small)):
            cond = dict(zip([n for n, _ in small], combo))
            conditions[" × ".join(f"{k}={v}" for k, v in cond.items())] = cond
    return {
        key: condition_draws(post, data, cond, False, rng)["kappa"].reshape(shape)
        for key, cond in conditions.items()
    }


def kappa_convergence(post: Posterior, data: OutcomeData) -> dict[str, Any]:
    """The κ cells' worst bulk ESS and R-hat (rank-normalised; Vehtari et al. 2021) and the
    parameters' worst R-hat: what decides whether a fit has drawn enough."""
    az = _import_arviz()
    ess, rhat, worst = math.inf, 0.0, ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for key, v in kappa_cells(post, data).items():
            e = float(az.ess(v, method="bulk"))
            if e < ess:
                ess, worst = e, key
            if post.n_chains > 1:
                rhat = max(rhat, float(az.rhat(v)))
    params = _diagnostic_params(post)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = az.rhat(az.from_dict(posterior=params)) if post.n_chains > 1 else None
    rhat_params = (
        max(float(np.nanmax(r[k].values)) for k in r.data_vars) if r is not None else math.nan
    )
    return {
        "kappa_ess_bulk_min": ess,
        "kappa_ess_bulk_worst": worst,
        "kappa_rhat_max": rhat if post.n_chains > 1 else math.nan,
        "params_rhat_max": rhat_params,
    }


def _diagnostic_params(post: Posterior) -> dict[str, NDArray[Any]]:
    """The parameters checked for convergence (correlation matrices by their upper triangle)."""
    params = {}
    for k, v in post.params.items():
        if k.startswith("corr_"):
            iu = np.triu_indices(v.shape[-1], 1)
            v = v[..., iu[0], iu[1]]
        params[k] = v
    return params


def _import_arviz() -> ModuleType:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ArviZ announces its refactor on import
        import arviz as az
    return az


def diagnostics(post: Posterior) -> dict[str, Any]:
    """R-hat (rank-normalised), bulk and tail ESS over every parameter, divergences, tree depth."""
    az = _import_arviz()
    out: dict[str, Any] = {"n_chains": post.n_chains, "n_draws": post.n_draws}
    if post.settings.method != "nuts":
        out.update(method=post.settings.method)
        return out
    idata = az.from_dict(posterior=_diagnostic_params(post))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # R-hat compares chains: with one chain there is nothing to compare
        rhat = az.rhat(idata) if post.n_chains > 1 else None
        bulk = az.ess(idata, method="bulk")
        tail = az.ess(idata, method="tail")
        bfmi = az.bfmi(post.stats["energy"]) if "energy" in post.stats else np.array([math.nan])

    def worst(ds: Any, largest: bool) -> tuple[float, str]:
        if ds is None:
            return math.nan, ""
        vals = [
            (float(np.nanmax(ds[k].values) if largest else np.nanmin(ds[k].values)), k)
            for k in ds.data_vars
            if np.isfinite(ds[k].values).any()
        ]
        if not vals:
            return math.nan, ""
        return max(vals) if largest else min(vals)

    rmax, rname = worst(rhat, True)
    bmin, bname = worst(bulk, False)
    tmin, tname = worst(tail, False)
    out.update(
        method="nuts",
        divergences=int(post.stats["diverging"].sum()),
        max_tree_depth_hits=int((post.stats["tree_depth"] >= post.settings.max_tree_depth).sum()),
        rhat_max=rmax,
        rhat_worst=rname,
        ess_bulk_min=bmin,
        ess_bulk_worst=bname,
        ess_tail_min=tmin,
        ess_tail_worst=tname,
        bfmi_min=float(np.min(bfmi)),
        step_size=[float(s) for s in post.stats["step_size"][:, -1]],
        cpu_seconds=post.cpu_seconds,
        wall_seconds=post.wall_seconds,
    )
    return out


def _loo_of(az: ModuleType, ll: NDArray[Any], posterior: dict[str, NDArray[Any]]) -> dict[str, Any]:
    # the posterior group gives the relative efficiency of the draws (ArviZ's ``reff``)
    idata = az.from_dict(posterior=posterior, log_likelihood={"y": ll})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Pareto k is checked and reported by the caller
        r = az.loo(idata, pointwise=True)
    return {
        "elpd": float(r["elpd_loo"]),
        "se": float(r["se"]),
        "p_loo": float(r["p_loo"]),
        "n_samples": int(r["n_samples"]),
        "good_k": float(r["good_k"]),
        "loo_i": np.asarray(r["loo_i"].values, dtype=np.float64),
        "pareto_k": np.asarray(r["pareto_k"].values, dtype=np.float64),
    }


def loo(ll: NDArray[Any], item: NDArray[Any], post: Posterior) -> dict[str, Any]:
    """PSIS-LOO (Vehtari, Gelman & Gabry 2017) by outcome and by whole item.

    The outcomes of one item share its labels; leaving out a whole item (the sum of its
    outcomes' log-likelihoods per draw) gives the honest standard error.
    """
    az = _import_arviz()
    posterior = {k: v for k, v in post.params.items() if k == "alpha" or k == "beta"}
    by_outcome = _loo_of(az, ll, posterior)
    items, inverse = np.unique(item, return_inverse=True)
    ll_item = np.zeros((*ll.shape[:2], len(items)))
    # summed over the last axis: item axes first, so that the index is one array
    np.add.at(np.moveaxis(ll_item, 2, 0), inverse, np.moveaxis(ll, 2, 0))
    by_item = _loo_of(az, ll_item, posterior)
    return {"outcome": by_outcome, "item": by_item}


def elpd_data(entry: dict[str, Any]) -> tuple[ELPDData, ModuleType]:
    """An ArviZ ``ELPDData`` rebuilt from a (possibly cached) LOO entry, for ``az.compare``,
    with the ArviZ module."""
    az = _import_arviz()
    import xarray as xr
    from arviz.stats.stats_utils import ELPDData

    n = len(entry["loo_i"])
    return ELPDData(
        data=[
            entry["elpd"],
            entry["se"],
            entry["p_loo"],
            entry["n_samples"],
            n,
            bool((entry["pareto_k"] > entry["good_k"]).any()),
            xr.DataArray(entry["loo_i"], dims=["obs"]),
            xr.DataArray(entry["pareto_k"], dims=["obs"]),
            "log",
            entry["good_k"],
        ],
        index=[
            "elpd_loo",
            "se",
            "p_loo",
            "n_samples",
            "n_data_points",
            "warning",
            "loo_i",
            "pareto_k",
            "scale",
            "good_k",
        ],
    ), az


def compare(entries: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The paper's Table 2 via ``arviz.compare``: ELPD, SE, p_loo, difference to the best and
    its SE, Pareto-k counts; best model first."""
    if not entries:
        return []
    built = {name: elpd_data(e) for name, e in entries.items()}
    az = next(iter(built.values()))[1]
    if len(built) == 1:
        name, e = next(iter(entries.items()))
        rows = [(name, e["elpd"], e["se"], e["p_loo"], 0.0, 0.0, 1.0)]
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table = az.compare({k: v[0] for k, v in built.items()}, ic="loo")
        rows = [
            (str(k), r.elpd_loo, r.se, r.p_loo, r.elpd_diff, r.dse, r.weight)
            for k, r in table.iterrows()
        ]
    out = []
    for name, elpd, se, p, diff, dse, weight in rows:
        e = entries[name]
        out.append(
            {
                "model": name,
                "elpd": float(elpd),
                "se": float(se),
                "p_loo": float(p),
                "elpd_diff": 0.0 - float(diff),
                "se_diff": float(dse),
                "weight": float(weight),
                "pareto_k_bad": int((e["pareto_k"] > e["good_k"]).sum()),
                "pareto_k_max": float(np.max(e["pareto_k"])),
            }
        )
    return out


def coefficients(post: Posterior, data: OutcomeData) -> list[dict[str, Any]]:
    """Population-level coefficients: pair intercepts α, slopes β, standard deviations σ."""
    outcomes = data.outcome_names()[1:]
    rows = []

    def add(kind: str, name: str, draws: NDArray[Any]) -> None:
        for o, logit in enumerate(outcomes):
            rows.append({"kind": kind, "term": name, "logit": logit, **_quantiles(draws[:, o])})

    alpha = post.flat("alpha")
    for p, pname in enumerate(data.pair_names):
        add("intercept", f"pair {pname}", alpha[:, p])
    if "beta" in post.params:
        beta = post.flat("beta")
        for j, col in enumerate(data.x_names):
            add("slope", col, beta[:, j])
    for g, name in enumerate(data.groups):
        add("sd", f"sd({name})", post.flat(f"sigma_{g}"))
    return rows


def correlations(post: Posterior, data: OutcomeData) -> list[dict[str, Any]]:
    """Correlations of the varying intercepts across the logits, per factor."""
    outcomes = data.outcome_names()[1:]
    rows = []
    for g, name in enumerate(data.groups):
        corr = post.flat(f"corr_{g}")
        for i in range(len(outcomes)):
            for j in range(i + 1, len(outcomes)):
                rows.append(
                    {
                        "factor": name,
                        "logits": f"{outcomes[i]} ~ {outcomes[j]}",
                        **_quantiles(corr[:, i, j]),
                    }
                )
    return rows

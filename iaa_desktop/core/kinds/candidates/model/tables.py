"""The agreement model's results as tables (CSV files and the report's tables)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.candidates.model.results import ModelResults


def _q(prefix: str, s: dict[str, Any]) -> dict[str, float]:
    return {
        f"{prefix}median": s["median"],
        f"{prefix}low89": s["q89"][0],
        f"{prefix}high89": s["q89"][1],
        f"{prefix}low95": s["q95"][0],
        f"{prefix}high95": s["q95"][1],
    }


def kappa_rows(row: dict[str, Any]) -> dict[str, Any]:
    """One κ row: Eq. 8 κ without and with varying intercepts, per-condition κ, A_o."""
    return {
        **_q("", row["kappa"]),
        **_q("with_varying_", row["kappa_with_varying"]),
        **_q("cond_", row["kappa_cond"]),
        "observed_median": row["observed"]["median"],
    }


def kappa_frame(results: ModelResults, model: str | None = None) -> pd.DataFrame:
    """multi-κ overall, the crossing of the categorical fixed effects (Table 3), every level."""
    fit = results.fits[model] if model else results.main
    k = fit.kappa
    rows = [
        {"model": fit.spec.name, "table": "overall", "condition": "all", **kappa_rows(k["overall"])}
    ]
    for r in k["crossed"]:
        rows.append(
            {
                "model": fit.spec.name,
                "table": " × ".join(k["crossed_factors"]),
                "condition": ", ".join(f"{a} = {b}" for a, b in r["condition"].items()),
                **kappa_rows(r),
            }
        )
    for factor, levels in k["by_level"].items():
        for lv in levels:
            rows.append(
                {
                    "model": fit.spec.name,
                    "table": f"by {factor}",
                    "condition": f"{factor} = {lv['level']}",
                    **kappa_rows(lv),
                }
            )
    return pd.DataFrame(rows)


def curves_frame(results: ModelResults) -> pd.DataFrame:
    fit = results.main
    c = fit.curves
    rows = []
    for curve in c.get("curves", []):
        cond = ", ".join(f"{a} = {b}" for a, b in curve["condition"].items()) or "all"
        for key in ("without", "with"):
            for z, o, qs in zip(c["z"], c["overlap"], curve[key]):
                rows.append(
                    {
                        "condition": cond,
                        "varying": key,
                        "overlap_z": z,
                        "overlap": o,
                        "low89": qs[0],
                        "low50": qs[1],
                        "median": qs[2],
                        "high50": qs[3],
                        "high89": qs[4],
                    }
                )
    return pd.DataFrame(rows)


def model_tables(results: ModelResults) -> dict[str, pd.DataFrame]:
    """Every table of the model results, named for the CSV files (``model_...``)."""
    cmp = pd.DataFrame(results.comparison("outcome"))
    cmp_item = pd.DataFrame(results.comparison("item"))
    coef, corr, diag = [], [], []
    for name, f in results.fits.items():
        coef += [
            {
                "model": name,
                "kind": r["kind"],
                "term": r["term"],
                "logit": r["logit"],
                "mean": r["mean"],
                **_q("", r),
            }
            for r in f.coefficients
        ]
        corr += [
            {
                "model": name,
                "factor": r["factor"],
                "logits": r["logits"],
                "mean": r["mean"],
                **_q("", r),
            }
            for r in f.correlations
        ]
        d = {k: v for k, v in f.diagnostics.items() if not isinstance(v, list | dict)}
        d["step_size"] = ", ".join(f"{s:.3g}" for s in f.diagnostics.get("step_size", []))
        diag.append(
            {
                "model": name,
                "formula": f.spec.formula(),
                "n_outcomes": f.info["n_outcomes"],
                **d,
                "from_cache": f.cached,
                "warnings": " | ".join(f.warnings),
            }
        )
    return {
        "model_elpd": cmp,
        "model_elpd_by_item": cmp_item,
        "model_kappa": kappa_frame(results),
        "model_kappa_curves": curves_frame(results),
        "model_coefficients": pd.DataFrame(coef),
        "model_correlations": pd.DataFrame(corr),
        "model_diagnostics": pd.DataFrame(diag),
    }

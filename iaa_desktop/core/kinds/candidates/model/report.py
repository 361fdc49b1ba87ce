"""The agreement model's part of the candidates report: a section and a methods paragraph."""

from __future__ import annotations

import math
from typing import Any

from iaa_desktop.core.export.html_blocks import figure_html, table_html
from iaa_desktop.core.export.methods_text import esc
from iaa_desktop.core.export.report import Section
from iaa_desktop.core.kinds.candidates.model.fit import priors_text
from iaa_desktop.core.kinds.candidates.model.results import CAVEAT_WITH_VARYING

ELPD_HEADERS = {
    "model": "Model",
    "elpd": "ELPD",
    "se": "SE",
    "p_loo": "p_loo",
    "elpd_diff": "ΔELPD",
    "se_diff": "SE of Δ",
    "pareto_k_bad": "k > 0.7",
}
KAPPA_HEADERS = {
    "condition": "Condition",
    "low95": "−95%",
    "median": "median",
    "high95": "+95%",
    "with_varying_low95": "−95% (+var.)",
    "with_varying_median": "median (+var.)",
    "with_varying_high95": "+95% (+var.)",
    "cond_median": "κ, own A_e",
}
COEF_HEADERS = {
    "term": "Term",
    "logit": "logit",
    "median": "median",
    "low95": "−95%",
    "high95": "+95%",
}
REFERENCES = [
    "seed_candidates",
    "hoffman2014",
    "phan2019",
    "lewandowski2009",
    "vehtari2017",
    "vehtari2021",
]


def _fmt(v: Any, d: int = 3) -> str:
    return "–" if v is None or not math.isfinite(float(v)) else f"{float(v):.{d}f}"


def _warnings_html(results: Any) -> str:
    items = results.warnings()
    if not items:
        return (
            '<p class="ok">Diagnostics passed: no divergent transitions, R-hat ≤ 1.01, bulk '
            "and tail effective sample sizes ≥ 100 per chain, Pareto k of every left-out "
            "outcome and item below the threshold.</p>"
        )
    return (
        '<div class="warning"><p><b>Check before use:</b></p><ul>'
        + "".join(f"<li>{esc(w)}</li>" for w in items)
        + "</ul></div>"
    )


ELPD_DIGITS = {"pareto_k_bad": 0, "p_loo": 1, "elpd": 1, "se": 1, "elpd_diff": 1}
DIAG_HEADERS = {
    "model": "Model",
    "n_draws": "draws per chain",
    "divergences": "divergences",
    "rhat_max": "max R-hat",
    "kappa_rhat_max": "κ cells: max R-hat",
    "kappa_ess_bulk_min": "κ cells: min bulk ESS",
    "ess_bulk_min": "min bulk ESS",
    "ess_tail_min": "min tail ESS",
    "bfmi_min": "min BFMI",
    "cpu_seconds": "CPU s",
}


def _comparison_html(results: Any, tables: dict[str, Any], charts: bool) -> list[str]:
    from iaa_desktop.core.kinds.candidates.model import charts as ch

    cmp, item = tables["model_elpd"], tables["model_elpd_by_item"]
    if not len(cmp):
        return []
    out = [
        table_html(
            cmp,
            [c for c in ELPD_HEADERS if c in cmp.columns],
            ELPD_HEADERS,
            digits=ELPD_DIGITS,
            caption="Model comparison by PSIS-LOO, one pairwise outcome left out at a time "
            "(best first)",
        ),
        table_html(
            item,
            [c for c in ELPD_HEADERS if c in item.columns],
            ELPD_HEADERS,
            digits=ELPD_DIGITS,
            caption="The same, leaving out whole items (an item's outcomes share its labels: "
            "the honest standard errors)",
        ),
    ]
    if charts and len(cmp) > 1:
        out.append(
            figure_html(ch.elpd_figure(results.comparison()), "ELPD against the best model.")
        )
    return out


def _kappa_html(results: Any, charts: bool, max_rows: int) -> list[str]:
    from iaa_desktop.core.kinds.candidates.model import charts as ch
    from iaa_desktop.core.kinds.candidates.model.tables import kappa_frame

    fit = results.main
    kf = kappa_frame(results)
    crossed = kf[kf["table"].str.contains("×")]
    out = [
        table_html(
            crossed if len(crossed) else kf[kf["table"] == "overall"],
            list(KAPPA_HEADERS),
            KAPPA_HEADERS,
            caption=f"Posterior multi-κ ({esc(fit.spec.name)}), overlap at its mean: without and "
            "with (+var.) the variation of the open varying-intercept factors",
            note=CAVEAT_WITH_VARYING,
        )
    ]
    if charts:
        out.append(
            figure_html(
                ch.kappa_forest_figure(fit),
                "Posterior multi-κ: median (dot), 89% (thick) and 95% (thin) intervals.",
            )
        )
        if fit.curves:
            out.append(
                figure_html(
                    ch.kappa_curves_figure(fit),
                    "multi-κ over lexical overlap: median, 50% and 89% bands.",
                )
            )
    levels = kf[kf["table"].str.startswith("by ")]
    if len(levels):
        out.append(
            table_html(
                levels,
                ["table", *KAPPA_HEADERS],
                {"table": "Table", **KAPPA_HEADERS},
                caption="Posterior multi-κ by factor level",
                max_rows=max(max_rows, 80),
            )
        )
    return out


def _parameters_html(results: Any, tables: dict[str, Any]) -> list[str]:
    name = results.main.spec.name
    coef = tables["model_coefficients"]
    out = [
        table_html(
            coef[coef["model"] == name],
            list(COEF_HEADERS),
            COEF_HEADERS,
            caption="Population-level coefficients",
        )
    ]
    corr = tables["model_correlations"]
    corr = corr[corr["model"] == name] if len(corr) else corr
    if len(corr):
        out.append(
            table_html(
                corr,
                ["factor", "logits", "median", "low95", "high95"],
                {"factor": "Factor", "logits": "Logits", **COEF_HEADERS},
                caption="Correlations of the varying intercepts across the logits",
            )
        )
    diag = tables["model_diagnostics"]
    out.append(
        table_html(
            diag,
            [c for c in DIAG_HEADERS if c in diag.columns],
            DIAG_HEADERS,
            digits={
                "n_draws": 0,
                "divergences": 0,
                "kappa_ess_bulk_min": 0,
                "ess_bulk_min": 0,
                "ess_tail_min": 0,
                "cpu_seconds": 1,
            },
            caption="Sampler diagnostics",
        )
    )
    return out


def section(results: Any, charts: bool = True, max_rows: int = 70) -> Section:
    """The "Agreement model" section: Table 2, Table 3, figures, coefficients, diagnostics."""
    fit = results.main
    tables = results.tables()
    body = [
        f"<p>Best model by PSIS-LOO: <b>{esc(fit.spec.name)}</b> "
        f"(<code>{esc(fit.spec.formula())}</code>). Chance agreement A_e = "
        f"{_fmt(results.chance_eq8)} (Eq. 8: each annotator's label distribution over the whole "
        "data set); the column “κ, own A_e” uses instead each condition's own chance agreement "
        "(Cohen's, from the margins of its outcome probabilities).</p>",
        _warnings_html(results),
        *_comparison_html(results, tables, charts),
        *_kappa_html(results, charts, max_rows),
        *_parameters_html(results, tables),
    ]
    return Section("Agreement model", "\n".join(body), anchor="model")


def methods(results: Any) -> tuple[list[str], list[str]]:
    """A paragraph naming the models, priors, sampler settings and diagnostics."""
    fit = results.main
    s = fit.settings
    names = ", ".join(esc(n) for n in results.fits)
    chains = f"{s.chains} chains × ({s.warmup:,} warm-up + {s.draws:,} draws)"
    if getattr(s, "chain_method", "sequential") == "parallel" and s.chains > 1:
        if getattr(s, "warmup_reuse", 0) > 0:
            chains = (
                f"{s.chains} chains, the first warmed up over {s.warmup:,} iterations, the "
                f"others starting from its adapted step size and mass matrix after a burn-in of "
                f"{s.warmup_reuse:,}, {s.draws:,} draws each"
            )
        if s.min_ess > 0:
            dg = fit.diagnostics
            set_, most = dg.get("draws_set", s.draws), dg.get("max_draws", s.draws)
            chains += (
                "; drawing stopped once every κ cell reached a bulk ESS of "
                f"{s.min_ess:.0f} and every parameter and κ cell an R-hat ≤ 1.01 (Vehtari et al. "
                f"2021), at {set_:,} draws per chain if the chains agreed by then, or, while they "
                f"disagreed, at {most:,} at most"
            )
    sampler = (
        f"NumPyro's NUTS (Hoffman &amp; Gelman 2014; Phan et al. 2019), {chains}, target "
        f"acceptance {s.target_accept}, maximum tree depth {s.max_tree_depth}, seed {s.seed}"
        if s.method == "nuts"
        else f"a mean-field variational approximation ({s.vi_steps:,} steps, {s.draws:,} draws, "
        f"seed {s.seed}) — a preview, not for reporting"
    )
    d = fit.diagnostics
    diag = (
        f"{d.get('divergences', 0)} divergent transitions, R-hat ≤ {_fmt(d.get('rhat_max'))}, "
        f"bulk / tail ESS ≥ {_fmt(d.get('ess_bulk_min'), 0)} / {_fmt(d.get('ess_tail_min'), 0)}"
        if d.get("method") == "nuts"
        else "no convergence diagnostics (variational preview)"
    )
    p = (
        "The pairwise outcomes of every annotator pair on every item were modelled with the "
        "hierarchical baseline-category logit regression of the study of biblical intertextuality in Bernard of Clairvaux (pivot: both "
        f"annotators give the first label): {esc(fit.spec.formula())} for model "
        f"{esc(fit.spec.name)} ({fit.info['n_outcomes']:,} outcomes of {fit.info['n_items']:,} "
        f"items), varying intercepts correlated across the logits (LKJ prior, Lewandowski et al. "
        f"2009). Priors: {esc(priors_text())}. Sampler: {sampler}; for the model shown, {diag}. "
        f"Models compared ({names}) by PSIS-LOO (Vehtari et al. 2017), leaving out one outcome "
        "and, for honest standard errors, one whole item. multi-κ was computed per posterior "
        f"draw from the outcome probabilities (Eq. 7) and the chance agreement A_e = "
        f"{_fmt(results.chance_eq8)} of the whole data set (Eq. 8), with the lexical overlap at "
        "its mean; intervals with varying intercepts draw a new level of each open factor."
    )
    return [p], REFERENCES

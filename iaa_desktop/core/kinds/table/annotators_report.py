"""Report sections and methods paragraphs of the annotator figures of a table study: model
annotators (the alternative annotator test), competence, batches, test–retest and planning."""

from __future__ import annotations

from typing import Any

import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import figure_html, fmt, table_html
from iaa_desktop.core.export.methods_text import esc
from iaa_desktop.core.export.report import KindReport, ReportContext, Section
from iaa_desktop.core.metrics.catalogue import title as metric_title

__all__ = ["add_sections", "batch_figure", "methods", "planning_figure"]


def _models_section(j: dict[str, Any], ctx: ReportContext) -> Section:
    body = []
    for m in j["model_annotators"]:
        verdict = "passes" if m["passes"] else "does not pass"
        body.append(
            f"<p><b>{esc(m['name'])}</b> {verdict} the alternative annotator test: winning rate "
            f"ω = {fmt(m['winning_rate'], 2)}, advantage probability ρ = "
            f"{fmt(m['advantage_probability'], 2)} (ε = {fmt(m['epsilon'], 2)}, "
            f"{esc(m['score'])}, {m['n_items']} items with the model and two or more humans; "
            f"human pairwise Cohen's κ from {fmt(m['human_kappa_range'][0])} to "
            f"{fmt(m['human_kappa_range'][2])}).</p>"
        )
        if m["per_human"]:
            body.append(
                table_html(
                    pd.DataFrame(m["per_human"]),
                    [
                        "human",
                        "n_items",
                        "rho_model",
                        "rho_human",
                        "p_value",
                        "p_adjusted",
                        "model_beats",
                    ],
                    {
                        "human": "Human",
                        "n_items": "n",
                        "rho_model": "ρ model",
                        "rho_human": "ρ human",
                        "p_value": "p",
                        "p_adjusted": "p (BY)",
                        "model_beats": "model wins",
                    },
                    digits={"n_items": 0, "p_value": 4, "p_adjusted": 4},
                    caption=f"{m['name']}: the test per human",
                    max_rows=ctx.max_rows,
                )
            )
        if m["not_tested"]:
            body.append(
                "<p>Not tested (fewer than 30 shared items): "
                + ", ".join(f"{esc(h['human'])} ({h['n_items']})" for h in m["not_tested"])
                + ".</p>"
            )
        body.append(
            table_html(
                pd.DataFrame(m["agreement"]),
                [
                    "with",
                    "n_items",
                    "kappa",
                    "kappa_ci_low",
                    "kappa_ci_high",
                    "alpha",
                    "alpha_ci_low",
                    "alpha_ci_high",
                ],
                {
                    "with": "Model with",
                    "n_items": "n",
                    "kappa": "Cohen κ",
                    "kappa_ci_low": "low",
                    "kappa_ci_high": "high",
                    "alpha": "α",
                    "alpha_ci_low": "low",
                    "alpha_ci_high": "high",
                },
                digits={"n_items": 0},
                caption=f"{m['name']}: agreement with the human majority and each human",
                max_rows=ctx.max_rows,
            )
        )
    return Section("Model annotators", "\n".join(body), anchor="models")


def _competence_section(j: dict[str, Any], ctx: ReportContext) -> Section:
    comp = pd.DataFrame(j["competence"])
    wide = comp.pivot_table(
        index="annotator", columns="method", values="competence", sort=False
    ).reset_index()
    counts = comp.drop_duplicates("annotator").set_index("annotator")["n_responses"]
    wide.insert(1, "n_responses", wide["annotator"].map(counts))
    fit = j["competence_fit"]
    body = [
        table_html(
            wide.sort_values("dawid_skene", na_position="last"),
            [c for c in ("annotator", "n_responses", "dawid_skene", "mace") if c in wide],
            {
                "annotator": "Annotator",
                "n_responses": "responses",
                "dawid_skene": "Dawid–Skene",
                "mace": "MACE",
            },
            digits={"n_responses": 0},
            caption="Competence, least competent first (Dawid–Skene: probability of answering "
            "the true class; MACE: probability of knowing rather than guessing)",
            max_rows=ctx.max_rows,
        ),
        f"<p>Dawid–Skene reached its fixed point after {fit['dawid_skene']['iterations']} "
        f"iterations; MACE kept restart {fit['mace']['best_restart']} of 10 (seed "
        f"{fit['mace']['seed']}).</p>",
    ]
    inf = pd.DataFrame(j["inferred"])
    if len(inf):
        unsure = inf.sort_values("dawid_skene_posterior").reset_index(drop=True)
        body.append(
            table_html(
                unsure,
                ["item", "dawid_skene", "dawid_skene_posterior", "mace", "mace_posterior"],
                {
                    "item": "Item",
                    "dawid_skene": "Dawid–Skene",
                    "dawid_skene_posterior": "posterior",
                    "mace": "MACE",
                    "mace_posterior": "posterior",
                },
                caption="Inferred labels, least certain first (suggestions, not decisions)",
                max_rows=ctx.max_rows,
            )
        )
    return Section("Annotator competence", "\n".join(body), anchor="competence")


def batch_figure(j: dict[str, Any], key: str) -> Any:
    """Per batch the coefficient ``key`` with its interval, the study's value as a line."""
    from iaa_desktop.core.metrics.catalogue import title

    rows = [r for r in j["per_batch"] if r["overall"].get(key)]
    return charts.interval_dots(
        [r["batch"] for r in rows],
        [r["overall"][key]["value"] for r in rows],
        [r["overall"][key]["ci_low"] for r in rows],
        [r["overall"][key]["ci_high"] for r in rows],
        xlabel=title(key),
        reference=(j["overall"].get(key) or {}).get("value"),
    )


def _batch_section(j: dict[str, Any], key: str, ctx: ReportContext) -> Section:
    rows = [r for r in j["per_batch"] if r["overall"].get(key)]
    body = []
    if rows and ctx.charts:
        body.append(
            figure_html(
                batch_figure(j, key),
                "Agreement per batch with 95% intervals; the line is the whole study.",
            )
        )
    table = pd.DataFrame(
        [
            {
                "batch": r["batch"],
                "n_judgments": r["n_judgments"],
                "n_items": r["n_items"],
                "value": (r["overall"].get(key) or {}).get("value"),
                "ci_low": (r["overall"].get(key) or {}).get("ci_low"),
                "ci_high": (r["overall"].get(key) or {}).get("ci_high"),
                "below": "below the study" if key in r["below_study"] else "",
            }
            for r in j["per_batch"]
        ]
    )
    body.append(
        table_html(
            table,
            list(table.columns),
            {
                "batch": "Batch",
                "n_judgments": "judgments",
                "n_items": "pairable items",
                "value": "α",
                "ci_low": "low",
                "ci_high": "high",
                "below": "",
            },
            digits={"n_judgments": 0, "n_items": 0},
            caption="Agreement per batch (every coefficient in the CSV table per_batch)",
            max_rows=ctx.max_rows,
        )
    )
    return Section("Agreement over batches", "\n".join(body), anchor="batches")


def _retest_section(j: dict[str, Any], ctx: ReportContext) -> Section:
    rows = []
    for r in j["retest"]:
        row: dict[str, Any] = {
            "annotator": r["annotator"],
            "n_occasions": r["n_occasions"],
            "n_items": r["n_items"],
        }
        for k in ("krippendorff_alpha", "cohen_kappa_mean", "fleiss_kappa", "percent_agreement"):
            f = r.get(k) or {}
            row[k] = f.get("value")
            row[k + "_ci"] = f"[{fmt(f.get('ci_low'))}, {fmt(f.get('ci_high'))}]" if f else ""
        rows.append(row)
    if not rows:
        return Section(
            "Test–retest agreement",
            "<p>No annotator judged an item more than once.</p>",
            anchor="retest",
        )
    t = pd.DataFrame(rows)
    html = table_html(
        t,
        list(t.columns),
        {
            "annotator": "Annotator",
            "n_occasions": "occasions",
            "n_items": "items repeated",
            "krippendorff_alpha": "α",
            "krippendorff_alpha_ci": "95%",
            "cohen_kappa_mean": "mean Cohen κ",
            "cohen_kappa_mean_ci": "95%",
            "fleiss_kappa": "Fleiss κ",
            "fleiss_kappa_ci": "95%",
            "percent_agreement": "% agr.",
            "percent_agreement_ci": "95%",
        },
        digits={"n_occasions": 0, "n_items": 0},
        caption="Each annotator's agreement with themself over occasions",
        max_rows=ctx.max_rows,
    )
    return Section("Test–retest agreement", html, anchor="retest")


def planning_figure(curve: pd.DataFrame) -> Any:
    """Half-width against items, one line per coefficient (log scale of items)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.8, 3.2), dpi=100, layout="constrained")
    ax = fig.add_subplot(111)
    for metric, part in curve.groupby("metric", sort=False):
        ax.plot(part["n_items"], part["half_width"], marker="o", label=metric_title(str(metric)))
    ax.set_xscale("log")
    ax.set_xlabel("doubly annotated items")
    ax.set_ylabel("half-width of the 95% interval")
    ax.axvline(float(curve["study_items"].iloc[0]), color="#888", linestyle=":")
    ax.legend(fontsize=8)
    return fig


def _planning_section(j: dict[str, Any], ctx: ReportContext) -> Section:
    curve = pd.DataFrame(j["planning"])
    if not len(curve):
        return Section("Planning", "<p>Too few items to resample.</p>", anchor="planning")
    body = []
    if ctx.charts:
        body.append(
            figure_html(
                planning_figure(curve),
                "Half-width of the 95% interval against the number of doubly annotated items "
                "(dotted: this study's).",
            )
        )
    needed = pd.DataFrame(j["planning_needed"])
    if len(needed):
        needed["how"] = needed["extrapolated"].map({True: "extrapolated (1/√n)", False: ""})
        needed["metric"] = needed["metric"].map(metric_title)
        body.append(
            table_html(
                needed,
                ["metric", "half_width", "n_items", "how"],
                {
                    "metric": "Coefficient",
                    "half_width": "target half-width",
                    "n_items": "items needed",
                    "how": "",
                },
                digits={"n_items": 0, "half_width": 2},
                caption="Doubly annotated items needed for a target half-width",
            )
        )
    return Section("Planning", "\n".join(body), anchor="planning")


def add_sections(result: Any, ctx: ReportContext, kr: KindReport) -> None:
    """The sections of the annotator figures the result holds."""
    j = result.annotator_figures.to_json()
    if not j:
        return
    j["overall"] = {k: v.to_json() for k, v in result.overall.items()}
    if "model_annotators" in j:
        kr.sections.append(_models_section(j, ctx))
    if "competence" in j:
        kr.sections.append(_competence_section(j, ctx))
    if "per_batch" in j:
        key = (
            "krippendorff_alpha" if "krippendorff_alpha" in result.overall else "percent_agreement"
        )
        kr.sections.append(_batch_section(j, key, ctx))
    if "retest" in j:
        kr.sections.append(_retest_section(j, ctx))
    if "planning" in j:
        kr.sections.append(_planning_section(j, ctx))


def methods(result: Any) -> tuple[list[str], list[str]]:
    """Methods paragraphs of the annotator figures (none when there are none)."""
    j = result.annotator_figures.to_json()
    out: list[str] = []
    refs: list[str] = []
    if "model_annotators" in j:
        names = ", ".join(esc(m["name"]) for m in j["model_annotators"])
        eps = fmt(j["model_annotators"][0]["epsilon"], 2)
        out.append(
            f"The annotator(s) {names} were treated as models: they do not enter the human "
            "coefficients above. Each model was compared with the humans by the alternative "
            "annotator test (Calderon, Reichart &amp; Dror 2025), as the authors' reference "
            "program computes it: on the items judged by the model and at least two humans, each "
            "human with at least 30 such items is left out in turn, and the model's and that "
            "human's alignment with the remaining humans is scored per item (accuracy for "
            "categories, negative root mean squared difference for numbers); a tie counts as a "
            "win for both. A one-sided one-sample t-test asks whether the human wins more often "
            f"than the model by less than ε = {eps}, the allowance for the model's lower cost "
            "(the authors suggest 0.2 for experts, 0.15 for skilled annotators, 0.1 for crowd "
            "workers), and the Benjamini–Yekutieli procedure controls the false discovery rate "
            "at q = 0.05 over the humans tested (Benjamini &amp; Yekutieli 2001). The winning "
            "rate ω is the share of tested humans the model beats (the model passes when "
            "ω ≥ 0.5); the advantage probability ρ is the mean share of items on which the model "
            "is at least as good. The model's Cohen's κ and Krippendorff's α with each human and "
            "with the human majority (the most frequent human label, ties left out) are given "
            "with bootstrap intervals beside the humans' own pairwise range."
        )
        refs += ["calderon2025", "benjamini2001"]
    if "competence" in j:
        out.append(
            "Annotator competence and an inferred label per item were estimated by Dawid and "
            "Skene's (1979) model (a confusion matrix per annotator, maximum likelihood by EM "
            "started from each item's share of responses per class and iterated until no "
            "posterior changed by more than 10⁻⁸) and by MACE (Hovy et al. 2013; variational "
            "Bayes EM with its reference program's defaults: Beta(0.5, 0.5) prior, 50 "
            "iterations, the best of 10 random starts, seed "
            f"{j['competence_fit']['mace']['seed']}). Every response counts, an annotator's "
            "repeated judgments included; labels are treated as unordered categories. Both "
            "assume that annotators err independently given the true class; the inferred labels "
            "are suggestions for adjudication, not decisions."
        )
        refs += ["dawid1979", "hovy2013"]
    if "per_batch" in j:
        out.append(
            "For agreement over batches, the judgments carrying each value of the column "
            f"‘{esc(result.chosen.batch_column)}’"
            + (f" (binned: {esc(result.chosen.batch_size)})" if result.chosen.batch_size else "")
            + " form a study of their own (one item may fall in several batches), for which "
            "every coefficient and its bootstrap interval were computed as for the whole study; "
            "a batch is flagged when its interval lies wholly below the study's."
        )
    if "retest" in j:
        out.append(
            "Test–retest (intra-annotator) agreement treats each annotator's occasions "
            + (
                f"(the column ‘{esc(result.chosen.occasion_column)}’)"
                if result.chosen.occasion_column
                else "(the order of their repeated judgments in the files)"
            )
            + " as if they were annotators (the agreement between annotators uses each one's "
            "first occasion): Krippendorff's α, the mean Cohen's κ over pairs of "
            "occasions, Fleiss' κ over occasions and percent agreement, on the items the "
            "annotator judged more than once, with bootstrap intervals (Krippendorff 2004, "
            "stability)."
        )
    if "planning" in j:
        out.append(
            "The planning curve resamples the study's doubly annotated items with replacement "
            "at increasing sizes (1,000 resamples each unless set otherwise) and gives the "
            "half-width of the central 95% interval of each coefficient at each size; items "
            "needed beyond the largest size are extrapolated by the 1/√n law. It assumes that "
            "future items resemble the study's."
        )
    return out, refs

"""Report sections and methods paragraphs of the annotator figures every kind with an items ×
annotators matrix shares: model annotators (the alternative annotator test), annotator
competence (Dawid–Skene, MACE), agreement over batches, test–retest agreement and planning."""

from __future__ import annotations

from typing import Any

import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import figure_html, fmt, table_html
from iaa_desktop.core.export.methods_text import esc
from iaa_desktop.core.export.report import ReportContext, Section
from iaa_desktop.core.metrics.catalogue import title as metric_title

__all__ = [
    "PLANNING_METHODS",
    "batch_figure",
    "batch_methods",
    "batch_section",
    "label_batch_figure",
    "label_batch_section",
    "retest_methods",
    "retest_section",
    "competence_methods",
    "competence_section",
    "models_methods",
    "models_section",
    "planning_figure",
    "planning_section",
]


def models_section(
    j: dict[str, Any], ctx: ReportContext, title: str = "Model annotators", anchor: str = "models"
) -> Section:
    """The section of ``model_annotators[]``: the alt-test verdict, per human, the agreement."""
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
    return Section(title, "\n".join(body), anchor=anchor)


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


def planning_section(
    j: dict[str, Any], ctx: ReportContext, title: str = "Planning", anchor: str = "planning"
) -> Section:
    """The section of ``planning[]``: the curve and the items needed per target half-width."""
    curve = pd.DataFrame(j["planning"])
    if not len(curve):
        return Section(title, "<p>Too few items to resample.</p>", anchor=anchor)
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
    return Section(title, "\n".join(body), anchor=anchor)


def models_methods(j: dict[str, Any]) -> str:
    """The methods paragraph of ``model_annotators[]`` (Calderon et al. 2025; Benjamini &
    Yekutieli 2001)."""
    names = ", ".join(esc(m["name"]) for m in j["model_annotators"])
    eps = fmt(j["model_annotators"][0]["epsilon"], 2)
    return (
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


#: the methods paragraph of ``planning[]``
PLANNING_METHODS = (
    "The planning curve resamples the study's doubly annotated items with replacement "
    "at increasing sizes (1,000 resamples each unless set otherwise) and gives the "
    "half-width of the central 95% interval of each coefficient at each size; items "
    "needed beyond the largest size are extrapolated by the 1/√n law. It assumes that "
    "future items resemble the study's."
)


def _fit_text(fit: dict[str, Any]) -> str:
    return (
        f"Dawid–Skene reached its fixed point after {fit['dawid_skene']['iterations']} "
        f"iterations; MACE kept restart {fit['mace']['best_restart']} of 10 (seed "
        f"{fit['mace']['seed']})"
    )


def competence_section(
    j: dict[str, Any],
    ctx: ReportContext,
    title: str = "Annotator competence",
    anchor: str = "competence",
) -> Section:
    """The section of ``competence[]`` and ``inferred[]``: each annotator's competence by both
    methods (least competent first) and the inferred labels, least certain first. Rows with a
    ``label`` (one fit per label, ``competence_fit`` keyed by label) are shown per label."""
    comp = pd.DataFrame(j["competence"])
    per_label = "label" in comp.columns
    index = ["label", "annotator"] if per_label else ["annotator"]
    wide = comp.pivot_table(
        index=index, columns="method", values="competence", sort=False
    ).reset_index()
    counts = comp.drop_duplicates(index).set_index(index)["n_responses"]
    wide.insert(len(index), "n_responses", counts.loc[wide.set_index(index).index].to_numpy())
    fit = j["competence_fit"]
    if per_label:
        fits = "; ".join(f"{esc(str(lab))}: {_fit_text(f)}" for lab, f in fit.items())
    else:
        fits = _fit_text(fit)
    order = ["label", "dawid_skene"] if per_label else ["dawid_skene"]
    body = [
        table_html(
            wide.sort_values(order, na_position="last"),
            [c for c in ("label", "annotator", "n_responses", "dawid_skene", "mace") if c in wide],
            {
                "label": "Label",
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
        f"<p>{fits}.</p>",
    ]
    inf = pd.DataFrame(j["inferred"])
    if len(inf):
        unsure = inf.sort_values("dawid_skene_posterior").reset_index(drop=True)
        body.append(
            table_html(
                unsure,
                [
                    c
                    for c in (
                        "label",
                        "item",
                        "dawid_skene",
                        "dawid_skene_posterior",
                        "mace",
                        "mace_posterior",
                    )
                    if c in unsure
                ],
                {
                    "label": "Label",
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
    return Section(title, "\n".join(body), anchor=anchor)


def competence_methods(j: dict[str, Any], responses: str = "") -> str:
    """The methods paragraph of ``competence[]`` (Dawid &amp; Skene 1979; Hovy et al. 2013);
    ``responses`` says what a response is (default: every response, repeats included)."""
    fit = j["competence_fit"]
    seed = fit["mace"]["seed"] if "mace" in fit else next(iter(fit.values()))["mace"]["seed"]
    counted = responses or (
        "Every response counts, an annotator's repeated judgments included; labels are "
        "treated as unordered categories."
    )
    return (
        "Annotator competence and an inferred label per item were estimated by Dawid and "
        "Skene's (1979) model (a confusion matrix per annotator, maximum likelihood by EM "
        "started from each item's share of responses per class and iterated until no "
        "posterior changed by more than 10⁻⁸) and by MACE (Hovy et al. 2013; variational "
        "Bayes EM with its reference program's defaults: Beta(0.5, 0.5) prior, 50 "
        f"iterations, the best of 10 random starts, seed {seed}). {counted} Both "
        "assume that annotators err independently given the true class; the inferred labels "
        "are suggestions for adjudication, not decisions."
    )


def batch_figure(j: dict[str, Any], key: str) -> Any:
    """Per batch the coefficient ``key`` with its interval, the study's value as a line."""
    rows = [r for r in j["per_batch"] if r["overall"].get(key)]
    return charts.interval_dots(
        [r["batch"] for r in rows],
        [r["overall"][key]["value"] for r in rows],
        [r["overall"][key]["ci_low"] for r in rows],
        [r["overall"][key]["ci_high"] for r in rows],
        xlabel=metric_title(key),
        reference=(j["overall"].get(key) or {}).get("value"),
    )


def batch_section(j: dict[str, Any], key: str, ctx: ReportContext) -> Section:
    """The section of ``per_batch[]`` on the coefficient ``key`` (``j["overall"]``: the
    study's figures, the chart's line)."""
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


#: the most batches whose labels are written under the per-label chart's axis
_MAX_BATCH_TICKS = 24


def label_batch_figure(j: dict[str, Any], key: str, labels: list[str] | None = None) -> Any:
    """Per batch the coefficient ``key`` with its 95% interval, one line per label (the rows of
    ``per_batch[]`` name a ``label``; ``labels``: those drawn, default every one), the batches
    in order along the axis; each label's whole-study value (``j["per_batch_study"][label]``)
    a dotted line in its colour."""
    import matplotlib
    from matplotlib.figure import Figure

    rows = j["per_batch"]
    batches = list(dict.fromkeys(str(r["batch"]) for r in rows))
    shown = labels or list(dict.fromkeys(str(r["label"]) for r in rows))
    x_of = {b: n for n, b in enumerate(batches)}
    fig = Figure(figsize=(6.8, 3.2), dpi=100, layout="constrained")
    ax = fig.add_subplot(111)
    shift = 0.25 / max(1, len(shown))
    cmap = matplotlib.colormaps["tab20"]  # up to 20 labels told apart (the default cycle: 10)
    for n, lab in enumerate(shown):
        mine = [r for r in rows if str(r["label"]) == lab and (r["overall"].get(key) or {})]
        xs = [x_of[str(r["batch"])] + (n - (len(shown) - 1) / 2) * shift for r in mine]
        fs = [r["overall"][key] for r in mine]
        vs = [f["value"] if f["value"] is not None else float("nan") for f in fs]
        colour = f"C{n}" if len(shown) <= 10 else cmap(n % 20)
        ax.plot(xs, vs, "-o", color=colour, ms=4, lw=1.2, label=lab)
        for x, f in zip(xs, fs):
            if f["ci_low"] is not None and f["ci_high"] is not None:
                ax.vlines(x, f["ci_low"], f["ci_high"], color=colour, lw=1, alpha=0.7)
        study = (j.get("per_batch_study", {}).get(lab) or {}).get(key) or {}
        if study.get("value") is not None:
            ax.axhline(study["value"], color=colour, lw=0.8, ls=":")
    step = max(1, -(-len(batches) // _MAX_BATCH_TICKS))
    ticks = list(range(0, len(batches), step))
    ax.set_xticks(ticks, labels=[batches[t] for t in ticks], rotation=30, ha="right", fontsize=7)
    ax.set_ylabel(f"{metric_title(key)} (95% interval)")
    # beside the axes, clear of the intervals
    ax.legend(
        fontsize=8, title="label", title_fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1)
    )
    return fig


def label_batch_section(j: dict[str, Any], key: str, ctx: ReportContext) -> Section:
    """The section of ``per_batch[]`` rows that name a ``label`` (agreement per batch and label):
    one chart of ``key`` per batch with a line per label, one table of every label's batches
    (``j["per_batch_study"]``: the study's figures per label)."""
    rows = j["per_batch"]
    body = []
    if any(r["overall"].get(key) for r in rows) and ctx.charts:
        body.append(
            figure_html(
                label_batch_figure(j, key),
                "Agreement per batch and label with 95% intervals; the dotted lines are the "
                "whole study's, in the label's colour.",
            )
        )
    table = pd.DataFrame(
        [
            {
                "label": r["label"],
                "batch": r["batch"],
                "n_judgments": r["n_judgments"],
                "n_items": r["n_items"],
                "value": (r["overall"].get(key) or {}).get("value"),
                "ci_low": (r["overall"].get(key) or {}).get("ci_low"),
                "ci_high": (r["overall"].get(key) or {}).get("ci_high"),
                "study": ((j.get("per_batch_study", {}).get(r["label"]) or {}).get(key) or {}).get(
                    "value"
                ),
                "below": "below the study" if key in r["below_study"] else "",
            }
            for r in rows
        ]
    )
    if len(table):
        body.append(
            table_html(
                table,
                list(table.columns),
                {
                    "label": "Label",
                    "batch": "Batch",
                    "n_judgments": "annotations",
                    "n_items": "pairable items",
                    "value": metric_title(key),
                    "ci_low": "low",
                    "ci_high": "high",
                    "study": "study",
                    "below": "",
                },
                digits={"n_judgments": 0, "n_items": 0},
                caption="Agreement per batch and label (every coefficient in the CSV table "
                "per_batch)",
                max_rows=ctx.max_rows,
            )
        )
    return Section("Agreement over batches", "\n".join(body), anchor="batches")


def retest_section(j: dict[str, Any], ctx: ReportContext) -> Section:
    """The section of ``retest[]``: each annotator's agreement with themself (per label when
    the rows name a ``label``)."""
    rows = []
    for r in j["retest"]:
        row: dict[str, Any] = {
            **({"label": r["label"]} if "label" in r else {}),
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
            "label": "Label",
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


def batch_methods(column: str, size: str = "", first: str = "the judgments") -> str:
    """The methods paragraph of ``per_batch[]``: batches by ``column`` (binned by ``size``);
    ``first`` names what a batch holds."""
    return (
        f"For agreement over batches, {first} carrying each value of the column "
        f"‘{esc(column)}’"
        + (f" (binned: {esc(size)})" if size else "")
        + " form a study of their own (one item may fall in several batches), for which "
        "every coefficient and its bootstrap interval were computed as for the whole study; "
        "a batch is flagged when its interval lies wholly below the study's."
    )


def retest_methods(occasion_column: str = "", inter: str = "") -> str:
    """The methods paragraph of ``retest[]``: occasions told apart by ``occasion_column`` (or
    file order); ``inter`` says which judgments the agreement between annotators uses (default:
    each one's first occasion)."""
    return (
        "Test–retest (intra-annotator) agreement treats each annotator's occasions "
        + (
            f"(the column ‘{esc(occasion_column)}’)"
            if occasion_column
            else "(the order of their repeated judgments in the files)"
        )
        + " as if they were annotators (the agreement between annotators uses "
        + (inter or "each one's first occasion")
        + "): Krippendorff's α, the mean Cohen's κ over pairs of "
        "occasions, Fleiss' κ over occasions and percent agreement, on the items the "
        "annotator judged more than once, with bootstrap intervals (Krippendorff 2004, "
        "stability)."
    )


def annotator_sections(j: dict[str, Any], ctx: ReportContext) -> list[Section]:
    """The sections of a kind's annotator figures (``annotator_figures.to_json()``) in the
    report's order — model annotators, competence, Krippendorff's α per batch, test–retest,
    planning — each only when the study asked for it."""
    out = []
    if "model_annotators" in j:
        out.append(models_section(j, ctx))
    if "competence" in j:
        out.append(competence_section(j, ctx))
    if "per_batch" in j:
        study = {**j, "overall": j["per_batch_study"]}
        out.append(batch_section(study, "krippendorff_alpha", ctx))
    if "retest" in j:
        out.append(retest_section(j, ctx))
    if "planning" in j:
        out.append(planning_section(j, ctx))
    return out

"""Report sections of the ``candidates`` kind (candidate text-reuse pairs, multi-κ)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import (
    figure_html,
    legend_outside,
    pair_heatmap_html,
    table_html,
)
from iaa_desktop.core.export.methods_text import esc
from iaa_desktop.core.export.report import KindReport, ReportContext, Section, SummaryRow
from iaa_desktop.core.export.worst_pairs import worst_pairs_section
from iaa_desktop.core.kinds.annotators.report import (
    PLANNING_METHODS,
    annotator_sections,
    batch_methods,
    competence_methods,
    models_methods,
    retest_methods,
)
from iaa_desktop.core.kinds.candidates.options import CandidatesOptions

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.candidates.compare import CandidatesResult

K_HEADERS = {
    "factor": "Factor",
    "level": "Level",
    "a": "A",
    "b": "B",
    "n_items": "n",
    "multi_kappa": "multi-κ",
    "bayes_median": "median",
    "low89": "89% low",
    "high89": "89% high",
    "low95": "95% low",
    "high95": "95% high",
    "observed": "A_o",
    "expected": "A_e",
}


#: factors with at most this many levels share the main forest plot
FOREST_ROWS_SHARED = 12
FOREST_CHUNK = 32


#: factor keys as the report prints them
FACTOR_TITLES = {"overlap_bin": "lexical overlap (quantile bin)"}


def _float(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _row(name: str, k: dict[str, Any], n: Any) -> SummaryRow:
    lo, hi = k.get("bayes_95", (math.nan, math.nan))
    return SummaryRow(
        name,
        k.get("value", math.nan),
        lo if lo is not None else math.nan,
        hi if hi is not None else math.nan,
        n,
        "kappa",
        note=f"posterior median {k.get('bayes_median', math.nan):.3f}; 89% "
        f"[{k.get('bayes_89', (math.nan,) * 2)[0]:.3f}, {k.get('bayes_89', (math.nan,) * 2)[1]:.3f}]",
    )


def summary(result: CandidatesResult) -> tuple[list[SummaryRow], str]:
    """The headline coefficients (rows of the summary table) and their caption."""
    mk = result.overall.get("multi_kappa", {})
    rows = [_row("multi-κ (Hubert), all pairs", mk, mk.get("n_items"))]
    for p in result.pairwise:
        k = p.get("multi_kappa", p)
        rows.append(_row(f"κ, annotators {p['a']} – {p['b']}", k, p.get("n_items")))
    caption = f"{len(result.pairs):,} candidate pairs, {len(result.annotators)} annotators; intervals: 95% posterior"
    return rows, caption


def build(result: CandidatesResult, ctx: ReportContext) -> KindReport:
    """The kind's report: κ by factor level, annotator pairs, the agreement model (when fitted),
    the most disagreeing pairs."""
    paragraphs, refs = methods(result)
    kr = KindReport(methods=paragraphs, references=refs, annotators=list(result.annotators))
    kr.summary, kr.summary_caption = summary(result)
    tables = result.tables()
    sections = [
        _factors_section(result, ctx, tables.get("by_factor", pd.DataFrame()), kr.tables),
        _pairs_section(result, ctx, tables.get("pairwise", pd.DataFrame()), kr.tables),
    ]
    if getattr(result, "model", None) is not None:
        from iaa_desktop.core.kinds.candidates.model.report import section as model_section

        sections.append(model_section(result.model, ctx.charts, ctx.max_rows))
    sections.append(worst_pairs_section(result, result.pairs, "Ten disagreeing candidate pairs"))
    kr.sections.extend(s for s in sections if s is not None)
    j = result.annotator_figures.to_json()
    kr.sections.extend(annotator_sections(j, ctx))
    return kr


def _factors_section(
    result: CandidatesResult, ctx: ReportContext, bf: pd.DataFrame, tables: dict[str, pd.DataFrame]
) -> Section:
    """κ by factor level: the forest plots, the overlap curve and the table, lowest first."""
    body = _factor_charts(result) if ctx.charts else []
    if len(bf):
        worst = bf.sort_values(["factor", "multi_kappa"], na_position="first").reset_index(
            drop=True
        )
        tables["by_factor_worst_first"] = worst
        cols = [
            c
            for c in (
                "factor",
                "level",
                "n_items",
                "multi_kappa",
                "bayes_median",
                "low95",
                "high95",
                "observed",
                "expected",
            )
            if c in worst.columns
        ]
        # the overlap bins are a factor of the table under a key name; a reader gets words
        shown = worst.assign(factor=worst["factor"].replace(FACTOR_TITLES))
        body.append(
            table_html(
                shown,
                cols,
                K_HEADERS,
                digits={"n_items": 0},
                caption="multi-κ per factor level, lowest first within each factor",
                max_rows=max(ctx.max_rows, 70),
            )
        )
    return Section("κ by factor level", "\n".join(body), anchor="factors")


def _factor_charts(result: CandidatesResult) -> list[str]:
    """Factors with few levels share one forest plot (as in the GUI), then the overlap curve; a
    factor with many levels (e.g. the source book) gets its own, sorted, in chunks that fit on a
    page."""
    from iaa_desktop.core.kinds.candidates.charts import forest_figure, overlap_curve_figure

    small = [
        f for f, lv in result.by_factor.items() if f != "overlap" and len(lv) <= FOREST_ROWS_SHARED
    ]
    body = [
        figure_html(
            forest_figure(result, factors=small),
            "multi-κ by factor level: posterior median (circle), 89% (thick) and 95% (thin) "
            "intervals, point estimate (bar); dashed: overall.",
        )
    ]
    if result.by_overlap_bin:
        body.append(
            figure_html(
                legend_outside(overlap_curve_figure(result)),
                "Agreement against lexical overlap (quantile bins).",
                max_width_in=6.9,
            )
        )
    for f, levels in result.by_factor.items():
        if f != "overlap" and len(levels) > FOREST_ROWS_SHARED:
            body.extend(_large_factor_forests(f, levels))
    return body


def _large_factor_forests(factor: str, levels: list[dict[str, Any]]) -> list[str]:
    """Forest plots of one factor's levels, lowest posterior median first, in chunks of
    :data:`FOREST_CHUNK` levels."""
    rows = sorted(
        levels,
        key=lambda lv: (
            math.isnan(_float(lv["multi_kappa"].get("bayes_median"))),
            _float(lv["multi_kappa"].get("bayes_median")),
        ),
    )
    out = []
    for start in range(0, len(rows), FOREST_CHUNK):
        part = rows[start : start + FOREST_CHUNK]
        lo = [_float((lv["multi_kappa"].get("bayes_95") or (math.nan, math.nan))[0]) for lv in part]
        hi = [_float((lv["multi_kappa"].get("bayes_95") or (math.nan, math.nan))[1]) for lv in part]
        out.append(
            figure_html(
                charts.forest(
                    [f"{lv['level']} (n={lv['n_items']})" for lv in part],
                    [_float(lv["multi_kappa"].get("bayes_median")) for lv in part],
                    lo,
                    hi,
                    xlabel="multi-κ (posterior median, 95% interval)",
                ),
                f"multi-κ per level of ‘{factor}’, lowest first"
                + (
                    f" (levels {start + 1}–{start + len(part)} of {len(rows)})"
                    if len(rows) > FOREST_CHUNK
                    else ""
                )
                + ".",
            )
        )
    return out


def _pairs_section(
    result: CandidatesResult, ctx: ReportContext, pw: pd.DataFrame, tables: dict[str, pd.DataFrame]
) -> Section | None:
    """κ per annotator pair: the table and the heatmap."""
    if not len(pw):
        return None
    body = [
        table_html(
            pw,
            [c for c in K_HEADERS if c in pw.columns],
            K_HEADERS,
            digits={"n_items": 0},
            caption="Annotator pairs",
        )
    ]
    if ctx.charts:
        body.append(
            pair_heatmap_html(
                tables,
                "pair_matrix_kappa",
                list(result.annotators),
                pw,
                "multi_kappa",
                "Pairwise κ",
                "Cohen's κ per annotator pair.",
            )
        )
    return Section("Annotator pairs", "\n".join(body), anchor="pairs")


def methods(result: CandidatesResult) -> tuple[list[str], list[str]]:
    o: CandidatesOptions = result.chosen
    n = (
        getattr(result, "overall", {}).get("multi_kappa", {}).get("n_items", 0)
        if isinstance(getattr(result, "overall", None), dict)
        else 0
    )
    factors = list(getattr(result, "by_factor", {}) or {})
    p1 = (
        f"Candidate text-reuse pairs ({n:,}) judged accept/reject by {len(result.annotators)} annotators were compared "
        "with Hubert's multi-κ (Hubert 1977; the multi-annotator κ of the Bernard of Clairvaux intertextuality study): observed agreement as in "
        "Fleiss' κ, expected agreement the mean over annotator pairs of the chance agreement from each annotator's "
        "own label distribution. Uncertainty comes from the conjugate Bayesian model: per annotator pair, the "
        "pairwise outcomes follow a Dirichlet(1 + counts) posterior; each of "
        f"{result.interval.resamples:,} draws (seed {result.interval.seed}) gives an observed agreement, with the "
        "expected agreement fixed from the data; the median and the central 89% and 95% intervals are reported."
    )
    p2 = (
        "Lexical overlap of each pair is the weighted Jaccard index over word types (lemmas where given, else "
        f"lower-cased tokens); pairs are grouped into {o.bins} quantile bins of overlap. Agreement is "
        "given overall, per annotator pair, per level of each factor"
        + (" (" + ", ".join(esc(f) for f in factors if f != "overlap") + ")" if factors else "")
        + " and per overlap bin, each subset on its own. κ bands follow Landis &amp; Koch (1977), a convention, "
        "not a verdict."
    )
    paragraphs, refs = [p1, p2], list[str]()
    if getattr(result, "model", None) is None:
        paragraphs[1] += (
            " These intervals treat each subset on its own; the hierarchical agreement model "
            "(all factors and annotator pairs at once) was not fitted for this report."
        )
    else:
        from iaa_desktop.core.kinds.candidates.model.report import methods as model_methods

        paragraphs, refs = model_methods(result.model)
        paragraphs = [p1, p2, *paragraphs]
    figures = getattr(result, "annotator_figures", None)
    j = figures.to_json() if figures is not None else {}
    if "model_annotators" in j:
        paragraphs.append(
            "For the model annotators' figures and the planning curve, each candidate pair is an "
            "item and each annotator's label a nominal category, as multi-κ counts it (the "
            "alternative annotator test scores accuracy; α is nominal). " + models_methods(j)
        )
        refs = [*refs, "calderon2025", "benjamini2001"]
    if "competence" in j:
        paragraphs.append(
            competence_methods(
                j,
                "Each candidate pair is an item and every label of the labels table a response, "
                "an annotator's repeated labels of a pair included (also those labelled two ways, "
                "which the other figures leave out); labels are treated as unordered categories.",
            )
        )
        refs = [*refs, "dawid1979", "hovy2013"]
    if "per_batch" in j or "retest" in j:
        paragraphs.append(
            "For agreement per batch and test–retest agreement, each candidate pair is an item "
            "and each label a nominal category, and the coefficients are those a judgment table "
            "of those labels reports (Krippendorff's α, Fleiss' κ, the mean Cohen's κ, percent "
            "agreement and the others) with bootstrap intervals, not multi-κ; the whole "
            "study's figures a batch is compared with are the same coefficients on all the "
            "human annotators' labels."
        )
        refs = [*refs, "krippendorff2004"]
    if "per_batch" in j:
        paragraphs.append(
            batch_methods(o.batch_column, o.batch_size, "the human annotators' labels")
            + " An annotator's repeated labels of a pair inside a batch count once when "
            "identical and are left out when they differ, as in the whole study."
        )
    if "retest" in j:
        paragraphs.append(
            retest_methods(
                o.occasion_column,
                "each one's labels with identical repeats counted once and differing ones left out",
            )
        )
    if "planning" in j:
        paragraphs.append(
            ("" if "model_annotators" in j else "Each candidate pair an item, the labels nominal: ")
            + PLANNING_METHODS
        )
    return paragraphs, [
        *refs,
        "seed_candidates",
        "hubert1977",
        "fleiss1971",
        "artstein2008",
        "landis1977",
        "smith1981",
    ]

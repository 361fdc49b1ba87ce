"""Report sections of the generic ``table`` kind."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import figure_html, matrix_html, table_html
from iaa_desktop.core.export.methods_text import (
    esc,
    interval_sentence,
    values_of,
)
from iaa_desktop.core.export.report import KindReport, ReportContext, Section, SummaryRow

_SCALES = {
    "percent_agreement": None,
    "krippendorff_alpha": "alpha",
    "spearman_weighted": None,
}

PAIR_HEADERS = {
    "a": "A",
    "b": "B",
    "n_items": "n",
    "percent_agreement": "% agr.",
    "cohen_kappa": "Cohen κ",
    "scott_pi": "Scott π",
    "krippendorff_alpha": "α",
    "weighted_kappa_linear": "κ lin.",
    "weighted_kappa_quadratic": "κ quad.",
    "spearman": "ρ",
}


def summary_rows(overall: dict[str, Any], titles: dict[str, str]) -> list[SummaryRow]:
    rows = []
    for key, r in overall.items():
        note = ""
        if "bayes_median" in r.extra:
            note = f"posterior median {r.extra['bayes_median']:.3f}"
        rows.append(
            SummaryRow(
                titles.get(key, key),
                r.value,
                r.ci_low,
                r.ci_high,
                r.n_items,
                _SCALES.get(key, "kappa"),
                note=note,
            )
        )
    return rows


def category_label(c: Any) -> str:
    """A category as text: numeric judgments read as floats print as the integers they are."""
    if isinstance(c, float) and math.isfinite(c) and c.is_integer():
        return str(int(c))
    s = str(c)
    if s.endswith(".0") and s[:-2].lstrip("-").isdigit():  # the same, already as text
        return s[:-2]
    return s


def summary(result: Any) -> tuple[list[SummaryRow], str]:
    """The headline coefficients (rows of the summary table) and their caption."""
    from iaa_desktop.core.kinds.table.compare import METRIC_TITLES

    return (
        summary_rows(result.overall, METRIC_TITLES),
        f"{result.n_items:,} items, {len(result.annotators)} annotators, {result.level} level",
    )


def build(result: Any, ctx: ReportContext) -> KindReport:
    """The report section of a table result: annotator pairs, groups, items, categories."""
    paragraphs, refs = methods(result)
    kr = KindReport(methods=paragraphs, references=refs, annotators=list(result.annotators))
    kr.summary, kr.summary_caption = summary(result)
    _pairs_section(result, ctx, kr)
    if result.groups:
        _groups_section(result, ctx, kr)
    _items_section(result, ctx, kr)
    _categories_section(result, ctx, kr)
    if getattr(result, "annotator_figures", None):
        from iaa_desktop.core.kinds.table import annotators_report

        annotators_report.add_sections(result, ctx, kr)
    return kr


def _pairs_section(result: Any, ctx: ReportContext, kr: KindReport) -> None:
    pw = result.pairwise
    measure = "krippendorff_alpha" if "krippendorff_alpha" in pw.columns else "cohen_kappa"
    html = []
    if len(pw):
        ordered = pw.sort_values(measure, na_position="last").reset_index(drop=True)
        cols = [c for c in PAIR_HEADERS if c in ordered.columns]
        html.append(
            table_html(
                ordered,
                cols,
                PAIR_HEADERS,
                digits={"n_items": 0},
                caption="Annotator pairs, least agreeing first",
                max_rows=ctx.max_rows,
            )
        )
        if ctx.charts:
            m = result.pair_matrix(measure)
            html.append(
                matrix_html(
                    m,
                    f"Pairwise {PAIR_HEADERS[measure]}",
                    f"Pairwise {'Krippendorff’s α' if measure == 'krippendorff_alpha' else 'Cohen’s κ'} per annotator pair.",
                )
            )
            kr.tables["pair_matrix"] = m.rename_axis("annotator").reset_index(
                allow_duplicates=True  # an annotator may be called "annotator"
            )
    kr.sections.append(Section("Annotator pairs", "\n".join(html), anchor="pairs"))


def _groups_section(result: Any, ctx: ReportContext, kr: KindReport) -> None:
    """Per document / per value of a column, worst first, with intervals."""
    # the coefficient whose intervals were computed: α with the bootstrap, multi-κ with bayes
    key = "multi_kappa" if result.interval.method == "bayes" else "krippendorff_alpha"
    name = "multi-κ" if key == "multi_kappa" else "α"
    long_name = "multi-κ" if key == "multi_kappa" else "Krippendorff's α"
    rows = []
    for g in result.groups:
        r = g.overall.get(key)
        k = g.overall.get("fleiss_kappa")
        p = g.overall.get("percent_agreement")
        a = g.overall.get("krippendorff_alpha")
        rows.append(
            {
                "group": g.group,
                "n_items": g.n_items,
                "value": r.value if r else math.nan,
                "low": r.ci_low if r else math.nan,
                "high": r.ci_high if r else math.nan,
                "krippendorff_alpha": a.value if a else math.nan,
                "fleiss_kappa": k.value if k else math.nan,
                "percent_agreement": p.value if p else math.nan,
            }
        )
    gdf = pd.DataFrame(rows).sort_values("value", na_position="first").reset_index(drop=True)
    kr.tables["groups_worst_first"] = gdf
    cols = ["group", "n_items", "value", "low", "high", "fleiss_kappa", "percent_agreement"]
    if key != "krippendorff_alpha":
        cols.insert(5, "krippendorff_alpha")
    by = esc(result.chosen.group_by)
    body = [
        table_html(
            gdf,
            cols,
            {
                "n_items": "n",
                "value": name,
                "low": f"{name} low",
                "high": f"{name} high",
                "krippendorff_alpha": "α",
                "fleiss_kappa": "Fleiss κ",
                "percent_agreement": "% agr.",
            },
            digits={"n_items": 0},
            max_rows=ctx.max_rows,
            caption=f"Per {by}, worst first",
        )
    ]
    if ctx.charts:
        top = gdf.head(ctx.max_rows)
        overall = result.overall.get(key)
        body.append(
            figure_html(
                charts.interval_dots(
                    top["group"],
                    top["value"],
                    top["low"],
                    top["high"],
                    xlabel=long_name,
                    reference=overall.value if overall else None,
                ),
                f"{long_name} per {by} with its 95% interval, worst first; dashed: overall.",
            )
        )
    kr.sections.append(Section(f"Per {by}", "\n".join(body), anchor="groups"))


def _items_section(result: Any, ctx: ReportContext, kr: KindReport) -> None:
    """Items, most disagreeing first."""
    items = result.items
    if not len(items):
        return
    sort_cols = [c for c in ("disagreement", "range") if c in items.columns]
    worst = items.sort_values(sort_cols, ascending=False, kind="stable") if sort_cols else items
    many = len(result.annotators) > 6
    kr.sections.append(
        Section(
            "Items, most disagreeing first",
            table_html(
                worst,
                digits={"n_labels": 0},
                max_rows=ctx.max_rows,
                cls="wide" if many or worst.shape[1] > 9 else "",
            ),
            anchor="items",
        )
    )


def _categories_section(result: Any, ctx: ReportContext, kr: KindReport) -> None:
    """Per category, and the coincidence matrix."""
    body = []
    if len(result.per_category):
        pc = result.per_category.copy()
        if "category" in pc.columns:
            pc["category"] = [category_label(c) for c in pc["category"]]
        body.append(table_html(pc, caption="Per category", digits={"n_labels": 0}))
    if result.coincidence.size and ctx.charts:
        cats = [category_label(c) for c in result.categories]
        body.append(
            figure_html(
                charts.count_matrix(result.coincidence, cats, title="Coincidence matrix", digits=1),
                "Krippendorff's coincidence matrix (pairable values counted 1/(m−1) per pair).",
            )
        )
    if body:
        kr.sections.append(Section("Categories", "\n".join(body), anchor="categories"))


def _coefficient_phrases(names: list[str]) -> tuple[list[str], list[str]]:
    """One phrase (with its citation) per coefficient of the result, and the references."""
    refs: list[str] = []
    coeffs = []
    if "percent_agreement" in names:
        coeffs.append(
            "percent agreement (the share of agreeing annotator pairs per item, averaged over items)"
        )
    if "cohen_kappa_mean" in names:
        coeffs.append(
            "Cohen's κ (Cohen 1960) and Scott's π (Scott 1955), each averaged over annotator pairs"
        )
        refs += ["cohen1960", "scott1955"]
    if "fleiss_kappa" in names:
        coeffs.append(
            "Fleiss' κ (Fleiss 1971; π* in Artstein &amp; Poesio 2008), whose chance agreement "
            "with missing labels averages each item's label shares (Gwet 2014)"
        )
        refs += ["fleiss1971", "gwet2014"]
    if "multi_kappa" in names:
        coeffs.append("Hubert's multi-κ (Hubert 1977), which is Conger's κ (Conger 1980)")
        refs += ["hubert1977", "conger1980"]
    if "gwet_ac1" in names:
        coeffs.append("Gwet's AC1 (Gwet 2008)")
        refs.append("gwet2008")
    if "bennett_s" in names:
        coeffs.append(
            "Bennett's S, chance 1/q for q categories (Bennett et al. 1954; Randolph's "
            "free-marginal κ, Randolph 2005)"
        )
        refs += ["bennett1954", "randolph2005"]
    if "weighted_kappa_linear_mean" in names:
        coeffs.append(
            "weighted κ with linear and quadratic weights from the category values (Cohen 1968), "
            "averaged over pairs, and Gwet's AC2 with the same weights (Gwet 2014)"
        )
        refs += ["cohen1968", "gwet2014"]
    if "spearman_weighted" in names:
        coeffs.append(
            "Spearman's ρ per annotator pair, averaged with weights equal to the number of items both judged"
        )
    return coeffs, refs


def methods(result: Any) -> tuple[list[str], list[str]]:
    o = result.chosen
    level = result.level
    n_ann = len(getattr(result, "annotators", ()))
    names = [m for m in getattr(result, "overall", {})]
    refs = ["artstein2008", "krippendorff2011", "landis1977", "krippendorff2004"]
    coeffs, more = _coefficient_phrases(names)
    refs += more
    distance = o.distance
    dist_text = (
        "the normalized Levenshtein distance between the labels as text"
        if distance == "nld"
        else f"the {esc(level)} distance metric"
    )
    coeffs.append(f"Krippendorff's α (Krippendorff 2011) with {dist_text}")
    missing = values_of(o.missing)
    miss = (
        "Empty cells, and the values "
        + ", ".join(f"‘{esc(m)}’" for m in missing)
        + " (e.g. can't-decide), "
        if missing
        else "Empty cells "
    )
    p1 = (
        f"Agreement among {n_ann} annotators on {getattr(result, 'n_items', 0):,} items was measured at the "
        f"{esc(level)} level of measurement with "
        + "; ".join(coeffs)
        + ". "
        + miss
        + "were treated as missing values, not as a category: items judged by fewer than two annotators do not "
        "count, and every coefficient uses the pairable items only."
    )
    interval, r = interval_sentence(result.interval)
    refs += r
    group = o.group_by
    p2 = interval + (
        f" Results are also given separately for each value of the column ‘{esc(group)}’."
        if group
        else ""
    )
    p2 += (
        " The interpretation column names the band of a published convention (Landis &amp; Koch 1977 for "
        "κ-type coefficients; Krippendorff 2004 for α) and is not a verdict on the data."
    )
    more_p: list[str] = []
    if getattr(result, "annotator_figures", None):
        from iaa_desktop.core.kinds.table import annotators_report

        more_p, more_r = annotators_report.methods(result)
        refs += more_r
    return [p1, p2, *more_p], refs

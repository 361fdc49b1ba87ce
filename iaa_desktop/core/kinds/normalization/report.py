"""Report sections of the ``normalization`` kind (historical spelling normalization)."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import figure_html, matrix_html, table_html, text_dir
from iaa_desktop.core.export.methods_text import (
    esc,
)
from iaa_desktop.core.export.report import (
    KindReport,
    ReportContext,
    Section,
    SummaryRow,
)
from iaa_desktop.core.kinds.annotators.report import (
    PLANNING_METHODS,
    annotator_sections,
    competence_methods,
    models_methods,
)
from iaa_desktop.core.kinds.normalization.result import NormalizationResult
from iaa_desktop.core.kinds.occurrences import methods_paragraph, report_section

#: the headline prints four decimals and percentages with two; the report does the same
DIGITS = 4


def _rows(prefix: str, agreement: Any, with_alpha: bool = True) -> list[SummaryRow]:
    if agreement is None:
        return []
    n = getattr(agreement, "n_tokens", None)
    rows = [
        SummaryRow(
            f"{prefix}: percent agreement",
            agreement.percent_agreement,
            n=n,
            digits=DIGITS,
            percent=True,
        ),
        SummaryRow(f"{prefix}: Fleiss' κ (π*)", agreement.pi, n=n, scale="kappa", digits=DIGITS),
    ]
    a = getattr(agreement, "alpha_nld", None)
    if with_alpha and a is not None and math.isfinite(a):
        rows.append(
            SummaryRow(f"{prefix}: Krippendorff's α (NLD)", a, n=n, scale="alpha", digits=DIGITS)
        )
    return rows


def grid_html(units: dict[str, Any]) -> str:
    """A token's character grid: one column per unit of the historical form, one row per
    annotator with the Diff label of each unit (cells that differ from the majority marked)."""
    cols = units["units"]
    ann = units["annotators"]
    majority = []
    for u in range(len(cols)):
        c = Counter(a["diff"][u] for a in ann.values() if u < len(a["diff"]))
        majority.append(c.most_common(1)[0][0] if c else "")
    head = "".join(f"<th>{esc(u)}</th>" for u in cols)
    rows = []
    for name, a in ann.items():
        cells = "".join(
            f'<td class="{"same" if d == majority[u] else "diff"}">{esc(d)}</td>'
            for u, d in enumerate(a["diff"][: len(cols)])
        )
        rows.append(
            f"<tr><th>{esc(name)}</th>{cells}<td dir='{text_dir(a['norm'])}'>{esc(a['norm'])}</td><td>{esc(a['type'])}</td></tr>"
        )
    title = f"{esc(units['text'])} / token {esc(units['token_id'])}: <b dir='{text_dir(units['orig'])}'>{esc(units['orig'])}</b>"
    return (
        f'<div class="pair"><div class="head">{title}</div><table class="grid"><thead><tr><th>annotator</th>{head}'
        f"<th>normalization</th><th>type</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _grid_rows(units: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per (annotator, unit) of a token's character grid."""
    out = []
    for name, a in units["annotators"].items():
        for u, (unit, diff) in enumerate(zip(units["units"], a["diff"])):
            out.append(
                {
                    "text": units["text"],
                    "token_id": units["token_id"],
                    "orig": units["orig"],
                    "annotator": name,
                    "position": u,
                    "unit": unit,
                    "diff": diff,
                    "normalization": a["norm"],
                    "type": a["type"],
                }
            )
    return out


def summary(result: NormalizationResult) -> tuple[list[SummaryRow], str]:
    """The headline coefficients (rows of the summary table) and their caption."""
    rows: list[SummaryRow] = []
    for subset in ("ALL", "MEDIUM", "STRICT"):
        rows += _rows(f"Word, {subset}", result.word.get(subset))
    for subset in ("ALL", "MEDIUM", "STRICT"):
        rows += _rows(f"Character, {subset}", result.character.get(subset))
    rows += _rows("Modernization type, ALL", result.modernization.get("ALL"), with_alpha=False)
    caption = f"{result.n_tokens:,} tokens × {len(result.annotators)} annotators; no intervals for this kind"
    return rows, caption


def build(result: NormalizationResult, ctx: ReportContext) -> KindReport:
    """The report section of a normalization result: per text, annotator pairs, modernization,
    the most disagreeing tokens with their character grids."""
    paragraphs, refs = methods(result)
    kr = KindReport(methods=paragraphs, references=refs, annotators=list(result.annotators))
    kr.summary, kr.summary_caption = summary(result)
    tables = result.tables()
    _per_text_section(result, tables, ctx, kr)
    if ctx.charts:
        _pairs_section(tables, kr)
    _modernization_section(tables, ctx, kr)
    _tokens_section(result, tables, ctx, kr)
    if result.occurrences is not None and result.occurrences.inconsistent:
        kr.sections.append(report_section(result.occurrences, "normalization", ctx.max_rows))
    j = result.annotator_figures.to_json() if result.annotator_figures is not None else {}
    kr.sections.extend(annotator_sections(j, ctx))
    return kr


_PER_TEXT_HEADS = {
    "text": "Text",
    "w_ALL_n": "tokens",
    "w_ALL_pa": "word %",
    "w_ALL_pi": "word π*",
    "w_ALL_alpha": "word α",
    "w_MEDIUM_pi": "word π* MED.",
    "w_STRICT_pi": "word π* STR.",
    "c_ALL_pa": "char %",
    "c_ALL_pi": "char π*",
    "c_ALL_alpha": "char α",
}


def _per_text_wide(pt: pd.DataFrame) -> pd.DataFrame:
    """One row per text with every level × subset coefficient, lowest word π* first."""
    wide = []
    for (text,), g in pt.groupby(["text"], sort=False):
        row: dict[str, Any] = {"text": text}
        for r in g.itertuples(index=False):
            pre = f"{r.level[0]}_{r.subset}"
            row[f"{pre}_n"] = r.n_tokens
            row[f"{pre}_pa"] = r.percent_agreement
            row[f"{pre}_pi"] = r.pi
            row[f"{pre}_alpha"] = r.alpha_nld
        wide.append(row)
    return pd.DataFrame(wide).sort_values("w_ALL_pi", na_position="first").reset_index(drop=True)


def _per_text_section(
    result: Any, tables: dict[str, pd.DataFrame], ctx: ReportContext, kr: KindReport
) -> None:
    pt = tables.get("per_text", pd.DataFrame())
    if not len(pt):
        return
    wt = _per_text_wide(pt)
    kr.tables["per_text_worst_first"] = wt
    cols = list(_PER_TEXT_HEADS)
    body = [
        table_html(
            wt,
            [c for c in cols if c in wt.columns],
            dict(_PER_TEXT_HEADS),
            digits={c: (0 if c.endswith("_n") else DIGITS) for c in cols},
            percent=[c for c in cols if c.endswith("_pa")],
            caption="Per text, lowest word π* first (ALL tokens unless stated)",
        )
    ]
    if ctx.charts:
        body.append(
            figure_html(
                charts.interval_dots(
                    wt["text"],
                    wt["w_ALL_pi"],
                    extra=wt.get("c_ALL_pi"),
                    value_label="word π*",
                    extra_label="character π*",
                    xlabel="Fleiss' κ (π*), ALL tokens",
                    reference=result.word["ALL"].pi if "ALL" in result.word else None,
                ),
                "π* per text, worst first (filled: word-based; hollow: character-based); dashed: overall word π*.",
            )
        )
    kr.sections.append(Section("Per text", "\n".join(body), anchor="texts"))


def _pairs_section(tables: dict[str, pd.DataFrame], kr: KindReport) -> None:
    body = []
    for key, title in (
        ("pairwise_word_pi", "Pairwise word π*"),
        ("pairwise_character_pi", "Pairwise character π*"),
    ):
        m = tables.get(key)
        if m is not None and len(m):
            mm = m.set_index(m.columns[0])
            lo = float(pd.to_numeric(mm.stack(), errors="coerce").min())
            body.append(
                matrix_html(mm, title, title + " per annotator pair.", min(0.0, lo), 1.0, 3)
            )
    if body:
        kr.sections.append(Section("Annotator pairs", "\n".join(body), anchor="pairs"))


def _modernization_section(
    tables: dict[str, pd.DataFrame], ctx: ReportContext, kr: KindReport
) -> None:
    body = []
    conf = tables.get("modernization_confusion")
    if conf is not None and len(conf):
        cm = conf.set_index(conf.columns[0])
        body.append(
            table_html(
                conf,
                caption="Modernization types: confusion matrix (counts over annotator pairs)",
                digits=0,
            )
        )
        if ctx.charts:
            body.append(
                figure_html(
                    charts.count_matrix(
                        cm.to_numpy(),
                        list(cm.index),
                        list(cm.columns),
                        title="Modernization type confusion",
                    ),
                    "Confusion of the modernization types over all annotator pairs.",
                )
            )
    for key, cap in (
        ("modernization", "Modernization type agreement per subset"),
        ("modernization_by_type", "Character agreement of the modernized forms per type"),
    ):
        t = tables.get(key)
        if t is not None and len(t):
            body.append(
                table_html(
                    t,
                    caption=cap,
                    digits={
                        "n_tokens": 0,
                        "n_units": 0,
                        "percent_agreement": DIGITS,
                        "pi": DIGITS,
                        "alpha_nld": DIGITS,
                    },
                    percent=["percent_agreement"],
                )
            )
    if body:
        kr.sections.append(Section("Modernization", "\n".join(body), anchor="modernization"))


def _tokens_section(
    result: Any, tables: dict[str, pd.DataFrame], ctx: ReportContext, kr: KindReport
) -> None:
    dis = tables.get("disagreements")
    if dis is None or not len(dis):
        return
    order = dis.sort_values(
        ["disagreeing_pairs", "character_disagreement"], ascending=False, kind="stable"
    )
    ann_cols = [a for a in result.annotators if a in order.columns]
    body = [
        table_html(
            order,
            [
                "text",
                "token_id",
                "orig",
                "kind",
                "subset",
                "disagreeing_pairs",
                "character_disagreement",
                *ann_cols,
            ],
            {
                "disagreeing_pairs": "disagr. pairs",
                "character_disagreement": "char. disagr.",
                "token_id": "token",
            },
            max_rows=ctx.max_rows,
            cls="wide",
            caption="Tokens, most disagreeing first",
        )
    ]
    grids = []
    grid_rows: list[dict[str, Any]] = []
    for i in order["index"].head(10):
        try:
            units = result.token_units(int(i))
            grids.append(grid_html(units))
        except (IndexError, KeyError, ValueError):
            continue
        grid_rows += _grid_rows(units)
    if grid_rows:  # the grids in long form, for --csv
        kr.tables["character_grids"] = pd.DataFrame(grid_rows)
    body.append(
        "<h3>Character grids of the ten most disagreeing tokens</h3>"
        "<p class='note'>Each cell is the Diff label of one character of the historical token "
        "(_ = kept, ∅ = deleted, otherwise the replacement); shaded cells differ from the majority.</p>"
        + "\n".join(grids)
    )
    kr.sections.append(Section("Normalization tokens", "\n".join(body), anchor="tokens"))


def methods(result: NormalizationResult) -> tuple[list[str], list[str]]:
    o = result.chosen
    case = "compared in lower case" if o.lowercase else "compared with their case"
    punct = "punctuation tokens left out" if o.drop_punctuation else "punctuation tokens kept"
    raw = (
        "as written"
        if o.raw_compare
        else "after simplifying the historical spelling (e.g. long s as s)"
    )
    p1 = (
        f"Normalizations of {result.n_tokens:,} historical tokens by {len(result.annotators)} annotators were "
        "compared as in Bollmann et al. (2016), word-based (the label of a token is its normalized form) and "
        "character-based (every character of the historical token gets the edit label of a Needleman–Wunsch "
        "alignment (Needleman &amp; Wunsch 1970) of the token with the normalization, insertions merged into the "
        "neighbouring character). Each is reported as percent agreement, Fleiss' κ (π*) (Fleiss 1971; "
        "Artstein &amp; Poesio 2008) and Krippendorff's α with the normalized Levenshtein distance "
        f"(Krippendorff 2011). Forms were {case}, with {punct}; a token counts as unchanged when its normalization "
        f"equals the historical form {raw}."
    )
    p2 = (
        "Subsets: ALL tokens; MEDIUM, the tokens at least one annotator changed; STRICT, the tokens all annotators "
        "changed. Agreement on the modernization type (ORIG, NORM, INFL, SEM, EXT) is given with its confusion "
        "matrix, and character-based agreement of the modernized forms per type. No intervals are computed for "
        "this kind; κ bands (Landis &amp; Koch 1977) and the α guideline (Krippendorff 2004) are conventions."
    )
    paragraphs = [p1, p2]
    refs = []
    if result.occurrences is not None:
        paragraphs.append(methods_paragraph(result.occurrences, "normalization", "token"))
        refs.append("shannon1948")
    j = result.annotator_figures.to_json() if result.annotator_figures is not None else {}
    if "model_annotators" in j:
        paragraphs.append(
            "For the model annotators, each token is an item and its normalization (as the "
            "word-level figures compare it) a category, with nominal α. " + models_methods(j)
        )
        refs += ["calderon2025", "benjamini2001"]
    if "competence" in j:
        paragraphs.append(
            competence_methods(
                j,
                "Each token is an item and each annotator's normalization of it (as the "
                "word-level figures compare it) one response; the normalizations are treated as "
                "unordered categories.",
            )
        )
        refs += ["dawid1979", "hovy2013"]
    if "planning" in j:
        paragraphs.append("Per token, with the normalization as the label: " + PLANNING_METHODS)
    return paragraphs, [
        *refs,
        "bollmann2016",
        "fleiss1971",
        "artstein2008",
        "krippendorff2011",
        "needleman1970",
        "landis1977",
        "krippendorff2004",
    ]

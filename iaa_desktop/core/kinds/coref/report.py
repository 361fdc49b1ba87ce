"""Report sections of the ``coref`` kind, read from its JSON layout (README: documents with the
L/M/R/D/δ rows per matched class pair, corpus totals, standard scores per annotator pair)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import figure_html, finite, shown_note, table_html
from iaa_desktop.core.export.methods_text import (
    annotators_of,
    esc,
)
from iaa_desktop.core.export.report import KindReport, ReportContext, Section, SummaryRow
from iaa_desktop.core.kinds.occurrences import methods_paragraph, report_section
from iaa_desktop.core.metrics import catalogue

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.coref.compare import CorefResult
    from iaa_desktop.core.kinds.coref.options import CorefOptions

#: documents whose class tables are printed
N_WORST_DOCUMENTS = 5
SCORES = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions", "conll")
#: column titles of the scores: the metrics catalogue's symbols
SCORE_TITLES = {k: catalogue.get(k).symbol for k in SCORES}


def class_mentions(doc: Any, name: Any, limit: int = 12) -> str:
    """The covered texts of class ``name`` (C1.., S) of one annotator's document, in text order."""
    name = str(name)
    try:
        if name == "S":
            ms = list(doc.singletons)
        elif name.startswith("C"):
            ms = list(doc.classes[int(name[1:]) - 1])
        else:
            return ""
    except (ValueError, IndexError, AttributeError):
        return ""
    ms.sort(key=lambda k: (k[1], k[2]))
    texts = [(doc.mentions.get(m) or f"{m[1]}–{m[2]}").strip() for m in ms[:limit]]
    more = f" … (+{len(ms) - limit})" if len(ms) > limit else ""
    return " · ".join(texts) + more


def _f(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _score_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for s in data.get("scores", []):
        row: dict[str, Any] = {"a": s.get("a"), "b": s.get("b")}
        for k in SCORES:
            v = s.get(k)
            if isinstance(v, dict):
                row[SCORE_TITLES[k]] = _f(v.get("f1"))
        rows.append(row)
    return rows


def summary(result: CorefResult) -> tuple[list[SummaryRow], str]:
    """The headline figures (rows of the summary table) and their caption: δ per pair over the
    corpus and the coreference F1 scores (no interval, no interpretation convention)."""
    data = result.to_json()
    rows: list[SummaryRow] = []
    for p in data.get("total", {}).get("pairs", []):
        rows.append(
            SummaryRow(
                f"δ (class disagreement), corpus, {p.get('a')} – {p.get('b')}",
                _f(p.get("d")),
                digits=4,
                note=f"L {p.get('L')}, M {p.get('M')}, R {p.get('R')}, D {p.get('D')}",
            )
        )
    for row in _score_rows(data):
        for k in SCORES:
            title = SCORE_TITLES[k]
            if title in row:
                rows.append(SummaryRow(f"{title} F1, {row['a']} – {row['b']}", row[title]))
    threshold = result.chosen.study_threshold
    caption = "δ: lower is better (0 = identical classes); F1 in 0–1" + (
        f"; documents with δ ≥ {threshold:.3g} are flagged for study" if finite(threshold) else ""
    )
    return rows, caption


def build(result: CorefResult, ctx: ReportContext) -> KindReport:
    """The kind's report: the coreference scores, then the documents, most disagreeing first."""
    data = result.to_json()
    paragraphs, refs = methods(result)
    kr = KindReport(methods=paragraphs, references=refs, annotators=_annotators(result, data))
    kr.summary, kr.summary_caption = summary(result)
    sections = (_scores_section(data, kr.tables), _documents_section(result, data, ctx, kr.tables))
    kr.sections.extend(s for s in sections if s is not None)
    occ = getattr(result, "occurrences", None)
    if occ is not None and occ.inconsistent:
        kr.sections.append(report_section(occ, "treatment", ctx.max_rows))
    return kr


def _annotators(result: Any, data: dict[str, Any]) -> list[str]:
    """The result's annotators, else the ones its document pairs name."""
    return annotators_of(result) or sorted(
        {
            p.get(k)
            for d in data.get("documents", [])
            for p in d.get("pairs", [])
            for k in ("a", "b")
        }
        - {None}
    )


def _scores_section(data: dict[str, Any], tables: dict[str, pd.DataFrame]) -> Section | None:
    """F1 of the standard scores per annotator pair."""
    score_rows = _score_rows(data)
    if not score_rows:
        return None
    st = pd.DataFrame(score_rows)
    tables["scores_f1"] = st
    return Section(
        "Coreference scores (F1)",
        table_html(st, caption="F1 per annotator pair (first annotator as key)"),
        anchor="scores",
    )


def _documents_section(
    result: Any, data: dict[str, Any], ctx: ReportContext, tables: dict[str, pd.DataFrame]
) -> Section | None:
    """Per document and annotator pair, most disagreeing first: the table, the chart of δ and
    the class tables of the :data:`N_WORST_DOCUMENTS` worst."""
    docs = [
        {
            "document": d.get("name"),
            "a": p.get("a"),
            "b": p.get("b"),
            "L": p.get("L"),
            "M": p.get("M"),
            "R": p.get("R"),
            "D": p.get("D"),
            "d": _f(p.get("d")),
            "study": p.get("study"),
            "class_rows": p.get("rows", []),
        }
        for d in data.get("documents", [])
        for p in d.get("pairs", [])
    ]
    if not docs:
        return None
    dt = (
        pd.DataFrame(docs)
        .sort_values("d", ascending=False, na_position="first", kind="stable")
        .reset_index(drop=True)
    )
    tables["documents_worst_first"] = dt.drop(columns="class_rows")
    body = [
        table_html(
            dt,
            ["document", "a", "b", "L", "M", "R", "D", "d"]
            + (["study"] if dt["study"].notna().any() else []),
            {"d": "δ", "study": "flag for study"},
            digits={"L": 0, "M": 0, "R": 0, "D": 0},
            max_rows=ctx.max_rows,
            caption="Per document, most disagreeing first",
        )
    ]
    if ctx.charts:
        body.append(_documents_chart(dt.head(ctx.max_rows)))
    body.extend(_class_tables(result, dt.head(N_WORST_DOCUMENTS), ctx))
    shown = dt["document"].head(N_WORST_DOCUMENTS).nunique()
    body.append(shown_note(shown, dt["document"].nunique(), "documents", "with most disagreement"))
    return Section("Documents", "\n".join(body), anchor="documents")


def _documents_chart(top: pd.DataFrame) -> str:
    """δ per document and annotator pair, worst first."""
    return figure_html(
        charts.interval_dots(
            top["document"] + " (" + top["a"].astype(str) + "–" + top["b"].astype(str) + ")",
            top["d"],
            xlabel="δ = D / (L + M + R)",
            xlim=(0, 1),
        ),
        "Class disagreement δ per document, worst first (no intervals for this kind).",
    )


def _class_tables(result: Any, worst: pd.DataFrame, ctx: ReportContext) -> list[str]:
    """The matched classes of each of the ``worst`` documents, with their mentions' texts."""
    documents = {getattr(d, "name", None): d for d in getattr(result, "documents", [])}
    body = []
    for r in worst.itertuples(index=False):
        rows = pd.DataFrame(r.class_rows)
        if not len(rows):
            continue
        cols = [c for c in ("class_a", "class_b", "L", "M", "R", "D", "d") if c in rows.columns]
        docs = getattr(documents.get(r.document), "docs", {}) or {}
        for who, col in ((r.a, "class_a"), (r.b, "class_b")):
            if who in docs and col in rows.columns:
                rows[f"mentions {who}"] = [class_mentions(docs[who], c) for c in rows[col]]
                cols.append(f"mentions {who}")
        body.append(
            table_html(
                rows,
                cols,
                {"class_a": r.a, "class_b": r.b, "d": "δ"},
                digits={"L": 0, "M": 0, "R": 0, "D": 0, "d": 4},
                caption=f"Classes of {r.document} ({r.a} – {r.b}), δ = {r.d:.4g}",
                max_rows=ctx.max_rows,
                cls="classes",
            )
        )
    return body


def methods(result: CorefResult) -> tuple[list[str], list[str]]:
    o = result.chosen
    chosen = o.cost
    cost = {
        "symdiff": "symmetric difference |a △ b| (Erwich's Psalms method; ties broken by the largest total overlap)",
        "jaccard": "Jaccard distance 1 − |a ∩ b| / |a ∪ b|",
        "opt": "symmetric difference, where leaving a class unmatched costs its size",
    }[chosen]
    p1 = (
        "Coreference annotations of two annotators were compared class by class as in Erwich's Psalms study "
        "(github.com/cmerwich/participant-analysis): the classes (sets of mentions) of the two annotators are matched by a minimum-cost "
        f"assignment (Kuhn 1955) with the cost ‘{esc(cost)}’; each matched pair of classes gives L (mentions only "
        "in A's class), M (in both), R (only in B's), D = L + R and the disagreement δ = D / (L + M + R); totals "
        "per text and for the corpus are recomputed from the summed counts."
    )
    p2 = (
        "Standard coreference scores with the first annotator as key: MUC, B³, CEAF-m, CEAF-e, BLANC "
        "(Pradhan et al. 2014) and LEA (Moosavi &amp; Strube 2016), mention F1 and the CoNLL average. "
        + _matching_text(o)
    )
    refs = ["seed_coref", "kuhn1955", "pradhan2014", "moosavi2016"]
    if o.mention_matching != "exact" or o.zero_matching != "linear":
        refs += ["nedoluzhko2022", "zabokrtsky2023"]
    if o.split_antecedents:
        refs.append("yu2022")
    paragraphs = [p1, p2]
    occ = getattr(result, "occurrences", None)
    if occ is not None:
        paragraphs.append(
            methods_paragraph(
                occ,
                "treatment (in a chain, a singleton mention, or not marked)",
                "mention (and every other place the same words stand in the documents)",
            )
        )
        refs.append("shannon1948")
    return paragraphs, refs


def _matching_text(o: CorefOptions) -> str:
    """How key and response mentions were paired for the standard scores (the settings
    ``mention_matching`` and ``zero_matching``; the CorefUD scorer's rules)."""
    mode = o.mention_matching
    text = {
        "exact": "A response mention counts as a key mention when it has exactly the same words "
        "(in CoNLL-U, a word is identified by its sentence and ID, an empty node by its decimal "
        "ID).",
        "partial": "Mentions were matched partially, as the CorefUD scorer does (Nedoluzhko et "
        "al. 2022): after the exact matches, a response mention lying within a key mention and "
        "covering its minimum span (its head; in Universal Anaphora files its Min) is paired with "
        "it one to one (Hungarian algorithm on |r| / |k|) and counts as that key mention.",
        "head": "Mentions were matched by their heads, as the CorefUD scorer does (Žabokrtský et "
        "al. 2023): after the mentions with the same words and head, mentions with the same head "
        "word are paired one to one (Hungarian algorithm on |k ∩ r| / |k|).",
    }.get(mode, esc(mode))
    if o.zero_matching == "dependent":
        text += (
            " Zeros (mentions headed by an empty node) were first paired by their heads' "
            "enhanced dependencies (10 · F1 of parent and relation pairs + F1 of parents, same "
            "sentence only; Žabokrtský et al. 2023)."
        )
    if mode != "exact":
        text += " Mentions without a head or minimum span (other formats) match only exactly."
    if o.split_antecedents:
        text += (
            " Split antecedents were scored as the Universal Anaphora scorer does (Yu et al. "
            "2022): a plural entity gains one mention, the set of its antecedent entities; key "
            "and response split antecedents are paired by the Hungarian algorithm on each "
            "metric's F1 over those entities, and count with that recall, precision or F1 as "
            "credit."
        )
    else:
        text += " Split antecedents (plurals) were not scored, as in the CoNLL scorers."
    return text

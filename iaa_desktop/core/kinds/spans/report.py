"""Report section of the ``spans`` kind: figures, labels worst first, label confusion, the
documents with the lowest agreement and their disagreements in context."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import fmt, interval_text
from iaa_desktop.core.export.methods_text import esc
from iaa_desktop.core.export.report import (
    KindReport,
    ReportContext,
    Section,
    SummaryRow,
    figure_html,
    table_html,
)
from iaa_desktop.core.metrics import catalogue

#: documents whose disagreements are printed in context
N_WORST_DOCUMENTS = 3
#: disagreements printed per document
N_CONTEXT = 12

SUMMARY = (
    ("exact_f1", "Exact-match span F1 (micro, mean over pairs)", None),
    ("exact_f1_macro", "Exact-match span F1 (macro over labels, mean over pairs)", None),
    ("overlap_f1", "Overlap span F1 (micro, mean over pairs)", None),
    ("overlap_f1_macro", "Overlap span F1 (macro over labels, mean over pairs)", None),
    ("char_fleiss_kappa", "Character-level Fleiss' κ", "kappa"),
    ("char_krippendorff_alpha", "Character-level Krippendorff's α", "alpha"),
    ("token_fleiss_kappa", "Token-level Fleiss' κ", "kappa"),
    ("token_krippendorff_alpha", "Token-level Krippendorff's α", "alpha"),
    ("unitizing_alpha", "Unitizing α (αU)", "alpha"),
    ("gamma", "γ (pygamma-agreement)", None),
)


def _f(v: Any) -> float:
    try:
        return math.nan if v is None else float(v)
    except (TypeError, ValueError):
        return math.nan


def _summary(result: Any, kr: KindReport) -> None:
    n_docs = len(result.corpus.names) if result.corpus is not None else None
    for key, title, scale in SUMMARY:
        fig = result.overall.get(key)
        if fig is None:
            continue
        kr.summary.append(
            SummaryRow(
                title,
                _f(fig.get("value")),
                _f(fig.get("ci_low")),
                _f(fig.get("ci_high")),
                n=n_docs,
                scale=scale,
            )
        )
    kr.summary_caption = "n = documents; intervals: percentile bootstrap over documents" + (
        "" if "gamma" in result.overall else f"; {result.gamma_note}"
    )


def _context(text: str, start: int, end: int, width: int = 60) -> str:
    a, b = max(0, start - width), min(len(text), end + width)
    return (
        ("…" if a else "")
        + text[a:start].replace("\n", " ")
        + "["
        + text[start:end].replace("\n", " ")
        + "]"
        + text[end:b].replace("\n", " ")
        + ("…" if b < len(text) else "")
    )


def _documents_section(result: Any, ctx: ReportContext) -> Section | None:
    docs = result.frames.get("documents")
    if docs is None or not len(docs):
        return None
    dt = docs.sort_values(["exact_f1", "document"], na_position="first", kind="stable")
    body = [
        table_html(
            dt,
            [
                "document",
                "exact_f1",
                "overlap_f1",
                "char_alpha",
                "unitizing_alpha",
                "disagreements",
            ],
            {
                "exact_f1": "exact F1",
                "overlap_f1": "overlap F1",
                "char_alpha": "char. α",
                "unitizing_alpha": "αU",
            },
            digits={"disagreements": 0},
            max_rows=ctx.max_rows,
            caption="Per document, lowest exact-match F1 first (F1: mean over annotator pairs)",
        )
    ]
    dis = result.frames.get("disagreements")
    corpus = result.corpus
    for name in dt["document"].head(N_WORST_DOCUMENTS):
        rows = dis[dis["document"] == name].head(N_CONTEXT) if dis is not None else []
        if not len(rows):
            continue
        text = corpus.texts[corpus.names.index(name)] or ""
        shown = rows.assign(
            context=[_context(text, s, e) for s, e in zip(rows["start"], rows["end"])]
        )
        body.append(
            table_html(
                shown,
                ["context", "kind", *corpus.annotators],
                digits=3,
                caption=f"Disagreements in {name}, most disagreeing first ([…] = the stretch in question)",
                cls="classes",
            )
        )
    return Section("Documents", "\n".join(body), anchor="documents")


def build(result: Any, ctx: ReportContext) -> KindReport:
    paragraphs, refs = methods(result)
    kr = KindReport(methods=paragraphs, references=refs, annotators=list(result.annotators))
    _summary(result, kr)
    _pairs_section(result, kr)
    labels = result.frames.get("labels")
    if labels is not None and len(labels):
        body = [
            table_html(
                labels.assign(unitizing_alpha_ci=_with_ci(labels, "unitizing_alpha")),
                [
                    "label",
                    *[c for c in labels.columns if c.startswith("n ")],
                    "exact_f1",
                    "exact_f1_ci_low",
                    "exact_f1_ci_high",
                    "overlap_f1",
                    "unitizing_alpha_ci",
                ],
                {
                    "exact_f1": "exact F1",
                    "exact_f1_ci_low": "low",
                    "exact_f1_ci_high": "high",
                    "overlap_f1": "overlap F1",
                    "unitizing_alpha_ci": "αU [95% interval]",
                },
                digits={c: 0 for c in labels.columns if c.startswith("n ")},
                caption="Per label, worst first (exact F1 and αU with their 95% intervals)",
            )
        ]
        if ctx.charts:
            body.append(
                figure_html(
                    charts.interval_dots(
                        labels["label"],
                        labels["exact_f1"],
                        labels["exact_f1_ci_low"],
                        labels["exact_f1_ci_high"],
                        xlabel="exact-match span F1",
                        xlim=(0, 1),
                    ),
                    "Exact-match span F1 per label with its bootstrap interval, worst first.",
                )
            )
        kr.sections.append(Section("Labels", "\n".join(body), anchor="labels"))
    _confusion_section(result, kr, ctx)
    sec = _documents_section(result, ctx)
    if sec is not None:
        kr.sections.append(sec)
    return kr


def _with_ci(df: pd.DataFrame, col: str) -> list[str]:
    """``value [low, high]`` of a figure and its interval columns, per row."""
    return [
        f"{fmt(v)} {interval_text(lo, hi)}" if math.isfinite(_f(v)) else "–"
        for v, lo, hi in zip(df[col], df[f"{col}_ci_low"], df[f"{col}_ci_high"])
    ]


#: per pair: figure column → header (each with its 95% interval)
PAIR_F1 = {
    "exact_f1": "exact F1 (micro)",
    "exact_f1_macro": "exact F1 (macro)",
    "overlap_f1": "overlap F1 (micro)",
    "overlap_f1_macro": "overlap F1 (macro)",
}
#: the pairs' coefficients, headed by their symbols in the metrics catalogue
PAIR_COEFFICIENTS = {
    k: catalogue.get(k).symbol for k in ("char_cohen_kappa", "token_cohen_kappa", "unitizing_alpha")
}


def _pairs_section(result: Any, kr: KindReport) -> None:
    pairs = result.frames.get("pairs")
    if pairs is None or not len(pairs):
        return
    body = []
    for figures, caption in (
        (PAIR_F1, "Span F1 of every pair of annotators, with 95% bootstrap intervals"),
        (
            PAIR_COEFFICIENTS,
            "Coefficients of every pair of annotators, with 95% bootstrap intervals "
            '(κ: Cohen\'s, "no label" a category)',
        ),
    ):
        shown = pairs[["a", "b"]].assign(**{c: _with_ci(pairs, c) for c in figures})
        body.append(table_html(shown, ["a", "b", *figures], figures, caption=caption))
    kr.sections.append(Section("Annotator pairs", "\n".join(body), anchor="pairs"))


def _confusion_section(result: Any, kr: KindReport, ctx: ReportContext) -> None:
    pd_rows = result.frames.get("pair_disagreements")
    body = []
    if pd_rows is not None and len(pd_rows):
        body.append(
            table_html(
                pd_rows,
                caption="Spans of the first annotator by how the second annotator's spans meet "
                "them: boundary and label disagreements counted apart",
                digits=0,
            )
        )
    conf = result.confusion
    if conf is not None and conf.sum() > 0:
        labs = list(result.labels)
        df = pd.DataFrame(conf, index=labs, columns=labs).reset_index(names="label (first)")
        body.append(
            table_html(
                df,
                caption="Label confusion of overlapping spans with different labels "
                "(rows: first annotator of each pair; columns: second)",
                digits=0,
            )
        )
        if ctx.charts and len(labs) <= 20:
            body.append(
                figure_html(
                    charts.count_matrix(
                        np.asarray(conf),
                        labs,
                        labs,
                        xlabel="second annotator",
                        ylabel="first annotator",
                    ),
                    "Label confusion of overlapping spans.",
                )
            )
    if body:
        kr.sections.append(Section("Boundaries and labels", "\n".join(body), anchor="confusion"))


def methods(result: Any) -> tuple[list[str], list[str]]:
    o = getattr(result, "options", {}) or {}
    n = int(o.get("n_resamples", 1000) or 0)
    p1 = (
        "Labelled spans were compared for every pair of annotators. Exact-match span F1 counts a "
        "span of one annotator as matched when the other has a span with the same start, end "
        "(every fragment, for discontinuous spans) and label, F1 = 2TP / (|A| + |B|) (Hripcsak "
        "&amp; Rothschild 2005; the instance-level F1 of bratiaa), per label and micro over labels; "
        "the study figure is the mean over annotator pairs. Overlap F1 counts spans that share at "
        "least one character and the label, matched one to one by a maximum bipartite matching "
        "(Hopcroft &amp; Karp 1973), so that no span counts twice."
    )
    p2 = (
        "Character- and token-level coefficients take every character of the text (whitespace "
        "included), or every token (a run of word characters or one other non-space character), "
        "as an item whose value is the label of the span covering it or “no label”: Cohen's κ per "
        "pair (Cohen 1960), Fleiss' κ (Fleiss 1971) and Krippendorff's nominal α (Krippendorff "
        "2011) across all annotators. Items covered by two labels of one annotator (overlapping "
        "spans) are reported and left out. Krippendorff's unitizing α (αU; Krippendorff 1995, "
        "2004) is computed as DKPro Statistics implements it (Meyer et al. 2014), per document and "
        "for the corpus with the documents every annotator has concatenated in name order into "
        "one continuum; overlapping spans of one annotator and label are merged first."
    )
    p3 = (
        f"Intervals are 95% percentile bootstrap intervals over documents ({n:,} resamples; "
        "documents drawn with replacement and every count summed again; Efron &amp; Tibshirani "
        "1993), the same resamples for every figure. Macro F1 (the mean of the per-label F1 over "
        "the labels either annotator of a pair used) is recomputed in each resample from its "
        "per-label counts. Every term of αU's observed and expected disagreement is a sum over "
        "documents or a product of two such sums (for the expected disagreement's unit–gap term, "
        "per length of unit) once every gap ends at its document's end, so each resample's αU "
        "comes exactly from sums per document weighted by how often the document is drawn; "
        "the percentile interval of these resamples is moved by the difference between the "
        "concatenated figure and this document-wise one on the data (they differ only by the "
        "gaps that run across a document boundary in the concatenation). "
        + (
            "γ (Mathet et al. 2015) was computed by pygamma-agreement with its combined categorical "
            f"dissimilarity, seed {int(o.get('seed', 0))}; it has no interval: the approximate "
            "range pygamma-agreement gives bounds only the Monte Carlo error of its sampled "
            "expected disorder (its precision level), not the variation between documents, and "
            "a bootstrap would align the corpus again for every resample."
            if "gamma" in getattr(result, "overall", {})
            else esc(getattr(result, "gamma_note", ""))
        )
    )
    refs = [
        "hripcsak2005",
        "hopcroft1973",
        "cohen1960",
        "fleiss1971",
        "krippendorff2011",
        "krippendorff1995",
        "krippendorff2004",
        "meyer2014",
        "efron1993",
    ]
    if "gamma" in getattr(result, "overall", {}):
        refs.append("mathet2015")
    return [p1, p2, p3], refs

"""Report section of the ``spans`` kind: figures, labels worst first, label confusion, the
documents with the lowest agreement and their disagreements in context."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import (
    figure_html,
    fmt,
    interval_text,
    shown_note,
    table_html,
)
from iaa_desktop.core.export.methods_text import esc
from iaa_desktop.core.export.report import (
    KindReport,
    ReportContext,
    Section,
    SummaryRow,
)
from iaa_desktop.core.kinds.annotators.report import (
    PLANNING_METHODS,
    annotator_sections,
    batch_methods,
    competence_methods,
    models_methods,
    retest_methods,
)
from iaa_desktop.core.kinds.occurrences import methods_paragraph, report_section
from iaa_desktop.core.kinds.spans.tables import seconds
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
    ("token_f1", "Token-level span F1 (bratiaa's tokens, mean over pairs)", None),
    ("lenient_f1", "Lenient overlap span F1 (not one to one, mean over pairs)", None),
    ("char_fleiss_kappa", "Character-level Fleiss' κ", "kappa"),
    ("char_krippendorff_alpha", "Character-level Krippendorff's α", "alpha"),
    ("token_fleiss_kappa", "Token-level Fleiss' κ", "kappa"),
    ("token_krippendorff_alpha", "Token-level Krippendorff's α", "alpha"),
    ("unitizing_alpha", "Unitizing α (αU)", "alpha"),
    ("gamma", "γ (Mathet et al. 2015)", None),
    ("gamma_cat", "γ-cat (Mathet 2017)", None),
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
        "; γ: precision interval of its sampled expected disorder"
        if "gamma" in result.overall
        else f"; {result.gamma_note}"
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
        every: Any = dis[dis["document"] == name] if dis is not None else []
        rows: Any = every.head(N_CONTEXT) if len(every) else []
        if not len(rows):
            continue
        text = corpus.texts[corpus.names.index(name)] or ""
        shown = rows.assign(
            context=[
                seconds(s, e) if corpus.time_unit else _context(text, s, e)
                for s, e in zip(rows["start"], rows["end"])
            ]
        )
        body.append(
            table_html(
                shown,
                ["context", "kind", *corpus.annotators],
                digits=3,
                caption=f"Disagreements in {name}, most disagreeing first "
                + (
                    "(the stretch's time)"
                    if corpus.time_unit
                    else "([…] = the stretch in question)"
                ),
                cls="classes",
            )
        )
        body.append(shown_note(len(rows), len(every), "disagreements", "of this document"))
    body.append(
        shown_note(
            min(N_WORST_DOCUMENTS, dt["document"].nunique()),
            dt["document"].nunique(),
            "documents",
            "with the lowest exact-match F1",
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
                    *[
                        c
                        for c in (
                            "exact_f1_sd",
                            "overlap_f1",
                            "token_f1",
                            "token_f1_sd",
                            "lenient_f1",
                        )
                        if c in labels.columns
                    ],
                    "unitizing_alpha_ci",
                ],
                {
                    "exact_f1": "exact F1",
                    "exact_f1_ci_low": "low",
                    "exact_f1_ci_high": "high",
                    "exact_f1_sd": "exact SD",
                    "overlap_f1": "overlap F1",
                    "token_f1": "token F1",
                    "token_f1_sd": "token SD",
                    "lenient_f1": "lenient F1",
                    "unitizing_alpha_ci": "αU [95% interval]",
                },
                digits={c: 0 for c in labels.columns if c.startswith("n ")},
                caption="Per label, worst first (F1: mean over pairs, SD over pairs; exact F1 "
                "and αU with their 95% intervals)",
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
    from iaa_desktop.core.kinds.spans import timeline_report

    sec = timeline_report.section(result, ctx)
    if sec is not None:  # recordings (ELAN, Praat): the worst ones' timelines
        kr.sections.append(sec)
    if getattr(result, "relations", None) is not None:
        from iaa_desktop.core.kinds.spans import relation_report

        kr.sections.append(relation_report.section(result.relations))
    if result.occurrences is not None and result.occurrences.inconsistent:
        kr.sections.append(report_section(result.occurrences, "label", ctx.max_rows))
    fig = getattr(result, "annotator_figures", None)
    j = fig.to_json() if fig is not None else {}
    kr.sections.extend(annotator_sections(j, ctx))
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
    body.extend(_bratiaa_tables(result))
    kr.sections.append(Section("Annotator pairs", "\n".join(body), anchor="pairs"))


#: the pairwise F1 figures summarised by their mean and SD over pairs, as bratiaa reports them
PAIRWISE_F1 = {
    **PAIR_F1,
    "token_f1": "token F1 (bratiaa's tokens)",
    "lenient_f1": "lenient overlap F1",
}


def _bratiaa_tables(result: Any) -> list[str]:
    """Mean and SD over pairs of every pairwise F1, and F1 per pair and label."""
    rows = [
        {
            "figure": title,
            "mean": _f(result.overall[k].get("mean")),
            "sd": _f(result.overall[k].get("sd")),
        }
        for k, title in PAIRWISE_F1.items()
        if k in result.overall
    ]
    out = []
    if rows:
        out.append(
            table_html(
                pd.DataFrame(rows),
                ["figure", "mean", "sd"],
                {"sd": "SD"},
                caption="Pairwise span F1: mean and standard deviation over the annotator pairs "
                "(as bratiaa reports them)",
            )
        )
    ppl = result.frames.get("per_pair_label")
    if ppl is not None and len(ppl):
        out.append(
            table_html(
                ppl,
                [
                    "a",
                    "b",
                    "label",
                    "n_a",
                    "n_b",
                    "exact_f1",
                    "overlap_f1",
                    "token_f1",
                    "lenient_f1",
                ],
                {
                    "n_a": "spans a",
                    "n_b": "spans b",
                    "exact_f1": "exact F1",
                    "overlap_f1": "overlap F1",
                    "token_f1": "token F1",
                    "lenient_f1": "lenient F1",
                },
                digits={"n_a": 0, "n_b": 0},
                caption="Span F1 per annotator pair and label",
            )
        )
    return out


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
    n = result.interval.resamples
    p1 = (
        "Labelled spans were compared for every pair of annotators. Exact-match span F1 counts a "
        "span of one annotator as matched when the other has a span with the same start, end "
        "(every fragment, for discontinuous spans) and label, F1 = 2TP / (|A| + |B|) (Hripcsak "
        "&amp; Rothschild 2005; the instance-level F1 of bratiaa), per label and micro over labels; "
        "the study figure is the mean over annotator pairs. Overlap F1 counts spans that share at "
        "least one character and the label, matched one to one by a maximum bipartite matching "
        "(Hopcroft &amp; Karp 1973), so that no span counts twice. As bratiaa reports them "
        "(Kolditz et al. 2019), token-level F1 splits every span into one piece per token it "
        "overlaps (tokens: runs of non-space characters) and compares the multisets of "
        "(label, token) pieces, and every pairwise F1 is also given per pair and label and "
        "summarised by its mean and standard deviation (population) over the pairs; a pair "
        "with no span of a label has no F1 for it and is left out of that label's mean. "
        "Lenient overlap F1 drops the one-to-one matching: recall is the share of one "
        "annotator's spans that share a character with a span of the same label of the other, "
        "precision the same the other way round (the partial match of Chinchor &amp; Sundheim "
        "1993)."
    )
    p2 = (
        "Character- and token-level coefficients take every character of the text (whitespace "
        "included), or every token (a run of word characters or one other non-space character), "
        "as an item whose value is the label of the span covering it or “no label”: Cohen's κ per "
        "pair (Cohen 1960), Fleiss' κ (Fleiss 1971) and Krippendorff's nominal α (Krippendorff "
        "2011) across all annotators. Items covered by two labels of one annotator (overlapping "
        "spans) are reported and left out. Krippendorff's unitizing α (αU; Krippendorff 1995, "
        "2004) is computed as DKPro Statistics implements it (Meyer et al. 2014), per document and "
        "for the corpus with the documents every annotator has concatenated in input order (the "
        "order of the files, or of the records in an export) into one continuum; overlapping spans of one annotator and label are merged first."
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
            "γ (Mathet et al. 2015) is one minus the disorder of the best alignment of the "
            "units (the documents laid end to end) over the mean disorder of randomly sampled "
            "continua, with the combined positional and categorical dissimilarity (α = β = Δ∅ = "
            "1); the best alignment is the exact solution of the paper's integer programme, the "
            "continua are sampled as pygamma-agreement samples them (seed "
            f"{result.interval.seed}), as many as a 2% precision level asks for (30 at least). "
            "Its interval bounds γ for a 2% relative error of the sampled expected disorder, not "
            "the variation between documents. γ-cat and γ-k (Mathet 2017) weigh the categorical "
            "dissimilarity of the units aligned together by how well they are positioned."
            if "gamma" in getattr(result, "overall", {})
            else esc(getattr(result, "gamma_note", ""))
        )
    )
    refs = [
        "hripcsak2005",
        "hopcroft1973",
        "kolditz2019",
        "chinchor1993",
        "cohen1960",
        "fleiss1971",
        "krippendorff2011",
        "krippendorff1995",
        "krippendorff2004",
        "meyer2014",
        "efron1993",
    ]
    if "gamma" in getattr(result, "overall", {}):
        refs += ["mathet2015", "mathet2017"]
    paragraphs = [p1, p2, p3]
    corpus = getattr(result, "corpus", None)
    if corpus is not None and corpus.time_unit:  # recordings (ELAN, Praat): units in time
        from iaa_desktop.core.kinds.spans.tolerance import methods_paragraph as time_methods

        paragraphs.insert(0, time_methods(result))
    if getattr(result, "occurrences", None) is not None:
        paragraphs.append(
            methods_paragraph(
                result.occurrences,
                "label",
                "marked text (and every other place the same words stand in the documents)",
            )
        )
        refs.append("shannon1948")
    from iaa_desktop.core.kinds.spans import relation_report

    more, more_refs = relation_report.methods(getattr(result, "relations", None))
    fig = getattr(result, "annotator_figures", None)
    j = fig.to_json() if fig is not None else {}
    if "model_annotators" in j:
        more.append(
            "For the model annotators, each token of the texts is an item and the label of the "
            "span covering it (or none) a category, with nominal α; tokens covered by two labels "
            "of one annotator are left out. " + models_methods(j)
        )
        more_refs = [*more_refs, "calderon2025", "benjamini2001"]
    if "competence" in j:
        more.append(
            competence_methods(
                j,
                "Each token of the texts is an item and the label of the span covering it in "
                "each annotator's annotation (or none) one response; tokens covered by two "
                "labels of one annotator are left out.",
            )
        )
        more_refs = [*more_refs, "dawid1979", "hovy2013"]
    if "per_batch" in j:
        o = getattr(result, "chosen", None)
        more.append(
            "For agreement per batch, each annotator's annotation of a document belongs to the "
            "batch of the time it was made (a Label Studio export's creation or update time of "
            "the annotation, or a span table's column, its first row per annotator and "
            "document), and each token of the document is an item of that batch, the label of "
            "the annotator's span covering it (or none) a nominal category; tokens covered by "
            "two labels of one annotator are left out. The coefficients are those a judgment "
            "table of those token labels reports, with bootstrap intervals over tokens; the "
            "whole study's figures a batch is compared with are the same coefficients on every "
            "human annotator's token labels. "
            + batch_methods(
                str(getattr(o, "batch_column", "") or ""),
                str(getattr(o, "batch_size", "") or ""),
                "the token labels of the annotations",
            )
        )
        more_refs = [*more_refs, "krippendorff2004"]
    if "retest" in j:
        more.append(
            "For test–retest agreement, an annotator's annotations of the same task of a Label "
            "Studio export are their occasions, in the order of their creation time "
            "(created_at), each token of the task an item and the label of the occasion's span "
            "covering it (or none) a nominal category; tokens covered by two labels of one "
            "occasion are left out. "
            + retest_methods(
                "created_at", "each one's first annotation of a task in the export, as without it"
            )
        )
        if "krippendorff2004" not in more_refs:
            more_refs = [*more_refs, "krippendorff2004"]
    if "planning" in j:
        more.append("Per token, with its label (or none): " + PLANNING_METHODS)
    return [*paragraphs, *more], refs + more_refs

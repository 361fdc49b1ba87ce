"""The relations' part of a spans report: relation F1 per pair and label, the κ of the relation
labels, the kinds of disagreement, and the methods paragraph stating both matching rules."""

from __future__ import annotations

import math

import pandas as pd

from iaa_desktop.core.export.html_blocks import fmt, interval_text, table_html
from iaa_desktop.core.export.report import Section
from iaa_desktop.core.kinds.spans.relation_figures import RelationFigures

F1_HEADERS = {"exact_f1": "exact arguments", "overlap_f1": "overlapping arguments"}


def _with_ci(df: pd.DataFrame, col: str) -> list[str]:
    out = []
    for v, lo, hi in zip(df[col], df[f"{col}_ci_low"], df[f"{col}_ci_high"]):
        ok = v is not None and math.isfinite(float(v))
        out.append(f"{fmt(v)} {interval_text(lo, hi)}" if ok else "–")
    return out


def section(rel: RelationFigures) -> Section:
    """The report section of the relations."""
    f = rel.frames
    body = []
    o = rel.overall
    body.append(
        "<p>"
        + "; ".join(
            f"{'R' if k == 'exact_f1' else 'r'}elation F1 with {F1_HEADERS[k]}: {fmt(o[k]['value'])} "
            f"{interval_text(o[k]['ci_low'], o[k]['ci_high'])}"
            for k in F1_HEADERS
        )
        + f" (mean over annotator pairs; {rel.n_relations:,} relations). Relation-label κ "
        f"(Cohen, mean over pairs): {fmt(rel.kappa_mean)}; Fleiss' κ on the "
        f"{rel.kappa_fleiss_units:,} argument pairs every annotator linked: "
        f"{fmt(rel.kappa_fleiss)}.</p>"
    )
    for name, keys, caption in (
        ("relations_pairs", ["a", "b", "n_a", "n_b"], "Relation F1 of every pair of annotators"),
        ("relations_per_label", ["label", "n_relations"], "Relation F1 per relation label"),
    ):
        df = f[name]
        if not len(df):
            continue
        shown = df[keys].assign(**{c: _with_ci(df, c) for c in F1_HEADERS})
        body.append(
            table_html(
                shown,
                [*keys, *F1_HEADERS],
                {**F1_HEADERS, "n_a": "relations of a", "n_b": "relations of b"},
                caption=caption + ", with 95% bootstrap intervals over documents",
            )
        )
    kappa = f["relations_label_kappa"]
    if len(kappa):
        body.append(
            table_html(
                kappa,
                ["a", "b", "cohen_kappa", "n_units"],
                {"cohen_kappa": "label κ", "n_units": "argument pairs both linked"},
                caption="Relation labels on the directed argument pairs both annotators linked",
            )
        )
    dis = f["relations_disagreements"]
    if len(dis):
        body.append(
            table_html(
                dis,
                ["a", "b", "cause", "n_of_a", "n_of_b"],
                {"n_of_a": "relations of a", "n_of_b": "relations of b"},
                caption="Relations one annotator drew and the other did not, by cause",
            )
        )
    return Section("Relations", "\n".join(body), anchor="relations")


def methods(rel: RelationFigures | None) -> tuple[list[str], list[str]]:
    """The methods paragraph of the relations (none without relations) and its references."""
    if rel is None:
        return [], []
    text = (
        "Relations between spans are directed and labelled links, compared by the character "
        "offsets of their two arguments, whatever labels the argument spans carry. For every "
        "pair of annotators, the relations of one are matched one to one with the other's by a "
        "maximum bipartite matching (Hopcroft &amp; Karp 1973); relation F1 = 2·matched / "
        "(|R<sub>a</sub>| + |R<sub>b</sub>|) (Hripcsak &amp; Rothschild 2005), per relation "
        "label and over all, the study figure the mean over annotator pairs. Two matching rules "
        "are reported: with <i>exact</i> arguments a matched pair has the same label, the same "
        "direction and both arguments at identical offsets; with <i>overlapping</i> arguments "
        "each argument need only share at least one character with its counterpart (the exact "
        "and lenient relation criteria of Uzuner et al. 2011). Intervals are the spans' 95% "
        "percentile bootstrap intervals, from the same resamples of the documents. The choice of "
        "relation label is measured apart from whether a link was drawn: Cohen's κ (Cohen 1960) "
        "of the labels over the directed argument pairs that both annotators of a pair linked, "
        "and its mean over pairs; Fleiss' κ (Fleiss 1971) over the argument pairs every "
        "annotator linked. Each relation one annotator drew and the other did not is put down to "
        "the first of: an argument the other did not annotate (no span overlapping it), an "
        "argument boundary that differs (no span at its exact offsets), a different label on the "
        "same link, a link in the other direction, no link."
    )
    return [text], ["hopcroft1973", "hripcsak2005", "uzuner2011", "cohen1960", "fleiss1971"]

"""The result of a spans comparison as tables (pairs, labels, documents, disagreements)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.kinds.spans import measures as M
from iaa_desktop.core.kinds.spans import pairwise as P
from iaa_desktop.core.kinds.spans.corpus import SpanCorpus
from iaa_desktop.core.kinds.spans.result import SpansResult, figure_value

if TYPE_CHECKING:
    from iaa_desktop.core.metrics.gamma import GammaResult


#: figures by name (F1 tables, character/token coefficients, αU) as the measures give them
Figures = dict[str, Any]
#: two annotators' indices
Pair = tuple[int, int]


def _nan(v: Any) -> float:
    return math.nan if v is None else float(v)


def versions_text(corpus: SpanCorpus, spans_ix: NDArray[Any]) -> dict[int, str]:
    """Per annotator index: that annotator's spans among ``spans_ix`` as ``LABEL 'text'@start``."""
    out: dict[int, list[str]] = {}
    for i in sorted(spans_ix.tolist(), key=lambda k: corpus.spans[k].start):
        s = corpus.spans[i]
        if corpus.time_unit:  # a unit of a recording: its time in seconds
            out.setdefault(int(corpus.ann[i]), []).append(f"{s.label} {seconds(s.start, s.end)}")
            continue
        text = corpus.texts[corpus.doc[i]]
        shown = " … ".join(text[a:b] for a, b in s.fragments) if text else ""
        out.setdefault(int(corpus.ann[i]), []).append(f"{s.label} ‘\u2068{shown}\u2069’@{s.start}")
    return {k: "; ".join(v) for k, v in out.items()}


def seconds(start: int, end: int) -> str:
    """A stretch of a recording (ms) in seconds: ``1.250–2.000 s``."""
    return f"{start / 1000:.3f}–{end / 1000:.3f} s"


def disagreement_frame(corpus: SpanCorpus, groups: M.Groups) -> pd.DataFrame:
    """Every group of overlapping spans that is not unanimous, most disagreeing first."""
    bad = np.flatnonzero(groups.kind != M.KINDS.index("agree"))
    order = np.lexsort((groups.start[bad], groups.doc[bad], groups.kind[bad], -groups.score[bad]))
    bad = bad[order]
    members = np.argsort(groups.of_span, kind="stable")
    bounds = np.searchsorted(groups.of_span[members], np.arange(len(groups.doc) + 1))
    rows = []
    for g in bad.tolist():
        ix = members[bounds[g] : bounds[g + 1]]
        vt = versions_text(corpus, ix)
        d = int(groups.doc[g])
        row = {
            "group": g,
            "document": corpus.names[d],
            "start": int(groups.start[g]),
            "end": int(groups.end[g]),
            "kind": M.KINDS[int(groups.kind[g])],
            "score": round(float(groups.score[g]), 4),
            "labels": ", ".join(sorted({corpus.labels[k] for k in corpus.label[ix].tolist()})),
        }
        for x, a in enumerate(corpus.annotators):
            row[a] = vt.get(x, "—" if not corpus.has[x, d] else "")
        rows.append(row)
    cols = ["group", "document", "start", "end", "kind", "score", "labels", *corpus.annotators]
    return pd.DataFrame(rows, columns=cols)


def _pairs_frame(
    corpus: SpanCorpus, f1: Figures, units: dict[str, Figures], ua_pairs: dict[Pair, Figures]
) -> pd.DataFrame:
    rows = []
    for p, (x, y) in enumerate(M.pairs_of(corpus)):
        row = dict(f1["pairs"][p])
        for level in ("char", "token"):
            fig = units[level].get("figures", {}).get(f"cohen_kappa:{x}:{y}", {})
            row[f"{level}_cohen_kappa"] = _nan(fig.get("value"))
            row[f"{level}_cohen_kappa_ci_low"] = _nan(fig.get("ci_low"))
            row[f"{level}_cohen_kappa_ci_high"] = _nan(fig.get("ci_high"))
        ua = ua_pairs[(x, y)]
        row["unitizing_alpha"] = float(ua["alpha"])
        row["unitizing_alpha_ci_low"], row["unitizing_alpha_ci_high"] = ua["alpha_ci"]
        rows.append(row)
    return pd.DataFrame(rows)


def _labels_frame(corpus: SpanCorpus, f1: Figures, ua: Figures) -> pd.DataFrame:
    n = np.zeros((len(corpus.annotators), len(corpus.labels)), dtype=np.int64)
    np.add.at(n, (corpus.ann, corpus.label), 1)
    rows = []
    for k, lab in enumerate(corpus.labels):
        row: dict[str, Any] = {"label": lab}
        for x, a in enumerate(corpus.annotators):
            row[f"n {a}"] = int(n[x, k])
        for kind in ("exact", "overlap"):
            vals = f1.get(f"label_{kind}")
            row[f"{kind}_f1"] = float(vals[k]) if vals is not None else math.nan
            lo, hi = f1[f"label_{kind}_ci"][k]
            row[f"{kind}_f1_ci_low"], row[f"{kind}_f1_ci_high"] = lo, hi
        row["unitizing_alpha"] = float(ua["per_label"][k]) if k < len(ua["per_label"]) else math.nan
        lo, hi = ua["per_label_ci"][k] if k < len(ua["per_label_ci"]) else (math.nan, math.nan)
        row["unitizing_alpha_ci_low"], row["unitizing_alpha_ci_high"] = lo, hi
        rows.append(row)
    df = pd.DataFrame(rows)
    if len(df):
        df = df.sort_values(["exact_f1", "label"], na_position="first", kind="stable")
    return df.reset_index(drop=True)


def _documents_frame(
    corpus: SpanCorpus, f1: Figures, groups: M.Groups, units: dict[str, Figures], ua: Figures
) -> pd.DataFrame:
    D = len(corpus.names)
    n = np.zeros((len(corpus.annotators), D), dtype=np.int64)
    np.add.at(n, (corpus.ann, corpus.doc), 1)
    dis = np.bincount(groups.doc[groups.kind != M.KINDS.index("agree")], minlength=D)
    char = units["char"].get("per_doc", {}).get("krippendorff_alpha", np.full(D, np.nan))
    rows = []
    for d, name in enumerate(corpus.names):
        row: dict[str, Any] = {"document": name}
        for x, a in enumerate(corpus.annotators):
            row[f"n {a}"] = int(n[x, d]) if corpus.has[x, d] else None
        for kind in ("exact", "overlap"):
            vals = f1.get(f"doc_{kind}")
            row[f"{kind}_f1"] = float(vals[d]) if vals is not None else math.nan
        row["char_alpha"] = float(char[d])
        row["unitizing_alpha"] = float(ua["per_document"][d])
        row["disagreements"] = int(dis[d])
        rows.append(row)
    return pd.DataFrame(rows)


def _with_gamma_k(df: pd.DataFrame, gamma: Any) -> pd.DataFrame:
    """The labels' table with γ-k (Mathet 2017) of every label, when γ was computed."""
    if gamma is not None and "label" in df:
        df = df.assign(gamma_k=[gamma.gamma_k.get(k, math.nan) for k in df["label"]])
    return df


def assemble(
    corpus: SpanCorpus,
    f1: Figures,
    groups: M.Groups,
    confusion: NDArray[Any],
    pair_dis: list[dict[str, Any]],
    units: dict[str, Figures],
    ua: Figures,
    ua_pairs: dict[Pair, Figures],
    gamma: GammaResult | None,
) -> SpansResult:
    overall = dict(f1["overall"])
    for level in ("char", "token"):
        figs = units[level].get("figures", {})
        for k in ("fleiss_kappa", "krippendorff_alpha"):
            if k in figs:
                overall[f"{level}_{k}"] = figs[k]
    overall["unitizing_alpha"] = figure_value(float(ua["alpha"]), ua["alpha_ci"])
    if gamma is not None:
        overall["gamma"] = figure_value(gamma.gamma, gamma.interval)
        overall["gamma_cat"] = figure_value(gamma.gamma_cat)
    conf_rows = [
        {"label_a": corpus.labels[i], "label_b": corpus.labels[j], "count": int(confusion[i, j])}
        for i, j in zip(*np.nonzero(confusion))
    ]
    frames = {
        "pairs": _pairs_frame(corpus, f1, units, ua_pairs),
        "labels": _with_gamma_k(_labels_frame(corpus, f1, ua), gamma),
        "documents": _documents_frame(corpus, f1, groups, units, ua),
        "pair_disagreements": pd.DataFrame(pair_dis),
        "confusion": pd.DataFrame(conf_rows, columns=["label_a", "label_b", "count"]).sort_values(
            "count", ascending=False, kind="stable"
        ),
        "disagreements": disagreement_frame(corpus, groups),
    }
    return SpansResult(
        kind="spans",
        annotators=corpus.annotators,
        labels=corpus.labels,
        corpus=corpus,
        groups=groups,
        overall=overall,
        frames=frames,
        confusion=confusion,
    )


def add_pairwise_figures(result: Any, c: P.PairLabelCounts) -> None:
    """bratiaa's figures (:mod:`~iaa_desktop.core.kinds.spans.pairwise`) into a result: token
    and lenient F1 per pair and overall, the mean and SD over pairs beside every overall pairwise
    F1 and per label, and the rows per pair and label."""
    totals = P.pair_totals(c)
    pairs = result.frames["pairs"]
    for fig in ("token_f1", "lenient_f1"):
        if len(pairs):
            pairs[fig] = totals[fig]
    for fig in P.FIGURES:
        mean, sd = P.mean_sd(totals[fig][:, None])
        entry = result.overall.setdefault(fig, figure_value(float(mean[0])))
        entry["mean"], entry["sd"] = (
            figure_value(float(mean[0]))["value"],
            figure_value(float(sd[0]))["value"],
        )
    # the new pairwise figures beside the other F1 figures, before the coefficients
    keys = [k for k in result.overall if k not in ("token_f1", "lenient_f1")]
    at = keys.index("overlap_f1_macro") + 1 if "overlap_f1_macro" in keys else len(keys)
    keys[at:at] = ["token_f1", "lenient_f1"]
    result.overall = {k: result.overall[k] for k in keys}
    for fig in ("exact_f1_macro", "overlap_f1_macro"):
        if fig in result.overall and len(pairs):
            mean, sd = P.mean_sd(pairs[fig].to_numpy(dtype=float)[:, None])
            result.overall[fig]["mean"] = figure_value(float(mean[0]))["value"]
            result.overall[fig]["sd"] = figure_value(float(sd[0]))["value"]
    labels = result.frames["labels"]
    if len(labels):
        order = [result.labels.index(lab) for lab in labels["label"]]
        for fig, (mean, sd) in P.label_mean_sd(c).items():
            labels[fig] = mean[order]
            labels[f"{fig}_sd"] = sd[order]
        # each SD beside its mean (and its interval), the new figures before αU
        cols = [c for c in labels.columns if not c.endswith("_sd")]
        for fig in ("token_f1", "lenient_f1"):
            cols.remove(fig)
            cols.insert(cols.index("unitizing_alpha"), fig)
        for fig in P.FIGURES:
            after = f"{fig}_ci_high" if f"{fig}_ci_high" in cols else fig
            cols.insert(cols.index(after) + 1, f"{fig}_sd")
        result.frames["labels"] = labels[cols]
    result.frames["per_pair_label"] = P.per_pair_label_frame(result.corpus, c)

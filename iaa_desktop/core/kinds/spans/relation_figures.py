"""Agreement on the relations of a spans study: relation F1 (exact and overlapping arguments) per
annotator pair, per relation label and overall with bootstrap intervals over the documents (the
spans' own resamples), Cohen's and Fleiss' κ of the relation labels on the argument pairs linked,
and the kinds of disagreement (see :mod:`iaa_desktop.core.metrics.relations`).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.kinds.spans.corpus import SpanCorpus
from iaa_desktop.core.kinds.spans.relations import Fragments
from iaa_desktop.core.metrics import relations as MR
from iaa_desktop.core.metrics import spans as S

RULES: tuple[MR.Rule, ...] = ("exact", "overlap")


def _finite(x: Any) -> Any:
    return None if isinstance(x, float) and not math.isfinite(x) else x


def _records(df: pd.DataFrame) -> list[dict[str, Any]]:
    return [{k: _finite(v) for k, v in r.items()} for r in df.to_dict("records")]


def _nanmean(values: NDArray[Any], axis: int = 0) -> NDArray[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out: NDArray[Any] = np.nanmean(values, axis=axis)
        return out


@dataclass
class RelationFigures:
    """The relation figures of a spans study (``relations`` in its JSON)."""

    labels: tuple[str, ...] = ()
    #: exact_f1, overlap_f1 → {value, ci_low, ci_high} (means over the annotator pairs)
    overall: dict[str, dict[str, float | None]] = field(default_factory=dict)
    frames: dict[str, pd.DataFrame] = field(default_factory=dict)
    #: mean Cohen's κ over pairs, Fleiss' κ on the argument pairs every annotator linked
    kappa_mean: float = math.nan
    kappa_fleiss: float = math.nan
    kappa_fleiss_units: int = 0
    #: relations (of every annotator) per relation label, and in all
    n_relations: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "labels": list(self.labels),
            "n_relations": self.n_relations,
            "overall": self.overall,
            "per_label": _records(self.frames["relations_per_label"]),
            "pairs": _records(self.frames["relations_pairs"]),
            "pairs_labels": _records(self.frames["relations_pairs_labels"]),
            "label_kappa": {
                "pairs": _records(self.frames["relations_label_kappa"]),
                "mean": _finite(self.kappa_mean),
                "fleiss_kappa": _finite(self.kappa_fleiss),
                "n_units_fleiss": self.kappa_fleiss_units,
            },
            "disagreements": _records(self.frames["relations_disagreements"]),
        }


def _relations_of(corpus: SpanCorpus) -> list[list[list[MR.Rel] | None]]:
    """Per annotator, per document: its relations (each once), or None without the document."""
    out: list[list[list[MR.Rel] | None]] = []
    for a in corpus.annotators:
        row: list[list[MR.Rel] | None] = []
        for name in corpus.names:
            sd = corpus.docs.get(name, {}).get(a)
            if sd is None:
                row.append(None)
                continue
            row.append(list(dict.fromkeys((r.label, r.source, r.target) for r in sd.relations)))
        out.append(row)
    return out


def has_relations(corpus: SpanCorpus) -> bool:
    return any(sd.relations for by in corpus.docs.values() for sd in by.values())


def relation_figures(corpus: SpanCorpus, draws: NDArray[Any]) -> RelationFigures:
    """Every relation figure of ``corpus``; ``draws`` (resamples × documents, in the corpus's
    document order) are the spans' bootstrap weights, so both resample the same documents."""
    rels = _relations_of(corpus)
    names = corpus.annotators
    labels = tuple(sorted({r[0] for row in rels for doc in row if doc for r in doc}))
    lab_ix = {lab: k for k, lab in enumerate(labels)}
    pairs = list(combinations(range(len(names)), 2))
    pair_rows, pl_rows, dis_rows = [], [], []
    boot_pair: dict[str, list[NDArray[Any]]] = {r: [] for r in RULES}
    pair_value: dict[str, list[float]] = {r: [] for r in RULES}
    lab_value: dict[str, list[NDArray[Any]]] = {r: [] for r in RULES}
    lab_boot: dict[str, list[NDArray[Any]]] = {r: [] for r in RULES}
    for x, y in pairs:
        tp, n_x, n_y, causes = _pair_counts(corpus, rels, (x, y), lab_ix)
        row: dict[str, Any] = {
            "a": names[x],
            "b": names[y],
            "n_a": int(n_x.sum()),
            "n_b": int(n_y.sum()),
        }
        for rule in RULES:
            t = tp[rule]
            value = float(S.f1_from_counts(t.sum(), n_x.sum(), n_y.sum()))
            boot = S.f1_from_counts(
                draws @ t.sum(axis=1), draws @ n_x.sum(axis=1), draws @ n_y.sum(axis=1)
            )
            row[f"{rule}_f1"] = value
            row[f"{rule}_f1_ci_low"], row[f"{rule}_f1_ci_high"] = S.percentile_interval(boot)
            pair_value[rule].append(value)
            boot_pair[rule].append(boot)
            lv = S.f1_from_counts(t.sum(axis=0), n_x.sum(axis=0), n_y.sum(axis=0))
            lb = S.f1_from_counts(draws @ t, draws @ n_x, draws @ n_y)  # resamples × labels
            lab_value[rule].append(lv)
            lab_boot[rule].append(lb)
        pair_rows.append(row)
        for k, lab in enumerate(labels):
            if not (n_x[:, k].sum() + n_y[:, k].sum()):
                continue
            prow: dict[str, Any] = {
                "a": names[x],
                "b": names[y],
                "label": lab,
                "n_a": int(n_x[:, k].sum()),
                "n_b": int(n_y[:, k].sum()),
            }
            for rule in RULES:
                prow[f"{rule}_f1"] = float(lab_value[rule][-1][k])
                ci = S.percentile_interval(lab_boot[rule][-1][:, k]) if len(draws) else None
                prow[f"{rule}_f1_ci_low"], prow[f"{rule}_f1_ci_high"] = ci or (math.nan,) * 2
            pl_rows.append(prow)
        for cause, (of_a, of_b) in causes.items():
            dis_rows.append(
                {
                    "a": names[x],
                    "b": names[y],
                    "cause": cause,
                    "n_relations": of_a + of_b,
                    "n_of_a": of_a,
                    "n_of_b": of_b,
                }
            )
    out = RelationFigures(labels=labels)
    out.n_relations = sum(len(doc) for row in rels for doc in row if doc)
    nan2 = (math.nan, math.nan)
    for rule in RULES:
        value = float(_nanmean(np.array(pair_value[rule]))) if pairs else math.nan
        boots = np.array(boot_pair[rule])
        ci = S.percentile_interval(_nanmean(boots)) if pairs and boots.size else nan2
        out.overall[f"{rule}_f1"] = _figure(value, ci)
    lab_rows = []
    for k, lab in enumerate(labels):
        lrow: dict[str, Any] = {
            "label": lab,
            "n_relations": sum(1 for row in rels for doc in row if doc for r in doc if r[0] == lab),
        }
        for rule in RULES:
            vals = np.array([v[k] for v in lab_value[rule]]) if pairs else np.zeros(0)
            lrow[f"{rule}_f1"] = float(_nanmean(vals)) if vals.size else math.nan
            mb = _nanmean(np.array([b[:, k] for b in lab_boot[rule]])) if pairs else None
            ci = S.percentile_interval(mb) if mb is not None and mb.size else nan2
            lrow[f"{rule}_f1_ci_low"], lrow[f"{rule}_f1_ci_high"] = ci
        lab_rows.append(lrow)
    kappa_rows, out.kappa_mean, out.kappa_fleiss, out.kappa_fleiss_units = label_kappa(rels, names)
    out.frames = {
        "relations_pairs": pd.DataFrame(pair_rows),
        "relations_per_label": pd.DataFrame(lab_rows),
        "relations_pairs_labels": pd.DataFrame(pl_rows),
        "relations_label_kappa": pd.DataFrame(
            kappa_rows, columns=["a", "b", "cohen_kappa", "n_units"]
        ),
        "relations_disagreements": pd.DataFrame(dis_rows),
    }
    return out


def _pair_counts(
    corpus: SpanCorpus,
    rels: list[list[list[MR.Rel] | None]],
    pair: tuple[int, int],
    lab_ix: dict[str, int],
) -> tuple[dict[MR.Rule, NDArray[Any]], NDArray[Any], NDArray[Any], dict[str, list[int]]]:
    """One pair's matched relations per rule, relations of each (documents × labels), and the
    causes of its unmatched relations (cause → [of the first, of the second])."""
    x, y = pair
    n_docs, n_lab = len(corpus.names), len(lab_ix)
    tp: dict[MR.Rule, NDArray[Any]] = {r: np.zeros((n_docs, n_lab)) for r in RULES}
    n_x: NDArray[Any] = np.zeros((n_docs, n_lab))
    n_y: NDArray[Any] = np.zeros((n_docs, n_lab))
    causes = {c: [0, 0] for c in MR.CAUSES}
    for d in range(n_docs):
        rx, ry = rels[x][d], rels[y][d]
        if rx is None or ry is None:
            continue
        for r in rx:
            n_x[d, lab_ix[r[0]]] += 1
        for r in ry:
            n_y[d, lab_ix[r[0]]] += 1
        for rule in RULES:
            for lab, n in MR.matched_by_label(rx, ry, rule).items():
                tp[rule][d, lab_ix[lab]] = n
        exact = MR.max_matching(rx, ry, "exact")
        done_x, done_y = {i for i, _ in exact}, {j for _, j in exact}
        for side, mine, theirs, done, who in ((0, rx, ry, done_x, y), (1, ry, rx, done_y, x)):
            spans = _spans(corpus, d, who)
            for i, r in enumerate(mine):
                if i not in done:
                    causes[MR.unmatched_cause(r, theirs, spans)][side] += 1
    return tp, n_x, n_y, causes


def _figure(value: float, ci: tuple[float, float]) -> dict[str, float | None]:
    def f(v: float) -> float | None:
        return float(v) if math.isfinite(v) else None

    return {"value": f(value), "ci_low": f(ci[0]), "ci_high": f(ci[1])}


def _spans(corpus: SpanCorpus, d: int, who: int) -> list[Fragments]:
    sd = corpus.docs.get(corpus.names[d], {}).get(corpus.annotators[who])
    return [s.fragments for s in sd.spans] if sd is not None else []


def _linked(docs: list[list[MR.Rel] | None]) -> dict[tuple[int, Fragments, Fragments], str | None]:
    """(document, source, target) → the label of that directed argument pair (None when the
    annotator gave it several labels: left out of the κ)."""
    out: dict[tuple[int, Fragments, Fragments], str | None] = {}
    for d, doc in enumerate(docs):
        for lab, src, tgt in doc or ():
            key = (d, src, tgt)
            out[key] = lab if key not in out or out[key] == lab else None
    return out


def label_kappa(
    rels: list[list[list[MR.Rel] | None]], names: tuple[str, ...]
) -> tuple[list[dict[str, Any]], float, float, int]:
    """Cohen's κ of the relation labels per annotator pair over the directed argument pairs both
    linked (one label each), their mean, and Fleiss' κ over the argument pairs every annotator
    linked."""
    from iaa_desktop.core.metrics.coding import encode
    from iaa_desktop.core.metrics.coefficients import cohen_kappa, fleiss_kappa

    linked = [_linked(row) for row in rels]
    rows = []
    for x, y in combinations(range(len(names)), 2):
        keys = [k for k in linked[x] if k in linked[y] and linked[x][k] and linked[y][k]]
        kappa = math.nan
        if keys:
            codes, _ = encode([[linked[x][k], linked[y][k]] for k in keys])
            kappa = float(cohen_kappa(codes).value)
        rows.append({"a": names[x], "b": names[y], "cohen_kappa": kappa, "n_units": len(keys)})
    values = np.array([r["cohen_kappa"] for r in rows], dtype=float)
    mean = float(_nanmean(values)) if values.size and np.isfinite(values).any() else math.nan
    every = [k for k in (linked[0] if linked else {}) if all(k in lk and lk[k] for lk in linked)]
    fleiss = math.nan
    if every and len(names) >= 2:
        codes, _ = encode([[lk[k] for lk in linked] for k in every])
        fleiss = float(fleiss_kappa(codes).value)
    return rows, mean, fleiss, len(every)


#: how a relation of one annotator stands with the others: matched by all, or the first cause
MATCHED = "matched"


def document_relations(corpus: SpanCorpus, d: int) -> list[tuple[str, list[tuple[MR.Rel, str]]]]:
    """Per annotator who has document ``d``: their relations (each once) and how each stands:
    :data:`MATCHED` when every other annotator with the document has it (same label, exact
    arguments), else the cause (:data:`~iaa_desktop.core.metrics.relations.CAUSES`) with
    respect to the first annotator who lacks it. For the view's arcs."""
    by = corpus.docs.get(corpus.names[d], {})
    rels = [
        list(dict.fromkeys((r.label, r.source, r.target) for r in by[a].relations))
        if a in by
        else None
        for a in corpus.annotators
    ]
    out: list[tuple[str, list[tuple[MR.Rel, str]]]] = []
    for x, name in enumerate(corpus.annotators):
        mine = rels[x]
        if mine is None:
            continue
        rows: list[tuple[MR.Rel, str]] = []
        for r in mine:
            status = MATCHED
            for y in range(len(corpus.annotators)):
                theirs = rels[y]
                if y == x or theirs is None or r in theirs:
                    continue
                status = MR.unmatched_cause(r, theirs, _spans(corpus, d, y))
                break
            rows.append((r, status))
        out.append((name, rows))
    return out

"""Labelled spans compared: span F1, character/token κ and α, unitizing α, label confusion.

Inputs: one folder (or file) per annotator — brat standoff, WebAnno/INCEpTION TSV 3.x, UIMA CAS
XMI, doccano JSONL or a span table — or one project folder with a folder per annotator, or one
file naming its annotators: a table with an annotator column, a Label Studio JSON or Prodigy JSONL
export, an INCEpTION project export ZIP.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.errors import IaaError, ReaderError
from iaa_desktop.core.kinds.annotation_limits import within_limits
from iaa_desktop.core.kinds.options import IntervalProvenance
from iaa_desktop.core.kinds.spans import measures as M
from iaa_desktop.core.kinds.spans.corpus import SpanCorpus, build_corpus
from iaa_desktop.core.kinds.spans.loading import pair_documents, read_inputs
from iaa_desktop.core.kinds.spans.names import nfc_names
from iaa_desktop.core.kinds.spans.occurrences import occurrences
from iaa_desktop.core.kinds.spans.options import SpansOptions
from iaa_desktop.core.kinds.spans.pairwise import pair_label_counts
from iaa_desktop.core.kinds.spans.readers import SpanDocument
from iaa_desktop.core.kinds.spans.result import SpansResult, figure_value
from iaa_desktop.core.kinds.spec import GivenOptions, rename_annotators
from iaa_desktop.core.metrics import spans as S
from iaa_desktop.core.progress import Progress

SETTINGS = SpansOptions.settings()

FIGURES = ("exact_f1", "overlap_f1", "char_fleiss_kappa", "char_alpha", "token_fleiss_kappa")


def _mean_pairs(values: NDArray[Any]) -> NDArray[Any]:
    """Mean over annotator pairs (axis 0), NaN-aware (a pair without spans has no F1)."""
    with np.errstate(invalid="ignore"), _quiet():
        mean: NDArray[Any] = np.nanmean(values, axis=0)
    return mean


class _quiet:
    def __enter__(self) -> None:
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore", RuntimeWarning)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._w.__exit__(kind, error, trace)


def _pair_f1(tp: NDArray[Any], tot: NDArray[Any], draws: NDArray[Any]) -> dict[str, Any]:
    """One pair, one kind of match: F1 micro, per label, macro and per document from the counts
    (documents × labels), and their resamples (``draws`` @ the counts summed again)."""
    lab = S.f1_from_counts(tp.sum(axis=0), 0, tot.sum(axis=0))
    boot_lab = S.f1_from_counts(draws @ tp, 0, draws @ tot)  # resamples × labels
    return {
        "micro": float(S.f1_from_counts(tp.sum(), 0, tot.sum())),
        "label": lab,
        "macro": float(np.nanmean(lab)) if np.isfinite(lab).any() else math.nan,
        "doc": S.f1_from_counts(tp.sum(axis=1), 0, tot.sum(axis=1)),
        "boot_micro": S.f1_from_counts(draws @ tp.sum(axis=1), 0, draws @ tot.sum(axis=1)),
        "boot_label": boot_lab,
        "boot_macro": _mean_pairs(boot_lab.T),  # NaN-aware mean over the labels
    }


def f1_tables(corpus: SpanCorpus, counts: M.F1Counts, draws: NDArray[Any]) -> dict[str, Any]:
    """Span F1 (micro and macro) per pair, per label, per document and overall (mean over
    pairs), with intervals: every resample of the documents gives every figure again."""
    pairs = M.pairs_of(corpus)
    names = corpus.annotators
    out: dict[str, Any] = {"pairs": [], "overall": {}}
    per: dict[str, list[dict[str, Any]]] = {"exact": [], "overlap": []}
    for p, pair in enumerate(pairs):
        tp_e, tp_o, tot = counts.totals(pair, p, corpus.has)
        row: dict[str, Any] = {"a": names[pair[0]], "b": names[pair[1]]}
        for kind, tp in (("exact", tp_e), ("overlap", tp_o)):
            r = _pair_f1(tp, tot, draws)
            per[kind].append(r)
            row[f"{kind}_f1"] = r["micro"]
            row[f"{kind}_f1_ci_low"], row[f"{kind}_f1_ci_high"] = S.percentile_interval(
                r["boot_micro"]
            )
            row[f"{kind}_f1_macro"] = r["macro"]
            row[f"{kind}_f1_macro_ci_low"], row[f"{kind}_f1_macro_ci_high"] = S.percentile_interval(
                r["boot_macro"]
            )
        out["pairs"].append(row)
    nan2 = (math.nan, math.nan)
    for kind, rs in per.items():
        for fig, key in (("", "micro"), ("_macro", "macro")):
            mean = float(_mean_pairs(np.array([r[key] for r in rs]))) if rs else math.nan
            boot = _mean_pairs(np.array([r[f"boot_{key}"] for r in rs])) if rs else None
            ci = S.percentile_interval(boot) if boot is not None else nan2
            out["overall"][f"{kind}_f1{fig}"] = figure_value(mean, ci)
        out[f"label_{kind}"] = _mean_pairs(np.array([r["label"] for r in rs])) if rs else None
        out[f"doc_{kind}"] = _mean_pairs(np.array([r["doc"] for r in rs])) if rs else None
        # per label: F1 per pair and label in each resample, mean over the pairs
        mb = _mean_pairs(np.array([r["boot_label"] for r in rs])) if rs else np.zeros((0, 0))
        out[f"label_{kind}_ci"] = [
            S.percentile_interval(mb[:, k]) if mb.size else nan2 for k in range(len(corpus.labels))
        ]
    return out


def unit_figures(corpus: SpanCorpus, level: str, draws: NDArray[Any]) -> dict[str, Any]:
    ut = M.unit_table(corpus, level)
    if not len(ut.rows):
        return {"left_out": ut.left_out, "overall": {}, "pairs": {}, "per_doc": {}}
    total = M.unit_coefficients(ut, ut.per_doc.sum(axis=0)[None, :])
    per_doc = M.unit_coefficients(ut, None)
    boot = M.unit_coefficients(ut, draws @ ut.per_doc) if len(draws) else {}
    figures = {
        k: figure_value(
            float(v[0]), S.percentile_interval(boot[k]) if boot else (math.nan, math.nan)
        )
        for k, v in total.items()
    }
    return {
        "left_out": ut.left_out,
        "figures": figures,
        "per_doc": per_doc,
        "n_units": float(ut.per_doc.sum()),
    }


class SpansKind:
    name = "spans"
    settings = SETTINGS
    #: the kind's options: resolved once (:meth:`SpansOptions.resolve`), computed with as they are
    options = SpansOptions

    def sniff(self, inputs: Sequence[Path]) -> float:
        from iaa_desktop.core.kinds.spans.sniffing import sniff

        return sniff(inputs)

    def run(
        self, inputs: Sequence[Path], options: GivenOptions
    ) -> Generator[Progress, None, SpansResult]:
        opts = SpansOptions.resolve(options)
        errors: list[ReaderError] = []
        yield Progress(0, 6, "Reading the annotations")
        by_annotator = read_inputs([Path(p) for p in inputs], opts, errors)
        if opts.batch_column:  # only formats that say when an annotation was made
            from iaa_desktop.core.kinds.spans.batches import check_batch_values

            check_batch_values(by_annotator, opts.batch_column)
        if opts.retest:  # only Label Studio exports hold an annotator's repeats
            from iaa_desktop.core.kinds.spans.retest import check_occasions

            check_occasions(by_annotator)
        by_annotator, merged = nfc_names(by_annotator, errors)
        by_annotator = within_limits(
            by_annotator, lambda d: len(d.spans), _path, errors, lambda d: len(d.text or "")
        )
        names = rename_annotators(list(by_annotator), opts.as_dict())
        by_annotator = dict(zip(names, by_annotator.values()))
        docs = pair_documents(by_annotator, errors)
        annotators = tuple(by_annotator)
        everyone = None
        asked = opts.competence or opts.batch_column or opts.retest
        if opts.model_names or opts.planning or asked:
            from iaa_desktop.core.kinds.spans.annotators import human_documents

            everyone = build_corpus(annotators, docs)
            annotators, docs = human_documents(annotators, docs, opts)
        corpus = build_corpus(annotators, docs)
        if corpus.n_spans == 0:
            raise IaaError(
                "No span to compare: the annotators' documents hold no span.\n"
                + "\n".join(str(e) for e in errors[:10])
            )
        result = yield from compare_corpus(corpus, opts, errors)
        if everyone is not None:
            from iaa_desktop.core.kinds.spans.annotators import token_annotators

            result.annotator_figures = token_annotators(everyone, opts)
            if opts.batch_column:
                from dataclasses import replace

                from iaa_desktop.core.kinds.spans.batches import token_batches

                time = token_batches(corpus, opts.batch_size, opts.n_resamples, opts.seed)
                result.annotator_figures = replace(result.annotator_figures, **time)
            if opts.retest:
                from dataclasses import replace

                from iaa_desktop.core.kinds.spans.retest import token_retest

                again = token_retest(everyone, everyone.annotators, opts.n_resamples, opts.seed)
                result.annotator_figures = replace(result.annotator_figures, retest=again)
        result.options = opts.record()  # as given, for the study's record
        result.warnings[:0] = merged
        result.inputs = tuple(str(p) for p in inputs)
        return result


def compare_corpus(
    corpus: SpanCorpus,
    given: SpansOptions | Mapping[str, Any],
    errors: list[ReaderError] | None = None,
) -> Generator[Progress, None, SpansResult]:
    """Every figure of an already read corpus (the benchmark times this)."""
    from iaa_desktop.core.kinds.spans.tables import add_pairwise_figures, assemble

    opts = given if isinstance(given, SpansOptions) else SpansOptions.resolve(given)
    errors = errors if errors is not None else []
    warnings: list[ReaderError] = []
    draws = M.doc_draws(len(corpus.names), opts.n_resamples, opts.seed)
    # the resamples are drawn over the documents in name order, so that every interval but the
    # pooled αU's (whose continuum follows the input order) is the same for any input order
    draws = draws[:, np.argsort(np.argsort(np.array(corpus.names, dtype=object), kind="stable"))]
    yield Progress(1, 6, "Matching spans")
    edges = M.span_edges(corpus)
    counts = M.f1_counts(corpus, edges)
    f1 = f1_tables(corpus, counts, draws)
    yield Progress(2, 6, "Grouping disagreements")
    grouped = edges
    if corpus.time_unit:  # a point of time goes with the units it lies in, and other points
        pi, pj = M.point_edges(corpus)
        grouped = (np.concatenate([edges[0], pi]), np.concatenate([edges[1], pj]))
    groups = M.span_groups(corpus, grouped)
    confusion, pair_dis = M.pair_disagreements(corpus, edges)
    yield Progress(3, 6, "Character and token coefficients")
    units = {level: unit_figures(corpus, level, draws) for level in ("char", "token")}
    yield Progress(4, 6, "Unitizing α")
    every = M.unitizing_units(corpus, np.arange(len(corpus.names)))
    ua = M.unitizing_figures(corpus, draws=draws, units=every)
    ua_pairs = {p: M.unitizing_figures(corpus, p, draws, every) for p in M.pairs_of(corpus)}
    gamma, note = None, ""
    if opts.gamma:
        from iaa_desktop.core.kinds.spans.gamma import corpus_gamma

        yield Progress(4, 6, "γ: best alignments of the units and of sampled continua")
        gamma, note = corpus_gamma(corpus, opts.seed)
    else:
        note = "γ not computed: turned off in the settings."
    yield Progress(5, 6, "Tables")
    if corpus.duplicates:
        warnings.append(
            ReaderError(
                None, None, f"{corpus.duplicates} spans repeated by the same annotator count once."
            )
        )
    for level, u in units.items():
        if u["left_out"]:
            n = u["left_out"]
            what = ("character" if level == "char" else "token") + ("s" if n != 1 else "")
            warnings.append(
                ReaderError(
                    None,
                    None,
                    f"{n:,} {what} covered by two labels of one annotator (overlapping spans) "
                    f"{'is' if n == 1 else 'are'} left out of the character/token coefficients.",
                )
            )
    by_pair_label = pair_label_counts(corpus, counts, edges)
    result = assemble(corpus, f1, groups, confusion, pair_dis, units, ua, ua_pairs, gamma)
    add_pairwise_figures(result, by_pair_label)
    if corpus.time_unit:  # units in time (ELAN, Praat): F1 within a boundary tolerance
        from iaa_desktop.core.kinds.spans.tolerance import add_time_figures

        add_time_figures(result, corpus, opts.tolerance, draws, f1_tables)
    result.options, result.errors, result.warnings = opts.record(), errors, warnings
    result.chosen = opts
    result.interval = IntervalProvenance("bootstrap", opts.n_resamples, opts.seed)
    result.gamma_note = note
    if not corpus.time_unit:  # units in time cover no words: no forms to gather
        result.occurrences = occurrences(corpus, opts.occurrence_match)
    from iaa_desktop.core.kinds.spans.relation_figures import has_relations, relation_figures

    if has_relations(corpus):
        result.relations = relation_figures(corpus, draws)
    yield Progress(6, 6, "Done")
    return result


def _path(d: SpanDocument) -> str:
    return d.path


KIND = SpansKind()

"""Coreference comparison (the Psalms coreference study; Pradhan et al. 2014): matched classes and standard scores.

Inputs: one folder (or file) per annotator — brat ``.ann`` + ``.txt``, CoNLL-2012 files, or a
mention table. Documents are paired by name; every pair of annotators is compared.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import pandas as pd

from iaa_desktop.core.align.class_matching import MatchRow, format_d, match_sets, totals
from iaa_desktop.core.errors import IaaError, InsufficientDataError, ReaderError
from iaa_desktop.core.kinds.annotation_limits import within_limits
from iaa_desktop.core.kinds.coref.mention_match import matched_entities
from iaa_desktop.core.kinds.coref.names import nfc_names
from iaa_desktop.core.kinds.coref.options import CorefOptions
from iaa_desktop.core.kinds.coref.readers import (
    CorefDocument,
    MentionKey,
    is_conll,
    read_brat,
    read_conll,
    read_mention_table,
)
from iaa_desktop.core.kinds.coref.sources import (
    is_coref_file,
    read_coref_file,
    read_project_exports,
)
from iaa_desktop.core.kinds.coref.token_ids import align_documents
from iaa_desktop.core.kinds.occurrences import Occurrences
from iaa_desktop.core.kinds.spec import (
    GivenOptions,
    TaskResult,
    rename_annotators,
    result_fields,
    unique_name,
)
from iaa_desktop.core.metrics.coref_scores import DocumentScores, score_document
from iaa_desktop.core.metrics.coref_split import score_document_with_splits
from iaa_desktop.core.progress import Progress
from iaa_desktop.core.refusals import what_it_is

SETTINGS = CorefOptions.settings()


def _counts(r: MatchRow) -> dict[str, Any]:
    """L, M, R, D and δ (rounded to 4 places) of a row of matched classes or a total."""
    return {"L": r.L, "M": r.M, "R": r.R, "D": r.D, "d": round(r.d, 4)}


@dataclass
class PairComparison:
    a: str
    b: str
    rows: list[MatchRow]

    @property
    def total(self) -> MatchRow:
        return totals(self.rows)


@dataclass
class DocumentComparison:
    name: str
    docs: dict[str, CorefDocument]  # annotator → document
    pairs: list[PairComparison]
    scores: dict[tuple[str, str], DocumentScores]


@dataclass
class CorefResult(TaskResult):
    annotators: tuple[str, ...] = ()
    documents: list[DocumentComparison] = field(default_factory=list)
    corpus_scores: dict[tuple[str, str], DocumentScores] = field(default_factory=dict)
    study_threshold: float = 1 / 3
    #: every mention text with what each annotator made of it at each place it stands
    occurrences: Occurrences | None = None
    #: the options it was computed with
    chosen: CorefOptions = field(default_factory=CorefOptions)

    def pair_total(self, a: str, b: str) -> MatchRow:
        rows = [r for d in self.documents for p in d.pairs if (p.a, p.b) == (a, b) for r in p.rows]
        return totals(rows)

    def _total(self, p: PairComparison) -> dict[str, Any]:
        """The counts of one pair of annotators over a document, and whether it is flagged."""
        t = p.total
        return {**_counts(t), "study": t.d >= self.study_threshold}

    def to_json(self) -> dict[str, Any]:
        docs = []
        for d in self.documents:
            pairs = []
            for p in d.pairs:
                pairs.append(
                    {"a": p.a, "b": p.b, "rows": [r.to_json() for r in p.rows], **self._total(p)}
                )
            docs.append({"name": d.name, "pairs": pairs})
        total_pairs = []
        for a, b in combinations(self.annotators, 2):
            t = self.pair_total(a, b)
            total_pairs.append({"a": a, "b": b, **_counts(t)})
        scores = [{"a": a, "b": b, **s.to_json()} for (a, b), s in self.corpus_scores.items()]
        out = {
            "kind": self.kind,
            "annotators": list(self.annotators),
            "n_documents": len(self.documents),
            "documents": docs,
            "total": {"pairs": total_pairs},
            "scores": scores,
            **({"occurrences": self.occurrences.to_json()} if self.occurrences else {}),
        }
        matching = _matching(self.chosen)
        if matching != DEFAULT_MATCHING:  # the defaults leave the layout as it was
            out["scores_matching"] = {
                "mentions": matching[0],
                "zeros": matching[1],
                "split_antecedents": matching[2],
            }
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        rows, per_doc, sc = [], [], []
        for d in self.documents:
            for p in d.pairs:
                for r in p.rows:
                    rows.append(
                        {
                            "document": d.name,
                            "a": p.a,
                            "b": p.b,
                            "class_a": r.class_a,
                            "class_b": r.class_b,
                            **_counts(r),
                        }
                    )
                per_doc.append({"document": d.name, "a": p.a, "b": p.b, **self._total(p)})
                s = d.scores[(p.a, p.b)].to_json()
                sc.append(
                    {
                        "document": d.name,
                        "a": p.a,
                        "b": p.b,
                        **{f"{m}_{q}": v for m, vals in s.items() for q, v in vals.items()},
                    }
                )
        totals_rows = [
            {
                "a": a,
                "b": b,
                **{
                    k: v
                    for k, v in self.pair_total(a, b).to_json().items()
                    if k not in ("class_a", "class_b")
                },
            }
            for a, b in combinations(self.annotators, 2)
        ]
        corpus = [
            {
                "a": a,
                "b": b,
                **{f"{m}_{q}": v for m, vals in s.to_json().items() for q, v in vals.items()},
            }
            for (a, b), s in self.corpus_scores.items()
        ]
        return {
            "class_rows": pd.DataFrame(rows),
            "documents": pd.DataFrame(per_doc),
            "totals": pd.DataFrame(totals_rows),
            "scores": pd.DataFrame(corpus),
            "scores_per_document": pd.DataFrame(sc),
            **(self.occurrences.tables() if self.occurrences else {}),
        }

    def headline(self) -> list[tuple[str, str]]:
        out = [("documents", str(len(self.documents))), ("annotators", str(len(self.annotators)))]
        if len(self.annotators) >= 2:
            a, b = self.annotators[:2]
            out.append((f"d {a}–{b}", format_d(self.pair_total(a, b).d)))
            s = self.corpus_scores.get((a, b))
            if s is not None:
                out.append(("CoNLL F1", f"{s.to_json()['conll']['f1']:.3f}"))
        return out


def sets_of(doc: CorefDocument) -> tuple[list[list[MentionKey]], list[str]]:
    """The Psalms study's sets: C1..Cm in file order, then S (always present, possibly empty)."""
    sets = [list(c) for c in doc.classes] + [doc.singletons]
    names = [f"C{i}" for i in range(1, len(doc.classes) + 1)] + ["S"]
    return sets, names


def entities_of(doc: CorefDocument) -> list[list[MentionKey]]:
    """Classes plus every unclassed mention as a singleton entity (for the standard scores)."""
    return [list(c) for c in doc.classes] + [[m] for m in doc.singletons]


def write_iaa_files(result: CorefResult, directory: Path) -> list[Path]:
    """The Psalms study's text format: one ``<document>.iaa`` per document and pair, plus ``total.iaa``.

    Unmatched rows are listed in ascending order (the original files list them in any order).
    File names come from document names, which the inputs choose (a CoNLL ``#begin document``
    line, a mention table's column): they are made safe and unique and stay inside
    ``directory`` (:class:`~iaa_desktop.core.io.NameAllocator`).
    """
    from iaa_desktop.core.io import NameAllocator, path_inside, write_text_atomic

    directory = Path(directory)
    written = []
    multi = len(result.annotators) > 2
    names = NameAllocator(reserved=["total.iaa"])
    for d in result.documents:
        for p in d.pairs:
            lines = [
                f"{r.class_a}\t{r.class_b}\t{r.L}\t{r.M}\t{r.R}\t{r.D}\t{format_d(r.d)}"
                for r in p.rows
            ]
            stem = d.name if not multi else f"{d.name}.{p.a}-{p.b}"
            path = path_inside(directory, names.take(stem, ".iaa"))
            write_text_atomic(path, "\n".join(lines) + "\n")
            written.append(path)
    lines = []
    for a, b in combinations(result.annotators, 2):
        t = result.pair_total(a, b)
        lines.append(f"{a}\t{b}\t{t.L}\t{t.M}\t{t.R}\t{t.D}\t{format_d(t.d)}")
    path = path_inside(directory, "total.iaa")
    write_text_atomic(path, "\n".join(lines) + "\n")
    written.append(path)
    return written


def looks_like_coref(inputs: Sequence[Path]) -> float:
    """Confidence that the inputs are coreference annotations (for auto-detection)."""
    for p in inputs:
        p = Path(p)
        files = list(p.iterdir()) if p.is_dir() else [p]
        if any(f.suffix == ".ann" for f in files):
            return 0.95
        if any(
            f.name.endswith(("_conll", ".conll", ".key", ".response"))
            or (f.is_file() and f.suffix in ("", ".txt") and is_conll(f))
            for f in files[:50]
        ):
            return 0.9
        if any(f.is_file() and is_coref_file(f) for f in files[:50]):
            return 0.9
    return 0.0


_NO_MENTIONS = (
    "no mentions were found: is the coreference column right (CorefUD: Entity= in MISC; "
    "Universal Anaphora: the IDENTITY column named by '# global.columns'; CoNLL-2012: the last "
    "column), and are the columns separated by tabs? This annotator is left out."
)


def read_annotator(
    path: Path, opts: CorefOptions, errors: list[ReaderError]
) -> dict[str, CorefDocument]:
    """One annotator's documents by name: every file of a folder (or the one file) in a format
    the kind reads; problems go to ``errors``."""
    rel = opts.relations
    files = sorted(path.iterdir()) if path.is_dir() else [path]
    docs: dict[str, CorefDocument] = {}
    for f in files:
        if f.name.startswith(".") or not f.is_file():
            continue
        try:
            if f.suffix == ".ann":
                found = [read_brat(f, rel)]
            elif is_coref_file(f):
                found = read_coref_file(f)
            elif f.suffix.lower() in (".csv", ".tsv", ".xlsx"):
                found = read_mention_table(f, *opts.mention_columns)
            elif f.suffix == ".txt" and f.with_suffix(".ann").exists():
                continue
            elif is_conll(f):
                found = read_conll(f)
            else:
                refusal = what_it_is(f)  # ELAN, Praat, an INCEpTION export in another format
                if refusal:
                    errors.append(ReaderError(f, None, refusal))
                continue
        except ReaderError as e:
            errors.append(e)
            continue
        for d in found:
            errors.extend(d.errors)
            if d.name in docs:
                errors.append(
                    ReaderError(
                        f,
                        d.line,
                        f"document {d.name} appears twice for this annotator; the second is left out.",
                    )
                )
                continue
            docs[d.name] = d
    if docs and not any(d.mentions for d in docs.values()):
        errors.append(ReaderError(path, None, _NO_MENTIONS))
    if not docs:
        errors.append(
            ReaderError(
                path,
                None,
                "no coreference documents found (formats tried: brat .ann, CoNLL-2012, CorefUD "
                "CoNLL-U, Universal Anaphora CoNLL-U Plus, WebAnno TSV 3.x with a chain "
                "layer, INCEpTION project export, mention table).",
            )
        )
    return docs


def read_annotators(
    inputs: Sequence[Path], opts: CorefOptions, errors: list[ReaderError]
) -> Generator[Progress, None, tuple[dict[str, dict[str, CorefDocument]], dict[str, Path | None]]]:
    """Annotator → documents over ``inputs``, and each annotator's input (``None``: an INCEpTION
    project export, which holds every annotator). Every other input is one annotator named
    after it, with a prime for twins; problems go to ``errors``."""
    by_annotator, rest = read_project_exports(list(inputs), opts.curation, errors)
    sources: dict[str, Path | None] = dict.fromkeys(by_annotator)
    for k, p in enumerate(rest):
        yield Progress(k, len(rest) + 1, f"Reading {p.name}")
        name = unique_name(p.name if p.is_dir() else p.stem, by_annotator)
        by_annotator[name] = read_annotator(p, opts, errors)
        sources[name] = p
    return by_annotator, sources


def run(inputs: Sequence[Path], options: GivenOptions) -> Generator[Progress, None, CorefResult]:
    """The comparison of the inputs with the options given (resolved here, once)."""
    opts = CorefOptions.resolve(options)
    inputs = [Path(p) for p in inputs]
    original_inputs = tuple(str(p) for p in inputs)
    errors: list[ReaderError] = []
    by_annotator, _ = yield from read_annotators(inputs, opts, errors)
    by_annotator, merged = nfc_names(by_annotator, errors)
    by_annotator = within_limits(by_annotator, _n_mentions, _path, errors)
    if len(by_annotator) < 2:
        raise IaaError(
            "Coreference needs two or more annotators: give one folder (or file) per annotator."
        )
    by_annotator = dict(
        zip(rename_annotators(list(by_annotator), opts.as_dict()), by_annotator.values())
    )
    # an annotator of whose files not one mention was read is a problem (read_annotator), not
    # an annotator who agrees with nobody: left out
    annotators = tuple(
        a for a, d in by_annotator.items() if any(doc.mentions for doc in d.values())
    )
    if len(annotators) < 2:
        raise IaaError(
            "Fewer than two annotators have readable documents:\n"
            + "\n".join(str(e) for e in errors[:10])
        )
    by_annotator, names = _document_names(by_annotator, annotators)
    documents, corpus = yield from _compare_documents(
        by_annotator, annotators, names, opts.cost, len(inputs), errors, _matching(opts)
    )
    result = CorefResult(
        **result_fields("coref", original_inputs, opts.record(), errors, merged),
        annotators=annotators,
        documents=documents,
        corpus_scores=corpus,
        study_threshold=opts.study_threshold,
        chosen=opts,
    )
    if opts.iaa_dir:
        write_iaa_files(result, Path(opts.iaa_dir))
    from iaa_desktop.core.kinds.coref.occurrences import occurrences

    result.occurrences = occurrences(result, opts.occurrence_match)
    yield Progress(1, 1, "Done")
    return result


Documents = dict[str, dict[str, CorefDocument]]  # annotator → document name → document


def _n_mentions(d: CorefDocument) -> int:
    return len(d.mentions)


def _path(d: CorefDocument) -> str:
    return d.path


def _document_names(
    by_annotator: Documents, annotators: tuple[str, ...]
) -> tuple[Documents, list[str]]:
    """The names of the documents to compare (paired by name); single CoNLL documents with
    different names (key / response files) are paired anyway, under the first one's name."""
    names = sorted(set().union(*(set(by_annotator[a]) for a in annotators)))
    if all(len(by_annotator[a]) == 1 for a in annotators) and len(names) > 1:
        only = {a: next(iter(by_annotator[a].values())) for a in annotators}
        by_annotator = {a: {only[annotators[0]].name: d} for a, d in only.items()}
        names = [only[annotators[0]].name]
    return by_annotator, names


def _matching(opts: CorefOptions) -> tuple[str, str, bool]:
    """How the standard scores pair mentions and treat plurals: mention matching, zero
    matching, split antecedents (defaults: exact, linear, off)."""
    return (opts.mention_matching, opts.zero_matching, opts.split_antecedents)


DEFAULT_MATCHING = ("exact", "linear", False)


def _plural_indices(
    doc: CorefDocument, entities: Sequence[Sequence[MentionKey]]
) -> dict[int, list[int]]:
    """Entity index → the indices of its split antecedents (in ``entities_of`` order)."""
    where = {m: k for k, e in enumerate(entities) for m in e}
    out: dict[int, list[int]] = {}
    for m, antecedents in doc.plurals:
        if m in where:
            found = [where[a] for a in antecedents if a in where]
            out.setdefault(where[m], []).extend(k for k in found if k not in out.get(where[m], []))
    return out


def pair_scores(
    key: CorefDocument, resp: CorefDocument, matching: tuple[str, str, bool] = DEFAULT_MATCHING
) -> DocumentScores:
    """The standard scores of two annotators' versions of a document (the first as key)."""
    ke, re_ = entities_of(key), entities_of(resp)
    k_ids, r_ids = matched_entities(key, resp, ke, re_, matching[0], matching[1])
    if matching[2] and (key.plurals or resp.plurals):
        return score_document_with_splits(
            k_ids, r_ids, _plural_indices(key, ke), _plural_indices(resp, re_)
        )
    return score_document(k_ids, r_ids)


def _compare_documents(
    by_annotator: Documents,
    annotators: tuple[str, ...],
    names: Sequence[str],
    cost: str,
    n_inputs: int,
    errors: list[ReaderError],
    matching: tuple[str, str, bool] = DEFAULT_MATCHING,
) -> Generator[
    Progress, None, tuple[list[DocumentComparison], dict[tuple[str, str], DocumentScores]]
]:
    """Every document every two annotators have, pair by pair: matched classes and scores; the
    scores summed over the corpus (a pair that shares no document has none, not zeros)."""
    documents: list[DocumentComparison] = []
    corpus: dict[tuple[str, str], DocumentScores] = {
        (a, b): DocumentScores() for a, b in combinations(annotators, 2)
    }
    for k, name in enumerate(names):
        yield Progress(n_inputs + k / max(1, len(names)), n_inputs + 1, f"Comparing {name}")
        docs = align_documents(
            {a: by_annotator[a][name] for a in annotators if name in by_annotator[a]}
        )
        missing = [a for a in annotators if a not in docs]
        if missing:
            some = next(iter(docs.values()))
            errors.append(
                ReaderError(
                    some.path,
                    None,
                    f"document {name} is missing for {', '.join(missing)}; compared among the others only.",
                )
            )
        if len(docs) < 2:
            continue
        pairs, scores = [], {}
        for a, b in combinations([x for x in annotators if x in docs], 2):
            sa, na = sets_of(docs[a])
            sb, nb = sets_of(docs[b])
            pairs.append(PairComparison(a, b, match_sets(sa, sb, na, nb, cost)))
            s = pair_scores(docs[a], docs[b], matching)
            scores[(a, b)] = s
            corpus[(a, b)] = corpus[(a, b)] + s
        documents.append(DocumentComparison(name, docs, pairs, scores))
    if not documents:
        raise InsufficientDataError(
            "No document is annotated by two or more annotators (documents are paired by "
            "name): nothing to compare.\n" + "\n".join(str(e) for e in errors[:10])
        )
    return documents, {pair: s for pair, s in corpus.items() if s.counts}


class CorefKind:
    """Kind ``coref``: see the module docstring."""

    name = "coref"
    settings = SETTINGS
    #: the kind's options: resolved once (:meth:`CorefOptions.resolve`), computed with as they are
    options = CorefOptions

    def sniff(self, inputs: Sequence[Path]) -> float:
        return looks_like_coref(inputs)

    def run(
        self, inputs: Sequence[Path], options: GivenOptions
    ) -> Generator[Progress, None, CorefResult]:
        return (yield from run(inputs, options))


KIND = CorefKind()

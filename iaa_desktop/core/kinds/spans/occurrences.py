"""Every covered text of a spans study with each annotator's label at each of its occurrences
(:mod:`iaa_desktop.core.kinds.occurrences`): the same name labelled PER in one document and ORG
in another, or marked here and left unmarked there.

An occurrence is a place some annotator marked (a document and the span's fragments), and, where
the documents' texts are known, every other place the same form stands in a text (a whole-word
match, folded as the setting says) that nobody marked. An annotator's treatment of an occurrence
is the label of their span with exactly those fragments (labels joined by ``+`` when they gave
several), ``(none)`` when they have the document but marked nothing there, and absent when they do
not have the document.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np

from iaa_desktop.core.kinds.occurrences import (
    NOT_MARKED,
    FormMatch,
    Occurrences,
    OccurrenceTable,
    fold,
    fold_with_offsets,
    gather,
)

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.spans.corpus import SpanCorpus

Fragments = tuple[tuple[int, int], ...]
#: characters of context on each side of an occurrence (the keyword-in-context list)
CONTEXT_CHARS = 40


def covered_text(text: str | None, fragments: Fragments) -> str:
    """The words a span covers (fragments joined by `` … ``); its offsets when there is no text."""
    if text is None:
        return " ".join(f"{s}–{e}" for s, e in fragments)
    return " … ".join(text[s:e] for s, e in fragments)


def _marked(corpus: SpanCorpus) -> dict[tuple[int, Fragments], dict[int, set[str]]]:
    """(document, fragments) → annotator → labels, in the order the spans were read."""
    out: dict[tuple[int, Fragments], dict[int, set[str]]] = {}
    for x, d, s in zip(corpus.ann.tolist(), corpus.doc.tolist(), corpus.spans):
        out.setdefault((d, s.fragments), {}).setdefault(x, set()).add(s.label)
    return out


def _unmarked(
    corpus: SpanCorpus, marked: set[tuple[int, Fragments]], forms: set[str], match: FormMatch
) -> list[tuple[int, Fragments]]:
    """Every whole-word place in the documents' texts where one of ``forms`` (folded) stands and
    nobody marked it."""
    if not forms:
        return []
    alternatives = sorted((f for f in forms if f.strip()), key=lambda f: (-len(f), f))
    if not alternatives:
        return []
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, alternatives)) + r")(?!\w)")
    out: list[tuple[int, Fragments]] = []
    for d, text in enumerate(corpus.texts):
        if not text:
            continue
        folded, starts = fold_with_offsets(text, match)
        for m in pattern.finditer(folded):
            frag = ((starts[m.start()], starts[m.end()]),)
            if (d, frag) not in marked:
                out.append((d, frag))
    return out


def occurrence_table(corpus: SpanCorpus, match: FormMatch = "exact") -> OccurrenceTable:
    """The occurrences of every covered text of ``corpus`` (see the module docstring)."""
    marked = _marked(corpus)
    places = list(marked)
    contiguous = {
        fold(covered_text(corpus.texts[d], f), match)
        for d, f in places
        if len(f) == 1 and corpus.texts[d] is not None
    }
    places += _unmarked(corpus, set(marked), contiguous, match)
    n, c = len(places), len(corpus.annotators)
    treatments = np.full((n, c), None, dtype=object)
    forms, docs, where, left, right = [], [], [], [], []
    for o, (d, frags) in enumerate(places):
        text = corpus.texts[d]
        forms.append(covered_text(text, frags))
        docs.append(corpus.names[d])
        where.append(", ".join(f"{s}–{e}" for s, e in frags))
        lo, hi = frags[0][0], frags[-1][1]
        left.append((text or "")[max(0, lo - CONTEXT_CHARS) : lo])
        right.append((text or "")[hi : hi + CONTEXT_CHARS])
        by = marked.get((d, frags), {})
        for x in range(c):
            if not corpus.has[x, d]:
                continue
            labels = by.get(x)
            treatments[o, x] = "+".join(sorted(labels)) if labels else NOT_MARKED
    return OccurrenceTable(
        annotators=tuple(corpus.annotators),
        forms=tuple(forms),
        documents=tuple(docs),
        where=tuple(where),
        treatments=treatments,
        left=tuple(left),
        right=tuple(right),
    )


def occurrences(corpus: SpanCorpus, match: FormMatch = "exact") -> Occurrences:
    """The covered texts of ``corpus`` and how consistently each was labelled."""
    return gather(occurrence_table(corpus, match), match, not_marked=NOT_MARKED)


def occurrence_units(occ: Occurrences, unit_of: Any) -> tuple[str, ...]:
    """The adjudication unit of each occurrence, ``unit_of(document, start, end)`` giving the key
    of the unit that covers it (empty where none does)."""
    t = occ.table
    out = []
    for d, w in zip(t.documents, t.where):
        first, last = w.split(", ")[0], w.split(", ")[-1]
        start, end = int(first.split("–")[0]), int(last.split("–")[1])
        out.append(unit_of(d, start, end) or "")
    return tuple(out)

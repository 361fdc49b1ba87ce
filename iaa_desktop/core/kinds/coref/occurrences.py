"""Every mention text of a coreference study with what each annotator made of it at each place it
stands (:mod:`iaa_desktop.core.kinds.occurrences`): the same phrase a mention in a chain in one
place and nothing elsewhere.

An occurrence is a place some annotator marked as a mention (a document and the mention's
position: characters for brat, tokens for CoNLL formats), and, where the documents' texts are
known, every other whole-word place the same words stand that nobody marked. An annotator's
treatment of an occurrence is ``in a chain`` (their mention there belongs to a class of two or
more mentions), ``singleton`` (a mention in no class), ``(none)`` (they have the document but
marked nothing there), and absent when they do not have the document.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

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
    from iaa_desktop.core.kinds.coref.compare import CorefResult

IN_CHAIN = "in a chain"
SINGLETON = "singleton"
#: characters of context on each side of an occurrence (the keyword-in-context list)
CONTEXT_CHARS = 40

Place = tuple[int, int, int]  # document, start, end


def occurrence_table(result: CorefResult, match: FormMatch = "exact") -> OccurrenceTable:
    """The occurrences of every mention text of ``result`` (see the module docstring)."""
    annotators = result.annotators
    texts: list[str | None] = []
    forms: dict[Place, str] = {}
    treated: dict[Place, dict[int, str]] = {}
    has = np.zeros((len(annotators), len(result.documents)), dtype=bool)
    for d, doc in enumerate(result.documents):
        texts.append(next((x.text for x in doc.docs.values() if x.text is not None), None))
        for x, a in enumerate(annotators):
            cd = doc.docs.get(a)
            if cd is None:
                continue
            has[x, d] = True
            in_class = {m for c in cd.classes if len(c) > 1 for m in c}
            for key, covered in cd.mentions.items():
                place = (d, key[1], key[2])
                forms.setdefault(place, covered)
                treated.setdefault(place, {})[x] = IN_CHAIN if key in in_class else SINGLETON
    places = list(forms)
    wanted = {fold(forms[p], match) for p in places if texts[p[0]] is not None}
    places += _unmarked(texts, set(forms), wanted, match, forms)
    n = len(places)
    treatments = np.full((n, len(annotators)), None, dtype=object)
    left, right, where, docs, shown = [], [], [], [], []
    for o, (d, s, e) in enumerate(places):
        text = texts[d] or ""
        shown.append(forms[(d, s, e)])
        docs.append(result.documents[d].name)
        where.append(f"{s}–{e}")
        left.append(text[max(0, s - CONTEXT_CHARS) : s] if texts[d] else "")
        right.append(text[e : e + CONTEXT_CHARS] if texts[d] else "")
        by = treated.get((d, s, e), {})
        for x in range(len(annotators)):
            if has[x, d]:
                treatments[o, x] = by.get(x, NOT_MARKED)
    return OccurrenceTable(
        annotators=tuple(annotators),
        forms=tuple(shown),
        documents=tuple(docs),
        where=tuple(where),
        treatments=treatments,
        left=tuple(left),
        right=tuple(right),
    )


def _unmarked(
    texts: list[str | None],
    marked: set[Place],
    wanted: set[str],
    match: FormMatch,
    forms: dict[Place, str],
) -> list[Place]:
    """Every whole-word place in the texts where a marked form stands and nobody marked it; its
    form is recorded in ``forms``."""
    alternatives = sorted((f for f in wanted if f.strip()), key=lambda f: (-len(f), f))
    if not alternatives:
        return []
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, alternatives)) + r")(?!\w)")
    out: list[Place] = []
    for d, text in enumerate(texts):
        if not text:
            continue
        folded, starts = fold_with_offsets(text, match)
        for m in pattern.finditer(folded):
            place = (d, starts[m.start()], starts[m.end()])
            if place not in marked:
                forms[place] = text[place[1] : place[2]]
                out.append(place)
    return out


def occurrences(result: CorefResult, match: FormMatch = "exact") -> Occurrences:
    """The mention texts of ``result`` and how consistently each was made a mention."""
    return gather(occurrence_table(result, match), match, not_marked=NOT_MARKED)

"""Mentions of CoNLL-U documents matched on token identities, not running positions.

The CorefUD scorer (``ufal/corefud-scorer``, its ``CorefUDMention.WordOrd``) and the Universal
Anaphora scorer (Yu et al. 2022) identify a mention by the set of its words, a word by its
sentence and its ID, an empty node by its decimal ID (``15.1``). Key and response are aligned on
their non-empty words; their empty nodes (zero mentions) may differ — that is what annotators of
zeros disagree on. The readers number tokens in one running sequence per file, so one more empty
node in one file would shift every later position; :func:`align_documents` renumbers the
annotators' documents over the union of their token identities, in document order, so that a
position means the same token for all of them.

A mention is the set of its tokens: a span of one annotator that runs over an empty node only
another annotator has does not contain it (the reference scorers compare word sets), so such a
mention becomes one of several parts (``"parts a-b+c-d"``, the readers' discontinuous type).
Documents whose token identities are the same for every annotator are left as they are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from iaa_desktop.core.kinds.coref.readers import CorefDocument, MentionKey, TokenId


def mention_positions(key: MentionKey) -> list[int]:
    """The token positions of a mention (every part of a discontinuous one)."""
    mtype, start, end = key
    if mtype.startswith("parts "):
        out: list[int] = []
        for part in mtype[len("parts ") :].split("+"):
            a, _, b = part.partition("-")
            out.extend(range(int(a), int(b)))
        return out
    return list(range(start, end))


def _key_of(positions: list[int]) -> MentionKey:
    """The mention key of a set of positions: one span, or the parts of its runs."""
    ordered = sorted(set(positions))
    runs: list[tuple[int, int]] = []
    for p in ordered:
        if runs and runs[-1][1] == p:
            runs[-1] = (runs[-1][0], p + 1)
        else:
            runs.append((p, p + 1))
    if len(runs) == 1:
        return ("", runs[0][0], runs[0][1])
    return ("parts " + "+".join(f"{a}-{b}" for a, b in runs), runs[0][0], runs[-1][1])


def _renumber(
    doc: CorefDocument, order: Mapping[TokenId, int], union: list[tuple[TokenId, str]]
) -> CorefDocument:
    assert doc.tokens is not None
    new = [order[tid] for tid, _form in doc.tokens]
    moved = {key: _key_of([new[p] for p in mention_positions(key)]) for key in doc.mentions}
    mentions: dict[MentionKey, str] = {}
    for key, covered in doc.mentions.items():
        mentions.setdefault(moved[key], covered)
    classes, seen = [], set()
    for cls in doc.classes:
        kept = []
        for m in cls:
            if moved[m] not in seen:
                seen.add(moved[m])
                kept.append(moved[m])
        if kept:
            classes.append(kept)
    heads: dict[MentionKey, int] = {}
    for key, head in doc.heads.items():
        heads.setdefault(moved[key], new[head])
    return dataclasses.replace(
        doc,
        text=" ".join(form for _tid, form in union),
        mentions=mentions,
        classes=classes,
        tokens=list(union),
        heads=heads,
        plurals=[(moved[m], tuple(moved[a] for a in ante)) for m, ante in doc.plurals],
        mins={moved[k]: tuple(new[p] for p in v) for k, v in doc.mins.items()},
    )


def align_documents(docs: Mapping[str, CorefDocument]) -> dict[str, CorefDocument]:
    """Annotator → the same document renumbered over the union of the annotators' token
    identities (see the module docstring); unchanged when any of them is not CoNLL-U or all
    have the same tokens."""
    tokens = [d.tokens for d in docs.values()]
    if any(t is None for t in tokens) or all(t == tokens[0] for t in tokens):
        return dict(docs)
    forms: dict[TokenId, str] = {}
    for t in tokens:
        assert t is not None
        for tid, form in t:
            forms.setdefault(tid, form)
    union = sorted(forms.items())
    order = {tid: k for k, (tid, _form) in enumerate(union)}
    return {a: _renumber(d, order, union) for a, d in docs.items()}


__all__ = ["align_documents", "mention_positions"]

"""Every historical form of a normalization study with each annotator's normalization of each of
its occurrences (:mod:`iaa_desktop.core.kinds.occurrences`): the same spelling normalized two
ways, by two annotators or by one in two places."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from iaa_desktop.core.kinds.occurrences import FormMatch, Occurrences, OccurrenceTable, gather

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.normalization.result import NormalizationResult

#: tokens of context on each side of an occurrence (the view's keyword-in-context list)
CONTEXT_TOKENS = 6


def occurrence_table(result: NormalizationResult) -> OccurrenceTable:
    """One occurrence per compared token: its historical form, its text and token id, and each
    annotator's normalization (the token's unit of adjudication is ``text/token``)."""
    n = result.n_tokens
    contexts = [context(result, o) for o in range(n)]
    return OccurrenceTable(
        annotators=tuple(result.annotators),
        forms=tuple(result.orig),
        documents=tuple(result.text_ids),
        where=tuple(f"token {k}" for k in result.token_ids),
        treatments=np.asarray(result.norm, dtype=object).reshape(n, len(result.annotators)),
        left=tuple(c[0] for c in contexts),
        right=tuple(c[1] for c in contexts),
        units=tuple(f"{t}/{k}" for t, k in zip(result.text_ids, result.token_ids)),
    )


def occurrences(result: NormalizationResult, match: FormMatch = "exact") -> Occurrences:
    """The forms of ``result`` and how consistently each was normalized."""
    return gather(occurrence_table(result), match)


def context(result: NormalizationResult, o: int) -> tuple[str, str]:
    """The tokens before and after token ``o`` within its text."""
    text = result.text_ids[o]
    lo = o
    while lo > 0 and o - lo < CONTEXT_TOKENS and result.text_ids[lo - 1] == text:
        lo -= 1
    hi = o + 1
    while hi < result.n_tokens and hi - o <= CONTEXT_TOKENS and result.text_ids[hi] == text:
        hi += 1
    return " ".join(result.orig[lo:o]), " ".join(result.orig[o + 1 : hi])

"""Limits on the annotations of one document and of one study (spans, coreference mentions).

Reading is linear, but every comparison after it is not: past these limits a study would run for
hours or exhaust the memory, so a document over the limit is left out with a problem naming its
file, and a study over the limit stops with a message naming the limit and its largest files.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from iaa_desktop.core.errors import IaaError, ReaderError, shown_path

#: the most annotations read from one annotator's document
MAX_PER_DOCUMENT = 1_000_000
#: the most annotations of one study, every annotator and document together
MAX_PER_STUDY = 2_000_000
#: the longest text of a document compared character by character (some 1,000 pages; every
#: annotator's coverage of every character is held in memory)
MAX_TEXT_CHARS = 2_000_000

D = TypeVar("D")


def within_limits(
    by_annotator: dict[str, dict[str, D]],
    count: Callable[[D], int],
    where: Callable[[D], str],
    errors: list[ReaderError],
    text_length: Callable[[D], int] | None = None,
) -> dict[str, dict[str, D]]:
    """``by_annotator`` without the documents of more than :data:`MAX_PER_DOCUMENT` annotations
    or, when ``text_length`` is given, of a text longer than :data:`MAX_TEXT_CHARS` characters
    (each a problem in ``errors``); an :class:`IaaError` when the rest hold more than
    :data:`MAX_PER_STUDY` annotations."""
    out: dict[str, dict[str, D]] = {}
    sizes: list[tuple[int, str]] = []
    for who, docs in by_annotator.items():
        kept: dict[str, D] = {}
        for name, d in docs.items():
            n = count(d)
            if n > MAX_PER_DOCUMENT:
                errors.append(
                    ReaderError(
                        where(d),
                        None,
                        f"document {name} of {who} holds {n:,} annotations, more than the "
                        f"{MAX_PER_DOCUMENT:,} one document may have; it was left out.",
                    )
                )
                continue
            chars = text_length(d) if text_length is not None else 0
            if chars > MAX_TEXT_CHARS:
                errors.append(
                    ReaderError(
                        where(d),
                        None,
                        f"document {name} of {who} has a text of {chars:,} characters, more than "
                        f"the {MAX_TEXT_CHARS:,} a document compared character by character "
                        "may have; it was left out.",
                    )
                )
                continue
            kept[name] = d
            sizes.append((n, where(d)))
        if kept or not docs:  # an annotator of whom every document was left out is left out
            out[who] = kept
    total = sum(n for n, _ in sizes)
    if total > MAX_PER_STUDY:
        by_file: dict[str, int] = {}
        for n, f in sizes:
            by_file[f] = by_file.get(f, 0) + n
        largest = sorted(by_file.items(), key=lambda kv: -kv[1])[:3]
        shown = "; ".join(f"{shown_path(f)}: {n:,}" for f, n in largest)
        raise IaaError(
            f"The inputs hold {total:,} annotations, more than the {MAX_PER_STUDY:,} one study "
            f"may have (the most in {shown}). Compare a sample of the documents."
        )
    return out

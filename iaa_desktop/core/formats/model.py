"""Neutral values the format parsers return.

Every parser in :mod:`iaa_desktop.core.formats` turns a tool's export into these frozen values and
nothing else: the kinds (coreference, tables, spans ...) decide what the values mean for their
study. Offsets are always Python string indices, i.e. Unicode code points, whatever the file used
(WebAnno TSV and UIMA XMI count UTF-16 units; they are converted).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from iaa_desktop.core.errors import ReaderError


@dataclass(frozen=True, slots=True)
class Span:
    """One span annotation of one annotator in one document.

    ``start``/``end`` bound the whole annotation (``end`` exclusive, code points); ``fragments``
    lists the pieces of a discontinuous annotation in text order (empty for a contiguous one).
    ``label`` is the annotation's value as a user would name it (for WebAnno TSV the first
    feature, for Label Studio the chosen label); ``features`` keeps every feature as
    ``(name, value)`` pairs in the file's order. ``id`` is unique within the document.
    """

    start: int
    end: int
    label: str | None
    layer: str = ""
    id: str = ""
    features: tuple[tuple[str, str | None], ...] = ()
    fragments: tuple[tuple[int, int], ...] = ()
    #: the covered text as the file gives it (for checks against the document text), if any
    text: str | None = None
    #: 1-based line in the file where the annotation starts, when the format has lines
    line: int | None = None

    @property
    def pieces(self) -> tuple[tuple[int, int], ...]:
        """The fragments, or the one ``(start, end)`` piece of a contiguous span."""
        return self.fragments or ((self.start, self.end),)

    def feature(self, name: str) -> str | None:
        for key, value in self.features:
            if key == name:
                return value
        return None


@dataclass(frozen=True, slots=True)
class Relation:
    """A directed relation between two spans of the same document (``source`` → ``target`` ids)."""

    source: str
    target: str
    label: str | None
    layer: str = ""
    features: tuple[tuple[str, str | None], ...] = ()
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Chain:
    """A coreference chain: span ids in the order of the chain's links."""

    id: str
    mentions: tuple[str, ...]
    layer: str = ""
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Document:
    """One annotator's annotations of one document."""

    name: str
    text: str
    annotator: str
    spans: tuple[Span, ...] = ()
    relations: tuple[Relation, ...] = ()
    chains: tuple[Chain, ...] = ()
    #: the file (or archive member) the document was read from
    source: str = ""

    def span_by_id(self) -> dict[str, Span]:
        return {s.id: s for s in self.spans}


@dataclass(frozen=True, slots=True)
class Judgment:
    """One annotator's answer about one item (a task, a text, a pair ...).

    ``choices`` holds the chosen categories (one for a single-choice question, several for a
    multiple-choice one, none when the annotator chose nothing); ``rating`` a numeric answer.
    ``question`` names the question when a tool asks several about one item (Label Studio's
    ``from_name``); ``answer`` keeps a binary decision (Prodigy's accept/reject/ignore).
    """

    item: str
    annotator: str
    choices: tuple[str, ...] = ()
    rating: float | None = None
    question: str = ""
    answer: str | None = None
    item_text: str | None = None
    metadata: tuple[tuple[str, str], ...] = ()
    #: spans the annotator marked in the item's text (span tasks exported as judgments)
    spans: tuple[Span, ...] = ()
    source: str = ""
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a parser read: documents and/or judgments, plus the problems that did not stop it.

    ``errors`` are rows or records that could not be read (the rest still loads); ``warnings``
    are things worth showing that do not make the input wrong.
    """

    format: str
    documents: tuple[Document, ...] = ()
    judgments: tuple[Judgment, ...] = ()
    errors: tuple[ReaderError, ...] = field(default=())
    warnings: tuple[ReaderError, ...] = field(default=())

    @property
    def annotators(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for d in self.documents:
            seen.setdefault(d.annotator)
        for j in self.judgments:
            seen.setdefault(j.annotator)
        return tuple(seen)


def utf16_to_codepoints(text: str) -> list[int]:
    """Map each UTF-16 offset of ``text`` (0..len16) to the code-point offset it falls on.

    Java tools (WebAnno, INCEpTION, UIMA) count offsets in UTF-16 units: a character outside the
    Basic Multilingual Plane (an emoji, many historic scripts) counts twice. An offset pointing
    into the middle of such a pair maps to the character's start.
    """
    out: list[int] = []
    for i, ch in enumerate(text):
        out.append(i)
        if ord(ch) > 0xFFFF:
            out.append(i)
    out.append(len(text))
    return out

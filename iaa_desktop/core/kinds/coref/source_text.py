"""The text of a CoNLL-U document as its source spells it, and where each token lies in it.

The coreference readers number the tokens of a CorefUD or Universal Anaphora file (every word
line and empty node, not multi-word token ranges) and identify mentions by token numbers. To show
or write a mention's actual words, this module rebuilds the document's text from the same lines as
the CoNLL-U format defines it (`CoNLL-U format <https://universaldependencies.org/format.html>`_):
a multi-word token's surface form stands for its words (``del`` for ``de`` + ``el``), ``SpaceAfter=No``
in MISC joins a token to the next, an empty node has no surface of its own (a zero-width span) and
each sentence is a line. Token ``k`` maps to its character span in that text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.kinds.coref.conllu import split_columns, token_number
from iaa_desktop.core.kinds.coref.readers import TokenId
from iaa_desktop.core.textio import read_text


@dataclass
class _Layout:
    name: str
    parts: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    pos: int = 0
    gap: str = ""  # what goes before the next surface: "", " " or a new line
    range_end: int = -1  # the last word of the multi-word token being read
    range_span: tuple[int, int] = (0, 0)
    ids: list[TokenId | None] = field(default_factory=list)  # each token's identity
    sentence: int = 0
    sentence_done: bool = False

    def add(self, form: str, space_after: bool) -> tuple[int, int]:
        if self.parts and self.gap:
            self.parts.append(self.gap)
            self.pos += len(self.gap)
        start = self.pos
        self.parts.append(form)
        self.pos += len(form)
        self.gap = " " if space_after else ""
        return start, self.pos

    def end_sentence(self) -> None:
        self.range_end = -1  # word numbers start again in each sentence
        self.sentence_done = True
        if self.parts:
            self.gap = "\n"

    def token_id(self, ident: str) -> None:
        """Count the token's identity as the readers do (sentence, word, empty node)."""
        if self.sentence_done and self.ids:
            self.sentence += 1
        self.sentence_done = False
        parsed = token_number(ident)
        self.ids.append(None if parsed is None else (self.sentence, *parsed))


def _space_after(cols: list[str]) -> bool:
    misc = cols[9] if len(cols) > 9 else ""
    return "SpaceAfter=No" not in misc.split("|")


def _word(layout: _Layout, cols: list[str]) -> None:
    """A word line or an empty node: its span (inside a multi-word token, the token's span)."""
    ident = cols[0]
    layout.token_id(ident)
    if "." in ident:  # an empty node: no surface of its own
        layout.spans.append((layout.pos, layout.pos))
        return
    n = int(ident) if ident.isdigit() else -1
    if n != -1 and n <= layout.range_end:
        layout.spans.append(layout.range_span)
        return
    layout.spans.append(layout.add(cols[1] if len(cols) > 1 else "", _space_after(cols)))


def conllu_layout(path: Path, strict_columns: bool) -> dict[str, tuple[str, list[tuple[int, int]]]]:
    """Document name → (text, character span of each token), named and counted as the CorefUD
    (``strict_columns``: lines without 10 columns are left out, as its reader does) and Universal
    Anaphora readers name and count them."""
    return {name: ("".join(d.parts), d.spans) for name, d in _layouts(path, strict_columns).items()}


def _layouts(path: Path, strict_columns: bool) -> dict[str, _Layout]:
    path = Path(path)
    docs: dict[str, _Layout] = {}
    cur: _Layout | None = None
    n_columns = 0
    for line in read_text(path).splitlines():
        if line.startswith("# global.columns") and "=" in line:
            n_columns = len(line.split("=", 1)[1].split())
            continue
        if line.startswith("# newdoc"):
            m = re.search(r"id\s*=\s*(\S+)", line)
            cur = _Layout(m.group(1) if m else f"{path.stem}:{len(docs) + 1}")
            docs[cur.name] = cur
            continue
        if not line.strip():
            if cur is not None:
                cur.end_sentence()
            continue
        if line.startswith("#"):
            continue
        cols = split_columns(line, 0 if strict_columns else n_columns)
        if (strict_columns and len(cols) != 10) or (n_columns and len(cols) != n_columns):
            continue
        if cur is None:
            cur = docs.setdefault(path.stem, _Layout(path.stem))
        first, dash, last = cols[0].partition("-")
        if dash:  # a multi-word token: its form is what the text shows for its words
            if first.isdigit() and last.isdigit():
                cur.range_end = int(last)
                cur.range_span = cur.add(cols[1] if len(cols) > 1 else "", _space_after(cols))
            continue
        _word(cur, cols)
    return docs


def _spans_by_identity(
    layout: _Layout, tokens: list[tuple[TokenId, str]]
) -> list[tuple[int, int]] | None:
    """The span of each of ``tokens`` (the positions the comparison numbered over every
    annotator's token identities): the file's own span, or an empty span where the file lacks
    the token (an empty node only another annotator has); None when a word is missing."""
    by_id = dict(zip(layout.ids, layout.spans, strict=True))
    out: list[tuple[int, int]] = []
    for tid, _form in tokens:
        span = by_id.get(tid)
        if span is None:
            if tid[2] == 0:
                return None
            at = out[-1][1] if out else 0
            span = (at, at)
        out.append(span)
    return out


def token_layout(
    fmt: str, first: Any, text: str, last_token: int
) -> tuple[str, list[tuple[int, int]] | None]:
    """The text a document's mentions are shown and written from, and token ``k``'s character
    span in it (``None``: the mentions are character offsets already, brat and WebAnno TSV).

    CoNLL-2012 texts are the tokens joined by spaces, as the file gives no spacing. CorefUD and
    Universal Anaphora (CoNLL-U) texts are rebuilt as the source spells them (``SpaceAfter=No``,
    multi-word tokens); should that not cover every token up to ``last_token`` (the largest
    mention end of the document), the mentions' own words are used. ``first`` is the first
    annotator's reader document (its file and name), ``text`` the readers' text.
    """
    from iaa_desktop.core.kinds.coref.sources import coref_format

    if fmt == "conll":
        spans, pos = [], 0
        for tok in text.split(" "):
            spans.append((pos, pos + len(tok)))
            pos += len(tok) + 1
        return text, spans
    path = Path(first.path)
    kind = coref_format(path) if fmt == "table" and path.is_file() else None
    if kind not in ("corefud", "ua"):
        return text, None
    try:
        layout = _layouts(path, strict_columns=kind == "corefud")[first.name]
        source_text, spans = "".join(layout.parts), layout.spans
    except (KeyError, OSError, IaaError):
        source_text, spans, layout = "", [], None
    tokens = getattr(first, "tokens", None)
    if layout is not None and tokens is not None and [t for t, _f in tokens] != layout.ids:
        spans = _spans_by_identity(layout, tokens) or []
    if last_token > len(spans):
        return "", None  # the surfaces then come from the readers' words (CorefDocument.covered)
    return source_text, spans


__all__ = ["conllu_layout", "token_layout"]


def source_format(path: str) -> str:
    """How a document's gold is written, from its annotator's file: ``brat``, ``conll``
    (CoNLL-2012) or ``table`` (CorefUD, Universal Anaphora, WebAnno TSV 3.x, INCEpTION exports
    and mention tables)."""
    from iaa_desktop.core.kinds.coref.readers import is_conll
    from iaa_desktop.core.kinds.coref.sources import is_coref_file

    p = Path(path)
    if p.suffix == ".ann":
        return "brat"
    if p.is_file() and is_coref_file(p):
        # CorefUD, Universal Anaphora, TSV 3.x and INCEpTION exports: the gold is a mention table
        return "table"
    if p.suffix.lower() in (".csv", ".tsv", ".xlsx"):
        return "table"
    return "conll" if is_conll(p) else "brat"


def display_layout(doc: Any) -> tuple[str, list[tuple[int, int]] | None]:
    """The text a reader document is shown from and each token's character span in it (``None``:
    its mentions are character offsets already), as the adjudication and the gold use them."""
    text = doc.text or ""
    last = max((m[2] for m in doc.mentions), default=0)
    return token_layout(source_format(doc.path), doc, text, last)

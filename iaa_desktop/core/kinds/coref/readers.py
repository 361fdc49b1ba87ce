"""Coreference annotations: brat standoff (``.ann`` + ``.txt``), CoNLL-2012 and mention tables.

Every reader returns :class:`CorefDocument` values: the mentions (identity = type and offsets,
or token span for CoNLL) and the classes in file order. Problems are collected as
:class:`ReaderError` (file, line, message); a bad line is left out and the rest is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.brat import text_bound
from iaa_desktop.core.textio import read_head, read_text, text_lines

#: the largest offset, token position or entity number read (Python's int of a 4,000-digit
#: string is slow and refused above 4,300 digits; no document is anywhere near this long)
MAX_NUMBER = 10**12
_MAX_DIGITS = len(str(MAX_NUMBER))

MentionKey = tuple[str, int, int]  # (type, start, end) — end exclusive
#: a CoNLL-U token as the CorefUD and Universal Anaphora scorers identify it: (sentence of the
#: document, word number, empty-node number): word ``7`` is ``(s, 7, 0)``, empty node ``7.1``
#: ``(s, 7, 1)``
TokenId = tuple[int, int, int]


@dataclass
class CorefDocument:
    """One annotator's coreference annotation of one document."""

    name: str
    path: str
    text: str | None
    mentions: dict[MentionKey, str] = field(default_factory=dict)  # key → covered text
    classes: list[list[MentionKey]] = field(default_factory=list)  # in file order, no duplicates
    notes: list[str] = field(default_factory=list)
    errors: list[ReaderError] = field(default_factory=list)
    #: the line of its file where the document begins (``None``: the file is the document)
    line: int | None = field(default=None, compare=False)
    #: CoNLL-U only: each token position's identity and form (positions index this list)
    tokens: list[tuple[TokenId, str]] | None = field(default=None, compare=False, repr=False)
    #: CorefUD only: the position of each mention's head (the ``head`` index of its ``Entity``
    #: chunk, else its first word, as udapi reads it)
    heads: dict[MentionKey, int] = field(default_factory=dict, compare=False, repr=False)
    #: Universal Anaphora only: the positions of each mention's minimum span (its ``Min``)
    mins: dict[MentionKey, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    #: CoNLL-U only: split antecedents, as (a mention of the plural entity, one mention of each
    #: of its antecedent entities) (CorefUD ``SplitAnte``, Universal Anaphora ``ElementOf``)
    plurals: list[tuple[MentionKey, tuple[MentionKey, ...]]] = field(
        default_factory=list, compare=False, repr=False
    )
    #: CoNLL-U only: each token's enhanced dependencies (DEPS column) as (parent, relation)
    deps: dict[TokenId, tuple[tuple[TokenId, str], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    @property
    def singletons(self) -> list[MentionKey]:
        """S: every mention that is in no class, in text order."""
        in_class = {m for c in self.classes for m in c}
        return sorted(
            (m for m in self.mentions if m not in in_class), key=lambda k: (k[1], k[2], k[0])
        )


# ----------------------------------------------------------------------------------------- brat


def read_brat(ann_path: Path, relation_types: tuple[str, ...] = ("Coreference",)) -> CorefDocument:
    """Read a brat ``.ann`` file (and the ``.txt`` beside it).

    Classes come from ``*\\tCoreference T.. T..`` lines (one class each, in file order) and from
    relation lines ``R1\\tType Arg1:T3 Arg2:T7`` of the given types, joined by transitive closure.
    """
    ann_path = Path(ann_path)
    errors: list[ReaderError] = []
    text = _brat_text(ann_path, errors)
    lines = text_lines(ann_path)
    doc = CorefDocument(ann_path.stem, str(ann_path), text, errors=errors)
    found = _BratLines(ann_path, text, relation_types, errors)
    for lineno, line in enumerate(lines, 1):
        if line.strip():
            found.read(doc, lineno, line)
    seen: set[MentionKey] = set()
    doc.classes.extend(found.star_classes(seen))
    if found.relations:
        doc.classes.extend(_closure(found.relations, found.ids, seen, ann_path, errors))
    return doc


def _brat_text(ann_path: Path, errors: list[ReaderError]) -> str | None:
    """The ``.txt`` beside an ``.ann`` file; None (and a note) when there is none."""
    txt_path = ann_path.with_suffix(".txt")
    if txt_path.exists():
        return read_text(txt_path)
    errors.append(
        ReaderError(
            ann_path,
            None,
            f"no text file {txt_path.name} beside it; mentions are shown without their text.",
        )
    )
    return None


@dataclass
class _BratLines:
    """What the lines of one ``.ann`` file declare: mentions by id, equivalence (``*``) classes
    and relations of the coreference types (problems go to ``errors``)."""

    path: Path
    text: str | None
    relation_types: tuple[str, ...]
    errors: list[ReaderError]
    ids: dict[str, MentionKey] = field(default_factory=dict)
    id_lines: dict[str, int] = field(default_factory=dict)
    stars: list[tuple[int, list[str]]] = field(default_factory=list)
    relations: list[tuple[int, str, str]] = field(default_factory=list)

    def error(self, lineno: int, message: str) -> None:
        self.errors.append(ReaderError(self.path, lineno, message))

    def read(self, doc: CorefDocument, lineno: int, line: str) -> None:
        """One non-empty line: a mention (T), an equivalence (*), a relation (R) or a note (#);
        A (attributes), E (events), N (normalizations) ... are kept in the file, not used here."""
        if line.startswith("T"):
            found = _t_line(self.path, lineno, line, self.text, self.id_lines, self.errors)
            if found is not None:
                tid, key, covered = found
                self.ids[tid] = key  # a second id for the same mention names the same mention
                doc.mentions.setdefault(key, covered)
        elif line.startswith("*"):
            self._star(lineno, line)
        elif line.startswith("R"):
            self._relation(lineno, line)
        elif line.startswith("#"):
            doc.notes.append(line)

    def _star(self, lineno: int, line: str) -> None:
        fields = line.split("\t")
        if len(fields) < 2 or not fields[1].split():
            self.error(lineno, "an equivalence (*) line without members; left out.")
            return
        parts = fields[1].split()
        if parts[0] in self.relation_types or parts[0] == "Coreference":
            self.stars.append((lineno, parts[1:]))

    def _relation(self, lineno: int, line: str) -> None:
        fields = line.split("\t")
        if _duplicate_id(self.path, lineno, fields[0], self.id_lines, self.errors):
            return
        parts = fields[1].split() if len(fields) > 1 else []
        if parts and parts[0] in self.relation_types:
            args = [p.split(":", 1)[1] for p in parts[1:] if ":" in p]
            if len(args) != 2:
                self.error(lineno, "a relation line needs Arg1:T.. and Arg2:T..; left out.")
                return
            self.relations.append((lineno, args[0], args[1]))

    def star_classes(self, seen: set[MentionKey]) -> list[list[MentionKey]]:
        """The classes of the equivalence lines, in file order; a mention stays in the first
        class that names it (``seen`` collects the mentions placed)."""
        classes = []
        for lineno, members in self.stars:
            cls: list[MentionKey] = []
            for tid in members:
                key = self.ids.get(tid)
                if key is None:
                    self.error(
                        lineno,
                        f"the class names {tid}, which is not a mention of this file; {tid} left out.",
                    )
                    continue
                if key in seen:
                    self.error(
                        lineno,
                        f"mention {tid} is already in another class; kept in the first one only.",
                    )
                    continue
                if key not in cls:
                    cls.append(key)
                    seen.add(key)
            if cls:
                classes.append(cls)
        return classes


def _duplicate_id(
    path: Path, lineno: int, ident: str, id_lines: dict[str, int], errors: list[ReaderError]
) -> bool:
    """True (and an error naming both lines) when ``ident`` was used on an earlier line."""
    if ident not in id_lines:
        id_lines[ident] = lineno
        return False
    errors.append(
        ReaderError(
            path,
            lineno,
            f"the id {_clip(ident)} is used twice (first on line {id_lines[ident]}); this line "
            "is left out.",
        )
    )
    return True


def _t_line(
    path: Path,
    lineno: int,
    line: str,
    text: str | None,
    id_lines: dict[str, int],
    errors: list[ReaderError],
) -> tuple[str, MentionKey, str] | None:
    """``(id, mention, covered text)`` of a text-bound annotation line, or None (reported)."""

    def bad(message: str) -> None:
        errors.append(ReaderError(path, lineno, message))

    found = text_bound(line)
    if found is None:
        bad("a T line must read 'T<n><TAB><type> <start> <end><TAB><text>'; line left out.")
        return None
    tid, mtype, spans, covered = found
    if _duplicate_id(path, lineno, tid, id_lines, errors):
        return None
    if any(len(n) > _MAX_DIGITS for n in spans.replace(";", " ").split()):
        bad(f"mention {_clip(tid)} has an offset with more than {_MAX_DIGITS} digits; left out.")
        return None
    parts = [tuple(map(int, s.split())) for s in spans.split(";")]
    start, end = parts[0][0], parts[-1][1]
    if start >= end or start < 0 or any(a > b for a, b in parts):
        bad(f"mention {_clip(tid)} has empty or reversed offsets {start}–{end}; left out.")
        return None
    if text is not None and end > len(text):
        bad(
            f"mention {_clip(tid)} ends at {end}, beyond the text ({len(text)} characters); "
            "left out."
        )
        return None
    return tid, (mtype, start, end), covered


def _closure(
    relations: Any, ids: Any, seen: Any, path: Path, errors: list[ReaderError]
) -> list[list[MentionKey]]:
    parent: dict[MentionKey, MentionKey] = {}

    def find(x: MentionKey) -> MentionKey:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    order: list[MentionKey] = []
    for lineno, a, b in relations:
        ka, kb = ids.get(a), ids.get(b)
        missing = [t for t, k in ((a, ka), (b, kb)) if k is None]
        if missing:
            errors.append(
                ReaderError(
                    path,
                    lineno,
                    f"the relation names {', '.join(missing)}, not a mention of this file; left out.",
                )
            )
            continue
        for k in (ka, kb):
            if k not in parent:
                order.append(k)
        parent[find(ka)] = find(kb)
    groups: dict[MentionKey, list[MentionKey]] = {}
    for k in order:
        if k in seen:
            continue
        groups.setdefault(find(k), []).append(k)
    return [g for g in groups.values() if g]


# ---------------------------------------------------------------------------------------- CoNLL

_MARK = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")


class _ConllDocument:
    """One ``#begin document`` block being read: open mentions, entities, words."""

    def __init__(self, path: Path, name: str, line: int) -> None:
        self.path = path
        self.doc = CorefDocument(name, str(path), None, line=line)
        self.token = 0
        self.open: dict[int, list[tuple[int, int]]] = {}
        self.entities: dict[int, list[MentionKey]] = {}
        #: entity number → order of first appearance (the reference scorer's order, which decides
        #: the entity that keeps a mention listed in two of them)
        self.first_seen: dict[int, int] = {}
        self.words: list[str] = []

    def error(self, lineno: int | None, message: str) -> None:
        self.doc.errors.append(ReaderError(self.path, lineno, message))

    def token_line(self, lineno: int, cols: list[str]) -> None:
        word = cols[3] if len(cols) > 3 else cols[0]
        self.words.append(word)
        tag = cols[-1]
        if tag not in ("-", "_"):
            marks = [m.groups() for m in _MARK.finditer(tag)]
            # the reference scorer numbers a cell's entities singles first, then openings, then
            # closings
            for kind in range(3):
                for g in marks:
                    if g[kind] is not None and len(g[kind]) <= _MAX_DIGITS:
                        self.first_seen.setdefault(int(g[kind]), len(self.first_seen))
            for g in marks:
                self.marker(lineno, g, word if len(cols) > 3 else "")
        self.token += 1

    def marker(self, lineno: int, groups: tuple[str | None, ...], word: str) -> None:
        single, opening, closing = groups
        digits = single or opening or closing or ""
        if len(digits) > _MAX_DIGITS:
            self.error(lineno, f"an entity number with more than {_MAX_DIGITS} digits; left out.")
            return
        eid = int(digits)
        if single is not None:
            key = ("", self.token, self.token + 1)
            self.entities.setdefault(eid, []).append(key)
            self.doc.mentions.setdefault(key, word)
        elif opening is not None:
            self.open.setdefault(eid, []).append((self.token, lineno))
        elif not self.open.get(eid):
            self.error(lineno, f"entity {eid} is closed here but was never opened; left out.")
        else:
            start, _ln = self.open[eid].pop()
            if not self.open[eid]:
                del self.open[eid]
            key = ("", start, self.token + 1)
            self.entities.setdefault(eid, []).append(key)
            self.doc.mentions.setdefault(key, "")

    def close(self) -> CorefDocument:
        for eid, stack in self.open.items():
            for start, ln in stack:
                self.error(
                    ln, f"entity {eid} opened at token {start} is never closed; mention left out."
                )
        self.doc.text = " ".join(self.words)
        for eid in sorted(self.entities, key=self.first_seen.__getitem__):
            cls: list[MentionKey] = []
            for m in self.entities[eid]:
                if m not in cls:  # the same span twice in one entity counts once
                    cls.append(m)
            self.doc.classes.append(cls)
        return self.doc


def read_conll(path: Path) -> list[CorefDocument]:
    """Read a CoNLL-2012 file: one :class:`CorefDocument` per ``#begin document`` block.

    Mentions are token spans ``("", first_token, last_token + 1)`` counted over the whole
    document; the last column holds ``(12``, ``12)`` and ``(12)`` markers, possibly joined.
    """
    path = Path(path)
    docs: list[CorefDocument] = []
    cur: _ConllDocument | None = None
    lines = text_lines(path)
    for lineno, line in enumerate(lines, 1):
        if line.startswith("#begin document"):
            if cur is not None:
                docs.append(cur.close())
            name = line[len("#begin document") :].strip() or f"{path.stem}:{len(docs) + 1}"
            cur = _ConllDocument(path, name, lineno)
        elif line.startswith("#end document"):
            if cur is not None:
                docs.append(cur.close())
            cur = None
        elif line.strip() and cur is not None:
            cur.token_line(lineno, line.split())
    if cur is not None:
        cur.error(len(lines), f"document {cur.doc.name} has no '#end document' line.")
        docs.append(cur.close())
    for d in docs:  # a mention in two entities: keep it in the first
        seen: set[MentionKey] = set()
        fixed = []
        for c in d.classes:
            kept = [m for m in c if m not in seen]
            seen.update(kept)
            if kept:
                fixed.append(kept)
        d.classes = fixed
    return docs


def is_conll(path: Path) -> bool:
    return "#begin document" in read_head(path, 4096)


# ---------------------------------------------------------------------------------- mention tables


def read_mention_table(
    path: Path,
    document: str = "",
    begin: str = "begin",
    end: str = "end",
    entity: str = "entityNum",
    surface: str = "surface",
) -> list[CorefDocument]:
    """A CSV/TSV of mentions (document, begin, end, entity[, surface]) such as CorefAnnotator's export.

    Mentions sharing an entity value form a class; a row whose entity is empty is a singleton.
    """
    from iaa_desktop.core.tabular import LINE, read_table

    df = read_table(path)
    cols = {c.lower(): c for c in df.columns}

    def col(name: str) -> str | None:
        return cols.get(name.lower()) if name else None

    b, e, ent = col(begin), col(end), col(entity)
    if not (b and e and ent):
        raise ReaderError(
            path,
            1,
            f"a mention table needs the columns {begin!r}, {end!r} and {entity!r} (set them with the options).",
        )
    dcol, scol = col(document), col(surface)
    docs: dict[str, CorefDocument] = {}
    classes: dict[tuple[str, str], list[MentionKey]] = {}
    for row in df.to_dict("records"):
        name = str(row[dcol]) if dcol else Path(path).stem
        doc = docs.setdefault(name, CorefDocument(name, str(path), None, line=int(row[LINE])))
        start, stop = _offset(row[b]), _offset(row[e])
        if start is None or stop is None:
            doc.errors.append(
                ReaderError(
                    path,
                    int(row[LINE]),
                    f"begin and end must be whole numbers from 0 to {MAX_NUMBER:,}; row left out.",
                )
            )
            continue
        if stop <= start:
            doc.errors.append(
                ReaderError(
                    path, int(row[LINE]), f"end {stop} is not after begin {start}; row left out."
                )
            )
            continue
        key = ("Mention", start, stop)
        doc.mentions.setdefault(key, str(row[scol]) if scol else "")
        if str(row[ent]).strip():
            cls = classes.setdefault((name, str(row[ent]).strip()), [])
            if key not in cls:
                cls.append(key)
    for (name, _eid), cls in classes.items():
        docs[name].classes.append(cls)
    return list(docs.values())


def _offset(cell: object) -> int | None:
    """A non-negative whole number of at most :data:`MAX_NUMBER`, else None."""
    t = str(cell).strip()
    if not t.isascii() or not t.isdigit() or len(t) > _MAX_DIGITS:
        return None
    n = int(t)
    return n if n <= MAX_NUMBER else None


def _clip(s: str, n: int = 40) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"

"""Coreference annotations: brat standoff (``.ann`` + ``.txt``), CoNLL-2012 and mention tables.

Every reader returns :class:`CorefDocument` values: the mentions (identity = type and offsets,
or token span for CoNLL) and the classes in file order. Problems are collected as
:class:`ReaderError` (file, line, message); a bad line is left out and the rest is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from iaa_desktop.core.errors import ReaderError

MentionKey = tuple[str, int, int]  # (type, start, end) — end exclusive


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

    @property
    def singletons(self) -> list[MentionKey]:
        """S: every mention that is in no class, in text order."""
        in_class = {m for c in self.classes for m in c}
        return sorted(
            (m for m in self.mentions if m not in in_class), key=lambda k: (k[1], k[2], k[0])
        )


# ----------------------------------------------------------------------------------------- brat

_T_LINE = re.compile(r"^(T\d+)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)\t?(.*)$")


def read_brat(ann_path: Path, relation_types: tuple[str, ...] = ("Coreference",)) -> CorefDocument:  # noqa: C901  (to split)
    """Read a brat ``.ann`` file (and the ``.txt`` beside it).

    Classes come from ``*\\tCoreference T.. T..`` lines (one class each, in file order) and from
    relation lines ``R1\\tType Arg1:T3 Arg2:T7`` of the given types, joined by transitive closure.
    """
    ann_path = Path(ann_path)
    txt_path = ann_path.with_suffix(".txt")
    text: str | None = None
    errors: list[ReaderError] = []
    if txt_path.exists():
        text = txt_path.read_text(encoding="utf-8")
    else:
        errors.append(
            ReaderError(
                ann_path,
                None,
                f"no text file {txt_path.name} beside it; mentions are shown without their text.",
            )
        )
    try:
        lines = ann_path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as e:
        raise ReaderError(ann_path, None, f"the file is not UTF-8 text ({e.reason}).") from None
    doc = CorefDocument(ann_path.stem, str(ann_path), text, errors=errors)
    ids: dict[str, MentionKey] = {}
    star_classes: list[tuple[int, list[str]]] = []
    relations: list[tuple[int, str, str]] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if line.startswith("T"):
            m = _T_LINE.match(line)
            if not m:
                errors.append(
                    ReaderError(
                        ann_path,
                        lineno,
                        "a T line must read 'T<n><TAB><type> <start> <end><TAB><text>'; line left out.",
                    )
                )
                continue
            tid, mtype, spans, covered = m.groups()
            parts = [tuple(map(int, s.split())) for s in spans.split(";")]
            start, end = parts[0][0], parts[-1][1]
            if start >= end or start < 0:
                errors.append(
                    ReaderError(
                        ann_path,
                        lineno,
                        f"mention {tid} has empty or negative offsets {start}–{end}; left out.",
                    )
                )
                continue
            if text is not None and end > len(text):
                errors.append(
                    ReaderError(
                        ann_path,
                        lineno,
                        f"mention {tid} ends at {end}, beyond the text ({len(text)} characters); left out.",
                    )
                )
                continue
            key = (mtype, start, end)
            if key in doc.mentions:
                ids[tid] = key  # a second id for the same mention: the same mention
                continue
            ids[tid] = key
            doc.mentions[key] = covered
        elif line.startswith("*"):
            fields = line.split("\t")
            if len(fields) < 2 or not fields[1].split():
                errors.append(
                    ReaderError(
                        ann_path, lineno, "an equivalence (*) line without members; left out."
                    )
                )
                continue
            parts = fields[1].split()
            if parts[0] in relation_types or parts[0] == "Coreference":
                star_classes.append((lineno, parts[1:]))
        elif line.startswith("R"):
            fields = line.split("\t")
            parts = fields[1].split() if len(fields) > 1 else []
            if parts and parts[0] in relation_types:
                args = [p.split(":", 1)[1] for p in parts[1:] if ":" in p]
                if len(args) != 2:
                    errors.append(
                        ReaderError(
                            ann_path,
                            lineno,
                            "a relation line needs Arg1:T.. and Arg2:T..; left out.",
                        )
                    )
                    continue
                relations.append((lineno, args[0], args[1]))
        elif line.startswith("#"):
            doc.notes.append(line)
        # A (attributes), E (events), N (normalizations) ...: kept in the file, not used here

    seen: set[MentionKey] = set()
    for lineno, members in star_classes:
        cls: list[MentionKey] = []
        for tid in members:
            key = ids.get(tid)
            if key is None:
                errors.append(
                    ReaderError(
                        ann_path,
                        lineno,
                        f"the class names {tid}, which is not a mention of this file; {tid} left out.",
                    )
                )
                continue
            if key in seen:
                errors.append(
                    ReaderError(
                        ann_path,
                        lineno,
                        f"mention {tid} is already in another class; kept in the first one only.",
                    )
                )
                continue
            if key not in cls:
                cls.append(key)
                seen.add(key)
        if cls:
            doc.classes.append(cls)
    if relations:
        doc.classes.extend(_closure(relations, ids, seen, ann_path, errors))
    return doc


def _closure(relations, ids, seen, path, errors) -> list[list[MentionKey]]:
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


def read_conll(path: Path) -> list[CorefDocument]:  # noqa: C901  (to split)
    """Read a CoNLL-2012 file: one :class:`CorefDocument` per ``#begin document`` block.

    Mentions are token spans ``("", first_token, last_token + 1)`` counted over the whole
    document; the last column holds ``(12``, ``12)`` and ``(12)`` markers, possibly joined.
    """
    path = Path(path)
    docs: list[CorefDocument] = []
    doc: CorefDocument | None = None
    token = 0
    open_: dict[int, list[tuple[int, int]]] = {}
    entities: dict[int, list[MentionKey]] = {}
    first_seen: dict[int, int] = {}
    words: list[str] = []

    def close(lineno: int) -> None:
        nonlocal doc
        if doc is None:
            return
        for eid, stack in open_.items():
            for start, ln in stack:
                doc.errors.append(
                    ReaderError(
                        path,
                        ln,
                        f"entity {eid} opened at token {start} is never closed; mention left out.",
                    )
                )
        doc.text = " ".join(words)
        # entities in the order their numbers first appear (the reference scorer's order, which
        # decides the entity that keeps a mention listed in two of them)
        for eid in sorted(entities, key=first_seen.__getitem__):
            cls = []
            for m in entities[eid]:
                if m not in cls:  # the same span twice in one entity counts once
                    cls.append(m)
            doc.classes.append(cls)
        docs.append(doc)
        doc = None

    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("#begin document"):
                close(lineno)
                name = line[len("#begin document") :].strip() or f"{path.stem}:{len(docs) + 1}"
                doc = CorefDocument(name, str(path), None)
                token, open_, entities, words, first_seen = 0, {}, {}, [], {}
                continue
            if line.startswith("#end document"):
                close(lineno)
                continue
            if not line.strip() or doc is None:
                continue
            cols = line.split()
            words.append(cols[3] if len(cols) > 3 else cols[0])
            tag = cols[-1]
            if tag not in ("-", "_"):
                marks = [m.groups() for m in _MARK.finditer(tag)]
                # the reference scorer numbers a cell's entities singles first, then openings,
                # then closings
                for kind in range(3):
                    for g in marks:
                        if g[kind] is not None:
                            first_seen.setdefault(int(g[kind]), len(first_seen))
                for m in _MARK.finditer(tag):
                    single, opening, closing = m.groups()
                    if single is not None:
                        key = ("", token, token + 1)
                        entities.setdefault(int(single), []).append(key)
                        doc.mentions.setdefault(key, cols[3] if len(cols) > 3 else "")
                    elif opening is not None:
                        open_.setdefault(int(opening), []).append((token, lineno))
                    else:
                        eid = int(closing)
                        if not open_.get(eid):
                            doc.errors.append(
                                ReaderError(
                                    path,
                                    lineno,
                                    f"entity {eid} is closed here but was never opened; left out.",
                                )
                            )
                            continue
                        start, _ln = open_[eid].pop()
                        if not open_[eid]:
                            del open_[eid]
                        key = ("", start, token + 1)
                        entities.setdefault(eid, []).append(key)
                        doc.mentions.setdefault(key, "")
            token += 1
    if doc is not None:
        doc.errors.append(
            ReaderError(path, None, f"document {doc.name} has no '#end document' line.")
        )
        close(0)
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
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return False
    return "#begin document" in head


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
        doc = docs.setdefault(name, CorefDocument(name, str(path), None))
        try:
            start, stop = int(row[b]), int(row[e])
        except ValueError:
            doc.errors.append(
                ReaderError(
                    path, int(row[LINE]), "begin and end must be whole numbers; row left out."
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

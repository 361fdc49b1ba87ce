"""Coreference in CoNLL-U: CorefUD (``Entity=`` in MISC) and Universal Anaphora (IDENTITY column).

**CorefUD 1.x** (Nedoluzhko et al. 2022; the format of the CorefUD release notes and of
udapi's ``udapi.core.coref``): the MISC column holds ``Entity=`` with bracket chunks — ``(e1-person``
opens a mention of entity ``e1`` (attributes after the first ``-``), ``e1)`` closes it,
``(e2)`` is a one-word mention; a discontinuous mention marks each part ``(e3[1/2]`` …
``e3[1/2])``, ``(e3[2/2]`` …. ``SplitAnte=e1<e5,e2<e5`` says that entity ``e5`` (a plural
mention) has the split antecedents ``e1`` and ``e2``. Documents start at ``# newdoc``.

**Universal Anaphora, CoNLL-U Plus "exploded" format** (Poesio et al., UA 1.1 proposal): a
``# global.columns`` line names the columns; the IDENTITY column holds ``(EntityID=1|MarkableID=
markable_1|...`` openings (several joined with ``@``), ``)`` closings (last opened, first
closed), and a markable whose MarkableID appears in several bracketed chunks is discontinuous.
The SPLIT column's ``EntityID=1|ElementOf=3``, or an ``ElementOf=3`` (``3,4``: of several) among
a markable's attributes, gives split antecedents (the Universal Anaphora scorer's plural cases).

Mentions are token spans counted over the document (every word and empty node; multi-word
token ranges are not words), as in :func:`~iaa_desktop.core.kinds.coref.readers.read_conll`.
Each token also keeps its identity, (sentence, word number, empty-node number): the CorefUD
scorer (Popel et al., CRAC 2022; ``ufal/corefud-scorer``) and the Universal Anaphora scorer (Yu et
al. 2022) identify a word by its sentence and ID and an empty node by its decimal ID (``5.1``),
so two annotators who differ in their empty nodes (zero pronouns) still agree on every later word;
:func:`~iaa_desktop.core.kinds.coref.token_ids.align_documents` matches mentions on those.

Columns are split at tabs (CoNLL-U); a CoNLL-U Plus file (a ``# global.columns`` line naming N
columns) whose lines hold no tab is split at runs of spaces, as the Universal Anaphora scorer
reads its own space-aligned test files. A line that does not give the column count is an error
at its line.
A discontinuous mention keeps its parts in its type, ``"parts 3-5+8-9"``, so it matches only
the same parts. Split antecedents are kept beside the chains (``CorefDocument.plurals``): they
change the scores only when asked for (:mod:`~iaa_desktop.core.metrics.coref_split`, as the
Universal Anaphora scorer with ``keep_split_antecedents``), and are listed in the notes.

Each mention also keeps its head (CorefUD: the ``head`` attribute of its ``Entity`` chunk, named
by ``# global.Entity``, counting the mention's words and empty nodes from 1; its first word when
none is given, as udapi reads it) and each token its DEPS cell, for the CorefUD scorer's partial,
head and dependency matching (:mod:`~iaa_desktop.core.kinds.coref.mention_match`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.kinds.coref.readers import CorefDocument, MentionKey, TokenId
from iaa_desktop.core.textio import read_text

_PART = re.compile(r"^(?P<eid>[^\[\]]+?)(?:\[(?P<i>\d+)/(?P<n>\d+)\])?$")
#: udapi's attribute order of an ``Entity`` chunk when no ``# global.Entity`` line names them
ENTITY_FIELDS = ("eid", "etype", "head", "other")


def is_corefud(head: str) -> bool:
    """Whether the start of a file is CoNLL-U with CorefUD ``Entity=`` annotations."""
    return "Entity=" in head and bool(re.search(r"^\d+\t", head, re.M))


def is_ua(head: str) -> bool:
    """Whether the start of a file is Universal Anaphora CoNLL-U Plus (an IDENTITY column)."""
    m = re.search(r"^# global\.columns\s*=\s*(.+)$", head, re.M)
    return bool(m and "IDENTITY" in m.group(1).upper().split())


@dataclass
class _Doc:
    name: str
    line: int | None = None  # the "# newdoc" line
    words: list[str] = field(default_factory=list)
    # mention id → (entity, parts [(start, end)], first line)
    mentions: dict[str, tuple[str, list[tuple[int, int]], int]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # entity ids in order of first mention
    split: list[tuple[str, str]] = field(default_factory=list)  # (antecedent, plural entity)
    errors: list[ReaderError] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # mentions begun per entity
    last_part: dict[str, str] = field(default_factory=dict)  # entity → its discontinuous mention
    ids: list[TokenId] | None = field(default_factory=list)  # None: an ID that is not a number
    sentence: int = 0
    sentence_done: bool = False  # a blank line ended the sentence: the next token begins one
    heads: dict[str, int] = field(default_factory=dict)  # mention id → its 1-based head index
    mins: dict[str, tuple[int, int]] = field(default_factory=dict)  # UA Min: word numbers
    word_positions: list[int] = field(default_factory=list)  # the position of each word
    deps: dict[TokenId, tuple[tuple[TokenId, str], ...]] = field(default_factory=dict)
    fields: tuple[str, ...] = ENTITY_FIELDS  # the '# global.Entity' attribute names

    def add_token(self, ident: str, form: str) -> int:
        """Append a word or empty node (its ID column and form); its position."""
        if self.sentence_done and self.words:
            self.sentence += 1
        self.sentence_done = False
        parsed = token_number(ident)
        if parsed is None:
            self.ids = None
        elif self.ids is not None:
            self.ids.append((self.sentence, *parsed))
        self.words.append(form)
        if parsed is None or parsed[1] == 0:
            self.word_positions.append(len(self.words) - 1)
        return len(self.words) - 1

    def add_deps(self, cell: str) -> None:
        """The DEPS cell (``4:nsubj|5.1:obj``) of the token added last."""
        if self.ids is None or not self.ids or cell in ("", "_"):
            return
        out = []
        for item in cell.split("|"):
            parent, _, rel = item.partition(":")
            number = token_number(parent)
            if number is not None:
                out.append(((self.sentence, *number), rel))
        self.deps[self.ids[-1]] = tuple(out)


def token_number(ident: str) -> tuple[int, int] | None:
    """``(7, 0)`` for word ID ``7``, ``(7, 1)`` for empty node ``7.1``; None for anything else."""
    word, dot, empty = ident.partition(".")
    if not word.isdigit() or len(word) > 9 or (dot and not (empty.isdigit() and len(empty) < 10)):
        return None
    return int(word), int(empty) if dot else 0


def split_columns(line: str, n_columns: int) -> list[str]:
    """The fields of a CoNLL-U (Plus) line: at tabs; when the line has no tab and the file's
    ``# global.columns`` names ``n_columns`` (> 0) columns, at runs of spaces."""
    if "\t" in line or n_columns <= 0:
        return line.split("\t")
    return line.split()


def _chunks(value: str) -> list[tuple[str, str]]:
    """``[("open"|"single"|"close", content), ...]`` of a CorefUD ``Entity`` value."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(value):
        if value[i] == "(":
            j = i + 1
            while j < len(value) and value[j] not in "()":
                j += 1
            if j < len(value) and value[j] == ")":
                out.append(("single", value[i + 1 : j]))
                i = j + 1
            else:
                out.append(("open", value[i + 1 : j]))
                i = j
        else:
            j = value.find(")", i)
            if j < 0:
                out.append(("bad", value[i:]))
                break
            out.append(("close", value[i:j]))
            i = j + 1
    return out


def _misc(cols: list[str], key: str) -> str | None:
    if len(cols) < 10:
        return None
    for item in cols[9].split("|"):
        if item.startswith(key + "="):
            return item[len(key) + 1 :]
    return None


def _to_documents(docs: list[_Doc], path: Path) -> list[CorefDocument]:
    out = []
    for d in docs:
        doc = CorefDocument(d.name, str(path), " ".join(d.words), errors=d.errors, line=d.line)
        if d.ids is not None and len(d.ids) == len(d.words):
            doc.tokens = list(zip(d.ids, d.words, strict=True))
            doc.deps = d.deps
        classes: dict[str, list[MentionKey]] = {}
        for mid, (eid, parts, _line) in d.mentions.items():
            parts = sorted(parts)
            start, end = parts[0][0], parts[-1][1]
            mtype = "" if len(parts) == 1 else "parts " + "+".join(f"{a}-{b}" for a, b in parts)
            key = (mtype, start, end)
            doc.mentions.setdefault(key, " ".join(" ".join(d.words[a:b]) for a, b in parts))
            if mid in d.mins and key not in doc.mins:
                a, b = d.mins[mid]
                if 1 <= a <= b <= len(d.word_positions):
                    doc.mins[key] = tuple(d.word_positions[k - 1] for k in range(a, b + 1))
            if mid in d.heads and key not in doc.heads:
                # udapi: the head index counts the mention's words (empty nodes included) from
                # 1; none given or one past the end: its first word
                words = sorted({p for a, b in parts for p in range(a, b)})
                k = d.heads[mid]
                doc.heads[key] = words[k - 1] if 0 < k <= len(words) else words[0]
            cls = classes.setdefault(eid, [])
            if key not in cls:
                cls.append(key)
        seen: set[MentionKey] = set()
        first: dict[str, MentionKey] = {}  # entity → a mention of it
        for eid in sorted(classes, key=lambda e: min((m[1], m[2]) for m in classes[e])):
            kept = [m for m in classes[eid] if m not in seen]
            seen.update(kept)
            if kept:
                doc.classes.append(kept)
                first[eid] = kept[0]
        antecedents: dict[str, list[MentionKey]] = {}
        for ante, plural in d.split:
            doc.notes.append(f"split antecedent: entity {ante} is part of entity {plural}")
            if ante in first and plural in first and first[ante] not in antecedents.get(plural, []):
                antecedents.setdefault(plural, []).append(first[ante])
        doc.plurals = [(first[p], tuple(a)) for p, a in antecedents.items()]
        out.append(doc)
    return out


def _word_index(cols: list[str]) -> bool:
    """Whether a CoNLL-U line is a word or an empty node (not a multi-word token range)."""
    return "-" not in cols[0]


def read_corefud(path: Path) -> list[CorefDocument]:
    """Every document of a CorefUD CoNLL-U file (see the module docstring)."""
    path = Path(path)
    lines = read_text(path).splitlines()
    docs: list[_Doc] = []
    doc: _Doc | None = None
    open_: dict[str, list[tuple[str, int]]] = {}  # eid[part] → stack of (mention, start)
    fields: tuple[str, ...] = ENTITY_FIELDS
    for n, line in enumerate(lines, 1):
        if line.startswith("# newdoc"):
            if doc is not None:
                _drop_unclosed(doc, open_, path)
            m = re.search(r"id\s*=\s*(\S+)", line)
            doc = _Doc(m.group(1) if m else f"{path.stem}:{len(docs) + 1}", n, fields=fields)
            docs.append(doc)
            open_ = {}
            continue
        if not line.strip():
            if doc is not None:
                doc.sentence_done = True
            continue
        if line.startswith("# global.Entity"):
            fields = tuple(line.split("=", 1)[-1].strip().split("-"))
            if doc is not None:
                doc.fields = fields
            continue
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            (doc or _first(docs, path)).errors.append(
                ReaderError(path, n, f"{len(cols)} columns; CoNLL-U has 10. Line left out.")
            )
            continue
        if not _word_index(cols):
            continue
        if doc is None:
            doc = _first(docs, path)
            doc.fields = fields
        token = doc.add_token(cols[0], cols[1])
        doc.add_deps(cols[8])
        _split_antecedents(doc, cols)
        value = _misc(cols, "Entity")
        if value:
            _entity_chunks(doc, value, token, n, path, open_)
    if doc is not None:
        _drop_unclosed(doc, open_, path)
    return _to_documents(docs, path)


def _split_antecedents(doc: _Doc, cols: list[str]) -> None:
    """The ``SplitAnte=e1<e5,e2<e5`` of a token's MISC (``e1+e2<e5`` read the same)."""
    split = _misc(cols, "SplitAnte")
    for item in (split or "").split(","):
        if "<" in item:
            antes, plural = item.rsplit("<", 1)
            doc.split.extend((a, plural) for a in antes.split("+") if a)


def _drop_unclosed(doc: _Doc, open_: dict[str, list[tuple[str, int]]], path: Path) -> None:
    still_open = {mid for stack in open_.values() for mid, _ in stack}
    for mid, (eid, parts, line) in list(doc.mentions.items()):
        if not parts or mid in still_open:
            doc.errors.append(
                ReaderError(path, line, f"a mention of entity {eid} is never closed; left out.")
            )
            del doc.mentions[mid]


def _first(docs: list[_Doc], path: Path) -> _Doc:
    if not docs:
        docs.append(_Doc(path.stem))
    return docs[-1]


def _entity_chunks(
    doc: _Doc,
    value: str,
    token: int,
    n: int,
    path: Path,
    open_: dict[str, list[tuple[str, int]]],
) -> None:
    for kind, content in _chunks(value):
        name = content.split("-", 1)[0]
        m = _PART.match(name)
        if kind == "bad" or m is None:
            doc.errors.append(ReaderError(path, n, f"cannot read '{value}' in Entity; left out."))
            return
        eid, part = m.group("eid"), m.group("i")
        key = name  # 'e3' or 'e3[2/2]': what the closing bracket repeats
        if kind in ("open", "single"):
            mid = _mention_id(doc, eid, part, path, n)
            if mid is None:
                continue
            head = _head_index(doc.fields, content)
            if head is not None:  # of a discontinuous mention: its last part's, as udapi reads it
                doc.heads[mid] = head
            if kind == "single":
                doc.mentions[mid][1].append((token, token + 1))
            else:
                open_.setdefault(key, []).append((mid, token))
            continue
        stack = open_.get(key)
        if not stack:
            doc.errors.append(
                ReaderError(
                    path, n, f"entity {name} is closed here but was never opened; left out."
                )
            )
            continue
        mid, start = stack.pop()
        doc.mentions[mid][1].append((start, token + 1))


def _head_index(fields: tuple[str, ...], content: str) -> int | None:
    """The ``head`` attribute of an opening ``Entity`` chunk (``e1-person-2-…``), if a number."""
    if "head" not in fields:
        return None
    values = content.split("-")
    k = fields.index("head")
    value = values[k] if k < len(values) else ""
    return int(value) if value.isdigit() and len(value) < 7 else None


def _mention_id(doc: _Doc, eid: str, part: str | None, path: Path, n: int) -> str | None:
    """A new mention of ``eid``, or for part 2.. of a discontinuous one the mention begun before."""
    if part is not None and part != "1":
        mid = doc.last_part.get(eid)
        if mid is None:
            doc.errors.append(
                ReaderError(path, n, f"part {part} of a mention of {eid} without its part 1.")
            )
        return mid
    k = doc.counts.get(eid, 0)
    doc.counts[eid] = k + 1
    mid = f"{eid}#{k}"
    doc.mentions[mid] = (eid, [], n)
    if part is not None:
        doc.last_part[eid] = mid
    return mid


# -- Universal Anaphora (exploded CoNLL-U Plus) -----------------------------------------------


def _ua_events(cell: str) -> list[tuple[str, dict[str, str]]]:
    """``[("open", attrs) | ("close", {}), ...]`` of an IDENTITY cell."""
    out: list[tuple[str, dict[str, str]]] = []
    i = 0
    cell = cell.strip()
    while i < len(cell):
        ch = cell[i]
        if ch == "(":
            j = i + 1
            while j < len(cell) and cell[j] not in "()@":
                j += 1
            attrs = {}
            for item in cell[i + 1 : j].split("|"):
                k, _, v = item.partition("=")
                attrs[k.strip().lower()] = v.strip()
            out.append(("open", attrs))
            i = j
        elif ch == ")":
            out.append(("close", {}))
            i += 1
        elif ch in "@_ ":
            i += 1  # '@' between openings, '_' for none, stray spaces
        else:  # 'markable_1)': the closing names its markable (boundaries may cross)
            j = i
            while j < len(cell) and cell[j] not in "()@":
                j += 1
            if j < len(cell) and cell[j] == ")":
                out.append(("close", {"markableid": cell[i:j].strip()}))
                j += 1
            i = j
    return out


def read_ua(path: Path) -> list[CorefDocument]:
    """Every document of a Universal Anaphora CoNLL-U Plus file (see the module docstring)."""
    path = Path(path)
    lines = read_text(path).splitlines()
    columns: list[str] = []
    docs: list[_Doc] = []
    doc: _Doc | None = None
    stack: list[tuple[str, int]] = []  # (mention id, start token)
    for n, line in enumerate(lines, 1):
        if line.startswith("# global.columns"):
            columns = line.split("=", 1)[1].split() if "=" in line else []
            continue
        if line.startswith("# newdoc"):
            m = re.search(r"id\s*=\s*(\S+)", line)
            doc = _Doc(m.group(1) if m else f"{path.stem}:{len(docs) + 1}", n)
            docs.append(doc)
            stack = []
            continue
        if not line.strip():
            if doc is not None:
                doc.sentence_done = True
            continue
        if line.startswith("#"):
            continue
        cols = split_columns(line, len(columns))
        if doc is None:
            doc = _first(docs, path)
        if columns and len(cols) != len(columns):
            doc.errors.append(_column_count_error(path, n, len(cols), len(columns), line))
            continue
        if not _word_index(cols):
            continue
        _ua_token(doc, cols, columns, n, path, stack)
    for d in docs:
        for mid, (eid, parts, opened) in list(d.mentions.items()):
            if not parts:
                d.errors.append(
                    ReaderError(path, opened, f"markable {mid} of entity {eid} is never closed.")
                )
                del d.mentions[mid]
    return _to_documents(docs, path)


def _ua_token(
    doc: _Doc,
    cols: list[str],
    columns: list[str],
    n: int,
    path: Path,
    stack: list[tuple[str, int]],
) -> None:
    """One word of a UA file: its SPLIT and IDENTITY cells."""
    upper = [c.upper() for c in columns]
    i_ident = upper.index("IDENTITY") if "IDENTITY" in upper else 10
    i_split = upper.index("SPLIT") if "SPLIT" in upper else None
    token = doc.add_token(cols[0], cols[1] if len(cols) > 1 else "")
    if i_split is not None and len(cols) > i_split:
        s = {
            k.strip().lower(): v.strip()
            for k, _, v in (x.partition("=") for x in cols[i_split].split("|"))
        }
        for plural in filter(None, s.get("elementof", "").split(",")):
            if s.get("entityid"):
                doc.split.append((_entity(s["entityid"]), _entity(plural.strip())))
    if len(cols) <= i_ident:
        return
    for kind, attrs in _ua_events(cols[i_ident]):
        if kind == "open":
            eid = attrs.get("entityid", "")
            mid = attrs.get("markableid") or attrs.get("mentionid") or f"{eid}@{token}"
            if not eid:
                doc.errors.append(ReaderError(path, n, "a markable without EntityID; left out."))
                mid = ""
            elif mid not in doc.mentions:
                doc.mentions[mid] = (_entity(eid), [], n)
                minimum = _min_span(attrs.get("min", ""))
                if minimum:
                    doc.mins[mid] = minimum
            for plural in filter(None, attrs.get("elementof", "").split(",")):
                if eid and (_entity(eid), _entity(plural.strip())) not in doc.split:
                    doc.split.append((_entity(eid), _entity(plural.strip())))
            stack.append((mid, token))
        elif not stack:
            doc.errors.append(ReaderError(path, n, "a ')' closes no open markable; left out."))
        else:
            named = attrs.get("markableid")
            k = next((k for k in range(len(stack) - 1, -1, -1) if stack[k][0] == named), -1)
            if named and k < 0:
                doc.errors.append(
                    ReaderError(path, n, f"'{named})' closes no open markable; left out.")
                )
                continue
            mid, start = stack.pop(k)
            if mid:
                doc.mentions[mid][1].append((start, token + 1))


def _min_span(value: str) -> tuple[int, int] | None:
    """A markable's ``Min=7`` or ``Min=7,9``: its minimum span, as the 1-based numbers of the
    document's words (empty nodes not counted), first and last."""
    parts = [x.strip() for x in value.split(",")]
    if not 1 <= len(parts) <= 2 or not all(x.isdigit() and len(x) < 10 for x in parts):
        return None
    return int(parts[0]), int(parts[-1])


def _column_count_error(path: Path, n: int, got: int, want: int, line: str) -> ReaderError:
    how = "tabs" if "\t" in line else "runs of spaces"
    return ReaderError(
        path,
        n,
        f"{got} columns (split at {how}) where the '# global.columns' line names {want}; "
        "line left out.",
    )


def _entity(eid: str) -> str:
    """``'4'`` for ``4-Pseudo``/``4_Pseudo``: the entity number, whatever marks it as pseudo."""
    return re.split(r"[-_]", eid, maxsplit=1)[0]

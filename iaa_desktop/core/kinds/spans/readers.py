"""Labelled spans: brat standoff (``.ann`` + ``.txt``) and mention tables.

Every reader returns :class:`SpanDocument` values: one annotator's spans of one document, each a
label with one or more character fragments (brat's discontinuous spans ``T1\\tPER 0 5;10 15``).
Offsets are code points of the document text, end exclusive. Problems are collected as
:class:`~iaa_desktop.core.errors.ReaderError` (file, line, message); a bad line is left out and the
rest is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.brat import text_bound
from iaa_desktop.core.kinds.spans.relations import Relation, brat_relation_line, brat_relations
from iaa_desktop.core.textio import read_text

Fragment = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Span:
    """A labelled span: its label and its fragments (sorted, not overlapping)."""

    label: str
    fragments: tuple[Fragment, ...]

    @property
    def start(self) -> int:
        return self.fragments[0][0]

    @property
    def end(self) -> int:
        return self.fragments[-1][1]

    def encode(self) -> str:
        """``LABEL s-e[,s-e…]``: the canonical text of a span (adjudication values)."""
        return f"{self.label} " + ",".join(f"{s}-{e}" for s, e in self.fragments)

    @classmethod
    def decode(cls, text: str) -> Span:
        label, _, frags = text.strip().rpartition(" ")
        parts = []
        for f in frags.split(","):
            s, _, e = f.partition("-")
            parts.append((int(s), int(e)))
        if not label or not parts:
            raise ValueError(text)
        return cls(label, tuple(sorted(parts)))


#: the key of a document's batch value in :attr:`SpanDocument.meta` (when each annotator's
#: annotation of it was made: a span table's batch column, Label Studio's ``created_at``, …)
BATCH_VALUE = "batch_value"


def _cell(value: Any) -> str:
    """A table cell as stripped text (an empty cell: "")."""
    empty = value is None or (isinstance(value, float) and value != value)
    return "" if empty else str(value).strip()


@dataclass
class SpanDocument:
    """One annotator's spans of one document."""

    name: str
    path: str
    text: str | None
    spans: list[Span] = field(default_factory=list)
    #: the line each span was read from (same order as ``spans``), for messages
    lines: list[int | None] = field(default_factory=list)
    errors: list[ReaderError] = field(default_factory=list)
    #: the format the document was read from ("brat", "table", "webanno-tsv3", "label-studio" ...)
    format: str = ""
    #: what a gold writer needs to write the format again (source file, task id, question names)
    meta: dict[str, Any] = field(default_factory=dict)
    #: relations between its spans (see :mod:`.relations`) and the line each was read from
    relations: list[Relation] = field(default_factory=list)
    relation_lines: list[int | None] = field(default_factory=list)

    def add(self, span: Span, line: int | None) -> None:
        self.spans.append(span)
        self.lines.append(line)


# ----------------------------------------------------------------------------------------- brat


def parse_fragments(text: str) -> tuple[Fragment, ...]:
    """``"0 5;10 15"`` → ``((0, 5), (10, 15))``, sorted."""
    return tuple(sorted(tuple(map(int, part.split())) for part in text.split(";")))  # type: ignore[misc]


def read_brat(
    ann_path: Path, encoding: str | None = None, relations_from: str = "R"
) -> SpanDocument:
    """Read a brat ``.ann`` file and the ``.txt`` beside it: every ``T`` line with its type, and
    the relations of its ``R`` lines (also of ``E`` and ``*`` lines as ``relations_from`` asks).

    Attribute, normalization and note lines (``A N #``) are brat's too and are passed over; any
    other line is reported.
    """
    ann_path = Path(ann_path)
    txt_path = ann_path.with_suffix(".txt")
    errors: list[ReaderError] = []
    text: str | None = None
    if txt_path.exists():
        text = read_text(txt_path, encoding)
    else:
        errors.append(
            ReaderError(
                ann_path,
                None,
                f"no text file {txt_path.name} beside it; the text is taken to end at the last span.",
            )
        )
    doc = SpanDocument(ann_path.stem, str(ann_path), text, errors=errors, format="brat")
    ids: dict[str, tuple[Fragment, ...]] = {}
    links: list[tuple[int, str]] = []
    for lineno, line in enumerate(read_text(ann_path, encoding).splitlines(), 1):
        if line.strip() and brat_relation_line(line):
            links.append((lineno, line))
            continue
        if not line.strip() or line[0] in "AREN*#M":
            continue
        if not line.startswith("T"):
            errors.append(
                ReaderError(ann_path, lineno, "not a line of brat standoff; line left out.")
            )
            continue
        found = text_bound(line)
        if found is None:
            errors.append(
                ReaderError(
                    ann_path,
                    lineno,
                    "a T line must read 'T<n><TAB><type> <start> <end>[;<start> <end>…]<TAB><text>'; "
                    "line left out.",
                )
            )
            continue
        tid, label, offsets, _covered = found
        if any(len(x) > 18 for x in offsets.replace(";", " ").split()):  # fits no text
            errors.append(ReaderError(ann_path, lineno, f"span {tid} has an offset far too long."))
            continue
        problem = check_fragments(parse_fragments(offsets), text)
        if problem:
            errors.append(ReaderError(ann_path, lineno, f"span {tid} {problem}; left out."))
            continue
        doc.add(Span(label, parse_fragments(offsets)), lineno)
        ids[tid] = parse_fragments(offsets)
    if links:
        rels, rel_lines, problems = brat_relations(ann_path, links, ids, relations_from)
        doc.relations.extend(rels)
        doc.relation_lines.extend(rel_lines)
        errors.extend(problems)
    return doc


def check_fragments(frags: tuple[Fragment, ...], text: str | None) -> str:
    """Why these fragments cannot be a span of ``text`` ("" when they can)."""
    for s, e in frags:
        if s < 0 or e <= s:
            return f"has an empty or negative fragment {s}–{e}"
        if text is not None and e > len(text):
            return f"ends at {e}, beyond the text ({len(text)} characters)"
    for (_s1, e1), (s2, _e2) in zip(frags, frags[1:]):
        if s2 < e1:
            return "has overlapping fragments"
    return ""


# ---------------------------------------------------------------------------------- mention tables

#: column names tried, in order, when the options leave them empty
COLUMN_NAMES = {
    "document": ("document", "doc", "document_id", "doc_id", "file"),
    "start": ("start", "begin", "start_offset", "from"),
    "end": ("end", "stop", "end_offset", "to"),
    "label": ("label", "type", "tag", "category", "entity"),
    "annotator": ("annotator", "coder", "rater", "user", "annotator_id"),
}


def _find_column(cols: dict[str, str], given: str, role: str) -> str | None:
    if given:
        return cols.get(given.lower())
    return next((cols[c] for c in COLUMN_NAMES[role] if c in cols), None)


def read_span_table(
    path: Path,
    columns: dict[str, str] | None = None,
    texts: dict[str, str] | None = None,
    batch_column: str = "",
) -> dict[str | None, list[SpanDocument]]:
    """A mention table (document, start, end, label[, annotator]) as annotator → documents.

    Without an annotator column every row belongs to the annotator ``None`` (the caller names it
    after the file). ``texts`` gives document texts where known (``.txt`` files beside the table).
    A document name missing from ``texts`` has no text; its length is then taken from its spans.
    With a ``batch_column`` each document keeps that column's value in its first row (the batch
    of the annotator's annotation of it); a table without that column is an
    :class:`~iaa_desktop.core.errors.OptionError` naming its columns.
    """
    from iaa_desktop.core.tabular import LINE, read_table

    columns = columns or {}
    texts = texts or {}
    df = read_table(path)
    cols = {c.lower(): c for c in df.columns if c != LINE}
    found = {role: _find_column(cols, columns.get(role, ""), role) for role in COLUMN_NAMES}
    missing = [r for r in ("start", "end", "label") if found[r] is None]
    if missing:
        raise ReaderError(
            path,
            1,
            f"a span table needs the columns {', '.join(missing)} (found: "
            f"{', '.join(cols.values())}); set them with the options.",
        )
    batch = None
    if batch_column:
        batch = cols.get(batch_column.strip().lower())
        if batch is None:
            from iaa_desktop.core.errors import OptionError

            raise OptionError(
                f"Batch column: '{batch_column}' is no column of {Path(path).name} (its "
                f"columns: {', '.join(cols.values())})."
            )
    out: dict[str | None, dict[str, SpanDocument]] = {}
    for row in df.to_dict("records"):
        line = int(row[LINE])
        who = str(row[found["annotator"]]).strip() if found["annotator"] else None
        if found["annotator"] and not who:
            out.setdefault(None, {})
            who = None
        name = str(row[found["document"]]).strip() if found["document"] else Path(path).stem
        docs = out.setdefault(who, {})
        doc = docs.get(name)
        if doc is None:
            doc = docs[name] = SpanDocument(name, str(path), texts.get(name), format="table")
            if batch is not None:
                doc.meta[BATCH_VALUE] = _cell(row[batch])
        elif batch is not None and _cell(row[batch]) != doc.meta[BATCH_VALUE]:
            if not doc.meta.get("batch_differs"):  # said once per annotator and document
                doc.meta["batch_differs"] = True
                doc.errors.append(
                    ReaderError(
                        path,
                        line,
                        f"document {name}"
                        + (f" of {who}" if who else "")
                        + f": the batch column '{batch}' holds '{_cell(row[batch])}' here but "
                        f"'{doc.meta[BATCH_VALUE]}' in the document's first row; the annotation "
                        "counts in the batch of its first row.",
                    )
                )
        try:
            s, e = int(str(row[found["start"]])), int(str(row[found["end"]]))
        except ValueError:
            doc.errors.append(
                ReaderError(path, line, "start and end must be whole numbers; row left out.")
            )
            continue
        label = str(row[found["label"]]).strip()
        problem = "has no label" if not label else check_fragments(((s, e),), doc.text)
        if problem:
            doc.errors.append(ReaderError(path, line, f"the span {problem}; row left out."))
            continue
        doc.add(Span(label, ((s, e),)), line)
    return {who: list(docs.values()) for who, docs in out.items() if docs}

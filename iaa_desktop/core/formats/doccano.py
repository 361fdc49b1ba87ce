"""doccano JSONL export: one JSON object per line, one file per annotator.

Documented in the doccano docs, "Export data" (https://doccano.github.io/doccano/tutorial/) and
the import/export examples of the doccano repository. Sequence labeling:
``{"id": 1, "text": "...", "label": [[0, 5, "PER"], ...]}``; text classification:
``{"id": 1, "text": "...", "label": ["positive"]}``; doccano 1.6+ with relations:
``"entities": [{"id": 0, "start_offset": 0, "end_offset": 5, "label": "PER"}]`` and
``"relations": [{"id": 0, "from_id": 0, "to_id": 1, "type": "foundedBy"}]`` (the example of
doccano's relation extraction import, ``from_id`` → ``to_id`` naming entities by ``id``; a relation
whose entity is missing is a problem at its line). Older releases write
``labels`` instead of ``label``, or one ``annotations`` list whose entries carry ``user``; the
latter gives the annotators, otherwise the file name (doccano names each user's file after them)
does. Offsets count code points (doccano's backend is Python).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.jsonio import (
    checked_span,
    first_jsonl_object,
    iter_jsonl,
    scalar_text,
)
from iaa_desktop.core.formats.model import Document, Judgment, Parsed, Relation, Span
from iaa_desktop.core.textio import read_text

FORMAT = "doccano"
TITLE = "doccano JSONL export"
_LABEL_KEYS = ("label", "labels", "cats")


def mismatch(head: str, path: Path | None = None) -> str | None:
    """``None`` when the first line of ``head`` is a doccano record, else why it is not."""
    obj = first_jsonl_object(head, path)  # a first record longer than the head: read on
    if obj is None:
        return "the first line is not a JSON object"
    if not isinstance(obj.get("text", obj.get("data")), str):
        return "the first record has no 'text'"
    if not any(k in obj for k in (*_LABEL_KEYS, "entities", "annotations")):
        return "the first record has no 'label', 'entities' or 'annotations'"
    if "_input_hash" in obj or "answer" in obj:
        return "it has Prodigy's '_input_hash'/'answer' fields"
    return None


def _item(obj: dict[str, Any], n: int) -> str:
    for key in ("id", "example_id"):
        if obj.get(key) not in (None, ""):
            return scalar_text(obj[key])
    return f"line {n}"


def _record(
    obj: dict[str, Any], text: str, n: int, path: Path, annotator: str, errors: list[ReaderError]
) -> tuple[list[Judgment], list[Document]]:
    """The judgments and documents of one record whose text is ``text``."""
    item = _item(obj, n)
    meta = tuple(
        (str(k), scalar_text(v))
        for k, v in (obj.get("meta") or {}).items()
        if not isinstance(v, dict | list)
    )
    if isinstance(obj.get("annotations"), list):
        return _old_annotations(obj, text, item, meta, n, path, errors)
    raw: Any = next((obj[k] for k in _LABEL_KEYS if k in obj), [])
    entities = obj.get("entities")
    spans: list[Span] = []
    choices: list[str] = []
    entity_ids: dict[str, str] = {}  # doccano's entity id → the span's id here
    for entry in [*(raw if isinstance(raw, list) else [raw]), *(entities or [])]:
        if isinstance(entry, list | tuple) and len(entry) == 3:
            start, end, label = entry
        elif isinstance(entry, dict) and "start_offset" in entry:
            start, end, label = entry["start_offset"], entry["end_offset"], entry.get("label")
        elif isinstance(entry, str | int | float) and not isinstance(entry, bool):
            choices.append(scalar_text(entry))
            continue
        else:
            errors.append(
                ReaderError(path, n, f"label {entry!r} is neither a category nor a span.")
            )
            continue
        span, why = checked_span(
            text, start, end, scalar_text(label), None, sid=str(len(spans)), line=n
        )
        if span is None:
            errors.append(ReaderError(path, n, f"span {why}."))
        else:
            if isinstance(entry, dict) and entry.get("id") is not None:
                entity_ids[scalar_text(entry["id"])] = span.id
            spans.append(span)
    spans.sort(key=lambda s: (s.start, s.end))
    relations = _relations(obj.get("relations"), entity_ids, n, path, errors)
    if spans or entities is not None:
        return [_span_judgment(item, annotator, text, meta, spans, path, n)], [
            Document(item, text, annotator, tuple(spans), relations, source=str(path))
        ]
    return [
        Judgment(item, annotator, tuple(choices), None, "", None, text, meta, (), str(path), n)
    ], []


def _relations(
    raw: Any, entity_ids: dict[str, str], n: int, path: Path, errors: list[ReaderError]
) -> tuple[Relation, ...]:
    """``relations: [{from_id, to_id, type}]`` between the record's entities (by their ids); an
    entity id that names no span stays as ``entity <id>``, a missing argument for the reader."""
    out: list[Relation] = []
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, dict) or "from_id" not in entry or "to_id" not in entry:
            errors.append(
                ReaderError(path, n, f"relation {entry!r} has no 'from_id' and 'to_id'; left out.")
            )
            continue
        ends = []
        for key in ("from_id", "to_id"):
            ref = scalar_text(entry[key])
            ends.append(entity_ids.get(ref, f"entity {ref}"))
        label = entry.get("type", entry.get("label"))
        out.append(
            Relation(ends[0], ends[1], None if label is None else scalar_text(label), line=n)
        )
    return tuple(out)


def _span_judgment(
    item: str,
    annotator: str,
    text: str,
    meta: tuple[tuple[str, str], ...],
    spans: list[Span],
    path: Path,
    n: int | None,
) -> Judgment:
    return Judgment(
        item, annotator, (), None, "spans", None, text, meta, tuple(spans), str(path), n
    )


def _old_annotations(
    obj: dict[str, Any],
    text: str,
    item: str,
    meta: tuple[tuple[str, str], ...],
    n: int,
    path: Path,
    errors: list[ReaderError],
) -> tuple[list[Judgment], list[Document]]:
    """doccano 1.0: ``annotations: [{label, start_offset?, end_offset?, user}]``."""
    by_user: dict[str, tuple[list[str], list[Span]]] = {}
    for entry in obj["annotations"]:
        if not isinstance(entry, dict) or "label" not in entry:
            errors.append(ReaderError(path, n, f"annotation {entry!r} has no 'label'."))
            continue
        user = scalar_text(entry.get("user", "unknown"))
        choices, spans = by_user.setdefault(user, ([], []))
        if "start_offset" in entry:
            span, why = checked_span(
                text,
                entry["start_offset"],
                entry.get("end_offset"),
                scalar_text(entry["label"]),
                None,
                sid=str(len(spans)),
                line=n,
            )
            if span is None:
                errors.append(ReaderError(path, n, f"span {why}."))
            else:
                spans.append(span)
        else:
            choices.append(scalar_text(entry["label"]))
    judgments: list[Judgment] = []
    documents: list[Document] = []
    for user, (choices, spans) in by_user.items():
        if spans:
            spans.sort(key=lambda s: (s.start, s.end))
            judgments.append(
                Judgment(
                    item, user, (), None, "spans", None, text, meta, tuple(spans), str(path), n
                )
            )
            documents.append(Document(item, text, user, tuple(spans), source=str(path)))
        else:
            judgments.append(
                Judgment(item, user, tuple(choices), None, "", None, text, meta, (), str(path), n)
            )
    return judgments, documents


def parse(path: Path | str, annotator: str | None = None, encoding: str | None = None) -> Parsed:
    """Read one doccano JSONL file; the annotator defaults to the file name without extension."""
    path = Path(path)
    text = read_text(path, encoding)
    errors: list[ReaderError] = []
    judgments: list[Judgment] = []
    documents: list[Document] = []
    name = annotator or path.stem
    for n, obj in iter_jsonl(text, path, errors):
        record_text = obj.get("text", obj.get("data"))
        if not isinstance(record_text, str):
            errors.append(ReaderError(path, n, "the record has no 'text'; it is skipped."))
            continue
        js, ds = _record(obj, record_text, n, path, name, errors)
        judgments.extend(js)
        documents.extend(ds)
    if not judgments:
        raise ReaderError(path, None, "no doccano record could be read.")
    if any(j.question == "spans" for j in judgments):
        # a span project: a record with an empty label list is a text with no span, not a
        # classification without a choice
        for i, j in enumerate(judgments):
            if j.question == "" and not j.choices:
                judgments[i] = _span_judgment(
                    j.item, j.annotator, j.item_text or "", j.metadata, [], path, j.line
                )
                documents.append(Document(j.item, j.item_text or "", j.annotator, source=str(path)))
    return Parsed(FORMAT, tuple(documents), tuple(judgments), tuple(errors))

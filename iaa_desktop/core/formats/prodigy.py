"""Prodigy JSONL (``prodigy db-out DATASET > file.jsonl``): one annotated task per line.

Documented in the Prodigy docs, "Annotation task formats" and "Multi-user sessions"
(https://prodi.gy/docs/api-interfaces, https://prodi.gy/docs/api-database). Each task has the
input (``text``, ``meta``), ``_input_hash`` (the same for the same input across annotators),
``answer`` (``accept``, ``reject`` or ``ignore``), ``_annotator_id`` / ``_session_id`` (named
sessions give ``DATASET-NAME``) and, by interface: ``accept`` (the chosen option ids of a
``choice`` task, with ``options``), ``label`` (a binary ``classification`` task) or ``spans``
(``[{"start", "end", "label"}]``, ``ner_manual``/``spans_manual``). Offsets count code points.
The ``relations`` interface (``rel.manual``) adds ``relations: [{"head", "child", "head_span",
"child_span", "label"}]``; a relation's arguments are its ``head_span`` and ``child_span``
(``start``/``end`` of a span of the task; ``head``/``child`` are token indices), a relation whose
span is not among the task's ``spans`` is a problem at its line.

Answers: ``ignore`` is no answer (the task was skipped). In a choice task ``reject`` is kept as
the answer with the choices made. In a binary task the answer itself is the judgment.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypedDict

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.jsonio import (
    checked_span,
    first_jsonl_object,
    iter_jsonl,
    scalar_text,
)
from iaa_desktop.core.formats.model import Document, Judgment, Parsed, Relation, Span
from iaa_desktop.core.textio import read_text

FORMAT = "prodigy"
TITLE = "Prodigy JSONL (db-out)"
_ANSWERS = ("accept", "reject", "ignore")


def mismatch(head: str, path: Path | None = None) -> str | None:
    """``None`` when the first line of ``head`` is a Prodigy task, else why it is not."""
    obj = first_jsonl_object(head, path)  # a first record longer than the head: read on
    if obj is None:
        return "the first line is not a JSON object"
    if "answer" not in obj:
        return "the first record has no 'answer' (accept/reject/ignore)"
    if not any(k in obj for k in ("_input_hash", "_annotator_id", "_session_id", "_task_hash")):
        return "the first record has no '_input_hash', '_annotator_id' or '_session_id'"
    return None


def _raw_annotator(obj: dict[str, Any]) -> str | None:
    for key in ("_annotator_id", "_session_id"):
        if obj.get(key) not in (None, ""):
            return scalar_text(obj[key])
    return None


def _strip_dataset_prefix(names: set[str]) -> dict[str, str]:
    """``{'ner_news-alice': 'alice', ...}`` when every session name has the same dataset prefix."""
    if len(names) < 2:
        return {n: n for n in names}
    prefix = os.path.commonprefix(sorted(names))
    cut = prefix.rfind("-")
    if cut <= 0:
        return {n: n for n in names}
    short = {n: n[cut + 1 :] for n in names}
    if "" in short.values() or len(set(short.values())) != len(names):
        return {n: n for n in names}
    return short


def _item(obj: dict[str, Any], n: int) -> str:
    if obj.get("_input_hash") not in (None, ""):
        return scalar_text(obj["_input_hash"])
    text = obj.get("text")
    if isinstance(text, str):
        return text
    return f"line {n}"


def _spans(
    obj: dict[str, Any], text: str, n: int, path: Path, errors: list[ReaderError]
) -> tuple[Span, ...]:
    spans: list[Span] = []
    for k, sp in enumerate(obj.get("spans") or []):
        if not isinstance(sp, dict):
            errors.append(ReaderError(path, n, f"span {sp!r} is not an object."))
            continue
        label = sp.get("label")
        span, why = checked_span(
            text,
            sp.get("start"),
            sp.get("end"),
            None if label is None else scalar_text(label),
            sp.get("text"),
            sid=str(k),
            line=n,
        )
        if span is None:
            errors.append(ReaderError(path, n, f"span {why}."))
        else:
            spans.append(span)
    return tuple(sorted(spans, key=lambda s: (s.start, s.end)))


def _relations(
    obj: dict[str, Any], spans: tuple[Span, ...], n: int, path: Path, errors: list[ReaderError]
) -> tuple[Relation, ...]:
    """The ``rel.manual`` relations of a task, from ``head_span`` to ``child_span`` (a span of
    the task by its offsets; offsets naming no span stay as ``start-end``, a missing argument)."""
    by_offsets: dict[tuple[Any, Any], str] = {}
    for sp in spans:
        by_offsets.setdefault((sp.start, sp.end), sp.id)
    out: list[Relation] = []
    for rel in obj.get("relations") or []:
        ends = [rel.get(k) if isinstance(rel, dict) else None for k in ("head_span", "child_span")]
        if not all(isinstance(e, dict) and "start" in e and "end" in e for e in ends):
            errors.append(
                ReaderError(
                    path, n, f"relation {rel!r} has no 'head_span' and 'child_span'; left out."
                )
            )
            continue
        ids = [
            by_offsets.get((e["start"], e["end"]), f"{e['start']}-{e['end']}")
            for e in ends
            if isinstance(e, dict)
        ]
        label = rel.get("label")
        out.append(Relation(ids[0], ids[1], None if label is None else scalar_text(label), line=n))
    return tuple(out)


class _Common(TypedDict):
    """What every judgment of one line carries."""

    item_text: str | None
    metadata: tuple[tuple[str, str], ...]
    source: str
    line: int


def _judgment(
    obj: dict[str, Any], n: int, path: Path, annotator: str, errors: list[ReaderError]
) -> Judgment | None:
    answer = obj.get("answer")
    if answer not in _ANSWERS:
        errors.append(ReaderError(path, n, f"answer {answer!r} is not accept, reject or ignore."))
        return None
    if answer == "ignore":
        return None
    text = obj.get("text") if isinstance(obj.get("text"), str) else None
    meta = tuple(
        (str(k), scalar_text(v))
        for k, v in (obj.get("meta") or {}).items()
        if not isinstance(v, dict | list)
    )
    item = _item(obj, n)
    common: _Common = {"item_text": text, "metadata": meta, "source": str(path), "line": n}
    if "accept" in obj or "options" in obj:
        chosen = obj.get("accept") or []
        if not isinstance(chosen, list):
            errors.append(ReaderError(path, n, "'accept' is not a list of option ids."))
            return None
        choices = tuple(scalar_text(c) for c in chosen)
        return Judgment(item, annotator, choices, None, "accept", answer, **common)
    if "spans" in obj and isinstance(text, str) and "label" not in obj:
        spans = _spans(obj, text, n, path, errors)
        return Judgment(item, annotator, (), None, "spans", answer, spans=spans, **common)
    if "label" in obj:
        return Judgment(
            item, annotator, (answer,), None, scalar_text(obj["label"]), answer, **common
        )
    return Judgment(item, annotator, (answer,), None, "answer", answer, **common)


def parse(path: Path | str, annotator: str | None = None, encoding: str | None = None) -> Parsed:
    """Read a Prodigy JSONL file (one file may hold every annotator's answers)."""
    path = Path(path)
    text = read_text(path, encoding)
    errors: list[ReaderError] = []
    records = list(iter_jsonl(text, path, errors))
    names = {_raw_annotator(obj) for _, obj in records} - {None}
    short = _strip_dataset_prefix({n for n in names if n is not None})
    judgments: list[Judgment] = []
    documents: list[Document] = []
    for n, obj in records:
        raw = _raw_annotator(obj)
        who = annotator or (short[raw] if raw is not None else path.stem)
        j = _judgment(obj, n, path, who, errors)
        if j is None:
            continue
        judgments.append(j)
        if j.question == "spans" and j.answer == "accept":
            relations = _relations(obj, j.spans, n, path, errors)
            documents.append(
                Document(j.item, j.item_text or "", who, j.spans, relations, source=str(path))
            )
    if not judgments and not errors:
        raise ReaderError(path, None, "no Prodigy task with an answer could be read.")
    return Parsed(FORMAT, tuple(documents), tuple(judgments), tuple(errors))

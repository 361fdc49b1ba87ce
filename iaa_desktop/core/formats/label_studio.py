"""Label Studio JSON export (Export → JSON): a list of tasks with every annotator's annotation.

Documented in the Label Studio guide, "Label Studio JSON format of annotated tasks"
(https://labelstud.io/guide/export.html#Label-Studio-JSON-format-of-annotated-tasks) and
"Result format" (https://labelstud.io/guide/task_format). Each task has ``id``, ``data`` (the
item: ``text`` and any other fields) and ``annotations``; each annotation has ``completed_by``
(a user id, or in older versions a user object with ``email``), ``was_cancelled`` and
``result``, a list of regions with ``from_name`` (the question), ``type`` and ``value``:
``choices`` (``value.choices``), ``rating`` (``value.rating``), ``number``, ``taxonomy`` and
``labels`` (text spans: ``value.start``, ``value.end``, ``value.labels``, ``value.text``).
Older exports call annotations ``completions``. Offsets are counted by the browser (UTF-16
units); the quoted ``value.text`` decides, and they are converted to code points.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.jsonio import (
    checked_span,
    first_json_element,
    load_json,
    scalar_text,
)
from iaa_desktop.core.formats.model import Document, Judgment, Parsed, Span
from iaa_desktop.core.textio import read_text

FORMAT = "label-studio"
TITLE = "Label Studio JSON export"

_SPAN_TYPES = {"labels", "hypertextlabels", "paragraphlabels"}
_NUMERIC_TYPES = {"rating": "rating", "number": "number"}


def mismatch(head: str, path: Path | None = None) -> str | None:
    """``None`` when the file looks like a Label Studio JSON export, else why it is not.

    Decided by structure: the first task is parsed (read on from ``path`` however long it is)
    and its keys looked at; without ``path`` a first task longer than ``head`` falls back to
    looking for the key names in ``head``.
    """
    stripped = head.lstrip("\ufeff \t\r\n")
    if not stripped.startswith(("[", "{")):
        return "it is not JSON (a Label Studio export starts with '[')"
    found = first_json_element(head, path)
    if found is None:
        if path is not None:
            return "it is not valid JSON"
        if '"annotations"' not in head and '"completions"' not in head:
            return "no task has an 'annotations' list"
        return None if '"data"' in head else "no task has a 'data' object"
    _shape, task = found
    if task is None:
        return "it is an empty list: no task"
    if not isinstance(task, dict):
        return "its first task is not a JSON object"
    if "annotations" not in task and "completions" not in task:
        return "the first task has no 'annotations' list"
    if not isinstance(task.get("data"), dict):
        return "the first task has no 'data' object"
    return None


def annotator_name(completed_by: Any) -> str:
    """The annotator of a Label Studio annotation from its ``completed_by`` (a user object: its
    e-mail, else its user name, else its id; or a bare id), ``unknown`` when absent."""
    if isinstance(completed_by, dict):
        for key in ("email", "username", "id"):
            if completed_by.get(key) not in (None, ""):
                return scalar_text(completed_by[key])
        return "unknown"
    if completed_by in (None, ""):
        return "unknown"
    return scalar_text(completed_by)


def _item_text(data: dict[str, Any]) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    text = data.get("text")
    if not isinstance(text, str):
        text = next((v for v in data.values() if isinstance(v, str)), None)
    meta = tuple(
        (str(k), scalar_text(v))
        for k, v in data.items()
        if not isinstance(v, dict | list) and v is not text
    )
    return text, meta


def parse_value(data: Any, path: Path | str) -> Parsed:
    """Judgments (and span documents) from a parsed Label Studio export."""
    path = Path(path)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ReaderError(path, None, "a Label Studio export is a JSON list of tasks.")
    judgments: list[Judgment] = []
    documents: list[Document] = []
    errors: list[ReaderError] = []
    warnings: list[ReaderError] = []
    ignored: set[str] = set()
    for t_index, task in enumerate(data, start=1):
        if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
            errors.append(ReaderError(path, None, f"task {t_index} has no 'data' object."))
            continue
        item = scalar_text(task.get("id", t_index))
        text, meta = _item_text(task["data"])
        annotations = task.get("annotations", task.get("completions")) or []
        for a_index, ann in enumerate(annotations, start=1):
            where = f"task {item}, annotation {a_index}"
            if not isinstance(ann, dict) or not isinstance(ann.get("result", []), list):
                errors.append(ReaderError(path, None, f"{where}: not an annotation object."))
                continue
            if ann.get("was_cancelled"):
                continue  # the annotator skipped the task: no answer
            annotator = annotator_name(ann.get("completed_by"))
            found, spans = _results(ann.get("result", []), text, item, where, path, errors, ignored)
            for question, choices, rating in found:
                judgments.append(
                    Judgment(
                        item, annotator, choices, rating, question, None, text, meta, (), str(path)
                    )
                )
            if spans is not None:
                judgments.append(
                    Judgment(item, annotator, (), None, "spans", None, text, meta, spans, str(path))
                )
                documents.append(Document(item, text or "", annotator, spans, source=str(path)))
    for kind in sorted(ignored):
        warnings.append(
            ReaderError(path, None, f"results of type '{kind}' are not compared and were skipped.")
        )
    if not judgments and not errors:
        if ignored:  # every result is of a type not compared: say which, not "nothing"
            kinds = ", ".join(sorted(ignored))
            raise ReaderError(
                path,
                None,
                f"Label Studio results of type {kinds} are not compared (only choices, "
                "taxonomy, rating, number and text spans: labels, hypertextlabels, "
                "paragraphlabels); the export holds no other result.",
            )
        raise ReaderError(path, None, "the export holds no completed annotation.")
    return Parsed(FORMAT, tuple(documents), tuple(judgments), tuple(errors), tuple(warnings))


def _results(
    results: list[Any],
    text: str | None,
    item: str,
    where: str,
    path: Path,
    errors: list[ReaderError],
    ignored: set[str],
) -> tuple[list[tuple[str, tuple[str, ...], float | None]], tuple[Span, ...] | None]:
    """(question, choices, rating) answers and the spans (``None`` when there is no span result)."""
    found: list[tuple[str, tuple[str, ...], float | None]] = []
    spans: list[Span] | None = None
    for r in results:
        if not isinstance(r, dict) or not isinstance(r.get("value"), dict):
            continue
        rtype, value, question = r.get("type", ""), r["value"], str(r.get("from_name", ""))
        if rtype == "choices":
            found.append((question, tuple(scalar_text(c) for c in value.get("choices", [])), None))
        elif rtype == "taxonomy":
            paths = value.get("taxonomy", [])
            found.append((question, tuple("/".join(map(scalar_text, p)) for p in paths), None))
        elif rtype in _NUMERIC_TYPES:
            number = value.get(_NUMERIC_TYPES[rtype])
            if isinstance(number, int | float) and not isinstance(number, bool):
                found.append((question, (), float(number)))
            else:
                errors.append(
                    ReaderError(path, None, f"{where}: {rtype} {number!r} is not a number.")
                )
        elif rtype in _SPAN_TYPES:
            spans = spans if spans is not None else []
            labels = value.get(rtype) or value.get("labels") or [None]
            for label in labels:
                span, why = checked_span(
                    text or "",
                    value.get("start"),
                    value.get("end"),
                    None if label is None else scalar_text(label),
                    value.get("text"),
                    layer=question,
                    sid=str(r.get("id", len(spans))),
                    utf16=True,
                )
                if span is None:
                    errors.append(ReaderError(path, None, f"{where}: span {why}."))
                else:
                    spans.append(span)
        else:
            ignored.add(str(rtype))
    return found, None if spans is None else tuple(sorted(spans, key=lambda s: (s.start, s.end)))


def parse(path: Path | str, encoding: str | None = None) -> Parsed:
    """Read a Label Studio JSON export file."""
    path = Path(path)
    return parse_value(load_json(read_text(path, encoding), path), path)

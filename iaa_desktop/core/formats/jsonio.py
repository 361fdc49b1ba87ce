"""JSON and JSON Lines reading with errors that name the file and the line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.model import Span, utf16_to_codepoints

#: digits of the longest JSON integer read (any 64-bit id fits; more is no count, offset or id)
MAX_INT_DIGITS = 30


class TooLongNumber(ValueError):
    """A JSON integer of more than :data:`MAX_INT_DIGITS` digits (refused before ``int``)."""

    def __init__(self, digits: str) -> None:
        super().__init__(f"a number of {len(digits):,} digits")
        self.digits = digits


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise TooLongNumber(digits)
    return int(digits)


def loads(text: str) -> Any:
    """``json.loads`` refusing integers of thousands of digits (:class:`TooLongNumber`), which
    Python would refuse with a bare ``ValueError`` or take seconds to convert, and values nested
    deeper than Python's recursion allows (a ``json.JSONDecodeError`` at the place it happens)."""
    try:
        return json.loads(text, parse_int=_bounded_int)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, deep_position(text)) from None


def deep_position(text: str, limit: int = 500) -> int:
    """Where the nesting of arrays and objects in ``text`` first goes deeper than ``limit``
    (strings skipped), or 0."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        tok = m.group(0)
        if tok in "[{":
            depth += 1
            if depth > limit:
                return m.start()
        elif tok in "]}":
            depth -= 1
    return 0


_BRACKETS = re.compile(r'"(?:\\.|[^"\\])*"|[\[\]{}]')


def load_json(text: str, path: Path | str) -> Any:
    """The value of a JSON document; a :class:`ReaderError` with the line of a syntax error."""
    try:
        return loads(text)
    except json.JSONDecodeError as e:
        raise ReaderError(path, e.lineno, f"not valid JSON ({e.msg}, column {e.colno}).") from None
    except TooLongNumber as e:
        line = text[: text.find(e.digits)].count("\n") + 1
        raise ReaderError(path, line, f"{e}: far too long for a count, offset or id.") from None


def iter_jsonl(
    text: str, path: Path | str, errors: list[ReaderError]
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for every JSON object line; bad lines become errors."""
    for n, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = loads(line)
        except json.JSONDecodeError as e:
            errors.append(
                ReaderError(path, n, f"not a JSON object ({e.msg}); the line is skipped.")
            )
            continue
        except TooLongNumber as e:
            errors.append(ReaderError(path, n, f"{e}: far too long; the line is skipped."))
            continue
        if not isinstance(obj, dict):
            errors.append(ReaderError(path, n, "not a JSON object; the line is skipped."))
            continue
        yield n, obj


#: the most read to find a JSON export's first task or record (its structure decides its format)
FIRST_RECORD_LIMIT = 64 * 1024 * 1024


def _more(path: Path | None, text: str) -> str | None:
    """More of the file ``text`` is the start of (four times as many bytes), or None when there
    is no more (no file, all of it read, or :data:`FIRST_RECORD_LIMIT` reached)."""
    if path is None:
        return None
    from iaa_desktop.core.textio import read_head

    have = len(text.encode("utf-8", errors="replace"))
    if have >= FIRST_RECORD_LIMIT:
        return None
    more = read_head(Path(path), min(max(4 * have, 65536), FIRST_RECORD_LIMIT))
    return more if len(more) > len(text) else None


def first_jsonl_object(head: str, path: Path | None = None) -> dict[str, Any] | None:
    """The first line of ``head`` as a JSON object, or ``None`` when it is not one. With
    ``path``, a first line longer than ``head`` is read on from the file (a record of hundreds of
    kilobytes is recognised like a short one)."""
    text: str | None = head
    while text is not None:
        stripped = text.lstrip("\ufeff")
        line = next((ln for ln in stripped.splitlines(keepends=True) if ln.strip()), None)
        if line is None:
            return None
        if not line.endswith(("\n", "\r")):
            longer = _more(path, text)
            if longer is not None:
                text = longer
                continue
        try:
            obj = loads(line)
        except ValueError:  # not JSON, or a number of thousands of digits
            return None
        return obj if isinstance(obj, dict) else None
    return None


_DECODER = json.JSONDecoder(parse_int=_bounded_int)


def first_json_element(head: str, path: Path | None = None) -> tuple[str, Any] | None:
    """The structure a JSON document starts with, parsed only as far as its first element:
    ``("list", first element)`` (``("list", None)`` for ``[]``) or ``("object", the object)``;
    None when it is not JSON. With ``path``, the file is read on while the head ends inside that
    element, up to :data:`FIRST_RECORD_LIMIT`, so a first task of any size is recognised."""
    text: str | None = head
    while text is not None:
        s = text.lstrip("\ufeff \t\r\n")
        try:
            if s.startswith("["):
                rest = s[1:].lstrip(" \t\r\n")
                if rest.startswith("]"):
                    return ("list", None)
                return ("list", _DECODER.raw_decode(rest)[0])
            if s.startswith("{"):
                return ("object", _DECODER.raw_decode(s)[0])
            return None
        except (json.JSONDecodeError, RecursionError):
            text = _more(
                path, text
            )  # cut off by the head, or not JSON: read on while there is more
        except TooLongNumber:
            return None
    return None


def scalar_text(value: Any) -> str:
    """A JSON scalar as the text a table cell would hold (``1`` not ``1.0``; null → "")."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def checked_span(
    text: str,
    start: Any,
    end: Any,
    label: str | None,
    quoted: str | None,
    *,
    layer: str = "",
    sid: str = "",
    line: int | None = None,
    utf16: bool = False,
) -> tuple[Span | None, str | None]:
    """A :class:`Span` from offsets a tool wrote, or ``(None, why)`` when they are unusable.

    With ``utf16`` (tools written in JavaScript count UTF-16 units) the offsets are converted to
    code points when the quoted text says so: the quoted text decides between the two counts.
    """
    if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool):
        return None, f"offsets {start!r}–{end!r} are not whole numbers"
    if utf16 and quoted is not None and text[start:end] != quoted:
        to_cp = utf16_to_codepoints(text)
        if 0 <= start <= end < len(to_cp) and text[to_cp[start] : to_cp[end]] == quoted:
            start, end = to_cp[start], to_cp[end]
    if not 0 <= start < end <= len(text):
        return None, f"offsets {start}–{end} are outside the text (length {len(text)})"
    return Span(start, end, label, layer, sid, (), (), quoted, line), None

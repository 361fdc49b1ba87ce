"""One decoding policy for every text input.

UTF-8 (with or without a byte-order mark) and UTF-16 with a byte-order mark are read as they are;
any other encoding only when the user names it. A byte that does not decode is an error naming the
file, the line and the byte offset: never a silent fallback to another encoding, which would turn
labels into different strings and agreement into nonsense. Special files (devices, pipes) are
refused as inputs and a size limit is checked before a file is read whole.
"""

from __future__ import annotations

import codecs
import contextlib
import contextvars
import os
import stat
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any, TypeVar

from iaa_desktop.core.errors import ReaderError

#: largest text input read whole (bytes); larger files are refused with a clear message
MAX_TEXT_BYTES = 512 * 1024 * 1024

#: the encoding the user chose for the inputs of the study being read (None = the policy above);
#: set around each step of a kind's run by :func:`with_encoding`, read by :func:`read_text`
_ENCODING: contextvars.ContextVar[str | None] = contextvars.ContextVar("iaa_encoding", default=None)
_T = TypeVar("_T")


def check_input_file(path: Path, max_bytes: int = MAX_TEXT_BYTES) -> int:
    """The size of a regular input file; a :class:`ReaderError` for anything else.

    Devices (``/dev/zero``), pipes and sockets never end or block: they are refused before a byte
    is read. Folders, missing files and files over ``max_bytes`` are refused too.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ReaderError(path, None, "the file does not exist.") from None
    except OSError as e:
        raise ReaderError(path, None, f"cannot be read ({e.strerror}).") from None
    if stat.S_ISDIR(st.st_mode):
        raise ReaderError(path, None, "this is a folder, not a file.")
    if not stat.S_ISREG(st.st_mode):
        raise ReaderError(path, None, "this is not a regular file (a device, pipe or socket).")
    if st.st_size > max_bytes:
        raise ReaderError(
            path,
            None,
            f"the file is {st.st_size / 2**20:,.0f} MiB, more than the "
            f"{max_bytes / 2**20:,.0f} MiB an input may have.",
        )
    return st.st_size


def chosen_encoding() -> str | None:
    """The encoding the user chose for the study being read, if any."""
    return _ENCODING.get()


@contextlib.contextmanager
def encoding_scope(encoding: str | None) -> Iterator[None]:
    """Read every text input with ``encoding`` (``None``/empty: the policy above) inside."""
    token = _ENCODING.set(encoding or None)
    try:
        yield
    finally:
        _ENCODING.reset(token)


def with_encoding(steps: Generator[Any, Any, _T], encoding: str | None) -> Generator[Any, Any, _T]:
    """A kind's run generator whose every step reads text inputs with ``encoding``.

    The choice is set around each resumption only, so it never leaks into the code that drives
    the generator (the GUI worker, another study) between two steps.
    """
    try:
        sent: Any = None
        while True:
            with encoding_scope(encoding):
                try:
                    item = steps.send(sent)
                except StopIteration as stop:
                    value: _T = stop.value
                    return value
            sent = yield item
    finally:
        steps.close()


def encoding_of(raw: bytes, encoding: str | None = None) -> str:
    """The codec the policy reads ``raw`` with: the chosen one, UTF-16 by its mark, else UTF-8."""
    encoding = encoding or _ENCODING.get()
    if encoding:
        return encoding
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return "utf-8-sig"


def read_bytes(path: Path, max_bytes: int = MAX_TEXT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (checked before reading)."""
    path = Path(path)
    check_input_file(path, max_bytes)
    try:
        with open(path, "rb") as f:
            # never more than the limit, even if the file grew after the check
            raw = f.read(max_bytes + 1)
    except OSError as e:
        raise ReaderError(path, None, f"cannot be read ({e.strerror}).") from None
    if len(raw) > max_bytes:
        raise ReaderError(path, None, "the file grew beyond the size an input may have.")
    return raw


def decode_text(raw: bytes, path: Path | str | None, encoding: str | None = None) -> str:
    """``raw`` decoded by the policy above (``encoding``, else the study's chosen encoding)."""
    encoding = encoding or _ENCODING.get()
    if encoding:
        try:
            info = codecs.lookup(encoding)
        except LookupError:
            raise ReaderError(path, None, f"unknown encoding '{encoding}'.") from None
        if not getattr(info, "_is_text_encoding", True):  # rot13, hex, zlib ...: not encodings
            raise ReaderError(path, None, f"'{encoding}' is not a text encoding.")
        enc = encoding
    else:
        enc = encoding_of(raw)
    try:
        return raw.decode(enc)
    except UnicodeDecodeError as e:
        before = raw[: e.start].decode(enc, errors="replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        bad = raw[e.start : e.start + 1]
        what = f"byte 0x{bad[0]:02X}" if bad else "the end of the file"
        raise ReaderError(
            path,
            line,
            f"{what} at byte offset {e.start} (character {column} of the line) is not valid "
            f"{'UTF-8' if enc == 'utf-8-sig' else enc}; save the file as UTF-8, or choose its "
            "encoding.",
        ) from None


def read_text(path: Path, encoding: str | None = None, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The whole text of a regular file, decoded by the policy above."""
    return decode_text(read_bytes(path, max_bytes), path, encoding)


def read_head_bytes(path: Path, max_bytes: int = 65536) -> bytes:
    """At most ``max_bytes`` of the start of a regular file (a ZIP's magic number, an XML head);
    ``b""`` for special and unreadable files: nothing is read from a device or pipe."""
    try:
        check_input_file(Path(path))
        with open(path, "rb") as f:
            return f.read(max_bytes)
    except (ReaderError, OSError):
        return b""


def is_zip(path: Path) -> bool:
    """True when ``path`` is a regular file that starts as a ZIP archive."""
    return read_head_bytes(path, 4) == b"PK\x03\x04"


def read_head(path: Path, max_bytes: int = 65536) -> str:
    """At most ``max_bytes`` of the start of a regular file, for recognising its format.

    Undecodable bytes become U+FFFD here (recognition only; the reader reports them with their
    line); special files and unreadable files give ``""``: nothing is read from a device or pipe.
    """
    raw = read_head_bytes(path, max_bytes)
    enc = _ENCODING.get()
    if not enc:
        enc = (
            "utf-16" if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8-sig"
        )
    try:
        return raw.decode(enc, errors="replace")
    except LookupError:
        return raw.decode("utf-8", errors="replace")


def split_lines(text: str) -> list[str]:
    """Lines split at LF (CRLF too), as line numbers count them; not at U+2028 and the other
    separators ``str.splitlines`` knows, which may occur inside a line of text."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def text_lines(path: Path, encoding: str | None = None) -> list[str]:
    """The lines of a text file (without line ends), decoded by the policy above."""
    return split_lines(read_text(path, encoding))

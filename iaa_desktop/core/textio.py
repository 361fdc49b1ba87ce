"""One decoding policy for every text input.

UTF-8 (with or without a byte-order mark) and UTF-16 with a byte-order mark are read as they are;
any other encoding only when the user names it. A byte that does not decode is an error naming the
file, the line and the byte offset: never a silent fallback to another encoding, which would turn
labels into different strings and agreement into nonsense. Special files (devices, pipes) are
refused as inputs and a size limit is checked before a file is read whole.
"""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path

from iaa_desktop.core.errors import ReaderError

#: largest text input read whole (bytes); larger files are refused with a clear message
MAX_TEXT_BYTES = 512 * 1024 * 1024


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


def decode_text(raw: bytes, path: Path | str | None, encoding: str | None = None) -> str:
    """``raw`` decoded by the policy above (``encoding`` when the user chose one)."""
    if encoding:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise ReaderError(path, None, f"unknown encoding '{encoding}'.") from None
        enc = encoding
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        enc = "utf-16"
    else:
        enc = "utf-8-sig"
    try:
        return raw.decode(enc)
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        line_start = raw.rfind(b"\n", 0, e.start) + 1
        raise ReaderError(
            path,
            line,
            f"byte 0x{raw[e.start]:02X} at byte offset {e.start} (column {e.start - line_start + 1} "
            f"of the line) is not valid {'UTF-8' if enc == 'utf-8-sig' else enc}; save the file "
            "as UTF-8, or choose its encoding.",
        ) from None


def read_text(path: Path, encoding: str | None = None, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The whole text of a regular file, decoded by the policy above."""
    path = Path(path)
    check_input_file(path, max_bytes)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ReaderError(path, None, f"cannot be read ({e.strerror}).") from None
    return decode_text(raw, path, encoding)

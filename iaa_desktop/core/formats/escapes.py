"""Backslash escapes of WebAnno TSV 3.x cells (split, strip a ``[N]`` suffix, unescape).

The format reserves ``\\ [ ] | _ -> ; * TAB LF`` and escapes each with a backslash (``->`` as one
unit); see the WebAnno TSV 3.3 chapter of the INCEpTION user guide.
"""

from __future__ import annotations

import re

_SIMPLE = {"t": "\t", "n": "\n", "r": "\r"}


def split_unescaped(cell: str, sep: str) -> list[str]:
    """``cell`` split at every ``sep`` not preceded by an escaping backslash (pieces stay escaped)."""
    out: list[str] = []
    buf: list[str] = []
    i = 0
    while i < len(cell):
        ch = cell[i]
        if ch == "\\" and i + 1 < len(cell):
            buf.append(cell[i : i + 2])
            i += 2
            continue
        if ch == sep:
            out.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
        i += 1
    out.append("".join(buf))
    return out


_SUFFIX = re.compile(r"\[([0-9_]+)\]$")


def strip_suffix(piece: str) -> tuple[str, str | None]:
    """``('PER', '3')`` for ``'PER[3]'``; an escaped ``\\]`` is not a suffix."""
    m = _SUFFIX.search(piece)
    if not m:
        return piece, None
    # an odd number of backslashes before the closing bracket escapes it
    before = piece[: m.start()]
    if before.endswith("\\") and (len(before) - len(before.rstrip("\\"))) % 2 == 1:
        return piece, None
    return before, m.group(1)


def unescape(piece: str) -> str:
    """The value a cell piece stands for (``\\_`` → ``_``, ``\\->`` → ``->``, ``\\t`` → TAB)."""
    if "\\" not in piece:
        return piece
    out: list[str] = []
    i = 0
    while i < len(piece):
        ch = piece[i]
        if ch == "\\" and i + 1 < len(piece):
            nxt = piece[i + 1]
            if piece.startswith("->", i + 1):
                out.append("->")
                i += 3
                continue
            out.append(_SIMPLE.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def split_arrow(piece: str) -> tuple[str, str | None]:
    """``('coref', '1-2')`` for ``'coref->1-2'`` (an escaped ``\\->`` does not split)."""
    i = 0
    while i < len(piece):
        if piece[i] == "\\":
            i += 2
            continue
        if piece.startswith("->", i):
            return piece[:i], piece[i + 2 :]
        i += 1
    return piece, None

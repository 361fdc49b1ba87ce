"""Praat TextGrids (``.TextGrid``; Praat manual, "TextGrid file formats"), long and short text.

Praat reads a text file as a flat sequence of numbers, strings between double quotes (a quote
inside one doubled) and flags between angle brackets (``<exists>``); everything else — the
``xmin =`` labels of the long format, numbers between square brackets, and from ``!`` to the end
of the line — is a comment. Both text formats are therefore the same sequence:

``"ooTextFile" "TextGrid" xmin xmax <exists> n_tiers`` then per tier its class
(``"IntervalTier"`` or ``"TextTier"``), name, xmin, xmax, number of items and the items: an
interval is ``xmin xmax "text"``, a point ``time "mark"``.

Files are UTF-8 or UTF-16 (Praat writes UTF-16 with a byte-order mark when a text needs it).
Times in seconds become whole milliseconds (× 1,000, rounded). An empty interval is no unit; a
point is a unit of length zero. The recording runs from the TextGrid's xmin to its xmax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.timed import TimedFile, TimedTier, TimedUnit
from iaa_desktop.core.textio import decode_text, read_bytes

#: one token: a line comment, a number in brackets (comment), a string, a flag or a number
_TOKEN = re.compile(
    r"!(?P<comment>[^\n]*)"
    r"|\[\s*[-+]?\d*\.?\d*\s*\]"
    r'|"(?P<string>(?:[^"]|"")*)"'
    r"|<(?P<flag>[^>\n]*)>"
    r"|(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
)
_MAX_SECONDS = 1e6


def looks_like(head: str) -> bool:
    """Whether the start of a file is a Praat TextGrid in a text format."""
    h = head.lstrip("\ufeff")[:400]
    return '"ooTextFile' in h and '"TextGrid"' in h


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # "string", "flag" or "number"
    value: str
    line: int


def tokens(text: str) -> list[_Tok]:
    """Praat's tokens of a text file with their lines (comments dropped)."""
    out: list[_Tok] = []
    line, pos = 1, 0
    for m in _TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        kind = m.lastgroup
        if kind in ("string", "flag", "number"):
            value = m.group(kind)
            out.append(_Tok(kind, value.replace('""', '"') if kind == "string" else value, line))
    return out


class _Stream:
    def __init__(self, path: Path, toks: list[_Tok]) -> None:
        self.path, self.toks, self.i = path, toks, 0

    def line(self) -> int | None:
        if self.i < len(self.toks):
            return self.toks[self.i].line
        return self.toks[-1].line if self.toks else None

    def next(self, kind: str, what: str) -> _Tok:
        if self.i >= len(self.toks):
            raise ReaderError(self.path, self.line(), f"the file ends where {what} was expected.")
        t = self.toks[self.i]
        if t.kind != kind:
            shown = f'"{t.value[:40]}"' if t.kind == "string" else t.value[:40]
            raise ReaderError(self.path, t.line, f"{what} was expected, not {shown}.")
        self.i += 1
        return t

    def string(self, what: str) -> str:
        return self.next("string", what).value

    def seconds(self, what: str) -> float:
        t = self.next("number", what)
        v = float(t.value)
        if abs(v) > _MAX_SECONDS:
            raise ReaderError(
                self.path, t.line, f"{what} {t.value[:40]} s is beyond any recording."
            )
        return v

    def count(self, what: str) -> int:
        t = self.next("number", what)
        try:
            n = int(t.value)
        except ValueError:
            raise ReaderError(
                self.path, t.line, f"{what} must be a whole number, not {t.value[:40]}."
            ) from None
        if n < 0 or n > len(self.toks):
            raise ReaderError(self.path, t.line, f"{what} {n} does not fit the file.")
        return n


def ms(seconds: float) -> int:
    """Seconds as whole milliseconds (rounded half away from zero, as a person reads them)."""
    v = seconds * 1000.0
    return int(v + 0.5) if v >= 0 else -int(-v + 0.5)


def _tier(s: _Stream, problems: list[ReaderError]) -> TimedTier:
    line = s.line()
    cls = s.string('a tier class ("IntervalTier" or "TextTier")')
    if cls not in ("IntervalTier", "TextTier"):
        raise ReaderError(
            s.path, line, f'tier class "{cls[:40]}" is neither "IntervalTier" nor "TextTier".'
        )
    name = s.string("the tier's name")
    s.seconds("the tier's xmin")
    s.seconds("the tier's xmax")
    n = s.count("the number of intervals" if cls == "IntervalTier" else "the number of points")
    units: list[TimedUnit] = []
    for _ in range(n):
        at = s.line()
        if cls == "IntervalTier":
            a, b = ms(s.seconds("an interval's xmin")), ms(s.seconds("an interval's xmax"))
            text = s.string("an interval's text")
            if b < a:
                problems.append(
                    ReaderError(
                        s.path,
                        at,
                        f"tier '{name[:80]}': an interval ends before it starts; left out.",
                    )
                )
                continue
        else:
            a = b = ms(s.seconds("a point's time"))
            text = s.string("a point's mark")
        if text.strip():
            units.append(TimedUnit(a, b, text.strip(), at))
    units.sort(key=lambda u: (u.start, u.end, u.value))
    return TimedTier(name, tuple(units), points=cls == "TextTier", line=line)


def read_textgrid(path: Path, encoding: str | None = None) -> TimedFile:
    """The tiers of a TextGrid in the long or short text format (see the module docstring)."""
    path = Path(path)
    text = decode_text(read_bytes(path), path, encoding)
    s = _Stream(path, tokens(text))
    if s.string('the file type "ooTextFile"') not in ("ooTextFile", "ooTextFile short"):
        raise ReaderError(path, 1, 'not a Praat text file (File type = "ooTextFile").')
    if s.string('the object class "TextGrid"') != "TextGrid":
        raise ReaderError(path, s.line(), 'the object class is not "TextGrid".')
    xmin, xmax = ms(s.seconds("the TextGrid's xmin")), ms(s.seconds("the TextGrid's xmax"))
    flag = s.next("flag", "<exists> or <absent>")
    problems: list[ReaderError] = []
    tiers: list[TimedTier] = []
    if flag.value == "exists":
        n = s.count("the number of tiers")
        names: set[str] = set()
        for _ in range(n):
            t = _tier(s, problems)
            if t.name in names:
                problems.append(
                    ReaderError(
                        path, t.line, f"tier '{t.name[:80]}' appears twice; the second is left out."
                    )
                )
                continue
            names.add(t.name)
            tiers.append(t)
    if xmax < xmin:
        raise ReaderError(path, None, "the TextGrid's xmax is before its xmin.")
    return TimedFile(str(path), "textgrid", tuple(tiers), xmin, xmax, (), tuple(problems))

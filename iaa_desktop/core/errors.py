"""Typed errors whose messages a user understands.

Every error raised for bad input names the file, the line (1-based, when it applies) and the
problem in one sentence; the GUI shows ``str(error)`` and the CLI prints it and exits non-zero.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path


def shown_path(path: str | Path) -> str:
    """A path as a message shows it: control characters and line breaks escaped (a file name
    holding a newline must not break the message in two), and at most 300 characters."""
    text = str(path)
    if len(text) > 300:
        text = text[:300] + "…"
    return "".join(
        c.encode("unicode_escape").decode("ascii")
        if unicodedata.category(c) in ("Cc", "Zl", "Zp")
        else c
        for c in text
    )


class IaaError(Exception):
    """Base class of every error meant for the user (never shown as a traceback)."""


class ReaderError(IaaError):
    """A problem in an input file.

    Parameters
    ----------
    path : file the problem is in
    line : 1-based line number, or ``None`` when the problem concerns the whole file
    message : what is wrong, as a sentence for the user
    """

    #: longest message kept: a message quoting a cell of a hostile file stays readable
    MAX_MESSAGE = 2000

    def __init__(self, path: str | Path | None, line: int | None, message: str) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        if len(message) > self.MAX_MESSAGE:
            message = message[: self.MAX_MESSAGE - 1] + "…"
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.path is None and self.line is None:
            return self.message  # a note on the study as a whole, not on one file
        where = shown_path(self.path) if self.path else "<input>"
        if self.line is not None:
            where = f"{where}, line {self.line}"
        return f"{where}: {self.message}"

    def __reduce__(self):  # keep picklable despite the custom __init__
        return (type(self), (self.path, self.line, self.message))

    def to_json(self) -> dict:
        return {"file": self.path, "line": self.line, "message": self.message}


class InsufficientDataError(IaaError):
    """A coefficient cannot be computed from the data (too few items, annotators or values)."""


class OptionError(IaaError):
    """An option or setting that does not fit the data or the kind of study."""


def with_earlier_problems(error: IaaError, problems: list[ReaderError]) -> IaaError:
    """``error`` (which stops the study) with the problems found before it, so a file left out
    for a decoding error is still named, with its line, when what remains is not enough."""
    if not problems:
        return error
    shown = "\n".join(f"  {p}" for p in problems[:20])
    more = f"\n  … and {len(problems) - 20} more" if len(problems) > 20 else ""
    extra = f"\nProblems found before:\n{shown}{more}"
    if isinstance(error, ReaderError):
        return ReaderError(error.path, error.line, error.message + extra)
    try:
        return type(error)(f"{error}{extra}")
    except TypeError:  # an error class with more arguments
        return IaaError(f"{error}{extra}")

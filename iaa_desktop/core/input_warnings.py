"""Warnings that libraries emit about an input file, carried to the problems list of a run
instead of being printed on the terminal.

A reader wraps a library call in :func:`reported_as`: every ``UserWarning`` the library emits
there becomes a problem naming the file, ``"<library>: <message>"`` (each message once).
:func:`collected` runs the steps of a computation and appends the problems reported meanwhile to
its result's ``warnings`` (the window's problems list, the report and ``--json``). The problems
go to the run of the current thread (a context variable), so two computations in two threads
keep theirs apart; outside a collected run they are dropped, never printed (the run that needs
the file reports them).
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Generator, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

from iaa_desktop.core.errors import ReaderError

T = TypeVar("T")

_SINK: ContextVar[list[ReaderError] | None] = ContextVar("input_warnings", default=None)


def report(problem: ReaderError) -> None:
    """Add ``problem`` to the warnings of the run in progress (none: dropped)."""
    sink = _SINK.get()
    if sink is not None and str(problem) not in map(str, sink):
        sink.append(problem)


def _again(w: warnings.WarningMessage) -> None:
    """A caught warning emitted again, as it was."""
    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


@contextlib.contextmanager
def reported_as(where: str | Path, library: str) -> Iterator[None]:
    """The ``UserWarning``\\ s emitted inside the block, as problems ``"<library>: <message>"``
    naming ``where``; other warnings (deprecations: about code, not the file) pass on."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        yield
    for w in caught:
        text = " ".join(str(w.message).split())
        if issubclass(w.category, UserWarning) and text:
            report(ReaderError(where, None, f"{library}: {text}"))
        elif not issubclass(w.category, UserWarning):
            _again(w)


def collected(steps: Generator[Any, Any, T]) -> Generator[Any, Any, T]:
    """``steps`` run to the end; the problems :func:`reported_as` found while they ran are
    appended to the ``warnings`` list of the value they return. Values sent in are passed on;
    closing this generator closes ``steps``."""
    problems: list[ReaderError] = []
    try:
        sent: Any = None
        while True:
            token = _SINK.set(problems)
            try:
                step = steps.send(sent)
            except StopIteration as stop:
                value: T = stop.value
                break
            finally:
                _SINK.reset(token)
            sent = yield step
    finally:
        steps.close()
    found = getattr(value, "warnings", None)
    if problems and isinstance(found, list):
        found.extend(problems)
    return value


__all__ = ["collected", "report", "reported_as"]

"""Progress values yielded by long computations.

Long work is a generator: it ``yield``\\ s :class:`Progress` and ``return``\\ s its result. The CLI
and the tests run it to the end with :func:`run_to_end`; the GUI runs it in a worker thread and
cancels it by not resuming it (superqt's generator workers).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

ProgressGen = Generator["Progress", None, T]


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a computation is: ``done`` of ``total`` steps, with a short message."""

    done: float
    total: float
    message: str = ""

    @property
    def fraction(self) -> float:
        return 0.0 if self.total <= 0 else min(1.0, max(0.0, self.done / self.total))


def run_to_end(
    gen: Generator[Progress, Any, T], on_progress: Callable[[Progress], None] | None = None
) -> T:
    """Run a progress generator to its end and return its result."""
    try:
        while True:
            p = next(gen)
            if on_progress is not None:
                on_progress(p)
    except StopIteration as stop:
        result: T = stop.value
        return result


def scaled(
    gen: Generator[Progress, Any, T], start: float, stop: float, total: float = 100.0
) -> Generator[Progress, Any, T]:
    """Re-map the progress of a sub-generator onto ``[start, stop]`` of ``total``."""
    try:
        while True:
            p = next(gen)
            yield Progress(start + (stop - start) * p.fraction, total, p.message)
    except StopIteration as s:
        value: T = s.value
        return value

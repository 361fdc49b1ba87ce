"""The one way the window runs work off the GUI thread: a :class:`TaskRunner`.

Each run gets a generation number; only the newest run's progress, result and error reach the
owner, so the result of a superseded or cancelled run is dropped however late it arrives.
Cancelling stops a generator at its next ``yield`` (the work is not resumed) and reports
:attr:`TaskRunner.cancelled` at once. Errors arrive as a signal, never as a traceback on the
GUI thread.

The work is a plain function or a generator function whose ``yield``\\s are progress reports
and whose ``return`` is the result; it must not touch Qt (it runs in a superqt worker thread).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Generator
from typing import Any

from PySide6.QtCore import QObject, Signal

__all__ = ["TaskRunner"]


class _Failure(Exception):
    """An error of run ``generation``, carried to the GUI thread."""

    def __init__(self, generation: int, error: BaseException) -> None:
        super().__init__(str(error))
        self.generation = generation
        self.error = error


def _run(
    generation: int, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Generator[tuple[int, Any], None, tuple[int, Any]]:
    """The worker's generator: ``fn``'s progress and result, each tagged with ``generation``."""
    try:
        if not inspect.isgeneratorfunction(fn):
            return generation, fn(*args, **kwargs)
        steps = fn(*args, **kwargs)
        while True:
            try:
                p = next(steps)
            except StopIteration as stop:
                return generation, stop.value
            yield generation, p
    except Exception as e:  # not GeneratorExit: a quit run is closed by the garbage collector
        raise _Failure(generation, e) from e


class TaskRunner(QObject):
    """Runs one task at a time for its owner; the newest run wins.

    Signals (on the GUI thread, only for the newest run)
    ----------------------------------------------------
    started(int)
        a run with this generation number started.
    progress(object)
        what the run's generator yielded.
    succeeded(object)
        what the run returned.
    failed(object)
        the exception the run raised (``BaseException``).
    cancelled(int)
        :meth:`cancel` stopped the run with this generation number.
    idle()
        no run is in flight any more (after success, failure or the worker's end).
    """

    started = Signal(int)
    progress = Signal(object)
    succeeded = Signal(object)
    failed = Signal(object)
    cancelled = Signal(int)
    idle = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.generation = 0
        #: the superqt worker of the newest run while it is in flight, else ``None``
        self.worker: Any = None

    @property
    def running(self) -> bool:
        return self.worker is not None

    def start(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
        """Run ``fn(*args, **kwargs)`` in a worker thread; a run still in flight is superseded.

        Returns the new run's generation number.
        """
        from superqt.utils import create_worker

        self.supersede()
        gen = self.generation
        worker = create_worker(
            _run, gen, fn, args, kwargs, _start_thread=False, _ignore_errors=True
        )
        # bound methods, not lambdas: Qt drops the connections if the runner is destroyed first
        worker.yielded.connect(self._on_yielded)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        worker.finished.connect(self._on_finished)
        self.worker = worker
        self.started.emit(gen)
        worker.start()
        return gen

    def supersede(self) -> int:
        """Make whatever the current run still sends stale (a newer result is on its way).

        Returns the new generation number.
        """
        if self.worker is not None:
            self.worker.quit()  # a generator is not resumed after its current step
            self.worker = None
        self.generation += 1
        return self.generation

    def cancel(self) -> bool:
        """Stop the current run and report :attr:`cancelled`; ``False`` when none was running."""
        if self.worker is None:
            return False
        gen = self.generation
        self.supersede()
        self.cancelled.emit(gen)
        return True

    def wait(self, timeout_ms: int = 30000) -> None:
        """Block until the current worker thread finished (tests and closing only)."""
        w = self.worker
        if w is not None:
            w.await_workers(timeout_ms)

    # ------------------------------------------------------------------ worker signals

    def _on_yielded(self, item: tuple[int, Any]) -> None:
        gen, payload = item
        if gen == self.generation:
            self.progress.emit(payload)

    def _on_returned(self, item: tuple[int, Any]) -> None:
        gen, result = item
        if gen == self.generation:
            self.succeeded.emit(result)

    def _on_errored(self, exc: BaseException) -> None:
        if isinstance(exc, _Failure):
            if exc.generation == self.generation:
                self.failed.emit(exc.error)
        elif self.worker is not None:  # raised outside the task (cannot be told apart): report
            self.failed.emit(exc)

    def _on_finished(self, *_: object) -> None:
        if self.worker is not None and self.sender() is self.worker.signals:
            self.worker = None
            self.idle.emit()

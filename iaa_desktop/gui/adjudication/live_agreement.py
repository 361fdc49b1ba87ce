"""The agreement of each annotator with the gold so far, recomputed after every decision.

Small studies are computed at once on the GUI thread (a few milliseconds); above
:data:`SYNC_AGREEMENT_CELLS` the computation runs in a superqt worker, as every long computation
of the app does, on a read-only snapshot; the result of a superseded run is dropped.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from iaa_desktop.core.adjudication.session import agreement_with_gold

#: above this many cells (units × annotators) the agreement is computed in a worker thread
SYNC_AGREEMENT_CELLS = 200_000


def _compute(generation: int, snapshot: tuple) -> tuple[int, Any]:
    return generation, agreement_with_gold(*snapshot)


class LiveAgreement(QObject):
    """Emits :attr:`ready` with the newest agreement table."""

    ready = Signal(object)  # pandas DataFrame
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.generation = 0
        self._worker: Any = None

    def update(self, snapshot: tuple) -> None:
        self.generation += 1
        if snapshot[0].size <= SYNC_AGREEMENT_CELLS:
            self.ready.emit(agreement_with_gold(*snapshot))
            return
        from superqt.utils import create_worker

        worker = create_worker(
            _compute, self.generation, snapshot, _start_thread=False, _ignore_errors=True
        )
        worker.returned.connect(self._on_returned)
        worker.errored.connect(lambda e: self.failed.emit(str(e)))
        self._worker = worker  # keep a reference while it runs
        worker.start()

    def _on_returned(self, item: tuple[int, Any]) -> None:
        gen, table = item
        if gen == self.generation:
            self.ready.emit(table)

    def wait(self, timeout_ms: int = 30000) -> None:
        """Block until the running worker (if any) has finished (tests, closing)."""
        w = self._worker
        if w is not None and hasattr(w, "await_workers"):
            w.await_workers(timeout_ms)

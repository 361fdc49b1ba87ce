"""The agreement of each annotator with the gold so far, recomputed after every decision.

Small studies are computed at once on the GUI thread (a few milliseconds); above
:data:`SYNC_AGREEMENT_CELLS` the computation runs in a superqt worker, as every long computation
of the app does, on a read-only snapshot; the result of a superseded run is dropped.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from iaa_desktop.core.adjudication.session import agreement_with_gold
from iaa_desktop.gui.tasks import TaskRunner

#: above this many cells (units × annotators) the agreement is computed in a worker thread
SYNC_AGREEMENT_CELLS = 200_000


class LiveAgreement(QObject):
    """Emits :attr:`ready` with the newest agreement table."""

    ready = Signal(object)  # pandas DataFrame
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks = TaskRunner(self)
        self.tasks.succeeded.connect(self.ready)
        self.tasks.failed.connect(self._on_failed)

    @property
    def generation(self) -> int:
        return self.tasks.generation

    def update(self, snapshot: tuple[Any, ...]) -> None:
        if snapshot[0].size <= SYNC_AGREEMENT_CELLS:
            self.tasks.supersede()  # a slower run still in flight must not overwrite this one
            self.ready.emit(agreement_with_gold(*snapshot))
            return
        self.tasks.start(agreement_with_gold, *snapshot)

    def _on_failed(self, exc: BaseException) -> None:
        self.failed.emit(str(exc))

    def wait(self, timeout_ms: int = 30000) -> None:
        """Block until the running worker (if any) has finished (tests, closing)."""
        self.tasks.wait(timeout_ms)

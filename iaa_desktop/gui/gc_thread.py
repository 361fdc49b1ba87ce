"""Garbage collection on the GUI thread only.

CPython runs a cyclic collection in whichever thread happens to allocate past the threshold.
When a worker thread (a study being read, a report being drawn) collects a reference cycle that
holds a Qt object's wrapper, the object is destroyed in that thread: its timers cannot be
stopped from there, and Qt later delivers a timer event to freed memory, which crashes the
window. As pyqtgraph's ``GarbageCollector`` does, automatic collection is switched off while the
window lives and the GUI thread collects on a timer, a generation at a time, when the counts of
allocations pass the interpreter's thresholds — so collections happen as often as before, but
only between two events of the GUI thread.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, QTimer

__all__ = ["GuiThreadCollector", "collect_on_gui_thread", "set_apart"]

#: how often the GUI thread looks at the allocation counts (ms)
INTERVAL_MS = 250


class GuiThreadCollector(QObject):
    """Switches automatic collection off and collects on the GUI thread's timer."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)

    def check(self) -> None:
        """A collection of the oldest generation whose count passed its threshold, as the
        interpreter would have started one on its own."""
        t0, t1, t2 = self.threshold
        c0, c1, c2 = gc.get_count()
        if c0 > t0:
            generation = 0
            if c1 > t1:
                generation = 2 if c2 > t2 else 1
            gc.collect(generation)

    def set_apart(self) -> None:
        """Everything alive now (modules, classes, the window's wrappers) left out of every later
        collection (:func:`gc.freeze`), after one full collection on this thread."""
        gc.collect()
        gc.freeze()


_collector: list[GuiThreadCollector] = []


def collect_on_gui_thread() -> GuiThreadCollector:
    """The application's collector (made once, owned by the application)."""
    if not _collector:
        _collector.append(GuiThreadCollector(QCoreApplication.instance()))
    return _collector[0]


def set_apart() -> None:
    """:meth:`GuiThreadCollector.set_apart` on the application's collector."""
    collect_on_gui_thread().set_apart()

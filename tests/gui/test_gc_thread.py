"""Cyclic garbage is collected on the GUI thread, never in a worker (a Qt object's wrapper
collected in a worker thread is destroyed there, and Qt then crashes on its timers)."""

from __future__ import annotations

import gc
import threading

from iaa_desktop.gui.gc_thread import collect_on_gui_thread


class _Cycle:
    freed_in: list[str] = []

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        _Cycle.freed_in.append(threading.current_thread().name)


def test_a_worker_allocating_never_collects_the_windows_garbage(qtbot, window):
    assert not gc.isenabled()  # the window switched automatic collection off
    threshold = collect_on_gui_thread().threshold
    _Cycle.freed_in.clear()
    _Cycle()  # unreachable at once, but only a collection frees it

    kept: list[list[list[int]]] = []

    def allocate() -> None:  # far past the young generation's threshold, as a reader does
        kept.append([[i] for i in range(threshold[0] * 20)])

    worker = threading.Thread(target=allocate, name="worker")
    worker.start()
    worker.join()
    assert _Cycle.freed_in == []  # the worker's allocations started no collection
    qtbot.waitUntil(lambda: _Cycle.freed_in != [], timeout=10000)
    assert _Cycle.freed_in == [threading.main_thread().name]

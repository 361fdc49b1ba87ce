"""StudySession: the state of one open study and its live recomputation.

The session owns the study (kind, inputs, options), the last good result and the errors. Every
change (a setting, a file on disk) asks for a recompute; requests are debounced, each run gets a
generation number, and a result that arrives from a superseded run is dropped. Computation runs
in a worker thread (the window's :class:`~iaa_desktop.gui.tasks.TaskRunner`): the worker sees
only the frozen study, never the session or a widget.
"""

from __future__ import annotations

import gc
import time
import traceback
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from iaa_desktop.core.study_file import Study
from iaa_desktop.gui.tasks import TaskRunner


def _run_study(
    kind_name: str | None, inputs: tuple[Path, ...], options: dict[str, Any]
) -> Generator[Any, None, Any]:
    """The worker's generator: detect the kind, load and compute (all off the GUI thread)."""
    from iaa_desktop.core.kinds import detect_kind, get_kind
    from iaa_desktop.core.progress import Progress

    yield Progress(0, 100, "Reading the inputs")
    name = kind_name or detect_kind(list(inputs))
    result = yield from get_kind(name).run(list(inputs), options)
    # warm up here, not on the GUI thread when the results are shown: the chart modules and
    # every kind (the settings panel lists their titles)
    import matplotlib.backends.backend_agg
    import matplotlib.figure  # noqa: F401

    from iaa_desktop.core.kinds import kind_names

    for other in kind_names():
        get_kind(other)
    return result


_IGNORED_SUFFIXES = (
    ".tmp",
    ".sqlite",
    ".sqlite-wal",
    ".sqlite-shm",
    ".db",
    ".db-wal",
    ".db-shm",
    ".lock",
    ".iaa-study",
)


def _signature(study: Study) -> tuple:
    """Size and modification time of every input file (files of input folders included)."""
    sig: list[tuple[str, int | None, int | None]] = []
    for p in study.inputs:
        p = Path(p)
        files = sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
        for f in files:
            if f.name.startswith(".") or f.name.endswith(_IGNORED_SUFFIXES):
                continue
            try:
                st = f.stat()
                sig.append((str(f), st.st_mtime_ns, st.st_size))
            except OSError:
                sig.append((str(f), None, None))
    return tuple(sig)


#: not empty once the objects of the warmed-up app are set apart from the garbage collector
_SET_APART: list[bool] = []


def warm_up() -> None:
    """Import what every study needs (pandas, the kinds, matplotlib's Agg backend) in a worker.

    Extension modules initialise while holding the GIL; doing it once, early and off the GUI
    thread keeps the first computation from stalling the window.
    """
    import matplotlib.backends.backend_agg
    import matplotlib.figure  # noqa: F401
    import pandas  # noqa: F401

    from iaa_desktop.core.kinds import get_kind, kind_names

    for name in kind_names():
        get_kind(name)


class StudySession(QObject):
    """One open study. Signals are emitted on the GUI thread."""

    computation_started = Signal(int)  # generation
    progress_changed = Signal(float, str)  # fraction, message
    results_ready = Signal(object)  # TaskResult
    computation_failed = Signal(str, str)  # message for the user, details
    computation_cancelled = Signal()
    errors_changed = Signal(list)  # list[str]
    study_changed = Signal(object)  # Study
    warmed_up = Signal()

    def __init__(
        self, study: Study | None = None, parent: QObject | None = None, debounce_ms: int = 150
    ) -> None:
        super().__init__(parent)
        self.study: Study | None = study
        self.result: Any = None  # the kind's result of the newest run
        self.kind_name: str | None = study.kind if study else None
        self.errors: list[str] = []
        self.last_duration = 0.0
        self.is_warm = False
        self._started_at = 0.0
        self.tasks = TaskRunner(self)
        self.tasks.started.connect(self.computation_started)
        self.tasks.progress.connect(self._on_progress)
        self.tasks.succeeded.connect(self._on_returned)
        self.tasks.failed.connect(self._on_errored)
        self.tasks.cancelled.connect(self._on_cancelled)
        self._warm_up = TaskRunner(self)
        self._warm_up.idle.connect(self._on_warm_up_finished)  # ready or not: the app starts
        self._debounce = QTimer(self, singleShot=True, interval=debounce_ms)
        self._debounce.timeout.connect(self._start_worker)
        self._signature: tuple = ()
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_path_changed)
        self._watcher.directoryChanged.connect(self._on_path_changed)
        if study is not None:
            self._watch(study)

    # ------------------------------------------------------------------ public API

    def start_warm_up(self) -> None:
        self._warm_up.start(warm_up)

    def _on_warm_up_finished(self) -> None:
        if not _SET_APART:
            # what the app holds from now on for good (modules, classes, the window's wrappers)
            # set apart from the garbage collector, once, here on the GUI thread: every full
            # collection visits every object it tracks while holding the interpreter lock, and
            # the window's thread waits for it
            _SET_APART.append(True)
            gc.collect()
            gc.freeze()
        self.is_warm = True
        self.warmed_up.emit()

    @property
    def running(self) -> bool:
        return self.tasks.running

    @property
    def generation(self) -> int:
        """The generation number of the newest run."""
        return self.tasks.generation

    def set_study(self, study: Study) -> None:
        self.study = study
        self.kind_name = study.kind
        self.result = None
        self.errors = []
        self._watch(study)
        self.study_changed.emit(study)
        self.recompute()

    def set_option(self, name: str, value: Any) -> None:
        if self.study is None:
            return
        options = dict(self.study.options)
        options[name] = value
        self.study = replace(self.study, options=options)
        self.study_changed.emit(self.study)
        self.recompute()

    def set_kind(self, kind: str | None, options: dict[str, Any] | None = None) -> None:
        """Another kind of study, with ``options`` (none: its defaults)."""
        if self.study is None:
            return
        self.study = replace(self.study, kind=kind, options=dict(options or {}))
        self.kind_name = kind
        self.study_changed.emit(self.study)
        self.recompute()

    def add_inputs(self, paths: list[Path]) -> None:
        if self.study is None:
            self.set_study(Study(tuple(paths)))
            return
        new = tuple(dict.fromkeys(list(self.study.inputs) + [Path(p) for p in paths]))
        self.set_study(replace(self.study, inputs=new))

    def recompute(self, immediately: bool = False) -> None:
        """Ask for a fresh computation (debounced, so a burst of changes runs once)."""
        if self.study is None:
            return
        if immediately:
            self._debounce.stop()
            self._start_worker()
        else:
            self._debounce.start()

    def cancel(self) -> None:
        """Stop the current run: the generator is simply not resumed any more."""
        self.tasks.cancel()  # anything the run still sends is stale

    def _on_cancelled(self, _generation: int) -> None:
        self.computation_cancelled.emit()

    def wait(self, timeout_s: float = 60.0) -> bool:
        """Block until the current run finished (for the CLI screenshot and tests only)."""
        from PySide6.QtCore import QCoreApplication, QEventLoop

        end = time.monotonic() + timeout_s
        while (self.tasks.running or self._debounce.isActive()) and time.monotonic() < end:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.005)
        return not self.tasks.running

    # ------------------------------------------------------------------ internals

    def _start_worker(self) -> None:
        if self.study is None:
            return
        study = self.study
        self._started_at = time.perf_counter()
        self.tasks.start(_run_study, study.kind, tuple(study.inputs), dict(study.options))

    def _on_progress(self, p: Any) -> None:
        self.progress_changed.emit(
            float(getattr(p, "fraction", 0.0)), str(getattr(p, "message", ""))
        )

    def _on_returned(self, result: Any) -> None:
        self.last_duration = time.perf_counter() - self._started_at
        self.result = result
        self.kind_name = result.kind
        self.errors = [str(e) for e in getattr(result, "errors", [])]
        self.errors_changed.emit(
            self.errors + [f"warning: {w}" for w in getattr(result, "warnings", [])[:200]]
        )
        self.results_ready.emit(result)

    def _on_errored(self, exc: BaseException) -> None:
        from iaa_desktop.core.errors import IaaError

        if isinstance(exc, IaaError):
            message, details = str(exc), ""
        else:
            message = f"Internal error: {type(exc).__name__}: {exc}"
            details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.errors = [message]
        self.errors_changed.emit(self.errors)
        # the last good result stays on screen: nothing else changes
        self.computation_failed.emit(message, details)

    # file watching ---------------------------------------------------------

    def _watch(self, study: Study) -> None:
        old = self._watcher.files() + self._watcher.directories()
        if old:
            self._watcher.removePaths(old)
        paths: list[str] = []
        for p in study.inputs:
            p = Path(p)
            if p.is_dir():
                paths.append(str(p))
                paths.extend(
                    str(f)
                    for f in sorted(p.rglob("*"))
                    if f.is_file() and not f.name.startswith(".")
                )
            elif p.exists():
                paths.append(str(p))
                paths.append(str(p.parent))  # atomic saves replace the file: watch its folder too
        if paths:
            self._watcher.addPaths(sorted(set(paths)))
        self._signature = _signature(study)

    def _on_path_changed(self, path: str) -> None:
        if self.study is None:
            return
        before = self._signature
        # editors that save by rename drop the watched file: watch the new one again
        self._watch(self.study)
        if self._signature != before:  # a change to an input, not to a neighbour in its folder
            self.recompute()

    def watched_paths(self) -> list[str]:
        return self._watcher.files() + self._watcher.directories()

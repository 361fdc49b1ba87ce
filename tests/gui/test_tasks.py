"""The task runner every worker of the window goes through: newest result wins, cancellation,
errors as signals. The work runs in real worker threads; only the runner's and the workers'
signals are observed (or, for the worker, emitted), never a widget's."""

from __future__ import annotations

import threading

import pytest

from iaa_desktop.gui.tasks import TaskRunner


class _Record:
    """Everything a runner reported, in order."""

    def __init__(self, runner: TaskRunner) -> None:
        self.events: list[tuple[str, object]] = []
        runner.progress.connect(lambda p: self.events.append(("progress", p)))
        runner.succeeded.connect(lambda r: self.events.append(("succeeded", r)))
        runner.failed.connect(lambda e: self.events.append(("failed", e)))
        runner.cancelled.connect(lambda g: self.events.append(("cancelled", g)))

    def of(self, kind: str) -> list[object]:
        return [v for k, v in self.events if k == kind]


def _held(release: threading.Event, value: str):
    """A generator task that reports progress, then waits until released, then returns."""
    yield f"{value}: started"
    release.wait(30)
    yield f"{value}: released"
    return value


def _fails(message: str) -> None:
    raise ValueError(message)


@pytest.fixture
def runner(qtbot):
    r = TaskRunner()
    yield r
    r.cancel()


def test_the_newest_run_wins(qtbot, runner):
    record = _Record(runner)
    release = threading.Event()
    first_gen = runner.start(_held, release, "old")
    first = runner.worker
    qtbot.waitUntil(lambda: record.of("progress") == ["old: started"], timeout=10000)
    with qtbot.waitSignal(runner.succeeded, timeout=10000) as got:
        second_gen = runner.start(str.upper, "new")
    assert got.args == ["NEW"] and second_gen == first_gen + 1
    release.set()  # the superseded run goes on to its end: nothing it sends arrives
    qtbot.waitUntil(lambda: not first.is_running, timeout=10000)
    qtbot.wait(50)
    assert record.of("succeeded") == ["NEW"]
    assert record.of("progress") == ["old: started"]
    assert not runner.running


def test_a_late_result_of_a_superseded_run_is_dropped(qtbot, runner):
    record = _Record(runner)
    release = threading.Event()
    runner.start(_held, release, "old")
    stale = runner.worker
    runner.start(_held, release, "new")
    # the superseded worker's signals, as they would arrive late from its thread
    stale.yielded.emit((runner.generation - 1, "old: progress"))
    stale.returned.emit((runner.generation - 1, "old"))
    release.set()
    qtbot.waitUntil(lambda: not runner.running, timeout=10000)
    assert record.of("succeeded") == ["new"]
    assert "old: progress" not in record.of("progress")


def test_a_cancelled_run_reports_cancelled_and_nothing_else(qtbot, runner):
    record = _Record(runner)
    release = threading.Event()
    gen = runner.start(_held, release, "slow")
    worker = runner.worker
    qtbot.waitUntil(lambda: record.of("progress") == ["slow: started"], timeout=10000)
    with qtbot.waitSignal(runner.cancelled, timeout=1000) as got:
        assert runner.cancel()
    assert got.args == [gen]
    assert not runner.running  # idle at once, while the worker still waits
    release.set()
    qtbot.waitUntil(lambda: not worker.is_running, timeout=10000)
    qtbot.wait(50)
    assert record.of("succeeded") == [] and record.of("failed") == []
    assert record.of("progress") == ["slow: started"]
    assert not runner.cancel()  # nothing left to cancel: no second report


def test_errors_arrive_as_a_signal_with_the_exception(qtbot, runner):
    with qtbot.waitSignal(runner.failed, timeout=10000) as got:
        runner.start(_fails, "bad input in line 3")
    (exc,) = got.args
    assert isinstance(exc, ValueError) and str(exc) == "bad input in line 3"
    qtbot.waitUntil(lambda: not runner.running, timeout=10000)


def test_the_error_of_a_superseded_run_is_dropped(qtbot, runner):
    record = _Record(runner)
    release = threading.Event()

    def fails_later():
        release.wait(30)
        raise RuntimeError("stale failure")

    runner.start(fails_later)
    stale = runner.worker
    with qtbot.waitSignal(runner.succeeded, timeout=10000):
        runner.start(str, 1)
    release.set()
    qtbot.waitUntil(lambda: not stale.is_running, timeout=10000)
    qtbot.wait(50)
    assert record.of("failed") == [] and record.of("succeeded") == ["1"]

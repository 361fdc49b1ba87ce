"""A brief run of the reader fuzzer (the long run: ``python -m tests.fuzz.run --per-kind 10000``).

Every kind's seed inputs, mutated by a fixed set of seeds, must end with status 0, 1 or 2, with
no traceback, no problem that names no file, and within the limits (a few cases also in a forked
child under RLIMIT_AS = 2 GB and a 30 s limit, as the long run runs every case, and one as its own
process).
"""

from __future__ import annotations

import pytest

from tests.fuzz.forked import run_forked
from tests.fuzz.harness import KINDS, make_case, run_case, run_case_subprocess

N_PER_KIND = 12
#: in the tests a case is a hang only after this long: a guard against a real hang, not a speed
#: bound (speed under the 30 s limit is what the long run measures)
TEST_TIME_LIMIT = 600.0


@pytest.fixture(autouse=True)
def _generous_time_limit(monkeypatch):
    from tests.fuzz import forked, harness

    monkeypatch.setattr(harness, "TIME_LIMIT", TEST_TIME_LIMIT)
    monkeypatch.setattr(forked, "KILL_AFTER", TEST_TIME_LIMIT + 10.0)


@pytest.mark.parametrize("kind", KINDS)
def test_mutated_inputs_end_cleanly(kind, tmp_path):
    bad = []
    for seed in range(N_PER_KIND):
        o = run_case(make_case(kind, 7_000 + seed, tmp_path))
        if o.failed:
            bad.append((seed, o.case.ops, o.status, o.traceback[-600:], o.unlocated[:2], o.hang))
    assert not bad, bad


@pytest.mark.parametrize("kind", KINDS)
def test_the_long_run_forks_every_case_under_the_limits(kind, tmp_path):
    """The runner in a fresh interpreter, as it is used: a test worker has grown too large to
    fork children under RLIMIT_AS = 2 GB itself."""
    import json
    import subprocess
    import sys

    out = tmp_path / "r.json"
    argv = ["-m", "tests.fuzz.run", "--per-kind", "2", "--kinds", kind, "--seed", "9"]
    argv += ["--time-limit", str(TEST_TIME_LIMIT)]
    r = subprocess.run([sys.executable, *argv, "--out", str(out)], capture_output=True, text=True)
    report = json.loads(out.read_text(encoding="utf-8"))
    assert r.returncode == 0, report["failures"]
    assert report["totals"]["cases"] == 2 and 0 < report["max_rss_child_mb"] < 2048


def test_a_case_as_its_own_process_under_the_limits(tmp_path):
    o = run_case_subprocess(make_case("table", 9_000, tmp_path))
    assert not o.failed, (o.status, o.stderr[-2000:])


def test_a_child_that_exhausts_memory_is_reported_not_fatal(tmp_path, monkeypatch):
    """The child's RLIMIT_AS holds: an allocation beyond 2 GB ends as a memory failure."""
    from iaa_desktop import cli

    def greedy(argv):
        return len(bytearray(3 * 1024**3))

    monkeypatch.setattr(cli, "main", greedy)
    f = run_forked(make_case("table", 9_001, tmp_path))
    assert f.outcome.memory and f.outcome.failed


def test_a_child_over_time_is_a_hang_and_one_deaf_to_the_alarm_is_killed(tmp_path, monkeypatch):
    import signal
    import time

    from iaa_desktop import cli
    from tests.fuzz import forked, harness

    monkeypatch.setattr(harness, "TIME_LIMIT", 0.5)
    monkeypatch.setattr(forked, "KILL_AFTER", 2.0)
    monkeypatch.setattr(cli, "main", lambda argv: time.sleep(60))
    assert run_forked(make_case("table", 9_002, tmp_path)).outcome.hang

    def deaf(argv):
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
        time.sleep(60)

    monkeypatch.setattr(cli, "main", deaf)
    f = run_forked(make_case("table", 9_003, tmp_path))
    assert f.outcome.hang and f.outcome.failed

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


@pytest.mark.parametrize("kind", KINDS)
def test_mutated_inputs_end_cleanly(kind, tmp_path):
    bad = []
    for seed in range(N_PER_KIND):
        o = run_case(make_case(kind, 7_000 + seed, tmp_path))
        if o.failed:
            bad.append((seed, o.case.ops, o.status, o.traceback[-600:], o.unlocated[:2], o.hang))
    assert not bad, bad


@pytest.mark.parametrize("kind", KINDS)
def test_a_case_in_a_forked_child_under_the_limits(kind, tmp_path):
    f = run_forked(make_case(kind, 9_000, tmp_path))
    assert f.outcome.status in (0, 1, 2) and not f.outcome.failed, f.outcome.stderr[-2000:]
    assert 0 < f.max_rss_mb < 2048


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

"""The adjudication store's lock: taken over only from a holder that is provably gone, never two
writers; ``kill -9`` at random moments loses no acknowledged decision.

``python -m tests.core.test_store_takeover 100`` runs the kill trials as a script and prints the
figures; the test below runs a few of them (and all 100 under ``-m slow``).
"""

from __future__ import annotations

import os
import random
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from iaa_desktop.core.adjudication.changes import Decide, Decision
from iaa_desktop.core.adjudication.store import STALE_AFTER, AdjudicationStore, StoreLockedError

REPO = Path(__file__).resolve().parents[2]
CHILD = REPO / "tests" / "adjudication_kill_child.py"


def _dec(value: str) -> Decision:
    return Decision("typed", value, "", "2026-01-01T00:00:00.000+00:00", "tester")


def kill_trial(path: Path, rng: random.Random) -> tuple[int, int]:
    """One writer killed at a random moment (even while opening); ``(acknowledged, lost)``."""
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(path), "1000000"], stdout=subprocess.PIPE, cwd=str(REPO)
    )
    acked: dict[str, int] = {}
    deadline = time.monotonic() + rng.uniform(0.0, 2.5)
    chunks: list[bytes] = []
    try:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        while time.monotonic() < deadline and proc.poll() is None:
            ready, _, _ = select.select([fd], [], [], 0.01)
            if ready:
                chunks.append(os.read(fd, 65536))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        while chunk := os.read(fd, 65536):  # what it printed before dying was acknowledged too
            chunks.append(chunk)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()
    buf = b"".join(chunks).decode()
    for line in buf.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "ack":  # a whole line: printed after the commit
            acked[parts[2]] = int(parts[1])
    with AdjudicationStore.open(path) as store:  # the dead writer's lock is taken over
        got = store.decisions()
    lost = sum(
        1 for unit, k in acked.items() if unit not in got or int(got[unit].value.split()[1]) < k
    )
    return len(acked), lost


def run_trials(n: int, folder: Path, seed: int = 0) -> dict[str, int]:
    rng = random.Random(seed)
    total = lost = 0
    for t in range(n):
        path = folder / f"trial{t}.sqlite"
        a, b = kill_trial(path, rng)
        total += a
        lost += b
    return {"trials": n, "acknowledged": total, "lost": lost}


def test_kill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    figures = run_trials(4, tmp_path)
    assert figures["lost"] == 0


@pytest.mark.slow
def test_kill_at_random_moments_loses_nothing_100_trials(tmp_path: Path) -> None:
    figures = run_trials(100, tmp_path, seed=1)
    assert figures == {**figures, "trials": 100, "lost": 0}


def _forge_lock(path: Path, **fields: object) -> None:
    con = sqlite3.connect(path)
    sets = ", ".join(f"{k} = ?" for k in fields)
    con.execute(f"UPDATE locks SET {sets} WHERE id = 1", tuple(fields.values()))
    con.commit()
    con.close()


def test_holder_on_another_machine_is_gone_only_after_its_heartbeat_stops(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    first = AdjudicationStore.open(path)
    first.apply(Decide("u", None, _dec("x")))
    _forge_lock(path, host="elsewhere.example", heartbeat=time.time())
    with pytest.raises(StoreLockedError):
        AdjudicationStore.open(path)  # a live heartbeat on another machine: refused
    _forge_lock(path, heartbeat=time.time() - STALE_AFTER - 1)
    second = AdjudicationStore.open(path)  # stale: taken over
    second.apply(Decide("u", second.decision("u"), _dec("y")))
    # the first holder was only asleep: it wakes up and must not write
    assert first.heartbeat() is False
    with pytest.raises(StoreLockedError, match="took this adjudication over"):
        first.apply(Decide("u", first.decision("u"), _dec("z")))
    assert second.decision("u").value == "y"
    first.close()  # releasing must not release the new holder's lock
    with pytest.raises(StoreLockedError):
        AdjudicationStore.open(path)
    second.close()


def test_reused_process_id_or_new_boot_is_not_a_live_holder(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    first = AdjudicationStore.open(path)
    # our own (live) process id, but recorded with another start time: a reused id
    _forge_lock(path, started="1")
    second = AdjudicationStore.open(path)
    second.close()
    first._con.close()
    first._con = None
    third = AdjudicationStore.open(path)
    _forge_lock(path, boot="another-boot", host=socket.gethostname())
    fourth = AdjudicationStore.open(path)  # the machine restarted since that lock
    fourth.close()
    third._con.close()
    third._con = None


def test_a_live_holder_is_never_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with AdjudicationStore.open(path) as first:
        _forge_lock(path, heartbeat=0.0)  # an old heartbeat, but the process runs (this one)
        with pytest.raises(StoreLockedError, match="another session holds"):
            AdjudicationStore.open(path)
        first.apply(Decide("u", None, _dec("x")))


def test_two_sessions_racing_for_a_stale_lock_give_one_writer(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with AdjudicationStore.open(path):
        pass
    # a stale lock of a dead process
    con = sqlite3.connect(path)
    con.execute(
        "INSERT OR REPLACE INTO locks (id, host, pid, token, user, since, heartbeat, boot, "
        "started) VALUES (1, ?, 999999999, 'dead', 'x', 0, 0, '', '')",
        (socket.gethostname(),),
    )
    con.commit()
    con.close()
    code = (
        "import sys, time; from iaa_desktop.core.adjudication.store import AdjudicationStore, "
        "StoreLockedError\n"
        "try:\n    s = AdjudicationStore.open(sys.argv[1], timeout=30)\nexcept StoreLockedError:\n"
        "    print('refused'); sys.exit(0)\nprint('writer', flush=True); time.sleep(3); s.close()"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True, cwd=REPO
        )
        for _ in range(4)
    ]
    outs = sorted(p.communicate(timeout=120)[0].strip() for p in procs)
    assert outs.count("writer") == 1 and outs.count("refused") == 3, outs


if __name__ == "__main__":
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    with tempfile.TemporaryDirectory() as d:
        t0 = time.time()
        print(run_trials(n, Path(d), seed=1), f"{time.time() - t0:.0f} s")

"""Faults around the adjudication store: an empty, truncated or damaged file, a full disk, a
store that turns read-only, two sessions creating the same store, backups beside it.

Whatever happens, the file is never re-initialised, every fault is a StoreError saying what to
do, and no acknowledged decision is lost.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from iaa_desktop.core.adjudication.changes import Decide, Decision
from iaa_desktop.core.adjudication.store import (
    AdjudicationStore,
    StoreCorruptError,
    StoreError,
    StoreFullError,
    StoreLockedError,
    StoreReadOnlyError,
)

REPO = Path(__file__).resolve().parents[2]


def _dec(value: str, note: str = "") -> Decision:
    return Decision("typed", value, note, "2026-01-01T00:00:00.000+00:00", "tester")


def _store_with(path: Path, n: int, note: str = "") -> dict[str, Decision]:
    with AdjudicationStore.open(path) as s:
        for k in range(n):
            s.apply(Decide(f"u{k}", None, _dec(f"v{k}", note)))
        return s.decisions()


def test_an_empty_store_file_is_reported_and_never_reinitialised(tmp_path: Path) -> None:
    path = tmp_path / "study.adjudication.sqlite"
    path.write_bytes(b"")
    for read_only in (False, True):
        with pytest.raises(StoreCorruptError, match=r"empty \(0 bytes") as info:
            AdjudicationStore.open(path, read_only=read_only)
        assert "left untouched" in str(info.value) and "new store beside it" in str(info.value)
    assert path.read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_an_empty_store_names_the_backup_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "study.adjudication.sqlite"
    kept = _store_with(path, 3)  # closing makes a backup
    backup = path.with_name(path.name + ".backup-1")
    assert backup.is_file()
    path.write_bytes(b"")  # a failed sync
    with pytest.raises(StoreCorruptError, match="restore from the backup beside it") as info:
        AdjudicationStore.open(path)
    assert backup.name in str(info.value)
    assert path.read_bytes() == b""
    # what the message says to do works: the backup holds the decisions
    os.replace(backup, path)
    with AdjudicationStore.open(path) as s:
        assert s.decisions() == kept


def test_a_truncated_store_is_reported_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "s.adjudication.sqlite"
    _store_with(path, 300, note="x" * 200)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(StoreCorruptError, match="truncated"):
        AdjudicationStore.open(path)
    with pytest.raises(StoreCorruptError, match="truncated"):
        AdjudicationStore.open(path, read_only=True)
    assert path.read_bytes() == data[: len(data) // 2]
    path.write_bytes(data[:60])  # shorter than SQLite's header
    with pytest.raises(StoreCorruptError, match="truncated"):
        AdjudicationStore.open(path)
    assert path.read_bytes() == data[:60]


def _damage_a_page(path: Path) -> None:
    page = int.from_bytes(path.read_bytes()[16:18], "big")
    with open(path, "r+b") as fh:  # random bytes over the third page (a b-tree of the store)
        fh.seek(2 * page)
        fh.write(os.urandom(page))


def test_a_damaged_store_is_reported_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "s.adjudication.sqlite"
    _store_with(path, 300, note="x" * 200)
    _damage_a_page(path)
    damaged = path.read_bytes()
    with pytest.raises(StoreCorruptError, match="damaged") as info:
        AdjudicationStore.open(path)
    message = str(info.value)
    assert "left untouched" in message and "restore from the backup beside it" in message
    assert "open it read-only and export what can be read" in message
    assert info.value.damaged
    with pytest.raises(StoreCorruptError, match="damaged"):
        AdjudicationStore.open(path, read_only=True)
    with AdjudicationStore.open(path, read_only=True, damaged_ok=True) as ro:
        assert "damaged" in ro.damaged
        got = ro.decisions()  # what can be read, without an exception
        assert len(got) <= 300
    assert path.read_bytes() == damaged


def test_report_on_a_damaged_store_is_an_error_not_a_traceback(tmp_path: Path, capsys) -> None:
    from iaa_desktop.cli import main

    table = tmp_path / "t.csv"
    table.write_text("item,A,B\n1,x,x\n2,x,y\n3,y,y\n", encoding="utf-8")
    path = tmp_path / "s.adjudication.sqlite"
    _store_with(path, 300, note="x" * 200)
    _damage_a_page(path)
    out = tmp_path / "r.html"
    code = main(
        ["report", "--kind", "table", str(table), "--html", str(out)]
        + ["--adjudication", str(path)]
    )
    err = capsys.readouterr().err
    assert code != 0
    assert "internal error" not in err and "damaged" in err and "restore from the backup" in err


_FULL_CHILD = r"""
import json, resource, signal, sys
sys.path.insert(0, sys.argv[2])
from iaa_desktop.core.adjudication.changes import Decide, Decision
from iaa_desktop.core.adjudication.store import AdjudicationStore, StoreError
store = AdjudicationStore.open(sys.argv[1])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails like a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (2_000_000, resource.RLIM_INFINITY))
for k in range(100_000):
    new = Decision("typed", f"v{k}", "n" * 500, "2026-01-01T00:00:00.000+00:00", "t")
    try:
        store.apply(Decide(f"u{k}", None, new))
    except StoreError as e:
        print(json.dumps({"error": type(e).__name__, "message": str(e)}), flush=True)
        break
    print(f"ack u{k} v{k}", flush=True)
store._con.close()
"""


def test_a_full_disk_is_a_store_error_and_loses_no_acknowledged_decision(tmp_path: Path) -> None:
    path = tmp_path / "s.adjudication.sqlite"
    proc = subprocess.run(
        [sys.executable, "-c", _FULL_CHILD, str(path), str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stderr
    acked = dict(line.split()[1:] for line in lines if line.startswith("ack "))
    failure = json.loads(lines[-1])
    assert len(acked) > 50
    assert failure["error"] == StoreFullError.__name__
    assert "disk refused the write" in failure["message"] and "not recorded" in failure["message"]
    with AdjudicationStore.open(path) as s:
        got = s.decisions()
        assert {u: d.value for u, d in got.items() if u in acked} == acked


def test_a_store_that_turns_read_only_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "s.adjudication.sqlite"
    with AdjudicationStore.open(path) as s:
        s.apply(Decide("u1", None, _dec("a")))
        s._con.execute("PRAGMA query_only = ON")  # as a file system remounted read-only
        with pytest.raises(StoreReadOnlyError, match="not recorded"):
            s.apply(Decide("u2", None, _dec("b")))
        s._con.execute("PRAGMA query_only = OFF")
        assert s.decision("u2") is None and s.decision("u1") == _dec("a")


def test_every_sqlite_error_while_writing_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "s.adjudication.sqlite"
    with AdjudicationStore.open(path) as s:
        s._con.execute("DROP TABLE history")  # a damage sqlite reports as OperationalError
        with pytest.raises(StoreError, match="not recorded"):
            s.apply(Decide("u1", None, _dec("a")))
        assert s.decision("u1") is None


def _race_to_create(path: Path) -> list[object]:
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def opener() -> None:
        barrier.wait()
        try:
            outcomes.append(AdjudicationStore.open(path))
        except StoreError as e:
            outcomes.append(e)

    threads = [threading.Thread(target=opener) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_two_sessions_creating_the_same_store_one_is_told_locked(tmp_path: Path) -> None:
    for trial in range(60):
        outcomes = _race_to_create(tmp_path / f"s{trial}.adjudication.sqlite")
        stores = [o for o in outcomes if isinstance(o, AdjudicationStore)]
        errors = [o for o in outcomes if not isinstance(o, AdjudicationStore)]
        assert len(stores) == 1, outcomes
        assert len(errors) == 1 and isinstance(errors[0], StoreLockedError), errors
        stores[0].close()
        leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
        assert leftovers == []


def test_backups_roll_beside_the_store(tmp_path: Path, monkeypatch) -> None:
    from iaa_desktop.core.adjudication import backup

    monkeypatch.setattr(backup, "EVERY", 5)
    path = tmp_path / "s.adjudication.sqlite"
    with AdjudicationStore.open(path) as s:
        for k in range(23):
            s.apply(Decide(f"u{k}", None, _dec(f"v{k}")))
    names = sorted(p.name for p in tmp_path.iterdir() if ".backup-" in p.name)
    assert names == [f"{path.name}.backup-{k}" for k in (1, 2, 3)]
    counts = []
    for k in (1, 2, 3):
        con = sqlite3.connect(path.with_name(f"{path.name}.backup-{k}"))
        assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        counts.append(con.execute("SELECT count(*) FROM decisions").fetchone()[0])
        con.close()
    assert counts == [23, 20, 15]  # the last on close, then every 5 decisions

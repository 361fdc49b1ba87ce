"""Adjudication store: durability (kill -9), undo/redo as inverses, migrations, locks, bad files."""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iaa_desktop.core.adjudication.changes import Decide, Decision
from iaa_desktop.core.adjudication.store import (
    SCHEMA_VERSION,
    AdjudicationStore,
    StoreConflictError,
    StoreCorruptError,
    StoreLockedError,
    StoreReadOnlyError,
    new_store_path_beside,
    store_path_for,
)

REPO = Path(__file__).resolve().parents[2]
CHILD = REPO / "tests" / "adjudication_kill_child.py"


def test_kill_9_mid_burst_keeps_every_acknowledged_decision(tmp_path: Path) -> None:
    path = tmp_path / "study.adjudication.sqlite"
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(path), "1000000"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=str(REPO),
    )
    acked: dict[str, int] = {}
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        n = 0
        for line in proc.stdout:
            _, k, unit = line.split()
            acked[unit] = int(k)
            n += 1
            if n == 300:  # mid-burst: the child keeps writing as fast as it can
                os.kill(proc.pid, signal.SIGKILL)
                break
        # whatever the child printed before dying was acknowledged too
        for line in proc.stdout:
            if line.startswith("ack "):
                _, k, unit = line.split()
                acked[unit] = int(k)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    assert len(acked) >= 300
    with AdjudicationStore.open(path) as store:  # the dead writer's lock is taken over
        got = store.decisions()
        for unit, k in acked.items():
            assert unit in got, unit
            # the store may hold a later value of the unit (committed, not yet acknowledged)
            assert int(got[unit].value.split()[1]) >= k


def test_kill_9_of_the_window_keeps_every_acknowledged_decision(tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    path = tmp_path / "study.adjudication.sqlite"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(path), "100000", "gui"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=str(REPO),
        env=env,
    )
    acked: dict[str, str] = {}
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        for line in proc.stdout:
            _, _k, unit, value = line.split()
            acked[unit] = value
            if len(acked) == 120:
                os.kill(proc.pid, signal.SIGKILL)
                break
        for line in proc.stdout:
            if line.startswith("ack "):
                _, _k, unit, value = line.split()
                acked[unit] = value
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    assert len(acked) >= 120
    with AdjudicationStore.open(path) as store:
        got = store.decisions()
        for unit, value in acked.items():
            assert got[unit].value == value and got[unit].choice == "annotator:A"


def _dec(choice: str, value: str | None, note: str = "") -> Decision:
    return Decision(choice, value, note, "2026-01-01T00:00:00.000+00:00", "tester")


decisions = st.one_of(
    st.none(),
    st.builds(
        _dec,
        st.sampled_from(["annotator:A", "annotator:B", "majority", "typed", "mean"]),
        st.one_of(st.none(), st.text(max_size=8)),
        st.text(max_size=5),
    ),
)
units = st.sampled_from(["u1", "u2", "u3", "ü/4", "T1/5"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefix=st.lists(st.tuples(units, decisions), max_size=6), unit=units, new=decisions)
def test_apply_then_inverse_restores_the_store(prefix, unit, new) -> None:
    with tempfile.TemporaryDirectory() as d:
        with AdjudicationStore.open(Path(d) / "s.sqlite") as store:
            for u, dec in prefix:
                change = Decide(u, store.decision(u), dec)
                if not change.is_noop:
                    store.apply(change)
            before = store.snapshot()
            change = Decide(unit, store.decision(unit), new)
            store.apply(change)
            assert store.decision(unit) == new
            store.apply(change.inverse())
            assert store.snapshot() == before
            assert change.inverse().inverse() == change


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(st.tuples(units, decisions), min_size=1, max_size=8))
def test_undo_all_in_reverse_order_restores_the_empty_store(steps) -> None:
    with tempfile.TemporaryDirectory() as d:
        with AdjudicationStore.open(Path(d) / "s.sqlite") as store:
            done = []
            for u, dec in steps:
                c = Decide(u, store.decision(u), dec)
                store.apply(c)
                done.append(c)
            for c in reversed(done):
                store.apply(c.inverse())
            assert store.snapshot() == {}
            assert len(store.history()) == 2 * len(done)


def test_stale_change_is_refused(tmp_path: Path) -> None:
    with AdjudicationStore.open(tmp_path / "s.sqlite") as store:
        store.apply(Decide("u", None, _dec("typed", "x")))
        with pytest.raises(StoreConflictError):
            store.apply(Decide("u", None, _dec("typed", "y")))
        assert store.decision("u").value == "x"


def test_schema_migrates_from_version_1(tmp_path: Path) -> None:
    from iaa_desktop.core.adjudication import store as st_mod

    path = tmp_path / "old.sqlite"
    con = sqlite3.connect(path)
    st_mod.MIGRATIONS[0](con)
    con.execute(
        "INSERT INTO decisions (unit, choice, value, note, time) VALUES ('u', 'typed', 'v', 'n', 't')"
    )
    con.execute("PRAGMA user_version = 1")
    con.execute(f"PRAGMA application_id = {st_mod.APPLICATION_ID}")
    con.commit()
    con.close()
    with AdjudicationStore.open(path) as store:
        assert store._con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.decision("u") == Decision("typed", "v", "n", "t", "")


def test_newer_schema_is_refused_for_writing(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    AdjudicationStore.open(path).close()
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    con.commit()
    con.close()
    with pytest.raises(Exception, match="newer version"):
        AdjudicationStore.open(path)


def test_second_writer_is_told_and_can_open_read_only(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with AdjudicationStore.open(path) as first:
        first.apply(Decide("u", None, _dec("typed", "x")))
        with pytest.raises(StoreLockedError, match="another session holds"):
            AdjudicationStore.open(path)
        with AdjudicationStore.open(path, read_only=True) as ro:
            assert ro.read_only
            assert ro.decision("u").value == "x"
            with pytest.raises(StoreReadOnlyError):
                ro.apply(Decide("u", ro.decision("u"), None))
        first.apply(Decide("u", first.decision("u"), _dec("typed", "y")))
    # released on close: a new writer gets it
    with AdjudicationStore.open(path) as again:
        assert again.decision("u").value == "y"


def test_read_only_file_gives_a_clear_message_and_loses_nothing(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root ignores file permissions")
    path = tmp_path / "s.sqlite"
    with AdjudicationStore.open(path) as s:
        s.apply(Decide("u", None, _dec("typed", "x")))
    os.chmod(path, stat.S_IRUSR)
    try:
        with pytest.raises(StoreReadOnlyError, match="read-only"):
            AdjudicationStore.open(path)
        with AdjudicationStore.open(path, read_only=True) as ro:
            assert ro.decision("u").value == "x"
    finally:
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)


def test_read_only_flag_is_honoured_even_for_root(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "s.sqlite"
    with AdjudicationStore.open(path) as s:
        s.apply(Decide("u", None, _dec("typed", "x")))
    monkeypatch.setattr(os, "access", lambda p, mode: False)
    with pytest.raises(StoreReadOnlyError, match="read-only"):
        AdjudicationStore.open(path)


@pytest.mark.parametrize(
    "content", [b"this is not a database at all" * 50, b"SQLite format 3\x00" + b"\xff" * 2000]
)
def test_corrupt_file_is_left_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "s.adjudication.sqlite"
    path.write_bytes(content)
    with pytest.raises(StoreCorruptError) as info:
        AdjudicationStore.open(path)
    assert "left untouched" in str(info.value)
    assert path.read_bytes() == content
    assert not info.value.suggested.exists()
    assert info.value.suggested.parent == tmp_path
    with AdjudicationStore.open(info.value.suggested) as fresh:  # a new store beside it works
        assert fresh.decisions() == {}
    assert path.read_bytes() == content


def test_foreign_sqlite_file_is_not_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE x (a)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreCorruptError, match="not an adjudication store"):
        AdjudicationStore.open(path)
    assert path.read_bytes() == before


def test_paths(tmp_path: Path) -> None:
    assert store_path_for(tmp_path / "my.study.json").name == "my.study.adjudication.sqlite"
    p = tmp_path / "a.adjudication.sqlite"
    assert new_store_path_beside(p).name == "a-2.adjudication.sqlite"
    (tmp_path / "a-2.adjudication.sqlite").write_bytes(b"")
    assert new_store_path_beside(p).name == "a-3.adjudication.sqlite"


def test_meta_round_trip(tmp_path: Path) -> None:
    with AdjudicationStore.open(tmp_path / "s.sqlite") as s:
        s.set_meta(kind="table", seed=7, strategy={"name": "majority"})
    with AdjudicationStore.open(tmp_path / "s.sqlite") as s:
        assert s.get_meta("seed") == 7 and s.meta()["strategy"] == {"name": "majority"}

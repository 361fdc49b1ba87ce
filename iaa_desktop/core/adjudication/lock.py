"""The writer's lock of an adjudication store: one ``locks`` row in the store itself.

The row holds the writer's host, pid, a random token, its user and a heartbeat. A lock is taken
over only when its holder is provably gone: on the same machine (same host name and boot), its
process no longer exists or is another process that reused the id (a different start time); a
machine restarted since (another boot) holds nothing; a holder on another machine counts as
gone when its heartbeat is older than :data:`STALE_AFTER` seconds. Every write of the store
checks, inside its own transaction, that the row still carries its session's token
(:mod:`iaa_desktop.core.adjudication.store`).
"""

from __future__ import annotations

import contextlib
import os
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

#: seconds after which a lock without heartbeat is considered abandoned
STALE_AFTER = 120.0


def process_alive(pid: int, started: str = "") -> bool:
    """Whether process ``pid`` of this machine still runs (and, when ``started`` is known, is the
    same process: a new one may have been given the id of a dead one)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    except OSError:
        return False
    # a killed child not yet reaped is a zombie: it holds nothing any more
    with contextlib.suppress(OSError, IndexError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] in ("Z", "X"):
            return False
        if started and fields[19] != started:
            return False
    return True


def process_started(pid: int) -> str:
    """The start time of a process (clock ticks after boot, Linux), "" where unknown."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def boot_id() -> str:
    """This boot of this machine ("" where unknown): process ids start over at each boot."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def lock_is_live(row: tuple[Any, ...]) -> bool:
    """Whether the holder of a lock row may still be writing (see the module docstring)."""
    host, pid, _token, _user_, _since, heartbeat, boot, started = row
    if host == socket.gethostname():
        here = boot_id()
        if boot and here and boot != here:
            return False  # this machine restarted since: every process of then is gone
        return process_alive(int(pid), str(started or ""))
    return time.time() - float(heartbeat) < STALE_AFTER


def acquire(con: sqlite3.Connection, token: str | None, user: str) -> tuple[Any, ...] | None:
    """Take the lock for the session ``token`` in one transaction; when another live session
    holds it, write nothing and return that holder's row
    ``(host, pid, token, user, since, heartbeat, boot, started)``."""
    con.execute("BEGIN IMMEDIATE")
    try:
        row = con.execute(
            "SELECT host, pid, token, user, since, heartbeat, boot, started FROM locks WHERE id = 1"
        ).fetchone()
        if row is not None and row[2] != token and lock_is_live(row):
            con.execute("ROLLBACK")
            return tuple(row)
        now = time.time()
        pid = os.getpid()
        con.execute(
            "INSERT OR REPLACE INTO locks (id, host, pid, token, user, since, heartbeat, "
            "boot, started) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
            (socket.gethostname(), pid, token, user, now, now, boot_id(), process_started(pid)),
        )
        con.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            con.execute("ROLLBACK")
        raise
    return None


def heartbeat(con: sqlite3.Connection, token: str | None) -> bool:
    """Renew the heartbeat of the session ``token``; False when the lock is no longer its own."""
    cur = con.execute(
        "UPDATE locks SET heartbeat = ? WHERE id = 1 AND token = ?", (time.time(), token)
    )
    return cur.rowcount == 1


def holder(con: sqlite3.Connection, token: str | None) -> dict[str, Any] | None:
    """Who holds the lock (``mine``: the session ``token``), None when nobody does."""
    row = con.execute(
        "SELECT host, pid, token, user, since, heartbeat FROM locks WHERE id = 1"
    ).fetchone()
    if row is None:
        return None
    return {
        "host": row[0],
        "pid": row[1],
        "user": row[3],
        "since": row[4],
        "heartbeat": row[5],
        "mine": row[2] == token,
    }


def release(con: sqlite3.Connection, token: str | None) -> None:
    """Give the lock of the session ``token`` back (nothing when another session holds it)."""
    con.execute("DELETE FROM locks WHERE id = 1 AND token = ?", (token,))

"""Whether a file is a sound adjudication store, checked before anything is written to it.

An existing file is written to only when it is an SQLite database (its 100-byte header, see
https://www.sqlite.org/fileformat2.html#the_database_header) no shorter than its header says,
carries the store's ``application_id`` and every table and column of its schema version, and
passes ``PRAGMA quick_check``. An empty (0-byte), truncated or damaged file is never
re-initialised: it is reported with what to do (restore the newest backup beside it, open it
read-only and export what can be read, or start a new store beside it) and left untouched.

sqlite3's exceptions never reach the caller raw: :func:`store_error` turns each into the
:class:`~iaa_desktop.core.adjudication.store.StoreError` subclass that says what happened
(full disk, read-only, busy, damaged).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from iaa_desktop.core.errors import IaaError

#: ``PRAGMA application_id`` of an adjudication store ("IAAD")
APPLICATION_ID = 0x49414144
SQLITE_HEADER = b"SQLite format 3\x00"

#: the columns each schema version must have (table → columns), checked on every open
_COLUMNS: dict[str, set[str]] = {
    "meta": {"key", "value"},
    "decisions": {"unit", "choice", "value", "note", "time", "versions"},
    "history": {"seq", "unit", "old", "new", "time"},
    "locks": {"id", "host", "pid", "token", "user", "since", "heartbeat"},
}
_ADDED = {2: {"decisions": {"author"}}, 3: {"locks": {"boot", "started"}}}


class StoreError(IaaError):
    """A problem with the adjudication store (message meant for the user)."""


class StoreLockedError(StoreError):
    """Another session (window or process) holds the store for writing."""

    def __init__(self, message: str, holder: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.holder = holder or {}


class StoreReadOnlyError(StoreError):
    """The store cannot be written (read-only file or folder, or opened read-only)."""


class StoreFullError(StoreError):
    """The disk is full or refused a write (a file size limit, a failing disk): the change was
    not recorded."""


class StoreCorruptError(StoreError):
    """The file is not a readable adjudication store; it is left untouched.

    ``damaged`` is True for a store that was one (its header and schema are there) but fails
    the integrity check: it can still be opened read-only to export what can be read.
    """

    def __init__(self, message: str, path: Path, damaged: bool = False) -> None:
        super().__init__(message)
        self.path = path
        self.damaged = damaged
        self.suggested = new_store_path_beside(path)


def new_store_path_beside(path: str | Path) -> Path:
    """A name next to ``path`` that does not exist yet (``x.sqlite`` → ``x-2.sqlite`` ...)."""
    p = Path(path)
    stem, suffix = p.name.split(".", 1)[0], "." + p.name.split(".", 1)[1] if "." in p.name else ""
    k = 2
    while True:
        cand = p.with_name(f"{stem}-{k}{suffix}")
        if not cand.exists():
            return cand
        k += 1


def backups_of(path: Path) -> list[Path]:
    """The rolling backups kept beside the store ``path``, newest first."""
    found = [p for p in path.parent.glob(path.name + ".backup-*") if p.name[-1].isdigit()]
    return sorted(found, key=lambda p: int(p.name.rsplit("-", 1)[1]))


def what_to_do(path: Path, readable: bool) -> str:
    """The ways out offered with an empty, truncated or damaged store."""
    steps = []
    backups = [b for b in backups_of(path) if b.is_file() and b.stat().st_size > 0]
    if backups:
        steps.append(
            f"restore from the backup beside it: close every window using it, move {path.name} "
            f"aside and copy {backups[0].name} to {path.name}"
        )
    if readable:
        steps.append("open it read-only and export what can be read")
    steps.append(f"start a new store beside it ({new_store_path_beside(path).name})")
    return "The file was left untouched. What to do: " + "; or ".join(steps) + "."


def corrupt(path: Path, problem: str, readable: bool = False) -> StoreCorruptError:
    return StoreCorruptError(
        f"{path}: {problem}. {what_to_do(path, readable)}", path, damaged=readable
    )


def check_file(path: Path) -> None:
    """Refuse, without touching it, an existing file that is not a whole SQLite database."""
    if not path.exists():
        return
    if path.is_dir():
        raise StoreError(f"{path}: is a folder, not an adjudication store.")
    if not path.is_file():
        raise StoreError(f"{path}: is not a regular file, not an adjudication store.")
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
            size = fh.seek(0, 2)
    except OSError as e:
        raise StoreError(f"{path}: cannot read the adjudication store ({e.strerror}).") from e
    if size == 0:
        raise corrupt(
            path,
            "the adjudication store is empty (0 bytes; a save that failed or a full disk can "
            "leave a file so)",
        )
    if head[:16] != SQLITE_HEADER and not SQLITE_HEADER.startswith(head):
        raise corrupt(
            path, "this file is not an adjudication store (it is damaged or something else)"
        )
    if len(head) < 100:
        raise corrupt(path, f"the adjudication store is truncated ({size} bytes)")
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    valid = head[24:28] == head[92:96] and pages > 0
    wal = path.with_name(path.name + "-wal")
    wal_frames = wal.exists() and wal.stat().st_size > 32
    # pages still in the write-ahead log are not in the file yet: only judge a settled file
    if valid and not wal_frames and size < pages * page_size:
        raise corrupt(
            path,
            f"the adjudication store is truncated ({size} bytes of {pages * page_size})",
            readable=True,
        )


def check_connection(con: sqlite3.Connection, path: Path) -> int:
    """Check an open store before writing anything: a store of ours, its schema, and
    ``PRAGMA quick_check``. Returns the schema version (0 only for a file it just created)."""
    app_id = con.execute("PRAGMA application_id").fetchone()[0]
    version = int(con.execute("PRAGMA user_version").fetchone()[0])
    n_tables = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if app_id != APPLICATION_ID:
        if n_tables:
            raise corrupt(path, "this SQLite file is not an adjudication store")
        raise corrupt(path, "the adjudication store is empty (no decisions, no tables)")
    want = {t: set(c) for t, c in _COLUMNS.items()}
    for v, added in _ADDED.items():
        if version >= v:
            for t, cols in added.items():
                want[t] |= cols
    for table, cols in want.items():
        have = {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
        if not cols <= have:
            missing = ", ".join(sorted(cols - have))
            raise corrupt(
                path,
                f"the adjudication store is damaged (table '{table}' lacks {missing})",
                readable=bool(have),
            )
    problems = [r[0] for r in con.execute("PRAGMA quick_check(5)")]
    if problems != ["ok"]:
        raise corrupt(
            path,
            "the adjudication store is damaged (integrity check: " + "; ".join(problems) + ")",
            readable=True,
        )
    return version


def store_error(e: sqlite3.Error, path: Path, doing: str) -> StoreError:
    """The store error saying what a sqlite3 exception means for the user."""
    msg = str(e).lower()
    name = str(getattr(e, "sqlite_errorname", ""))
    if "full" in msg or "too big" in msg:
        return StoreFullError(
            f"{path}: the disk is full ({e}); {doing}. Free some space and try again."
        )
    if name.startswith("SQLITE_IOERR") and any(w in name for w in ("WRITE", "FSYNC", "TRUNC")):
        return StoreFullError(
            f"{path}: the disk refused the write ({e}: it is full, over the size allowed, or "
            f"failing); {doing}. Free some space or save the study elsewhere, then try again."
        )
    if "readonly" in msg or "read-only" in msg:
        return StoreReadOnlyError(f"{path}: the adjudication store is read-only ({e}); {doing}.")
    if "locked" in msg or "busy" in msg:
        return StoreLockedError(
            f"{path}: the adjudication store is busy in another session ({e}); {doing}."
        )
    if "malformed" in msg or "not a database" in msg or "corrupt" in msg:
        return corrupt(path, f"the adjudication store is damaged ({e}); {doing}", readable=True)
    return StoreError(f"{path}: the adjudication store failed ({e}); {doing}.")

"""The adjudication store: one SQLite file beside the study file.

Every decision is committed in its own transaction before the caller returns (WAL journal,
``synchronous=FULL``), so a decision the window has acknowledged survives ``kill -9`` and a power
cut. The schema carries its version in ``PRAGMA user_version`` and migrates itself forward with
:data:`MIGRATIONS`. One writer at a time: a ``locks`` row holds the writer's host, pid, a random
token and a heartbeat; a second writer is refused with :class:`StoreLockedError` (it can open the
store read-only, ``mode=ro``).

The lock (taken over only when its holder is provably gone) is :mod:`.lock`. Two writers are
never possible: every write checks, inside its own transaction, that the lock still
carries this session's token, so a holder that was only asleep finds its lock taken over and
writes nothing (:class:`StoreLockedError`), and two sessions that see the same stale lock at the
same moment are serialised by SQLite (the second sees the first's fresh lock and is refused).

Nothing here ever overwrites a file it cannot read as a store: before anything is written, an
existing file must pass the checks of :mod:`.integrity` (header, schema, ``PRAGMA
quick_check``); an empty, truncated, damaged or foreign file raises :class:`StoreCorruptError`,
says what to do and stays untouched. A new store is created atomically and backed up beside
itself as decisions accumulate (:mod:`.backup`). Every sqlite3 exception is turned into a
:class:`StoreError` saying what happened and that the change was not recorded.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd

from iaa_desktop.core.adjudication import backup, lock
from iaa_desktop.core.adjudication.changes import Decide, Decision, now_iso
from iaa_desktop.core.adjudication.integrity import (
    APPLICATION_ID,
    SQLITE_HEADER,
    StoreCorruptError,
    StoreError,
    StoreFullError,
    StoreLockedError,
    StoreReadOnlyError,
    check_connection,
    check_file,
    new_store_path_beside,
    store_error,
)
from iaa_desktop.core.adjudication.lock import STALE_AFTER as STALE_AFTER

__all__ = [
    "APPLICATION_ID",
    "SQLITE_HEADER",
    "STALE_AFTER",
    "AdjudicationStore",
    "StoreConflictError",
    "StoreCorruptError",
    "StoreError",
    "StoreFullError",
    "StoreLockedError",
    "StoreReadOnlyError",
    "new_store_path_beside",
    "store_path_for",
]


class StoreConflictError(StoreError):
    """A change expected a different current decision than the store holds."""


# ---------------------------------------------------------------------------------------------
# schema


def _v1(con: sqlite3.Connection) -> None:
    con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute(
        "CREATE TABLE decisions (unit TEXT PRIMARY KEY, choice TEXT NOT NULL, value TEXT, "
        "note TEXT NOT NULL DEFAULT '', time TEXT NOT NULL, versions TEXT NOT NULL DEFAULT '{}')"
    )
    con.execute(
        "CREATE TABLE history (seq INTEGER PRIMARY KEY AUTOINCREMENT, unit TEXT NOT NULL, "
        "old TEXT, new TEXT, time TEXT NOT NULL)"
    )
    con.execute(
        "CREATE TABLE locks (id INTEGER PRIMARY KEY CHECK (id = 1), host TEXT NOT NULL, "
        "pid INTEGER NOT NULL, token TEXT NOT NULL, user TEXT NOT NULL, since REAL NOT NULL, "
        "heartbeat REAL NOT NULL)"
    )


def _v2(con: sqlite3.Connection) -> None:
    # who decided: an adjudication meeting may hand the keyboard around
    con.execute("ALTER TABLE decisions ADD COLUMN author TEXT NOT NULL DEFAULT ''")
    con.execute("CREATE INDEX history_unit ON history (unit)")


def _v3(con: sqlite3.Connection) -> None:
    # the lock holder's boot and process start time: a process id alone may be reused
    con.execute("ALTER TABLE locks ADD COLUMN boot TEXT NOT NULL DEFAULT ''")
    con.execute("ALTER TABLE locks ADD COLUMN started TEXT NOT NULL DEFAULT ''")


#: migration k brings the schema from version k to k + 1
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2, _v3]
SCHEMA_VERSION = len(MIGRATIONS)


def store_path_for(study_path: str | Path) -> Path:
    """The store beside a study file: ``study.iaa`` → ``study.adjudication.sqlite``."""
    p = Path(study_path)
    return p.with_name(p.stem + ".adjudication.sqlite")


def _json(d: Any) -> str:
    return json.dumps(d, ensure_ascii=False, sort_keys=True)


class AdjudicationStore:
    """An open adjudication store. Use :meth:`open`; close with :meth:`close` (or ``with``)."""

    def __init__(
        self, path: Path, con: sqlite3.Connection, read_only: bool, token: str | None
    ) -> None:
        self.path = path
        self._con = con
        self.read_only = read_only
        self._token = token
        self.user = _user()
        #: why a store opened read-only despite damage may miss decisions ("" when sound)
        self.damaged = ""
        #: why the last automatic backup failed ("" when it did not)
        self.backup_problem = ""
        self._unsaved = 0  # changes recorded since the last backup

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | Path,
        read_only: bool = False,
        timeout: float = 5.0,
        damaged_ok: bool = False,
    ) -> AdjudicationStore:
        """Open (creating if absent) the store at ``path``.

        ``damaged_ok`` (read-only only) opens a store that fails the integrity check to read
        what can be read; :attr:`damaged` then says why decisions may be missing.

        Raises
        ------
        StoreLockedError
            another live session holds the store (open it with ``read_only=True``)
        StoreReadOnlyError
            the file or its folder cannot be written (open it with ``read_only=True``)
        StoreCorruptError
            the file is empty, truncated, damaged or not an adjudication store; it is left
            untouched and the message says what to do
        """
        path = Path(path)
        if read_only:
            return cls._open_read_only(path, timeout, damaged_ok)
        check_file(path)
        _check_writable(path)
        if not path.exists():
            try:
                backup.create(path, _migrate)
            except sqlite3.Error as e:
                raise store_error(e, path, "the store was not created") from e
            except OSError as e:
                raise StoreError(
                    f"{path}: cannot create the adjudication store ({e.strerror or e})."
                ) from e
        try:
            con = sqlite3.connect(
                str(path), timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as e:
            raise StoreError(f"{path}: cannot open the adjudication store ({e}).") from e
        try:
            check_connection(con, path)  # before anything is written
            mode = con.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                # e.g. a network file system: fall back to a rollback journal, still durable
                con.execute("PRAGMA journal_mode=DELETE")
            con.execute("PRAGMA synchronous=FULL")
            con.execute("PRAGMA foreign_keys=ON")
            _migrate(con, path)
            store = cls(path, con, read_only=False, token=secrets.token_hex(8))
            store._acquire_lock()
        except sqlite3.Error as e:
            con.close()
            raise store_error(e, path, "nothing was changed") from e
        except BaseException:
            con.close()
            raise
        return store

    @classmethod
    def _open_read_only(cls, path: Path, timeout: float, damaged_ok: bool) -> AdjudicationStore:
        if not path.exists():
            raise StoreError(f"{path}: no adjudication store there yet.")
        damaged = ""
        try:
            check_file(path)
        except StoreCorruptError as e:
            if not (damaged_ok and e.damaged):
                raise
            damaged = str(e)
        last: Exception | None = None
        for extra in ("mode=ro", "mode=ro&immutable=1"):
            try:
                con = sqlite3.connect(
                    f"file:{quote(str(path.resolve()))}?{extra}",
                    uri=True,
                    timeout=timeout,
                    isolation_level=None,
                    check_same_thread=False,
                )
            except sqlite3.Error as e:
                last = e
                continue
            try:
                version = check_connection(con, path)
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"{path}: the store was written by a newer version of the application (schema {version})."
                    )
            except StoreCorruptError as e:
                if not (damaged_ok and e.damaged):
                    con.close()
                    raise
                damaged = damaged or str(e)
            except StoreError:
                con.close()
                raise
            except sqlite3.Error as e:
                last = e
                con.close()
                err = store_error(e, path, "nothing was read")
                if isinstance(err, StoreCorruptError) and not damaged_ok:
                    raise err from e
                if isinstance(err, StoreCorruptError):
                    damaged = damaged or str(err)
                continue
            store = cls(path, con, read_only=True, token=None)
            store.damaged = damaged
            return store
        raise StoreError(f"{path}: cannot open the adjudication store read-only ({last}).")

    # -- lock -----------------------------------------------------------------------------------

    def _acquire_lock(self) -> None:
        row = lock.acquire(self._con, self._token, self.user)
        if row is not None:
            holder = {"host": row[0], "pid": row[1], "user": row[3], "since": row[4]}
            since = time.strftime("%H:%M:%S", time.localtime(row[4]))
            raise StoreLockedError(
                f"{self.path}: another session holds this adjudication ({row[3]} on {row[0]}, "
                f"process {row[1]}, since {since}). You can open it read-only.",
                holder,
            )

    def heartbeat(self) -> bool:
        """Tell other sessions this one is alive (call every few seconds from a timer).

        Returns False when the lock is no longer this session's (another session took it over
        after this one's heartbeat stopped, e.g. while the computer slept): no decision can be
        recorded any more, and the next one raises :class:`StoreLockedError`.
        """
        if self.read_only or self._con is None:
            return True
        try:
            return lock.heartbeat(self._con, self._token)
        except sqlite3.Error as e:
            raise store_error(e, self.path, "other sessions may not see this one any more") from e

    def lock_holder(self) -> dict[str, Any] | None:
        with self._reading():
            return lock.holder(self._con, self._token)

    def close(self) -> None:
        """Release the lock and close the file (the data is already committed)."""
        if self._con is None:
            return
        try:
            if not self.read_only:
                if self._unsaved:
                    self.backup()
                with contextlib.suppress(sqlite3.Error):
                    lock.release(self._con, self._token)
                    self._con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            self._con.close()
            self._con = None  # type: ignore[assignment]

    def backup(self) -> Path | None:
        """Write a backup beside the store now (see :mod:`.backup`); None, with the reason in
        :attr:`backup_problem`, when it failed (the decisions themselves are safe in the store)."""
        try:
            made = backup.write_backup(self._con, self.path)
        except (OSError, sqlite3.Error) as e:
            self.backup_problem = (
                f"{self.path}: the automatic backup beside the store failed ({e}); the decisions "
                "are recorded in the store itself."
            )
            return None
        self.backup_problem = ""
        self._unsaved = 0
        return made

    def __enter__(self) -> AdjudicationStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return self._con is None

    # -- meta -----------------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self._rows("SELECT key, value FROM meta")}

    def get_meta(self, key: str, default: Any = None) -> Any:
        return self.meta().get(key, default)

    def set_meta(self, **values: Any) -> None:
        self._writable()
        with self._transaction() as con:
            for k, v in values.items():
                con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (k, _json(v)))

    # -- decisions ------------------------------------------------------------------------------

    def decisions(self) -> dict[str, Decision]:
        """Every current decision, unit key → decision."""
        rows = self._rows("SELECT unit, choice, value, note, time, author FROM decisions")
        return {r[0]: Decision(r[1], r[2], r[3], r[4], r[5]) for r in rows}

    def decision(self, unit: str) -> Decision | None:
        rows = self._rows(
            "SELECT choice, value, note, time, author FROM decisions WHERE unit = ?", (unit,)
        )
        return Decision(*rows[0]) if rows else None

    def versions_of(self) -> dict[str, dict[str, Any]]:
        """The annotators' versions recorded with each decision (for the decision log)."""
        return {u: json.loads(v) for u, v in self._rows("SELECT unit, versions FROM decisions")}

    def apply(self, change: Decide, versions: dict[str, Any] | None = None) -> None:
        """Apply one change in its own committed transaction.

        Raises :class:`StoreConflictError` (and changes nothing) when the store does not hold
        ``change.old`` for the unit, so a stale undo can never overwrite a newer decision.
        """
        self.apply_many([change], [versions or {}])

    def apply_many(
        self, changes: Sequence[Decide], versions: Sequence[dict[str, Any]] | None = None
    ) -> None:
        """Apply several changes in one committed transaction: all of them or, on a conflict
        (see :meth:`apply`), none."""
        self._writable()
        versions = list(versions) if versions is not None else [{}] * len(changes)
        with self._transaction() as con:
            for change, v in zip(changes, versions):
                self._apply_one(con, change, v)
        self._unsaved += len(changes)
        if self._unsaved >= backup.EVERY:
            self.backup()

    @staticmethod
    def _apply_one(con: sqlite3.Connection, change: Decide, versions: dict[str, Any]) -> None:
        r = con.execute(
            "SELECT choice, value, note, time, author FROM decisions WHERE unit = ?",
            (change.unit,),
        ).fetchone()
        current = None if r is None else Decision(*r)
        if current != change.old:
            raise StoreConflictError(
                f"The decision on unit '{change.unit}' changed meanwhile; the change was not applied."
            )
        if change.new is None:
            con.execute("DELETE FROM decisions WHERE unit = ?", (change.unit,))
        else:
            n = change.new
            con.execute(
                "INSERT OR REPLACE INTO decisions (unit, choice, value, note, time, author, versions) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (change.unit, n.choice, n.value, n.note, n.time, n.author, _json(versions)),
            )
        con.execute(
            "INSERT INTO history (unit, old, new, time) VALUES (?, ?, ?, ?)",
            (
                change.unit,
                None if change.old is None else _json(change.old.to_json()),
                None if change.new is None else _json(change.new.to_json()),
                now_iso(),
            ),
        )

    def history(self) -> pd.DataFrame:
        """Every change ever applied (including undos), oldest first."""
        rows = self._rows("SELECT seq, unit, old, new, time FROM history ORDER BY seq")
        return pd.DataFrame(rows, columns=["seq", "unit", "old", "new", "time"])

    # -- helpers --------------------------------------------------------------------------------

    def _writable(self) -> None:
        if self._con is None:
            raise StoreError(f"{self.path}: the adjudication store is closed.")
        if self.read_only:
            raise StoreReadOnlyError(
                f"{self.path}: the adjudication store is open read-only; decisions cannot be recorded."
            )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, only while this session holds the lock (checked inside it, so
        no other session can take the lock over between the check and the write)."""
        con = self._con
        try:
            con.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise store_error(e, self.path, "the decision was not recorded; try again") from e
        try:
            row = con.execute("SELECT token, user, host FROM locks WHERE id = 1").fetchone()
            if row is None or row[0] != self._token:
                who = f" ({row[1]} on {row[2]})" if row is not None else ""
                raise StoreLockedError(
                    f"{self.path}: another session{who} took this adjudication over after this "
                    "one stopped answering; nothing was recorded. Reopen the store to continue.",
                    {"user": row[1], "host": row[2]} if row is not None else {},
                )
            yield con
            con.execute("COMMIT")
        except sqlite3.Error as e:
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            raise store_error(e, self.path, "the decision was not recorded") from e
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            raise

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        if self._con is None:
            raise StoreError(f"{self.path}: the adjudication store is closed.")
        try:
            yield
        except sqlite3.Error as e:
            raise store_error(e, self.path, "it could not be read") from e

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query; in a store opened despite damage, those read before the
        damage stopped the reading."""
        with self._reading():
            if not self.damaged:
                return self._con.execute(sql, args).fetchall()
            rows: list[tuple[Any, ...]] = []
            with contextlib.suppress(sqlite3.DatabaseError):
                for row in self._con.execute(sql, args):
                    rows.append(tuple(row))
            return rows

    def snapshot(self) -> dict[str, tuple[Any, ...]]:
        """The decisions table as a plain dict (for tests and comparisons)."""
        rows = self._rows("SELECT unit, choice, value, note, time, author, versions FROM decisions")
        return {r[0]: tuple(r[1:]) for r in rows}


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user database in some containers  # noqa: BLE001
        return os.environ.get("USER", "")


def _check_writable(path: Path) -> None:
    if path.exists() and not os.access(path, os.W_OK):
        raise StoreReadOnlyError(
            f"{path}: the adjudication store is read-only; it can be opened read-only to look at the decisions."
        )
    if not path.exists() and not path.parent.is_dir():
        raise StoreError(
            f"{path.parent}: no such folder; the adjudication store cannot be created there."
        )
    if not path.exists() and not os.access(path.parent, os.W_OK):
        raise StoreReadOnlyError(
            f"{path.parent}: the folder is read-only; the adjudication store cannot be created there."
        )


def _migrate(con: sqlite3.Connection, path: Path) -> None:
    con.execute("BEGIN IMMEDIATE")
    try:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{path}: the store was written by a newer version of the application (schema {version}, "
                f"this version knows {SCHEMA_VERSION}); it can be opened read-only."
            )
        for k in range(version, SCHEMA_VERSION):
            MIGRATIONS[k](con)
        if version < SCHEMA_VERSION:
            con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        con.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            con.execute("ROLLBACK")
        raise

"""Creating a store atomically, and the rolling backups kept beside it.

A new store is built under a temporary name in the same folder and linked to its name only
when complete (``link`` fails when the name exists, so two sessions creating the same store at
the same instant end with one store: the second opens the first's, and is told it is locked).
Backups are copies made with SQLite's online backup API
(https://www.sqlite.org/backup.html), a consistent snapshot even while the store is open; each
is written under a temporary name, flushed, then renamed over the oldest of ``KEEP`` rolling
backups ``<store>.backup-1`` (newest) … ``<store>.backup-KEEP``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import sqlite3
from collections.abc import Callable
from pathlib import Path

#: how many backups are kept beside a store
KEEP = 3
#: a backup after this many recorded changes (and one when the store is closed)
EVERY = 50


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every file system lets a folder be synced
        _fsync(folder)


def create(path: Path, init: Callable[[sqlite3.Connection, Path], None]) -> bool:
    """Build a store at ``path`` with ``init`` under a temporary name, then give it its name.

    Returns False, leaving the existing file alone, when another session created ``path``
    first.
    """
    tmp = path.with_name(f".{path.name}.new-{secrets.token_hex(6)}")
    try:
        con = sqlite3.connect(str(tmp), isolation_level=None)
        try:
            init(con, path)
        finally:
            con.close()
        _fsync(tmp)
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError as e:
            # no hard links here (some network and FAT file systems): the name is checked
            # just before, so only a session starting at the same instant can interleave
            if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
                raise
            if path.exists():
                return False
            os.rename(tmp, path)
        _fsync_folder(path.parent)
        return True
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def backup_path(path: Path, k: int) -> Path:
    return path.with_name(f"{path.name}.backup-{k}")


def write_backup(con: sqlite3.Connection, path: Path) -> Path:
    """Copy the open store ``con`` (file ``path``) to ``<path>.backup-1``, the older backups
    moving one place down and the oldest dropped. Raises ``OSError`` or ``sqlite3.Error``."""
    tmp = path.with_name(f".{path.name}.backup-new-{secrets.token_hex(6)}")
    try:
        dst = sqlite3.connect(str(tmp))
        try:
            con.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            dst.execute("DELETE FROM locks")  # a restored backup is held by nobody
            dst.commit()
        finally:
            dst.close()
        _fsync(tmp)
        for k in range(KEEP - 1, 0, -1):
            if backup_path(path, k).exists():
                os.replace(backup_path(path, k), backup_path(path, k + 1))
        os.replace(tmp, backup_path(path, 1))
        _fsync_folder(path.parent)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return backup_path(path, 1)

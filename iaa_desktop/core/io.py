"""Safe file output: atomic writes and CSV cells neutralised against formula injection.

numpy and pandas are imported where a table or an array is written, not with this module: the
study file imports it, and the main window must show without them (they take most of a second).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def neutralise_cell(value: Any) -> Any:
    """Prefix a text cell that a spreadsheet would run as a formula with an apostrophe.

    Numbers are left alone (``-0.25`` is a number, not a formula); only strings are changed.
    See OWASP, "CSV Injection".
    """
    if isinstance(value, str) and value.startswith(_FORMULA_PREFIXES):
        return "'" + value
    return value


def neutralise_frame(df: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    out = df.copy()
    out.columns = [neutralise_cell(str(c)) for c in out.columns]
    for col in out.columns:
        if out[col].dtype == object or pd.api.types.is_string_dtype(out[col].dtype):
            out[col] = out[col].map(neutralise_cell)
    if out.index.name is not None or not isinstance(out.index, pd.RangeIndex):
        out.index = out.index.map(lambda v: neutralise_cell(v) if isinstance(v, str) else v)
    return out


_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """The process's file-mode creation mask, read without changing it where the system allows.

    Linux reports it in ``/proc/self/status``; elsewhere it is read by setting and restoring it
    under a lock (``os.umask`` has no read-only form).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def _final_mode(path: Path) -> int:
    """The mode the finished file gets: the replaced file's own mode, else what ``open`` would
    give a new file (``0o666`` less the umask; ``mkstemp`` creates its file ``0o600``)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        return 0o666 & ~current_umask()


@contextlib.contextmanager
def atomic_open(
    path: str | Path, mode: str = "w", encoding: str | None = "utf-8", newline: str | None = None
) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; on success, rename it over ``path``.

    A crash or an exception leaves the old file untouched and no partial file behind. The file
    gets the permissions a plain ``open`` would give it (the user's umask, ``0644`` by default), or
    keeps those of the file it replaces, so colleagues on a shared drive can read an export.
    """
    path = Path(path)
    if path.exists() and not path.is_file():
        # a device or a pipe (/dev/null, /dev/stdout, a FIFO): renaming over it would replace it
        with (
            open(path, mode, encoding=encoding, newline=newline)
            if "b" not in mode
            else open(path, mode) as f
        ):
            yield f
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if "b" in mode:
            f = os.fdopen(fd, mode)
        else:
            f = os.fdopen(fd, mode, encoding=encoding, newline=newline)
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _final_mode(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text_atomic(path: str | Path, text: str) -> None:
    with atomic_open(path, "w", newline="") as f:
        f.write(text)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    with atomic_open(path, "wb", encoding=None) as f:
        f.write(data)


def write_csv(df: pd.DataFrame, path: str | Path, index: bool = False) -> None:
    """Write one table as UTF-8 CSV, neutralised and atomically."""
    safe = neutralise_frame(df)
    with atomic_open(path, "w", newline="") as f:
        safe.to_csv(f, index=index, lineterminator="\n")


def write_xlsx(df: pd.DataFrame, path: str | Path, sheet: str = "table") -> None:
    """Write one table as an Excel workbook (openpyxl), neutralised and atomically.

    Text cells a spreadsheet would run as formulas get the same apostrophe as in CSV; numbers
    stay numbers.
    """
    import io

    import pandas as pd

    safe = neutralise_frame(df)
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="openpyxl") as writer:
        safe.to_excel(writer, index=False, sheet_name=sheet[:31] or "table")
    write_bytes_atomic(path, buf.getvalue())


def safe_filename(name: str) -> str:
    keep = "".join(c if (c.isalnum() or c in "-_.") else "_" for c in name)
    return keep.strip("._") or "table"


def write_csv_tables(tables: Mapping[str, pd.DataFrame], directory: str | Path) -> list[Path]:
    """Write every table as ``<name>.csv`` in ``directory``; returns the paths written."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, df in tables.items():
        p = directory / f"{safe_filename(name)}.csv"
        write_csv(df, p, index=False)
        written.append(p)
    return written


def _json_default(o: Any) -> Any:
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return None if not np.isfinite(o) else float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, np.bool_):
        return bool(o)
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def _clean_nan(o: Any) -> Any:
    """Replace NaN/inf by ``None`` (JSON has no NaN)."""
    if isinstance(o, float):
        return o if math.isfinite(o) else None
    if type(o).__module__ == "numpy" and hasattr(o, "dtype") and o.dtype.kind == "f":
        return float(o) if math.isfinite(o) else None  # a numpy float scalar
    if isinstance(o, dict):
        return {str(k): _clean_nan(v) for k, v in o.items()}
    if isinstance(o, list | tuple):
        return [_clean_nan(v) for v in o]
    return o


def to_json_text(data: Any) -> str:
    return json.dumps(_clean_nan(data), ensure_ascii=False, indent=2, default=_json_default) + "\n"


def write_json(data: Any, path: str | Path) -> None:
    write_text_atomic(path, to_json_text(data))

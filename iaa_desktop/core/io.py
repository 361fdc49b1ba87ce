"""Safe file output: atomic writes, CSV cells neutralised against formula injection, safe names.

Every CSV and TSV file the application writes (result tables, reports, gold files, decision
logs, feedback, lists of undecided units) goes through :func:`write_csv`, which applies OWASP's
rule ("CSV Injection"):

* a **text** cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets an
  apostrophe in front, so a spreadsheet shows it as text instead of running it as a formula;
* a cell containing a carriage return, a line feed, the delimiter or a double quote is quoted
  (RFC 4180: ``"`` doubled inside), so no cell can start a new row or a new field.

Two deliberate choices:

* **Numbers stay numbers.** A cell that *is* a number (``-1``, ``+2.5``, ``-3e-4``, as a number
  or as text) is written as it is: a spreadsheet reads it as that number, never as a formula,
  and a gold file whose labels are ``-1`` must load back with the label ``-1``. Only text cells
  are neutralised.
* **Neutralised cells load back as written.** The table readers remove the apostrophe again
  (:func:`unneutralise_cell`), so a gold file holding the historical form ``-ere`` reloads as
  ``-ere``. To keep that exact, a text that itself starts with apostrophes before one of the
  characters above gets one more apostrophe on writing.
* **Tab-separated files** are the annotation formats (DURel, PhiTag, token tables) that their
  tools read *without* quoting, where a double quote inside a cell is an ordinary character
  (quoted sentences are common in real exports). There, a cell is quoted when it contains a tab,
  a carriage return or a line feed, or *starts* with a double quote (the only place a
  spreadsheet gives a quote a meaning); a quote elsewhere is left as it is, so such files load
  back unchanged in every tool.

Names of files written after user data (document names, annotator names, table names) go
through :func:`safe_output_name` and :class:`NameAllocator`: no path separators, no ``..``, no
absolute paths, no device names (``CON``, ``NUL`` ...), limited length, collisions made unique;
:func:`path_inside` checks the result stays inside the chosen folder.

numpy and pandas are imported where a table or an array is written, not with this module: the
study file imports it, and the main window must show without them (they take most of a second).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import numbers
import os
import re
import stat
import tempfile
import threading
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from iaa_desktop.core.bidi import isolate_bidi, unisolate_bidi

if TYPE_CHECKING:
    import pandas as pd

_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _is_number_text(s: str) -> bool:
    return len(s) < 64 and _NUMBER.fullmatch(s) is not None


def neutralise_cell(value: Any) -> Any:
    """Prefix a text cell that a spreadsheet would run as a formula with an apostrophe.

    Numbers, and text that is a number (``"-0.25"``), are left alone; see the module docstring.

    >>> [neutralise_cell(v) for v in ("=1+1", "-1", -0.5, "@SUM(A1)", "'=x", "plain")]
    ["'=1+1", '-1', -0.5, "'@SUM(A1)", "''=x", 'plain']
    """
    if not isinstance(value, str) or not value:
        return value
    value = isolate_bidi(value)  # an override in a name ends with its cell
    rest = value.lstrip("'")
    if rest.startswith(_FORMULA_PREFIXES) and not _is_number_text(rest):
        return "'" + value
    return value


def unneutralise_cell(value: Any) -> Any:
    """The inverse of :func:`neutralise_cell` on the cells it changed (for reading files back)."""
    if not isinstance(value, str):
        return value
    value = unisolate_bidi(value)
    if not value.startswith("'"):
        return value
    rest = value.lstrip("'")
    if rest.startswith(_FORMULA_PREFIXES) and not _is_number_text(rest):
        return value[1:]
    return value


def neutralise_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` with every text cell (and column name) neutralised."""
    import pandas as pd

    out = df.copy()
    out.columns = [neutralise_cell(str(c)) for c in out.columns]
    for k in range(out.shape[1]):
        col = out.iloc[:, k]
        if col.dtype == object or pd.api.types.is_string_dtype(col.dtype):
            out.iloc[:, k] = col.map(neutralise_cell)
    if out.index.name is not None or not isinstance(out.index, pd.RangeIndex):
        out.index = out.index.map(neutralise_cell)
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


def _format_scalar(v: Any) -> str:
    """How a value is written in a CSV cell (before neutralising and quoting)."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return str(v)
    if type(v).__name__ == "bool_":  # numpy's boolean (not a numbers.Integral)
        return str(bool(v))
    if isinstance(v, numbers.Integral):  # Python and numpy integers
        return str(int(v))
    if isinstance(v, numbers.Real):  # Python and numpy floats
        f = float(v)
        return "" if math.isnan(f) else repr(f)
    if type(v).__name__ in ("NAType", "NaTType"):  # pandas' missing values
        return ""
    return str(v)


def quote_cell(text: str, sep: str) -> str:
    """``text`` as one CSV cell: quoted when it could end the cell or the row (see module)."""
    if sep == "\t":
        needs = "\t" in text or "\r" in text or "\n" in text or text.startswith('"')
    else:
        needs = sep in text or '"' in text or "\r" in text or "\n" in text
    return '"' + text.replace('"', '""') + '"' if needs else text


def csv_cell(value: Any, sep: str = ",") -> str:
    """One value as a safe CSV cell: formatted, neutralised if it is text, quoted if needed."""
    if isinstance(value, str):
        return quote_cell(neutralise_cell(value), sep)
    return quote_cell(_format_scalar(value), sep)


def _column_cells(col: pd.Series, sep: str) -> list[str]:
    """Every cell of a column, as :func:`csv_cell` writes it (each distinct value once)."""
    import pandas as pd

    plain = pd.api.types.is_bool_dtype(col.dtype) or pd.api.types.is_integer_dtype(col.dtype)
    if plain and not col.isna().any():
        return col.astype(str).tolist()
    try:
        codes, uniques = pd.factorize(col, use_na_sentinel=True)
    except TypeError:  # unhashable cells (lists): one at a time
        return [csv_cell(v, sep) for v in col.tolist()]
    formatted = [csv_cell(v, sep) for v in list(uniques)] + [""]
    return [formatted[c] for c in codes.tolist()]


def csv_text(df: pd.DataFrame, sep: str = ",", index: bool = False) -> str:
    """The whole CSV text of a table under the rules of the module docstring."""
    if index:
        df = df.reset_index()
    header = sep.join(csv_cell(str(c), sep) for c in df.columns)
    columns = [_column_cells(df.iloc[:, k], sep) for k in range(df.shape[1])]
    rows = (sep.join(cells) for cells in zip(*columns)) if columns else iter(())
    return "\n".join([header, *rows]) + "\n"


#: the inputs of the studies being written about, as (device, inode): no output may replace one
_PROTECTED: list[frozenset[tuple[int, int]]] = []
#: files of input folders looked at for :func:`protecting_inputs` (a folder of a study holds far fewer)
MAX_PROTECTED_FILES = 100_000


def input_identities(inputs: Iterable[str | Path]) -> frozenset[tuple[int, int]]:
    """(device, inode) of every input file and of every file in an input folder (links
    followed, as the readers follow them)."""
    ids: set[tuple[int, int]] = set()
    seen = 0
    for p in inputs:
        roots = [str(p)]
        if os.path.isdir(p):
            roots = []
            for folder, _dirs, names in os.walk(p):
                roots.extend(os.path.join(folder, n) for n in names)
                seen += len(names)
                if seen > MAX_PROTECTED_FILES:
                    break
        for f in roots:
            with contextlib.suppress(OSError):
                st = os.stat(f)
                if stat.S_ISREG(st.st_mode):
                    ids.add((st.st_dev, st.st_ino))
    return frozenset(ids)


@contextlib.contextmanager
def protecting_inputs(inputs: Iterable[str | Path]) -> Iterator[None]:
    """While inside, :func:`atomic_open` refuses to write over any of ``inputs`` (a file, or a
    file in an input folder, by any path or link)."""
    ids = input_identities(inputs)
    _PROTECTED.append(ids)
    try:
        yield
    finally:
        _PROTECTED.remove(ids)


def _refuse_replacing_an_input(path: Path) -> None:
    from iaa_desktop.core.errors import IaaError, shown_path

    try:
        st = os.stat(path)
    except OSError:
        return
    key = (st.st_dev, st.st_ino)
    if any(key in ids for ids in _PROTECTED):
        raise IaaError(
            f"{shown_path(path)}: this is one of the study's inputs, and writing there would "
            "replace it; nothing was written there. Choose another file or folder."
        )


_OUTPUT_FOLDERS: list[Path] = []


@contextlib.contextmanager
def writing_into(folder: str | Path) -> Iterator[None]:
    """While inside, :func:`atomic_open` writes only regular files in ``folder`` (a pipe or a
    device found there under an output's name is refused, never opened)."""
    resolved = Path(folder).resolve()
    _OUTPUT_FOLDERS.append(resolved)
    try:
        yield
    finally:
        _OUTPUT_FOLDERS.remove(resolved)


def _in_output_folder(path: Path) -> bool:
    parent = path.parent.resolve()
    return any(parent == f or f in parent.parents for f in _OUTPUT_FOLDERS)


@contextlib.contextmanager
def atomic_open(
    path: str | Path, mode: str = "w", encoding: str | None = "utf-8", newline: str | None = None
) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; on success, rename it over ``path``.

    A crash or an exception leaves the old file untouched and no partial file behind. The file
    gets the permissions a plain ``open`` would give it (the user's umask, ``0644`` by default), or
    keeps those of the file it replaces, so colleagues on a shared drive can read an export.
    Never one of the inputs being protected (:func:`protecting_inputs`); in an output folder
    (:func:`writing_into`) only regular files, never a pipe or a device found there.
    """
    path = Path(path)
    _refuse_replacing_an_input(path)
    if os.path.exists(path) and not path.is_file():
        if _in_output_folder(path):
            # a pipe planted in an output folder would hang the writer until someone reads
            # it, a device would swallow the table: files written into a folder are only
            # ever regular files
            from iaa_desktop.core.errors import IaaError

            raise IaaError(
                f"{path}: is not a regular file (a pipe, a device or a folder); nothing was "
                "written there."
            )
        # a device or a pipe named as the output itself (/dev/stdout, a shell's process
        # substitution): renaming over it would replace it
        with (
            open(path, mode, encoding=encoding, newline=newline)
            if "b" not in mode
            else open(path, mode) as f
        ):
            yield f
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:100]}.", suffix=".tmp", dir=path.parent)
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


def write_csv(df: pd.DataFrame, path: str | Path, index: bool = False, sep: str = ",") -> Path:
    """Write one table as UTF-8 CSV (``sep`` = tab for TSV), neutralised, quoted, atomically."""
    path = Path(path)
    write_text_atomic(path, csv_text(df, sep, index))
    return path


# ------------------------------------------------------------------------------ safe file names

_RESERVED_CHARS = set('<>:"/\\|?*')
_DEVICE = re.compile(r"(?i)(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)")
#: longest file name written (bytes of UTF-8); file systems allow 255
MAX_NAME_BYTES = 120


def safe_output_name(name: str, default: str = "document", max_bytes: int = MAX_NAME_BYTES) -> str:
    """``name`` made into one safe file name (no folder part), as close to it as possible.

    Separators, the characters Windows reserves and control characters become ``_``; leading
    dots (``..``, hidden files) and trailing dots and spaces go; a device name (``CON``,
    ``nul.txt``, ``COM1``) gets a ``_`` in front; a name longer than ``max_bytes`` is cut and
    ends with a short hash of the whole name, so two long names stay apart.

    >>> [safe_output_name(n) for n in ("../../x", "/etc/passwd", "CON", "a:b", "", "Psalm 23")]
    ['_.._x', '_etc_passwd', '_CON', 'a_b', 'document', 'Psalm 23']
    """
    s = unicodedata.normalize("NFC", str(name))
    s = "".join(
        "_" if (c in _RESERVED_CHARS or unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")) else c
        for c in s
    )
    s = s.lstrip(". ").rstrip(". ")
    if not s:
        return default
    stem = s.split(".", 1)[0].rstrip(" ")
    if _DEVICE.fullmatch(stem):
        s = "_" + s
    raw = s.encode("utf-8")
    if len(raw) > max_bytes:
        digest = hashlib.sha1(str(name).encode("utf-8", "surrogatepass")).hexdigest()[:10]
        cut = raw[: max_bytes - 11].decode("utf-8", errors="ignore").rstrip(". ")
        s = f"{cut}-{digest}"
    return s


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
    """A conservative file name (letters, digits, ``-_.``) for table and annotator names."""
    keep = "".join(c if (c.isalnum() or c in "-_.") else "_" for c in str(name))
    return safe_output_name(keep.strip("._") or "table", default="table")


class NameAllocator:
    """Hands out file names that are unique in one folder (case-insensitively, as on Windows
    and macOS): the second ``x.iaa`` becomes ``x-2.iaa``."""

    def __init__(self, reserved: Iterable[str] = ()) -> None:
        self._taken: set[str] = {n.casefold() for n in reserved}

    def take(self, name: str, suffix: str = "") -> str:
        """A unique safe name ``<name><suffix>`` (``suffix`` such as ``.iaa`` kept intact)."""
        base = safe_output_name(name, max_bytes=MAX_NAME_BYTES - len(suffix.encode("utf-8")) - 8)
        cand, k = base + suffix, 2
        while cand.casefold() in self._taken:
            cand, k = f"{base}-{k}{suffix}", k + 1
        self._taken.add(cand.casefold())
        return cand


def path_inside(directory: str | Path, name: str) -> Path:
    """``directory / name``, refusing any ``name`` that would leave ``directory``."""
    from iaa_desktop.core.errors import IaaError

    directory = Path(directory)
    target = directory / name
    base = directory.resolve()
    if Path(name).is_absolute() or target.resolve().parent != base:
        raise IaaError(f"refusing to write '{name}' outside the folder {directory}.")
    if os.path.lexists(target) and not stat.S_ISREG(os.lstat(target).st_mode):
        # a pipe planted in an output folder would hang the writer; a device would swallow it
        raise IaaError(
            f"{target}: is not a regular file (a pipe, a device, a link or a folder); "
            "nothing was written there."
        )
    return target


def refuse_replacing_inputs(
    outputs: Iterable[str | Path | None], inputs: Iterable[str | Path]
) -> None:
    """Raise :class:`~iaa_desktop.core.errors.IaaError` when an output file is one of the input
    files (by any path or link to the same file): a report written there would replace an
    annotator's work. ``None`` and ``-`` (standard output) are no files."""
    from iaa_desktop.core.errors import IaaError, shown_path

    files = [Path(p) for p in inputs if Path(p).is_file()]
    for out in outputs:
        if out is None or str(out) in ("", "-") or not Path(out).is_file():
            continue
        for f in files:
            try:
                same = os.path.samefile(out, f)
            except OSError:
                continue
            if same:
                raise IaaError(
                    f"{shown_path(out)}: this is one of the study's inputs, and writing there "
                    "would replace it; choose another file."
                )


def write_csv_tables(tables: Mapping[str, pd.DataFrame], directory: str | Path) -> list[Path]:
    """Write every table as ``<name>.csv`` in ``directory``; returns the paths written."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    names = NameAllocator()
    written = []
    for name, df in tables.items():
        p = path_inside(directory, names.take(safe_filename(name), ".csv"))
        write_csv(df, p, index=False)
        written.append(p)
    return written


# --------------------------------------------------------------------------------------- JSON


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

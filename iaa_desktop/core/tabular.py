"""Reading CSV, TSV and XLSX files into all-text DataFrames, with errors a user understands.

Every frame returned has string cells ("" for empty) and a ``__line__`` column with the 1-based
line number of each row in the file (the header is line 1), so later checks can name the line.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd

from iaa_desktop.core.errors import ReaderError

TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".xlsx", ".xlsm")
LINE = "__line__"
_DELIMITERS = [",", "\t", ";", "|"]


def is_table_file(path: Path) -> bool:
    return (
        path.is_file() and path.suffix.lower() in TABLE_SUFFIXES and not path.name.startswith(".")
    )


def expand_inputs(inputs: list[Path], suffixes: tuple[str, ...] = TABLE_SUFFIXES) -> list[Path]:
    """Files as given; folders replaced by the table files they hold (sorted by name)."""
    out: list[Path] = []
    for p in inputs:
        p = Path(p)
        if p.is_dir():
            out.extend(
                sorted(
                    f
                    for f in p.iterdir()
                    if f.is_file() and f.suffix.lower() in suffixes and not f.name.startswith(".")
                )
            )
        else:
            out.append(p)
    return out


def _read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ReaderError(path, None, "the file does not exist.") from None
    except IsADirectoryError:
        raise ReaderError(path, None, "this is a folder, not a table file.") from None
    except OSError as e:
        raise ReaderError(path, None, f"cannot be read ({e.strerror}).") from None
    if not raw.strip():
        raise ReaderError(path, None, "the file is empty.")
    if b"\x00" in raw[:8192]:
        raise ReaderError(
            path,
            None,
            "this is not a text file (it contains binary data); expected CSV, TSV or XLSX.",
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        try:
            text = raw.decode("cp1252")
        except UnicodeDecodeError:
            raise ReaderError(
                path, line, "the file is not UTF-8 text (save it as UTF-8)."
            ) from None
    return text


def sniff_delimiter(path: Path, text: str) -> str:
    """Tab for .tsv/.tab, else the delimiter that splits the first lines most consistently."""
    suffix = path.suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "\t"
    lines = [ln for ln in text.splitlines()[:50] if ln.strip()]
    best, best_score = ",", -1.0
    for d in _DELIMITERS:
        counts = [ln.count(d) for ln in lines]
        if not counts or counts[0] == 0:
            continue
        consistent = sum(1 for c in counts if c == counts[0]) / len(counts)
        score = consistent * 10 + min(counts[0], 9) / 10
        if score > best_score:
            best, best_score = d, score
    return best


def read_table(path: Path, sheet: str | int | None = 0) -> pd.DataFrame:
    """Read a CSV/TSV/XLSX file as text cells with a ``__line__`` column.

    Raises :class:`ReaderError` naming the file (and line) for empty, binary or malformed files.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm") or _is_zip(path):
        return _read_excel(path, sheet)
    text = _read_text(path)
    delim = sniff_delimiter(path, text)
    # TSV exports (DURel, PhiTag, the shared data) use no quoting; CSV uses standard quoting
    quoting = csv.QUOTE_NONE if delim == "\t" else csv.QUOTE_MINIMAL
    try:
        df = pd.read_csv(
            io.StringIO(text),
            sep=delim,
            dtype=str,
            keep_default_na=False,
            quoting=quoting,
            skip_blank_lines=False,
            engine="python" if delim not in (",", "\t", ";") else "c",
        )
    except pd.errors.ParserError as e:
        line = _line_from_parser_error(str(e))
        raise ReaderError(path, line, f"the table is malformed ({_short(e)}).") from None
    except pd.errors.EmptyDataError:
        raise ReaderError(path, None, "the file is empty.") from None
    df.columns = [str(c).strip() for c in df.columns]
    if len(df.columns) < 2:
        raise ReaderError(
            path,
            1,
            "only one column was found; is the delimiter right? (expected tab for .tsv, comma, semicolon or tab for .csv)",
        )
    _check_header(path, df)
    df[LINE] = range(2, len(df) + 2)
    # lines that are entirely empty (e.g. a trailing blank line) carry no data
    data_cols = [c for c in df.columns if c != LINE]
    blank = (df[data_cols] == "").all(axis=1)
    return df.loc[~blank].reset_index(drop=True)


def _read_excel(path: Path, sheet: str | int | None) -> pd.DataFrame:
    try:
        df = pd.read_excel(
            path,
            sheet_name=sheet if sheet is not None else 0,
            dtype=str,
            keep_default_na=False,
            engine="openpyxl",
        )
    except FileNotFoundError:
        raise ReaderError(path, None, "the file does not exist.") from None
    except Exception as e:  # openpyxl raises many kinds for damaged files  # noqa: BLE001
        raise ReaderError(
            path, None, f"cannot be read as an Excel workbook ({_short(e)})."
        ) from None
    if df.empty and len(df.columns) == 0:
        raise ReaderError(path, None, "the first sheet is empty.")
    df.columns = [str(c).strip() for c in df.columns]
    if len(df.columns) < 2:
        raise ReaderError(path, 1, "only one column was found in the first sheet.")
    _check_header(path, df)
    df = df.fillna("").astype(str)
    df[LINE] = range(2, len(df) + 2)
    return df


def _check_header(path: Path, df: pd.DataFrame) -> None:
    seen: set[str] = set()
    for c in df.columns:
        if c == "" or c.startswith("Unnamed:"):
            raise ReaderError(path, 1, "the header row has an empty column name.")
        if c in seen:
            raise ReaderError(path, 1, f"the column name '{c}' appears twice in the header.")
        seen.add(c)
    # pandas renames a repeated header 'x' to 'x.1'
    for c in df.columns:
        if "." in c and c.rsplit(".", 1)[1].isdigit() and c.rsplit(".", 1)[0] in seen:
            raise ReaderError(
                path, 1, f"the column name '{c.rsplit('.', 1)[0]}' appears twice in the header."
            )


def _is_zip(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"PK\x03\x04"
    except OSError:
        return False


def _line_from_parser_error(msg: str) -> int | None:
    import re

    m = re.search(r"line (\d+)", msg)
    return int(m.group(1)) if m else None


def _short(e: Exception) -> str:
    s = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return s[:200]

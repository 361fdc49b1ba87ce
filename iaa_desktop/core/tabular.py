"""Reading CSV, TSV and XLSX files into all-text DataFrames, with errors a user understands.

Every frame returned has string cells ("" for empty) and a ``__line__`` column with the 1-based
line number of each row in the file (the header is line 1), so later checks can name the line.

Text is decoded by :mod:`iaa_desktop.core.textio` (UTF-8, UTF-16 with a byte-order mark, or the
encoding the user chose; never a silent fallback). The work is bounded by design: the size is
checked before a file is read, the header is checked by this module before pandas sees it
(pandas renames repeated names in quadratic time, and infers index columns from a first row
with extra fields in time that grows with their square), and workbooks are read in openpyxl's
streaming mode with limits on their unpacked size and their number of cells, so a small
compressed file cannot unpack into gigabytes.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.refusals import what_it_is
from iaa_desktop.core.textio import (
    MAX_TEXT_BYTES,
    check_input_file,
    decode_text,
    encoding_of,
    read_bytes,
    read_head,
)

if TYPE_CHECKING:
    import pandas as pd

TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".xlsx", ".xlsm")
LINE = "__line__"
_DELIMITERS = [",", "\t", ";", "|"]
#: more columns than this is not a table of judgments (and would make every step slow)
MAX_COLUMNS = 10_000
#: longest column name (a name of megabytes is a broken header, and pandas would copy it)
MAX_NAME_CHARS = 1_000
#: a workbook whose parts unpack to more than this is refused before it is parsed
MAX_XLSX_UNPACKED = 512 * 1024 * 1024
#: a workbook sheet with more cells than this is refused before it is parsed (openpyxl reads
#: some 30,000–60,000 cells a second: 200,000 rows of three columns take up to 20 s)
MAX_XLSX_CELLS = 600_000
#: a workbook whose shared-strings part holds more strings than this is refused before it is
#: parsed (openpyxl reads them all into memory when it opens the workbook, some 100,000 a second)
MAX_XLSX_SHARED_STRINGS = 2_000_000

# A cell may be as long as a file may be: the size check above bounds it, not the csv module's
# default of 131,072 characters (which would reject a long passage of text).
csv.field_size_limit(max(csv.field_size_limit(), MAX_TEXT_BYTES))


#: a csv quoting mode (csv.QUOTE_MINIMAL, QUOTE_ALL, QUOTE_NONNUMERIC or QUOTE_NONE)
Quoting = Literal[0, 1, 2, 3]


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


def read_table_text(path: Path, encoding: str | None = None) -> str:
    """The decoded text of a table file; empty and binary files are refused."""
    raw = read_bytes(path)
    if b"\x00" in raw[:8192] and not encoding_of(raw, encoding).lower().startswith("utf-16"):
        raise ReaderError(path, None, "this is not a text file (it contains binary data).")
    text = decode_text(raw, path, encoding)
    _check_text(path, text)
    return text


def _check_text(path: Path, text: str) -> None:
    if not text.strip():
        raise ReaderError(path, None, "the file is empty.")
    head = text[:8192]
    if "\x00" in head:
        raise ReaderError(
            path,
            head[: head.index("\x00")].count("\n") + 1,
            "this is not a text file (it contains binary data); expected CSV, TSV or XLSX.",
        )


def sniff_delimiter(path: Path, text: str) -> str:
    """Tab for .tsv/.tab, else the delimiter that splits the first lines most consistently."""
    suffix = path.suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "\t"
    lines = [ln for ln in text[:65536].split("\n")[:50] if ln.strip()]
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


def _check_bare_cr(path: Path, text: str, delim: str, quoting: Quoting) -> None:
    """A carriage return alone inside a line of a file of LF line ends, outside quotes: pandas
    would end the row there and read two rows (a silent misreading); the ``csv`` module refuses
    it, with its line."""
    if "\n" not in text or re.search(r"\r(?![\r\n])", text) is None:
        return
    reader = csv.reader(io.StringIO(text), delimiter=delim, quoting=quoting)
    try:
        for _ in reader:
            pass
    except csv.Error:
        raise ReaderError(
            path,
            reader.line_num or 1,
            "a carriage return alone splits this line (not a line end); remove it or quote the "
            "cell.",
        ) from None


def first_records(path: Path, text: str, delim: str, quoting: Quoting) -> list[list[str]]:
    """The header and the first data record, parsed as pandas will parse them."""
    reader = csv.reader(io.StringIO(text[: 4 * 1024 * 1024]), delimiter=delim, quoting=quoting)
    out: list[list[str]] = []
    try:
        for rec in reader:
            out.append(rec)
            if len(out) == 2:
                break
    except csv.Error as e:
        raise ReaderError(path, reader.line_num or 1, f"the table is malformed ({e}).") from None
    return out


def check_header(path: Path, names: list[str], line: int = 1) -> list[str]:
    """The stripped header names; a :class:`ReaderError` for empty or repeated ones.

    Linear in the number of names (one set), so a header of 100,000 repeated names is refused at
    once instead of being renamed ``x.1``, ``x.2`` ... by pandas.
    """
    if len(names) > MAX_COLUMNS:
        raise ReaderError(
            path, line, f"the header has {len(names):,} columns, more than {MAX_COLUMNS:,}."
        )
    out = [str(c).strip() for c in names]
    seen: set[str] = set()
    for k, c in enumerate(out, 1):
        if c == "":
            raise ReaderError(path, line, f"the header row has an empty column name (column {k}).")
        if len(c) > MAX_NAME_CHARS:
            raise ReaderError(
                path,
                line,
                f"column {k}'s name has {len(c):,} characters, more than a column name may "
                f"have ({MAX_NAME_CHARS:,}); is this line a header?",
            )
        if c in seen:
            raise ReaderError(
                path, line, f"the column name '{_clip(c)}' appears twice in the header."
            )
        if c == LINE:
            raise ReaderError(
                path,
                line,
                f"column {k} is named '{LINE}', the name this application gives the line "
                "numbers it keeps; rename that column.",
            )
        seen.add(c)
    return out


#: the key of a text table's delimiter in the ``attrs`` of the frame :func:`read_table` returns
DELIMITER = "delimiter"


def read_table(
    path: Path, sheet: str | int | None = 0, encoding: str | None = None
) -> pd.DataFrame:
    """Read a CSV/TSV/XLSX file as text cells with a ``__line__`` column.

    Raises :class:`ReaderError` naming the file (and line) for empty, binary, oversized or
    malformed files.
    """
    path = Path(path)
    check_input_file(path)
    refusal = what_it_is(path)  # ELAN, Praat, an INCEpTION export: say so, not "one column"
    if refusal:
        raise ReaderError(path, None, refusal)
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm") or _is_zip(path):
        return _read_excel(path, sheet)
    raw = read_bytes(path)
    if b"\x00" in raw[:8192] and not encoding_of(raw, encoding).lower().startswith("utf-16"):
        raise ReaderError(
            path,
            raw[: raw.index(b"\x00")].count(b"\n") + 1,
            "this is not a text file (it contains binary data); expected CSV, TSV or XLSX.",
        )
    text = decode_text(raw, path, encoding)
    _check_text(path, text)
    delim = sniff_delimiter(path, text)
    # TSV exports (DURel, PhiTag, the shared data) use no quoting; CSV uses standard quoting
    quoting: Quoting = csv.QUOTE_NONE if delim == "\t" else csv.QUOTE_MINIMAL
    first = first_records(path, text, delim, quoting)
    if not first:
        raise ReaderError(path, None, "the file is empty.")
    _check_bare_cr(path, text, delim, quoting)
    if len(first[0]) < 2:
        raise ReaderError(
            path,
            1,
            "only one column was found; is the delimiter right? (expected tab for .tsv, comma, "
            "semicolon or tab for .csv)",
        )
    names = check_header(path, first[0])
    if len(first) > 1 and len(first[1]) > len(names):
        raise ReaderError(
            path,
            2,
            f"the row has {len(first[1]):,} fields, the header {len(names)}; is the delimiter "
            "right, or does the row hold a stray delimiter?",
        )
    del text  # pandas decodes the bytes itself (the same codec, already known to succeed)
    df = parse_csv(path, raw, (delim, quoting), names, encoding)
    df = df.fillna("")
    df[LINE] = range(2, len(df) + 2)
    # lines that are entirely empty (e.g. a trailing blank line) carry no data
    blank = (df.iloc[:, : len(names)] == "").all(axis=1)  # no list of names: NumPy would
    # make it one fixed-width string array as wide as the longest name
    out = restore_neutralised(df.loc[~blank].reset_index(drop=True), names)
    out.attrs[DELIMITER] = delim  # a writer of the same table (the gold) uses it again
    return out


def parse_csv(
    path: Path,
    raw: bytes,
    dialect: tuple[str, Quoting],
    names: list[str],
    encoding: str | None,
) -> pd.DataFrame:
    """The cells of a delimited file as pandas reads them, every failure a ReaderError."""
    import pandas as pd

    delim, quoting = dialect
    try:
        with warnings.catch_warnings():
            # pandas' python engine drops the extra fields of a long row with only a warning
            warnings.simplefilter("error", pd.errors.ParserWarning)
            df = pd.read_csv(
                io.BytesIO(raw),
                encoding=encoding_of(raw, encoding),
                sep=delim,
                header=0,
                names=names,
                index_col=False,
                dtype=str,
                keep_default_na=False,
                quoting=quoting,
                skip_blank_lines=False,
                engine="python" if delim not in (",", "\t", ";") else "c",
            )
    except pd.errors.ParserWarning:
        text = decode_text(raw, path, encoding)
        line = _first_long_row(text, delim, quoting, len(names))
        raise ReaderError(
            path, line, f"this row has more fields than the header's {len(names)}."
        ) from None
    except pd.errors.ParserError as e:
        line = _line_from_parser_error(str(e))
        raise ReaderError(path, line, f"the table is malformed ({_short(e)}).") from None
    except pd.errors.EmptyDataError:
        raise ReaderError(path, None, "the file is empty.") from None
    except (csv.Error, ValueError, IndexError) as e:  # the python engine on odd input
        raise ReaderError(path, None, f"the table is malformed ({_short(e)}).") from None
    return df


def _first_long_row(text: str, delim: str, quoting: Quoting, n_fields: int) -> int | None:
    """The line of the first row with more than ``n_fields`` fields (None when none is found)."""
    reader = csv.reader(io.StringIO(text), delimiter=delim, quoting=quoting)
    try:
        for row in reader:
            if len(row) > n_fields:
                return reader.line_num
    except csv.Error:
        return None
    return None


def restore_neutralised(df: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """Cells this application neutralised against formula injection, read back as written.

    The CSV writer (:func:`iaa_desktop.core.io.neutralise_cell`) prefixes a text cell that starts
    with ``=``, ``+``, ``-``, ``@``, tab or carriage return with an apostrophe; reading such a
    gold file back must give the labels that were written, not new ones.
    """
    from iaa_desktop.core.io import unneutralise_cell

    for c in columns:
        col = df[c]
        marked = col.str.startswith(("'", "\u2068"), na=False)  # and isolated bidi controls
        if marked.any():
            df.loc[marked, c] = col[marked].map(unneutralise_cell)
    return df


def _excel_rows(path: Path, sheet: str | int | None) -> list[tuple[int, tuple[Any, ...]]]:
    """``(row number, values)`` of a sheet, read in streaming mode within the limits."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            unpacked = sum(i.file_size for i in z.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as e:
        raise ReaderError(
            path, None, f"cannot be read as an Excel workbook ({_short(e)})."
        ) from None
    if unpacked > MAX_XLSX_UNPACKED:
        raise ReaderError(
            path,
            None,
            f"the workbook unpacks to {unpacked / 2**20:,.0f} MiB, more than the "
            f"{MAX_XLSX_UNPACKED / 2**20:,.0f} MiB a workbook may hold; save the sheet as CSV.",
        )
    _check_xlsx_parts(path)
    from openpyxl import load_workbook

    from iaa_desktop.core.input_warnings import reported_as

    try:
        # openpyxl warns about what it leaves out (no default style, unsupported extensions)
        with reported_as(path, "openpyxl"):
            wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises many kinds for damaged files  # noqa: BLE001
        raise ReaderError(
            path, None, f"cannot be read as an Excel workbook ({_short(e)})."
        ) from None
    try:
        try:
            ws = wb.worksheets[sheet or 0] if not isinstance(sheet, str) else wb[sheet]
        except (IndexError, KeyError):
            raise ReaderError(path, None, f"the workbook has no sheet {sheet!r}.") from None
        ws.reset_dimensions()  # a declared size may lie; read the rows that are there
        rows: list[tuple[int, tuple[Any, ...]]] = []
        n_cells = 0
        with reported_as(path, "openpyxl"):  # e.g. data validation it does not read
            for number, values in enumerate(ws.iter_rows(values_only=True), 1):
                n_cells += max(1, len(values))
                if n_cells > MAX_XLSX_CELLS:
                    raise ReaderError(
                        path,
                        number,
                        f"the sheet has more than {MAX_XLSX_CELLS:,} cells; save it as CSV.",
                    )
                rows.append((number, values))
    except ReaderError:
        raise
    except Exception as e:  # damaged XML inside the workbook  # noqa: BLE001
        raise ReaderError(
            path, None, f"cannot be read as an Excel workbook ({_short(e)})."
        ) from None
    finally:
        wb.close()
    return rows


#: an element of a SpreadsheetML part, with or without a namespace prefix (``<si>``, ``<x:c r=…>``)
_SHARED_STRING = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?si[\s/>]")
_CELL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s/>]")


def _count_elements(z: Any, name: str, pattern: re.Pattern[bytes], limit: int) -> int:
    """How many ``pattern`` elements the part ``name`` holds, counted while it is unpacked in
    pieces; counting stops past ``limit``."""
    n, tail = 0, b""
    with z.open(name) as f:
        while chunk := f.read(1 << 20):
            data = tail + chunk
            # up to the last "<": an element cut by the end of the piece is counted with the next
            cut = data.rfind(b"<")
            if cut < 0 or len(data) - cut > 256:
                cut = len(data)
            n += len(pattern.findall(data, 0, cut))
            tail = data[cut:]
            if n > limit:
                return n
    return n + len(pattern.findall(tail))


def _check_xlsx_parts(path: Path) -> None:
    """Refuse, before openpyxl parses it, a workbook whose shared strings or sheet cells exceed
    :data:`MAX_XLSX_SHARED_STRINGS` / :data:`MAX_XLSX_CELLS` (the parts are counted unpacked,
    whatever counts they declare), or one of whose parts declares XML entities."""
    import zipfile
    import zlib

    from iaa_desktop.core.xml_guard import check_xml

    try:
        with zipfile.ZipFile(path) as z:
            for info in z.infolist():
                low = info.filename.lower()
                if low.endswith((".xml", ".rels")):  # entities: refused, never expanded
                    with z.open(info.filename) as f:
                        check_xml(f.read(1 << 16), f"{path}!{info.filename}")
                if low.endswith("sharedstrings.xml"):
                    what, pattern, limit = "shared strings", _SHARED_STRING, MAX_XLSX_SHARED_STRINGS
                elif "worksheets/" in low and low.endswith(".xml"):
                    what, pattern, limit = "cells in one sheet", _CELL, MAX_XLSX_CELLS
                else:
                    continue
                n = _count_elements(z, info.filename, pattern, limit)
                if n > limit:
                    raise ReaderError(
                        path,
                        None,
                        f"the workbook holds more than {limit:,} {what} ({info.filename}), "
                        "more than this application reads from a workbook; save the sheet as "
                        "CSV.",
                    )
    except (
        zipfile.BadZipFile,
        zlib.error,
        OSError,
        ValueError,
        EOFError,
        NotImplementedError,
        RuntimeError,
    ) as e:
        raise ReaderError(
            path, None, f"cannot be read as an Excel workbook ({_short(e)})."
        ) from None


def _cell_text(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))  # 3.0 typed into a spreadsheet is the label 3
    return str(v)


def _read_excel(path: Path, sheet: str | int | None) -> pd.DataFrame:
    import pandas as pd

    rows = _excel_rows(path, sheet)
    while rows and all(_cell_text(v).strip() == "" for v in rows[0][1]):
        rows.pop(0)  # leading empty rows: the header is the first row with content
    if not rows:
        raise ReaderError(path, None, "the first sheet is empty.")
    head_line, head = rows[0]
    header = [_cell_text(v) for v in head]
    while header and header[-1].strip() == "":
        header.pop()  # formatted but empty cells after the last column
    if len(header) < 2:
        raise ReaderError(path, head_line, "only one column was found in the first sheet.")
    names = check_header(path, header, head_line)
    width = len(names)
    data: list[list[str]] = []
    lines: list[int] = []
    for number, values in rows[1:]:
        cells = [_cell_text(v) for v in values]
        if any(c.strip() for c in cells[width:]):
            raise ReaderError(
                path, number, f"the row has cells beyond the {width} columns of the header."
            )
        cells = (cells + [""] * width)[:width]
        if any(cells):
            data.append(cells)
            lines.append(number)
    df = pd.DataFrame(data, columns=names, dtype=object)
    df[LINE] = lines
    return restore_neutralised(df, names)


def _is_zip(path: Path) -> bool:
    from iaa_desktop.core.textio import is_zip

    return is_zip(path)


def _line_from_parser_error(msg: str) -> int | None:
    m = re.search(r"line (\d{1,12})", msg)
    if m:
        return int(m.group(1))
    m = re.search(r"row (\d{1,12})", msg)  # "EOF inside string starting at row 1" (0 = header)
    return int(m.group(1)) + 1 if m else None


def _clip(s: str, n: int = 80) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _short(e: Exception) -> str:
    s = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return s[:200]


def header_line(path: Path) -> str:
    """The first line of a text file, lower-cased ("" when unreadable); reads no more than 64 KiB
    and nothing from a device or pipe."""
    return read_head(path).split("\n", 1)[0].lower()

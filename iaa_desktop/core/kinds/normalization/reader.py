"""Read spelling-normalization annotations (one token file per annotator, or one wide table).

Token files (TSV or CSV, one header row): ``text_id``, ``token_id``, ``orig`` (historical
form), ``norm`` (normalization) and optionally ``mod`` (modernized form) and ``mod_type``
(``INFL``/``SEM``/``EXT``). A wide table has ``text_id``, ``token_id``, ``orig`` and one
normalization column per annotator (``norm_<name>`` or just ``<name>``), optionally
``mod_<name>`` and ``mod_type_<name>``.

Tokens are matched across annotators by (text id, token id). A token whose historical form
differs between files, that is missing in a file or that appears twice in a file is reported
(file and line) and left out; a token whose normalization is empty is a missing value (an
undecided token of a gold file): noted as a warning and left out of the comparison. Every other
token is kept.
All strings are NFC-normalised so that precomposed and decomposed spellings compare equal.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import IaaError, ReaderError

if TYPE_CHECKING:
    from iaa_desktop.core.tabular import Quoting

#: notes about tokens without a normalization, per study; the rest are counted in one message
_MAX_EMPTY_NOTES = 20

__all__ = ["NormalizationData", "read_normalization", "looks_like_normalization", "expand_inputs"]

ALIASES = {
    "text_id": ("text_id", "text", "textid", "doc", "document", "doc_id"),
    "token_id": ("token_id", "token", "tokenid", "tok_id", "position", "pos", "id"),
    "orig": ("orig", "historical", "hist", "original", "form", "historical_form", "word"),
    "norm": ("norm", "normalization", "normalisation", "normalized", "normalised"),
    "mod": ("mod", "modernization", "modernisation", "modern", "modernized"),
    "mod_type": ("mod_type", "modtype", "type", "modernization_type", "modernisation_type"),
}
SUFFIXES = (".tsv", ".csv", ".txt", ".tab")
#: the longest cell of a token table (a historical word form and its normalization are short)
MAX_FORM_CHARS = 200


@dataclass(frozen=True)
class NormalizationData:
    """Aligned token table of a normalization study.

    Attributes
    ----------
    annotators : annotator names (file stems, or the wide table's column names)
    text_ids, token_ids : per token (length N)
    orig : historical forms (length N)
    norm : normalizations, object array N × c (``None`` never occurs: such tokens are left out)
    mod, mod_type : modernized forms and their types, object arrays N × c (``""`` = none)
    sources : per annotator, the file it was read from
    """

    annotators: tuple[str, ...]
    text_ids: tuple[str, ...]
    token_ids: tuple[str, ...]
    orig: tuple[str, ...]
    norm: NDArray[Any]
    mod: NDArray[Any]
    mod_type: NDArray[Any]
    sources: tuple[str, ...] = ()
    errors: list[ReaderError] = field(default_factory=list)
    warnings: list[ReaderError] = field(default_factory=list)

    @property
    def n_tokens(self) -> int:
        return len(self.orig)


def _nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s.strip())


def expand_inputs(inputs: Sequence[Path]) -> list[Path]:
    """Files given, with folders replaced by their table files (sorted)."""
    out: list[Path] = []
    for p in inputs:
        p = Path(p)
        if p.is_dir():
            out.extend(
                sorted(q for q in p.iterdir() if q.is_file() and q.suffix.lower() in SUFFIXES)
            )
        else:
            out.append(p)
    return out


def line_delimiter(first_line: str) -> str:
    for d in ("\t", ",", ";"):
        if d in first_line:
            return d
    return "\t"


def _read_table(path: Path) -> tuple[list[str], pd.DataFrame, NDArray[Any], list[ReaderError]]:
    """Header (lower-cased), the rows as strings (stripped, NFC), their 1-based line numbers.

    The fast path is pandas' C parser; a file with ragged rows is re-read with the ``csv``
    module so that each bad row is reported with its line and the rest is kept.
    """
    import pandas as pd

    from iaa_desktop.core.tabular import (
        check_header,
        first_records,
        parse_csv,
        restore_neutralised,
    )
    from iaa_desktop.core.textio import decode_text, read_bytes

    raw = read_bytes(path)
    text = decode_text(raw, path)
    first_line = text.split("\n", 1)[0]
    if not first_line.strip():
        raise ReaderError(
            path, 1, "the first line must be a header (e.g. text_id, token_id, orig, norm)."
        )
    delim = line_delimiter(first_line)
    quoting: Quoting = csv.QUOTE_NONE if delim == "\t" else csv.QUOTE_MINIMAL
    first = first_records(path, text, delim, quoting)
    header = check_header(path, [h.strip().lower() for h in first[0]])
    errors: list[ReaderError] = []
    df = None
    if len(first) < 2 or len(first[1]) <= len(header):  # else pandas would guess index columns
        try:
            df = parse_csv(path, raw, (delim, quoting), header, None)
            lines = np.arange(len(df)) + 2
        except ReaderError:
            df = None
    if df is None:
        df, lines = _read_rows(path, text, delim, quoting, header, errors)
    df = restore_neutralised(df.fillna(""), header)
    for col in df.columns:
        codes, uniq = pd.factorize(df[col].to_numpy(dtype=object))
        clean = np.array([_nfc(str(u)) for u in uniq], dtype=object)
        df[col] = clean[codes] if len(uniq) else df[col]
    nonblank = (
        (df.to_numpy(dtype=object) != "").any(axis=1)
        if len(df.columns)
        else np.zeros(len(df), bool)
    )
    return list(df.columns), df[nonblank].reset_index(drop=True), lines[nonblank], errors


def _read_rows(
    path: Path,
    text: str,
    delim: str,
    quoting: Quoting,
    header: list[str],
    errors: list[ReaderError],
) -> tuple[pd.DataFrame, NDArray[Any]]:
    """Row by row with the ``csv`` module: a row with the wrong number of fields is reported and
    left out, the others are kept."""
    import pandas as pd

    reader = csv.reader(io.StringIO(text), delimiter=delim, quoting=quoting)
    rows, kept = [], []
    try:
        next(reader)  # the header
        line = reader.line_num + 1
        for r in reader:
            if any(x.strip() for x in r):
                if len(r) != len(header):
                    errors.append(
                        ReaderError(
                            path,
                            line,
                            f"the row has {len(r)} fields, the header {len(header)}; it is left out.",
                        )
                    )
                else:
                    rows.append(r)
                    kept.append(line)
            line = reader.line_num + 1
    except csv.Error as e:
        errors.append(ReaderError(path, line, f"the table is malformed from here on ({e})."))
    return pd.DataFrame(rows, columns=header, dtype=object), np.asarray(kept, dtype=np.int64)


def _find(header: list[str], key: str) -> int | None:
    for alias in ALIASES[key]:
        if alias in header:
            return header.index(alias)
    return None


def header_kind(header: list[str]) -> str | None:
    """'token' for a per-annotator file, 'wide' for a wide table, None when neither."""
    ids = [_find(header, k) for k in ("text_id", "token_id", "orig")]
    if any(i is None for i in ids):
        return None
    if _find(header, "norm") is not None:
        return "token"
    return "wide" if len(header) > 3 else None


def looks_like_normalization(path: Path) -> float:
    """Confidence (0..1) from the header row that ``path`` is a normalization file (for ``sniff``).

    A token file (with a normalization column) or a wide table whose annotator columns are
    named ``norm_<name>`` is almost surely one; a wide table with other column names may just as
    well be a generic judgment table, so it gets a low score (``--kind normalization`` settles it).
    """
    from iaa_desktop.core.textio import read_head

    first = read_head(path).split("\n", 1)[0]
    delim = line_delimiter(first)
    header = [h.strip().lower() for h in first.rstrip("\r\n").split(delim)]
    kind = header_kind(header)
    if kind == "token":
        return 0.9
    if kind == "wide":
        return 0.9 if sum(h.startswith("norm_") for h in header) >= 2 else 0.25
    return 0.0


@dataclass
class _Annot:
    """One annotator's column of tokens, as read (before matching)."""

    name: str
    path: Path
    keys: NDArray[Any]  # "text\x1ftoken" per row
    text: NDArray[Any]
    token: NDArray[Any]
    orig: NDArray[Any]
    norm: NDArray[Any]
    mod: NDArray[Any]
    mod_type: NDArray[Any]
    lines: NDArray[Any]


_SEP = "\x1f"


def _col(df: pd.DataFrame, i: int | None) -> NDArray[Any]:
    if i is None:
        return np.full(len(df), "", dtype=object)
    return np.asarray(df.iloc[:, i].to_numpy(dtype=object))


def _dedupe(a: _Annot, errors: list[ReaderError]) -> _Annot:
    """Drop the second and later rows of a repeated (text, token) key, reporting each."""
    import pandas as pd

    dup = pd.Series(a.keys).duplicated().to_numpy()
    if not dup.any():
        return a
    first_line = dict(zip(a.keys[~dup][::-1], a.lines[~dup][::-1]))
    for k in np.flatnonzero(dup):
        t, tok = a.keys[k].split(_SEP, 1)
        errors.append(
            ReaderError(
                a.path,
                int(a.lines[k]),
                f"token {t}/{tok} occurs twice (first on line {first_line.get(a.keys[k])}); "
                "the second row is ignored.",
            )
        )
    keep = ~dup
    return _Annot(
        a.name,
        a.path,
        a.keys[keep],
        a.text[keep],
        a.token[keep],
        a.orig[keep],
        a.norm[keep],
        a.mod[keep],
        a.mod_type[keep],
        a.lines[keep],
    )


def _make(
    name: str,
    path: Path,
    df: pd.DataFrame,
    lines: NDArray[Any],
    ix_text: int | None,
    ix_tok: int | None,
    ix_orig: int | None,
    ix_norm: int | None,
    ix_mod: int | None,
    ix_type: int | None,
) -> _Annot:
    text, token = _col(df, ix_text), _col(df, ix_tok)
    keys = (pd_str(text) + _SEP + pd_str(token)).to_numpy(dtype=object)
    mtype = (
        np.array([t.upper() for t in _col(df, ix_type)], dtype=object)
        if ix_type is not None
        else _col(df, None)
    )
    return _Annot(
        name,
        path,
        keys,
        text,
        token,
        _col(df, ix_orig),
        _col(df, ix_norm),
        _col(df, ix_mod),
        mtype,
        np.asarray(lines),
    )


def pd_str(a: NDArray[Any]) -> pd.Series:
    import pandas as pd

    return pd.Series(a, dtype=object)


def _drop_long_cells(
    path: Path, df: pd.DataFrame, lines: NDArray[Any], errors: list[ReaderError]
) -> tuple[pd.DataFrame, NDArray[Any]]:
    """Rows with a cell longer than :data:`MAX_FORM_CHARS` are reported and left out: no word
    form is that long, and aligning two forms costs the product of their lengths."""
    if not len(df):
        return df, lines
    lengths = np.column_stack([df[c].str.len().to_numpy(dtype=np.int64) for c in df.columns]).max(
        axis=1
    )
    bad = np.flatnonzero(lengths > MAX_FORM_CHARS)
    for r in bad[:20]:
        errors.append(
            ReaderError(
                path,
                int(lines[r]),
                f"a cell of {int(lengths[r]):,} characters, more than the {MAX_FORM_CHARS} a "
                "token's form may have; the row is left out.",
            )
        )
    if len(bad) > 20:
        errors.append(ReaderError(path, None, f"{len(bad) - 20} more rows with too long cells."))
    keep = lengths <= MAX_FORM_CHARS
    return df[keep].reset_index(drop=True), lines[keep]


def _read_file(path: Path, errors: list[ReaderError]) -> list[_Annot]:
    header, df, lines, errs = _read_table(path)
    errors.extend(errs)
    df, lines = _drop_long_cells(path, df, lines, errors)
    kind = header_kind(header)
    if kind is None:
        raise ReaderError(
            path,
            1,
            "the header needs text id, token id, historical form and a normalization column "
            "(e.g. text_id, token_id, orig, norm).",
        )
    ix = {k: _find(header, k) for k in ALIASES}
    if kind == "token":
        return [
            _make(
                path.stem,
                path,
                df,
                lines,
                ix["text_id"],
                ix["token_id"],
                ix["orig"],
                ix["norm"],
                ix["mod"],
                ix["mod_type"],
            )
        ]
    base = {ix["text_id"], ix["token_id"], ix["orig"]}
    norm_cols: dict[str, int] = {}
    mod_cols: dict[str, int] = {}
    type_cols: dict[str, int] = {}
    for i, h in enumerate(header):
        if i in base or not h or h.startswith("unnamed:"):
            continue
        if h.startswith("mod_type_"):
            type_cols[h[len("mod_type_") :]] = i
        elif h.startswith("mod_"):
            mod_cols[h[len("mod_") :]] = i
        elif h.startswith("norm_"):
            norm_cols[h[len("norm_") :]] = i
        else:
            norm_cols[h] = i
    if len(norm_cols) < 1:
        raise ReaderError(
            path, 1, "no normalization column after text id, token id and historical form."
        )
    return [
        _make(
            name,
            path,
            df,
            lines,
            ix["text_id"],
            ix["token_id"],
            ix["orig"],
            i,
            mod_cols.get(name),
            type_cols.get(name),
        )
        for name, i in norm_cols.items()
    ]


def _missing_normalizations(
    norm: NDArray[Any], orig: NDArray[Any], names: list[str]
) -> Iterator[tuple[int, str]]:
    """``(row, message)`` for tokens without a normalization (row ``-1``: the count of the rest).

    An empty normalization is a missing value (an undecided token of a gold file, a token the
    annotator skipped): noted, and the token left out of the comparison of all annotators.
    """
    rows = np.flatnonzero((norm == "").any(axis=1))
    for r in rows[:_MAX_EMPTY_NOTES]:
        yield (
            int(r),
            f"{names[r]} ('{orig[r, 0]}'): no normalization (a missing value); the token is not "
            "compared.",
        )
    if len(rows) > _MAX_EMPTY_NOTES:
        yield (
            -1,
            f"{len(rows) - _MAX_EMPTY_NOTES} more tokens without a normalization (missing values) "
            "are not compared.",
        )


def read_normalization(inputs: Sequence[Path]) -> NormalizationData:
    """Read and match the annotators' tokens; problems go to ``errors``, bad tokens are left out.

    Raises
    ------
    IaaError
        When fewer than two annotators or no common token remain.
    """
    import pandas as pd

    errors: list[ReaderError] = []
    warnings: list[ReaderError] = []
    annots = _read_annotators(inputs, errors)
    # token order: the first annotator's order, then tokens only others have
    all_keys = pd.unique(np.concatenate([a.keys for a in annots]))
    pos = np.stack([pd.Index(a.keys).get_indexer(all_keys) for a in annots], axis=1)
    bad = _missing_tokens(annots, all_keys, pos, errors)
    full = np.flatnonzero(~bad)
    bad[full[_unmatched_tokens(annots, all_keys, pos, full, errors, warnings)]] = True
    good = np.flatnonzero(~bad)
    if not len(good):
        raise IaaError("No token is annotated by all annotators with the same historical form.")
    return _matched_data(annots, all_keys, pos, good, errors, warnings)


def _read_annotators(inputs: Sequence[Path], errors: list[ReaderError]) -> list[_Annot]:
    """Every annotator of every input file with a token read, uniquely named; at least two."""
    annots: list[_Annot] = []
    for path in expand_inputs(inputs):
        try:
            found = [_dedupe(a, errors) for a in _read_file(Path(path), errors)]
        except ReaderError as e:
            errors.append(e)
            continue
        for a in found:
            if len(a.keys):
                annots.append(a)
            else:
                errors.append(ReaderError(a.path, None, f"no tokens were read for {a.name}."))
    # annotator names must be unique (two folders may each hold annotator_1.tsv)
    seen: dict[str, int] = {}
    for a in annots:
        if a.name in seen:
            seen[a.name] += 1
            a.name = f"{a.name} ({seen[a.name]})"
        else:
            seen[a.name] = 1
    if len(annots) < 2:
        raise IaaError(
            "A normalization study needs at least two annotators: give one token file per "
            "annotator or one table with a normalization column per annotator."
            + "".join(f"\n{e}" for e in errors[:10])
        )
    return annots


def _where(all_keys: NDArray[Any], k: int) -> str:
    t, tok = all_keys[k].split(_SEP, 1)
    return f"token {t}/{tok}"


def _missing_tokens(
    annots: list[_Annot], all_keys: NDArray[Any], pos: NDArray[Any], errors: list[ReaderError]
) -> NDArray[Any]:
    """Tokens some annotator lacks (each reported once, at its first annotator's line)."""
    missing: NDArray[Any] = (pos < 0).any(axis=1)
    for k in np.flatnonzero(missing):
        x = int(np.flatnonzero(pos[k] >= 0)[0])
        ref = annots[x]
        names = ", ".join(
            annots[y].path.name if annots[y].path != ref.path else annots[y].name
            for y in np.flatnonzero(pos[k] < 0)
        )
        errors.append(
            ReaderError(
                ref.path,
                int(ref.lines[pos[k, x]]),
                f"{_where(all_keys, k)} ('{ref.orig[pos[k, x]]}') is missing in {names}; the token is left out.",
            )
        )
    return missing


def _unmatched_tokens(
    annots: list[_Annot],
    all_keys: NDArray[Any],
    pos: NDArray[Any],
    full: NDArray[Any],
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> NDArray[Any]:
    """Among the tokens everybody has (``full``), those left out: historical forms that differ
    or are empty, normalizations missing."""
    c = len(annots)
    p = pos[full]
    orig = (
        np.stack([annots[x].orig[p[:, x]] for x in range(c)], axis=1)
        if len(full)
        else np.empty((0, c), object)
    )
    norm = (
        np.stack([annots[x].norm[p[:, x]] for x in range(c)], axis=1)
        if len(full)
        else np.empty((0, c), object)
    )
    bad = np.zeros(len(full), dtype=bool)
    for r in np.flatnonzero((orig != orig[:, :1]).any(axis=1)):
        ref = annots[0]
        for x in np.flatnonzero(orig[r] != orig[r, 0]):
            a = annots[x]
            errors.append(
                ReaderError(
                    a.path,
                    int(a.lines[p[r, x]]),
                    f"{_where(all_keys, full[r])}: historical form '{orig[r, x]}' differs from "
                    f"'{orig[r, 0]}' in {ref.path.name} line {int(ref.lines[p[r, 0]])}; the token "
                    "is left out.",
                )
            )
        bad[r] = True
    for r in np.flatnonzero(orig[:, 0] == ""):
        errors.append(
            ReaderError(
                annots[0].path,
                int(annots[0].lines[p[r, 0]]),
                f"{_where(all_keys, full[r])}: the historical form is empty; the token is left out.",
            )
        )
        bad[r] = True
    for r, message in _missing_normalizations(norm, orig, [_where(all_keys, k) for k in full]):
        x = int(np.flatnonzero(norm[r] == "")[0]) if r >= 0 else 0
        a = annots[x]
        line = int(a.lines[p[r, x]]) if r >= 0 else None
        warnings.append(ReaderError(a.path if r >= 0 else None, line, message))
    bad[(norm == "").any(axis=1)] = True
    return bad


def _matched_data(
    annots: list[_Annot],
    all_keys: NDArray[Any],
    pos: NDArray[Any],
    good: NDArray[Any],
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> NormalizationData:
    """The tokens kept, in the first annotator's order; a modernization without a type noted."""
    c = len(annots)
    pg = pos[good]
    cols = {
        name: np.stack([getattr(annots[x], name)[pg[:, x]] for x in range(c)], axis=1)
        for name in ("norm", "mod", "mod_type")
    }
    mod, mtype = cols["mod"], cols["mod_type"]
    for r, x in zip(*np.nonzero((mod != "") & (mtype == ""))):
        a = annots[x]
        warnings.append(
            ReaderError(
                a.path,
                int(a.lines[pg[r, x]]),
                f"{_where(all_keys, good[r])}: modernization '{mod[r, x]}' has no type; "
                "its type counts as ORIG/NORM.",
            )
        )
    for arr in cols.values():
        arr.setflags(write=False)
    a0 = annots[0]
    first = pg[:, 0]
    # tokens that the first annotator lacks cannot be here (they were left out as missing)
    return NormalizationData(
        annotators=tuple(a.name for a in annots),
        text_ids=tuple(a0.text[first].tolist()),
        token_ids=tuple(a0.token[first].tolist()),
        orig=tuple(a0.orig[first].tolist()),
        norm=cols["norm"],
        mod=mod,
        mod_type=mtype,
        sources=tuple(str(a.path) for a in annots),
        errors=errors,
        warnings=warnings,
    )

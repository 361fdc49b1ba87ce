"""Judgment tables: long, wide, or one file per annotator → one long table of judgments.

Column roles are recognised from common header names and can be set explicitly. The result is a
:class:`Judgments` value: a long DataFrame with columns ``item``, ``annotator``, ``label``
(text, "" = missing), the metadata columns, and ``__file__``/``__line__`` for messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from iaa_desktop.core.errors import IaaError, ReaderError
from iaa_desktop.core.formats import read_head
from iaa_desktop.core.kinds.table.layouts import (
    DECLARED,
    counts_signal,
    detect,
    from_contingency,
    from_counts,
    from_triples,
    looks_like_json,
    read_tool_export,
)
from iaa_desktop.core.nfc import nfc_column
from iaa_desktop.core.tabular import DELIMITER, LINE, expand_inputs, read_table
from iaa_desktop.core.textio import read_text

#: what ``expand_inputs`` takes from a folder: tables and the JSON exports of annotation tools
INPUT_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".xlsx", ".xlsm", ".json", ".jsonl")

ITEM_NAMES = (
    "item",
    "items",
    "units",
    "subject",
    "subjects",
    "item_id",
    "itemid",
    "id",
    "unit",
    "unit_id",
    "pair_id",
    "sentence_id",
    "instance",
    "instance_id",
    "identifier",
    "doc_id",
    "document",
)
ANNOTATOR_NAMES = (
    "annotator",
    "annotator_id",
    "coder",
    "coder_id",
    "rater",
    "rater_id",
    "judge",
    "user",
    "worker",
    "worker_id",
    "annotator_name",
)
LABEL_NAMES = (
    "label",
    "labels",
    "judgment",
    "judgement",
    "value",
    "rating",
    "score",
    "code",
    "category",
    "annotation",
    "answer",
    "response",
)
#: pairs of columns that together identify an item (DURel / PhiTag exports)
PAIR_KEYS = (("identifier1", "identifier2"), ("instanceID1", "instanceID2"), ("id1", "id2"))
FILE = "__file__"
#: the item column made from row numbers when a wide table has none
ROW_ITEM = "row"


@dataclass(frozen=True)
class ColumnRoles:
    item: tuple[str, ...] = ()
    annotator: str | None = None
    label: str | None = None
    group_by: str | None = None
    metadata: tuple[str, ...] = ()
    #: one of :data:`~iaa_desktop.core.kinds.table.options.LAYOUTS` ("auto": from the content)
    layout: str = "auto"
    #: the question compared in a tool's export that asks several (Label Studio ``from_name``)
    question: str | None = None


@dataclass
class Judgments:
    """Long judgments of all input files, with the problems found on the way."""

    frame: pd.DataFrame  # item, annotator, label, metadata..., __file__, __line__
    item_columns: tuple[str, ...]
    metadata_columns: tuple[str, ...]
    layout: str  # "long", "wide" or "per-annotator"
    errors: list[ReaderError] = field(default_factory=list)
    warnings: list[ReaderError] = field(default_factory=list)
    #: the categories count tables declare in their header (chosen or not), in header order
    categories: tuple[str, ...] = ()
    #: per file read as a table (not a tool export, triples or contingency table): its header
    #: and delimiter, so that the gold table is written in its shape without reading it again
    sources: dict[str, SourceTable] = field(default_factory=dict)


@dataclass(frozen=True)
class SourceTable:
    """The header (without the line-number column) and the delimiter (``None``: a spreadsheet)
    of an input table."""

    header: tuple[str, ...]
    delimiter: str | None


#: the key of a :class:`SourceTable` in the ``attrs`` of a file's long frame (taken off when read)
_SOURCE = "source_table"


def find_column(columns: list[str], names: tuple[str, ...]) -> str | None:
    lower = {c.lower().strip(): c for c in columns}
    for n in names:
        if n in lower:
            return lower[n]
    return None


def _split_cols(spec: str | None) -> tuple[str, ...]:
    if not spec:
        return ()
    return tuple(c.strip() for c in str(spec).split(",") if c.strip())


def _check_columns(
    path: Path, df: pd.DataFrame, cols: tuple[str, ...] | list[str], role: str
) -> None:
    missing = [c for c in cols if c and c not in df.columns]
    if missing:
        have = ", ".join(c for c in df.columns if c != LINE)
        raise ReaderError(
            path,
            1,
            f"no column named {', '.join(map(repr, missing))} for the {role} (the header has: {have}).",
        )


def _group_by_describes_items(
    path: Path, group_by: str | None, cols: tuple[str, ...], role: str
) -> None:
    """A :class:`ReaderError` when the grouping column is the item, annotator or label column:
    a group must be a set of items (a genre, a batch), each item in one group."""
    if group_by and group_by in cols:
        raise ReaderError(
            path,
            1,
            f"the group-by column '{group_by}' is the {role} column; group by a column that "
            "describes the items (a genre, a batch, a source), or leave the grouping out.",
        )


def _with_item_columns(
    path: Path, df: pd.DataFrame, roles: ColumnRoles, meta_given: set[str]
) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """The item key columns (named, recognised, or the row number when there is none)."""
    cols = [c for c in df.columns if c != LINE]
    item_cols = roles.item
    if not item_cols:
        for a, b in PAIR_KEYS:
            if a in cols and b in cols:
                item_cols = (a, b)
                break
    if roles.layout == "wide-no-item":
        item_cols = ()
    elif not item_cols:
        found = find_column(cols, ITEM_NAMES)
        item_cols = (found,) if found else _first_item_column(df, cols, meta_given, roles)
    _check_columns(path, df, item_cols, "item")
    if not item_cols:
        # no item column: the row number is the item (a wide table as R packages print it)
        df = df.copy()
        df.insert(0, ROW_ITEM, [str(n - 1) for n in df[LINE]])
        item_cols = (ROW_ITEM,)
    return df, item_cols


def _no_own_names(path: Path, item_cols: tuple[str, ...], meta_given: set[str]) -> None:
    """Without an annotator column the comparison names its own "annotator" and "label"
    columns: an item or metadata column of either name would be read as two."""
    for name in ("annotator", "label"):
        if name in item_cols or name in meta_given:
            what = "an item" if name in item_cols else "a metadata"
            raise ReaderError(
                path,
                1,
                f"the column '{name}' is read as {what} column of a table without an annotator "
                f"column (one column or one file per annotator), where '{name}' names the "
                "comparison's own column; rename it, or name the annotator and label columns of "
                "a long table with --annotator and --label.",
            )


def _long_from_frame(
    path: Path, df: pd.DataFrame, roles: ColumnRoles, n_files: int
) -> tuple[pd.DataFrame, tuple[str, ...], str]:
    meta_given = set(roles.metadata) | ({roles.group_by} if roles.group_by else set())
    df, item_cols = _with_item_columns(path, df, roles, meta_given)
    _group_by_describes_items(path, roles.group_by, item_cols, "item")
    cols = [c for c in df.columns if c != LINE]
    annotator = roles.annotator or find_column(
        [c for c in cols if c not in item_cols], ANNOTATOR_NAMES
    )
    label = roles.label or find_column(
        [c for c in cols if c not in item_cols and c != annotator], LABEL_NAMES
    )
    if roles.annotator:
        _check_columns(path, df, (roles.annotator,), "annotator")
    if roles.label:
        _check_columns(path, df, (roles.label,), "label")
    if roles.group_by:
        _check_columns(path, df, (roles.group_by,), "--group-by")
    _check_columns(path, df, roles.metadata, "metadata")

    if roles.layout in ("wide", "wide-no-item", "counts"):
        annotator = label = None
    if roles.layout == "long" and not annotator:
        raise ReaderError(
            path, 1, "a long table needs an annotator column; name it with --annotator."
        )
    if annotator:
        if not label:
            rest = [
                c for c in cols if c not in item_cols and c != annotator and c not in meta_given
            ]
            if len(rest) == 1:
                label = rest[0]
            else:
                raise ReaderError(
                    path,
                    1,
                    f"cannot tell which column holds the labels; name it with --label (columns: {', '.join(cols)}).",
                )
        layout = "long"
        _group_by_describes_items(path, roles.group_by, (annotator,), "annotator")
        _group_by_describes_items(path, roles.group_by, (label,), "label")
        meta = [c for c in cols if c not in item_cols and c not in (annotator, label)]
        out = df[list(item_cols) + [annotator, label] + meta + [LINE]].rename(
            columns={annotator: "annotator", label: "label"}
        )
        return out, tuple(meta), layout

    rest = [c for c in cols if c not in item_cols and c not in meta_given]
    _no_own_names(path, item_cols, meta_given)
    if label or (n_files > 1 and len(rest) == 1):
        # one file per annotator: item + label (+ metadata); the annotator is the file name
        label = label or rest[0]
        _group_by_describes_items(path, roles.group_by, (label,), "label")
        meta = [c for c in cols if c not in item_cols and c != label]
        out = df[list(item_cols) + [label] + meta + [LINE]].rename(columns={label: "label"})
        out.insert(len(item_cols), "annotator", path.stem)
        return out, tuple(meta), "per-annotator"

    # wide: every other column is an annotator
    if not rest:
        raise ReaderError(
            path,
            1,
            "no annotator columns found (wide layout: item, metadata, one column per annotator).",
        )
    meta = [c for c in cols if c in meta_given]
    n_raters = counts_signal(df, rest) if roles.layout in ("auto", "counts") else None
    if roles.layout == "counts" and n_raters is None:
        n_raters = -1  # asked for: read as counts, each cell checked
    if n_raters is not None:
        item_col = None if item_cols == (ROW_ITEM,) else item_cols[0]
        long = from_counts(path, df[[*item_cols, *rest, LINE]], item_col)
        declared = long.attrs.get(DECLARED, ())
        long = long.rename(columns={"item": item_cols[0]})
        long.attrs[DECLARED] = declared
        return long, (), "counts"
    for name in RESERVED_ANNOTATORS:
        if name in rest:
            raise ReaderError(
                path,
                1,
                f"an annotator column is named '{name}', a name the comparison's tables use "
                "for their own columns; rename that column.",
            )
    long = df.melt(
        id_vars=list(item_cols) + meta + [LINE],
        value_vars=rest,
        var_name="annotator",
        value_name="label",
    )
    long = long[list(item_cols) + ["annotator", "label"] + meta + [LINE]]
    return long, tuple(meta), "wide"


def _first_item_column(
    df: pd.DataFrame, cols: list[str], meta_given: set[str], roles: ColumnRoles
) -> tuple[str, ...]:
    """The first column as the item key, unless it cannot be one.

    A column named as metadata or as a role is no item; nor is one whose values repeat in a
    table without an annotator column (a wide table has one row per item), which is how a wide
    table without an item column (row number = item) is told apart.
    """
    taken = meta_given | {roles.annotator, roles.label}
    candidates = [c for c in cols if c not in taken]
    if not candidates:
        return ()
    first = candidates[0]
    if find_column(cols, ANNOTATOR_NAMES) is None and df[first].duplicated().any():
        return ()
    return (first,)


def _file_frame(
    path: Path, roles: ColumnRoles, n_files: int
) -> tuple[pd.DataFrame, tuple[str, ...], str, list[ReaderError]]:
    """One input file as long judgments, whatever its layout or format."""
    head = read_head(path)
    if path.suffix.lower() in (".json", ".jsonl") or looks_like_json(head):
        frame, problems = read_tool_export(path, head, roles.question)
        return frame, tuple(c for c in frame.columns if c not in _LONG_COLS), "export", problems
    layout = roles.layout
    warnings: list[ReaderError] = []
    if layout in ("auto", "triples", "contingency") and path.suffix.lower() not in (
        ".xlsx",
        ".xlsm",
    ):
        found = _detect_from_head(path, head) if layout == "auto" else (layout, "")
        text = ""
        if found is not None:
            try:
                text = read_text(path)
            except ReaderError:
                found = None  # the table reader below says what is wrong with the file
        if found is not None and found[0] == "triples":
            return from_triples(path, text), (), "triples", warnings
        if found is not None and found[0] == "contingency":
            frame, what = from_contingency(path, text)
            if layout == "auto":
                warnings.append(
                    ReaderError(path, None, f"read as {what} ({found[1]}); --layout wide if not.")
                )
            return frame, (), "contingency", warnings
    df = read_table(path)
    _refuse_repeated_header(path, df)
    source = SourceTable(tuple(str(c) for c in df.columns if c != LINE), df.attrs.get(DELIMITER))
    long, meta, kind = _long_from_frame(path, df, roles, n_files)
    long.attrs[_SOURCE] = source
    if kind == "counts" and layout == "auto":
        warnings.append(
            ReaderError(
                path,
                None,
                "read as a subjects × categories count table (Fleiss 1971): every row's counts "
                "sum to the same number of annotators; --layout wide if the columns are "
                "annotators.",
            )
        )
    return long, meta, kind, warnings


_LONG_COLS = ("item", "annotator", "label", LINE)
_WHAT = {"annotator": "annotator names", "label": "labels"}
#: names the long table gives its own columns: no annotator can bear them
RESERVED_ANNOTATORS = ("annotator", "label")


def _refuse_repeated_header(path: Path, df: pd.DataFrame) -> None:
    """A row equal to the header (tables joined one after another) is an error at its line:
    read as data it would make an item, or an annotator, of the column names."""
    cols = [c for c in df.columns if c != LINE]
    if len(cols) < 2 or df.empty:
        return
    same = np.ones(len(df), dtype=bool)
    for c in cols:
        same &= df[c].astype(str).str.strip().to_numpy() == str(c).strip()
        if not same.any():
            return
    line = int(df[LINE].to_numpy()[np.flatnonzero(same)[0]])
    raise ReaderError(
        path,
        line,
        "this row repeats the header row (tables joined one after another?); remove it, or "
        "give the tables as separate files.",
    )


def _refuse_reserved_annotators(frame: pd.DataFrame) -> None:
    for name in RESERVED_ANNOTATORS:
        rows = np.flatnonzero(frame["annotator"].to_numpy() == name)
        if len(rows):
            r = int(rows[0])
            raise ReaderError(
                frame[FILE].iat[r],
                int(frame[LINE].iat[r]) if LINE in frame.columns else None,
                f"an annotator is named '{name}', a name the comparison's tables use for their "
                "own columns; rename that annotator (a column or file name).",
            )


def _detect_from_head(path: Path, head: str) -> tuple[str, str] | None:
    """The special layout the start of the file shows (:func:`layouts.detect`).

    Contingency tables are small: a file longer than the head is looked at for triples only,
    so a large table is not parsed twice.
    """
    if not head or "\x00" in head:
        return None  # binary data: the table reader says so
    try:
        complete = path.stat().st_size <= len(head.encode("utf-8"))
    except OSError:
        return None
    if not complete:
        head = head[: head.rfind("\n") + 1]  # whole lines only
    return detect(path, head, contingency=complete)


def _strip(col: pd.Series) -> pd.Series:
    """Strip surrounding spaces, working on the distinct values (few, compared with the cells)."""
    codes, uniques = pd.factorize(col.astype(str), sort=False)
    stripped = pd.Index(uniques).str.strip()
    return pd.Series(stripped.to_numpy()[codes], index=col.index)


def _has_label(long: pd.DataFrame) -> bool:
    """Whether a file's long judgments hold at least one label (not every cell empty)."""
    if not len(long) or "label" not in long.columns:
        return False
    labels = long["label"]
    return bool((labels.notna() & (labels.astype(str).str.strip() != "")).any())


def _without_empty_annotators(frame: pd.DataFrame, errors: list[ReaderError]) -> pd.DataFrame:
    """The judgments without the annotators none of whose cells holds a label (a problem each,
    naming the file: an annotator of whom nothing was read is left out, not scored)."""
    has = frame["label"].notna() & (frame["label"].astype(str).str.strip() != "")
    judged = set(frame.loc[has, "annotator"])
    empty = [a for a in dict.fromkeys(frame["annotator"]) if a not in judged]
    for a in empty:
        first = frame.loc[frame["annotator"] == a, FILE].iloc[0]
        errors.append(
            ReaderError(
                Path(str(first)),
                None,
                f"no judgments were read for annotator {a}: every cell is empty. Left out.",
            )
        )
    return frame[~frame["annotator"].isin(empty)] if empty else frame


def read_judgments(paths: list[Path], roles: ColumnRoles) -> Judgments:
    """Read every input (files or folders of tables) into one long table.

    A file that cannot be read is reported in ``errors`` and left out; the others still load.
    Raises :class:`IaaError` only when no file could be read at all.
    """
    files = expand_inputs([Path(p) for p in paths], INPUT_SUFFIXES)
    if not files:
        raise IaaError(
            "No table files (CSV, TSV, XLSX) or tool exports (JSON, JSONL) found in the inputs."
        )
    frames: list[pd.DataFrame] = []
    errors: list[ReaderError] = []
    item_cols: tuple[str, ...] | None = None
    metas: list[str] = []
    layouts: set[str] = set()
    warnings: list[ReaderError] = []
    declared: list[str] = []
    sources: dict[str, SourceTable] = {}
    for path in files:
        try:
            long, meta, layout, file_warnings = _file_frame(path, roles, len(files))
        except ReaderError as e:
            errors.append(e)
            continue
        warnings.extend(file_warnings)
        source = long.attrs.pop(_SOURCE, None)
        if not _has_label(long):
            errors.append(
                ReaderError(
                    path,
                    None,
                    "no judgments were read from it: every label cell is empty (is the label "
                    "column the right one?). File left out.",
                )
            )
            continue
        ic = tuple(c for c in long.columns[: long.columns.get_loc("annotator")])
        if item_cols is None:
            item_cols = ic
        elif ic != item_cols:
            errors.append(
                ReaderError(
                    path,
                    1,
                    f"its item columns ({', '.join(ic)}) differ from the first file's ({', '.join(item_cols)}); file left out.",
                )
            )
            continue
        declared.extend(c for c in long.attrs.get(DECLARED, ()) if c not in declared)
        long[FILE] = str(path)
        if source is not None:
            sources[str(path)] = source
        frames.append(long)
        layouts.add(layout)
        metas.extend(m for m in meta if m not in metas)
    if not frames:
        if len(errors) == 1:
            raise errors[0]
        raise IaaError("None of the inputs could be read:\n" + "\n".join(str(e) for e in errors))
    frame = pd.concat(frames, ignore_index=True)
    for m in metas:
        if m not in frame.columns:
            frame[m] = ""
    frame[list(metas)] = frame[list(metas)].fillna("")
    assert item_cols is not None
    for c in list(item_cols) + ["annotator", "label"]:
        frame[c], merged, at = nfc_column(_strip(frame[c]), _WHAT.get(c, f"values of '{c}'"))
        if merged:  # named at the first cell merged into another form
            line = frame[LINE].iat[at] if LINE in frame.columns else None
            warnings.append(
                ReaderError(frame[FILE].iat[at], None if line is None else int(line), merged)
            )
    _refuse_reserved_annotators(frame)
    frame = _without_empty_annotators(frame, errors)
    layout = "+".join(sorted(layouts))
    return Judgments(
        frame, item_cols, tuple(metas), layout, errors, warnings, tuple(declared), sources
    )

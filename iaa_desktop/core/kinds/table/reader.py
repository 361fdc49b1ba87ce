"""Judgment tables: long, wide, or one file per annotator → one long table of judgments.

Column roles are recognised from common header names and can be set explicitly. The result is a
:class:`Judgments` value: a long DataFrame with columns ``item``, ``annotator``, ``label``
(text, "" = missing), the metadata columns, and ``__file__``/``__line__`` for messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from iaa_desktop.core.errors import IaaError, ReaderError
from iaa_desktop.core.tabular import LINE, expand_inputs, read_table

ITEM_NAMES = (
    "item",
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


@dataclass(frozen=True)
class ColumnRoles:
    item: tuple[str, ...] = ()
    annotator: str | None = None
    label: str | None = None
    group_by: str | None = None
    metadata: tuple[str, ...] = ()


@dataclass
class Judgments:
    """Long judgments of all input files, with the problems found on the way."""

    frame: pd.DataFrame  # item, annotator, label, metadata..., __file__, __line__
    item_columns: tuple[str, ...]
    metadata_columns: tuple[str, ...]
    layout: str  # "long", "wide" or "per-annotator"
    errors: list[ReaderError] = field(default_factory=list)
    warnings: list[ReaderError] = field(default_factory=list)


def _find(columns: list[str], names: tuple[str, ...]) -> str | None:
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


def _long_from_frame(
    path: Path, df: pd.DataFrame, roles: ColumnRoles, n_files: int
) -> tuple[pd.DataFrame, tuple[str, ...], str]:
    cols = [c for c in df.columns if c != LINE]
    item_cols = roles.item
    if not item_cols:
        for a, b in PAIR_KEYS:
            if a in cols and b in cols:
                item_cols = (a, b)
                break
    if not item_cols:
        found = _find(cols, ITEM_NAMES)
        item_cols = (found,) if found else (cols[0],)
    _check_columns(path, df, item_cols, "item")
    annotator = roles.annotator or _find([c for c in cols if c not in item_cols], ANNOTATOR_NAMES)
    label = roles.label or _find(
        [c for c in cols if c not in item_cols and c != annotator], LABEL_NAMES
    )
    if roles.annotator:
        _check_columns(path, df, (roles.annotator,), "annotator")
    if roles.label:
        _check_columns(path, df, (roles.label,), "label")
    if roles.group_by:
        _check_columns(path, df, (roles.group_by,), "--group-by")
    _check_columns(path, df, roles.metadata, "metadata")
    meta_given = set(roles.metadata) | ({roles.group_by} if roles.group_by else set())

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
        meta = [c for c in cols if c not in item_cols and c not in (annotator, label)]
        out = df[list(item_cols) + [annotator, label] + meta + [LINE]].rename(
            columns={annotator: "annotator", label: "label"}
        )
        return out, tuple(meta), layout

    rest = [c for c in cols if c not in item_cols and c not in meta_given]
    if label or (n_files > 1 and len(rest) == 1):
        # one file per annotator: item + label (+ metadata); the annotator is the file name
        label = label or rest[0]
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
    long = df.melt(
        id_vars=list(item_cols) + meta + [LINE],
        value_vars=rest,
        var_name="annotator",
        value_name="label",
    )
    long = long[list(item_cols) + ["annotator", "label"] + meta + [LINE]]
    return long, tuple(meta), "wide"


def _strip(col: pd.Series) -> pd.Series:
    """Strip surrounding spaces, working on the distinct values (few, compared with the cells)."""
    codes, uniques = pd.factorize(col.astype(str), sort=False)
    stripped = pd.Index(uniques).str.strip()
    return pd.Series(stripped.to_numpy()[codes], index=col.index)


def read_judgments(paths: list[Path], roles: ColumnRoles) -> Judgments:
    """Read every input (files or folders of tables) into one long table.

    A file that cannot be read is reported in ``errors`` and left out; the others still load.
    Raises :class:`IaaError` only when no file could be read at all.
    """
    files = expand_inputs([Path(p) for p in paths])
    if not files:
        raise IaaError("No table files (CSV, TSV, XLSX) found in the inputs.")
    frames: list[pd.DataFrame] = []
    errors: list[ReaderError] = []
    item_cols: tuple[str, ...] | None = None
    metas: list[str] = []
    layouts: set[str] = set()
    for path in files:
        try:
            df = read_table(path)
            long, meta, layout = _long_from_frame(path, df, roles, len(files))
        except ReaderError as e:
            errors.append(e)
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
        long[FILE] = str(path)
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
        frame[c] = _strip(frame[c])
    return Judgments(frame, item_cols, tuple(metas), "+".join(sorted(layouts)), errors)

"""Multi-label annotations: each annotator gives each item a set of labels.

Two layouts, as CSV, TSV (no quoting) or XLSX, one or several files:

* **long**: ``item, annotator, labels`` with the labels of one annotation joined by a delimiter
  (``;`` by default); an empty cell means "no label";
* **wide**: ``item, annotator`` and one 0/1 column per label.

An extra texts table (``item, text``) may be given as another input or as ``texts=``; a ``text``
column in the annotation table serves as well. A file without an annotator column holds one
annotator, named after the file.

Agreement over batches and test–retest agreement need more than the code matrix: with
``columns`` (a batch or occasion column) or ``repeats`` the reader also keeps every annotation
read (:attr:`MultiLabelData.responses`), an annotator's repeated annotations of an item included
when ``repeats`` is asked (they are expected then, not a problem), with the other columns of a
long table (in a wide table only the columns named, the others being labels).

The result is a :class:`MultiLabelData` whose ``codes[i, x]`` is annotator x's label set for
item i as a k-bit code (first label = leftmost bit, so with labels (A, B, C) the code 0b101
means {A, C}), ``-1`` when x did not annotate i. Bad lines are collected as
:class:`~iaa_desktop.core.errors.ReaderError` and left out; the rest is read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import IaaError, InsufficientDataError, OptionError, ReaderError
from iaa_desktop.core.kinds.multilabel.label_order import infer_label_order, natural_key
from iaa_desktop.core.kinds.multilabel.names import nfc_frames, nfc_label_sets, nfc_warnings
from iaa_desktop.core.tabular import LINE, TABLE_SUFFIXES, expand_inputs, read_table
from iaa_desktop.core.textio import read_head

ITEM_NAMES = (
    "item",
    "item_id",
    "itemid",
    "id",
    "sentence_id",
    "unit",
    "unit_id",
    "doc_id",
    "segment_id",
    "instance_id",
)
ANNOTATOR_NAMES = ("annotator", "annotator_id", "coder", "rater", "judge", "user", "annotator_name")
LABELS_NAMES = ("labels", "label_set", "tags", "categories", "classes", "label")
TEXT_NAMES = ("text", "sentence", "content", "context")
#: more labels than this would make the 2**k codes unwieldy
MAX_LABELS = 16
#: a label name longer than this is not a label (every partition and combination repeats it)
MAX_LABEL_CHARS = 200
#: prefix of a file's own columns (batch, timestamp, …) in :attr:`MultiLabelData.responses`
OWN = "col:"


@dataclass(frozen=True, slots=True)
class MultiLabelData:
    """Label sets of several annotators over shared items.

    Attributes
    ----------
    items, annotators, labels : names; ``labels`` in bit order (first = leftmost bit)
    codes : int64 (n_items, n_annotators), read-only; -1 = not annotated
    texts : text of each item ("" when unknown)
    layout : "long" or "wide" (of the first annotation file)
    errors, warnings : problems found while reading
    responses : every annotation read (None unless asked for): item, annotator, code, path,
        line and the files' own columns (prefixed :data:`OWN`), in file order; the code matrix
        holds each annotator's first annotation of an item
    """

    items: tuple[str, ...]
    annotators: tuple[str, ...]
    labels: tuple[str, ...]
    codes: NDArray[Any]
    texts: tuple[str, ...]
    layout: str
    errors: tuple[ReaderError, ...] = field(default=())
    warnings: tuple[ReaderError, ...] = field(default=())
    responses: pd.DataFrame | None = field(default=None, compare=False, repr=False)

    @property
    def k(self) -> int:
        return len(self.labels)


def _norm(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", str(name).strip().lower())


def _find(columns: Sequence[str], names: Sequence[str]) -> str | None:
    normed = {_norm(c): c for c in columns}
    for n in names:
        if n in normed:
            return normed[n]
    return None


_BIT_VALUES = {"0": "0", "1": "1", "0.0": "0", "1.0": "1", "false": "0", "true": "1"}


def _as_bit(values: pd.Series) -> pd.Series:
    """ "0"/"1" for 0/1 cells (also 0.0/1.0 and FALSE/TRUE from spreadsheets), NaN otherwise."""
    return values.astype(str).str.strip().str.lower().map(_BIT_VALUES)


def _is_binary(series: pd.Series) -> bool:
    """Mostly 0/1 (a few bad cells are reported line by line later, not a reason to give up)."""
    vals = series.astype(str).str.strip()
    if vals.empty:
        return False
    return bool(_as_bit(vals).notna().mean() >= 0.9)


@dataclass(frozen=True)
class ColumnRoles:
    """The columns of a multi-label table by role (None: the table has none)."""

    item: str | None = None
    annotator: str | None = None
    #: the column of the label sets (a long table)
    labels: str | None = None
    text: str | None = None
    #: the 0/1 columns, one per label (a wide table)
    label_columns: tuple[str, ...] = ()


def classify_columns(
    columns: Sequence[str], sample: pd.DataFrame | None = None
) -> tuple[str, ColumnRoles]:
    """Guess the layout of a table from its header (and a sample of rows).

    Returns ``(layout, roles)`` with layout one of ``"long"``, ``"wide"``, ``"texts"`` or
    ``"unknown"``; roles names the columns (:class:`ColumnRoles`).
    """
    cols = [c for c in columns if c != LINE]
    item = _find(cols, ITEM_NAMES) or (cols[0] if cols else None)
    annotator = _find([c for c in cols if c != item], ANNOTATOR_NAMES)
    labels = _find([c for c in cols if c not in (item, annotator)], LABELS_NAMES)
    text = _find([c for c in cols if c not in (item, annotator, labels)], TEXT_NAMES)
    roles = ColumnRoles(item, annotator, labels, text)
    if labels is not None:
        return "long", roles
    rest = [c for c in cols if c not in (item, annotator, text)]
    if sample is not None and rest:
        binary = [c for c in rest if _is_binary(sample[c])]
        if len(binary) == len(rest):
            return "wide", replace(roles, label_columns=tuple(rest))
    if annotator is None and text is not None:
        return "texts", roles
    return "unknown", roles


def read_texts_table(path: Path, df: pd.DataFrame, roles: ColumnRoles) -> dict[str, str]:
    item, text = roles.item, roles.text
    return dict(zip(df[item].astype(str).str.strip(), df[text].astype(str)))


#: one annotation table read: (path, frame with item / annotator / line and sets or bits,
#: layout, label columns of a wide table)
_Frame = tuple[Path, pd.DataFrame, str, tuple[str, ...]]


def read_multilabel(
    inputs: Sequence[Path],
    labels: Sequence[str] | None = None,
    delimiter: str = ";",
    texts: Path | None = None,
    columns: Mapping[str, str] | None = None,
    repeats: bool = False,
) -> MultiLabelData:
    """Read multi-label annotations (long or wide) and optional texts.

    Parameters
    ----------
    inputs : files or folders
    labels : the label order (bit order); default: the column order (wide) or the order the
        labels are written in (long)
    delimiter : separator of the labels inside a long-format cell
    texts : optional table of item texts
    columns : columns every annotation file must have, each with the option that names it
        (``{"timestamp": "Batch column"}``); in a wide table they are not labels
    repeats : an annotator's repeated annotations of an item are expected (test–retest): kept
        in ``responses``, not reported

    Raises
    ------
    InsufficientDataError when no annotation could be read at all; OptionError when an
    annotation file lacks one of ``columns``.
    """
    errors: list[ReaderError] = []
    warnings: list[ReaderError] = []
    text_map: dict[str, str] = {}
    named = dict(columns or {})
    keep = bool(named) or repeats
    read = _read_frames(inputs, texts, text_map, errors, warnings, named if keep else None)
    frames, forms = nfc_frames(read, errors)
    delimiter = delimiter or ";"
    long_sets = [
        nfc_label_sets(path, out, _long_label_sets(path, out, delimiter, errors), forms[-1])
        for path, out, layout, _ in frames
        if layout == "long"
    ]
    warnings.extend(nfc_warnings(forms))
    order = _label_order(frames, long_sets, labels, warnings)
    weight = {lab: 1 << (len(order) - 1 - j) for j, lab in enumerate(order)}
    records: list[pd.DataFrame] = []
    long_iter = iter(long_sets)
    for path, out, layout, cols in frames:
        if layout == "long":
            code, ok = _long_codes(path, out, next(long_iter), weight, order, errors)
        else:
            code, ok = _wide_codes(path, out, cols, weight, order, errors, warnings)
        rec = _valid_records(path, out, code, ok, errors)
        same = _same_as_earlier(rec, records)
        if same is not None:
            # e.g. a folder holding the same annotations in long and in wide layout
            warnings.append(
                ReaderError(
                    path, None, f"holds the same annotations as {Path(same).name}; it was left out."
                )
            )
            continue
        records.append(rec)
    return _assemble(records, order, text_map, frames[0][2], errors, warnings, keep, repeats)


def _read_frames(
    inputs: Sequence[Path],
    texts: Path | None,
    text_map: dict[str, str],
    errors: list[ReaderError],
    warnings: list[ReaderError],
    named: Mapping[str, str] | None = None,
) -> list[_Frame]:
    """Every annotation table of the inputs; texts tables fill ``text_map``. With ``named``
    (None: nothing kept) the files' own columns are kept, and a file lacking one of the named
    columns is refused (:class:`OptionError`)."""
    files = [
        p
        for p in expand_inputs([Path(p) for p in inputs])
        if p.suffix.lower() in TABLE_SUFFIXES or p.is_file()
    ]
    # files found inside a given folder may be anything (a gold file, notes): not recognising
    # one is a warning there, an error for a file named explicitly
    from_folder = {f for p in inputs if Path(p).is_dir() for f in expand_inputs([Path(p)])}
    if texts:
        files.append(Path(texts))
    frames: list[_Frame] = []
    for path in files:
        try:
            df = read_table(path)
        except ReaderError as e:
            errors.append(e)
            continue
        layout, roles = classify_columns(list(df.columns), df.head(500))
        if named and layout != "long":  # a batch or occasion column is no label column
            plain = [c for c in df.columns if c not in named]
            layout, roles = classify_columns(plain, df.head(500))
        if texts and path == Path(texts) or layout == "texts":
            if roles.text is None:
                errors.append(
                    ReaderError(path, 1, "no text column found (expected a column named 'text').")
                )
                continue
            text_map.update(read_texts_table(path, df, roles))
            continue
        if layout == "unknown":
            (warnings if path in from_folder else errors).append(
                ReaderError(
                    path,
                    1,
                    "neither a long table (item, annotator, labels) nor a wide one (item, annotator and "
                    "0/1 columns, one per label) was recognised; this file was left out.",
                )
            )
            continue
        if roles.text is not None:
            for it, tx in zip(df[roles.item].astype(str).str.strip(), df[roles.text].astype(str)):
                text_map.setdefault(it, tx)
        if layout == "wide" and _long_label_column(path, roles, errors):
            continue
        own: tuple[str, ...] = ()
        if named is not None:
            _check_named(path, df, named)
            own = _own_columns(df, layout, roles, named)
        frames.append(_annotation_frame(path, df, layout, roles, own))
    if not frames:
        if errors:
            raise InsufficientDataError(
                "No annotation table could be read: " + "; ".join(str(e) for e in errors[:3])
            )
        raise InsufficientDataError("No annotation table was given.")
    return frames


def _long_label_column(path: Path, roles: ColumnRoles, errors: list[ReaderError]) -> bool:
    """Whether a wide table names a label column too long to be a label (then reported)."""
    longest = max(map(len, roles.label_columns), default=0)
    if longest <= MAX_LABEL_CHARS:
        return False
    errors.append(
        ReaderError(
            path,
            1,
            f"a label column named with {longest:,} characters, more than the {MAX_LABEL_CHARS} "
            "a label may have; this file was left out.",
        )
    )
    return True


def _check_named(path: Path, df: pd.DataFrame, named: Mapping[str, str]) -> None:
    """Refuse an annotation file lacking a column an option names."""
    for column, what in named.items():
        if column not in df.columns:
            has = [str(c) for c in df.columns if c != LINE]
            raise OptionError(
                f"{what}: '{column}' is no column of {path.name} (its columns: "
                f"{', '.join(has[:30])}{' …' if len(has) > 30 else ''})."
            )


def _own_columns(
    df: pd.DataFrame, layout: str, roles: ColumnRoles, named: Mapping[str, str]
) -> tuple[str, ...]:
    """The columns of a file besides item, annotator, labels and text (a long table), or the
    named ones (a wide table: its other columns are labels)."""
    if layout != "long":
        return tuple(c for c in named if c in df.columns)
    taken = {roles.item, roles.annotator, roles.labels, roles.text, LINE}
    return tuple(str(c) for c in df.columns if c not in taken)


def _annotation_frame(
    path: Path, df: pd.DataFrame, layout: str, roles: ColumnRoles, own: Sequence[str] = ()
) -> _Frame:
    """Item, annotator (the file's name when there is no annotator column), line, and the label
    sets (long) or one column of "0"/"1" per label (wide; other cells kept to be reported); the
    file's ``own`` columns under :data:`OWN`."""
    out = pd.DataFrame(
        {
            "item": df[roles.item].astype(str).str.strip(),
            "annotator": (
                df[roles.annotator].astype(str).str.strip() if roles.annotator else path.stem
            ),
            LINE: df[LINE].to_numpy(),
        }
    )
    for c in own:
        out[OWN + c] = df[c].to_numpy()
    if layout == "long":
        out["labels"] = df[roles.labels].astype(str)
        return (path, out, "long", ())
    cols = roles.label_columns
    for c in cols:
        bits = _as_bit(df[c])
        out["bit:" + c] = bits.where(bits.notna(), df[c].astype(str).str.strip())
    return (path, out, "wide", cols)


def _long_label_sets(
    path: Path, out: pd.DataFrame, delimiter: str, errors: list[ReaderError]
) -> list[list[str] | None]:
    """The label set of each row of a long table; None for a row naming a label too long to be
    one (reported with its line)."""
    sets: list[list[str] | None] = []
    for cell, line in zip(out["labels"].tolist(), out[LINE].tolist()):
        labs = list(dict.fromkeys(t.strip() for t in cell.split(delimiter) if t.strip()))
        longest = max(map(len, labs), default=0)
        if len(labs) > MAX_LABELS:
            errors.append(
                ReaderError(
                    path,
                    int(line),
                    f"a set of {len(labs):,} labels, more than the {MAX_LABELS} this analysis "
                    "supports; this annotation was left out.",
                )
            )
            sets.append(None)
        elif longest > MAX_LABEL_CHARS:
            errors.append(
                ReaderError(
                    path,
                    int(line),
                    f"a label of {longest:,} characters, more than the {MAX_LABEL_CHARS} a label "
                    "may have; this annotation was left out.",
                )
            )
            sets.append(None)
        else:
            sets.append(labs)
    return sets


def _label_order(
    frames: list[_Frame],
    long_sets: list[list[list[str] | None]],
    labels: Sequence[str] | None,
    warnings: list[ReaderError],
) -> list[str]:
    """The user's label order, else the wide tables' columns then the order labels are written."""
    user_labels = [s.strip() for s in (labels or []) if str(s).strip()]
    wide_cols: list[str] = []
    for _, _, _layout, cols in frames:
        for c in cols:
            if c not in wide_cols:
                wide_cols.append(c)
    if user_labels:
        if len(set(user_labels)) != len(user_labels):
            raise IaaError("The label order names a label twice.")
        order = user_labels
        missing = [c for c in wide_cols if c not in order]
        if missing:
            warnings.append(
                ReaderError(
                    None,
                    None,
                    f"columns not in the label order were ignored: {', '.join(missing)}.",
                )
            )
    else:
        seen_sets = [s for sets in long_sets for s in sets if s is not None]
        distinct = set(wide_cols).union(*seen_sets)
        if len(distinct) > MAX_LABELS:  # before inferring an order among them (quadratic)
            raise IaaError(
                f"{len(distinct):,} labels is more than this analysis supports ({MAX_LABELS})."
            )
        order = list(wide_cols)
        for lab in infer_label_order(seen_sets):
            if lab not in order:
                order.append(lab)
    if not order:
        files = ", ".join(dict.fromkeys(str(f[0]) for f in frames))
        raise InsufficientDataError(
            f"No label was found in the annotations of {files} (every set is empty, for every "
            "annotator); is the label column or the label delimiter right?"
        )
    if len(order) > MAX_LABELS:
        raise IaaError(f"{len(order)} labels is more than this analysis supports ({MAX_LABELS}).")
    return order


def _long_codes(
    path: Path,
    out: pd.DataFrame,
    sets: list[list[str] | None],
    weight: dict[str, int],
    order: list[str],
    errors: list[ReaderError],
) -> tuple[NDArray[Any], NDArray[Any]]:
    """Codes of a long table's label sets, and which rows hold only known labels."""
    ok = np.ones(len(out), dtype=bool)
    code = np.zeros(len(out), dtype=np.int64)
    lines = out[LINE].to_numpy()
    for r, labs in enumerate(sets):
        if labs is None:  # reported when the sets were read
            ok[r] = False
            continue
        unknown = [lab for lab in labs if lab not in weight]
        if unknown:
            errors.append(
                ReaderError(
                    path,
                    int(lines[r]),
                    f"unknown label {', '.join(repr(u) for u in unknown)} (labels: {', '.join(order)}); this annotation was left out.",
                )
            )
            ok[r] = False
            continue
        code[r] = sum(weight[lab] for lab in set(labs))
    return code, ok


def _wide_codes(
    path: Path,
    out: pd.DataFrame,
    cols: tuple[str, ...],
    weight: dict[str, int],
    order: list[str],
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> tuple[NDArray[Any], NDArray[Any]]:
    """Codes of a wide table's 0/1 columns, and which rows hold only 0 and 1."""
    ok = np.ones(len(out), dtype=bool)
    code = np.zeros(len(out), dtype=np.int64)
    lines = out[LINE].to_numpy()
    for c in cols:
        if c not in weight:
            continue
        vals = out["bit:" + c].to_numpy(dtype=object)
        bad = ~np.isin(vals, ["0", "1"])
        for r in np.flatnonzero(bad & ok):
            errors.append(
                ReaderError(
                    path,
                    int(lines[r]),
                    f"column '{c}' must be 0 or 1, not '{vals[r]}'; this annotation was left out.",
                )
            )
        ok &= ~bad
        code += np.where(vals == "1", weight[c], 0)
    absent = [lab for lab in order if lab not in cols]
    if absent:
        warnings.append(
            ReaderError(path, 1, f"no column for {', '.join(absent)}: read as 0 (label absent).")
        )
    return code, ok


def _valid_records(
    path: Path, out: pd.DataFrame, code: NDArray[Any], ok: NDArray[Any], errors: list[ReaderError]
) -> pd.DataFrame:
    """The annotations read well and naming both item and annotator."""
    lines = out[LINE].to_numpy()
    blank = (out["item"] == "").to_numpy() | (out["annotator"] == "").to_numpy()
    for r in np.flatnonzero(blank & ok):
        errors.append(
            ReaderError(
                path, int(lines[r]), "the item or annotator is empty; this line was left out."
            )
        )
    ok = ok & ~blank
    rec = pd.DataFrame(
        {
            "item": out["item"].to_numpy()[ok],
            "annotator": out["annotator"].to_numpy()[ok],
            "code": code[ok],
            "path": str(path),
            LINE: lines[ok],
        }
    )
    for c in out.columns:
        if str(c).startswith(OWN):
            rec[c] = out[c].to_numpy()[ok]
    return rec


def _assemble(
    records: list[pd.DataFrame],
    order: list[str],
    text_map: dict[str, str],
    layout: str,
    errors: list[ReaderError],
    warnings: list[ReaderError],
    keep: bool = False,
    repeats: bool = False,
) -> MultiLabelData:
    """The item × annotator code matrix; a second annotation of an item is reported and left out
    (kept in the responses without a report when ``repeats`` are expected). ``keep``: every
    annotation read as :attr:`MultiLabelData.responses`."""
    allrec = pd.concat(records, ignore_index=True)
    dup = allrec.duplicated(["item", "annotator"], keep="first").to_numpy()
    for r in np.flatnonzero(dup) if not repeats else ():
        row = allrec.iloc[r]
        errors.append(
            ReaderError(
                row["path"],
                int(row[LINE]),
                f"annotator '{row['annotator']}' labels item '{row['item']}' a second time; the first annotation was kept.",
            )
        )
    every = allrec if repeats else allrec.loc[~dup]
    allrec = _without_empty_annotators(allrec.loc[~dup], errors)
    if allrec.empty:
        raise InsufficientDataError(
            "No valid annotation was found.\n" + "\n".join(str(e) for e in errors[:10])
        )
    items = tuple(pd.unique(allrec["item"]).tolist())
    annotators = tuple(sorted(pd.unique(allrec["annotator"]).tolist(), key=natural_key))
    item_idx = pd.Index(items).get_indexer(allrec["item"])
    ann_idx = pd.Index(annotators).get_indexer(allrec["annotator"])
    codes = np.full((len(items), len(annotators)), -1, dtype=np.int64)
    codes[item_idx, ann_idx] = allrec["code"].to_numpy()
    codes.setflags(write=False)
    text_tuple = tuple(text_map.get(it, "") for it in items)
    return MultiLabelData(
        items=items,
        annotators=annotators,
        labels=tuple(order),
        codes=codes,
        texts=text_tuple,
        layout=layout,
        errors=tuple(errors),
        warnings=tuple(warnings),
        responses=(
            every.loc[every["annotator"].isin(annotators)].reset_index(drop=True) if keep else None
        ),
    )


def _without_empty_annotators(allrec: pd.DataFrame, errors: list[ReaderError]) -> pd.DataFrame:
    """The records without the annotators whose every label set is empty: nothing was read of
    them (a wrong label column or delimiter, more likely than no label anywhere), a problem
    naming their file, and they are left out rather than scored."""
    if allrec.empty:
        return allrec
    most = allrec.groupby("annotator", sort=False)["code"].max()
    empty = [a for a, m in most.items() if m <= 0]
    for a in empty:
        first = allrec.loc[allrec["annotator"] == a].iloc[0]
        errors.append(
            ReaderError(
                first["path"],
                None,
                f"no labels were read for annotator '{a}': every label set is empty (is the "
                "label column or the label delimiter right?). Left out.",
            )
        )
    return allrec.loc[~allrec["annotator"].isin(empty)] if empty else allrec


def _same_as_earlier(rec: pd.DataFrame, earlier: list[pd.DataFrame]) -> str | None:
    """Path of an earlier file with exactly the same (item, annotator, code) rows, if any."""
    key = (
        rec[["item", "annotator", "code"]].sort_values(["item", "annotator"]).reset_index(drop=True)
    )
    for other in earlier:
        if len(other) != len(rec):
            continue
        okey = (
            other[["item", "annotator", "code"]]
            .sort_values(["item", "annotator"])
            .reset_index(drop=True)
        )
        if key.equals(okey):
            return str(other["path"].iat[0])
    return None


def sniff_multilabel(inputs: Sequence[Path], delimiter: str = ";") -> float:
    """Confidence that the inputs are multi-label annotations (reads only the first lines)."""
    best = 0.0
    for path in expand_inputs([Path(p) for p in inputs]):
        if path.suffix.lower() not in (".csv", ".tsv", ".tab", ".txt"):
            continue
        head = [ln.rstrip("\r") for ln in read_head(path).split("\n")[:200] if ln.strip()]
        if len(head) < 2:
            continue
        sep = "\t" if head[0].count("\t") else ","
        rows = [ln.split(sep) for ln in head]
        header = rows[0]
        body = [r for r in rows[1:] if len(r) == len(header)]
        if not body:
            continue
        sample = pd.DataFrame(body, columns=header)
        layout, roles = classify_columns(header, sample)
        if layout == "long" and roles.annotator is not None:
            col = sample[roles.labels]
            if _norm(str(roles.labels)) == "labels" or col.str.contains(re.escape(delimiter)).any():
                best = max(best, 0.9)
        elif layout == "wide" and roles.annotator is not None and len(roles.label_columns) >= 2:
            best = max(best, 0.9)
    return best

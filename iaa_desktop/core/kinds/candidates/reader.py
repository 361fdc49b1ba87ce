"""Candidate text-reuse pairs: a pairs table plus the annotators' labels (the Bernard of Clairvaux intertextuality study).

Inputs (files, or a folder holding them):

* the **pairs table**: one row per candidate pair with a pair id, the target and source texts,
  optional lemma columns (space-separated, one lemma per token) and factor columns (retrieval
  method, source book, whether the reference was known, ...). Recognised as the table that has
  the text columns.
* the **labels**, long (``pair_id, annotator, label``) or wide (``pair_id`` and one column per
  annotator). In a folder, ``labels.*`` is preferred over ``labels_wide.*``; other tables in the
  folder (e.g. ``truth.tsv``) are ignored.

Problems are collected: labels of pairs missing from the pairs table (left out), pairs nobody
labelled (kept without labels), an annotator labelling a pair twice (identical: counted once;
different: both left out).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.tabular import LINE, TABLE_SUFFIXES, header_line, read_table


@dataclass(frozen=True, slots=True)
class CandidateColumns:
    """Column names; empty = recognise from the header."""

    pair_id: str = ""
    target_text: str = ""
    source_text: str = ""
    target_lemma: str = ""
    source_lemma: str = ""
    annotator: str = ""
    label: str = ""


@dataclass
class CandidateData:
    """Pairs (one row each, in file order) and the labels as an items × annotators table."""

    pairs: (
        pd.DataFrame
    )  # columns: pair_id, target_text, source_text, [target_lemma, source_lemma], factors...
    labels: pd.DataFrame  # pair_id × annotator, "" = no label
    annotators: tuple[str, ...]
    factor_candidates: list[str]
    pairs_path: Path | None = None
    labels_path: Path | None = None
    errors: list[ReaderError] = field(default_factory=list)
    warnings: list[ReaderError] = field(default_factory=list)
    #: every label of a long labels table, repeats included, in file order: ``pair_id``,
    #: ``annotator``, ``label`` and the file's other columns (a timestamp, a round …) and
    #: ``__line__``; only labels of known pairs and kept annotators. None for wide labels, which
    #: hold one label per pair and annotator and no column of their own.
    responses: pd.DataFrame | None = None


def pick_column(
    cols: Sequence[str], given: str, names: Sequence[str], contains: Sequence[str] = ()
) -> str | None:
    if given:
        return given if given in cols else None
    lower = {c.lower(): c for c in cols}
    for n in names:
        if n in lower:
            return lower[n]
    for c in cols:
        if all(s in c.lower() for s in contains) and contains:
            return c
    return None


def _text_columns(cols: Sequence[str], spec: CandidateColumns) -> tuple[str | None, str | None]:
    t = pick_column(
        cols, spec.target_text, ("target_text", "target", "text_a", "text1"), ("target", "text")
    )
    s = pick_column(
        cols, spec.source_text, ("source_text", "source", "text_b", "text2"), ("source", "text")
    )
    return t, s


def expand(inputs: Sequence[Path]) -> list[Path]:
    """Files as given; a folder gives its ``pairs*`` and ``labels*`` tables."""
    out: list[Path] = []
    for p in inputs:
        p = Path(p)
        if p.is_dir():
            tables = sorted(
                f for f in p.iterdir() if f.is_file() and f.suffix.lower() in TABLE_SUFFIXES
            )
            pairs = [f for f in tables if f.stem.lower().startswith("pairs")]
            labels = [f for f in tables if f.stem.lower().startswith("labels")]
            labels.sort(key=lambda f: ("wide" in f.stem.lower(), f.name))  # long first
            out.extend(pairs[:1] + labels[:1])
        else:
            out.append(p)
    return out


def looks_like_candidates(inputs: Sequence[Path]) -> float:
    """Confidence that the inputs are a pairs table with labels (for auto-detection)."""
    files = expand(inputs)
    has_pairs = has_labels = False
    for f in files:
        if f.suffix.lower() in (".xlsx", ".xlsm"):
            continue
        head = header_line(f)
        if ("target" in head and "source" in head) and ("text" in head):
            has_pairs = True
        elif "pair" in head:
            has_labels = True
    return 0.9 if has_pairs and has_labels else (0.4 if has_pairs else 0.0)


def _factor_candidates(pairs: pd.DataFrame, exclude: set[str]) -> list[str]:
    """Columns that look like factors: few levels, not free text, not continuous numbers."""
    n = len(pairs)
    out = []
    for c in pairs.columns:
        if c in exclude or c == LINE:
            continue
        col = pairs[c]
        levels = col.nunique()
        numeric = pd.to_numeric(col, errors="coerce").notna().all()
        if numeric and levels > 10:
            continue
        if 1 <= levels <= max(2, min(100, n // 5)):
            out.append(c)
    return out


def read_candidates(inputs: Sequence[Path], spec: CandidateColumns | None = None) -> CandidateData:
    """Read the pairs table and the labels (see the module docstring)."""
    spec = spec or CandidateColumns()
    errors: list[ReaderError] = []
    warnings: list[ReaderError] = []
    files = expand(inputs)
    (pairs_df, pairs_path), labels_found = _find_tables(files, spec, warnings)
    pairs = _pairs_table(pairs_df, pairs_path, spec, errors)
    exclude = {"pair_id", "target_text", "source_text", "target_lemma", "source_lemma", "overlap"}
    factors = _factor_candidates(pairs, exclude)
    if labels_found is None:
        raise ReaderError(
            pairs_path,
            None,
            "no labels were given (a long pair_id/annotator/label table or a wide one).",
        )
    labels_df, labels_path = labels_found
    labels, annotators = _labels_table(labels_df, labels_path, spec, errors, warnings)
    labels = _labels_of_pairs(labels, labels_df, labels_path, pairs, spec, errors, warnings)
    return CandidateData(
        pairs,
        labels,
        annotators,
        factors,
        pairs_path,
        labels_path,
        errors,
        warnings,
        long_responses(labels_df, spec, pairs, annotators),
    )


#: the names a long labels table's columns are given in :attr:`CandidateData.responses`
RESPONSE_COLUMNS = ("pair_id", "annotator", "label")


def long_responses(
    df: pd.DataFrame, spec: CandidateColumns, pairs: pd.DataFrame, annotators: Sequence[str]
) -> pd.DataFrame | None:
    """Every non-empty label of a long labels table (None when the table is wide), repeats
    included, in file order, under the names :data:`RESPONSE_COLUMNS` beside the file's other
    columns; labels of pairs missing from the pairs table and of annotators left out are
    dropped, as the labels table drops them."""
    cols = [c for c in df.columns if c != LINE]
    c_id = pick_column(cols, spec.pair_id, ("pair_id", "pair", "id", "item"), ("id",))
    c_ann = pick_column(cols, spec.annotator, ("annotator", "coder", "rater", "user"))
    c_lab = pick_column(cols, spec.label, ("label", "judgment", "decision", "value"))
    if not (c_id and c_ann and c_lab):
        return None
    named = {c_id: "pair_id", c_ann: "annotator", c_lab: "label"}
    other = [c for c in df.columns if c not in named and c not in RESPONSE_COLUMNS]
    out = df[[c_id, c_ann, c_lab, *other]].rename(columns=named)
    out["pair_id"] = out["pair_id"].astype(str)
    out["annotator"] = out["annotator"].astype(str)
    out["label"] = out["label"].fillna("").astype(str).str.strip()
    keep = (
        (out["label"] != "")
        & out["pair_id"].isin(set(pairs["pair_id"].astype(str)))
        & out["annotator"].isin(set(annotators))
    )
    return out[keep].reset_index(drop=True)


Found = tuple[pd.DataFrame, Path]  # a table and its file


def _find_tables(
    files: Sequence[Path], spec: CandidateColumns, warnings: list[ReaderError]
) -> tuple[Found, Found | None]:
    """The pairs table (the first with target and source text columns) and the labels table
    (the first other one; a further one is ignored with a warning)."""
    pairs: Found | None = None
    labels: Found | None = None
    for f in files:
        df = read_table(f)
        cols = [c for c in df.columns if c != LINE]
        t, s = _text_columns(cols, spec)
        if t and s and pairs is None:
            pairs = (df, f)
        elif labels is None:
            labels = (df, f)
        else:
            warnings.append(
                ReaderError(f, None, "more than one labels table was given; this one is ignored.")
            )
    if pairs is None:
        raise ReaderError(
            ", ".join(map(str, files)) or None,
            None,
            "no pairs table was found (a table with target and source text columns).",
        )
    return pairs, labels


def _pairs_table(
    df: pd.DataFrame, path: Path, spec: CandidateColumns, errors: list[ReaderError]
) -> pd.DataFrame:
    """The pairs with their columns under the standard names (``pair_id``, ``target_text``,
    ``source_text``, ``target_lemma``, ``source_lemma``), a repeated id's later rows left out."""
    cols = [c for c in df.columns if c != LINE]
    c_id = pick_column(cols, spec.pair_id, ("pair_id", "pair", "id", "item"), ("id",))
    c_t, c_s = _text_columns(cols, spec)
    if c_id is None:
        raise ReaderError(path, 1, "the pairs table has no pair id column (e.g. 'pair_id').")
    c_tl = pick_column(
        cols, spec.target_lemma, ("target_lemma", "target_lemmas"), ("target", "lemma")
    )
    c_sl = pick_column(
        cols, spec.source_lemma, ("source_lemma", "source_lemmas"), ("source", "lemma")
    )
    df = _first_rows_only(
        df,
        c_id,
        path,
        errors,
        lambda pid, n: (
            f"the pair id '{pid}' appears twice in the pairs table; "
            f"only its first row is used ({n} repeated ids)."
        ),
    )
    texts = {c_t: "target_text", c_s: "source_text"}
    pairs = df.rename(columns={c_id: "pair_id", **texts})
    for column, name in ((c_tl, "target_lemma"), (c_sl, "source_lemma")):
        if not column:
            continue
        if column in texts:  # a text column named as the lemmas too: its words are the lemmas
            pairs[name] = pairs[texts[column]]
        else:
            pairs = pairs.rename(columns={column: name})
    return pairs.reset_index(drop=True)


def _first_rows_only(
    df: pd.DataFrame,
    column: str,
    path: Path | None,
    errors: list[ReaderError],
    message: Callable[[Any, int], str],
) -> pd.DataFrame:
    """``df`` without the rows whose ``column`` repeats an earlier row's; an error at the first
    such row, ``message(value, number of repeated rows)``."""
    dup = df[column].duplicated(keep="first")
    if not dup.any():
        return df
    r = df[dup].iloc[0]
    errors.append(ReaderError(path, int(r[LINE]), message(r[column], int(dup.sum()))))
    return df[~dup]


def _labels_of_pairs(
    labels: pd.DataFrame,
    labels_df: pd.DataFrame,
    labels_path: Path,
    pairs: pd.DataFrame,
    spec: CandidateColumns,
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> pd.DataFrame:
    """The labels in the order of the pairs: labels of unknown pairs left out (an error at the
    first one's line), pairs nobody labelled kept with empty labels (a warning)."""
    known = labels.index.isin(pairs["pair_id"])
    if not known.all():
        missing = list(labels.index[~known])
        c_lab_id = pick_column(
            [c for c in labels_df.columns if c != LINE],
            spec.pair_id,
            ("pair_id", "pair", "id", "item"),
            ("id",),
        )
        first: Any = (
            labels_df[LINE][labels_df[c_lab_id].astype(str).str.strip() == str(missing[0])]
            if c_lab_id
            else []
        )
        errors.append(
            ReaderError(
                labels_path,
                int(first.iloc[0]) if len(first) else None,
                f"{len(missing)} labelled pair(s) are not in the pairs table and are left out: "
                + ", ".join(map(str, missing[:10]))
                + (" …" if len(missing) > 10 else ""),
            )
        )
        labels = labels[known]
    labels = labels.reindex(pairs["pair_id"]).fillna("")
    unlabelled = (labels == "").all(axis=1)
    if unlabelled.any():
        warnings.append(
            ReaderError(
                labels_path,
                None,
                f"{int(unlabelled.sum())} pair(s) have no labels: "
                + ", ".join(map(str, list(labels.index[unlabelled])[:10])),
            )
        )
    return labels


def _labels_table(
    df: pd.DataFrame,
    path: Path | None,
    spec: CandidateColumns,
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """Pair id × annotator labels (text, "" = none) from a long or a wide labels table."""
    cols = [c for c in df.columns if c != LINE]
    c_id = pick_column(cols, spec.pair_id, ("pair_id", "pair", "id", "item"), ("id",))
    if c_id is None:
        raise ReaderError(path, 1, "the labels table has no pair id column (e.g. 'pair_id').")
    c_ann = pick_column(cols, spec.annotator, ("annotator", "coder", "rater", "user"))
    c_lab = pick_column(cols, spec.label, ("label", "judgment", "decision", "value"))
    if c_ann and c_lab:
        wide, annotators = _long_labels(df, path, (c_id, c_ann, c_lab), errors, warnings)
    else:
        ann_cols = [c for c in cols if c != c_id]
        if not ann_cols:
            raise ReaderError(
                path,
                1,
                "the labels table needs 'annotator' and 'label' columns (long) or one column per annotator (wide).",
            )
        df = _first_rows_only(
            df,
            c_id,
            path,
            errors,
            lambda pid, _n: (
                f"pair '{pid}' has two rows in the wide labels table; only the first is used."
            ),
        )
        wide = df.set_index(c_id)[ann_cols]
        annotators = tuple(ann_cols)
    wide.index = wide.index.astype(str)
    wide.index.name = "pair_id"
    wide = wide.fillna("").astype(str).apply(lambda s: s.str.strip())
    named = (
        tuple(dict.fromkeys(str(a).strip() for a in df[c_ann] if str(a).strip()))
        if c_ann and c_lab
        else annotators
    )
    empty = [a for a in named if a not in wide.columns or (wide[a] == "").all()]
    for a in empty:  # nothing read of them: a problem, and left out rather than scored
        errors.append(
            ReaderError(
                path,
                None,
                f"no labels were read for annotator '{a}': every label is empty. Left out.",
            )
        )
    keep = tuple(a for a in annotators if a not in empty)
    return wide[list(keep)], keep


def _long_labels(
    df: pd.DataFrame,
    path: Path | None,
    columns: tuple[str, str, str],
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """Pair id × annotator labels of a long table (pair id, annotator, label columns): a label
    given twice the same is counted once (a warning), two different ones both left out (errors)."""
    c_id, c_ann, c_lab = columns
    long = df[[c_id, c_ann, c_lab, LINE]].rename(
        columns={c_id: "pair_id", c_ann: "annotator", c_lab: "label"}
    )
    long = long[long["label"].str.strip() != ""]
    key = ["pair_id", "annotator"]
    dup = long.duplicated(key, keep=False)
    if dup.any():
        d = long[dup]
        same = d.groupby(key, sort=False)["label"].transform("nunique") == 1
        conflicts = d[~same].drop_duplicates(key, keep="last")
        for r in conflicts.head(20).to_dict("records"):
            errors.append(
                ReaderError(
                    path,
                    int(r[LINE]),
                    f"annotator '{r['annotator']}' labelled pair '{r['pair_id']}' twice "
                    "with different labels; both labels are left out.",
                )
            )
        drop = list(d.index[~same]) + list(d[same].index[d[same].duplicated(key, keep="first")])
        repeats = d[same][d[same].duplicated(key, keep="first")]
        if len(repeats):
            warnings.append(
                ReaderError(
                    path,
                    int(repeats[LINE].iloc[0]),
                    f"{len(repeats)} repeated identical label(s) counted once (the first here).",
                )
            )
        long = long.drop(index=drop)
    wide = long.pivot(index="pair_id", columns="annotator", values="label")
    annotators = tuple(str(a) for a in pd.unique(long["annotator"]))
    return wide[list(annotators)], annotators


def encode_labels(labels: pd.DataFrame) -> tuple[NDArray[Any], list[str]]:
    """``(codes, categories)``: integer codes (-1 = no label) of an items × annotators label table."""
    # Python strings (an object array), never a fixed-width string array: that one would take
    # the longest label's width for every cell (one label of 60,000 characters among 10,000
    # pairs: gigabytes)
    flat = pd.Series(labels.to_numpy(dtype=object).ravel()).fillna("").astype(str)
    raw_codes, uniques = pd.factorize(flat, sort=False)
    raw = [str(u) for u in uniques]
    cats = sorted((u for u in raw if u != ""), key=lambda s: (_num(s), s))
    index = {c: k for k, c in enumerate(cats)}
    lookup = np.array([index.get(u, -1) for u in raw] + [-1], dtype=np.int32)
    codes = lookup[raw_codes].reshape(labels.shape)  # factorize's -1 picks the final -1
    return codes, cats


def label_order(labels: Sequence[Any]) -> list[str]:
    """The distinct non-empty labels in the order :func:`encode_labels` numbers categories
    (numbers by value, then text)."""
    return sorted({str(x) for x in labels if str(x) != ""}, key=lambda s: (_num(s), s))


def _num(s: str) -> float:
    try:
        return float(s)
    except ValueError:
        return float("inf")

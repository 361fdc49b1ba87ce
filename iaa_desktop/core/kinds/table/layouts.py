"""Table layouts that are not one judgment per cell, and annotation tools' exports.

Agreement textbooks and R packages print data in layouts the generic reader would misread:

* a **contingency table** of two annotators (Cohen 1960): categories × categories, each cell
  the number of items the row annotator put in the row category and the column annotator in the
  column category;
* a **count table** (Fleiss 1971, Table 1): subjects × categories, each cell the number of
  annotators who put the subject in that category (every row sums to the number of annotators);
* **triples** without a header, ``coder item label`` separated by spaces or tabs (the file
  format of NLTK's ``AnnotationTask``).

Each is recognised only from a clear signal (see :func:`detect`); otherwise the user names it
with ``--layout``. A JSON or JSONL file is read by the annotation tool's parser
(:mod:`iaa_desktop.core.formats`): Label Studio, Prodigy, doccano. Every layout becomes the
same long frame (``item``, ``annotator``, ``label``, metadata, ``__line__``).
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pandas as pd

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats import identify
from iaa_desktop.core.formats.model import Judgment, Parsed
from iaa_desktop.core.tabular import LINE, sniff_delimiter
from iaa_desktop.core.textio import read_text

JSON_FORMATS = ("label-studio", "prodigy", "doccano")
_INT = re.compile(r"^\s*\d{1,18}\s*$")  # a count: 19 digits and more do not fit an int64
#: most judgments a contingency or count table may expand to (each count becomes that many rows)
MAX_EXPANDED = 5_000_000
_HEADER_WORDS = {
    "item",
    "items",
    "unit",
    "units",
    "coder",
    "coders",
    "annotator",
    "rater",
    "label",
    "labels",
    "category",
    "value",
    "id",
    "item_id",
    "subject",
    "subjects",
}


def looks_like_json(head: str) -> bool:
    return head.lstrip("\ufeff \t\r\n").startswith(("[", "{"))


# -- JSON exports of annotation tools ---------------------------------------------------------


def sniff_export(path: Path) -> bool:
    """Whether ``path`` is a Label Studio / Prodigy / doccano export of judgments of items.

    Span annotations in these formats belong to span studies, not here: a file whose first
    records carry spans is not claimed.
    """
    from iaa_desktop.core.formats import read_head

    head = read_head(path)
    if not looks_like_json(head):
        return False
    fits = identify(path, head)
    if not any(fits.get(f) is None for f in JSON_FORMATS):
        return False
    span_markers = (
        '"type": "labels"',
        '"type":"labels"',
        '"spans"',
        '"entities"',
        '"start_offset"',
    )
    if any(m in head for m in span_markers):
        return False
    return not re.search(r'"labels?"\s*:\s*\[\s*\[', head)


def read_tool_export(
    path: Path, head: str, question: str | None
) -> tuple[pd.DataFrame, list[ReaderError]]:
    """The long frame of a Label Studio / Prodigy / doccano file and its warnings."""
    fits = identify(path, head)
    name = next((f for f in JSON_FORMATS if fits.get(f) is None), None)
    if name is None:
        tried = "; ".join(f"{f}: {fits[f]}" for f in JSON_FORMATS)
        raise ReaderError(
            path,
            None,
            "a JSON file, but not one of the annotation tools' exports read here "
            f"(formats tried — {tried}).",
        )
    from iaa_desktop.core.formats import doccano, label_studio, prodigy

    module = {"label-studio": label_studio, "prodigy": prodigy, "doccano": doccano}[name]
    parsed: Parsed = module.parse(path)
    return judgments_frame(path, parsed, question)


def judgments_frame(
    path: Path, parsed: Parsed, question: str | None
) -> tuple[pd.DataFrame, list[ReaderError]]:
    """One question's judgments as the long frame; multiple choices and span tasks are refused."""
    warnings = list(parsed.errors) + list(parsed.warnings)
    questions = list(dict.fromkeys(j.question for j in parsed.judgments))
    if question:
        if question not in questions:
            raise ReaderError(
                path,
                None,
                f"no question named '{question}' (the file has: {', '.join(questions)}).",
            )
        chosen = question
    else:
        chosen = questions[0]
        if len(questions) > 1:
            warnings.append(
                ReaderError(
                    path,
                    None,
                    f"{len(questions)} questions ({', '.join(questions)}); '{chosen}' is compared — "
                    "choose another with --question.",
                )
            )
    js = [j for j in parsed.judgments if j.question == chosen]
    if chosen == "spans" and all(not j.choices and j.rating is None for j in js):
        raise ReaderError(
            path,
            None,
            f"{parsed.format}: these are span annotations, not judgments of items; open them as "
            "a span study (--kind spans).",
        )
    multi = [j for j in js if len(j.choices) > 1]
    if multi:
        raise ReaderError(
            path,
            multi[0].line,
            f"item {multi[0].item}: {len(multi[0].choices)} choices by {multi[0].annotator} "
            "(a multiple-choice question); open it as a multi-label study (--kind multilabel).",
        )
    meta_keys = list(dict.fromkeys(k for j in js for k, _ in j.metadata))
    rows = [_row(j, meta_keys) for j in js]
    frame = pd.DataFrame(rows, columns=["item", "annotator", "label", *meta_keys, LINE])
    return frame, warnings


def _row(j: Judgment, meta_keys: list[str]) -> list[Any]:
    if j.rating is not None:
        label = f"{j.rating:g}"
    else:
        label = j.choices[0] if j.choices else ""
    meta = dict(j.metadata)
    return [j.item, j.annotator, label, *(meta.get(k, "") for k in meta_keys), j.line or 0]


# -- text layouts -------------------------------------------------------------------------------


def _rows(path: Path, text: str, delim: str) -> list[list[str]]:
    reader = csv.reader(io.StringIO(text), delimiter=delim)
    try:
        return [[c.strip() for c in row] for row in reader if any(c.strip() for c in row)]
    except csv.Error as e:  # a bare carriage return inside a field, a NUL byte
        raise ReaderError(path, reader.line_num or 1, f"the table is malformed ({e}).") from None


def _triples(text: str) -> list[tuple[int, list[str]]] | None:
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            fields = line.split()
            if len(fields) != 3:
                return None
            out.append((n, fields))
    return out or None


def detect(path: Path, text: str, contingency: bool = True) -> tuple[str, str] | None:
    """``(layout, reason)`` when the text shows a special layout clearly, else ``None``.

    ``contingency=False`` looks for triples only (``text`` is then the start of a long file).
    """
    triples = _triples(text)
    if triples and len(triples) >= 2:
        first = [f.lower() for f in triples[0][1]]
        coders = [f[0] for _, f in triples]
        if not set(first) & _HEADER_WORDS and coders.count(coders[0]) > 1:
            return "triples", "three fields a line and no header (coder item label)"
    if not contingency:
        return None
    delim = sniff_delimiter(path, text)
    try:
        rows = _rows(path, text, delim)
    except ReaderError:  # no special layout; the table reader reports what is wrong
        return None
    if len(rows) < 2:
        return None
    header, body = rows[0], rows[1:]
    row_labels = [r[0] for r in body]
    if (
        len(header) == len(body) + 1
        and all(len(r) == len(header) for r in body)
        and all(_INT.match(c) for r in body for c in r[1:])
        and row_labels == header[1:]
    ):
        return "contingency", "the row labels are the column labels and every cell is a count"
    if (
        len(header) == len(body)
        and header[0].lower() not in _HEADER_WORDS
        and all(len(r) == len(header) for r in body)
        and all(_INT.match(c) for r in body for c in r)
    ):
        raise ReaderError(
            path,
            None,
            f"a square {len(body)}×{len(header)} table of whole numbers without row labels: "
            "a contingency table of two annotators (--layout contingency) or one column of "
            "ratings per annotator (--layout wide-no-item)? Name the layout.",
        )
    return None


def counts_signal(frame: pd.DataFrame, cols: list[str]) -> int | None:
    """The number of annotators when every row of ``cols`` holds counts summing to it.

    A clear signal of a Fleiss-style count table: at least four rows, every cell a whole number,
    the same row sum n ≥ 2 in every row, and some cell ≥ 2 (a row of ratings rarely does all
    three).
    """
    if len(frame) < 4 or len(cols) < 2:
        return None
    cells = frame[cols]
    if not cells.map(lambda c: bool(_INT.match(str(c)))).all().all():
        return None
    values = cells.astype(int)
    sums = values.sum(axis=1)
    n = int(sums.iloc[0])
    if n < 2 or not (sums == n).all() or int(values.to_numpy().max()) < 2:
        return None
    if len(values.drop_duplicates()) < 2:
        return None  # every row the same: as likely ratings in perfect agreement
    return n


def from_triples(path: Path, text: str) -> pd.DataFrame:
    rows = _triples(text)
    if rows is None:
        bad = next(
            (
                n
                for n, line in enumerate(text.splitlines(), 1)
                if line.strip() and len(line.split()) != 3
            ),
            None,
        )
        raise ReaderError(path, bad, "not three fields (coder item label) on this line.")
    return pd.DataFrame(
        [[f[1], f[0], f[2], n] for n, f in rows], columns=["item", "annotator", "label", LINE]
    )


def from_contingency(path: Path, text: str) -> tuple[pd.DataFrame, str]:
    """Two annotators' judgments expanded from a categories × categories count table."""
    rows = _rows(path, text, sniff_delimiter(path, text))
    header, body = rows[0], rows[1:]
    has_row_labels = len(header) == len(body) + 1 or not _INT.match(body[0][0])
    cats_cols = header[1:] if has_row_labels else header
    out: list[list[Any]] = []
    for k, r in enumerate(body):
        line = k + 2
        cells = r[1:] if has_row_labels else r
        row_cat = r[0] if has_row_labels else cats_cols[k] if k < len(cats_cols) else str(k + 1)
        if len(cells) != len(cats_cols):
            raise ReaderError(path, line, f"{len(cells)} counts, the header has {len(cats_cols)}.")
        for col_cat, cell in zip(cats_cols, cells, strict=True):
            if not _INT.match(cell):
                raise ReaderError(path, line, f"'{cell}' is not a count (a whole number ≥ 0).")
            _check_total(path, line, len(out) // 2 + int(cell))
            for _ in range(int(cell)):
                item = str(len(out) // 2 + 1)
                out.append([item, "rows", row_cat, line])
                out.append([item, "columns", col_cat, line])
    if not out:
        raise ReaderError(path, None, "every count of the contingency table is 0.")
    frame = pd.DataFrame(out, columns=["item", "annotator", "label", LINE])
    return frame, f"{len(out) // 2} items from a {len(body)}×{len(cats_cols)} contingency table"


def _check_total(path: Path, line: int, total: int) -> None:
    if total > MAX_EXPANDED:
        raise ReaderError(
            path,
            line,
            f"the counts add up to more than {MAX_EXPANDED:,} judgments; is this a count table?",
        )


#: ``DataFrame.attrs`` key of the categories a count table's header declares
DECLARED = "declared_categories"


def from_counts(path: Path, frame: pd.DataFrame, item_col: str | None) -> pd.DataFrame:
    """Judgments expanded from a subjects × categories count table (Fleiss 1971).

    The count table does not say who chose what: the annotators are numbered within each subject
    in the order of the categories, which leaves every coefficient that treats annotators as
    exchangeable (Fleiss' κ, Krippendorff's α, AC1, percent agreement) exact.
    """
    cats = [c for c in frame.columns if c not in (LINE, item_col)]
    out: list[list[Any]] = []
    for pos, (_, row) in enumerate(frame.iterrows(), start=1):
        item = str(row[item_col]) if item_col else str(pos)
        k = 0
        for cat in cats:
            cell = str(row[cat]).strip() or "0"
            if not _INT.match(cell):
                raise ReaderError(path, int(row[LINE]), f"'{cell}' is not a count.")
            _check_total(path, int(row[LINE]), len(out) + int(cell))
            for _ in range(int(cell)):
                k += 1
                out.append([item, f"rater {k}", cat, int(row[LINE])])
    long = pd.DataFrame(out, columns=["item", "annotator", "label", LINE])
    # every column of a count table is a declared category, chosen or not (Fleiss 1971, Table 1)
    long.attrs[DECLARED] = tuple(str(c) for c in cats)
    return long


def read_text_for_layout(path: Path) -> str:
    return read_text(path)

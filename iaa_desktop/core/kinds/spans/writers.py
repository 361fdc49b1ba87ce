"""Gold spans written in the inputs' format: brat standoff or a span table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from iaa_desktop.core.io import safe_filename, write_text_atomic
from iaa_desktop.core.kinds.spans.readers import Span
from iaa_desktop.core.kinds.spans.relations import Relation


def covered(text: str | None, s: Span) -> str:
    """The text of a span as brat writes it (fragments joined by a space; newlines as spaces)."""
    if not text:
        return ""
    return " ".join(text[a:b] for a, b in s.fragments).replace("\n", " ")


def brat_lines(text: str | None, spans: list[Span]) -> list[str]:
    return [
        f"T{k}\t{s.label} {';'.join(f'{a} {b}' for a, b in s.fragments)}\t{covered(text, s)}"
        for k, s in enumerate(spans, 1)
    ]


def relation_lines(spans: list[Span], relations: list[Relation]) -> list[str]:
    """``R`` lines of ``relations`` between ``spans`` (``T<k>`` the k-th span, from 1); a link
    whose argument is not among the spans is not written."""
    ids: dict[tuple[tuple[int, int], ...], int] = {}
    for k, s in enumerate(spans, 1):
        ids.setdefault(s.fragments, k)
    return [
        f"R{n}\t{r.label} Arg1:T{ids[r.source]} Arg2:T{ids[r.target]}\t"
        for n, r in enumerate((r for r in relations if r.source in ids and r.target in ids), 1)
    ]


def write_brat(
    corpus: Any,
    spans: dict[int, list[Span]],
    folder: Path,
    relations: dict[int, list[Relation]] | None = None,
) -> list[Path]:
    """``<document>.ann`` and ``<document>.txt`` per document (subfolders kept); with
    ``relations``, an ``R`` line per relation."""
    written = []
    for d, name in enumerate(corpus.names):
        text = corpus.texts[d]
        ann = folder / f"{name}.ann"
        if not ann.resolve().is_relative_to(folder.resolve()):
            ann = folder / f"{safe_filename(name)}.ann"  # nothing is written outside the folder
        ann.parent.mkdir(parents=True, exist_ok=True)
        lines = brat_lines(text, spans.get(d, []))
        if relations and relations.get(d):
            lines += relation_lines(spans.get(d, []), relations[d])
        write_text_atomic(ann, "\n".join(lines) + "\n")
        written.append(ann)
        if text is not None:
            txt = ann.with_suffix(".txt")
            write_text_atomic(txt, text)
            written.append(txt)
    return written


def gold_frame(corpus: Any, spans: dict[int, list[Span]]) -> pd.DataFrame:
    rows = [
        {
            "document": name,
            "start": a,
            "end": b,
            "label": s.label,
            "text": (corpus.texts[d] or "")[a:b],
        }
        for d, name in enumerate(corpus.names)
        for s in spans.get(d, [])
        for a, b in s.fragments
    ]
    return pd.DataFrame(rows, columns=["document", "start", "end", "label", "text"])


def write_table(corpus: Any, spans: dict[int, list[Span]], folder: Path) -> list[Path]:
    """One table ``gold.csv``: document, start, end, label, text (a discontinuous span gives a
    row per fragment)."""
    from iaa_desktop.core.io import write_csv

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / safe_filename("gold.csv")
    write_csv(gold_frame(corpus, spans), path)
    return [path]

"""Gold spans written in the inputs' format: brat standoff or a span table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from iaa_desktop.core.io import safe_filename, write_text_atomic
from iaa_desktop.core.kinds.spans.readers import Span


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


def write_brat(corpus: Any, spans: dict[int, list[Span]], folder: Path) -> list[Path]:
    """``<document>.ann`` and ``<document>.txt`` per document (subfolders kept)."""
    written = []
    for d, name in enumerate(corpus.names):
        text = corpus.texts[d]
        ann = folder / f"{name}.ann"
        if not ann.resolve().is_relative_to(folder.resolve()):
            ann = folder / f"{safe_filename(name)}.ann"  # nothing is written outside the folder
        ann.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(ann, "\n".join(brat_lines(text, spans.get(d, []))) + "\n")
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

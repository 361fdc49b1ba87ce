"""Small writers shared by the gold exports (same delimiter as the input, atomic writes)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.io import write_csv


def delimiter_for(path: str | Path) -> str:
    """The delimiter of a table file as the readers sniff it (tab for .tsv/.tab)."""
    from iaa_desktop.core.tabular import read_table_text, sniff_delimiter

    p = Path(path)
    if p.suffix.lower() in (".tsv", ".tab"):
        return "\t"
    if p.suffix.lower() in (".xlsx", ".xlsm", ".xls"):
        return "\t"
    try:
        return sniff_delimiter(p, read_table_text(p))
    except IaaError:
        return ","


def table_suffix(path: str | Path) -> str:
    """Suffix for a gold table written after ``path`` (spreadsheets become TSV)."""
    s = Path(path).suffix.lower()
    return s if s in (".csv", ".tsv", ".txt", ".tab") else ".tsv"


def write_table(df: pd.DataFrame, path: Path, sep: str) -> Path:
    """Write a gold table atomically through :func:`~iaa_desktop.core.io.write_csv`: formula
    injection neutralised, quoting only where a cell needs it (the annotation formats use none)."""
    return write_csv(df, path, index=False, sep=sep)


def free_name(name: str, taken: tuple[str, ...] | list[str]) -> str:
    """``name``, or ``name_2``… when an annotator is already called that."""
    if name not in taken:
        return name
    k = 2
    while f"{name}_{k}" in taken:
        k += 1
    return f"{name}_{k}"

"""The shape of a judgment-table study's inputs the gold table is written in, taken when the
inputs are read (the gold writer never reads them again).

A long table gets rows of annotator ``gold``, a wide table a ``gold`` column, one-file-per-
annotator inputs a ``gold`` file; tool exports, triples, contingency and count tables a long
table (item, annotator, label) that opens as any other long table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from iaa_desktop.core.kinds.table.reader import FILE, Judgments, SourceTable

#: layouts whose gold table takes the first input's header, delimiter and suffix
SAME_SHAPE = ("long", "wide", "per-annotator")
_SPREADSHEET = (".tsv", ".tab", ".xlsx", ".xlsm", ".xls")


@dataclass(frozen=True)
class GoldLayout:
    """What the gold writer needs of the inputs.

    ``layout`` is the first layout read (long, wide, per-annotator or another one); ``source``
    the first input file (the one of the first judgment) with its header and delimiter when it
    was read as a table; ``firsts`` the first row of each item (its item and metadata columns)
    in input order; ``annotator`` and ``label`` the columns the user named (``None``: found
    from the header).
    """

    layout: str
    first_file: Path
    source: SourceTable | None
    item_columns: tuple[str, ...]
    metadata_columns: tuple[str, ...]
    firsts: pd.DataFrame = field(repr=False)
    annotator: str | None = None
    label: str | None = None

    @property
    def delimiter(self) -> str:
        """The first input's delimiter (tab for TSV and spreadsheets, as the readers read them)."""
        if self.first_file.suffix.lower() in _SPREADSHEET:
            return "\t"
        if self.source is None:  # not read as a table (inputs of several layouts): sniffed
            from iaa_desktop.core.adjudication.gold_io import delimiter_for

            return delimiter_for(self.first_file)
        return self.source.delimiter or ","

    @property
    def header(self) -> list[str]:
        """The first input's columns (without the line-number column)."""
        if self.source is None:  # not read as a table (inputs of several layouts)
            from iaa_desktop.core.tabular import LINE, read_table

            return [str(c) for c in read_table(self.first_file).columns if c != LINE]
        return list(self.source.header)


def gold_layout(
    judgments: Judgments, annotator: str | None = None, label: str | None = None
) -> GoldLayout:
    """The :class:`GoldLayout` of what was read (``annotator`` and ``label``: the columns the
    user named, if any)."""
    frame = judgments.frame
    item_cols = list(judgments.item_columns)
    meta = list(judgments.metadata_columns)
    first_file = str(frame[FILE].iloc[0])
    keep = [c for c in dict.fromkeys([*item_cols, *meta]) if c in frame.columns]
    firsts = frame.drop_duplicates(item_cols, keep="first")[keep].reset_index(drop=True)
    return GoldLayout(
        judgments.layout.split("+")[0],
        Path(first_file),
        judgments.sources.get(first_file),
        tuple(item_cols),
        tuple(meta),
        firsts,
        annotator,
        label,
    )

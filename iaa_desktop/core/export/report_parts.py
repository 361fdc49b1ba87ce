"""What a report is made of: the sections a kind contributes (:class:`KindReport`), the
settings of one rendering (:class:`ReportContext`) and the adjudication figures it may show.

The kinds' report modules and the generic section build these; :mod:`.report` assembles them
into the document.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from iaa_desktop.core.export.summary import SummaryRow

__all__ = ["MAX_TABLE_ROWS", "AdjudicationSummary", "KindReport", "ReportContext", "Section"]

#: rows of a "worst first" table in the document (the CSV has them all)
MAX_TABLE_ROWS = 40


@dataclass
class Section:
    """A titled part of the report; ``html`` is already escaped markup."""

    title: str
    html: str
    level: int = 2
    anchor: str = ""


@dataclass
class KindReport:
    """What a kind contributes to the report."""

    summary: list[SummaryRow] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    #: methods paragraphs (escaped markup) and the reference keys they cite
    methods: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    annotators: list[str] = field(default_factory=list)
    #: tables behind the charts and tables of the report that ``result.tables()`` lacks
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    summary_caption: str = ""


@dataclass
class AdjudicationSummary:
    """Adjudication figures for the report (all optional).

    ``overruled``: annotator → number of decisions where the gold differs from that annotator;
    ``agreement_with_gold``: annotator → (measure name, value).
    """

    resolved: int = 0
    open: int = 0
    overruled: Mapping[str, int] = field(default_factory=dict)
    agreement_with_gold: Mapping[str, tuple[str, float]] = field(default_factory=dict)
    store: str = ""


@dataclass
class ReportContext:
    """Settings of one report rendering."""

    title: str = ""
    paper: str = "a4"
    generated: _dt.datetime | None = None
    adjudication: AdjudicationSummary | None = None
    max_rows: int = MAX_TABLE_ROWS
    with_toc: bool = False
    charts: bool = True

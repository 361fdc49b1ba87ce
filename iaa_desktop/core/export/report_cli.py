"""Command-line options of the report: ``--pdf FILE``, ``--html FILE``, ``--paper a4|letter``.

Registered in :mod:`iaa_desktop.cli` through ``OUTPUT_EXTENSIONS`` / ``OUTPUT_WRITERS``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_report_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("report")
    g.add_argument("--pdf", metavar="FILE", type=Path, help="write the agreement report as PDF")
    g.add_argument(
        "--html",
        metavar="FILE",
        type=Path,
        help="write the agreement report as HTML (for the web and e-mail)",
    )
    g.add_argument(
        "--paper", choices=("a4", "letter"), help="paper size of the PDF (default: from the locale)"
    )
    g.add_argument(
        "--adjudication",
        dest="adjudication_store",
        metavar="STORE",
        type=Path,
        help="adjudication store (.adjudication.sqlite) whose record the report includes",
    )
    g.add_argument(
        "--title",
        dest="report_title",
        metavar="TEXT",
        help="study name in the report (default: the input's name)",
    )


def write_report_outputs(ns: argparse.Namespace, result: Any) -> list[Path]:
    pdf, html_out = getattr(ns, "pdf", None), getattr(ns, "html", None)
    csv_dir = getattr(ns, "csv_dir", None)
    if not pdf and not html_out and not csv_dir:
        return []
    from iaa_desktop.core.export.report import (
        adjudication_from_store,
        write_report,
        write_report_tables,
    )

    store = getattr(ns, "adjudication_store", None)
    adjudication = adjudication_from_store(result, store) if store else None
    if not pdf and not html_out and csv_dir:
        # --csv alone still holds the report's tables (summary with interpretation, worst-first
        # tables, tables behind the charts): built without charts or layout, a few milliseconds
        return write_report_tables(result, csv_dir, adjudication=adjudication)
    # the report's own tables (summary with interpretation, tables behind the charts) join --csv
    return write_report(
        result,
        pdf_path=pdf,
        html_path=html_out,
        paper=getattr(ns, "paper", None),
        title=getattr(ns, "report_title", None) or "",
        adjudication=adjudication,
        csv_dir=csv_dir,
    )


def register(extensions: list[Any], writers: list[Any]) -> None:
    if add_report_options not in extensions:
        extensions.append(add_report_options)
    if write_report_outputs not in writers:
        writers.append(write_report_outputs)

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
        help="adjudication store (.adjudication.sqlite) whose record the report, the --json "
        "document and the console's summary include",
    )
    g.add_argument(
        "--title",
        dest="report_title",
        metavar="TEXT",
        help="study name in the report (default: the input's name)",
    )


def _adjudication(ns: argparse.Namespace, result: Any) -> Any:
    """The ``--adjudication`` store's record for ``result`` (read once), ``None`` without one."""
    store = getattr(ns, "adjudication_store", None)
    if not store:
        return None
    if getattr(ns, "_adjudication_record", None) is None:
        from iaa_desktop.core.export.report import adjudication_from_store

        ns._adjudication_record = adjudication_from_store(result, store)
    return ns._adjudication_record


def report_records(
    ns: argparse.Namespace, result: Any
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The adjudication record as the ``--json`` document's ``adjudication`` key and as a
    headline line, when ``--adjudication`` names a store."""
    summary = _adjudication(ns, result)
    if summary is None:
        return {}, []
    total = summary.resolved + summary.open
    record = {
        "store": summary.store,
        "resolved": summary.resolved,
        "open": summary.open,
        "overruled": dict(summary.overruled),
        "agreement_with_gold": {
            who: {"measure": measure, "value": value}
            for who, (measure, value) in summary.agreement_with_gold.items()
        },
    }
    return {"adjudication": record}, [
        ("adjudication", f"{summary.resolved:,} of {total:,} units resolved")
    ]


def write_report_outputs(ns: argparse.Namespace, result: Any) -> list[Path]:
    pdf, html_out = getattr(ns, "pdf", None), getattr(ns, "html", None)
    csv_dir = getattr(ns, "csv_dir", None)
    if not pdf and not html_out and not csv_dir:
        return []
    from iaa_desktop.core.export.report import write_report, write_report_tables

    adjudication = _adjudication(ns, result)
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


def register(extensions: list[Any], writers: list[Any], records: list[Any] | None = None) -> None:
    if add_report_options not in extensions:
        extensions.append(add_report_options)
    if write_report_outputs not in writers:
        writers.append(write_report_outputs)
    if records is not None and report_records not in records:
        records.append(report_records)

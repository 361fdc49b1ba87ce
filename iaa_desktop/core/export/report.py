"""The agreement report: one HTML document (and its PDF) built from a result and its settings.

Layout: a title block (study, annotators, input files with SHA-256, date, version), a
methods paragraph written from the options actually used, the summary table with intervals and an
interpretation column, per-kind sections (tables worst first, charts as vector SVG, the kind's own
tables), an optional adjudication section, running header and page numbers. The cover holds the
study, the headline figures, the summary (when it fits) and the contents with page numbers.

The per-kind parts live in each kind's ``report`` module, reached through the result's
``spec`` (a generic fallback for results without one). A kind's result may also provide ``report_sections(ctx)``
returning extra :class:`Section` objects; they are appended after the built-in ones.

Nothing here imports Qt; matplotlib and Typst are imported lazily.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import locale
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from iaa_desktop import __version__
from iaa_desktop.core.export.html_blocks import (  # noqa: F401  (re-exported for the kinds)
    CHART_MAX_HEIGHT_IN,
    CHART_MAX_WIDTH_IN,
    esc,
    figure_html,
    finite,
    fmt,
    interval_text,
    legend_outside,
    pair_heatmap_html,
    table_html,
    text_cell,
    text_dir,
)
from iaa_desktop.core.export.report_parts import (  # noqa: F401  (re-exported for the kinds)
    MAX_TABLE_ROWS,
    AdjudicationSummary,
    KindReport,
    ReportContext,
    Section,
)
from iaa_desktop.core.export.summary import (  # noqa: F401  (re-exported for the kinds)
    INTERPRETATION_NOTE,
    LANDIS_KOCH,
    SummaryRow,
    interpretation,
    summary_frame,
    summary_table_html,
)

__all__ = [
    "AdjudicationSummary",
    "KindReport",
    "ReportContext",
    "Section",
    "SummaryRow",
    "build_report",
    "default_paper",
    "render_html",
    "write_report",
]

#: the summary goes on the cover up to this many rows (else it opens the body)
COVER_SUMMARY_ROWS = 24
#: kept for callers that asked when the contents appear: now always, on the cover
TOC_MIN_PAGES = 0

# territories whose paper is US Letter (CLDR); everything else gets A4
_LETTER_TERRITORIES = {
    "US",
    "CA",
    "MX",
    "PH",
    "CL",
    "CO",
    "VE",
    "PR",
    "GT",
    "SV",
    "NI",
    "CR",
    "PA",
    "DO",
    "BZ",
}


# ---------------------------------------------------------------------------------------------
# adjudication figures


def adjudication_from_session(session: Any) -> AdjudicationSummary:
    """The report's adjudication figures from an open
    :class:`~iaa_desktop.core.adjudication.AdjudicationSession` (resolved = decided by hand or
    merged automatically; overruled = units where the gold differs from the annotator)."""
    resolved, total = session.progress()
    table = session.agreement()
    overruled = {str(r.annotator): int(r.n_overruled) for r in table.itertuples(index=False)}
    agree = {
        str(r.annotator): ("Cohen's κ", float(r.cohen_kappa)) for r in table.itertuples(index=False)
    }
    return AdjudicationSummary(
        resolved=int(resolved),
        open=int(total - resolved),
        overruled=overruled,
        agreement_with_gold=agree,
        store=str(getattr(session.store, "path", "")),
    )


def adjudication_from_store(result: Any, store_path: str | os.PathLike[str]) -> AdjudicationSummary:
    """Open an adjudication store read-only for ``result`` and summarise it."""
    from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore, units_for

    store = AdjudicationStore.open(Path(store_path), read_only=True)
    try:
        return adjudication_from_session(AdjudicationSession(units_for(result), store))
    finally:
        store.close()


# ---------------------------------------------------------------------------------------------
# inputs and their checksums


_SKIP_SUFFIXES = {".md", ".py", ".pyc", ".gz", ".zip", ".png", ".jpg", ".pdf"}


def input_files(
    inputs: Sequence[str | os.PathLike[str]], limit: int = 200
) -> tuple[list[Path], int]:
    """The files of the inputs (folders walked in sorted order; READMEs, scripts and archives
    beside the data left out); returns at most ``limit`` files and the total count."""
    files: list[Path] = []
    for p in map(Path, inputs):
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if (
                    f.is_file()
                    and not any(part.startswith(".") for part in f.relative_to(p).parts)
                    and f.suffix.lower() not in _SKIP_SUFFIXES
                ):
                    files.append(f)
        elif p.is_file():
            files.append(p)
    return files[:limit], len(files)


_HASHES: dict[tuple[str, int, int], str] = {}


def sha256(path: Path) -> str:
    """SHA-256 of a file (remembered by path, size and modification time)."""
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key in _HASHES:
        return _HASHES[key]
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    _HASHES[key] = h.hexdigest()
    return _HASHES[key]


def _common_root(paths: Sequence[Path]) -> Path | None:
    try:
        return Path(os.path.commonpath([str(p.resolve()) for p in paths])) if paths else None
    except ValueError:
        return None


def study_title(result: Any) -> str:
    names = [Path(p).name or str(p) for p in getattr(result, "inputs", ())]
    if not names:
        return "Agreement study"
    if len(names) == 1:
        # a lone file is often generically named (judgments.tsv): its folder tells the study
        p = Path(result.inputs[0])
        return f"{p.parent.name}/{p.name}" if p.is_file() and p.parent.name else names[0]
    root = _common_root([Path(p) for p in result.inputs])
    return root.name if root is not None and root.name else ", ".join(names[:3])


# ---------------------------------------------------------------------------------------------
# paper size


def default_paper(env: Mapping[str, str] | None = None) -> str:
    """``letter`` for locales of countries that use US Letter, else ``a4``."""
    env = os.environ if env is None else env
    loc = env.get("LC_ALL") or env.get("LC_PAPER") or env.get("LANG") or ""
    if not loc:
        try:
            loc = locale.getlocale()[0] or ""
        except ValueError:
            loc = ""
    territory = loc.split(".")[0].split("@")[0]
    territory = territory.split("_")[1] if "_" in territory else ""
    return "letter" if territory.upper() in _LETTER_TERRITORIES else "a4"


# ---------------------------------------------------------------------------------------------
# building


def _kind_report(result: Any, ctx: ReportContext) -> KindReport:
    spec = getattr(result, "spec", None)
    if spec is None:
        from iaa_desktop.core.export.report_generic import build as build_generic

        kr = build_generic(result, ctx)
    else:
        kr = spec.build_report(result, ctx)
    hook = getattr(result, "report_sections", None)
    if callable(hook):
        try:
            extra = hook(ctx)
        except TypeError:
            extra = hook()
        for s in extra or ():
            kr.sections.append(s if isinstance(s, Section) else Section(str(s[0]), str(s[1])))
    return kr


def _files_html(result: Any) -> str:
    """The input files with their SHA-256, so a reader can check the report's data."""
    files, total = input_files(result.inputs)
    root = _common_root([Path(p) for p in result.inputs]) if result.inputs else None
    rows = []
    for f in files:
        try:
            shown = (
                str(f.resolve().relative_to(root)) if root is not None and root.is_dir() else f.name
            )
        except ValueError:
            shown = str(f)
        try:
            digest = sha256(f)
        except OSError as e:
            digest = f"unreadable: {e.strerror}"
        rows.append(f'<tr>{text_cell(shown)}<td class="mono">{esc(digest)}</td></tr>')
    more = f'<p class="note">and {total - len(files)} more files.</p>' if total > len(files) else ""
    return (
        '<table class="data files"><thead><tr><th>File</th><th>SHA-256</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>{more}"
    )


def _contents_html(sections: Sequence[Section]) -> str:
    entries = "".join(
        f'<li class="l{s.level}"><a href="#{esc(s.anchor)}">{esc(s.title)}</a></li>'
        for s in sections
    )
    return f'<nav class="toc"><h2 class="toc-title">Contents</h2><ul>{entries}</ul></nav>'


def _title_block(
    result: Any, kr: KindReport, ctx: ReportContext, summary: str, contents: str
) -> str:
    """The cover page: the study, the headline figures, the summary with interpretation (when
    it fits) and the contents with page numbers — one page."""
    spec = getattr(result, "spec", None)
    kind_title = spec.title if spec is not None else result.kind
    when = (ctx.generated or _dt.datetime.now().astimezone()).strftime("%Y-%m-%d %H:%M %Z").strip()
    headline = "".join(f"<tr><th>{esc(k)}</th>{text_cell(v)}</tr>" for k, v in result.headline())
    annotators = ", ".join(esc(a) for a in kr.annotators) or "–"
    inputs = ", ".join(esc(p) for p in result.inputs) or "–"
    return f"""
<header class="title-block">
  <p class="kicker">Inter-annotator agreement report</p>
  <h1 class="study" dir="{text_dir(ctx.title)}">{esc(ctx.title)}</h1>
  <table class="cover-top"><tr><td class="cover-meta">
  <table class="meta">
    <tr><th>Kind of study</th><td>{esc(kind_title)} (<code>{esc(result.kind)}</code>)</td></tr>
    <tr><th>Annotators</th><td>{annotators} ({len(kr.annotators)})</td></tr>
    <tr><th>Inputs</th><td class="path">{inputs}</td></tr>
    <tr><th>Date</th><td>{esc(when)}</td></tr>
    <tr><th>Application</th><td>iaa_desktop {esc(__version__)}</td></tr>
  </table></td><td class="cover-headline">
  <table class="meta headline"><caption>Headline figures</caption>{headline}</table>
  </td></tr></table>
  {summary}
  {contents}
</header>"""


def _problems_html(result: Any) -> str:
    errs, warns = list(getattr(result, "errors", [])), list(getattr(result, "warnings", []))
    if not errs and not warns:
        return ""
    items = []
    for label, lst in (("error", errs), ("warning", warns)):
        for e in lst[:20]:
            items.append(
                f'<li class="{label}" dir="{text_dir(str(e))}"><b>{label}:</b> {esc(e)}</li>'
            )
        if len(lst) > 20:
            items.append(f"<li>… and {len(lst) - 20} more {label}s (see the JSON export).</li>")
    return "<ul class='problems'>" + "".join(items) + "</ul>"


def adjudication_html(adj: AdjudicationSummary) -> str:
    """Resolved/open counts, how often each annotator was overruled, agreement with the gold."""
    total = adj.resolved + adj.open
    out = [
        f"<p>{adj.resolved:,} of {total:,} units resolved, {adj.open:,} open"
        + (f" (store <code>{esc(adj.store)}</code>)" if adj.store else "")
        + ".</p>"
    ]
    names = list(dict.fromkeys([*adj.overruled, *adj.agreement_with_gold]))
    if names:
        rows = []
        for n in names:
            over = adj.overruled.get(n)
            share = (
                f" ({100 * over / adj.resolved:.1f}%)" if over is not None and adj.resolved else ""
            )
            measure, value = adj.agreement_with_gold.get(n, ("", math.nan))
            rows.append(
                f"<tr>{text_cell(n)}<td class='n'>{'–' if over is None else f'{over:,}'}{share}</td>"
                f"<td>{esc(measure) or '–'}</td><td class='n'>{fmt(value)}</td></tr>"
            )
        out.append(
            "<table class='data'><thead><tr><th>Annotator</th><th>Overruled by the gold</th><th>Agreement with the gold</th>"
            "<th>Value</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
        )
    return "\n".join(out)


def adjudication_frame(adj: AdjudicationSummary) -> pd.DataFrame:
    names = list(dict.fromkeys([*adj.overruled, *adj.agreement_with_gold]))
    return pd.DataFrame(
        [
            {
                "annotator": n,
                "overruled": adj.overruled.get(n),
                "agreement_measure": adj.agreement_with_gold.get(n, ("", math.nan))[0],
                "agreement_with_gold": adj.agreement_with_gold.get(n, ("", math.nan))[1],
                "resolved": adj.resolved,
                "open": adj.open,
            }
            for n in names
        ]
        or [
            {
                "annotator": "",
                "overruled": None,
                "agreement_measure": "",
                "agreement_with_gold": math.nan,
                "resolved": adj.resolved,
                "open": adj.open,
            }
        ]
    )


def _css(paper: str) -> str:
    from importlib.resources import files

    css = files("iaa_desktop").joinpath("resources", "report.css").read_text(encoding="utf-8")
    size = "Letter" if paper == "letter" else "A4"
    return css.replace("/*PAGE-SIZE*/A4", size)


@dataclass
class BuiltReport:
    html: str
    kind_report: KindReport
    sections: list[Section]
    summary: pd.DataFrame


def build_report(
    result: Any, ctx: ReportContext | None = None, kind_report: KindReport | None = None
) -> BuiltReport:
    """Assemble the report's HTML (without rendering it); ``kind_report`` reuses the kind's
    sections of an earlier build (the second pass that adds the table of contents)."""
    from iaa_desktop.core.export.methods_text import references_html

    ctx = ctx or ReportContext()
    if not ctx.title:
        ctx.title = study_title(result)
    kr = kind_report if kind_report is not None else _kind_report(result, ctx)
    sections: list[Section] = []
    summary_html = summary_table_html(kr.summary, kr.summary_caption)
    on_cover = len(kr.summary) <= COVER_SUMMARY_ROWS
    if not on_cover:
        sections.append(Section("Summary", summary_html, anchor="summary"))
    methods = "".join(f"<p>{p}</p>" for p in kr.methods)
    sections.append(Section("Methods", methods + references_html(kr.references), anchor="methods"))
    problems = _problems_html(result)
    if problems:
        sections.append(Section("Problems in the inputs", problems, anchor="problems"))
    sections.extend(kr.sections)
    if ctx.adjudication is not None:
        sections.append(
            Section("Adjudication", adjudication_html(ctx.adjudication), anchor="adjudication")
        )
    sections.append(Section("Input files (SHA-256)", _files_html(result), anchor="inputs"))
    for i, s in enumerate(sections):
        if not s.anchor:
            s.anchor = f"s{i}"
    cover_summary = (
        f'<h2 class="cover-summary">Summary</h2>{summary_html}'
        if on_cover
        else '<p class="note">The summary of every coefficient with its interval and '
        "interpretation is the first section.</p>"
    )
    body = []
    for s in sections:
        h = "h2" if s.level <= 2 else "h3"
        body.append(
            f'<section class="l{s.level}"><{h} id="{esc(s.anchor)}">{esc(s.title)}</{h}>{s.html}</section>'
        )
    doc = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"/>
<title>{esc(ctx.title)} – agreement report</title>
<style>{_css(ctx.paper)}</style></head>
<body>
<div class="running" dir="{text_dir(ctx.title)}">{esc(ctx.title)} · agreement report</div>
{_title_block(result, kr, ctx, cover_summary, _contents_html(sections))}
{"".join(body)}
</body></html>"""
    summary = summary_frame(kr.summary)
    return BuiltReport(doc, kr, sections, summary)


def render_html(result: Any, ctx: ReportContext | None = None) -> str:
    return build_report(result, ctx).html


def write_report(
    result: Any,
    pdf_path: str | os.PathLike[str] | None = None,
    html_path: str | os.PathLike[str] | None = None,
    paper: str | None = None,
    title: str = "",
    adjudication: AdjudicationSummary | None = None,
    csv_dir: str | os.PathLike[str] | None = None,
) -> list[Path]:
    """Write the report as PDF and/or HTML; returns the paths written.

    ``paper`` is ``"a4"`` or ``"letter"`` (default: from the locale). ``csv_dir`` additionally
    receives the report's own tables (summary with interpretation, tables behind the charts)
    next to what ``result.tables()`` gives.
    """
    from iaa_desktop.core.export.gc_pause import fewer_collections
    from iaa_desktop.core.export.typst_pdf import pdf_from_html
    from iaa_desktop.core.io import write_bytes_atomic, write_csv_tables, write_text_atomic

    ctx = ReportContext(
        title=title, paper=(paper or default_paper()).lower(), adjudication=adjudication
    )
    written: list[Path] = []
    with fewer_collections():
        built = build_report(result, ctx)
        document = pdf_from_html(built.html, ctx.paper) if pdf_path is not None else b""
    if pdf_path is not None:
        write_bytes_atomic(Path(pdf_path), document)
        written.append(Path(pdf_path))
    if html_path is not None:
        write_text_atomic(Path(html_path), built.html)
        written.append(Path(html_path))
    if csv_dir is not None:
        written.extend(write_csv_tables(_report_tables(built, adjudication), Path(csv_dir)))
    return written


def _report_tables(built: BuiltReport, adjudication: AdjudicationSummary | None) -> dict[str, Any]:
    tables = {
        "report_summary": built.summary,
        **{f"report_{k}": v for k, v in built.kind_report.tables.items()},
    }
    if adjudication is not None:
        tables["report_adjudication"] = adjudication_frame(adjudication)
    return tables


def write_report_tables(
    result: Any,
    csv_dir: str | os.PathLike[str],
    adjudication: AdjudicationSummary | None = None,
) -> list[Path]:
    """Write only the report's own tables as CSV (``report_*.csv``), without charts or layout.

    Used by ``--csv DIR`` when no PDF/HTML is asked for, so that the CSV export always holds the
    tables behind the report next to ``result.tables()``.
    """
    from iaa_desktop.core.io import write_csv_tables

    built = build_report(result, ReportContext(charts=False, adjudication=adjudication))
    return write_csv_tables(_report_tables(built, adjudication), Path(csv_dir))

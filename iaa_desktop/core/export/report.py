"""The agreement report: one HTML document (and its PDF) built from a result and its settings.

Layout: a title block (study, annotators, input files with SHA-256, date, version), a
methods paragraph written from the options actually used, the summary table with intervals and an
interpretation column, per-kind sections (tables worst first, charts as vector SVG, the kind's own
tables), an optional adjudication section, running header and page numbers; a table of contents
when the PDF is longer than five pages.

The per-kind parts live in each kind's ``report`` module, reached through the result's
``spec`` (a generic fallback for results without one). A kind's result may also provide ``report_sections(ctx)``
returning extra :class:`Section` objects; they are appended after the built-in ones.

Nothing here imports Qt; matplotlib and WeasyPrint are imported lazily.
"""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import html
import io
import locale
import math
import os
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from iaa_desktop import __version__

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

#: a PDF longer than this gets a table of contents
TOC_MIN_PAGES = 5
#: rows of a "worst first" table in the document (the CSV has them all)
MAX_TABLE_ROWS = 40

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
# value types


@dataclass
class SummaryRow:
    """One line of the summary table.

    ``scale`` picks the interpretation convention: ``"kappa"`` (Landis & Koch 1977),
    ``"alpha"`` (Krippendorff 2004: 0.667 / 0.800) or ``None`` (no convention, e.g. percent
    agreement or a correlation).
    """

    measure: str
    value: float
    ci_low: float = math.nan
    ci_high: float = math.nan
    n: int | None = None
    scale: str | None = None
    digits: int = 3
    percent: bool = False
    note: str = ""


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

    store = AdjudicationStore.open(store_path, read_only=True)
    try:
        return adjudication_from_session(AdjudicationSession(units_for(result), store))
    finally:
        store.close()


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


# ---------------------------------------------------------------------------------------------
# small HTML helpers (used by the section modules)


def esc(v: Any) -> str:
    return html.escape("" if v is None else str(v), quote=True)


def text_dir(s: str) -> str:
    """``rtl`` when the first strong character of ``s`` is right-to-left, else ``ltr``.

    WeasyPrint does not implement ``dir="auto"``, so the direction is decided here (the rule of
    the Unicode bidi algorithm, P2–P3).
    """
    for ch in s:
        bidi = unicodedata.bidirectional(ch)
        if bidi in ("R", "AL"):
            return "rtl"
        if bidi == "L":
            return "ltr"
    return "ltr"


def text_cell(v: Any, tag: str = "td", cls: str = "") -> str:
    s = "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)
    d = text_dir(s)
    attrs = f' dir="{d}"' if d == "rtl" else ""
    # short single words (codes such as MEDIUM, labels) must not be split inside the word
    if s and len(s) <= 18 and not any(ch.isspace() for ch in s):
        cls = f"{cls} nw".strip()
    c = f' class="{cls}"' if cls else ""
    return f"<{tag}{attrs}{c}>{esc(s)}</{tag}>"


def finite(v: Any) -> bool:
    try:
        return v is not None and math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


def fmt(v: Any, digits: int = 3, percent: bool = False) -> str:
    """A number as the report prints it; "–" for undefined values."""
    if v is None or isinstance(v, bool):
        return esc(v) if isinstance(v, bool) else "–"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}" if abs(v) >= 10000 else str(v)
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    if not math.isfinite(f):
        return "–"
    if percent:
        return f"{100 * f:.{max(digits - 2, 1)}f}%"
    if (
        f.is_integer()
        and abs(f) >= 1
        and digits >= 0
        and abs(f) < 1e15
        and not isinstance(v, float)
    ):
        return str(int(f))
    return f"{f:.{digits}f}"


def interval_text(lo: Any, hi: Any, digits: int = 3, percent: bool = False) -> str:
    if not (finite(lo) and finite(hi)):
        return "–"
    return f"[{fmt(lo, digits, percent)}, {fmt(hi, digits, percent)}]"


def table_html(
    df: pd.DataFrame,
    columns: Sequence[str] | None = None,
    headers: Mapping[str, str] | None = None,
    digits: Mapping[str, int] | int = 3,
    percent: Iterable[str] = (),
    caption: str = "",
    max_rows: int | None = None,
    note: str = "",
    cls: str = "",
) -> str:
    """A DataFrame as an HTML table; numbers right-aligned, text with its own direction."""
    columns = list(columns) if columns is not None else [str(c) for c in df.columns]
    headers = dict(headers or {})
    percent = set(percent)
    total = len(df)
    shown = df if max_rows is None or total <= max_rows else df.iloc[:max_rows]
    # short tables stay on one page; long ones break between rows and repeat their header
    small = " small" if len(shown) <= 15 else ""
    # the caption is a block before the table (WeasyPrint may leave a <caption> behind at a break)
    out = [f'<div class="tbl{small}">']
    if caption:
        out.append(f'<p class="caption">{esc(caption)}</p>')
    out.append(f'<table class="data {cls}">')
    out.append(
        "<thead><tr>"
        + "".join(
            f'<th class="nw">{esc(h)}</th>'
            if len(h) <= 6 and " " not in h
            else f"<th>{esc(h)}</th>"
            for h in (str(headers.get(c, c)) for c in columns)
        )
        + "</tr></thead><tbody>"
    )
    cols = [shown[c].to_numpy() if c in shown.columns else [None] * len(shown) for c in columns]
    for i in range(len(shown)):
        cells = []
        for c, arr in zip(columns, cols):
            v = arr[i]
            if isinstance(v, bool) or (
                hasattr(v, "dtype") and getattr(v, "dtype", None) is not None and v.dtype == bool
            ):
                cells.append(f'<td class="c">{"yes" if bool(v) else "no"}</td>')
            elif isinstance(v, int | float) or (
                hasattr(v, "dtype") and getattr(v.dtype, "kind", "") in "iuf"
            ):
                d = digits.get(c, 3) if isinstance(digits, Mapping) else digits
                fv = v.item() if hasattr(v, "item") else v
                if isinstance(fv, float) and fv.is_integer() and d == 0:
                    fv = int(fv)
                cells.append(f'<td class="n">{fmt(fv, d, c in percent)}</td>')
            else:
                cells.append(text_cell(v))
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    if max_rows is not None and total > max_rows:
        note = (
            note + " " if note else ""
        ) + f"First {max_rows} of {total:,} rows; the CSV export holds all."
    if note:
        out.append(f'<p class="note">{esc(note)}</p>')
    return "\n".join(out)


#: printable area the charts must fit in (inches; A4 and Letter with the report's margins)
CHART_MAX_WIDTH_IN = 6.9
CHART_MAX_HEIGHT_IN = 8.8


def legend_outside(fig: Any) -> Any:
    """Move each axes' legend to the right of its plot, so it never hides the data (the GUI's
    charts place legends inside, where an interactive user can still read behind them)."""
    moved = False
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is None:
            continue
        handles, labels = ax.get_legend_handles_labels()
        if handles:
            ax.legend(
                handles,
                labels,
                loc="upper left",
                bbox_to_anchor=(1.02, 1.0),
                borderaxespad=0.0,
                frameon=False,
                fontsize="small",
            )
            moved = True
    if moved:  # room for the legend beside the plot, which keeps its own width
        fig.set_figwidth(fig.get_figwidth() * 1.3)
    return fig


def figure_html(fig: Any, caption: str = "", max_width_in: float | None = None) -> str:
    """A matplotlib figure as an SVG image (vector in the PDF), with a caption.

    The image is shown at its natural size, shrunk to fit the printable width (or
    ``max_width_in``) and height of a page, keeping its aspect ratio.
    """
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "iaa-report"}):
        fig.savefig(buf, format="svg", bbox_inches="tight", pad_inches=0.05)
    svg = buf.getvalue()
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    w_in, h_in = _svg_size_in(svg) or (fig.get_figwidth(), fig.get_figheight())
    scale = min(1.0, CHART_MAX_WIDTH_IN / w_in, CHART_MAX_HEIGHT_IN / h_in)
    if max_width_in is not None:
        scale = min(scale, max_width_in / w_in)
    style = f' style="width: {w_in * scale:.2f}in; height: {h_in * scale:.2f}in"'
    cap = f"<figcaption>{esc(caption)}</figcaption>" if caption else ""
    return f'<figure class="chart"><img{style} alt="{esc(caption)}" src="data:image/svg+xml;base64,{data}"/>{cap}</figure>'


def _svg_size_in(svg: str) -> tuple[float, float] | None:
    """Width and height of a matplotlib SVG (given in pt) in inches."""
    import re

    m = re.search(r'<svg[^>]*?width="([\d.]+)pt"[^>]*?height="([\d.]+)pt"', svg[:2000])
    return (float(m.group(1)) / 72, float(m.group(2)) / 72) if m else None


# ---------------------------------------------------------------------------------------------
# interpretation conventions


LANDIS_KOCH = (
    (0.0, "poor"),
    (0.20, "slight"),
    (0.40, "fair"),
    (0.60, "moderate"),
    (0.80, "substantial"),
    (1.0, "almost perfect"),
)


def interpretation(value: float, scale: str | None) -> str:
    """The band a value falls in under a published convention (not a verdict on the data).

    κ-type coefficients: Landis & Koch (1977); α: Krippendorff (2004), 0.667 and 0.800.

    >>> interpretation(0.447, "alpha")
    '< .667: unreliable (K)'
    >>> interpretation(0.46, "kappa")
    'moderate (L&K)'
    """
    if scale is None or not finite(value):
        return "–"
    v = float(value)
    if scale == "kappa":
        if v < 0:
            return "poor (L&K)"
        for bound, name in LANDIS_KOCH[1:]:
            if v <= bound + 1e-12:
                return f"{name} (L&K)"
        return "almost perfect (L&K)"
    if scale == "alpha":
        if v >= 0.800:
            return "≥ .800: reliable (K)"
        if v >= 0.667:
            return ".667–.800: tentative (K)"
        return "< .667: unreliable (K)"
    return "–"


INTERPRETATION_NOTE = (
    "Interpretation is a convention, not a verdict: κ-type coefficients use the bands of Landis & Koch "
    "(1977) (L&K: < 0 poor, 0–.20 slight, .21–.40 fair, .41–.60 moderate, .61–.80 substantial, "
    ".81–1 almost perfect); Krippendorff's α uses Krippendorff's (2004) guideline (K: rely on data "
    "with α ≥ .800, draw tentative conclusions from .667 ≤ α < .800). Percent agreement, "
    "correlations and other scores (e.g. coreference F1 and δ) have no such convention. Intervals are 95% unless stated otherwise."
)


def summary_frame(rows: Sequence[SummaryRow]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "measure": r.measure,
                "value": r.value,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
                "n": r.n,
                "interpretation": interpretation(r.value, r.scale),
                "note": r.note,
            }
            for r in rows
        ]
    )


def summary_table_html(rows: Sequence[SummaryRow], caption: str = "") -> str:
    out = ['<div class="tbl small">']
    if caption:
        out.append(f'<p class="caption">{esc(caption)}</p>')
    out.append('<table class="data summary">')
    out.append(
        "<thead><tr><th>Measure</th><th>Value</th><th>95% interval</th><th>n</th><th>Interpretation</th></tr></thead><tbody>"
    )
    for r in rows:
        note = f'<div class="note">{esc(r.note)}</div>' if r.note else ""
        out.append(
            "<tr>"
            f"<td>{esc(r.measure)}{note}</td>"
            f'<td class="n value">{fmt(r.value, r.digits, r.percent)}</td>'
            f'<td class="n">{interval_text(r.ci_low, r.ci_high, r.digits, r.percent)}</td>'
            f'<td class="n">{fmt(r.n, 0) if r.n is not None else "–"}</td>'
            f"<td>{esc(interpretation(r.value, r.scale))}</td>"
            "</tr>"
        )
    out.append("</tbody></table></div>")
    out.append(f'<p class="note">{esc(INTERPRETATION_NOTE)}</p>')
    return "\n".join(out)


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


def _title_block(result: Any, kr: KindReport, ctx: ReportContext) -> str:
    spec = getattr(result, "spec", None)
    kind_title = spec.title if spec is not None else result.kind

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
    when = (ctx.generated or _dt.datetime.now().astimezone()).strftime("%Y-%m-%d %H:%M %Z").strip()
    headline = "".join(f"<tr><th>{esc(k)}</th>{text_cell(v)}</tr>" for k, v in result.headline())
    annotators = ", ".join(esc(a) for a in kr.annotators) or "–"
    inputs = ", ".join(esc(p) for p in result.inputs) or "–"
    return f"""
<header class="title-block">
  <p class="kicker">Inter-annotator agreement report</p>
  <h1 class="study" dir="{text_dir(ctx.title)}">{esc(ctx.title)}</h1>
  <table class="meta">
    <tr><th>Kind of study</th><td>{esc(kind_title)} (<code>{esc(result.kind)}</code>)</td></tr>
    <tr><th>Annotators</th><td>{annotators} ({len(kr.annotators)})</td></tr>
    <tr><th>Inputs</th><td class="path">{inputs}</td></tr>
    <tr><th>Date</th><td>{esc(when)}</td></tr>
    <tr><th>Application</th><td>iaa_desktop {esc(__version__)}</td></tr>
  </table>
  <h3 class="nobreak">Headline figures</h3>
  <table class="meta headline">{headline}</table>
  <h3 class="nobreak">Input files (SHA-256)</h3>
  <table class="data files"><thead><tr><th>File</th><th>SHA-256</th></tr></thead><tbody>{"".join(rows)}</tbody></table>
  {more}
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
    methods = "".join(f"<p>{p}</p>" for p in kr.methods)
    sections.append(Section("Methods", methods + references_html(kr.references), anchor="methods"))
    sections.append(
        Section(
            "Summary",
            summary_table_html(kr.summary, kr.summary_caption) + _problems_html(result),
            anchor="summary",
        )
    )
    sections.extend(kr.sections)
    if ctx.adjudication is not None:
        sections.append(
            Section("Adjudication", adjudication_html(ctx.adjudication), anchor="adjudication")
        )
    for i, s in enumerate(sections):
        if not s.anchor:
            s.anchor = f"s{i}"
    toc = ""
    if ctx.with_toc:
        entries = "".join(
            f'<li class="l{s.level}"><a href="#{esc(s.anchor)}">{esc(s.title)}</a></li>'
            for s in sections
        )
        toc = f'<nav class="toc"><h2 class="toc-title">Contents</h2><ul>{entries}</ul></nav>'
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
{_title_block(result, kr, ctx)}
{toc}
{"".join(body)}
</body></html>"""
    summary = summary_frame(kr.summary)
    return BuiltReport(doc, kr, sections, summary)


def render_html(result: Any, ctx: ReportContext | None = None) -> str:
    return build_report(result, ctx).html


def _render_pdf(doc_html: str, cache: dict[Any, Any] | None = None) -> Any:
    from iaa_desktop.core.export.pdf import render

    return render(doc_html, cache)


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
    from iaa_desktop.core.export import pdf
    from iaa_desktop.core.io import write_bytes_atomic, write_csv_tables, write_text_atomic

    ctx = ReportContext(
        title=title, paper=(paper or default_paper()).lower(), adjudication=adjudication
    )
    written: list[Path] = []
    built = build_report(result, ctx)
    if pdf_path is not None:
        # Lay out once with the table of contents when the report looks long, and only redo the
        # layout when the guess was wrong (the TOC takes a page of its own); the image cache
        # spares the second pass from parsing the charts again.
        cache: dict[Any, Any] = {}
        # (the estimate runs about half a page high on the example studies; Letter is shorter)
        estimate = pdf.estimate_pages(built.html) * (297 / 279 if ctx.paper == "letter" else 1.0)
        ctx.with_toc = estimate > TOC_MIN_PAGES + 1.5
        if ctx.with_toc:
            built = build_report(result, ctx, built.kind_report)
        document = _render_pdf(built.html, cache)
        content_pages = len(document.pages) - (1 if ctx.with_toc else 0)
        if (content_pages > TOC_MIN_PAGES) != ctx.with_toc:
            ctx.with_toc = not ctx.with_toc
            built = build_report(result, ctx, built.kind_report)
            document = _render_pdf(built.html, cache)
        write_bytes_atomic(pdf_path, pdf.pdf_bytes(document))
        written.append(Path(pdf_path))
    if html_path is not None:
        write_text_atomic(html_path, built.html)
        written.append(Path(html_path))
    if csv_dir is not None:
        written.extend(write_csv_tables(_report_tables(built, adjudication), csv_dir))
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
    return write_csv_tables(_report_tables(built, adjudication), csv_dir)

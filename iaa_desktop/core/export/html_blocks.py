"""HTML building blocks of the report: escaping, text direction, numbers, tables and figures.

Used by :mod:`iaa_desktop.core.export.report` and every kind's ``report`` module. The HTML is
the ``--html`` report and, through :mod:`iaa_desktop.core.export.typst_pdf`, the PDF; nothing
here imports Qt, and matplotlib is imported when a figure is drawn.
"""

from __future__ import annotations

import base64
import html
import io
import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from iaa_desktop.core.bidi import escape_bidi

# ---------------------------------------------------------------------------------------------
# small HTML helpers (used by the section modules)


def esc(v: Any) -> str:
    # a bidirectional control from an input name is shown, never obeyed
    return html.escape(escape_bidi("" if v is None else str(v)), quote=True)


def text_dir(s: str) -> str:
    """``rtl`` when the first strong character of ``s`` is right-to-left, else ``ltr``.

    The direction is decided here rather than left to ``dir="auto"``, so the HTML and the PDF
    agree (the rule of
    the Unicode bidi algorithm, P2–P3).
    """
    depth = 0  # characters inside an isolate do not count (P2)
    for ch in s:
        bidi = unicodedata.bidirectional(ch)
        if bidi in ("LRI", "RLI", "FSI"):
            depth += 1
        elif bidi == "PDI":
            depth = max(0, depth - 1)
        if depth:
            continue
        if bidi in ("R", "AL"):
            return "rtl"
        if bidi == "L":
            return "ltr"
    return "ltr"


#: Unicode isolates (first-strong, left-to-right, right-to-left) and their end
_ISOLATE_OPEN, _ISOLATE_CLOSE = "\u2066\u2067\u2068", "\u2069"


def anchor_isolates(s: str, direction: str) -> str:
    """``s`` escaped for HTML, its isolates (the application's, around a quoted stretch) kept as
    character references with a mark of the cell's direction (LRM or RLM) on both sides.

    A PDF line broken inside an isolate loses it (each line is laid out on its own), and an
    offset after a Hebrew or Arabic stretch would then join the stretch: ‘נשיא צרפת’@19 printed
    as 19@‘...’. The marks keep what surrounds each stretch in the cell's direction on any line
    (Unicode bidi algorithm, UAX #9, rules W7 and N1). Every other bidirectional control (from
    an input) is shown by :func:`esc`, not obeyed.
    """
    if not any(c in s for c in _ISOLATE_OPEN):
        return esc(s)
    mark = "&#x200f;" if direction == "rtl" else "&#x200e;"
    held = {c: chr(0xE000 + k) for k, c in enumerate(_ISOLATE_OPEN + _ISOLATE_CLOSE)}
    out = esc("".join(held.get(c, c) for c in s))
    for c, stand_in in held.items():
        ref = f"&#x{ord(c):04x};"
        out = out.replace(stand_in, f"{ref}{mark}" if c == _ISOLATE_CLOSE else f"{mark}{ref}")
    return out


#: a table cell of the report shows at most this many characters of a text (the CSV export and
#: the JSON have it whole): a label or an item of a megabyte would fill pages of the PDF
CELL_CHARS = 1000


def shortened(s: str, limit: int = CELL_CHARS) -> str:
    """``s``, or its first ``limit`` characters and how long it is."""
    if len(s) <= limit:
        return s
    return f"{s[:limit]}… ({len(s):,} characters; the CSV export has all)"


def text_cell(v: Any, tag: str = "td", cls: str = "") -> str:
    s = "" if v is None or (isinstance(v, float) and math.isnan(v)) else shortened(str(v))
    d = text_dir(s)
    attrs = f' dir="{d}"' if d == "rtl" else ""
    # short single words (codes such as MEDIUM, labels) must not be split inside the word; a
    # word too long for a column (a path, a hash) may break anywhere: only such cells get
    # ``overflow-wrap: anywhere``, whose every character is a break the layout has to measure
    words = s.split()
    if s and len(s) <= 18 and len(words) == 1:
        cls = f"{cls} nw".strip()
    elif any(len(w) > 24 for w in words):
        cls = f"{cls} brk".strip()
    c = f' class="{cls}"' if cls else ""
    return f"<{tag}{attrs}{c}>{anchor_isolates(s, d)}</{tag}>"


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
    """A DataFrame as an HTML table; numbers right-aligned, text with its own direction; a column
    without a header of the caller's gets its title from the metrics catalogue."""
    from iaa_desktop.core.export.titles import column_title

    columns = list(columns) if columns is not None else [str(c) for c in df.columns]
    headers = dict(headers or {})
    percent = set(percent)
    total = len(df)
    shown = df if max_rows is None or total <= max_rows else df.iloc[:max_rows]
    # short tables stay on one page; long ones break between rows and repeat their header
    small = " small" if len(shown) <= 15 else ""
    # the caption is a block before the table (kept with the table's first rows at a page break)
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
            for h in (str(headers.get(c) or column_title(c)) for c in columns)
        )
        + "</tr></thead><tbody>"
    )
    cols: list[Any] = [
        shown[c].to_numpy() if c in shown.columns else [None] * len(shown) for c in columns
    ]
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
        ) + f"Shown: the first {max_rows:,} of {total:,} rows; the CSV export has all."
    if note:
        out.append(f'<p class="note">{esc(note)}</p>')
    return "\n".join(out)


def shown_note(
    shown: int, total: int, noun: str, criterion: str, csv: str = "the CSV export"
) -> str:
    """The note under a part of a report that leaves rows or documents out, e.g. "Shown: the 5
    of 13 documents with most disagreement; the CSV export has all." (empty when none is left
    out)."""
    if total <= shown:
        return ""
    return f'<p class="note">{esc(f"Shown: the {shown:,} of {total:,} {noun} {criterion}; {csv} has all.")}</p>'


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

    from iaa_desktop.core.export.charts import quiet_drawing, shorten_texts

    shorten_texts(fig)
    buf = io.StringIO()
    fonttype = "none" if _plain_text_only(fig) else "path"
    with (
        matplotlib.rc_context({"svg.fonttype": fonttype, "svg.hashsalt": "iaa-report"}),
        quiet_drawing(),
    ):
        fig.savefig(buf, format="svg")
    svg = buf.getvalue()
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    w_in, h_in = _svg_size_in(svg) or (fig.get_figwidth(), fig.get_figheight())
    scale = min(1.0, CHART_MAX_WIDTH_IN / w_in, CHART_MAX_HEIGHT_IN / h_in)
    if max_width_in is not None:
        scale = min(scale, max_width_in / w_in)
    style = f' style="width: {w_in * scale:.2f}in; height: {h_in * scale:.2f}in"'
    cap = f"<figcaption>{esc(caption)}</figcaption>" if caption else ""
    return f'<figure class="chart"><img{style} alt="{esc(caption)}" src="data:image/svg+xml;base64,{data}"/>{cap}</figure>'


def pair_matrix(names: Sequence[str], pairs: pd.DataFrame, column: str) -> pd.DataFrame:
    """Annotators × annotators matrix of one pair measure: ``column`` of the rows ``a``, ``b`` of
    ``pairs`` in both cells of the pair, 1 on the diagonal, NaN for a pair without a row."""
    m = pd.DataFrame(math.nan, index=list(names), columns=list(names))
    for a, b, v in zip(pairs["a"], pairs["b"], pairs[column]):
        m.loc[a, b] = m.loc[b, a] = v
    for a in names:
        m.loc[a, a] = 1.0
    return m


#: a pair matrix of at most this many annotators is printed as a table with coloured cells (its
#: values typeset as text, searchable and copyable); a larger one is drawn as a heatmap chart
MATRIX_TABLE_MAX = 12

#: ColorBrewer's RdYlGn, 11 classes (Harrower & Brewer 2003): red (low) to green (high)
_RDYLGN = (
    (0xA5, 0x00, 0x26), (0xD7, 0x30, 0x27), (0xF4, 0x6D, 0x43), (0xFD, 0xAE, 0x61),
    (0xFE, 0xE0, 0x8B), (0xFF, 0xFF, 0xBF), (0xD9, 0xEF, 0x8B), (0xA6, 0xD9, 0x6A),
    (0x66, 0xBD, 0x63), (0x1A, 0x98, 0x50), (0x00, 0x68, 0x37),
)  # fmt: skip


def diverging_colour(frac: float) -> str:
    """The RdYlGn colour at ``frac`` in [0, 1] (linear between the 11 classes), as ``#rrggbb``."""
    x = min(max(frac, 0.0), 1.0) * (len(_RDYLGN) - 1)
    i = min(int(x), len(_RDYLGN) - 2)
    t = x - i
    rgb = (round(a + (b - a) * t) for a, b in zip(_RDYLGN[i], _RDYLGN[i + 1]))
    return "#" + "".join(f"{c:02x}" for c in rgb)


def matrix_html(
    matrix: pd.DataFrame,
    title: str,
    caption: str,
    vmin: float = -1.0,
    vmax: float = 1.0,
    digits: int = 2,
) -> str:
    """A square annotators × annotators matrix: a table whose cells are coloured by value (red
    at ``vmin``, yellow midway, green at ``vmax``, as the heatmap chart) when it has at most
    :data:`MATRIX_TABLE_MAX` rows, else the heatmap chart (:func:`charts.pairwise_heatmap`)."""
    if len(matrix) > MATRIX_TABLE_MAX:
        from iaa_desktop.core.export import charts

        chart = charts.pairwise_heatmap(matrix, title, vmin=vmin, vmax=vmax, digits=digits)
        return figure_html(chart, caption)
    names = [str(n) for n in matrix.index]
    values = matrix.to_numpy(dtype=float)
    rows = []
    for name, row in zip(names, values):
        cells = []
        for v in row:
            if not math.isfinite(v):
                cells.append('<td class="c">–</td>')
                continue
            frac = (v - vmin) / (vmax - vmin) if vmax > vmin else 0.5
            ink = "#000000" if 0.15 < frac < 0.85 else "#ffffff"
            cells.append(
                f'<td class="c" style="background:{diverging_colour(frac)}; color:{ink}">'
                f"{fmt(v, digits)}</td>"
            )
        rows.append(f"<tr>{text_cell(name, 'th')}{''.join(cells)}</tr>")
    head = "".join(text_cell(n, "th") for n in names)
    return (
        f'<div class="tbl small"><p class="caption">{esc(title)}</p>'
        f'<table class="grid heat"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        f'<p class="note">{esc(caption)}</p></div>'
    )


def pair_heatmap_html(
    tables: dict[str, pd.DataFrame],
    key: str,
    names: Sequence[str],
    pairs: pd.DataFrame,
    column: str,
    title: str,
    caption: str,
) -> str:
    """The matrix of one pair measure (:func:`pair_matrix`, printed by :func:`matrix_html`); the
    matrix joins ``tables`` under ``key``, the table behind the chart."""
    m = pair_matrix(names, pairs, column)
    # an annotator may be called "annotator": the first column is the row's, as the header says
    tables[key] = m.rename_axis("annotator").reset_index(allow_duplicates=True)
    return matrix_html(m, title, caption)


def _plain_char(ch: str) -> bool:
    """A character the PDF engine's SVG text draws right: left to right, no shaping, no marks
    (Latin, Greek, Cyrillic, punctuation, arrows, mathematical operators, box drawing and
    geometric shapes such as ○ ■ ▲)."""
    o = ord(ch)
    plain_block = o < 0x0590 or 0x2000 <= o < 0x2400 or 0x2500 <= o < 0x2600
    return plain_block and unicodedata.category(ch) not in ("Mn", "Mc", "Me", "Cf")


def _plain_text_only(fig: Any) -> bool:
    """Whether every text of a figure is plain (see :func:`_plain_char`) and not mathtext.

    Such a chart keeps its text as SVG text, which the PDF engine draws with the font (a few
    hundred glyph outlines fewer to draw per chart: most of the cost of a chart in the PDF).
    A chart with Hebrew, Arabic, combining marks or emoji keeps every glyph as an outline drawn
    by matplotlib, whose text layout does the bidirectional ordering and the shaping.
    """
    from matplotlib.text import Text

    for t in fig.findobj(Text):
        s = t.get_text()
        if "$" in s or not all(_plain_char(ch) for ch in s):
            return False
    return True


def _svg_size_in(svg: str) -> tuple[float, float] | None:
    """Width and height of a matplotlib SVG (given in pt) in inches."""
    import re

    m = re.search(r'<svg[^>]*?width="([\d.]+)pt"[^>]*?height="([\d.]+)pt"', svg[:2000])
    return (float(m.group(1)) / 72, float(m.group(2)) / 72) if m else None

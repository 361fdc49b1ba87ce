"""Generic charts of the report as matplotlib Figures (no Qt, no pyplot state).

* :func:`pairwise_heatmap` — annotators × annotators matrix of a pair measure;
* :func:`interval_dots` — one value per document / target / text with its interval, worst first;
* :func:`count_matrix` — confusion or coincidence matrix with counts in the cells;
* :func:`forest` — estimates with intervals by factor level.

Every builder takes plain arrays/DataFrames and returns a new ``Figure``; the report renders them
as SVG. matplotlib is imported inside the functions so importing this module is cheap.
"""

from __future__ import annotations

import contextlib
import math
import unicodedata
import warnings
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _mpl_does_bidi() -> bool:
    """True when matplotlib lays text out with libraqm (bidi and shaping, matplotlib ≥ 3.11)."""
    try:
        from matplotlib import ft2font
    except ImportError:
        return False
    return bool(getattr(ft2font, "__libraqm_version__", None))


def _short(s: Any, n: int = 28) -> str:
    """A tick label: shortened, and right-to-left text put in visual order when matplotlib
    cannot do it (before 3.11 it drew glyphs left to right without the bidi algorithm; with
    libraqm it applies bidi itself, and reordering here would reverse the text again)."""
    text = str(s)
    text = text if len(text) <= n else text[: n - 1] + "…"
    if not _mpl_does_bidi() and any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text):
        try:
            from bidi.algorithm import get_display

            text = str(get_display(text))
        except ImportError:  # python-bidi is optional: the label stays in logical order
            pass
    return text


#: the longest text a chart draws; a longer name, label or legend entry is shortened with "…"
#: (matplotlib lays every text out whole: a name of a megabyte took minutes and gigabytes)
CHART_TEXT_MAX = 80


#: after DejaVu Sans (matplotlib's font: Latin, Greek, Cyrillic, Hebrew, Arabic, symbols), the
#: Noto fonts of the scripts it lacks, each used where it is installed (fonts-noto-core)
FALLBACK_FONTS = tuple(
    f"Noto Sans {script}"
    for script in (
        "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada",
        "Malayalam", "Sinhala", "Thai", "Lao", "Khmer", "Myanmar", "Tibetan", "Ethiopic",
        "Georgian", "Armenian", "Syriac", "Thaana", "Cherokee", "Mongolian",
    )
)  # fmt: skip


def chart_families() -> list[str]:
    """DejaVu Sans, then the installed fonts of :data:`FALLBACK_FONTS`: a text given this family
    list takes each glyph DejaVu Sans lacks from the first font that has it (matplotlib's font
    fallback)."""
    global _FAMILIES
    if _FAMILIES is None:
        from matplotlib import font_manager

        installed = {f.name for f in font_manager.fontManager.ttflist}
        _FAMILIES = ["DejaVu Sans", *(f for f in FALLBACK_FONTS if f in installed)]
    return _FAMILIES


_FAMILIES: list[str] | None = None


def _visible(s: str) -> str:
    """Control characters as their Unicode control pictures (U+2400–U+2421): a tab or a form
    feed in a label is shown, not drawn as a missing glyph."""
    if not any(c < " " and c != "\n" or c == "\x7f" for c in s):
        return s
    return "".join(
        chr(0x2400 + ord(c)) if c < " " and c != "\n" else "\u2421" if c == "\x7f" else c for c in s
    )


@contextlib.contextmanager
def quiet_drawing() -> Iterator[None]:
    """Draw a chart without two of matplotlib's warnings that only repeat what the chart shows:
    long names leaving a plot no room (drawn as laid out before) and a glyph no installed font
    has (drawn as a box), once per glyph."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
        warnings.filterwarnings("ignore", r"Glyph \d+ .* missing from font", UserWarning)
        yield


def _beyond_dejavu(s: str) -> bool:
    """Whether ``s`` has a character of a script after Arabic in Unicode (Devanagari onwards),
    which DejaVu Sans mostly lacks."""
    return any(ord(c) >= 0x0900 for c in s)


def shorten_texts(fig: Figure, limit: int = CHART_TEXT_MAX) -> None:
    """Prepare the texts of ``fig`` for drawing: every text longer than ``limit`` characters
    shortened with "…", control characters shown (:func:`_visible`) — titles, axis labels,
    legend entries, texts in cells and the tick labels a fixed or function formatter will draw —
    and, when some text is in a script DejaVu Sans lacks, every text given the fallback fonts of
    :func:`chart_families` (only then: each fallback font costs a load)."""
    from matplotlib.text import Text
    from matplotlib.ticker import FixedFormatter, FuncFormatter

    def short(s: Any) -> Any:
        if not isinstance(s, str):
            s = str(s)
        s = _visible(s)
        return s if len(s) <= limit else s[: limit - 1] + "…"

    ticks: list[Text] = []
    tick_labels: list[str] = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.majorTicks:  # tick labels made later copy the first one's font
                ticks += [axis.majorTicks[0].label1, axis.majorTicks[0].label2]
            f = axis.get_major_formatter()
            if isinstance(f, FixedFormatter):
                f.seq = [short(s) for s in f.seq]
                tick_labels += [str(s) for s in f.seq]
            elif isinstance(f, FuncFormatter):
                if not getattr(f.func, "shortened", False):
                    # tick labels given as a list (set_ticks(labels=...)) come from a function
                    def shortened(x: Any, pos: Any = None, func: Any = f.func) -> Any:
                        return short(func(x, pos))

                    shortened.shortened = True  # type: ignore[attr-defined]
                    f.func = shortened
                locs = axis.get_majorticklocs()
                tick_labels += [str(f.func(x, i)) for i, x in enumerate(locs)]
    texts = fig.findobj(Text)
    for t in texts:
        s = t.get_text()
        shown = short(s)
        if shown != s:
            t.set_text(shown)
    if any(_beyond_dejavu(t.get_text()) for t in texts) or any(map(_beyond_dejavu, tick_labels)):
        for t in [*texts, *ticks]:
            if t.get_fontfamily() == ["sans-serif"]:
                t.set_fontfamily(chart_families())


def pairwise_heatmap(
    matrix: Any, title: str = "", vmin: float = -1.0, vmax: float = 1.0, digits: int = 2
) -> Figure:
    """Heatmap of a square DataFrame (index = columns = annotators), values written in cells."""

    names = [_short(n, 18) for n in matrix.index]
    values = matrix.to_numpy(dtype=float)
    n = len(names)
    size = min(5.0, max(2.8, 0.45 * n + 1.6))
    fig = _figure(size + 0.8, size)
    ax = fig.add_subplot(111)
    im = ax.imshow(values, cmap="RdYlGn", vmin=vmin, vmax=vmax)
    ax.set_xticks(range(n), labels=names, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(n), labels=names, fontsize=8)
    if n <= 16:
        for i in range(n):
            for j in range(n):
                v = values[i, j]
                if math.isfinite(v):
                    frac = (v - vmin) / (vmax - vmin) if vmax > vmin else 0.5
                    ax.text(
                        j,
                        i,
                        f"{v:.{digits}f}",
                        ha="center",
                        va="center",
                        fontsize=7 if n > 8 else 8,
                        color="black" if 0.15 < frac < 0.85 else "white",
                    )
    if title:
        ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def interval_dots(
    labels: Sequence[Any],
    values: Sequence[float],
    low: Sequence[float] | None = None,
    high: Sequence[float] | None = None,
    xlabel: str = "",
    title: str = "",
    reference: float | None = None,
    xlim: tuple[float, float] | None = None,
    extra: Sequence[float] | None = None,
    extra_label: str = "",
    value_label: str = "",
) -> Figure:
    """Dot per row with its interval (thin line), rows top to bottom in the order given.

    ``extra`` adds a second series (hollow marker), e.g. the value after a filter.
    """
    import numpy as np

    n = len(labels)
    fig = _figure(6.8, max(1.8, 0.24 * n + 1.0))
    ax = fig.add_subplot(111)
    ys = np.arange(n)[::-1]
    v = np.asarray(values, dtype=float)
    if low is not None and high is not None:
        lo, hi = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
        ok = np.isfinite(lo) & np.isfinite(hi)
        ax.hlines(ys[ok], lo[ok], hi[ok], color="C0", lw=1.4)
    ax.plot(v, ys, "o", color="C0", ms=4.5, label=value_label or None, zorder=3)
    if extra is not None:
        ax.plot(
            np.asarray(extra, dtype=float),
            ys,
            "o",
            mfc="white",
            mec="C3",
            ms=4.5,
            label=extra_label or None,
            zorder=3,
        )
    if reference is not None and math.isfinite(reference):
        ax.axvline(reference, color="0.5", lw=0.8, ls="--")
    ax.set_yticks(ys, labels=[_short(s, 34) for s in labels], fontsize=7.5)
    ax.set_ylim(-0.7, n - 0.3)
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_xlabel(xlabel, fontsize=8.5)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", color="0.9", lw=0.6)
    if title:
        ax.set_title(title, fontsize=10)
    if value_label or extra_label:
        fig.legend(fontsize=7.5, loc="outside lower center", ncols=2, frameon=False)
    return fig


def count_matrix(
    matrix: Any,
    row_labels: Sequence[Any],
    col_labels: Sequence[Any] | None = None,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    digits: int = 0,
) -> Figure:
    """Confusion or coincidence matrix as a heatmap of counts (the count in each cell)."""
    import numpy as np

    m = np.asarray(matrix, dtype=float)
    col_labels = row_labels if col_labels is None else col_labels
    r, c = m.shape
    size = min(5.2, max(2.8, 0.45 * max(r, c) + 1.6))
    fig = _figure(size + 0.7, size)
    ax = fig.add_subplot(111)
    im = ax.imshow(m, cmap="Blues")
    ax.set_xticks(
        range(c), labels=[_short(x, 16) for x in col_labels], rotation=45, ha="right", fontsize=8
    )
    ax.set_yticks(range(r), labels=[_short(x, 16) for x in row_labels], fontsize=8)
    if max(r, c) <= 14:
        top = float(np.nanmax(m)) if m.size else 1.0
        for i in range(r):
            for j in range(c):
                ax.text(
                    j,
                    i,
                    f"{m[i, j]:,.{digits}f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if m[i, j] > top / 2 else "black",
                )
    ax.set_xlabel(xlabel, fontsize=8.5)
    ax.set_ylabel(ylabel, fontsize=8.5)
    if title:
        ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def forest(
    labels: Sequence[Any],
    values: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    groups: Sequence[Any] | None = None,
    xlabel: str = "",
    title: str = "",
) -> Figure:
    """Forest plot: estimate and interval per row, colour per group, dashed line at the first row."""
    import numpy as np

    n = len(labels)
    fig = _figure(6.8, max(2.0, 0.22 * n + 1.0))
    ax = fig.add_subplot(111)
    ys = np.arange(n)[::-1]
    groups = list(groups) if groups is not None else ["" for _ in labels]
    colours = {g: f"C{k % 10}" for k, g in enumerate(dict.fromkeys(groups))}
    v, lo, hi = (np.asarray(x, dtype=float) for x in (values, low, high))
    # one interval collection and one marker line per group (not two artists per row: a long
    # forest drew a hundred artists); intervals end as a 1.6-pt line of their own would
    g_of = np.asarray([list(colours).index(g) for g in groups], dtype=int)
    for k, col in enumerate(colours.values()):
        mine = g_of == k
        spans = mine & np.isfinite(lo) & np.isfinite(hi)
        if spans.any():
            ax.hlines(ys[spans], lo[spans], hi[spans], colors=col, lw=1.6, capstyle="projecting")
        dots = mine & np.isfinite(v)
        if dots.any():
            ax.plot(v[dots], ys[dots], "o", color=col, ms=4, zorder=2.1)
    if n and math.isfinite(v[0]):
        ax.axvline(v[0], color="0.5", lw=0.8, ls="--")
    ax.axvline(0.0, color="0.8", lw=0.8)
    ax.set_yticks(ys, labels=[_short(s, 40) for s in labels], fontsize=7.5)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlabel(xlabel, fontsize=8.5)
    ax.tick_params(axis="x", labelsize=8)
    if title:
        ax.set_title(title, fontsize=10)
    return fig


def timeline_lanes(
    lanes: Sequence[str],
    lane: Sequence[int],
    start: Sequence[float],
    end: Sequence[float],
    labels: Sequence[str],
    fills: Sequence[str],
    borders: Sequence[str],
    marked: Sequence[bool],
    window: tuple[float, float],
    legend: Sequence[tuple[str, str, str]] = (),
    xlabel: str = "time (s)",
    title: str = "",
) -> Figure:
    """Units in time as labelled blocks, one lane per annotator (top to bottom in the order
    given), on a shared time axis limited to ``window`` (seconds).

    Each block runs from its start to its end, filled with ``fills`` and bordered with
    ``borders`` (a thick border where ``marked``); a unit of length zero (a point) is a diamond.
    A block's label is written in it when it fits. ``legend`` rows are (text, fill, border).
    """
    import numpy as np
    from matplotlib.patches import Patch

    n = len(lanes)
    fig = _figure(6.8, 0.42 * n + 1.35 + (0.22 if legend else 0.0))
    ax = fig.add_subplot(111)
    a0, a1 = float(window[0]), float(max(window[1], window[0] + 1e-3))
    y = np.asarray(lane, dtype=float)
    s, e = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    mk = np.asarray(marked, dtype=bool)
    lw = np.where(mk, 1.6, 0.5)
    blocks = e > s
    if blocks.any():
        ix = np.flatnonzero(blocks)
        ax.barh(
            y[ix],
            (e - s)[ix],
            left=s[ix],
            height=0.62,
            color=[fills[i] for i in ix],
            edgecolor=[borders[i] for i in ix],
            linewidth=lw[ix],
            zorder=2,
        )
    points = np.flatnonzero(~blocks)
    if len(points):
        ax.scatter(
            s[points],
            y[points],
            marker="D",
            s=30,
            c=[fills[i] for i in points],
            edgecolors=[borders[i] for i in points],
            linewidths=lw[points].tolist(),
            zorder=3,
        )
    # a label fits when its characters (about 0.55 em wide) fit the block's visible width
    points_per_second = 6.0 * 72 / (a1 - a0)
    for i in np.flatnonzero(blocks).tolist():
        lo, hi = max(s[i], a0), min(e[i], a1)
        room = int((hi - lo) * points_per_second / (0.55 * 6.5)) - 1
        if room >= min(len(str(labels[i])), 4):  # a whole short label, or four characters
            ax.text(
                (lo + hi) / 2,
                y[i],
                _short(labels[i], room),
                ha="center",
                va="center",
                fontsize=6.5,
                clip_on=True,
                zorder=4,
            )
    ax.set_yticks(range(n), labels=[_short(x, 22) for x in lanes], fontsize=7.5)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(a0, a1)
    ax.set_xlabel(xlabel, fontsize=8.5)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", color="0.9", lw=0.6, zorder=0)
    if title:
        ax.set_title(title, fontsize=10)
    if legend:
        handles = [
            Patch(facecolor=f, edgecolor=b, linewidth=1.4, label=_short(t, 24))
            for t, f, b in legend
        ]
        fig.legend(
            handles=handles,
            fontsize=7,
            loc="outside lower center",
            ncols=len(handles) if len(handles) <= 7 else (len(handles) + 1) // 2,
            frameon=False,
        )
    return fig

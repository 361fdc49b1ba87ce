"""Report section of a time-aligned spans study (ELAN, Praat): the timeline of the recordings
with most disagreement, one lane per annotator, as the timeline view draws them.

A long recording is shown by the stretch of :data:`WINDOW_MS` (shorter for a dense one) with
most disagreeing groups of units (a two-hour recording drawn whole would be one grey band); the
caption says which.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from iaa_desktop.core.export import charts
from iaa_desktop.core.export.html_blocks import figure_html, shown_note
from iaa_desktop.core.export.report import ReportContext, Section
from iaa_desktop.core.kinds.spans.measures import KINDS

#: recordings drawn (those with most disagreeing groups of units)
N_RECORDINGS = 3
#: the longest stretch of a recording drawn (ms)
WINDOW_MS = 60_000
#: a dense recording: a stretch as long as it takes for about this many units per lane (to
#: tell the blocks apart), but at least :data:`MIN_WINDOW_MS`
UNITS_PER_LANE = 25
MIN_WINDOW_MS = 5_000
#: label fills (ColorBrewer Set3, as the timeline view fills them), in the labels' order
FILLS = (
    "#8dd3c7",
    "#ffffb3",
    "#bebada",
    "#fbb4ae",
    "#b3cde3",
    "#fed9a6",
    "#b3de69",
    "#fccde5",
    "#decbe4",
    "#ccebc5",
    "#ffed6f",
    "#d9d9d9",
)
#: border of a unit by its group's kind of agreement (the view's colours)
BORDERS = {
    "agree": "#2e7d32",
    "boundary": "#1f3fbf",
    "label": "#c00000",
    "boundary and label": "#c00000",
    "only some": "#8e24aa",
}
#: labels named in a figure's legend (the others keep their colour, unnamed)
MAX_LEGEND_LABELS = 9


def worst_recordings(result: Any) -> list[int]:
    """Indices of the recordings with disagreeing groups, most first (input order on ties)."""
    corpus, groups = result.corpus, result.groups
    bad = groups.kind != KINDS.index("agree")
    counts = np.bincount(groups.doc[bad], minlength=len(corpus.names))
    order = np.lexsort((np.arange(len(counts)), -counts))
    return [int(d) for d in order if counts[d] > 0]


def window_of(starts: Any, duration: int, width: int = WINDOW_MS) -> tuple[int, int]:
    """The stretch ``[a, a + width)`` of a recording holding the most of ``starts`` (ms; the
    whole recording when it is no longer), the earliest such stretch on ties."""
    if duration <= width:
        return 0, max(duration, 1)
    s = np.sort(np.asarray(starts, dtype=np.int64))
    if not len(s):
        return 0, width
    inside = np.searchsorted(s, s + width, side="left") - np.arange(len(s))
    a = int(s[int(np.argmax(inside))])
    a = max(0, min(a - width // 20, duration - width))  # a little before the first one
    return a, a + width


def timeline_figure(result: Any, d: int) -> tuple[Any, str]:
    """Recording ``d``'s units as a timeline figure, and its caption."""
    corpus, groups = result.corpus, result.groups
    duration = int(corpus.lengths[d])
    bad = (groups.doc == d) & (groups.kind != KINDS.index("agree"))
    ix = np.flatnonzero(corpus.doc == d)
    per_lane = len(ix) / max(len(corpus.annotators), 1)
    width = WINDOW_MS
    if per_lane and duration * UNITS_PER_LANE / per_lane < WINDOW_MS:
        width = max(MIN_WINDOW_MS, int(round(duration * UNITS_PER_LANE / per_lane, -3)))
    a, b = window_of(groups.start[bad], duration, width)
    spans = [corpus.spans[i] for i in ix.tolist()]
    st = np.array([s.start for s in spans], dtype=np.int64)
    en = np.array([s.end for s in spans], dtype=np.int64)
    seen = (en >= a) & (st <= b)
    ix, st, en = ix[seen], st[seen], en[seen]
    kinds = [KINDS[int(k)] for k in groups.kind[groups.of_span[ix]]]
    labels = [corpus.labels[int(k)] for k in corpus.label[ix]]
    fill = {lab: FILLS[k % len(FILLS)] for k, lab in enumerate(corpus.labels)}
    shown = sorted(set(labels), key=corpus.labels.index)
    legend = [(lab, fill[lab], "#555555") for lab in shown[:MAX_LEGEND_LABELS]]
    legend += [(k, "#ffffff", BORDERS[k]) for k in KINDS if k in kinds]
    fig = charts.timeline_lanes(
        list(corpus.annotators),
        corpus.ann[ix].tolist(),
        (st / 1000).tolist(),
        (en / 1000).tolist(),
        labels,
        [fill[lab] for lab in labels],
        [BORDERS[k] for k in kinds],
        [k != "agree" for k in kinds],
        (a / 1000, b / 1000),
        legend=legend,
    )
    name = corpus.names[d]
    n_bad = int(bad.sum())
    where = (
        f"seconds {a / 1000:,.0f}–{b / 1000:,.0f} of {duration / 1000:,.0f}, the stretch "
        "with most disagreements"
        if (a, b) != (0, max(duration, 1))
        else f"all {duration / 1000:,.1f} s"
    )
    caption = (
        f"{name}: every annotator's units ({where}); fill: label; border: how the units "
        f"overlapping them agree (thick: a disagreement; {n_bad:,} in this recording)."
    )
    return fig, caption


def section(result: Any, ctx: ReportContext) -> Section | None:
    """The timelines of the recordings with most disagreement (charts on), or None."""
    corpus, groups = getattr(result, "corpus", None), getattr(result, "groups", None)
    if corpus is None or groups is None or not corpus.time_unit or not ctx.charts:
        return None
    worst = worst_recordings(result)
    if not worst:
        return None
    body = []
    for d in worst[:N_RECORDINGS]:
        fig, caption = timeline_figure(result, d)
        body.append(figure_html(fig, caption))
    body.append(
        shown_note(
            min(N_RECORDINGS, len(worst)),
            len(corpus.names),
            "recordings",
            "with most disagreement",
        )
    )
    return Section("Timelines", "\n".join(body), anchor="timelines")

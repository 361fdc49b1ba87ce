"""Matplotlib figures of a multi-label result (no Qt; the view and the PDF report share them).

Every builder works on a :class:`matplotlib.figure.Figure` created without pyplot, so it can be
drawn by any backend (the Qt canvas in the view, Agg/PDF in reports).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.collections import PathCollection
    from matplotlib.colorbar import Colorbar
    from matplotlib.figure import Figure

    from iaa_desktop.core.kinds.multilabel.result import MultiLabelResult

#: one colour per |S1| (1 … 8), then repeated
SIZE_COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
)

#: the colour bar drawn beside an axes' scatter, removed when the axes are drawn again
_COLOUR_BARS: weakref.WeakKeyDictionary[Axes, Colorbar] = weakref.WeakKeyDictionary()


def new_figure(width: float = 6.0, height: float = 4.5, dpi: int = 100) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=dpi, layout="constrained")


def scatter_points(
    result: MultiLabelResult, rows: Sequence[int] | NDArray[Any] | None = None
) -> dict[str, NDArray[Any]]:
    """Coordinates of the explored partitions: first level (x) and second-level average (y).

    Partitions with an undefined value are left out (they cannot be placed); ``index`` holds the
    row of each plotted point in ``result.partitions``.
    """
    if result.exploration is None:
        empty = np.zeros(0)
        return {"index": empty.astype(int), "x": empty, "y": empty, "size": empty.astype(int)}
    x, _ = result.first_level_mean(result.exploration)
    y = result.second_level_means(result.exploration)["average"]
    idx = np.arange(len(x)) if rows is None else np.asarray(rows, dtype=int)
    ok = ~np.isnan(x[idx]) & ~np.isnan(y[idx])
    idx = idx[ok]
    return {"index": idx, "x": x[idx], "y": y[idx], "size": result.partitions[idx].sum(axis=1)}


def draw_decomposition_scatter(
    ax: Axes,
    result: MultiLabelResult,
    rows: Sequence[int] | NDArray[Any] | None = None,
    selected: int | None = None,
    picker: float | None = None,
) -> tuple[PathCollection | None, NDArray[Any]]:
    """First level vs second level, one point per partition, coloured by |S1|.

    The theory-driven S1 (the chosen one) is ringed; ``selected`` (a partition row) is marked.

    Returns
    -------
    collection : the scatter artist (``None`` when nothing can be plotted)
    index : partition row of each point of the collection (for pick events)
    """
    pts = scatter_points(result, rows)
    _reset_axes(ax, len(result.partitions) if rows is None else len(rows), len(pts["index"]))
    if len(pts["index"]) == 0:
        return None, pts["index"]
    coll = _scatter_by_size(ax, pts, picker)
    chosen = _row_of(result, result.s1)
    _mark(
        ax,
        pts,
        chosen,
        s=160,
        facecolors="none",
        edgecolors="black",
        linewidths=1.5,
        label="chosen S1",
    )
    _mark(
        ax,
        pts,
        selected,
        s=120,
        marker="*",
        c="gold",
        edgecolors="black",
        linewidths=0.8,
        zorder=5,
        label="selected",
    )
    # outside the axes, so it never hides a point
    ax.legend(
        loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, framealpha=0.8, borderaxespad=0.0
    )
    return coll, pts["index"]


def _reset_axes(ax: Axes, n_total: int, n_shown: int) -> None:
    """Clear the axes (and a colour bar of an earlier drawing); labels, grid and title."""
    old_bar = _COLOUR_BARS.pop(ax, None)
    if old_bar is not None:  # a redraw must not stack colour bars
        old_bar.remove()
    ax.clear()
    ax.set_xlabel("first level: κ on C_S1 (mean over pairs)")
    ax.set_ylabel("second level: mean per-label κ")
    ax.grid(True, alpha=0.3)
    n_undef = n_total - n_shown
    title = f"{n_shown:,} partitions"
    if n_undef:
        title += f" ({n_undef:,} with undefined κ not shown)"
    ax.set_title(title, fontsize=10)


def _scatter_by_size(
    ax: Axes, pts: dict[str, NDArray[Any]], picker: float | None
) -> PathCollection:
    """The points coloured by |S1|: a legend of sizes, or a colour scale when there are many."""
    small = len(pts["index"]) > 2000
    sizes = sorted(set(pts["size"].tolist()))
    s, alpha = (6, 0.6) if small else (22, 0.85)
    if len(sizes) <= len(SIZE_COLOURS):
        from matplotlib.colors import to_rgba_array

        palette = to_rgba_array(SIZE_COLOURS)
        coll = ax.scatter(
            pts["x"],
            pts["y"],
            c=palette[(pts["size"] - 1) % len(SIZE_COLOURS)],
            s=s,
            alpha=alpha,
            edgecolors="none",
            picker=picker,
        )
        for size in sizes:
            ax.scatter(
                [], [], c=SIZE_COLOURS[(size - 1) % len(SIZE_COLOURS)], s=22, label=f"|S1| = {size}"
            )
    else:  # many sizes (k ≥ 5 with search results): a colour scale instead of a long legend
        coll = ax.scatter(
            pts["x"],
            pts["y"],
            c=pts["size"],
            cmap="viridis",
            s=s,
            alpha=alpha,
            edgecolors="none",
            picker=picker,
        )
        _COLOUR_BARS[ax] = ax.figure.colorbar(coll, ax=ax, label="|S1|", shrink=0.6)
    return coll


def _mark(ax: Axes, pts: dict[str, NDArray[Any]], row: int | None, **style: Any) -> None:
    """Draw partition ``row`` again in ``style`` (ringed, starred), when it is among the points."""
    if row is None or row not in set(pts["index"].tolist()):
        return
    j = int(np.flatnonzero(pts["index"] == row)[0])
    ax.scatter([pts["x"][j]], [pts["y"][j]], **style)


def _row_of(result: MultiLabelResult, s1: NDArray[Any]) -> int | None:
    """Row of a partition (either side given) among the explored ones."""
    if len(result.partitions) == 0 or len(s1) != result.partitions.shape[1]:
        return None
    s1 = np.asarray(s1, dtype=bool)
    hit = np.flatnonzero(
        (result.partitions == s1).all(axis=1) | (result.partitions == ~s1).all(axis=1)
    )
    return int(hit[0]) if len(hit) else None


def decomposition_scatter_figure(result: MultiLabelResult, selected: int | None = None) -> Figure:
    """The scatter as a stand-alone figure (for the report)."""
    fig = new_figure()
    draw_decomposition_scatter(fig.add_subplot(), result, selected=selected)
    return fig


def draw_per_label_kappa(ax: Axes, result: MultiLabelResult) -> None:
    """Grouped bars: Cohen's κ per label, one bar per annotator pair (undefined κ left out)."""
    ax.clear()
    labels = list(result.labels)
    names = [f"{a}–{b}" for a, b in result.pair_names()]
    width = 0.8 / max(1, len(names))
    xs = np.arange(len(labels))
    for p, (name, pl) in enumerate(zip(names, result.per_label)):
        ax.bar(xs + p * width - 0.4 + width / 2, pl["kappa"], width, label=name)
    ax.set_xticks(xs, labels, rotation=30 if len(labels) > 5 else 0, fontsize=8)
    ax.set_ylabel("Cohen's κ")
    low = min(
        [
            0.0,
            *[
                float(np.nanmin(pl["kappa"]))
                for pl in result.per_label
                if np.isfinite(pl["kappa"]).any()
            ],
        ]
    )
    ax.set_ylim(low, 1.0)
    ax.grid(True, axis="y", alpha=0.3)
    if names:
        ax.legend(fontsize=8, ncols=min(4, len(names)), loc="lower right")
    ax.set_title("κ per label and annotator pair", fontsize=10)


def per_label_kappa_figure(result: MultiLabelResult) -> Figure:
    """The per-label κ bars as a stand-alone figure (for the report)."""
    fig = new_figure(6.0, 3.6)
    draw_per_label_kappa(fig.add_subplot(), result)
    return fig


def combinations_figure(result: MultiLabelResult) -> Figure:
    """Share of each label combination (code) per annotator."""
    comb = result.combinations()
    assert result.data is not None
    fig = new_figure(6.0, 3.6)
    ax = fig.add_subplot()
    anns = list(result.data.annotators)
    width = 0.8 / max(1, len(anns))
    xs = np.arange(len(comb))
    for i, a in enumerate(anns):
        counts = comb[a].to_numpy(dtype=float)
        ax.bar(xs + i * width - 0.4 + width / 2, counts / max(1.0, counts.sum()), width, label=a)
    ax.set_xticks(xs, comb["code"].tolist(), rotation=90 if len(xs) > 16 else 0, fontsize=8)
    ax.set_ylabel("share of the annotator's items")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Label combinations (first label = leftmost bit)", fontsize=10)
    return fig


def all_figures(result: MultiLabelResult) -> dict[str, Any]:
    """Every figure of the kind, by name (for the report)."""
    return {
        "per_label_kappa": per_label_kappa_figure(result),
        "combinations": combinations_figure(result),
        "decomposition_scatter": decomposition_scatter_figure(result),
    }

"""Charts of graded use pairs as matplotlib Figures (no Qt: the GUI embeds them in a
``FigureCanvasQTAgg``, the report saves them as images).

* :func:`targets_figure` — α and Spearman per target before and after the filter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from iaa_desktop.core.kinds.durel.compare import DurelResult

import math
from typing import Any

from iaa_desktop.core.kinds.use_pairs import value_axis


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _finite(v: Any) -> bool:
    return v is not None and isinstance(v, int | float) and math.isfinite(v)


def targets_figure(result: DurelResult, width: float = 7.0) -> Figure:
    """α and Spearman per target, all items and filtered items (durel)."""
    targets = result.targets
    fig = _figure(width, max(2.2, 0.28 * len(targets) + 1.0))
    ax = fig.add_subplot(1, 1, 1)
    ys = list(range(len(targets)))[::-1]
    series = [
        ("all", "krippendorff_alpha", "α all", "C0", "o"),
        ("filtered", "krippendorff_alpha", "α filtered", "C0", "s"),
        ("all", "spearman_weighted", "ρ all", "C1", "o"),
        ("filtered", "spearman_weighted", "ρ filtered", "C1", "s"),
    ]
    for part, key, label, colour, marker in series:
        vals = [t[part][key] for t in targets]
        ax.plot(
            [v if _finite(v) else float("nan") for v in vals],
            ys,
            marker,
            color=colour,
            mfc="white" if part == "all" else colour,
            ms=5,
            ls="none",
            label=label,
        )
    ax.axvline(0.0, color="0.8", lw=0.8)
    ax.set_yticks(ys)
    ax.set_yticklabels([t["target"] for t in targets], fontsize=7)
    ax.tick_params(axis="x", labelsize=8)
    ax.legend(fontsize=7, loc="best", ncols=2)
    ax.set_xlabel("agreement per target", fontsize=8)
    value_axis(ax, len(targets))
    return fig

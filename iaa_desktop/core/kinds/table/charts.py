"""Charts of the generic table kind (matplotlib Figures, no Qt): pairwise heatmap, coincidences.

The GUI embeds these figures in a canvas; the report renders the same figures as SVG.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

import math
from typing import Any


def pairwise_heatmap_figure(
    matrix: Any, title: str = "", vmin: float = -1.0, vmax: float = 1.0, figure: Any = None
) -> Figure:
    """Annotators × annotators heatmap with the value in each cell (NaN cells left blank)."""
    from matplotlib.figure import Figure

    fig = figure if figure is not None else Figure(figsize=(4.6, 3.8), layout="constrained")
    fig.clear()
    ax = fig.add_subplot(111)
    names = [str(n) for n in matrix.index]
    values = matrix.to_numpy(dtype=float)
    # imshow masks the NaN cells (no value) itself: they get no colour
    im = ax.imshow(values, cmap="RdYlGn", vmin=vmin, vmax=vmax)
    ax.set_xticks(range(len(names)), labels=names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), labels=names)
    for i in range(len(names)):
        for j in range(len(names)):
            v = values[i, j]
            if not math.isnan(v):
                ax.text(
                    j,
                    i,
                    f"{v:.2f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="black" if 0.15 < (v - vmin) / (vmax - vmin) < 0.85 else "white",
                )
    if title:
        ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def coincidence_figure(matrix: Any, categories: list[str], figure: Any = None) -> Figure:
    """Krippendorff's coincidence matrix as a heatmap of counts."""
    import numpy as np
    from matplotlib.figure import Figure

    fig = figure if figure is not None else Figure(figsize=(4.6, 3.8), layout="constrained")
    fig.clear()
    ax = fig.add_subplot(111)
    m = np.asarray(matrix, dtype=float)
    im = ax.imshow(m, cmap="Blues")
    ax.set_xticks(range(len(categories)), labels=categories, rotation=45, ha="right")
    ax.set_yticks(range(len(categories)), labels=categories)
    if len(categories) <= 12:
        top = m.max() if m.size else 1
        for i in range(len(categories)):
            for j in range(len(categories)):
                ax.text(
                    j,
                    i,
                    f"{m[i, j]:.1f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if m[i, j] > top / 2 else "black",
                )
    ax.set_title("Coincidence matrix", fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig

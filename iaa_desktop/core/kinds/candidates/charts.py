"""Charts of candidate text-reuse pairs as matplotlib Figures (no Qt: the GUI embeds them in a
``FigureCanvasQTAgg``, the report saves them as images).

* :func:`forest_figure` — multi-κ by factor level with the posterior median and the 89% (thick)
  and 95% (thin) intervals;
* :func:`overlap_curve_figure` — agreement against lexical overlap: multi-κ per overlap bin with
  its intervals and the observed pairwise agreement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from iaa_desktop.core.kinds.candidates.compare import CandidatesResult

import math
from typing import Any

from iaa_desktop.core.kinds.use_pairs import value_axis


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _finite(v: Any) -> bool:
    return v is not None and isinstance(v, int | float) and math.isfinite(v)


def forest_rows(result: CandidatesResult, factors: list[str] | None = None) -> list[dict[str, Any]]:
    """Rows of the forest plot: overall, then each factor's levels, then the overlap bins."""
    rows = [
        {
            "group": "overall",
            "label": f"all (n={result.overall['multi_kappa']['n_items']})",
            **result.overall["multi_kappa"],
        }
    ]
    for f in factors if factors is not None else list(result.by_factor):
        for lv in result.by_factor.get(f, []):
            rows.append(
                {
                    "group": f,
                    "label": f"{f} = {lv['level']} (n={lv['n_items']})",
                    **lv["multi_kappa"],
                }
            )
    if factors is None:
        for lv in result.by_overlap_bin:
            rows.append(
                {
                    "group": "overlap",
                    "label": f"overlap {lv['level']} (n={lv['n_items']})",
                    **lv["multi_kappa"],
                }
            )
    return rows


def forest_figure(
    result: CandidatesResult, factors: list[str] | None = None, width: float = 7.0
) -> Figure:
    """Forest plot of multi-κ per factor level (see the module docstring)."""
    rows = forest_rows(result, factors)
    fig = _figure(width, max(2.0, 0.22 * len(rows) + 0.9))
    ax = fig.add_subplot(1, 1, 1)
    groups = list(dict.fromkeys(r["group"] for r in rows))
    colours = {g: f"C{k % 10}" for k, g in enumerate(groups)}
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        c = colours[r["group"]]
        lo95, hi95 = r["bayes_95"]
        lo89, hi89 = r["bayes_89"]
        if _finite(lo95) and _finite(hi95):
            ax.plot([lo95, hi95], [y, y], color=c, lw=1.0)
        if _finite(lo89) and _finite(hi89):
            ax.plot([lo89, hi89], [y, y], color=c, lw=3.2, solid_capstyle="butt")
        if _finite(r["bayes_median"]):
            ax.plot([r["bayes_median"]], [y], "o", color="white", mec=c, ms=5, zorder=3)
        if _finite(r["value"]):
            ax.plot([r["value"]], [y], "|", color="black", ms=8, zorder=4)
    overall = rows[0]["value"]
    if _finite(overall):
        ax.axvline(overall, color="0.5", lw=0.8, ls="--")
    ax.axvline(0.0, color="0.8", lw=0.8)
    ax.set_yticks(ys)
    ax.set_yticklabels([r["label"] for r in rows], fontsize=7)
    ax.set_xlabel(
        "multi-κ  (○ posterior median, thick 89%, thin 95%, | point estimate)", fontsize=8
    )
    ax.tick_params(axis="x", labelsize=8)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    value_axis(ax, len(rows))
    return fig


def overlap_curve_figure(
    result: CandidatesResult, width: float = 6.0, height: float = 3.4
) -> Figure:
    """Agreement against lexical overlap, one point per overlap bin at its median overlap."""
    fig = _figure(width, height)
    ax = fig.add_subplot(1, 1, 1)
    bins = [b for b in result.by_overlap_bin if _finite(b.get("overlap_median"))]
    x = [b["overlap_median"] for b in bins]
    k = [b["multi_kappa"]["value"] for b in bins]
    med = [b["multi_kappa"]["bayes_median"] for b in bins]
    lo95 = [b["multi_kappa"]["bayes_95"][0] for b in bins]
    hi95 = [b["multi_kappa"]["bayes_95"][1] for b in bins]
    lo89 = [b["multi_kappa"]["bayes_89"][0] for b in bins]
    hi89 = [b["multi_kappa"]["bayes_89"][1] for b in bins]
    if bins:
        ax.fill_between(x, lo95, hi95, color="C0", alpha=0.15, lw=0, label="95% interval")
        ax.fill_between(x, lo89, hi89, color="C0", alpha=0.25, lw=0, label="89% interval")
        ax.plot(x, med, "-o", color="C0", ms=4, label="multi-κ (posterior median)")
        ax.plot(x, k, "x", color="black", ms=5, label="multi-κ (point estimate)")
        ax.plot(
            x,
            [b["percent_agreement"] for b in bins],
            "--s",
            color="C1",
            ms=3,
            label="pairwise agreement",
        )
    ax.set_xlabel("lexical overlap (weighted Jaccard; median of each quantile bin)", fontsize=8)
    ax.set_ylabel("agreement", fontsize=8)
    ax.tick_params(labelsize=8)
    ax.legend(fontsize=7, loc="center")
    return fig

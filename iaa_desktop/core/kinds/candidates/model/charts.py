"""Figures of the agreement model as matplotlib Figures (no Qt: the Model tab embeds them in a
``FigureCanvasQTAgg``, the report saves them as images).

* :func:`kappa_forest_figure` — posterior multi-κ by condition, without and with the variation of
  the open varying-intercept factors side by side (the paper's Figure 2);
* :func:`kappa_curves_figure` — κ over standardised overlap with 50% and 89% bands, one row per
  combination of the few-level factors, without / with varying intercepts (its Figure 3);
* :func:`elpd_figure` — ELPD difference to the best model with ±2 SE (its Table 2 as a plot).
"""

from __future__ import annotations

import math
from typing import Any


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _label(cond: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in cond.items()) or "all"


def forest_rows(fit: Any) -> list[tuple[str, dict[str, Any]]]:
    """(label, κ row): overall, the crossing of the few-level factors, then their levels."""
    k = fit.kappa
    rows = [("all (overlap at its mean)", k["overall"])]
    rows += [(_label(r["condition"]), r) for r in k["crossed"]]
    for factor, levels in k["by_level"].items():
        if len(levels) <= 12:
            rows += [(f"{factor} = {lv['level']}", lv) for lv in levels]
    return rows


def kappa_forest_figure(fit: Any, width: float = 7.0):
    """Posterior medians with 89% (thick) and 95% (thin) intervals, two panels."""
    rows = forest_rows(fit)
    fig = _figure(width, max(2.2, 0.26 * len(rows) + 1.1))
    axes = fig.subplots(1, 2, sharey=True)
    ys = list(range(len(rows)))[::-1]
    for ax, key, title in (
        (axes[0], "kappa", "without varying\nintercepts"),  # two lines: never over the other
        (axes[1], "kappa_with_varying", "with varying\nintercepts"),
    ):
        for y, (_, r) in zip(ys, rows):
            s = r[key]
            ax.plot(s["q95"], [y, y], color="C0", lw=0.9)
            ax.plot(s["q89"], [y, y], color="C0", lw=2.6)
            ax.plot([s["median"]], [y], "o", color="black", ms=3.5)
        ax.axvline(0.0, color="0.75", lw=0.8)
        ax.set_title(title, fontsize=8.5)
        ax.set_xlabel("multi-κ", fontsize=8.5)
        ax.tick_params(labelsize=7.5)
    axes[0].set_yticks(ys, labels=[lab for lab, _ in rows], fontsize=7.5)
    axes[0].set_ylim(-0.7, len(rows) - 0.3)
    return fig


def kappa_curves_figure(fit: Any, width: float = 7.0, row_height: float = 1.7):
    """κ over overlap (z-score) per combination of the few-level factors, bands 50% and 89%."""
    c = fit.curves
    curves = c.get("curves", [])
    fig = _figure(width, max(2.0, row_height * len(curves) + 0.8))
    if not curves:
        ax = fig.add_subplot(111)
        ax.text(0.5, 0.5, "overlap is not in this model", ha="center", va="center")
        ax.set_axis_off()
        return fig
    axes = fig.subplots(len(curves), 2, sharex=True, sharey=True, squeeze=False)
    z = c["z"]
    for i, curve in enumerate(curves):
        for j, (key, title) in enumerate((("without", "without"), ("with", "with"))):
            ax = axes[i][j]
            q = list(zip(*curve[key]))  # 5 quantile series
            ax.fill_between(z, q[0], q[4], color="0.85", lw=0)
            ax.fill_between(z, q[1], q[3], color="0.65", lw=0)
            ax.plot(z, q[2], color="black", lw=1.2)
            ax.axhline(0.0, color="0.5", lw=0.6, ls=":")
            ax.tick_params(labelsize=7.5)
            if i == 0:
                ax.set_title(f"{title} varying\nintercepts", fontsize=9)
            if j == 0:
                ax.set_ylabel(_label(curve["condition"]).replace(", ", "\n"), fontsize=7.5)
    for ax in axes[-1]:
        ax.set_xlabel("lexical overlap (z-score)", fontsize=8.5)
    return fig


def elpd_figure(rows: list[dict[str, Any]], width: float = 6.0):
    """ELPD difference to the best model, ±2 SE of the difference (best model at 0)."""
    fig = _figure(width, max(1.6, 0.32 * len(rows) + 0.9))
    ax = fig.add_subplot(111)
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        d, se = r["elpd_diff"], r["se_diff"]
        if math.isfinite(se) and se > 0:
            ax.plot([d - 2 * se, d + 2 * se], [y, y], color="C0", lw=1.4)
        ax.plot([d], [y], "o", color="black", ms=4)
    ax.axvline(0.0, color="0.6", lw=0.8, ls="--")
    ax.set_yticks(ys, labels=[r["model"] for r in rows], fontsize=8)
    ax.set_xlabel("ELPD difference to the best model (±2 SE)", fontsize=8.5)
    ax.tick_params(axis="x", labelsize=8)
    return fig

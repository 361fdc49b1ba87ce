"""The "Annotators" tab of the kinds whose judgments form one item × annotator matrix (DURel,
multi-label per label, normalization per token, spans per token): the model annotators' verdicts
(the alternative annotator test of Calderon, Reichart & Dror 2025) and every table of the
study's annotator figures.

The tab is built from what the figures give (``to_json()`` and ``tables()``), not from a fixed
list: the tables are listed by title on the left, the selected one is shown on the right with the
chart that belongs to it (a model's agreement beside the humans' range, the planning curve,
agreement per batch). A table the core adds later appears without change here; its title and
tooltip come from :data:`TABLE_TITLES` or the metrics catalogue.
"""

from __future__ import annotations

import html
import math
from typing import Any

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.export.titles import column_title, column_tooltip
from iaa_desktop.core.kinds.annotators.competence import METHOD_TITLES
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.short_text import html_name, shown
from iaa_desktop.gui.widgets.stacked_tables import compact
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table

__all__ = [
    "ALT_HEADERS",
    "TABLE_TITLES",
    "StudyAnnotatorsPanel",
    "annotator_json",
    "batches_line",
    "competence_line",
    "bring_to_front",
    "has_study_annotators",
    "num",
    "p_as_text",
    "verdict_html",
]

#: headers of the alternative annotator test's per-human columns
ALT_HEADERS = {
    "rho_model": "ρ model",
    "rho_human": "ρ human",
    "p_value": "p",
    "p_adjusted": "p (BY)",
    "model_beats": "model wins",
}
#: headers of the other columns the annotator tables share
HEADERS = {
    **ALT_HEADERS,
    "with": "compared with",
    "kappa": "Cohen's κ",
    "kappa_ci_low": "κ 95% low",
    "kappa_ci_high": "κ 95% high",
    "alpha": "Krippendorff's α",
    "alpha_ci_low": "α 95% low",
    "alpha_ci_high": "α 95% high",
    "winning_rate": "ω (winning rate)",
    "advantage_probability": "ρ (advantage probability)",
    "epsilon": "ε",
    "q": "q (FDR)",
    "score": "scored by",
    "study_items": "items in the study",
    "half_width": "half-width",
    "below_study": "below the study",
}
#: the catalogue's figure explaining a column whose own name the catalogue does not know
COLUMN_FIGURES = {
    "kappa": "cohen_kappa",
    "kappa_ci_low": "cohen_kappa",
    "kappa_ci_high": "cohen_kappa",
    "alpha": "krippendorff_alpha",
    "alpha_ci_low": "krippendorff_alpha",
    "alpha_ci_high": "krippendorff_alpha",
    "rho_model": "advantage_probability",
    "rho_human": "advantage_probability",
    "p_value": "winning_rate",
    "p_adjusted": "winning_rate",
    "model_beats": "winning_rate",
    "passes": "winning_rate",
    "epsilon": "winning_rate",
    "q": "winning_rate",
    "half_width": "half_width",
    "ci_low": "half_width",
    "ci_high": "half_width",
}
#: titles of the tables the core names, in the order listed (others follow, spelled out)
TABLE_TITLES = {
    "model_annotators": "Model annotators: verdicts",
    "alt_test": "Alt-test per human",
    "model_agreement": "Model agreement with humans",
    "competence": "Competence",
    "inferred": "Inferred labels",
    "confusion": "Confusion matrices (Dawid–Skene)",
    "per_batch": "Agreement per batch",
    "per_batch_study": "The study's figures (what batches are compared with)",
    "retest": "Test–retest",
    "planning": "Planning curve",
}
#: the table selected first: where a model stands among the humans, drawn
FIRST_TABLE = "model_agreement"
#: the catalogue's figure whose help explains a table (the list's tooltip)
TABLE_FIGURES = {
    "model_annotators": "winning_rate",
    "alt_test": "winning_rate",
    "model_agreement": "cohen_kappa",
    "competence": "dawid_skene",
    "inferred": "dawid_skene",
    "confusion": "dawid_skene",
    "per_batch": "krippendorff_alpha",
    "per_batch_study": "krippendorff_alpha",
    "retest": "krippendorff_alpha",
    "planning": "half_width",
}
#: what a table's rows can be narrowed to, one value at a time (a choice above the table)
CHOICE_COLUMNS = ("label", "model", "metric")
#: a table longer than this many rows has its chart above it
CHART_FIRST_ROWS = 6
#: the coefficient shown first when a table has one row per coefficient
FIRST_METRIC = "krippendorff_alpha"


def num(x: Any, digits: int = 2) -> str:
    """``x`` with ``digits`` decimals, "–" when undefined."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:.{digits}f}"


def p_as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """p-values with three significant digits (1.4e-17, not 0.000)."""
    out = frame.copy()
    for c in ("p_value", "p_adjusted"):
        if c in out:
            out[c] = [("–" if v is None or v != v else f"{v:.3g}") for v in out[c]]
    return out


def verdict_html(m: dict[str, Any]) -> str:
    """One model's verdict in the alternative annotator test, as a line of rich text."""
    on = f" on the label <b>{html_name(str(m['label']))}</b>" if "label" in m else ""
    if not m["per_human"]:
        return (
            f"<b>{html_name(m['name'])}</b> (model) could not be tested{on}: no human shares "
            "30 or more items with it that another human judged too."
        )
    verdict = "passes" if m["passes"] else "does not pass"
    return (
        f"<b>{html_name(m['name'])}</b> (model) {verdict} the alternative annotator test{on}: "
        f"ω = {num(m['winning_rate'])}, ρ = {num(m['advantage_probability'])} "
        f"(ε = {num(m['epsilon'])}, {len(m['per_human'])} humans tested)."
    )


def _models_headline(models: list[dict[str, Any]]) -> list[str]:
    """Every model's verdict; per label (multi-label) the labels it passes on, in one line."""
    if not any("label" in m for m in models):
        return [verdict_html(m) for m in models]
    lines = []
    for name in dict.fromkeys(m["name"] for m in models):
        mine = [m for m in models if m["name"] == name and m["per_human"]]
        if not mine:
            lines.append(
                f"<b>{html_name(name)}</b> (model) could not be tested on any label: no human "
                "shares 30 or more items with it that another human judged too."
            )
            continue
        passed = [str(m["label"]) for m in mine if m["passes"]]
        omega = [m["winning_rate"] for m in mine if m["winning_rate"] is not None]
        span = f" (ω from {num(min(omega))} to {num(max(omega))})" if omega else ""
        on = f": {', '.join(html_name(x) for x in passed)}" if passed else ""
        lines.append(
            f"<b>{html_name(name)}</b> (model) passes the alternative annotator test on "
            f"{len(passed)} of the {len(mine)} labels it could be tested on{on}{span}."
        )
    return lines


def bring_to_front(widget: QWidget) -> None:
    """Bring the tab holding ``widget`` to the front (when it sits in a tab widget)."""
    from PySide6.QtWidgets import QTabWidget

    w = widget.parentWidget()
    while w is not None and not isinstance(w, QTabWidget):
        w = w.parentWidget()
    if isinstance(w, QTabWidget):
        w.setCurrentWidget(widget)


def competence_line(figures: dict[str, Any]) -> str:
    """One line on the annotators' competence (``competence[]``): Dawid–Skene's most and least
    competent annotator ("" without competence; per label the line would mislead, so then only
    how many labels were fitted)."""
    rows = [r for r in figures.get("competence") or [] if r.get("method") == "dawid_skene"]
    if not rows:
        return ""
    labels = {str(r["label"]) for r in rows if "label" in r}
    if labels:
        return (
            f"Competence (Dawid–Skene, MACE) per label for {len(labels)} labels: "
            "see the Competence table."
        )
    known = [r for r in rows if r.get("competence") is not None]
    if not known:
        return ""
    best = max(known, key=lambda r: float(r["competence"]))
    worst = min(known, key=lambda r: float(r["competence"]))
    return (
        f"Competence (Dawid–Skene): highest <b>{html_name(str(best['annotator']))}</b> "
        f"{num(best['competence'])}, lowest <b>{html_name(str(worst['annotator']))}</b> "
        f"{num(worst['competence'])}."
    )


def batches_line(figures: dict[str, Any]) -> str:
    """One line on the agreement per batch (``per_batch[]``): how many batches, which lie below
    the study ("" without batches)."""
    batches = figures.get("per_batch") or []
    if not batches:
        return ""
    # rows per label and batch (multi-label): the batches counted once, a label beside each flag
    below = [
        str(b.get("batch", "")) + (f" ({b['label']})" if "label" in b else "")
        for b in batches
        if b.get("below_study")
    ]
    names = dict.fromkeys(str(b.get("batch", "")) for b in batches)
    # a batch where no item was judged by two annotators has no figures (and no table row)
    figured = dict.fromkeys(str(b.get("batch", "")) for b in batches if b.get("overall"))
    text = f"Agreement over {len(figured)} batches"
    if len(figured) < len(names):
        empty = len(names) - len(figured)
        text += (
            f" (and {empty} with no item judged by two annotators, so without figures: "
            + ", ".join(html_name(b) for b in [b for b in names if b not in figured][:8])
            + ")"
        )
    if below:
        shown = ", ".join(html_name(b) for b in below[:4]) + (" …" if len(below) > 4 else "")
        text += f": <b>{len(below)}</b> with an interval below the study's ({shown})"
    else:
        text += ": no batch's interval lies below the study's"
    return text + "."


def annotator_json(result: Any) -> dict[str, Any]:
    """The annotator figures of ``result`` as JSON (empty when the study asked for none)."""
    figures = getattr(result, "annotator_figures", None)
    return figures.to_json() if figures is not None else {}


def has_study_annotators(result: Any) -> bool:
    """Whether the study asked for model annotators or planning (the tab is shown then)."""
    return bool(annotator_json(result))


def table_title(name: str) -> str:
    return TABLE_TITLES.get(name) or column_title(name)


def table_tooltip(name: str) -> str:
    return column_tooltip(TABLE_FIGURES.get(name, name))


def _tooltips() -> dict[str, str]:
    """Header tooltips of the columns named otherwise than their figure (the others get the
    catalogue's text of their own name)."""
    return {c: column_tooltip(f) for c, f in COLUMN_FIGURES.items() if column_tooltip(f)}


class StudyAnnotatorsPanel(QWidget):
    """The model annotators' verdicts above; the annotator tables listed by title on the left,
    the selected one on the right with its chart."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.figures: dict[str, Any] = {}
        self.frames: dict[str, pd.DataFrame] = {}
        self.chart: Any = None
        self.view: Any = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.headline = QLabel()
        self.headline.setObjectName("annotators_headline")
        self.headline.setWordWrap(True)
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.headline)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        self.index = QListWidget()
        self.index.setObjectName("annotator_tables")
        self.index.setAccessibleName("Annotator tables")
        self.index.setMinimumWidth(190)
        self.index.setWordWrap(True)
        self.index.currentRowChanged.connect(self._show)
        split.addWidget(self.index)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        row.addWidget(self.title, 1)
        self.choices: dict[str, QComboBox] = {}
        for col in CHOICE_COLUMNS:
            combo = QComboBox()
            combo.setAccessibleName(f"Show the rows of one {col}")
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.activated.connect(self._refresh)
            combo.hide()
            row.addWidget(combo)
            self.choices[col] = combo
        rl.addLayout(row)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.page = QWidget()
        self.page_lay = QVBoxLayout(self.page)
        self.page_lay.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.caption = QLabel()
        self.caption.setObjectName("annotators_caption")
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.RichText)
        self.page_lay.addWidget(self.caption)
        self.model = DataFrameModel(parent=self, headers=HEADERS, tooltips=_tooltips())
        self.view = make_table(self.model, name="annotator_table")
        self.view.horizontalHeader().setStretchLastSection(False)  # figures stay by their names
        self.page_lay.addWidget(self.view)
        self.page_lay.addStretch(1)
        self.scroll_area.setWidget(self.page)
        rl.addWidget(self.scroll_area, 1)
        split.addWidget(right)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        split.setSizes([220, 900])
        lay.addWidget(split, 1)

    # -- result -------------------------------------------------------------------------------

    def set_result(self, result: Any) -> None:
        figures = getattr(result, "annotator_figures", None)
        self.set_figures(
            figures.to_json() if figures is not None else {},
            figures.tables() if figures is not None else {},
        )

    def set_figures(self, figures: dict[str, Any], tables: dict[str, pd.DataFrame]) -> None:
        """``figures``: the JSON of the annotator figures; ``tables``: their tables by name."""
        keep = self.current_table()
        self.figures = figures
        order = [n for n in TABLE_TITLES if n in tables] + [
            n for n in tables if n not in TABLE_TITLES
        ]
        self.frames = {n: tables[n] for n in order}
        self.headline.setText(self._headline())
        self.index.blockSignals(True)
        self.index.clear()
        for n in order:
            it = QListWidgetItem(table_title(n))
            it.setData(Qt.ItemDataRole.UserRole, n)
            tip = table_tooltip(n)
            if tip:
                it.setToolTip(f"<p>{html.escape(tip)}</p>")
            self.index.addItem(it)
        self.index.blockSignals(False)
        first = FIRST_TABLE if FIRST_TABLE in order else order[0] if order else None
        row = order.index(keep) if keep in order else order.index(first) if first else 0
        if order:
            self.index.setCurrentRow(row)
        self._show(row if order else -1)

    def _headline(self) -> str:
        parts = _models_headline(self.figures.get("model_annotators", []))
        if competence_line(self.figures):
            parts.append(competence_line(self.figures))
        if batches_line(self.figures):
            parts.append(batches_line(self.figures))
        needed = self.figures.get("planning_needed") or []
        if needed:
            from iaa_desktop.core.metrics.catalogue import title

            first = [n for n in needed if n["metric"] == FIRST_METRIC] or needed
            n = first[0]
            on = f" (label {html_name(str(n['label']))})" if "label" in n else ""
            more = " or more" if n.get("extrapolated") else ""
            parts.append(
                f"Planning{on}: about <b>{n['n_items']:,}</b>{more} doubly annotated items for "
                f"{html.escape(title(n['metric']))} within ±{num(n['half_width'])}."
            )
        return "<br>".join(parts) or "No model annotators."

    def current_table(self) -> str | None:
        it = self.index.currentItem()
        return None if it is None else str(it.data(Qt.ItemDataRole.UserRole))

    # -- the selected table -------------------------------------------------------------------

    def _show(self, row: int) -> None:
        name = self.current_table() if row >= 0 else None
        frame = self.frames.get(name, pd.DataFrame()) if name else pd.DataFrame()
        self.title.setText(f"<b>{html.escape(table_title(name))}</b>" if name else "")
        for col, combo in self.choices.items():
            values = [str(v) for v in dict.fromkeys(frame[col])] if col in frame.columns else []
            old = combo.currentData()
            combo.clear()
            for v in values:
                text = column_title(v) if col == "metric" else v
                combo.addItem(shown(f"{col.capitalize()}: {text}"), v)
            if len(values) > 1:
                pick = old if old in values else FIRST_METRIC if FIRST_METRIC in values else None
                combo.setCurrentIndex(values.index(pick) if pick in values else 0)
            combo.setVisible(len(values) > 1)
        self.model.clear_sort()  # another table: back to the core's order
        header = self.view.horizontalHeader()
        header.blockSignals(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.blockSignals(False)
        self._refresh()

    def chosen(self) -> dict[str, str]:
        """The value chosen per column whose rows are narrowed to one (label, model, metric)."""
        return {c: str(b.currentData()) for c, b in self.choices.items() if not b.isHidden()}

    def shown_frame(self) -> pd.DataFrame:
        """The selected table's rows as shown (narrowed by the choices, p-values as text)."""
        name = self.current_table()
        frame = self.frames.get(name, pd.DataFrame()) if name else pd.DataFrame()
        for col, value in self.chosen().items():
            if col in frame.columns:
                frame = frame[frame[col].astype(str) == value]
        frame = frame.drop(columns=[c for c in self.chosen() if c in frame.columns])
        if "method" in frame.columns:  # "dawid_skene" in the CSV, "Dawid–Skene" on screen
            frame = frame.assign(method=[METHOD_TITLES.get(str(v), v) for v in frame["method"]])
        return p_as_text(frame.reset_index(drop=True))

    def _refresh(self, *_: Any) -> None:
        name = self.current_table()
        frame = self.shown_frame()
        self.model.set_frame(frame)
        fit_columns(self.view, max_width=220)
        compact(self.view, max_rows=12)
        self.caption.setText(self._caption(name))
        self.caption.setVisible(bool(self.caption.text()))
        self._draw(name)

    def _models_of(self, label: str | None) -> list[dict[str, Any]]:
        return [
            m
            for m in self.figures.get("model_annotators", [])
            if label is None or str(m.get("label")) == label
        ]

    def _caption(self, name: str | None) -> str:
        label = self.chosen().get("label")
        if name in ("model_agreement", "model_annotators", "alt_test"):
            out = []
            for m in self._models_of(label):
                if self.chosen().get("model") not in (None, m["name"]):
                    continue
                lo, med, hi = m["human_kappa_range"]
                line = (
                    f"{html_name(m['name'])}: the humans' pairwise Cohen's κ ranges from "
                    f"{num(lo)} to {num(hi)} (median {num(med)})"
                )
                if name == "alt_test" and m["not_tested"]:
                    line += "; not tested (fewer than 30 shared items): " + ", ".join(
                        f"{html_name(h['human'])} ({h['n_items']})" for h in m["not_tested"]
                    )
                out.append(line + ".")
            return "<br>".join(out)
        if name == "planning":
            needed = [
                n
                for n in self.figures.get("planning_needed", [])
                if label is None or str(n.get("label")) == label
            ]
            from iaa_desktop.core.metrics.catalogue import title

            parts = [
                f"{html.escape(title(n['metric']))} ±{num(n['half_width'])}: "
                f"<b>{n['n_items']:,}</b>{' (extrapolated, 1/√n)' if n['extrapolated'] else ''}"
                for n in needed
            ]
            return ("Doubly annotated items needed: " + "; ".join(parts) + ".") if parts else ""
        return ""

    def _draw(self, name: str | None) -> None:
        from iaa_desktop.gui.widgets.chart_canvas import chart_canvas

        if self.chart is not None:  # hidden, not unparented: a queued show would make a window
            self.chart.hide()
            self.chart.deleteLater()
            self.chart = None
        fig = self._figure(name)
        if fig is None:
            return
        self.chart = chart_canvas(fig, 0.6)
        self.chart.setObjectName("annotators_chart")
        # under a short table; above a long one (the planning curve's), so it is seen first
        after = 0 if self.model.rowCount() > CHART_FIRST_ROWS else 1
        self.page_lay.insertWidget(self.page_lay.indexOf(self.view) + after, self.chart)

    def _figure(self, name: str | None) -> Any:
        """The chart of the selected table, when it has one."""
        if name is None:
            return None
        frame = self.frames.get(name, pd.DataFrame())
        chosen = self.chosen()
        if "label" in chosen and "label" in frame.columns:
            frame = frame[frame["label"].astype(str) == chosen["label"]]
        if not len(frame):
            return None
        if name == "planning" and {"metric", "n_items", "half_width"} <= set(frame.columns):
            from iaa_desktop.core.kinds.annotators.report import planning_figure

            return planning_figure(frame.reset_index(drop=True))
        if name == "model_agreement":
            return agreement_figure(self._models_of(chosen.get("label")))
        if {"batch", "value", "ci_low", "ci_high"} <= set(frame.columns):
            metric = chosen.get("metric")
            if metric is not None and "metric" in frame.columns:
                frame = frame[frame["metric"].astype(str) == metric]
            from iaa_desktop.core.export import charts

            # the whole study's value as the line (per label in a multi-label study)
            study = self.figures.get("per_batch_study") or {}
            if "label" in chosen and isinstance(study.get(chosen["label"]), dict):
                study = study[chosen["label"]]
            reference = ((study.get(metric) or {}) if metric else {}).get("value")
            return charts.interval_dots(
                [str(b) for b in frame["batch"]],
                frame["value"].to_numpy(dtype=float),
                frame["ci_low"].to_numpy(dtype=float),
                frame["ci_high"].to_numpy(dtype=float),
                xlabel=column_title(metric) if metric else "",
                reference=reference if isinstance(reference, int | float) else None,
            )
        return None


def agreement_figure(models: list[dict[str, Any]]) -> Any:
    """Each model's Cohen's κ (95% interval) with the human majority and with each human, the
    humans' pairwise κ range shaded behind (median dashed): where the model sits among them."""
    from matplotlib.figure import Figure

    rows = [(m, p) for m in models for p in m["agreement"]]
    if not rows:
        return None
    fig = Figure(figsize=(6.8, max(1.9, 0.26 * len(rows) + 1.1)), dpi=100, layout="constrained")
    ax = fig.add_subplot(111)
    ys = list(range(len(rows)))[::-1]
    shown_range = False
    for y, (_m, p) in zip(ys, rows):
        v, lo, hi = p["kappa"], p["kappa_ci_low"], p["kappa_ci_high"]
        if lo is not None and hi is not None:
            ax.hlines(y, lo, hi, color="C0", lw=1.4)
        if v is not None:
            colour = "C3" if p["with"] == "human majority" else "C0"
            ax.plot([v], [y], "o", color=colour, ms=5, zorder=3)
    for m in models:
        lo, med, hi = m["human_kappa_range"]
        mine = [y for y, (mm, _p) in zip(ys, rows) if mm is m]
        if lo is None or hi is None or not mine:
            continue
        ax.fill_betweenx(
            [min(mine) - 0.4, max(mine) + 0.4],
            lo,
            hi,
            color="#999",
            alpha=0.25,
            lw=0,
        )
        if med is not None:
            ax.vlines(med, min(mine) - 0.4, max(mine) + 0.4, color="#666", linestyles="dashed")
        shown_range = True
    ax.set_yticks(ys)
    ax.set_yticklabels(
        [f"{m['name']} – {p['with']}" if len(models) > 1 else str(p["with"]) for m, p in rows],
        fontsize=8,
    )
    ax.set_xlabel("Cohen's κ with 95% interval (red: with the human majority)")
    ax.set_ylim(-0.7, len(rows) - 0.3)
    if shown_range:  # above the plot, clear of the intervals
        ax.set_title(
            "grey: the humans' pairwise κ, lowest to highest; dashed: their median",
            fontsize=8,
            loc="left",
            color="#555",
        )
    return fig

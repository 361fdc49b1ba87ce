"""The table kind's "Annotators" tab: model annotators (the alternative annotator test and their
agreement with the humans), competence, agreement per batch, test–retest and planning."""

from __future__ import annotations

import html
from typing import Any

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from iaa_desktop.core.metrics.catalogue import title as metric_title
from iaa_desktop.gui.widgets.annotators import ALT_HEADERS, bring_to_front, verdict_html
from iaa_desktop.gui.widgets.annotators import num as _num
from iaa_desktop.gui.widgets.annotators import p_as_text as _p_as_text
from iaa_desktop.gui.widgets.stacked_tables import StackedTables

__all__ = ["AnnotatorsPanel", "has_annotator_figures"]

INFERRED_HEADERS = {
    "dawid_skene": "Dawid–Skene label",
    "dawid_skene_posterior": "Dawid–Skene posterior",
    "mace": "MACE label",
    "mace_posterior": "MACE posterior",
}


def has_annotator_figures(result: Any) -> bool:
    return bool(getattr(result, "annotator_figures", None))


class AnnotatorsPanel(QWidget):
    """Verdicts first, then one titled table per question the study's options asked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.figures: dict[str, Any] = {}
        self.charts: dict[str, Any] = {}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.headline)
        row = QHBoxLayout()
        self.batch_label = QLabel("Per batch, show:")
        row.addWidget(self.batch_label)
        self.batch_metric = QComboBox()
        self.batch_metric.setAccessibleName("Coefficient per batch")
        self.batch_metric.activated.connect(self._show)
        row.addWidget(self.batch_metric)
        row.addStretch(1)
        lay.addLayout(row)
        self.tables = StackedTables()
        lay.addWidget(self.tables, 1)

    def set_result(self, result: Any) -> None:
        self.figures = result.annotator_figures.to_json()
        self.figures["overall"] = {k: v.to_json() for k, v in result.overall.items()}
        self.headline.setText(self._headline())
        batches = self.figures.get("per_batch", [])
        names: list[str] = []
        for b in batches:
            names += [k for k in b["overall"] if k not in names]
        self.batch_metric.clear()
        for k in names:
            self.batch_metric.addItem(metric_title(k), k)
        if "krippendorff_alpha" in names:
            self.batch_metric.setCurrentIndex(names.index("krippendorff_alpha"))
        for w in (self.batch_label, self.batch_metric):
            w.setVisible(bool(names))
        self._show()

    def _headline(self) -> str:
        parts = []
        for m in self.figures.get("model_annotators", []):
            parts.append(verdict_html(m))
        for r in self.figures.get("per_batch", []):
            if r["below_study"]:
                parts.append(
                    f"Batch <b>{html.escape(r['batch'])}</b>: the interval of "
                    + ", ".join(html.escape(metric_title(k)) for k in r["below_study"][:3])
                    + (" …" if len(r["below_study"]) > 3 else "")
                    + " lies below the study's."
                )
        return "<br>".join(parts) or "No model annotators."

    def show_batches(self) -> None:
        """Bring this tab to the front, scrolled to the agreement per batch and its chart."""
        bring_to_front(self)
        view = self.tables.views.get("per_batch")
        if isinstance(view, QWidget):
            self.tables.ensureWidgetVisible(view, 0, 0)
            chart = self.charts.get("per_batch")
            if chart is not None:
                self.tables.ensureWidgetVisible(chart, 0, 0)

    def batch_frame(self) -> pd.DataFrame:
        key = self.batch_metric.currentData()
        rows = []
        for r in self.figures.get("per_batch", []):
            f = r["overall"].get(key) or {}
            rows.append(
                {
                    "batch": r["batch"],
                    "n_judgments": r["n_judgments"],
                    "n_items": r["n_items"],
                    "value": f.get("value"),
                    "ci_low": f.get("ci_low"),
                    "ci_high": f.get("ci_high"),
                    "below the study": "yes" if key in r["below_study"] else "",
                }
            )
        return pd.DataFrame(rows)

    def _show(self, *_: Any) -> None:
        j = self.figures
        tables: list[tuple[str, str, pd.DataFrame, dict[str, Any]]] = []
        for m in j.get("model_annotators", []):
            tables.append(
                (
                    f"alt_test_{m['name']}",
                    f"{html.escape(m['name'])}: the alternative annotator test per human",
                    _p_as_text(pd.DataFrame(m["per_human"])).rename(columns=ALT_HEADERS),
                    {},
                )
            )
            tables.append(
                (
                    f"model_agreement_{m['name']}",
                    f"{html.escape(m['name'])}: Cohen's κ and α with the human majority and each "
                    f"human (humans' pairwise κ {_num(m['human_kappa_range'][0])} to "
                    f"{_num(m['human_kappa_range'][2])})",
                    pd.DataFrame(m["agreement"]),
                    {},
                )
            )
        if "competence" in j:
            comp = pd.DataFrame(j["competence"])
            wide = comp.pivot_table(
                index="annotator", columns="method", values="competence", sort=False
            ).reset_index()
            tables.append(("competence", "Competence (Dawid–Skene, MACE)", wide, {}))
            inf = pd.DataFrame(j["inferred"])
            if len(inf):
                tables.append(
                    (
                        "inferred",
                        "Inferred labels, least certain first (suggestions, never decisions)",
                        inf.sort_values("dawid_skene_posterior")
                        .reset_index(drop=True)
                        .rename(columns=INFERRED_HEADERS),
                        {},
                    )
                )
        if "per_batch" in j:
            tables.append(("per_batch", "Agreement per batch", self.batch_frame(), {}))
        if "retest" in j:
            rows = []
            for r in j["retest"]:
                row = {
                    "annotator": r["annotator"],
                    "occasions": r["n_occasions"],
                    "items repeated": r["n_items"],
                }
                for k in (
                    "krippendorff_alpha",
                    "cohen_kappa_mean",
                    "fleiss_kappa",
                    "percent_agreement",
                ):
                    f = r.get(k) or {}
                    row[metric_title(k)] = f.get("value")
                    row[f"{metric_title(k)} 95%"] = (
                        f"[{_num(f.get('ci_low'), 3)}, {_num(f.get('ci_high'), 3)}]"
                    )
                rows.append(row)
            tables.append(("retest", "Test–retest agreement", pd.DataFrame(rows), {}))
        if "planning_needed" in j:
            tables.append(
                (
                    "planning",
                    "Planning: doubly annotated items needed for a half-width",
                    pd.DataFrame(j["planning_needed"]).assign(
                        metric=lambda f: f["metric"].map(metric_title)
                    ),
                    {},
                )
            )
        self.tables.set_tables(tables)
        self._add_charts()

    def _add_charts(self) -> None:
        """The per-batch chart (the chosen coefficient) and the planning curve, each under its
        table."""
        from iaa_desktop.core.kinds.table.annotators_report import batch_figure, planning_figure
        from iaa_desktop.gui.widgets.chart_canvas import chart_canvas

        j = self.figures
        key = self.batch_metric.currentData()
        charts = []
        if j.get("per_batch") and key:
            charts.append(("per_batch", batch_figure(j, key)))
        if j.get("planning"):
            charts.append(("planning", planning_figure(pd.DataFrame(j["planning"]))))
        self.charts = {}
        for name, fig in charts:
            view = self.tables.views.get(name)
            if not isinstance(view, QWidget):
                continue
            canvas = chart_canvas(fig, 0.6)
            self.tables.lay.insertWidget(self.tables.lay.indexOf(view) + 1, canvas)
            self.charts[name] = canvas

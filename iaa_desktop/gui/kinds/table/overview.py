"""Overview of the table kind: the summary with interpretation, the pairwise heatmap (a click lists
the pair's items), and the items — every annotator's label side by side in its value's colour,
rows tinted by severity — beside the selected item's text, metadata and the annotators' notes."""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.gui.widgets.annotators import batches_line
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.heatmap import MatrixHeatmap
from iaa_desktop.gui.widgets.short_text import shown
from iaa_desktop.gui.widgets.summary_table import SummaryTable
from iaa_desktop.gui.widgets.table_view import ListBar, fit_columns, make_table
from iaa_desktop.gui.widgets.unit_detail import unit_html
from iaa_desktop.gui.widgets.zoom import TextZoom

PAIR_METRICS = (
    "cohen_kappa",
    "percent_agreement",
    "scott_pi",
    "krippendorff_alpha",
    "spearman",
    "weighted_kappa_linear",
    "weighted_kappa_quadratic",
)

#: header tooltips of the items list (units and ranges of the columns that are not measures)
ITEM_TOOLTIPS = {
    "severity": "Severity, 0–1: the mean distance between the labels of the item's annotator "
    "pairs over the largest distance of the scale, with the distance of the level of measurement "
    "(the one Krippendorff's α uses). 0 = all agree; 1 = as far apart as the scale allows. "
    "Rows are tinted by it (pale yellow → red).",
    "disagreement": "Disagreeing pairs, 0–100%: the share of the item's annotator pairs whose "
    "labels differ (ignores the scale)",
    "n_labels": "Labels: the number of annotators who labelled the item",
    "range": "Range: the highest minus the lowest label (numeric labels)",
    "mean": "Mean of the numeric labels",
}
LEGEND = (
    "Label cells: one colour per label value (a ramp on an ordered scale). Rows: tinted by "
    "severity, pale yellow (slight) to red (the largest disagreement the scale allows). "
    "– = undefined; — = no label."
)


def items_frame(result: Any) -> tuple[pd.DataFrame, list[str]]:
    """The items table with the item's metadata (text, topic …), and the order to show its
    columns in: the labels and their severity first, then what the item is, then the rest."""
    items = result.items
    ctx = getattr(result, "item_context", None)
    extra_cols: list[str] = []
    if ctx is not None and len(ctx) and len(ctx.columns) > 1:
        items = items.copy()
        extra = ctx.drop_duplicates("item").set_index("item")
        for c in extra.columns:
            if c not in items.columns:
                items[c] = items["item"].map(extra[c]).fillna("").to_numpy()
                extra_cols.append(c)
    models = model_columns(result)
    if models:  # a model's labels beside the humans', marked, with the human majority
        items = items.rename(columns=models)
    marked = [*models.values(), "human majority", "model_disagrees"]
    first = [
        c
        for c in ("item", "group", *map(str, result.annotators), *marked, "severity")
        if c in items
    ]
    return items, first + extra_cols


def model_columns(result: Any) -> dict[str, str]:
    """The model annotators' columns of the items table → their shown names ("gpt (model)")."""
    figures = getattr(result, "annotator_figures", None)
    names = [m.name for m in figures.models] if figures else []
    return {n: f"{n} (model)" for n in names if n in result.items}


class OverviewPanel(QWidget):
    """See the module docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: Any = None
        self._items = pd.DataFrame()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.summary_label = QLabel()
        self.summary_label.setTextFormat(Qt.TextFormat.RichText)
        self.summary_label.setWordWrap(True)
        outer.addWidget(self.summary_label)
        # agreement over batches: a line here, the chart in the Annotators tab (one click away)
        batches = QHBoxLayout()
        self.batches_label = QLabel()
        self.batches_label.setObjectName("batches_line")
        self.batches_label.setTextFormat(Qt.TextFormat.RichText)
        self.batches_label.setWordWrap(True)
        batches.addWidget(self.batches_label, 1)
        self.batches_button = QPushButton("Chart per batch…")
        self.batches_button.setObjectName("batches_button")
        self.batches_button.setToolTip(
            "Show the agreement per batch with its intervals (the Annotators tab), the "
            "coefficient of your choice charted batch by batch"
        )
        self.batches_button.clicked.connect(self._show_batches)
        batches.addWidget(self.batches_button)
        outer.addLayout(batches)
        #: the tab showing the agreement per batch (set by the view when it has one)
        self.annotators_panel: Any = None

        top = QSplitter(Qt.Orientation.Horizontal)
        self.summary = SummaryTable(caption=False)
        self.metrics_view = self.summary.view
        self.metrics_model = self.summary.model
        top.addWidget(self.summary)
        heat_box = QWidget()
        hl = QVBoxLayout(heat_box)
        hl.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel("Pairwise"))
        self.metric_combo = QComboBox()
        self.metric_combo.activated.connect(lambda _i: self._draw_heatmap())
        row.addWidget(self.metric_combo, 1)
        hl.addLayout(row)
        self.heatmap = MatrixHeatmap()
        self.heatmap.setObjectName("heatmap")
        self.heatmap.click_hint = "Click to list the items both annotators labelled."
        self.heatmap.cell_clicked.connect(self.show_pair_items)
        hl.addWidget(self.heatmap, 1)
        top.addWidget(heat_box)
        top.setSizes([560, 380])

        items_box = QWidget()
        il = QVBoxLayout(items_box)
        il.setContentsMargins(0, 0, 0, 0)
        self.items_model = DataFrameModel(
            severity_column="severity",
            percent=("disagreement",),
            tooltips=ITEM_TOOLTIPS,
            headers={"disagreement": "Disagreeing pairs", "n_labels": "Labels"},
        )
        self.bar = ListBar(self.items_model, noun="items", placeholder="Filter items…")
        il.addWidget(self.bar)
        scope = QHBoxLayout()
        self.scope_label = QLabel()
        self.scope_label.setStyleSheet("color: #1f3fbf")
        self.scope_clear = QPushButton("Show all items")
        self.scope_clear.clicked.connect(lambda: self.show_pair_items(-1, -1))
        scope.addWidget(self.scope_label, 1)
        scope.addWidget(self.scope_clear)
        il.addLayout(scope)
        self.items_view = make_table(self.items_model, name="items")
        self.items_view.setObjectName("items")
        self.items_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._show_item(cur.row())
        )
        il.addWidget(self.items_view, 1)
        legend = QLabel(LEGEND)
        legend.setWordWrap(True)
        legend.setStyleSheet("color: #555")
        il.addWidget(legend)
        self.detail = QTextBrowser()
        self.detail.setObjectName("item_detail")
        self.detail.setPlaceholderText("Select an item: its text and every annotator's label.")
        self.zoom = TextZoom(self, [self.detail])
        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(items_box)
        bottom.addWidget(self.detail)
        bottom.setSizes([600, 340])
        vs = QSplitter(Qt.Orientation.Vertical)
        vs.addWidget(top)
        vs.addWidget(bottom)
        vs.setSizes([230, 420])
        outer.addWidget(vs, 1)
        self._show_scope(None)

    # -- result -------------------------------------------------------------------------------

    def set_result(self, result: Any) -> None:
        self.result = result
        n_pair = result.overall.get("percent_agreement")
        self.summary_label.setText(
            f"<b>{result.n_items:,}</b> items, <b>{len(result.annotators)}</b> annotators "
            f"({', '.join(html.escape(shown(str(a))) for a in result.annotators)}); "
            f"level of measurement <b>{result.level}</b>"
            + (f"; {n_pair.n_items:,} items with two or more labels" if n_pair else "")
        )
        figures = getattr(result, "annotator_figures", None)
        line = batches_line(figures.to_json()) if figures else ""
        self.batches_label.setText(line)
        for w in (self.batches_label, self.batches_button):
            w.setVisible(bool(line))
        self.summary.set_result(result)
        self._fill_metrics(result)
        self._items, order = items_frame(result)
        from iaa_desktop.gui.kinds.table.categories import category_label

        self.items_model.set_frame(
            self._items,
            label_columns=[
                *map(str, result.annotators),
                *model_columns(result).values(),
                "human majority",
            ],
            ordered_labels=result.level != "nominal",
            label_values=[category_label(c) for c in result.categories],
            columns=order,
        )
        self.bar.reapply()
        self._show_scope(None)
        # sizing and the first item's detail in the next turn of the event loop: a large
        # table must not hold the window in one long step
        QTimer.singleShot(0, self._after_items)

    def _show_batches(self) -> None:
        if self.annotators_panel is not None:
            self.annotators_panel.show_batches()

    def _after_items(self) -> None:
        from shiboken6 import isValid

        if not isValid(self.items_view):  # the panel went (a new study) before this turn came
            return
        fit_columns(self.items_view, max_width=260, sample=40)
        if self.items_model.rowCount() and not self.items_view.currentIndex().isValid():
            self.items_view.selectRow(0)

    def _fill_metrics(self, result: Any) -> None:
        from iaa_desktop.core.export.titles import column_title, column_tooltip

        current = self.metric_combo.currentData()
        self.metric_combo.clear()
        for key in PAIR_METRICS:
            if key in result.pairwise.columns:
                self.metric_combo.addItem(column_title(key), key)
                self.metric_combo.setItemData(
                    self.metric_combo.count() - 1,
                    column_tooltip(key),
                    Qt.ItemDataRole.ToolTipRole,
                )
        self.metric_combo.setCurrentIndex(max(0, self.metric_combo.findData(current)))
        self._draw_heatmap()

    def _draw_heatmap(self) -> None:
        if self.result is None or self.metric_combo.count() == 0:
            return
        key = self.metric_combo.currentData()
        lo = 0.0 if key == "percent_agreement" else -1.0
        m = self.result.pair_matrix(key)
        self.heatmap.set_matrix(
            m.to_numpy(dtype=float), m.index, m.columns, self.metric_combo.currentText(), lo, 1.0
        )

    # -- items behind a heatmap cell -------------------------------------------------------------

    def show_pair_items(self, i: int, j: int) -> None:
        """List the items annotators ``i`` and ``j`` both labelled (−1: every item)."""
        r = self.result
        if r is None:
            return
        if i < 0:
            self.items_model.set_row_mask(None)
            self._show_scope(None)
            return
        names = list(r.annotators)
        a, b = names[i], names[j]
        items = self.items_model.source_frame
        both = (items[a].astype(str) != "") & (items[b].astype(str) != "")
        self.items_model.set_row_mask(both.to_numpy())
        differ = both & (items[a].astype(str) != items[b].astype(str))
        sa, sb = shown(a), shown(b)
        what = (
            f"Items labelled by {sa}: {int(both.sum()):,}"
            if a == b
            else f"Items both {sa} and {sb} labelled: {int(both.sum()):,}, "
            f"{int(differ.sum()):,} with different labels"
        )
        self._show_scope(what)
        if self.items_model.rowCount():
            self.items_view.selectRow(0)

    def _show_scope(self, text: str | None) -> None:
        self.scope_label.setText(text or "")
        self.scope_label.setVisible(bool(text))
        self.scope_clear.setVisible(bool(text))

    # -- detail -------------------------------------------------------------------------------

    def _show_item(self, row: int) -> None:
        r = self.result
        if r is None or not 0 <= row < self.items_model.rowCount():
            return
        rec = self.items_model.record(row)
        key = str(rec["item"])
        heading = f"Item {key}" + (f" · group {rec['group']}" if "group" in rec.index else "")
        context = []
        ctx = getattr(r, "item_context", None)
        if ctx is not None and len(ctx):
            hit = ctx[ctx["item"] == key]
            if len(hit):
                context = [(str(c), str(v)) for c, v in hit.iloc[0].items() if c != "item" and v]
        notes: list[tuple[str, str, str]] = []
        nt = getattr(r, "notes", None)
        if nt is not None and len(nt):
            n = nt[nt["item"] == key]
            notes = list(zip(n["annotator"], n["column"], n["value"]))
        # the models' labels and the human majority's below the humans', marked
        names = [*map(str, r.annotators), *model_columns(r).values(), "human majority"]
        names = [n for n in names if n in rec.index]
        labels = [rec[a] for a in names]
        footer = _footer(rec, r.level)
        self.detail.setHtml(
            unit_html(
                heading,
                context,
                notes,
                names,
                labels,
                self.items_model.colours,
                footer,
            )
        )


def _footer(rec: pd.Series, level: str) -> str:
    parts = []
    sev = rec.get("severity", math.nan)
    if isinstance(sev, float) and math.isfinite(sev):
        parts.append(f"severity {sev:.3f} ({level} distance, 0–1)")
    d = rec.get("disagreement", math.nan)
    if isinstance(d, float) and math.isfinite(d):
        parts.append(f"disagreeing annotator pairs {d:.0%}")
    for k in ("range", "mean"):
        v = rec.get(k, math.nan)
        if isinstance(v, float | np.floating) and math.isfinite(v):
            parts.append(f"{k} {v:.3g}")
    return " · ".join(parts)

"""Views of the generic table kind: overview (metrics, pairwise heatmap, items), groups, categories."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.heatmap import MatrixHeatmap

PAIR_METRICS = [
    ("cohen_kappa", "Cohen's κ"),
    ("percent_agreement", "Percent agreement"),
    ("scott_pi", "Scott's π"),
    ("krippendorff_alpha", "Krippendorff's α"),
    ("spearman", "Spearman ρ"),
    ("weighted_kappa_linear", "Weighted κ (linear)"),
    ("weighted_kappa_quadratic", "Weighted κ (quadratic)"),
]


def _tooltip(name: str) -> str:
    try:
        from iaa_desktop.core.measures import tooltip  # written with the Measures help

        return tooltip(name)
    except Exception:  # noqa: BLE001
        return ""


def make_table(model, sortable: bool = True) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSortingEnabled(sortable)
    view.setAlternatingRowColors(True)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.verticalHeader().setDefaultSectionSize(22)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setStretchLastSection(True)
    # size columns from the first 100 rows, not from every row of a large table
    view.horizontalHeader().setResizeContentsPrecision(100)
    view.verticalHeader().setResizeContentsPrecision(100)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.setWordWrap(False)
    return view


def fit_columns(view: QTableView, max_width: int = 320, sample: int = 100) -> None:
    """Column widths from the header and the first ``sample`` rows (Qt's own resize to contents
    measures far more and takes hundreds of milliseconds on a large table)."""
    model = view.model()
    fm = view.fontMetrics()
    rows = min(model.rowCount(), sample)
    for c in range(model.columnCount()):
        header = str(model.headerData(c, Qt.Orientation.Horizontal) or "")
        width = fm.horizontalAdvance(header) + 28
        for r in range(rows):
            text = model.data(model.index(r, c))
            if text:
                width = max(width, fm.horizontalAdvance(str(text)) + 14)
        view.setColumnWidth(c, min(width, max_width))


class OverviewPanel(QWidget):
    """Metric table with intervals, pairwise heatmap, per-item disagreement with item details."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        outer.addWidget(self.summary)
        top = QSplitter(Qt.Orientation.Horizontal)
        self.metrics_model = DataFrameModel(
            headers={
                "title": "Measure",
                "value": "Value",
                "ci_low": "95% CI low",
                "ci_high": "95% CI high",
                "n_items": "Items",
            }
        )
        self.metrics_view = make_table(self.metrics_model, sortable=False)
        self.metrics_view.setObjectName("metrics")
        top.addWidget(self.metrics_view)
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
        hl.addWidget(self.heatmap, 1)
        top.addWidget(heat_box)
        top.setSizes([520, 420])
        bottom = QSplitter(Qt.Orientation.Horizontal)
        items_box = QWidget()
        il = QVBoxLayout(items_box)
        il.setContentsMargins(0, 0, 0, 0)
        frow = QHBoxLayout()
        frow.addWidget(QLabel("Items, most disagreement first"))
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter items (any column)…")
        self.filter.setClearButtonEnabled(True)
        frow.addWidget(self.filter, 1)
        il.addLayout(frow)
        self.items_model = DataFrameModel(tint_column="disagreement")
        self._filter_timer = QTimer(self, singleShot=True, interval=200)
        self._filter_timer.timeout.connect(lambda: self.items_model.set_filter(self.filter.text()))
        self.filter.textChanged.connect(lambda _t: self._filter_timer.start())
        self.filter.returnPressed.connect(
            lambda: (self._filter_timer.stop(), self.items_model.set_filter(self.filter.text()))
        )
        self.items_view = make_table(self.items_model)
        self.items_view.setObjectName("items")
        self.items_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._show_item(cur)
        )
        il.addWidget(self.items_view)
        bottom.addWidget(items_box)
        self.detail = QTextBrowser()
        self.detail.setObjectName("item_detail")
        self.detail.setPlaceholderText(
            "Select an item to see every annotator's label side by side."
        )
        bottom.addWidget(self.detail)
        bottom.setSizes([700, 300])
        vs = QSplitter(Qt.Orientation.Vertical)
        vs.addWidget(top)
        vs.addWidget(bottom)
        vs.setSizes([330, 470])
        outer.addWidget(vs, 1)

    def set_result(self, result) -> None:
        self.result = result
        n_pair = result.overall.get("percent_agreement")
        self.summary.setText(
            f"<b>{result.n_items}</b> items, <b>{len(result.annotators)}</b> annotators "
            f"({', '.join(map(str, result.annotators))}); level <b>{result.level}</b>"
            + (f"; {n_pair.n_items} items with two or more labels" if n_pair else "")
        )
        table = result.overall_table()
        cols = [c for c in ("title", "value", "ci_low", "ci_high", "n_items") if c in table.columns]
        self.metrics_model.set_frame(table[cols])
        self.metrics_model.set_row_tooltips(
            {row.title: _tooltip(row.metric) for row in table.itertuples()}
        )
        fit_columns(self.metrics_view, max_width=400)
        current = self.metric_combo.currentData()
        self.metric_combo.clear()
        for key, title in PAIR_METRICS:
            if key in result.pairwise.columns:
                self.metric_combo.addItem(title, key)
                self.metric_combo.setItemData(
                    self.metric_combo.count() - 1, _tooltip(key), Qt.ItemDataRole.ToolTipRole
                )
        idx = self.metric_combo.findData(current)
        self.metric_combo.setCurrentIndex(max(0, idx))
        self._draw_heatmap()
        items = result.items  # the core sorts by disagreement, worst first, in the worker
        self.items_model.set_frame(items)
        col = list(items.columns).index("disagreement")
        header = self.items_view.horizontalHeader()
        header.blockSignals(True)  # show the order the core sorted in without sorting again
        header.setSortIndicator(col, Qt.SortOrder.DescendingOrder)
        header.blockSignals(False)
        fit_columns(self.items_view)

    def _draw_heatmap(self) -> None:
        if self.result is None or self.metric_combo.count() == 0:
            return
        key = self.metric_combo.currentData()
        title = self.metric_combo.currentText()
        lo = 0.0 if key == "percent_agreement" else -1.0
        m = self.result.pair_matrix(key)
        self.heatmap.set_matrix(
            m.to_numpy(dtype=float), m.index, m.columns, title, vmin=lo, vmax=1.0
        )

    def _show_item(self, proxy_index) -> None:
        if not proxy_index.isValid() or self.result is None:
            return
        rec = self.items_model.frame.iloc[proxy_index.row()]
        import html

        parts = [f"<h3 dir='auto'>{html.escape(str(rec['item']))}</h3>"]
        if "group" in rec.index:
            parts.append(f"<p>Group: <b>{html.escape(str(rec['group']))}</b></p>")
        parts.append(
            "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse:collapse'>"
            "<tr><th align='left'>Annotator</th><th align='left'>Label</th></tr>"
        )
        labels = [str(rec[a]) for a in self.result.annotators]
        counts: dict[str, int] = {}
        for lab in labels:
            if lab:
                counts[lab] = counts.get(lab, 0) + 1
        majority = max(counts.values()) if counts else 0
        for a, lab in zip(self.result.annotators, labels):
            style = (
                ""
                if not lab
                else (
                    " style='background:#e3f4e3'"
                    if counts[lab] == majority and len(counts) > 1
                    else (" style='background:#fbe3e3'" if len(counts) > 1 else "")
                )
            )
            shown = html.escape(lab) if lab else "<i>(no label)</i>"
            parts.append(
                f"<tr><td>{html.escape(str(a))}</td><td dir='auto'{style}>{shown}</td></tr>"
            )
        parts.append("</table>")
        d = rec.get("disagreement", math.nan)
        if isinstance(d, float) and not math.isnan(d):
            parts.append(f"<p>Disagreeing annotator pairs: {d:.0%}</p>")
        self.detail.setHtml("".join(parts))


class GroupsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel(
                "Agreement per group (the same measures as the overview, computed on each group's items)"
            )
        )
        self.model = DataFrameModel()
        self.view = make_table(self.model)
        lay.addWidget(self.view)

    def set_result(self, result) -> None:
        import pandas as pd

        rows = []
        for g in result.groups:
            row: dict[str, Any] = {"group": g.group, "n_items": g.n_items}
            for k, r in g.overall.items():
                row[k] = r.value
            rows.append(row)
        self.model.set_frame(pd.DataFrame(rows))
        fit_columns(self.view)


class CategoriesPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        left = QVBoxLayout()
        left.addWidget(QLabel("Agreement per category"))
        self.model = DataFrameModel(
            headers={
                "specific_agreement": "specific agreement",
                "kappa_one_vs_rest": "κ (one vs rest)",
            }
        )
        self.view = make_table(self.model)
        left.addWidget(self.view)
        lay.addLayout(left, 1)
        self.chart = MatrixHeatmap()
        lay.addWidget(self.chart, 1)

    def set_result(self, result) -> None:
        self.model.set_frame(result.per_category)
        fit_columns(self.view)
        cats = [
            str(c if not (isinstance(c, float) and c.is_integer()) else int(c))
            for c in result.categories
        ]
        if len(cats) <= 40:
            self.chart.set_matrix(
                result.coincidence,
                cats,
                cats,
                "Coincidence matrix",
                vmin=0.0,
                sequential=True,
                digits=1,
            )


def create_panels(result, context) -> list[tuple[str, QWidget]]:
    cache = context.cache.setdefault("table", {})
    panels: list[tuple[str, QWidget]] = []
    overview = cache.get("overview") or OverviewPanel()
    cache["overview"] = overview
    overview.set_result(result)
    panels.append(("Overview", overview))
    if result.groups:
        groups = cache.get("groups") or GroupsPanel()
        cache["groups"] = groups
        groups.set_result(result)
        panels.append(("Groups", groups))
    if len(result.per_category):
        cats = cache.get("categories") or CategoriesPanel()
        cache["categories"] = cats
        cats.set_result(result)
        panels.append(("Categories", cats))
    return panels

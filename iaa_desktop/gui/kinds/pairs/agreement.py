"""The Agreement tabs of the pair kinds: the summary with interpretation, the tables with human
titles, and the charts (legends outside the plotted data)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QSplitter, QVBoxLayout, QWidget

from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.summary_table import SummaryTable
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table


def canvas(fig: Any) -> QWidget:
    """A matplotlib figure as a widget, its legends moved beside the plot."""
    from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg

    from iaa_desktop.core.export.html_blocks import legend_outside

    legend_outside(fig)
    c = FigureCanvasQTAgg(fig)
    w, h = fig.get_size_inches() * fig.dpi
    c.setMinimumSize(int(min(w, 560) * 0.6), int(min(h, 520)))
    return c


def _boxed(title: str, view: QWidget) -> QWidget:
    box = QWidget()
    v = QVBoxLayout(box)
    v.setContentsMargins(0, 0, 0, 0)
    label = QLabel(title)
    label.setWordWrap(True)
    v.addWidget(label)
    v.addWidget(view, 1)
    return box


class DurelAgreementPanel(QWidget):
    """Summary, per target, annotators, pairs, the TRaC ranking and the per-target chart."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = SummaryTable()
        self.targets_model = DataFrameModel(parent=self)
        self.annotators_model = DataFrameModel(parent=self)
        self.pairwise_model = DataFrameModel(parent=self)
        self.ranking_model = DataFrameModel(parent=self)
        self.chart = QScrollArea()
        self.chart.setWidgetResizable(True)
        tables = QSplitter(Qt.Orientation.Vertical)
        tables.addWidget(self.summary)
        self.views = []
        for title, model, name in (
            ("Per target (all pairs / after the filter)", self.targets_model, "targets"),
            (
                "Annotators: Spearman ρ against the mean of the others",
                self.annotators_model,
                "annotators",
            ),
            ("Annotator pairs", self.pairwise_model, "annotator_pairs"),
            (
                "Topic variation (TRaC): targets by mean judgment, lower = more variation",
                self.ranking_model,
                "topic_ranking",
            ),
        ):
            view = make_table(model, name=name)
            self.views.append(view)
            tables.addWidget(_boxed(title, view))
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(tables)
        split.addWidget(self.chart)
        split.setSizes([560, 400])
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)

    def set_result(self, result: Any) -> None:
        self.summary.set_result(result)
        self.targets_model.set_frame(result.targets_table())
        self.annotators_model.set_frame(result.annotator_table)
        self.pairwise_model.set_frame(result.pairwise)
        self.ranking_model.set_frame(result.topic_ranking)
        for view in self.views:
            fit_columns(view, 200)
        from iaa_desktop.core.kinds.durel.charts import targets_figure

        self.chart.setWidget(canvas(targets_figure(result, width=5.2)))


class CandidatesAgreementPanel(QWidget):
    """Summary (multi-κ with its intervals), per pair, per factor level and overlap bin; the
    forest plot and the agreement-against-overlap curve."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = SummaryTable()
        self.pairwise_model = DataFrameModel(parent=self)
        self.factor_model = DataFrameModel(parent=self)
        self.pairwise_view = make_table(self.pairwise_model, name="annotator_pairs")
        self.factor_view = make_table(self.factor_model, name="by_factor")
        self.forest = QScrollArea()
        self.forest.setWidgetResizable(True)
        self.curve = QScrollArea()
        self.curve.setWidgetResizable(True)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.summary)
        left.addWidget(_boxed("Per factor level and overlap bin", self.factor_view))
        left.addWidget(_boxed("Annotator pairs", self.pairwise_view))
        left.setSizes([200, 300, 120])
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.forest)
        right.addWidget(self.curve)
        right.setSizes([380, 240])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([520, 440])
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)

    def set_result(self, result: Any) -> None:
        self.summary.set_result(result)
        tables = result.tables()
        self.pairwise_model.set_frame(tables["pairwise"])
        self.factor_model.set_frame(tables["by_factor"])
        fit_columns(self.pairwise_view, 160)
        fit_columns(self.factor_view, 200)
        from iaa_desktop.core.kinds.durel.charts import forest_figure, overlap_curve_figure

        self.forest.setWidget(canvas(forest_figure(result, width=5.6)))
        self.curve.setWidget(canvas(overlap_curve_figure(result, width=5.6, height=3.0)))

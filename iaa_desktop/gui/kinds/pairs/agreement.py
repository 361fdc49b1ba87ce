"""The Agreement tabs of the pair kinds: the summary with interpretation, the tables with human
titles, and the charts (legends outside the plotted data)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.summary_table import SummaryTable
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table

#: a figure taller than this (inches) has its legend above the plot, where the pane starts
TALL = 4.5


def legend_below(fig: Any) -> Any:
    """Move each axes' legend under its plot, off the data (the panes are narrow, so below
    rather than beside); on a tall figure (a row per target) above it, seen without scrolling."""
    tall = fig.get_figheight() > TALL
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is None:
            continue
        handles, labels = ax.get_legend_handles_labels()
        if not handles:
            continue
        ax.legend(
            handles,
            labels,
            loc="lower center" if tall else "upper center",
            bbox_to_anchor=(0.5, 1.0) if tall else (0.5, -0.18),
            ncol=2,
            frameon=False,
            fontsize="small",
        )
        fig.set_figheight(fig.get_figheight() + 0.25 * ((len(handles) + 1) // 2) + 0.3)
    try:
        fig.set_layout_engine("constrained")
    except (ValueError, RuntimeError):
        pass
    return fig


def canvas(fig: Any) -> QWidget:
    """A matplotlib figure as a widget at its natural size (the pane scrolls with the wheel),
    legends below the plot (above it on a tall chart, where the bottom is out of sight)."""
    from iaa_desktop.gui.widgets.chart_canvas import chart_canvas

    legend_below(fig)
    return chart_canvas(fig)


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
        tabs = QTabWidget()
        tables.addWidget(tabs)
        tables.setSizes([190, 420])
        self.views = []
        for title, model, name, tab in (
            (
                "Per target, all pairs and after the filter",
                self.targets_model,
                "targets",
                "Targets",
            ),
            (
                "Spearman ρ of each annotator against the mean of the others",
                self.annotators_model,
                "annotators",
                "Annotators",
            ),
            ("Annotator pairs", self.pairwise_model, "annotator_pairs", "Pairs"),
            (
                "Topic variation (TRaC): targets by mean judgment, lower = more variation",
                self.ranking_model,
                "topic_ranking",
                "TRaC",
            ),
        ):
            view = make_table(model, name=name)
            self.views.append(view)
            tabs.addTab(_boxed(title, view), tab)
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

        self.chart.setWidget(canvas(targets_figure(result, width=4.0)))


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

        self.forest.setWidget(canvas(forest_figure(result, width=4.2)))
        self.curve.setWidget(canvas(overlap_curve_figure(result, width=4.2, height=2.6)))

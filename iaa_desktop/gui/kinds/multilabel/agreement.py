"""The Multi-label agreement tab: per-label percent agreement and κ per pair, the pair matrix,
label counts per annotator, the label combinations and their joint distribution for a pair (a
click on a cell lists the items behind it)."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.multilabel.compare import MultiLabelResult, code_name
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.short_text import add_names, shown
from iaa_desktop.gui.widgets.stacked_tables import compact
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table


def group(title: str, widget: QWidget) -> QGroupBox:
    g = QGroupBox(title)
    lay = QVBoxLayout(g)
    lay.setContentsMargins(4, 4, 4, 4)
    lay.addWidget(widget)
    return g


def legend_beside(ax: Any) -> None:
    """Move the axes' legend to the right of the plot, off the bars."""
    leg = ax.get_legend()
    if leg is None:
        return
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(
        handles,
        labels,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0.0,
        frameon=False,
        fontsize="small",
    )


class AgreementPanel(QWidget):
    """Per-label table, pair matrix, label counts and label combinations."""

    #: a joint-distribution cell was clicked: (item mask, what it shows)
    cell_items = Signal(object, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: MultiLabelResult | None = None
        self.pairs_model = DataFrameModel()
        self.per_label_model = DataFrameModel()
        self.matrix_model = DataFrameModel()
        self.counts_model = DataFrameModel()
        self.comb_model = DataFrameModel(percent=("share",))
        self.pairs_view = make_table(self.pairs_model, sortable=False, name="pairs")
        self.per_label_view = make_table(self.per_label_model, sortable=False, name="per_label")
        self.matrix_view = make_table(self.matrix_model, sortable=False, name="pair_matrix")
        self.counts_view = make_table(self.counts_model, sortable=False, name="label_counts")
        self.comb_view = make_table(self.comb_model, sortable=True, name="label_combinations")
        self.matrix_measure = QComboBox()
        self.matrix_measure.currentIndexChanged.connect(self._on_measure_changed)
        self.summary = QLabel()
        self.summary.setWordWrap(True)

        left = QVBoxLayout()
        left.addWidget(self.summary)
        left.addWidget(
            group(
                "Per label: percent agreement and Cohen's κ, each pair and the mean over pairs",
                self.per_label_view,
            )
        )
        left.addWidget(group("Per pair", self.pairs_view))
        box = QVBoxLayout()
        row = QHBoxLayout()
        row.addWidget(QLabel("Measure:"))
        row.addWidget(self.matrix_measure, 1)
        box.addLayout(row)
        box.addWidget(self.matrix_view)
        matrix_group = QGroupBox("Pair matrix")
        matrix_group.setLayout(box)
        left.addWidget(matrix_group)
        from matplotlib.figure import Figure

        from iaa_desktop.gui.widgets.chart_canvas import ShortTextCanvas

        self.figure = Figure(figsize=(5, 3), dpi=100, layout="constrained")
        self.canvas = ShortTextCanvas(self.figure)
        self.canvas.setMinimumHeight(220)
        self.ax = self.figure.add_subplot()
        right = QVBoxLayout()
        right.addWidget(group("Label counts per annotator", self.counts_view))
        right.addWidget(
            group("Label combinations (code: first label = leftmost bit)", self.comb_view)
        )
        right.addWidget(self.canvas, 1)
        left.addWidget(self._build_joint(), 1)
        lay = QHBoxLayout(self)
        lw, rw = QWidget(), QWidget()
        lw.setLayout(left)
        rw.setLayout(right)
        split = QSplitter()
        # the columns scroll rather than make the window taller than the screen
        for w in (lw, rw):
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QScrollArea.Shape.NoFrame)
            scroll.setWidget(w)
            split.addWidget(scroll)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay.addWidget(split)

    def _build_joint(self) -> QGroupBox:
        """The joint distribution of the codes for one pair (rows: the first annotator's code,
        columns: the second's); a click on a cell lists its items."""
        self.joint_pair = QComboBox()
        self.joint_pair.currentIndexChanged.connect(self._on_joint_pair_changed)
        self.joint_model = DataFrameModel()
        self.joint_view = make_table(self.joint_model, sortable=False, name="joint_distribution")
        self.joint_view.setToolTip("click a cell to list the items behind it")
        self.joint_view.clicked.connect(self._on_joint_clicked)
        jbox = QVBoxLayout()
        jrow = QHBoxLayout()
        jrow.addWidget(QLabel("Pair:"))
        jrow.addWidget(self.joint_pair)
        jrow.addStretch(1)
        jbox.addLayout(jrow)
        jbox.addWidget(self.joint_view)
        joint_group = QGroupBox(
            "Joint distribution of label combinations (rows: first annotator's code, columns: second's)"
        )
        joint_group.setLayout(jbox)
        return joint_group

    def set_result(self, result: MultiLabelResult) -> None:
        self.result = result
        pt = result.pair_table()
        self.pairs_model.set_frame(
            pt,
            percent=tuple(
                c for c in pt.columns if c.startswith("PA ") or c == "exact_set_agreement"
            ),
        )
        pl = self._per_label_frame(result)
        self.per_label_model.set_frame(
            pl, percent=tuple(c for c in pl.columns if c.startswith("PA"))
        )
        self.counts_model.set_frame(result.label_counts())
        self.comb_model.set_frame(result.combinations())
        current = self.matrix_measure.currentData()
        self.matrix_measure.blockSignals(True)
        self.matrix_measure.clear()
        add_names(
            self.matrix_measure,
            ["mean κ over labels", "exact set agreement", *[f"κ {lab}" for lab in result.labels]],
        )
        i = self.matrix_measure.findData(current)
        self.matrix_measure.setCurrentIndex(max(0, i))
        self.matrix_measure.blockSignals(False)
        self._on_measure_changed()
        current = self.joint_pair.currentText()
        self.joint_pair.blockSignals(True)
        self.joint_pair.clear()
        add_names(self.joint_pair, [f"{a}–{b}" for a, b in result.pair_names()])
        self.joint_pair.setCurrentIndex(max(0, self.joint_pair.findText(current)))
        self.joint_pair.blockSignals(False)
        self._on_joint_pair_changed()
        avg = result.per_label_averages()
        data = result.data
        n_items, n_annotators = (
            (len(data.items), len(data.annotators)) if data is not None else (0, 0)
        )
        self.summary.setText(
            f"{n_items:,} items, {n_annotators} annotators, "
            f"{len(result.pair_index)} pairs sharing items; labels in bit order: "
            + ", ".join(f"<b>{html.escape(shown(lab))}</b>" for lab in result.labels)
            + f". Exact set agreement (mean over pairs): {100 * avg['exact_set_agreement']:.1f}%."
        )
        for v in (self.pairs_view, self.per_label_view, self.counts_view, self.comb_view):
            fit_columns(v)
        for v in (self.pairs_view, self.per_label_view, self.counts_view, self.matrix_view):
            compact(v, 12)
        compact(self.comb_view, 16)
        from iaa_desktop.core.kinds.multilabel.charts import draw_per_label_kappa

        draw_per_label_kappa(self.ax, result)
        legend_beside(self.ax)
        self.canvas.draw_idle()

    @staticmethod
    def _per_label_frame(result: MultiLabelResult) -> pd.DataFrame:
        data: dict[str, Any] = {"label": list(result.labels)}
        for (a, b), pl in zip(result.pair_names(), result.per_label):
            data[f"PA {a}–{b}"] = pl["percent_agreement"]
            data[f"κ {a}–{b}"] = pl["kappa"]
        avg = result.per_label_averages()
        data["PA mean"] = avg["percent_agreement"]
        data["κ mean"] = avg["kappa"]
        return pd.DataFrame(data)

    def _on_joint_pair_changed(self) -> None:
        r = self.result
        if r is None or not r.pair_index:
            return
        p = max(0, self.joint_pair.currentIndex())
        a, b = r.pair_names()[p]
        jf = r.joint(p)  # every code up to 6 labels, else the codes the pair gave
        self._joint_codes = (list(jf.index), list(jf.columns))
        joint = jf.to_numpy()
        df = pd.DataFrame(joint, columns=[f"{b}: {r.code(c)}" for c in jf.columns])
        df.insert(0, f"{a} \\ {b}", [f"{r.code(c)} {code_name(c, r.labels)}" for c in jf.index])
        df["total"] = joint.sum(axis=1)
        self.joint_model.set_frame(df)
        fit_columns(self.joint_view, 240)

    def _on_joint_clicked(self, index) -> None:
        """List the items the pair gave this row's and this column's label combinations."""
        r = self.result
        if r is None or r.data is None or not r.pair_index or index.column() < 1:
            return
        p = max(0, self.joint_pair.currentIndex())
        a, b = r.pair_index[p]
        rows, cols = getattr(self, "_joint_codes", ([], []))
        if index.row() >= len(rows) or index.column() - 1 >= len(cols):
            return  # the total column
        row_code, col_code = int(rows[index.row()]), int(cols[index.column() - 1])
        mask = (r.data.codes[:, a] == row_code) & (r.data.codes[:, b] == col_code)
        names = r.pair_names()[p]
        self.cell_items.emit(
            mask,
            f"{shown(names[0])} gave {shown(r.code_label(row_code))} and {shown(names[1])} gave "
            f"{shown(r.code_label(col_code))}",
        )

    def _on_measure_changed(self) -> None:
        r = self.result
        if r is None or r.data is None:
            return
        text = str(self.matrix_measure.currentData() or "")  # the whole label, not as shown
        if text.startswith("exact"):
            df = r.pair_matrix("exact")
            percent: set[str] = set(r.data.annotators)
        elif text.startswith("κ "):
            j = r.labels.index(text[2:])
            n = len(r.data.annotators)
            m = np.full((n, n), np.nan)
            for (a, b), pl in zip(r.pair_index, r.per_label):
                m[a, b] = m[b, a] = pl["kappa"][j]
            df = pd.DataFrame(m, columns=list(r.data.annotators))
            df.insert(0, "annotator", list(r.data.annotators))
            percent = set()
        else:
            df = r.pair_matrix("kappa")
            percent = set()
        # the diagonal and pairs without shared items are blank, not "undefined"
        self.matrix_model.set_frame(df.astype(object).where(df.notna(), ""), percent=percent)
        fit_columns(self.matrix_view)

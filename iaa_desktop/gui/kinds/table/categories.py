"""Groups and categories of the table kind: agreement per group; per category with the
coincidence matrix, whose cells list the items behind them when clicked."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.heatmap import MatrixHeatmap
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table

CATEGORY_TOOLTIPS = {
    "specific_agreement": "Specific agreement, 0–1: of the labels with this value, the share "
    "another annotator of the item matched (Fleiss 1971; positive agreement for two categories)",
    "kappa_one_vs_rest": "κ of this value against all others merged (Fleiss' κ on a binary "
    "recoding); −1 to 1, 0 = chance",
    "n_labels": "Labels: how often the value was given",
}


class GroupsPanel(QWidget):
    """The overview's measures computed on each group's items."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel("Agreement per group: the overview's measures, computed on each group's items")
        )
        self.model = DataFrameModel()
        self.view = make_table(self.model, name="groups")
        lay.addWidget(self.view)

    def set_result(self, result: Any) -> None:
        rows = []
        for g in result.groups:
            row: dict[str, Any] = {"group": g.group, "n_items": g.n_items}
            for k, r in g.overall.items():
                row[k] = r.value
            rows.append(row)
        self.model.set_frame(pd.DataFrame(rows))
        fit_columns(self.view, max_width=180)


def category_label(c: Any) -> str:
    if isinstance(c, float) and c.is_integer():
        return str(int(c))
    return str(c)


class CategoriesPanel(QWidget):
    """Per-category agreement and the coincidence matrix; a cell lists its items."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: Any = None
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QSplitter(Qt.Orientation.Vertical)
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(QLabel("Agreement per category"))
        self.model = DataFrameModel(tooltips=CATEGORY_TOOLTIPS)
        self.view = make_table(self.model, name="categories")
        bl.addWidget(self.view, 1)
        left.addWidget(box)
        ibox = QWidget()
        ibl = QVBoxLayout(ibox)
        ibl.setContentsMargins(0, 0, 0, 0)
        self.cell_label = QLabel("Click a cell of the coincidence matrix to list its items.")
        self.cell_label.setWordWrap(True)
        ibl.addWidget(self.cell_label)
        self.items_model = DataFrameModel(severity_column="severity", percent=("disagreement",))
        self.items_view = make_table(self.items_model, name="coincidence_items")
        ibl.addWidget(self.items_view, 1)
        left.addWidget(ibox)
        split.addWidget(left)
        self.chart = MatrixHeatmap()
        self.chart.click_hint = "Click to list the items behind this cell."
        self.chart.cell_clicked.connect(self.show_cell_items)
        split.addWidget(self.chart)
        split.setSizes([520, 420])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(split)

    def set_result(self, result: Any) -> None:
        self.result = result
        per = result.per_category.copy()
        if "category" in per and len(per) == len(result.categories):
            per["category"] = [category_label(c) for c in result.categories]  # 1, not 1.0
        self.model.set_frame(per)
        fit_columns(self.view)
        cats = [category_label(c) for c in result.categories]
        if len(cats) <= 40:
            self.chart.set_matrix(
                result.coincidence,
                cats,
                cats,
                "Coincidence matrix (pairable values; rows and columns: the two labels)",
                vmin=0.0,
                sequential=True,
                digits=1,
            )
        self.items_model.set_frame(
            pd.DataFrame(), label_columns=map(str, result.annotators), ordered_labels=False
        )

    def show_cell_items(self, i: int, j: int) -> None:
        """The items on which one annotator gave value ``i`` and another value ``j``."""
        r = self.result
        if r is None:
            return
        cats = [category_label(c) for c in r.categories]
        a, b = cats[i], cats[j]
        items = r.items
        labels = items[list(r.annotators)].astype(str).to_numpy()
        n_a = (labels == a).sum(axis=1)
        n_b = (labels == b).sum(axis=1)
        keep = (n_a >= 2) if a == b else (n_a >= 1) & (n_b >= 1)
        self.items_model.set_frame(items[keep].reset_index(drop=True))
        fit_columns(self.items_view, max_width=220)
        what = (
            f"Items two annotators both labelled {a}" if a == b else f"Items labelled {a} and {b}"
        )
        self.cell_label.setText(f"{what}: {int(np.sum(keep)):,}")

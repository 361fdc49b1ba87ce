"""The Decomposition tab: the chosen S1 per pair, every explored partition (sortable by either
criterion, filterable by |S1|) beside the first- vs second-level scatter plot; clicking a point
selects its row and selecting a row marks its point (Levi & Shenhav 2022)."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.multilabel.compare import MultiLabelResult, code_name
from iaa_desktop.core.metrics import decomposition as dec
from iaa_desktop.gui.kinds.multilabel.agreement import group
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table

EXPLORATION_TOOLTIPS = {
    "S1": "S1: the label combinations (codes) on one side of the partition; hover a cell for their "
    "names (code bits in label order, first label = leftmost bit)",
    "|S1|": "how many combinations S1 holds",
    "first level": "First level: Cohen's κ on C_S1 (is an item's combination in S1 or not), mean "
    "over annotator pairs; −1 to 1",
    "2nd average": "Second level: κ per label on the items whose C_S1 the pair agrees on, "
    "averaged over the labels; −1 to 1",
    "rank 1st": "rank of the partition by the first level, lowest agreement first",
    "rank 2nd": "rank of the partition by the second level, highest first",
}


class DecompositionPanel(QWidget):
    """The chosen S1, the exploration table and the first- vs second-level scatter plot."""

    partition_selected = Signal(int)

    SORTS = ("first level ↑ (lowest agreement first)", "second level ↓ (highest first)")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from matplotlib.figure import Figure

        from iaa_desktop.gui.widgets.chart_canvas import ShortTextCanvas

        self.result: MultiLabelResult | None = None
        self._selected: int | None = None
        self._point_rows = np.zeros(0, dtype=int)
        self._updating = False

        self.chosen_model = DataFrameModel()
        self.chosen_view = make_table(self.chosen_model, sortable=False, name="chosen_s1")
        self.chosen_view.setMaximumHeight(120)
        self.model = DataFrameModel(
            hidden=("row", "S2", "S1 names"),
            cell_tooltips={"S1": "S1 names"},
            tooltips=EXPLORATION_TOOLTIPS,
        )
        self.view = make_table(self.model, sortable=True, name="partitions")
        self.view.selectionModel().currentRowChanged.connect(self._on_row_changed)
        self.sort_box = QComboBox()
        self.sort_box.addItems(self.SORTS)
        self.sort_box.currentIndexChanged.connect(self._apply_sort)
        self.size_box = QComboBox()
        self.size_box.currentIndexChanged.connect(self._on_filter_changed)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.selection_label = QLabel()
        self.selection_label.setWordWrap(True)
        self.selection_label.setTextFormat(Qt.TextFormat.RichText)

        self.figure = Figure(figsize=(5, 4), dpi=100, layout="constrained")
        self.canvas = ShortTextCanvas(self.figure)
        self.canvas.setMinimumSize(320, 260)
        self.ax = self.figure.add_subplot()
        self.canvas.mpl_connect("pick_event", self._on_pick)
        self._marker: Any = None  # the highlighted point (a matplotlib collection)

        controls = QHBoxLayout()
        controls.addWidget(QLabel("Rank by:"))
        controls.addWidget(self.sort_box)
        controls.addSpacing(12)
        controls.addWidget(QLabel("|S1|:"))
        controls.addWidget(self.size_box)
        controls.addStretch(1)

        lay = QVBoxLayout(self)
        lay.addWidget(
            group(
                "Chosen decomposition (S1) per pair: first level κ(C_S1); second level κ per label on the items agreeing on C_S1",
                self.chosen_view,
            )
        )
        lay.addWidget(self.info)
        lay.addLayout(controls)
        split = QSplitter()
        split.addWidget(self.view)
        plot = QWidget()
        pl = QVBoxLayout(plot)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.addWidget(self.canvas, 1)
        pl.addWidget(self.selection_label)
        split.addWidget(plot)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([700, 600])
        lay.addWidget(split, 1)

    # -- result
    def set_result(self, result: MultiLabelResult) -> None:
        previous = self.selected_partition()
        self.result = result
        self.chosen_model.set_frame(self._chosen_frame(result))
        fit_columns(self.chosen_view)
        self._full = self._exploration_frame(result)
        sizes = sorted(set(self._full["|S1|"].tolist())) if len(self._full) else []
        self.size_box.blockSignals(True)
        current = self.size_box.currentText()
        self.size_box.clear()
        self.size_box.addItems(["all", *[str(s) for s in sizes]])
        self.size_box.setCurrentIndex(max(0, self.size_box.findText(current)))
        self.size_box.blockSignals(False)
        self.info.setText(self._info_text(result))
        self._selected = None
        self._on_filter_changed()
        row = _find_partition(result, previous) if previous is not None else None
        if row is None:
            row = _find_partition(result, result.s1)
        if row is not None:
            self.select_partition(row)

    def _chosen_frame(self, r: MultiLabelResult) -> pd.DataFrame:
        df = r.decomposition_table()
        if df.empty:
            return df
        s1 = ", ".join(f"{c} = {code_name(int(c, 2), r.labels)}" for c in r.set_codes(r.s1))
        df["s1"] = s1
        return df.rename(
            columns={
                "first_level": "first level",
                "second_average": "second avg",
                "n_agree_first_level": "items agreeing on C_S1",
            }
        )

    def _exploration_frame(self, r: MultiLabelResult) -> pd.DataFrame:
        t = r.exploration_table()
        if t.empty:
            return pd.DataFrame(columns=["row", "|S1|"])
        keep = {
            "s1": "S1",
            "s2": "S2",
            "size": "|S1|",
            "first_level": "first level",
            **{f"second {lab}": f"2nd {_abbr(lab)}" for lab in r.labels},
            "second_average": "2nd average",
            "rank_first_level": "rank 1st",
            "rank_second_level": "rank 2nd",
        }
        df = t[list(keep)].rename(columns=keep)
        df.insert(0, "row", np.arange(len(df)))
        names = np.array(
            [f"{r.code(c)} = {code_name(c, r.labels)}" for c in range(2**r.k)], dtype=object
        )
        df["S1 names"] = ["\n".join(names[row]) for row in r.partitions]
        if (t["source"] != "exhaustive").any():
            df["source"] = t["source"]
        return df

    @staticmethod
    def _info_text(r: MultiLabelResult) -> str:
        info = r.exploration_info
        if not info:
            return "No exploration (too many labels)."
        total = info.get("n_partitions_total", 0)
        if info.get("mode") == "exhaustive":
            text = f"Exhaustive: all {info['n_explored']:,} partitions of the {2**r.k} codes."
        else:
            text = (
                f"{r.k} labels: {total:,} partitions are too many to list. Shown: the {info.get('n_bounded', 0):,} "
                f"with |S1| ≤ {info.get('max_s1_size')} (setting 'Largest |S1| explored')"
            )
            if "n_search_evaluated" in info:
                text += (
                    f", plus {info.get('n_search_added', 0):,} found by a beam search for the best partitions under "
                    f"each criterion ({info['n_search_evaluated']:,} partitions evaluated; source = search)"
                )
            text += "."
        n_undef = info.get("n_first_level_undefined", 0)
        if n_undef:
            text += f" {n_undef:,} partitions have an undefined first level for some pair; they rank last."
        return text

    # -- filtering and sorting
    def _on_filter_changed(self) -> None:
        if self.result is None:
            return
        size = self.size_box.currentText()
        df = self._full if size in ("all", "") else self._full[self._full["|S1|"] == int(size)]
        self.model.set_frame(df)
        self._apply_sort()
        self._draw()
        fit_columns(self.view, 260)
        if self._selected is not None:
            self._select_view_row(self._selected)

    def _apply_sort(self) -> None:
        if len(self.model.frame) == 0:
            return
        col = "rank 1st" if self.sort_box.currentIndex() == 0 else "rank 2nd"
        self.view.sortByColumn(self.model.column_of(col), Qt.SortOrder.AscendingOrder)
        if self._selected is not None:
            self._select_view_row(self._selected)

    # -- scatter
    def _draw(self) -> None:
        from iaa_desktop.core.kinds.multilabel.charts import draw_decomposition_scatter

        assert self.result is not None
        rows = (
            self.model.frame["row"].to_numpy(dtype=int)
            if len(self.model.frame)
            else np.zeros(0, dtype=int)
        )
        _, self._point_rows = draw_decomposition_scatter(self.ax, self.result, rows=rows, picker=4)
        self._marker = None
        self._update_marker()

    def _update_marker(self) -> None:
        r = self.result
        if r is None:
            return
        if self._marker is not None:
            self._marker.remove()
            self._marker = None
        if (
            r.exploration is not None
            and self._selected is not None
            and self._selected in set(self._point_rows.tolist())
        ):
            x, _ = r.first_level_mean(r.exploration)
            y = r.second_level_means(r.exploration)["average"]
            self._marker = self.ax.scatter(
                [x[self._selected]],
                [y[self._selected]],
                s=220,
                marker="*",
                c="gold",
                edgecolors="black",
                linewidths=1.0,
                zorder=6,
            )
        self.canvas.draw_idle()

    def _on_pick(self, event: Any) -> None:
        ind = getattr(event, "ind", None)
        if ind is None or len(ind) == 0 or len(self._point_rows) == 0:
            return
        # several points under the cursor: take the one nearest to the click
        mouse = getattr(event, "mouseevent", None)
        best = int(ind[0])
        if mouse is not None and mouse.xdata is not None and len(ind) > 1:
            offsets = event.artist.get_offsets()[ind]
            d = (offsets[:, 0] - mouse.xdata) ** 2 + (offsets[:, 1] - mouse.ydata) ** 2
            best = int(ind[int(np.argmin(d))])
        self.select_partition(int(self._point_rows[best]))

    # -- selection
    def selected_partition(self) -> np.ndarray | None:
        if self.result is None or self._selected is None:
            return None
        return np.array(self.result.partitions[self._selected])

    def select_partition(self, row: int) -> None:
        """Select an explored partition (its row in ``result.partitions``) everywhere."""
        self._selected = int(row)
        self._select_view_row(row)
        self._update_marker()
        self._update_selection_label()
        self.partition_selected.emit(int(row))

    def _select_view_row(self, row: int) -> None:
        hits = (
            np.flatnonzero(self.model.frame["row"].to_numpy(dtype=int) == row)
            if len(self.model.frame)
            else np.zeros(0, dtype=int)
        )
        if len(hits) == 0:
            return
        self._updating = True
        idx = self.model.index(int(hits[0]), 0)
        self.view.selectionModel().setCurrentIndex(
            idx,
            self.view.selectionModel().SelectionFlag.ClearAndSelect
            | self.view.selectionModel().SelectionFlag.Rows,
        )
        self.view.scrollTo(idx, QAbstractItemView.ScrollHint.PositionAtCenter)
        self._updating = False

    def _on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._updating or not current.isValid():
            return
        row = int(self.model.frame["row"].iloc[current.row()])
        if row != self._selected:
            self.select_partition(row)

    def _update_selection_label(self) -> None:
        r = self.result
        if r is None or self._selected is None or r.exploration is None:
            self.selection_label.setText("")
            return
        s1 = r.partitions[self._selected]
        codes = ", ".join(
            f"<b>{c}</b> = {html.escape(code_name(int(c, 2), r.labels))}" for c in r.set_codes(s1)
        )
        x, _ = r.first_level_mean(r.exploration)
        y = r.second_level_means(r.exploration)["average"]
        self.selection_label.setText(
            f"Selected S1: {codes}<br>first level {_fmt(x[self._selected])}, second level {_fmt(y[self._selected])}"
            " — its items are in the <i>Partition items</i> tab."
        )


def _abbr(label: str) -> str:
    """Short column header for a label (the full names are in the chosen-S1 table)."""
    return label if len(label) <= 6 else label[:4] + "."


def _fmt(v: float) -> str:
    return "undefined" if not np.isfinite(v) else f"{v:.3f}"


def _find_partition(r: MultiLabelResult, s1: np.ndarray | None) -> int | None:
    if s1 is None or r.exploration is None or len(s1) != r.partitions.shape[1]:
        return None
    canon = dec.canonical_partitions(np.asarray(s1, dtype=bool)[None])[0]
    hit = np.flatnonzero((r.partitions == canon).all(axis=1))
    return int(hit[0]) if len(hit) else None

"""Views of a ``multilabel`` result: per-label agreement, the decomposition explorer and the items
behind a partition.

Three tabs share one selection (a partition row of the exploration and an annotator pair):

* **Multi-label agreement** — per-label percent agreement and κ per pair, the pair matrix, label
  counts per annotator (the seed's Table 1) and the label combinations;
* **Decomposition** — the chosen S1 per pair, every explored partition (sortable by either
  criterion, filterable by |S1|) beside a first- vs second-level scatter plot; clicking a point
  selects its row and selecting a row marks its point;
* **Partition items** — for the selected partition and pair: the items on which the pair
  disagrees at the first level, and those where it agrees first but disagrees second, with the
  text and each annotator's labels.

Nothing is computed here beyond lookups in the finished result.
"""

from __future__ import annotations

import html
import unicodedata
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.multilabel.compare import MultiLabelResult, code_name
from iaa_desktop.core.metrics import decomposition as dec

CACHE_KEY = "multilabel"
RAW_ROLE = Qt.ItemDataRole.UserRole + 1


# ----------------------------------------------------------------------------- table model
class FrameModel(QAbstractTableModel):
    """Thin read-only model over a DataFrame snapshot; sorting happens in pandas."""

    def __init__(
        self,
        frame: pd.DataFrame | None = None,
        percent: tuple[str, ...] = (),
        hidden: tuple[str, ...] = (),
        tooltips: dict[str, str] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        #: column → (hidden) column whose value is the tooltip of its cells
        self._tooltips = dict(tooltips or {})
        self._percent = set(percent)
        self._hidden = set(hidden)
        self._frame = pd.DataFrame()
        self._cols: list[str] = []
        self._values: np.ndarray = np.zeros((0, 0), dtype=object)
        self.set_frame(frame if frame is not None else pd.DataFrame())

    # -- snapshot
    def set_frame(
        self, frame: pd.DataFrame, percent: tuple[str, ...] | set[str] | None = None
    ) -> None:
        """Show a new snapshot; ``percent`` names the columns shown as percentages."""
        self.beginResetModel()
        if percent is not None:
            self._percent = set(percent)
        self._frame = frame.reset_index(drop=True)
        self._cols = [c for c in self._frame.columns if c not in self._hidden]
        self._values = (
            self._frame[self._cols].to_numpy(dtype=object)
            if self._cols
            else np.zeros((len(self._frame), 0), dtype=object)
        )
        self.endResetModel()

    @property
    def frame(self) -> pd.DataFrame:
        return self._frame

    def column_of(self, name: str) -> int:
        return self._cols.index(name)

    # -- Qt API
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._frame)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._cols)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        v = self._values[index.row(), index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            text = self._format(self._cols[index.column()], v)
            # item views lay text out left to right; an embedding keeps a Hebrew/Arabic
            # sentence in its own order (punctuation at its end, i.e. on the left)
            return f"\u202b{text}\u202c" if isinstance(v, str) and _is_rtl(v) else text
        if role == Qt.ItemDataRole.ToolTipRole:
            tip_col = self._tooltips.get(self._cols[index.column()])
            if tip_col is not None and tip_col in self._frame.columns:
                return str(self._frame[tip_col].iat[index.row()])
            if isinstance(v, str) and len(v) > 40:
                return v
            if _is_nan(v):
                return "undefined: A_e = 1 or no items (the annotators used one value only)"
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if isinstance(v, int | float | np.integer | np.floating) or (
                isinstance(v, str) and _is_rtl(v)
            ):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == RAW_ROLE:
            return v
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._cols[section] if section < len(self._cols) else None
        return str(section + 1)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self._cols):
            return
        col = self._cols[column]
        # undefined values stay last in both directions (METHODS.md §6)
        frame = self._frame.sort_values(
            col, ascending=order == Qt.SortOrder.AscendingOrder, na_position="last", kind="stable"
        )
        self.layoutAboutToBeChanged.emit()
        self._frame = frame.reset_index(drop=True)
        self._values = self._frame[self._cols].to_numpy(dtype=object)
        self.layoutChanged.emit()

    def _format(self, col: str, v: Any) -> str:
        if v is None or _is_nan(v):
            return "undefined" if col not in ("text",) else ""
        if isinstance(v, float | np.floating):
            if col in self._percent:
                return f"{100 * v:.1f}%"
            return f"{v:.3f}"
        return str(v)


def _is_nan(v: Any) -> bool:
    return isinstance(v, float | np.floating) and not np.isfinite(v)


def _table(model: FrameModel, sortable: bool = False) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(22)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    # fitting columns looks at a sample of rows, not at all 32,767 partitions
    view.horizontalHeader().setResizeContentsPrecision(100)
    view.setSortingEnabled(sortable)
    return view


def _fit(view: QTableView, max_width: int = 420) -> None:
    view.resizeColumnsToContents()
    header = view.horizontalHeader()
    for c in range(header.count()):
        if header.sectionSize(c) > max_width:
            header.resizeSection(c, max_width)


def _compact(view: QTableView, max_rows: int) -> None:
    """Make a short table only as tall as its rows (up to ``max_rows``), so space goes to others."""
    rows = min(view.model().rowCount(), max_rows)
    height = (
        view.horizontalHeader().sizeHint().height()
        + rows * view.verticalHeader().defaultSectionSize()
    )
    scroll = view.horizontalScrollBar().sizeHint().height()
    view.setFixedHeight(height + 2 * view.frameWidth() + scroll + 2)


def _is_rtl(text: str) -> bool:
    """Direction of the first strong character (Hebrew/Arabic texts read right to left)."""
    for ch in text:
        d = unicodedata.bidirectional(ch)
        if d in ("R", "AL"):
            return True
        if d == "L":
            return False
    return False


# -------------------------------------------------------------------------------- panels
class AgreementPanel(QWidget):
    """Per-label table, pair matrix, label counts and label combinations."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: MultiLabelResult | None = None
        self.pairs_model = FrameModel()
        self.per_label_model = FrameModel()
        self.matrix_model = FrameModel()
        self.counts_model = FrameModel()
        self.comb_model = FrameModel(percent=("share",))
        self.pairs_view = _table(self.pairs_model)
        self.per_label_view = _table(self.per_label_model)
        self.matrix_view = _table(self.matrix_model)
        self.counts_view = _table(self.counts_model)
        self.comb_view = _table(self.comb_model, sortable=True)
        self.matrix_measure = QComboBox()
        self.matrix_measure.currentIndexChanged.connect(self._on_measure_changed)
        self.summary = QLabel()
        self.summary.setWordWrap(True)

        left = QVBoxLayout()
        left.addWidget(self.summary)
        left.addWidget(
            _group(
                "Per label: percent agreement and Cohen's κ, each pair and the mean over pairs",
                self.per_label_view,
            )
        )
        left.addWidget(_group("Per pair", self.pairs_view))
        box = QVBoxLayout()
        row = QHBoxLayout()
        row.addWidget(QLabel("Measure:"))
        row.addWidget(self.matrix_measure, 1)
        box.addLayout(row)
        box.addWidget(self.matrix_view)
        matrix_group = QGroupBox("Pair matrix")
        matrix_group.setLayout(box)
        left.addWidget(matrix_group)
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure

        self.figure = Figure(figsize=(5, 3), dpi=100, layout="constrained")
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setMinimumHeight(220)
        self.ax = self.figure.add_subplot()
        right = QVBoxLayout()
        right.addWidget(_group("Label counts per annotator", self.counts_view))
        right.addWidget(
            _group("Label combinations (code: first label = leftmost bit)", self.comb_view)
        )
        right.addWidget(self.canvas, 1)
        # joint distribution of the codes for one pair (rows: first annotator, columns: second)
        self.joint_pair = QComboBox()
        self.joint_pair.currentIndexChanged.connect(self._on_joint_pair_changed)
        self.joint_model = FrameModel()
        self.joint_view = _table(self.joint_model)
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
        left.addWidget(joint_group, 1)
        lay = QHBoxLayout(self)
        lw, rw = QWidget(), QWidget()
        lw.setLayout(left)
        rw.setLayout(right)
        split = QSplitter()
        split.addWidget(lw)
        split.addWidget(rw)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay.addWidget(split)

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
        current = self.matrix_measure.currentText()
        self.matrix_measure.blockSignals(True)
        self.matrix_measure.clear()
        self.matrix_measure.addItems(
            ["mean κ over labels", "exact set agreement", *[f"κ {lab}" for lab in result.labels]]
        )
        i = self.matrix_measure.findText(current)
        self.matrix_measure.setCurrentIndex(max(0, i))
        self.matrix_measure.blockSignals(False)
        self._on_measure_changed()
        current = self.joint_pair.currentText()
        self.joint_pair.blockSignals(True)
        self.joint_pair.clear()
        self.joint_pair.addItems([f"{a}–{b}" for a, b in result.pair_names()])
        self.joint_pair.setCurrentIndex(max(0, self.joint_pair.findText(current)))
        self.joint_pair.blockSignals(False)
        self._on_joint_pair_changed()
        avg = result.per_label_averages()
        self.summary.setText(
            f"{len(result.data.items):,} items, {len(result.data.annotators)} annotators, "
            f"{len(result.pair_index)} pairs sharing items; labels in bit order: "
            + ", ".join(f"<b>{html.escape(lab)}</b>" for lab in result.labels)
            + f". Exact set agreement (mean over pairs): {100 * avg['exact_set_agreement']:.1f}%."
        )
        for v in (self.pairs_view, self.per_label_view, self.counts_view, self.comb_view):
            _fit(v)
        for v in (self.pairs_view, self.per_label_view, self.counts_view, self.matrix_view):
            _compact(v, 12)
        _compact(self.comb_view, 16)
        from iaa_desktop.core.kinds.multilabel.charts import draw_per_label_kappa

        draw_per_label_kappa(self.ax, result)
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
        joint = jf.to_numpy()
        df = pd.DataFrame(joint, columns=[f"{b}: {r.code(c)}" for c in jf.columns])
        df.insert(0, f"{a} \\ {b}", [f"{r.code(c)} {code_name(c, r.labels)}" for c in jf.index])
        df["total"] = joint.sum(axis=1)
        self.joint_model.set_frame(df)
        _fit(self.joint_view, 240)

    def _on_measure_changed(self) -> None:
        r = self.result
        if r is None:
            return
        text = self.matrix_measure.currentText()
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
        _fit(self.matrix_view)


def _group(title: str, widget: QWidget) -> QGroupBox:
    g = QGroupBox(title)
    lay = QVBoxLayout(g)
    lay.setContentsMargins(4, 4, 4, 4)
    lay.addWidget(widget)
    return g


class DecompositionPanel(QWidget):
    """The chosen S1, the exploration table and the first- vs second-level scatter plot."""

    partition_selected = Signal(int)

    SORTS = ("first level ↑ (lowest agreement first)", "second level ↓ (highest first)")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure

        self.result: MultiLabelResult | None = None
        self._selected: int | None = None
        self._point_rows = np.zeros(0, dtype=int)
        self._updating = False

        self.chosen_model = FrameModel()
        self.chosen_view = _table(self.chosen_model)
        self.chosen_view.setMaximumHeight(120)
        self.model = FrameModel(hidden=("row", "S2", "S1 names"), tooltips={"S1": "S1 names"})
        self.view = _table(self.model, sortable=True)
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
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setMinimumSize(320, 260)
        self.ax = self.figure.add_subplot()
        self.canvas.mpl_connect("pick_event", self._on_pick)
        self._marker = None

        controls = QHBoxLayout()
        controls.addWidget(QLabel("Rank by:"))
        controls.addWidget(self.sort_box)
        controls.addSpacing(12)
        controls.addWidget(QLabel("|S1|:"))
        controls.addWidget(self.size_box)
        controls.addStretch(1)

        lay = QVBoxLayout(self)
        lay.addWidget(
            _group(
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
        _fit(self.chosen_view)
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
        _fit(self.view, 260)
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
        if self._selected is not None and self._selected in set(self._point_rows.tolist()):
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
            else []
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
        if r is None or self._selected is None:
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


class ItemsPanel(QWidget):
    """Items behind the selected partition for one annotator pair."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: MultiLabelResult | None = None
        self.s1: np.ndarray | None = None
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.pair_box = QComboBox()
        self.pair_box.currentIndexChanged.connect(self._refresh)
        self.first_model = FrameModel()
        self.second_model = FrameModel()
        self.first_view = _table(self.first_model, sortable=True)
        self.second_view = _table(self.second_model, sortable=True)
        self.first_group = _group("", self.first_view)
        self.second_group = _group("", self.second_view)
        self.detail = QTextBrowser()
        self.detail.setMaximumHeight(130)
        for v in (self.first_view, self.second_view):
            v.selectionModel().currentRowChanged.connect(
                lambda cur, _prev, view=v: self._show_detail(view, cur)
            )

        top = QHBoxLayout()
        top.addWidget(QLabel("Annotator pair:"))
        top.addWidget(self.pair_box)
        top.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addWidget(self.header)
        lay.addLayout(top)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.first_group)
        split.addWidget(self.second_group)
        lay.addWidget(split, 1)
        lay.addWidget(self.detail)

    def set_result(self, result: MultiLabelResult) -> None:
        self.result = result
        current = self.pair_box.currentText()
        self.pair_box.blockSignals(True)
        self.pair_box.clear()
        self.pair_box.addItems([f"{a}–{b}" for a, b in result.pair_names()])
        self.pair_box.setCurrentIndex(max(0, self.pair_box.findText(current)))
        self.pair_box.blockSignals(False)
        if self.s1 is None or len(self.s1) != 2**result.k:
            self.s1 = np.array(result.s1) if len(result.s1) else None
        self._refresh()

    def show_partition(self, row: int) -> None:
        if self.result is None:
            return
        self.s1 = np.array(self.result.partitions[row])
        self._refresh()

    def _refresh(self) -> None:
        r = self.result
        if r is None or self.s1 is None or not r.pair_index:
            return
        pair = max(0, self.pair_box.currentIndex())
        first, second = r.partition_items(pair, self.s1)
        self.first_model.set_frame(first)
        self.second_model.set_frame(second)
        a, b = r.pair_names()[pair]
        s1_txt = ", ".join(
            f"<b>{c}</b> = {html.escape(code_name(int(c, 2), r.labels))}"
            for c in r.set_codes(self.s1)
        )
        s2_txt = ", ".join(r.set_codes(~self.s1))
        n = int(
            (
                (r.data.codes[:, r.pair_index[pair][0]] >= 0)
                & (r.data.codes[:, r.pair_index[pair][1]] >= 0)
            ).sum()
        )
        self.header.setText(
            f"Partition S1 = {{{s1_txt}}} vs S2 = {{{s2_txt}}}; pair {html.escape(a)}–{html.escape(b)}, {n:,} shared items."
        )
        self.first_group.setTitle(
            f"First level: {a} and {b} disagree on C_S1 (one code in S1, the other in S2) — {len(first):,} item{'' if len(first) == 1 else 's'}"
        )
        self.second_group.setTitle(
            f"Second level: they agree on C_S1 but not on the labels — {len(second):,} item{'' if len(second) == 1 else 's'}"
        )
        for v in (self.first_view, self.second_view):
            _fit(v, 620)
            if "text" in v.model().frame.columns:  # type: ignore[attr-defined]
                v.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.detail.clear()

    def _show_detail(self, view: QTableView, current: QModelIndex) -> None:
        if not current.isValid():
            return
        model: FrameModel = view.model()  # type: ignore[assignment]
        row = model.frame.iloc[current.row()]
        text = str(row.get("text", ""))
        direction = "rtl" if _is_rtl(text) else "ltr"
        cols = [c for c in model.frame.columns if c not in ("item", "text")]
        labels = "<br>".join(f"<b>{html.escape(c)}</b>: {html.escape(str(row[c]))}" for c in cols)
        self.detail.setHtml(
            f"<p><b>{html.escape(str(row['item']))}</b></p>"
            f"<p dir='{direction}' align='{'right' if direction == 'rtl' else 'left'}'>{html.escape(text) or '<i>(no text)</i>'}</p>"
            f"<p>{labels}</p>"
        )


class MultiLabelPanels(QObject):
    """The three tabs of a multi-label result and their shared selection."""

    def __init__(self) -> None:
        super().__init__()
        self.agreement = AgreementPanel()
        self.decomposition = DecompositionPanel()
        self.items = ItemsPanel()
        self.decomposition.partition_selected.connect(self.items.show_partition)

    def set_result(self, result: MultiLabelResult) -> None:
        self.agreement.set_result(result)
        self.items.set_result(result)
        self.decomposition.set_result(result)

    def panels(self) -> list[tuple[str, QWidget]]:
        return [
            ("Multi-label agreement", self.agreement),
            ("Decomposition", self.decomposition),
            ("Partition items", self.items),
        ]


def create_panels(result: MultiLabelResult, context: Any) -> list[tuple[str, QWidget]]:
    """Tabs for a finished multi-label result; widgets are kept in ``context.cache`` so the
    selected partition and pair survive a recompute."""
    cache = getattr(context, "cache", None)
    panels = cache.get(CACHE_KEY) if isinstance(cache, dict) else None
    if not isinstance(panels, MultiLabelPanels):
        panels = MultiLabelPanels()
        if isinstance(cache, dict):
            cache[CACHE_KEY] = panels
    panels.set_result(result)
    return panels.panels()

"""The items of a multi-label study: every item with every annotator's label set side by side
(one colour per set, rows tinted by severity, *disagreements only*), and the items behind the
selected partition for one annotator pair (first- and second-level disagreements)."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.multilabel.compare import MultiLabelResult, code_name
from iaa_desktop.gui.kinds.multilabel.agreement import group
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.short_text import add_names, shown
from iaa_desktop.gui.widgets.table_view import ListBar, fit_columns, make_table, select_row
from iaa_desktop.gui.widgets.unit_detail import unit_html
from iaa_desktop.gui.widgets.zoom import TextZoom

SEVERITY_TIP = (
    "Severity, 0–1: the share of the item's annotator pairs whose label sets differ (a set is "
    "one nominal value); rows are tinted by it"
)


def set_names(r: MultiLabelResult) -> list[str]:
    """Every label set's name in code order (``(none)``, …): the order that gives each set its
    colour, the same in every table of the study."""
    return [code_name(c, r.labels) for c in range(2**r.k)]


def coded_set_names(r: MultiLabelResult) -> list[str]:
    """As :func:`set_names`, each with its code (``001 Success``), as the partition tables
    show them."""
    return [f"{r.code(c)} {code_name(c, r.labels)}" for c in range(2**r.k)]


def items_frame(r: MultiLabelResult) -> pd.DataFrame:
    """One row per item: each annotator's label set (as text), severity, the item's text."""
    from iaa_desktop.core.adjudication.severity import item_severity

    d = r.data
    assert d is not None
    names = np.array([code_name(c, r.labels) for c in range(2**r.k)] + [""], dtype=object)
    data: dict[str, Any] = {"item": list(d.items)}
    for x, a in enumerate(d.annotators):
        data[a] = names[d.codes[:, x]]  # -1 → "" (not annotated)
    data["severity"] = item_severity(np.asarray(d.codes), "nominal")
    data["text"] = list(d.texts)
    # the most disagreeing first, then in file order (as every list of the app)
    return (
        pd.DataFrame(data)
        .sort_values("severity", ascending=False, kind="stable", na_position="last")
        .reset_index(drop=True)
    )


class AllItemsPanel(QWidget):
    """Every item in context (see the module docstring); a joint-distribution cell of the
    agreement tab narrows the list to its items."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: MultiLabelResult | None = None
        self.model = DataFrameModel(severity_column="severity", tooltips={"severity": SEVERITY_TIP})
        self.bar = ListBar(self.model, noun="items", placeholder="Filter items or text…")
        self.view = make_table(self.model, name="items")
        self.view.selectionModel().currentRowChanged.connect(lambda cur, _p: self._show(cur))
        self.scope = QLabel()
        self.scope.setWordWrap(True)
        self.scope.setStyleSheet("color: #1f3fbf")
        self.scope_clear = QPushButton("Show all items")
        self.scope_clear.clicked.connect(lambda: self.show_cell(None, ""))
        self.detail = QTextBrowser()
        self.zoom = TextZoom(self, [self.detail])
        scope = QHBoxLayout()
        scope.addWidget(self.scope, 1)
        scope.addWidget(self.scope_clear)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.bar)
        ll.addLayout(scope)
        ll.addWidget(self.view, 1)
        legend = QLabel(
            "Label sets: one colour per set · (none) = no label · empty = not annotated"
        )
        legend.setStyleSheet("color: #555")
        ll.addWidget(legend)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.detail)
        split.setSizes([620, 340])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(split)
        self.show_cell(None, "")

    def set_result(self, result: MultiLabelResult) -> None:
        self.result = result
        assert result.data is not None
        self.model.set_frame(
            items_frame(result),
            label_columns=result.data.annotators,
            label_values=set_names(result),
        )
        self.bar.reapply()
        fit_columns(self.view, max_width=200)
        if self.model.rowCount():
            select_row(self.view, 0)

    def show_cell(self, mask: np.ndarray | None, what: str) -> None:
        """Only the items of ``mask`` (a joint-distribution cell); ``None`` = every item."""
        self.model.set_row_mask(mask)
        self.scope.setText(f"{what}: {int(mask.sum()):,} items" if mask is not None else "")
        self.scope.setVisible(mask is not None)
        self.scope_clear.setVisible(mask is not None)
        if self.model.rowCount():
            select_row(self.view, 0)

    def _show(self, current: QModelIndex) -> None:
        r = self.result
        if r is None or not current.isValid():
            return
        row = self.model.record(current.row())
        names = list(r.annotators)
        text = str(row["text"])
        sev = row["severity"]
        footer = (
            f"severity {sev:.2f} (share of disagreeing annotator pairs)"
            if isinstance(sev, float) and sev == sev
            else "fewer than two annotators labelled this item"
        )
        values = [row[a] if row[a] != "" else None for a in names]
        shown = [v if v is None else (v or "(none)") for v in values]  # None: not labelled
        self.detail.setHtml(
            unit_html(
                f"Item {row['item']}",
                [("text", text)] if text else [],
                [],
                names,
                shown,
                self.model.colours,
                footer,
            )
        )


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
        self.first_model = DataFrameModel()
        self.second_model = DataFrameModel()
        self.first_view = make_table(self.first_model, sortable=True, name="first_level_items")
        self.second_view = make_table(self.second_model, sortable=True, name="second_level_items")
        self.first_group = group("", self.first_view)
        self.second_group = group("", self.second_view)
        self.detail = QTextBrowser()
        self.detail.setMaximumHeight(150)
        self.zoom = TextZoom(self, [self.detail])
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
        add_names(self.pair_box, [f"{a}–{b}" for a, b in result.pair_names()])
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
        if r is None or r.data is None or self.s1 is None or not r.pair_index:
            return
        pair = max(0, self.pair_box.currentIndex())
        first, second = r.partition_items(pair, self.s1)
        a, b = r.pair_names()[pair]
        sa, sb = shown(a), shown(b)  # the titles name the pair; the models keep the names
        scale = coded_set_names(r)  # one colour per label set, as in the Items tab
        self.first_model.set_frame(first, label_columns=(a, b), label_values=scale)
        self.second_model.set_frame(second, label_columns=(a, b), label_values=scale)
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
            f"Partition S1 = {{{s1_txt}}} vs S2 = {{{s2_txt}}}; pair {html.escape(sa)}–{html.escape(sb)}, {n:,} shared items."
        )
        self.first_group.setTitle(
            f"First level: {sa} and {sb} disagree on C_S1 (one code in S1, the other in S2) — {len(first):,} item{'' if len(first) == 1 else 's'}"
        )
        self.second_group.setTitle(
            f"Second level: they agree on C_S1 but not on the labels — {len(second):,} item{'' if len(second) == 1 else 's'}"
        )
        for v in (self.first_view, self.second_view):
            fit_columns(v, 420)
        self.detail.clear()

    def _show_detail(self, view: QTableView, current: QModelIndex) -> None:
        if not current.isValid():
            return
        model: DataFrameModel = view.model()  # type: ignore[assignment]
        row = model.record(current.row())
        names = [c for c in model.frame.columns if c not in ("item", "text")]
        text = str(row.get("text", ""))
        self.detail.setHtml(
            unit_html(
                f"Item {row['item']}",
                [("text", text)] if text else [],
                [],
                names,
                [row[c] for c in names],
                model.colours,
            )
        )

"""The adjudication panel's toolbar: the automatic merge (strategy, minimum share, blind mode),
the filters of the queue (state, annotator pair, label, text) and the progress."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QWidget,
)

from iaa_desktop.core.adjudication import Strategy
from iaa_desktop.core.errors import IaaError
from iaa_desktop.gui.widgets.elided_label import ElidedText
from iaa_desktop.gui.widgets.short_text import shown

#: a label filter is offered when the units have at most this many distinct values
MAX_LABELS = 60
FILTER_TIPS = {
    "unresolved": "units still to decide",
    "all": "every unit",
    "decided": "units decided by hand",
    "automatic": "units merged by the strategy, not decided by hand",
    "resolved": "units decided or merged",
}


#: the inferred-label merges offered when the study computed competence (Dawid & Skene 1979)
INFERRED_ITEMS = (
    ("inferred", "inferred label (Dawid–Skene)"),
    ("inferred:0.9", "inferred label, posterior ≥ 0.90"),
    ("inferred:0.95", "inferred label, posterior ≥ 0.95"),
    ("inferred:0.99", "inferred label, posterior ≥ 0.99"),
)


class Toolbar(QWidget):
    """Two rows above the panel (see the module docstring)."""

    def __init__(self, panel: Any) -> None:
        super().__init__(panel)
        self.panel = panel
        s = panel.session
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        row1, row2 = QHBoxLayout(), QHBoxLayout()
        grid.addLayout(row1, 0, 0)
        grid.addLayout(row2, 1, 0)
        row1.addWidget(QLabel("Automatic merge:"))
        self.strategy_combo = QComboBox()
        self.strategy_combo.addItem("unanimous", "unanimous")
        self.strategy_combo.addItem("majority", "majority")
        for a in s.model.annotators:
            self.strategy_combo.addItem(shown(f"annotator {a}"), f"annotator:{a}")
        if s.model.suggestions:  # the study computed competence: Dawid–Skene's labels
            for data, text in INFERRED_ITEMS:
                self.strategy_combo.addItem(text, data)
        self.strategy_combo.setCurrentIndex(max(0, self.strategy_combo.findData(str(s.strategy))))
        row1.addWidget(self.strategy_combo)
        row1.addWidget(QLabel("min share"))
        self.share_spin = QDoubleSpinBox()
        self.share_spin.setRange(0.5, 1.0)
        self.share_spin.setSingleStep(0.05)
        self.share_spin.setValue(max(0.5, s.strategy.min_share))
        self.share_spin.setToolTip(
            "majority: the share of the unit's annotators the value needs (more than half at least)"
        )
        row1.addWidget(self.share_spin)
        self.blind_check = QCheckBox("Blind")
        self.blind_check.setToolTip(
            f"hide the annotators' names and shuffle the queue (seed {s.seed}, recorded in the store)"
        )
        self.blind_check.setChecked(s.blind)
        row1.addWidget(self.blind_check)
        self.bulk_button = QPushButton("Bulk ▾")
        self.bulk_button.setToolTip("decide many units at once (one step to undo)")
        row1.addWidget(self.bulk_button)
        self.notice_label = ElidedText("")  # what the last bulk action did
        self.notice_label.setMinimumWidth(40)
        row1.addWidget(self.notice_label, 1)
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(160)
        self.progress_bar.setTextVisible(False)
        row1.addWidget(self.progress_bar)
        self.progress_label = QLabel()
        row1.addWidget(self.progress_label)

        row2.addWidget(QLabel("Show:"))
        self.filter_combo = QComboBox()
        for f, tip in FILTER_TIPS.items():
            self.filter_combo.addItem(f, f)
            self.filter_combo.setItemData(
                self.filter_combo.count() - 1, tip, Qt.ItemDataRole.ToolTipRole
            )
        row2.addWidget(self.filter_combo)
        self.pair_combo = QComboBox()
        self.pair_combo.setToolTip("only units on which these two annotators differ")
        row2.addWidget(self.pair_combo)
        self.label_combo = QComboBox()
        self.label_combo.setToolTip("only units on which some annotator gave this value")
        self.label_combo.setMaximumWidth(220)
        row2.addWidget(self.label_combo)
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText("Filter by text, document, target…")
        self.search_edit.setClearButtonEnabled(True)
        # the filter takes the focus only when clicked or on Ctrl+F: N / P stay the queue's
        self.search_edit.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.search_edit.setToolTip("Ctrl+F; Esc clears it")
        find = QShortcut(QKeySequence(QKeySequence.StandardKey.Find), panel)
        find.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        find.activated.connect(self._focus_search)
        row2.addWidget(self.search_edit, 1)
        # the side panel (agreement, decisions, exports): folds away when the queue needs room
        self.side_button = QPushButton("Agreement")
        self.side_button.setCheckable(True)
        self.side_button.setChecked(True)
        self.side_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.side_button.setToolTip(
            "show or fold the agreement, the decisions of this sitting and the exports"
        )
        row2.addWidget(self.side_button)
        self._fill_pairs()
        self._fill_labels()
        self._label_strategy_items()

        self._search_timer = QTimer(self, singleShot=True, interval=200)
        self._search_timer.timeout.connect(panel.refresh_queue)
        self.search_edit.textChanged.connect(lambda _t: self._search_timer.start())
        self.filter_combo.currentIndexChanged.connect(lambda _i: panel.refresh_queue())
        self.pair_combo.currentIndexChanged.connect(lambda _i: panel.refresh_queue())
        self.label_combo.currentIndexChanged.connect(lambda _i: panel.refresh_queue())
        self.strategy_combo.currentIndexChanged.connect(self._on_strategy_changed)
        self.share_spin.valueChanged.connect(self._on_strategy_changed)
        self.blind_check.toggled.connect(self._on_blind_toggled)
        if s.read_only:
            for w in (self.strategy_combo, self.share_spin, self.blind_check, self.bulk_button):
                w.setEnabled(False)

    def _focus_search(self) -> None:
        self.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_edit.selectAll()

    # -- the queue ----------------------------------------------------------------------------

    def queue(self, scope: str | None = None) -> np.ndarray:
        """Unit indices of the list (``scope`` overrides the state filter)."""
        return self.panel.session.queue(
            scope or self.filter_combo.currentData() or "unresolved",
            self.search_edit.text(),
            pair=self.pair_combo.currentData(),
            label=self.label_combo.currentData(),
        )

    def _fill_pairs(self) -> None:
        s = self.panel.session
        current = self.pair_combo.currentData()
        self.pair_combo.blockSignals(True)
        self.pair_combo.clear()
        self.pair_combo.addItem("any annotators", None)
        names = s.names_by_column()
        order = s.annotator_order
        for p, x in enumerate(order):
            for y in order[p + 1 :]:
                self.pair_combo.addItem(f"{shown(names[x])} ≠ {shown(names[y])}", (x, y))
        k = self.pair_combo.findData(current)
        self.pair_combo.setCurrentIndex(max(0, k))
        self.pair_combo.setVisible(len(order) > 2)
        self.pair_combo.blockSignals(False)

    def _fill_labels(self) -> None:
        m = self.panel.session.model
        values = m.code_values
        self.label_combo.addItem("any value", None)
        if len(values) > MAX_LABELS:
            self.label_combo.setVisible(False)
            return
        counts = np.bincount(m.codes[m.codes >= 0], minlength=len(values))
        for k in np.argsort(-counts, kind="stable"):
            text = m.format_value(values[k])
            self.label_combo.addItem(f"{shown(text)}  ({counts[k]:,})", values[k])

    def set_notice(self, text: str) -> None:
        self.notice_label.setText(text)
        self.notice_label.setToolTip(text)

    def set_progress(self, done: int, total: int) -> None:
        self.progress_bar.setMaximum(max(total, 1))
        self.progress_bar.setValue(done)
        self.progress_label.setText(f"{done} / {total} resolved")

    # -- strategy and blind mode --------------------------------------------------------------

    def _on_strategy_changed(self) -> None:
        try:
            st = Strategy.parse(self.strategy_combo.currentData(), self.share_spin.value())
            self.panel.session.set_strategy(st)
        except IaaError as e:
            QMessageBox.warning(self, "Adjudication", str(e))
            return
        self.panel.settings_changed()

    def _label_strategy_items(self) -> None:
        """'annotator NAME' items, with the shown names in blind mode."""
        s = self.panel.session
        names = s.names_by_column()
        for x, a in enumerate(s.model.annotators):
            k = self.strategy_combo.findData(f"annotator:{a}")
            if k >= 0:
                self.strategy_combo.setItemText(k, f"version of {names[x]}")

    def _on_blind_toggled(self, on: bool) -> None:
        self.panel.session.set_blind(on)
        self._label_strategy_items()
        self._fill_pairs()
        self.panel.settings_changed()

"""The adjudication panel: queue, versions, keyboard decisions, undo/redo, live agreement.

Keys (whichever non-text child has the focus): ``1``..``9`` pick a version, ``M`` the majority,
``A``/``D`` the mean/median of graded units (kind-specific letters are shown on the buttons),
``N``/``P`` (or ``F8``/``Shift+F8``) the next/previous unresolved unit, ``Ctrl+Z`` /
``Ctrl+Shift+Z`` undo/redo, ``Enter`` in the value field records the typed value.

Every decision is committed to the store by :meth:`AdjudicationSession.apply` before the panel
shows it (the acknowledgement); the undo stack holds :class:`DecisionCommand` wrappers of the
core change values, so undo is applying the inverse change.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRunnable,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
)
from PySide6.QtGui import QKeyEvent, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QUndoView,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.adjudication import AdjudicationSession, Decide, StoreError, Strategy
from iaa_desktop.core.adjudication.session import agreement_with_gold
from iaa_desktop.core.errors import IaaError

#: above this many cells (units × annotators) the live agreement is computed in a worker thread
SYNC_AGREEMENT_CELLS = 200_000
HEARTBEAT_MS = 15_000


class DecisionCommand(QUndoCommand):
    """Qt undo command over one core :class:`Decide` change (redo = apply, undo = apply inverse)."""

    def __init__(self, panel: AdjudicationPanel, change: Decide, text: str) -> None:
        super().__init__(text)
        self._panel = panel
        self.change = change
        self._first = True  # the panel applied it already (so a failure never enters the stack)

    def redo(self) -> None:
        if self._first:
            self._first = False
            return
        self._panel._apply(self.change)

    def undo(self) -> None:
        self._panel._apply(self.change.inverse())


class QueueModel(QAbstractListModel):
    """Thin read-only list over the queue's unit indices."""

    UnitRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, session: AdjudicationSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._s = session
        self._idx = np.zeros(0, dtype=np.int64)

    def set_indices(self, idx: np.ndarray) -> None:
        """New queue; one unit leaving (the usual case after a decision) is a row removal, so the
        view keeps its place without relaying out every row."""
        new = np.asarray(idx, dtype=np.int64)
        old = self._idx
        if len(new) == len(old) - 1 and len(old):
            diff = np.flatnonzero(old[: len(new)] != new)
            k = int(diff[0]) if len(diff) else len(new)
            if np.array_equal(old[k + 1 :], new[k:]):
                self.beginRemoveRows(QModelIndex(), k, k)
                self._idx = new
                self.endRemoveRows()
                return
        elif np.array_equal(new, old):
            if len(new):
                self.dataChanged.emit(self.index(0), self.index(len(new) - 1))
            return
        self.beginResetModel()
        self._idx = new
        self.endResetModel()

    def indices(self) -> np.ndarray:
        return self._idx

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._idx)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if not index.isValid():
            return None
        i = int(self._idx[index.row()])
        if role == Qt.ItemDataRole.DisplayRole:
            s = self._s
            mark = "✓" if s.is_decided(i) else ("=" if s.auto_value(i) is not None else "•")
            g = s.model.groups[i]
            title = s.title(i)
            return f"{mark} {title}" + (f"   [{g}]" if g and g not in title else "")
        if role == self.UnitRole:
            return i
        return None


class _AgreementSignals(QObject):
    finished = Signal(int, object)


class _AgreementJob(QRunnable):
    def __init__(self, generation: int, snapshot: tuple, signals: _AgreementSignals) -> None:
        super().__init__()
        self._gen, self._snap, self._signals = generation, snapshot, signals

    def run(self) -> None:
        try:
            table = agreement_with_gold(*self._snap)
        except Exception as e:  # never let a worker exception pass silently  # noqa: BLE001
            table = e
        self._signals.finished.emit(self._gen, table)


class AdjudicationPanel(QWidget):
    """Adjudication of one session (see the module docstring)."""

    decided = Signal(int)  # unit index whose gold changed
    progress_changed = Signal(int, int)

    def __init__(self, session: AdjudicationSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.current: int | None = None
        self.undo_stack = QUndoStack(self)
        self._agreement_gen = 0
        self._agreement_signals = _AgreementSignals(self)
        self._agreement_signals.finished.connect(self._on_agreement_finished)
        self._build()
        self._heartbeat = QTimer(self)
        self._heartbeat.setInterval(HEARTBEAT_MS)
        self._heartbeat.timeout.connect(self._on_heartbeat)
        if not session.read_only:
            self._heartbeat.start()
        self.refresh_queue()
        first = session.next_unresolved(None)
        if first is None and len(self.queue_model.indices()):
            first = int(self.queue_model.indices()[0])
        if first is None and session.model.n_units:
            first = int(session.queue("all")[0])
        self.show_unit(first)
        self._update_agreement()

    # -- layout -----------------------------------------------------------------------------------

    def _build(self) -> None:
        s = self.session
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        if s.read_only:
            banner = QLabel(
                f"Read-only: {s.store.path.name} is held by another session or cannot be written. "
                "You can look at the decisions and export them, not change them."
            )
            banner.setWordWrap(True)
            banner.setStyleSheet("background:#fff3cd; padding:4px; border:1px solid #e0c36c;")
            lay.addWidget(banner)

        if s.unknown_units:
            stale = QLabel(
                f"{len(s.unknown_units)} decision(s) in this store are for units this comparison does not "
                "have (the inputs changed?); they are kept in the store and not shown."
            )
            stale.setWordWrap(True)
            stale.setStyleSheet("background:#fdecea; padding:4px; border:1px solid #e4a3a0;")
            lay.addWidget(stale)
        top = QHBoxLayout()
        top.addWidget(QLabel("Automatic merge:"))
        self.strategy_combo = QComboBox()
        self.strategy_combo.addItem("unanimous", "unanimous")
        self.strategy_combo.addItem("majority", "majority")
        for a in s.model.annotators:
            self.strategy_combo.addItem(f"annotator {a}", f"annotator:{a}")
        self.strategy_combo.setCurrentIndex(max(0, self.strategy_combo.findData(str(s.strategy))))
        self._label_strategy_items()
        top.addWidget(self.strategy_combo)
        top.addWidget(QLabel("min share"))
        self.share_spin = QDoubleSpinBox()
        self.share_spin.setRange(0.5, 1.0)
        self.share_spin.setSingleStep(0.05)
        self.share_spin.setValue(max(0.5, s.strategy.min_share))
        self.share_spin.setToolTip(
            "majority: the share of the unit's annotators the value needs (more than half at least)"
        )
        top.addWidget(self.share_spin)
        self.blind_check = QCheckBox("Blind")
        self.blind_check.setToolTip(
            f"hide the annotators' names and shuffle the queue (seed {s.seed}, recorded in the store)"
        )
        self.blind_check.setChecked(s.blind)
        top.addWidget(self.blind_check)
        top.addSpacing(12)
        top.addWidget(QLabel("Show:"))
        self.filter_combo = QComboBox()
        for f in ("unresolved", "all", "decided", "automatic", "resolved"):
            self.filter_combo.addItem(f, f)
        top.addWidget(self.filter_combo)
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText("filter by text, target, factor…")
        self.search_edit.setClearButtonEnabled(True)
        top.addWidget(self.search_edit, 1)
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(180)
        top.addWidget(self.progress_bar)
        self.progress_label = QLabel()
        top.addWidget(self.progress_label)
        lay.addLayout(top)

        split = QSplitter(Qt.Orientation.Horizontal)
        self.queue_model = QueueModel(s, self)
        # a table view: its fixed row height never walks all rows (a list view does, per reset)
        self.queue_view = QTableView()
        self.queue_view.setModel(self.queue_model)
        self.queue_view.horizontalHeader().setVisible(False)
        self.queue_view.verticalHeader().setVisible(False)
        self.queue_view.horizontalHeader().setStretchLastSection(True)
        self.queue_view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.queue_view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        self.queue_view.setShowGrid(False)
        self.queue_view.setWordWrap(False)
        self.queue_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.queue_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.queue_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        split.addWidget(self.queue_view)

        center = QWidget()
        cl = QVBoxLayout(center)
        cl.setContentsMargins(0, 0, 0, 0)
        self.unit_label = QLabel()
        self.unit_label.setTextFormat(Qt.TextFormat.PlainText)
        f = self.unit_label.font()
        f.setBold(True)
        self.unit_label.setFont(f)
        cl.addWidget(self.unit_label)
        self.context_view = QTextBrowser()
        self.context_view.setOpenLinks(False)
        vsplit = QSplitter(Qt.Orientation.Vertical)
        vsplit.addWidget(self.context_view)
        lower = QWidget()
        outer = cl
        cl = QVBoxLayout(lower)
        cl.setContentsMargins(0, 4, 0, 0)
        vsplit.addWidget(lower)
        vsplit.setStretchFactor(0, 1)
        vsplit.setStretchFactor(1, 0)
        outer.addWidget(vsplit, 1)
        vsplit.setSizes([260, 540])
        self._vsplit = vsplit
        self.choices_box = QGroupBox("Versions — press the key to decide")
        self.choices_layout = QGridLayout(self.choices_box)
        cl.addWidget(self.choices_box)
        typed = QHBoxLayout()
        self.value_edit = QLineEdit()
        self.value_edit.setPlaceholderText(_placeholder(s.model.kind))
        typed.addWidget(QLabel("Other value:"))
        typed.addWidget(self.value_edit, 1)
        self.typed_button = QPushButton("Use typed value")
        typed.addWidget(self.typed_button)
        cl.addLayout(typed)
        note = QHBoxLayout()
        note.addWidget(QLabel("Note:"))
        self.note_edit = QLineEdit()
        self.note_edit.setPlaceholderText("why (saved with the decision)")
        note.addWidget(self.note_edit, 1)
        self.save_note_button = QPushButton("Save note")
        note.addWidget(self.save_note_button)
        cl.addLayout(note)
        self.decision_label = QLabel()
        self.decision_label.setWordWrap(True)
        self.decision_label.setTextFormat(Qt.TextFormat.PlainText)
        cl.addWidget(self.decision_label)
        nav = QHBoxLayout()
        self.prev_button = QPushButton("◀ Previous unresolved (P)")
        self.next_button = QPushButton("Next unresolved (N) ▶")
        self.clear_button = QPushButton("Clear decision")
        self.undo_action = self.undo_stack.createUndoAction(self, "Undo")
        self.undo_action.setShortcut(QKeySequence("Ctrl+Z"))
        self.redo_action = self.undo_stack.createRedoAction(self, "Redo")
        self.redo_action.setShortcut(QKeySequence("Ctrl+Shift+Z"))
        for a in (self.undo_action, self.redo_action):
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.addAction(a)
        self.undo_button = QPushButton("Undo (Ctrl+Z)")
        self.redo_button = QPushButton("Redo (Ctrl+Shift+Z)")
        self.undo_button.clicked.connect(self.undo_stack.undo)
        self.redo_button.clicked.connect(self.undo_stack.redo)
        self.undo_stack.canUndoChanged.connect(self.undo_button.setEnabled)
        self.undo_stack.canRedoChanged.connect(self.redo_button.setEnabled)
        self.undo_button.setEnabled(False)
        self.redo_button.setEnabled(False)
        for b in (
            self.prev_button,
            self.next_button,
            self.clear_button,
            self.undo_button,
            self.redo_button,
        ):
            nav.addWidget(b)
        cl.addLayout(nav)
        # the decisions of this sitting; clicking one undoes/redoes back to it
        self.history_view = QUndoView(self.undo_stack)
        self.history_view.setEmptyLabel("(start of this sitting)")
        self.history_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        cl.addWidget(QLabel("Decisions of this sitting (click to go back):"))
        cl.addWidget(self.history_view, 1)
        split.addWidget(center)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(QLabel("Agreement of each annotator with the gold so far"))
        self.agreement_table = QTableWidget(0, 5)
        self.agreement_table.setHorizontalHeaderLabels(["annotator", "units", "agree", "%", "κ"])
        self.agreement_table.verticalHeader().setVisible(False)
        self.agreement_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.agreement_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        rl.addWidget(self.agreement_table, 1)
        ex = QVBoxLayout()
        self.export_gold_button = QPushButton("Export gold…")
        self.export_log_button = QPushButton("Export decision log…")
        self.export_feedback_button = QPushButton("Export feedback per annotator…")
        for b in (self.export_gold_button, self.export_log_button, self.export_feedback_button):
            ex.addWidget(b)
        rl.addLayout(ex)
        split.addWidget(right)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 5)
        split.setStretchFactor(2, 2)
        split.setSizes([280, 760, 300])
        lay.addWidget(split, 1)

        self.strategy_combo.currentIndexChanged.connect(self._on_strategy_changed)
        self.share_spin.valueChanged.connect(self._on_strategy_changed)
        self.blind_check.toggled.connect(self._on_blind_toggled)
        self.filter_combo.currentIndexChanged.connect(self.refresh_queue)
        self.search_edit.textChanged.connect(self.refresh_queue)
        self.queue_view.selectionModel().currentChanged.connect(self._on_queue_current)
        self.next_button.clicked.connect(self.next_unresolved)
        self.prev_button.clicked.connect(self.previous_unresolved)
        self.clear_button.clicked.connect(self.clear_decision)
        self.typed_button.clicked.connect(self.decide_typed)
        self.value_edit.returnPressed.connect(self.decide_typed)
        self.save_note_button.clicked.connect(self.save_note)
        self.export_gold_button.clicked.connect(self._on_export_gold)
        self.export_log_button.clicked.connect(self._on_export_log)
        self.export_feedback_button.clicked.connect(self._on_export_feedback)
        if s.read_only:
            for w in (
                self.strategy_combo,
                self.share_spin,
                self.blind_check,
                self.typed_button,
                self.value_edit,
                self.save_note_button,
                self.clear_button,
                self.note_edit,
            ):
                w.setEnabled(False)
        self._choice_buttons: list[QPushButton] = []
        for w in (
            self,
            self.queue_view,
            self.queue_view.viewport(),
            self.context_view,
            self.context_view.viewport(),
            self.agreement_table,
            self.choices_box,
        ):
            w.installEventFilter(self)

    # -- keyboard -----------------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if self.handle_key(event):
                return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.handle_key(event):
            super().keyPressEvent(event)

    def handle_key(self, event: QKeyEvent) -> bool:
        key, mods = event.key(), event.modifiers()
        ctrl = Qt.KeyboardModifier.ControlModifier
        shift = Qt.KeyboardModifier.ShiftModifier
        if key == Qt.Key.Key_Z and mods == ctrl:
            self.undo_stack.undo()
            return True
        if key == Qt.Key.Key_Z and mods == (ctrl | shift):
            self.undo_stack.redo()
            return True
        if mods not in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier, shift):
            return False
        if key == Qt.Key.Key_F8:
            (self.previous_unresolved if mods == shift else self.next_unresolved)()
            return True
        if mods == shift:
            return False
        text = event.text().lower()
        if key == Qt.Key.Key_N:
            self.next_unresolved()
            return True
        if key == Qt.Key.Key_P:
            self.previous_unresolved()
            return True
        if text and self.current is not None:
            for c in self.session.choices(self.current):
                if c.key and c.key == text:
                    self.decide(c)
                    return True
        return False

    # -- showing --------------------------------------------------------------------------------

    def refresh_queue(self) -> None:
        idx = self.session.queue(
            self.filter_combo.currentData() or "unresolved", self.search_edit.text()
        )
        self.queue_model.set_indices(idx)
        self._select_current_in_queue()
        self._update_progress()

    def _select_current_in_queue(self) -> None:
        if self.current is None:
            return
        pos = np.flatnonzero(self.queue_model.indices() == self.current)
        sm = self.queue_view.selectionModel()
        sm.blockSignals(True)
        if len(pos):
            ix = self.queue_model.index(int(pos[0]))
            sm.setCurrentIndex(ix, sm.SelectionFlag.ClearAndSelect)
            self.queue_view.scrollTo(ix)
        else:
            sm.clearSelection()
        sm.blockSignals(False)

    def _on_queue_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.show_unit(int(self.queue_model.indices()[current.row()]))

    def show_unit(self, i: int | None) -> None:
        """Show unit ``i`` (its context, the versions as buttons, its decision)."""
        self.current = i
        s = self.session
        for b in self._choice_buttons:
            # out of the grid at once: deleteLater waits for the event loop, and a button of the
            # previous unit would still show in a cell the new unit does not fill
            self.choices_layout.removeWidget(b)
            b.hide()
            b.deleteLater()
        self._choice_buttons = []
        if i is None:
            self.unit_label.setText("Nothing to adjudicate here.")
            self.context_view.setHtml("")
            self.decision_label.setText("")
            return
        m = s.model
        title = s.title(i)
        self.unit_label.setText(
            title + (f"   ·   {m.groups[i]}" if m.groups[i] and m.groups[i] not in title else "")
        )
        self.context_view.setHtml(s.describe_html(i))
        d = s.decision(i)
        cols = 2
        for k, c in enumerate(s.choices(i)):
            text = (f"{c.key}  ·  " if c.key else "") + c.label
            b = QPushButton(text)
            b.setToolTip(c.label)
            b.setEnabled(c.value is not None and not s.read_only)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setMinimumHeight(34)
            b.setStyleSheet("text-align: left; padding-left: 8px;")
            if d is not None and d.choice == c.choice and d.value == c.value:
                b.setStyleSheet(
                    "text-align: left; padding-left: 8px; font-weight: bold; background: #cfe8cf;"
                )
            b.clicked.connect(lambda _=False, c=c: self.decide(c))
            self.choices_layout.addWidget(b, k // cols, k % cols)
            self._choice_buttons.append(b)
        self.note_edit.setText(d.note if d else "")
        self.value_edit.clear()
        self._update_decision_label()
        self._select_current_in_queue()

    def _update_decision_label(self) -> None:
        i = self.current
        if i is None:
            return
        s = self.session
        d = s.decision(i)
        fmt = s.model.format_value
        if d is not None:
            who = d.choice
            if s.blind and who.startswith("annotator:"):
                name = who.split(":", 1)[1]
                pos = [s.model.annotators[x] for x in s.annotator_order].index(name)
                who = s.display_names()[pos]
            txt = f"Decided: {fmt(d.value)}  ({who}, {d.time[:19].replace('T', ' ')})"
            if d.note:
                txt += f" — note: {d.note}"
        elif s.auto_value(i) is not None:
            strategy = str(s.strategy)
            if s.blind and s.strategy.name == "annotator":
                strategy = "one annotator's version"
            txt = f"Automatic ({strategy}): {fmt(s.auto_value(i))} — press a key to override"
        else:
            txt = "Undecided"
        self.decision_label.setText(txt)

    def _update_progress(self) -> None:
        done, total = self.session.progress()
        self.progress_bar.setMaximum(max(total, 1))
        self.progress_bar.setValue(done)
        self.progress_label.setText(f"{done} / {total} resolved")
        self.progress_changed.emit(done, total)

    # -- live agreement -----------------------------------------------------------------------------

    def _update_agreement(self) -> None:
        snap = self.session.agreement_snapshot()
        self._agreement_gen += 1
        if snap[0].size <= SYNC_AGREEMENT_CELLS:
            self._show_agreement(agreement_with_gold(*snap))
        else:  # large studies: in a worker; the newest result wins
            QThreadPool.globalInstance().start(
                _AgreementJob(self._agreement_gen, snap, self._agreement_signals)
            )

    def _on_agreement_finished(self, gen: int, table: object) -> None:
        if gen == self._agreement_gen and not isinstance(table, Exception):
            self._show_agreement(table)

    def _show_agreement(self, table) -> None:
        s = self.session
        names = dict(zip(s.model.annotators, s.model.annotators))
        if s.blind:
            names = {s.model.annotators[x]: n for x, n in zip(s.annotator_order, s.display_names())}
        order = [s.model.annotators[x] for x in s.annotator_order]
        t = table.set_index("annotator").loc[order].reset_index()
        self.agreement_table.setRowCount(len(t))
        for r, row in enumerate(t.itertuples(index=False)):
            vals = [
                names[row.annotator],
                str(row.n_units),
                str(row.n_agree),
                "–" if math.isnan(row.percent_agreement) else f"{100 * row.percent_agreement:.1f}",
                "–" if math.isnan(row.cohen_kappa) else f"{row.cohen_kappa:.3f}",
            ]
            for c, v in enumerate(vals):
                item = QTableWidgetItem(v)
                if c:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.agreement_table.setItem(r, c, item)
        self.last_agreement = t

    # -- deciding --------------------------------------------------------------------------------------

    def decide(self, choice, value: str | None = None) -> bool:
        """Record a decision for the current unit (a :class:`Choice`, or ``'typed'`` with ``value``).

        Returns whether it was recorded (committed to the store); then moves to the next
        unresolved unit.
        """
        i = self.current
        if i is None or self.session.read_only:
            return False
        if not isinstance(choice, str) and choice.value is None:
            return False
        try:
            change = self.session.choose(i, choice, note=self.note_edit.text().strip(), value=value)
        except IaaError as e:
            QMessageBox.warning(self, "Adjudication", str(e))
            return False
        # the choice's label already uses the shown names (blind mode)
        label = (
            f"typed {self.session.model.format_value(change.new.value)}"
            if isinstance(choice, str)
            else choice.label
        )
        if not self._push(change, f"{self.session.title(i)} → {label}"):
            return False
        nxt = self.session.next_unresolved(i, text=self.search_edit.text())
        if nxt is not None:
            self.show_unit(nxt)
        return True

    def decide_typed(self) -> bool:
        if not self.value_edit.text().strip():
            return False
        return self.decide("typed", self.value_edit.text())

    def save_note(self) -> bool:
        """Re-record the current decision with the note field's text."""
        i = self.current
        if i is None or self.session.read_only:
            return False
        d = self.session.decision(i)
        if d is None:
            QMessageBox.information(
                self, "Adjudication", "Decide the unit first; the note is saved with the decision."
            )
            return False
        change = self.session.make_change(i, d.choice, d.value, self.note_edit.text().strip())
        return self._push(change, f"note on {self.session.title(i)}")

    def clear_decision(self) -> bool:
        i = self.current
        if i is None or self.session.read_only or self.session.decision(i) is None:
            return False
        return self._push(self.session.make_clear(i), f"clear {self.session.title(i)}")

    def _push(self, change: Decide, text: str) -> bool:
        if not self._apply(change):
            return False
        self.undo_stack.push(DecisionCommand(self, change, text))
        return True

    def _apply(self, change: Decide) -> bool:
        """Commit one change and refresh what depends on it; a store problem is shown, not lost."""
        try:
            self.session.apply(change)
        except StoreError as e:
            QMessageBox.critical(
                self, "Adjudication store", f"{e}\n\nThe decision was not recorded."
            )
            return False
        i = self.session.model.index[change.unit]
        self.refresh_queue()
        if self.current == i:
            self.show_unit(i)
        else:
            self._update_decision_label()
        self._update_agreement()
        self.decided.emit(i)
        return True

    # -- navigation -----------------------------------------------------------------------------------

    def next_unresolved(self) -> None:
        nxt = self.session.next_unresolved(self.current, text=self.search_edit.text())
        if nxt is not None:
            self.show_unit(nxt)

    def previous_unresolved(self) -> None:
        prv = self.session.next_unresolved(
            self.current, backwards=True, text=self.search_edit.text()
        )
        if prv is not None:
            self.show_unit(prv)

    # -- settings -----------------------------------------------------------------------------------

    def _on_strategy_changed(self) -> None:
        try:
            st = Strategy.parse(self.strategy_combo.currentData(), self.share_spin.value())
            self.session.set_strategy(st)
        except IaaError as e:
            QMessageBox.warning(self, "Adjudication", str(e))
            return
        self.refresh_queue()
        if self.current is not None:
            self.show_unit(self.current)
        self._update_agreement()

    def _label_strategy_items(self) -> None:
        """'annotator NAME' items, with the shown names in blind mode."""
        names = self.session.names_by_column()
        for x, a in enumerate(self.session.model.annotators):
            k = self.strategy_combo.findData(f"annotator:{a}")
            if k >= 0:
                self.strategy_combo.setItemText(k, f"version of {names[x]}")

    def _on_blind_toggled(self, on: bool) -> None:
        self.session.set_blind(on)
        self._label_strategy_items()
        self.refresh_queue()
        if self.current is not None:
            self.show_unit(self.current)
        self._update_agreement()

    def _on_heartbeat(self) -> None:
        try:
            self.session.store.heartbeat()
        except Exception:  # a heartbeat failure must not interrupt the meeting  # noqa: BLE001
            pass

    # -- exports --------------------------------------------------------------------------------------

    def export_gold(self, folder: str | Path) -> list[Path]:
        return self.session.write_gold(folder)

    def _on_export_gold(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export the gold into folder")
        if folder:
            self._run_export(lambda: self.export_gold(folder))

    def _on_export_log(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the decision log", "decision_log.csv", "CSV (*.csv)"
        )
        if path:
            self._run_export(lambda: [self.session.write_decision_log(path)])

    def _on_export_feedback(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, "Export one feedback file per annotator into folder"
        )
        if folder:
            self._run_export(lambda: self.session.write_feedback(folder))

    def _run_export(self, fn) -> None:
        try:
            files = fn()
        except (OSError, IaaError) as e:
            QMessageBox.critical(self, "Export", f"Nothing was lost, but the export failed: {e}")
            return
        QMessageBox.information(
            self, "Export", "Written:\n" + "\n".join(str(f) for f in files[:12])
        )

    def close_store(self) -> None:
        self._heartbeat.stop()
        self.session.store.close()


def _placeholder(kind: str) -> str:
    return {
        "normalization": "norm   or   norm | modernized | INFL/SEM/EXT",
        "multilabel": "labels separated by ; (empty = no label)",
        "durel": "a judgment, e.g. 3 or 2.5",
        "coref": "keep / drop (lone mentions and unmatched classes)",
        "spans": "LABEL START END, several joined by ;  (empty = no span)",
    }.get(kind, "a label")

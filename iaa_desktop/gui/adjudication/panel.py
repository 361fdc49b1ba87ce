"""The adjudication panel, in the manner of INCEpTION's curation: the queue of units with every
annotator's version side by side, the unit in its context with each version clickable, keyboard
decisions that work as soon as the panel opens, bulk actions, undo/redo and the live agreement.

Parts: :mod:`.queue_model` (the queue), :mod:`.context` (the unit's page), :mod:`.keys` (the
keyboard), :mod:`.undo` (Qt's undo stack over the core's changes), :mod:`.live_agreement` (the
agreement with the gold, in a superqt worker for large studies), :mod:`.toolbar` (strategy and
filters) and :mod:`.bulk_menu` (decisions on many units).

Every decision is committed to the store by :meth:`AdjudicationSession.apply` before the panel
shows it; the undo stack holds the core change values, so undo is applying the inverse change.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import QModelIndex, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.adjudication import AdjudicationSession, Decide, StoreError
from iaa_desktop.core.errors import IaaError
from iaa_desktop.gui.adjudication.bulk_menu import BulkMenu
from iaa_desktop.gui.adjudication.context import CHOOSE, VersionsInView, unit_page
from iaa_desktop.gui.adjudication.keys import KeyHandler, confirm_unsaved
from iaa_desktop.gui.adjudication.live_agreement import LiveAgreement
from iaa_desktop.gui.adjudication.queue_model import ColumnSharer, QueueModel, share_columns
from iaa_desktop.gui.adjudication.room import RoomSharer
from iaa_desktop.gui.adjudication.side import SidePanel
from iaa_desktop.gui.adjudication.toolbar import Toolbar
from iaa_desktop.gui.adjudication.undo import UndoAdapter
from iaa_desktop.gui.widgets.message_bar import MessageBar
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table
from iaa_desktop.gui.widgets.zoom import TextZoom

HEARTBEAT_MS = 15_000
BUTTON_CHARS = 60


def _placeholder(kind: str) -> str:
    """The hint of the typed value: how the kind's gold values are written."""
    from iaa_desktop.core.kinds import KINDS

    spec = KINDS.get(kind)
    return spec.placeholder if spec is not None else "another value"


def same_decision(a: Any, b: Any) -> bool:
    """Whether two decisions say the same (their times aside)."""
    return (a.choice, a.value, a.note) == (b.choice, b.value, b.note)


class AdjudicationPanel(QWidget):
    """Adjudication of one session (see the module docstring)."""

    decided = Signal(int)  # unit index whose gold changed
    progress_changed = Signal(int, int)

    def __init__(self, session: AdjudicationSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.current: int | None = None
        self.last_agreement = pd.DataFrame()
        self.undo = UndoAdapter(self._apply, self, reveal=self._reveal)
        self.undo_stack = self.undo.stack
        self.live = LiveAgreement(self)
        self.live.ready.connect(self._show_agreement)
        self._choice_buttons: list[QPushButton] = []
        self._build()
        self.keys = KeyHandler(self)
        self.keys.install(self)
        self._heartbeat = QTimer(self)
        self._heartbeat.setInterval(HEARTBEAT_MS)
        self._heartbeat.timeout.connect(self._on_heartbeat)
        if not session.read_only:
            self._heartbeat.start()
        self.refresh_queue()
        self._fit_queue()
        self.show_unit(self._first_unit())
        self._update_agreement()

    def _fit_queue(self) -> None:
        """The versions and the decision share the width the queue has (each elided inside its
        cell, the whole in the tooltip); the state and the severity keep the width of their
        text, so a severity is never cut to a wrong number."""
        view = self.queue_view
        fit_columns(view, max_width=view.fontMetrics().averageCharWidth() * 24, sample=60)
        self.queue_model.setProperty("unit_width", view.columnWidth(1))  # fitted to the names
        if getattr(self, "_sharer", None) is None:
            self._sharer = ColumnSharer(view, self.queue_model)
        share_columns(view, self.queue_model)

    def _first_unit(self) -> int | None:
        q = self.queue_model.indices()
        resolved = self.session.resolved_mask()
        open_rows = [int(i) for i in q if not resolved[int(i)]]
        if open_rows:
            return open_rows[0]
        if len(q):
            return int(q[0])
        return int(self.session.queue("all")[0]) if self.session.model.n_units else None

    # -- layout -------------------------------------------------------------------------------

    def _build(self) -> None:
        s = self.session
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        for text, style, show in (
            (
                f"Read-only: {s.store.path.name} is held by another session or cannot be written. "
                "You can look at the decisions and export them, not change them.",
                "background:#fff3cd; padding:4px; border:1px solid #e0c36c;",
                s.read_only,
            ),
            (
                f"{len(s.unknown_units)} decision(s) in this store are for units this comparison "
                "does not have (the inputs changed?); they are kept in the store and not shown.",
                "background:#fdecea; padding:4px; border:1px solid #e4a3a0;",
                bool(s.unknown_units),
            ),
            (s.store.damaged, "background:#fdecea; padding:4px; border:1px solid #e4a3a0;", True),
        ):
            if show and text:
                banner = QLabel(text)
                banner.setWordWrap(True)
                banner.setStyleSheet(style)
                lay.addWidget(banner)
        # a store problem while deciding: shown in the window, the meeting goes on
        self.message_bar = MessageBar(self)
        lay.addWidget(self.message_bar)
        self.toolbar = Toolbar(self)
        lay.addWidget(self.toolbar)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self._build_queue())
        split.addWidget(self._build_center())
        self.side = SidePanel(self)
        self.agreement_model = self.side.agreement_model
        self.agreement_view = self.side.agreement_view
        split.addWidget(self.side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 4)
        split.setStretchFactor(2, 1)
        split.setSizes([470, 560, 230])
        split.setCollapsible(0, False)
        split.setCollapsible(1, False)
        self.splitter = split
        self.room = RoomSharer(split, self.queue_view, self.queue_model)
        self.room.folded.connect(lambda on: self.toolbar.side_button.setChecked(not on))
        self.toolbar.side_button.clicked.connect(self.room.show_side)
        self.zoom.changed.connect(lambda _f: self.room.zoomed())
        lay.addWidget(split, 1)
        self.bulk_menu = BulkMenu(self)
        self.toolbar.bulk_button.setMenu(self.bulk_menu)
        if s.read_only:
            for w in (self.typed_button, self.value_edit, self.save_note_button, self.clear_button):
                w.setEnabled(False)
            self.note_edit.setEnabled(False)

    def _build_queue(self) -> QWidget:
        self.queue_model = QueueModel(self.session, self)
        view = make_table(self.queue_model, sortable=False, name="adjudication_queue")
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # versions begin with what tells them apart (a chain's size, a span's label): cut at
        # the end, not in the middle as the other tables
        view.setTextElideMode(Qt.TextElideMode.ElideRight)
        view.setColumnHidden(2, not any(self.session.model.groups))
        view.selectionModel().currentChanged.connect(self._on_queue_current)
        self.queue_view = view
        view.refit_to_font = self._fit_queue  # type: ignore[attr-defined]  # after a zoom
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(view, 1)
        legend = QLabel(
            "• to decide · = merged automatically · ✓ decided · versions: one colour per value "
            f"({self.session.model.missing_legend}) · rows: tinted by severity"
        )
        legend.setWordWrap(True)
        legend.setStyleSheet("color: #555")
        bl.addWidget(legend)
        return box

    def _build_center(self) -> QWidget:
        center = QWidget()
        cl = QVBoxLayout(center)
        cl.setContentsMargins(0, 0, 0, 0)
        self.unit_label = QLabel()
        self.unit_label.setTextFormat(Qt.TextFormat.PlainText)
        self.unit_label.setWordWrap(True)
        f = self.unit_label.font()
        f.setBold(True)
        self.unit_label.setFont(f)
        cl.addWidget(self.unit_label)
        self.context_view = QTextBrowser()
        self.context_view.setOpenLinks(False)
        self.context_view.anchorClicked.connect(self._on_anchor)
        self.context_view.setObjectName("unit_context")
        self.zoom = TextZoom(self, [self.context_view])
        self.versions_in_view = VersionsInView(self.context_view)
        cl.addWidget(self.context_view, 1)
        self.choices_box = QGroupBox("Decide — press the key, or click a version above")
        self.choices_layout = QGridLayout(self.choices_box)
        self.choices_layout.setContentsMargins(4, 4, 4, 4)
        cl.addWidget(self.choices_box)
        row = QHBoxLayout()
        self.value_edit = QLineEdit()
        self.value_edit.setPlaceholderText(_placeholder(self.session.model.kind))
        self.value_edit.returnPressed.connect(self.decide_typed)
        self.typed_button = QPushButton("Use typed value")
        self.typed_button.clicked.connect(self.decide_typed)
        row.addWidget(QLabel("Other value:"))
        row.addWidget(self.value_edit, 1)
        row.addWidget(self.typed_button)
        cl.addLayout(row)
        row = QHBoxLayout()
        self.note_edit = QLineEdit()
        self.note_edit.setPlaceholderText("why (saved with the decision)")
        self.save_note_button = QPushButton("Save note")
        self.save_note_button.clicked.connect(self.save_note)
        row.addWidget(QLabel("Note:"))
        row.addWidget(self.note_edit, 1)
        row.addWidget(self.save_note_button)
        cl.addLayout(row)
        self.decision_label = QLabel()
        self.decision_label.setWordWrap(True)
        self.decision_label.setTextFormat(Qt.TextFormat.PlainText)
        cl.addWidget(self.decision_label)
        cl.addLayout(self._build_nav())
        return center

    def _build_nav(self) -> QHBoxLayout:
        nav = QHBoxLayout()
        self.prev_button = QPushButton("◀ Previous (P)")
        self.next_button = QPushButton("Next (N) ▶")
        self.clear_button = QPushButton("Clear decision")
        self.undo_button = QPushButton("Undo")
        self.redo_button = QPushButton("Redo")
        self.undo_button.setToolTip("Ctrl+Z")
        self.redo_button.setToolTip("Ctrl+Shift+Z")
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.clear_button.clicked.connect(self.clear_decision)
        self.undo_button.clicked.connect(self.undo_stack.undo)
        self.redo_button.clicked.connect(self.undo_stack.redo)
        self.undo_stack.canUndoChanged.connect(self.undo_button.setEnabled)
        self.undo_stack.canRedoChanged.connect(self.redo_button.setEnabled)
        self.undo_button.setEnabled(False)
        self.redo_button.setEnabled(False)
        self.undo_action = self.undo_stack.createUndoAction(self, "Undo")
        self.redo_action = self.undo_stack.createRedoAction(self, "Redo")
        for action, key in ((self.undo_action, "Ctrl+Z"), (self.redo_action, "Ctrl+Shift+Z")):
            action.setShortcut(QKeySequence(key))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.addAction(action)
        for b in (
            self.prev_button,
            self.next_button,
            self.clear_button,
            self.undo_button,
            self.redo_button,
        ):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            nav.addWidget(b)
        return nav

    def escape(self) -> None:
        """Esc: clear the queue's filter text if there is one, and give the queue the keys."""
        if self.toolbar.search_edit.text():
            self.toolbar.search_edit.clear()
            self.refresh_queue()
        self.queue_view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def confirm_leave(self) -> bool:
        """Whether the window may close: asks when a typed value or a note was not used yet
        (every decision is in the store already)."""
        return confirm_unsaved(self)

    def _reveal(self, changes: Sequence[Decide]) -> None:
        """After an undo or redo: show the unit it changed (the first, for a bulk step)."""
        if changes:
            self.show_unit(int(self.session.model.index[changes[0].unit]))

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        # the keys work at once: the queue has the focus, on the unit shown
        self.queue_view.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- showing ------------------------------------------------------------------------------

    def refresh_queue(self) -> None:
        sm = self.queue_view.selectionModel()
        sm.blockSignals(True)  # a row leaving moves the view's current row: not a user's choice
        try:
            self.queue_model.set_indices(self.toolbar.queue())
        finally:
            sm.blockSignals(False)
        self._select_current_in_queue()
        self._update_progress()

    def _select_current_in_queue(self) -> None:
        if self.current is None:
            return
        row = self.queue_model.row_of(self.current)
        sm = self.queue_view.selectionModel()
        sm.blockSignals(True)
        if row >= 0:
            ix = self.queue_model.index(row, 1)
            sm.setCurrentIndex(ix, sm.SelectionFlag.ClearAndSelect | sm.SelectionFlag.Rows)
            self.queue_view.scrollTo(ix)
        else:
            sm.clearSelection()
        sm.blockSignals(False)
        self.queue_view.viewport().update()

    def _on_queue_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.show_unit(int(self.queue_model.indices()[current.row()]))

    def show_unit(self, i: int | None) -> None:
        """Show unit ``i``: its context and versions, the ways to decide it, its decision."""
        self.current = i
        for b in self._choice_buttons:
            # hidden, not unparented: the layout has queued a show for a button just added,
            # which would put a parentless button on the screen as a window of its own
            self.choices_layout.removeWidget(b)
            b.hide()
            b.deleteLater()
        self._choice_buttons = []
        if i is None:
            self.unit_label.setText("Nothing to adjudicate here.")
            self.context_view.setHtml("")
            self.decision_label.setText("")
            return
        s = self.session
        title = s.title(i)
        g = s.model.groups[i]
        self.unit_label.setText(title + (f"   ·   {g}" if g and g not in title else ""))
        bar = self.context_view.verticalScrollBar().value()
        self.context_view.setHtml(unit_page(s, i, self.queue_model.colours))
        if getattr(self, "_keep_scroll", False):
            self.context_view.verticalScrollBar().setValue(bar)
        else:
            self.versions_in_view.reveal()
        self._fill_buttons(i)
        d = s.decision(i)
        self.note_edit.setText(d.note if d else "")
        self.value_edit.clear()
        self.value_edit.setPlaceholderText(
            s.model.value_hint(i) or _placeholder(self.session.model.kind)
        )
        self._update_decision_label()
        self._select_current_in_queue()

    def _fill_buttons(self, i: int) -> None:
        s = self.session
        d = s.decision(i)
        fm = self.fontMetrics()
        for k, c in enumerate(s.choices(i)):
            text = (f"{c.key}  ·  " if c.key else "") + c.label
            b = QPushButton(
                fm.elidedText(
                    text, Qt.TextElideMode.ElideRight, fm.averageCharWidth() * BUTTON_CHARS
                )
            )
            b.setToolTip(c.label)
            b.setEnabled(c.value is not None and not s.read_only)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setMinimumWidth(40)
            style = "text-align: left; padding: 4px 8px;"
            if c.value is not None:
                style += f"border-left: 8px solid {self.queue_model.colours.hex(c.value)};"
            if d is not None and d.choice == c.choice and d.value == c.value:
                style += "font-weight: bold; background: #cfe8cf;"
            b.setStyleSheet(style)
            b.clicked.connect(lambda _=False, c=c: self.decide(c))
            self.choices_layout.addWidget(b, k // 2, k % 2)
            self._choice_buttons.append(b)

    def _update_decision_label(self) -> None:
        i = self.current
        if i is None:
            return
        s = self.session
        d = s.decision(i)
        fmt = lambda v: s.model.describe_value(i, v)  # noqa: E731
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
            hint = s.model.suggestion(i)
            if hint is not None:  # the inferred label, in view however the page scrolls
                txt += f" · suggested (not decided): {hint.text}"
        self.decision_label.setText(txt)

    def _update_progress(self) -> None:
        done, total = self.session.progress()
        self.toolbar.set_progress(done, total)
        self.progress_changed.emit(done, total)

    @property
    def progress_label(self) -> QLabel:
        return self.toolbar.progress_label

    # -- live agreement -----------------------------------------------------------------------

    def _update_agreement(self) -> None:
        self.live.update(self.session.agreement_snapshot())

    def _show_agreement(self, table: pd.DataFrame) -> None:
        self.last_agreement = self.side.show_agreement(table)

    # -- deciding -----------------------------------------------------------------------------

    def decide(self, choice: Any, value: str | None = None) -> bool:
        """Record a decision for the current unit (a :class:`Choice`, or ``'typed'`` with
        ``value``); then move to the next unresolved unit of the list."""
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
        old, new = change.old, change.new
        if old is not None and new is not None and same_decision(old, new):
            self.step(1, after=i)  # decided so already: nothing to record or to undo
            return True
        label = (
            f"typed {self.session.model.value_text(i, change.new.value if change.new else None)}"
            if isinstance(choice, str)
            else choice.label
        )
        if not self.undo.push([change], f"{self.session.title(i)} → {label}"):
            return False
        self.step(1, after=i)
        return True

    def decide_typed(self) -> bool:
        if not self.value_edit.text().strip():
            return False
        return self.decide("typed", self.value_edit.text())

    def toggle_mention(self, mention: str) -> bool:
        """Coreference: add the mention to the current chain's decision or take it out."""
        i = self.current
        model = self.session.model
        toggled = getattr(model, "with_mention_toggled", None)  # a kind whose units are chains
        if i is None or toggled is None or self.session.read_only:
            return False
        current = self.session.gold[i]
        shown = (model.versions[i, x] for x in self.session.annotator_order)
        start = next((v for v in shown if v), None)  # an undecided chain: the first version shown
        try:
            change = self.session.choose(
                i,
                "typed",
                note=self.note_edit.text().strip(),
                value=toggled(i, current, mention, start),
            )
        except IaaError as err:
            QMessageBox.warning(self, "Adjudication", str(err))
            return False
        self._keep_scroll = True
        try:
            return self.undo.push([change], f"{self.session.title(i)}: mention {mention}")
        finally:
            self._keep_scroll = False

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
        return self.undo.push([change], f"note on {self.session.title(i)}")

    def clear_decision(self) -> bool:
        i = self.current
        if i is None or self.session.read_only or self.session.decision(i) is None:
            return False
        return self.undo.push([self.session.make_clear(i)], f"clear {self.session.title(i)}")

    def push_bulk(self, changes: Sequence[Decide], text: str) -> bool:
        """Commit many changes as one undoable step."""
        ok = self.undo.push(changes, text)
        if ok and self.current is not None and self.session.resolved_mask()[self.current]:
            self.step(1, after=self.current)
        return ok

    def _apply(self, changes: Sequence[Decide]) -> bool:
        """Commit changes and refresh what depends on them; a store problem is shown, not lost."""
        try:
            if len(changes) == 1:
                self.session.apply(changes[0])
            else:
                self.session.apply_many(changes)
        except StoreError as e:
            self.message_bar.refuse("The decision was not recorded.", str(e))
            return False
        if self.session.store.backup_problem:
            self.message_bar.refuse(
                "The decision was recorded; the backup beside the store failed.",
                self.session.store.backup_problem,
            )
        self.refresh_queue()
        if self.current is not None:
            self.show_unit(self.current)
        self._update_agreement()
        for c in changes:
            self.decided.emit(self.session.model.index[c.unit])
        return True

    # -- navigation ---------------------------------------------------------------------------

    def step(self, direction: int, after: int | None = None) -> None:
        """The next (1) or previous (−1) unresolved unit in the order of the list; the list's
        selection follows. Wraps around; stays put when nothing is left to decide."""
        after = self.current if after is None else after
        nxt = self._neighbour(direction, after)
        if nxt is not None:
            self.show_unit(nxt)
        elif self.current is not None:
            self.show_unit(self.current)

    def _neighbour(self, direction: int, after: int | None) -> int | None:
        s = self.session
        shown = self.queue_model.indices()
        full = self.toolbar.queue(scope="all")  # the list's order, resolved units included
        resolved = s.resolved_mask()
        order = full if len(full) else shown
        if not len(order):
            return None
        if direction < 0:
            order = order[::-1]
        start = 0
        if after is not None:
            pos = np.flatnonzero(order == after)
            start = int(pos[0]) + 1 if len(pos) else 0
        rolled = np.concatenate([order[start:], order[:start]])
        hit = rolled[~resolved[rolled]]
        return int(hit[0]) if len(hit) else None

    def next_unresolved(self) -> None:
        self.step(1)

    def previous_unresolved(self) -> None:
        self.step(-1)

    def _on_anchor(self, url: QUrl) -> None:
        target = url.toString()
        if target.startswith(CHOOSE) and self.current is not None:
            n = int(target[len(CHOOSE) :])
            choices = self.session.choices(self.current)
            if 0 <= n < len(choices):
                self.decide(choices[n])
        elif target.startswith("mention:"):
            self.toggle_mention(target[len("mention:") :])

    # -- settings (from the toolbar) ----------------------------------------------------------

    def settings_changed(self) -> None:
        """The strategy or the blind mode changed: the queue and the unit again."""
        self.queue_model.refresh_names()
        self.refresh_queue()
        if self.current is not None:
            self.show_unit(self.current)
        self._update_agreement()

    def _on_heartbeat(self) -> None:
        try:
            self.session.store.heartbeat()
        except Exception:  # a heartbeat failure must not interrupt the meeting  # noqa: BLE001
            pass

    def export_gold(self, folder: str | Path) -> list[Path]:
        return self.session.write_gold(folder)

    def close_store(self) -> None:
        self._heartbeat.stop()
        self.session.store.close()

"""Keyboard decisions in the adjudication panel, whichever of its views has the focus.

``1``..``9`` pick a version, ``M`` the majority, kind-specific letters the other choices (shown on
the buttons: ``A`` mean, ``D`` / ``E`` median, ``U`` union, ``I`` intersection, ``K`` keep,
``X`` drop …), ``N`` / ``P`` (or ``F8`` / ``Shift+F8``) the next / previous unresolved unit of
the list, ``Ctrl+Z`` / ``Ctrl+Shift+Z`` undo / redo (the unit changed is shown), ``Ctrl+F`` the
filter box (which takes the focus only then or when clicked), ``Esc`` clears the filter and gives
the keys back to the queue, ``Ctrl+W`` closes the window. A text field keeps its keys (typing a value
or a note is not deciding). The handler is an event filter on the panel's views rather than
shortcuts, because an item view would take letters for its keyboard search.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLineEdit, QMessageBox, QWidget

_TEXT_INPUT = (QLineEdit, QAbstractSpinBox)


class KeyHandler(QObject):
    """Maps keys to the panel's actions (see the module docstring)."""

    def __init__(self, panel: Any) -> None:
        super().__init__(panel)
        self.panel = panel

    def install(self, root: QWidget) -> None:
        """Filter the key presses of ``root`` and of every widget in it but the text fields."""
        for w in [root, *root.findChildren(QWidget)]:
            if isinstance(w, _TEXT_INPUT) or (isinstance(w, QComboBox) and w.isEditable()):
                continue
            w.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if self.handle(event):
                return True
        return super().eventFilter(watched, event)

    def handle(self, event: QKeyEvent) -> bool:
        """Act on the key; whether it was used."""
        p = self.panel
        key, mods = event.key(), event.modifiers()
        ctrl, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
        if key == Qt.Key.Key_Z and mods == ctrl:
            p.undo_stack.undo()
            return True
        if key == Qt.Key.Key_Z and mods == (ctrl | shift):
            p.undo_stack.redo()
            return True
        if mods not in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier, shift):
            return False
        if key == Qt.Key.Key_F8:
            p.step(-1 if mods == shift else 1)
            return True
        if mods == shift:
            return False
        if key == Qt.Key.Key_N:
            p.step(1)
            return True
        if key == Qt.Key.Key_P:
            p.step(-1)
            return True
        text = event.text().lower()
        if text and p.current is not None:
            for c in p.session.choices(p.current):
                if c.key and c.key == text:
                    p.decide(c)
                    return True
        return False


def confirm_unsaved(panel: Any) -> bool:
    """Whether ``panel``'s window may close: a typed value or a note not used yet is named and
    the user asked (decisions themselves are in the store as soon as they are made)."""
    if panel.session.read_only:
        return True
    lost = []
    if panel.value_edit.text().strip():
        lost.append(f"the typed value “{panel.value_edit.text().strip()}”")
    d = panel.session.decision(panel.current) if panel.current is not None else None
    note = panel.note_edit.text().strip()
    if note and note != (d.note if d else ""):
        lost.append(f"the note “{note}”")
    if not lost:
        return True
    what = " and ".join(lost)
    answer = QMessageBox.question(
        panel,
        "Close the adjudication",
        f"{what[0].upper()}{what[1:]} {'is' if len(lost) == 1 else 'are'} not saved with "
        "a decision. Close anyway? (Every decision made is saved already.)",
        QMessageBox.StandardButton.Close | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Close

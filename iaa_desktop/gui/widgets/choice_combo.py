"""A combo box whose choice is made in its list: the arrow keys on the closed box open the list
instead of choosing each entry passed on the way (a kind of study is applied once, when the
list closes on it with Return or a click), and the mouse wheel over it scrolls the page."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

#: keys that step a closed Qt combo box through its entries (each step a choice)
STEP_KEYS = frozenset(
    {
        Qt.Key.Key_Up,
        Qt.Key.Key_Down,
        Qt.Key.Key_PageUp,
        Qt.Key.Key_PageDown,
        Qt.Key.Key_Home,
        Qt.Key.Key_End,
    }
)


class ChoiceCombo(QComboBox):
    """:class:`QComboBox` choosing only in its open list."""

    def keyPressEvent(self, event: Any) -> None:
        plain = event.modifiers() in (
            Qt.KeyboardModifier.NoModifier,
            Qt.KeyboardModifier.KeypadModifier,
        )
        if plain and event.key() in STEP_KEYS:
            self.showPopup()  # the list opens on the current entry; Return there chooses
            event.accept()
            return
        super().keyPressEvent(event)

    def wheelEvent(self, event: Any) -> None:
        event.ignore()  # the page scrolls; a kind is not changed in passing


__all__ = ["ChoiceCombo"]

"""An in-window message bar: a question or a refusal shown above the page, never a modal box.

The main window keeps one above its pages. :meth:`MessageBar.ask` shows a question with its
buttons and calls back the one pressed; :meth:`MessageBar.refuse` shows why something was not
done. Nothing waits for an answer: the GUI thread goes on, and a new message replaces the old one
(whose question then counts as cancelled).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QStyle, QVBoxLayout, QWidget

#: background and border of the two kinds of message (readable in light and dark themes)
_STYLES = {
    "question": "QFrame#message_bar { background: #fff4ce; border: 1px solid #d6b656; }",
    "refusal": "QFrame#message_bar { background: #fde7e9; border: 1px solid #c4314b; }",
    "done": "QFrame#message_bar { background: #e6f4ea; border: 1px solid #5a9f68; }",
}
_TEXT = "QLabel { color: #1f1f1f; background: transparent; border: none; }"


class MessageBar(QFrame):
    """A message with buttons; hidden until there is something to say.

    Signals
    -------
    answered(str)
        the text of the button pressed (``""`` when the message was closed or replaced).
    """

    answered = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("message_bar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 10, 6)
        self.icon = QLabel()
        lay.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        texts = QVBoxLayout()
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setStyleSheet(_TEXT + " QLabel { font-weight: bold; }")
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setStyleSheet(_TEXT)
        texts.addWidget(self.text)
        texts.addWidget(self.details)
        lay.addLayout(texts, 1)
        self.button_box = QHBoxLayout()
        lay.addLayout(self.button_box)
        self.buttons: dict[str, QPushButton] = {}
        self._callbacks: dict[str, Callable[[], None]] = {}
        self._on_dismiss: Callable[[], None] | None = None
        self._asking = False
        self.subject: object = None
        self.hide()

    def ask(
        self,
        text: str,
        details: str,
        choices: Sequence[tuple[str, Callable[[], None]]],
        on_dismiss: Callable[[], None] | None = None,
        subject: object = None,
    ) -> None:
        """Show a question; each choice is a button text and what pressing it does. The last
        choice is the safe one (it gets the focus); ``on_dismiss`` runs when the question is
        replaced by another message without an answer; ``subject`` is what the question is about
        (kept in :attr:`subject` for whoever answers it without a click)."""
        self._show("question", QStyle.StandardPixmap.SP_MessageBoxWarning, text, details)
        for label, callback in choices:
            self._add_button(label, callback)
        self._on_dismiss = on_dismiss
        self._asking = True
        self.subject = subject
        if choices:
            self.buttons[choices[-1][0]].setFocus()

    def refuse(self, text: str, details: str = "") -> None:
        """Say why something was not done (with a Close button)."""
        self._show("refusal", QStyle.StandardPixmap.SP_MessageBoxCritical, text, details)
        self._add_button("Close", lambda: None)

    def notify(
        self, text: str, details: str, choices: Sequence[tuple[str, Callable[[], None]]]
    ) -> None:
        """Say that something was done, with what to do next (e.g. open the file written) and
        a Close button."""
        self._show("done", QStyle.StandardPixmap.SP_DialogApplyButton, text, details)
        for label, callback in [*choices, ("Close", lambda: None)]:
            self._add_button(label, callback)

    def dismiss(self) -> None:
        """Hide the message; a question left unanswered counts as cancelled."""
        pending, self._on_dismiss = self._on_dismiss, None
        was_asking, self._asking = self._asking, False
        self._clear_buttons()
        self.hide()
        if pending is not None:
            pending()
        if was_asking:
            self.answered.emit("")

    @property
    def asking(self) -> bool:
        """Whether a question waits for an answer."""
        return self._asking

    # ------------------------------------------------------------------ internals

    def _show(self, style: str, icon: QStyle.StandardPixmap, text: str, details: str) -> None:
        self.dismiss()
        self.setStyleSheet(_STYLES[style])
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        self.icon.setPixmap(self.style().standardIcon(icon).pixmap(size, size))
        self.text.setText(text)
        self.details.setText(details)
        self.details.setVisible(bool(details))
        self.show()

    def _add_button(self, label: str, callback: Callable[[], None]) -> None:
        button = QPushButton(label)
        button.clicked.connect(lambda _checked=False, label=label: self._press(label))
        self.button_box.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        self.buttons[label] = button
        self._callbacks[label] = callback

    def _press(self, label: str) -> None:
        callback = self._callbacks.get(label)
        self._on_dismiss = None  # answered: not a cancellation
        self._asking = False
        self._clear_buttons()
        self.hide()
        if callback is not None:
            callback()
        self.answered.emit(label)

    def _clear_buttons(self) -> None:
        for button in self.buttons.values():
            self.button_box.removeWidget(button)
            button.deleteLater()
        self.buttons.clear()
        self._callbacks.clear()


__all__ = ["MessageBar"]

"""What the central area shows while a study's first results are computed (instead of a blank
grey area): what is being done, a progress bar and Cancel; after a cancel or a failure, what
happened and how to compute again (F5)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from iaa_desktop.gui.widgets.elided_label import ElidedText
from iaa_desktop.gui.widgets.short_text import shown_text

CANCELLED = "Cancelled — press F5 to compute again."


class ComputingPage(QWidget):
    """The placeholder; ``cancel_requested`` when its Cancel button is pressed."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("computing_page")
        self._title = "Computing the agreement…"
        lay = QVBoxLayout(self)
        lay.addStretch(2)
        # cut with "…" where the window ends: the title names the study, whose name is data
        self.title = ElidedText("Computing the agreement…")
        f = self.title.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.3)
        self.title.setFont(f)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setMaximumWidth(520)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the computation (Esc)")
        self.cancel_button.clicked.connect(self.cancel_requested)
        for w in (self.title, self.message, self.bar, self.cancel_button):
            lay.addWidget(w, 0, Qt.AlignmentFlag.AlignHCenter)
            if isinstance(w, QLabel):
                w.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        lay.addStretch(3)

    def started(self, title: str | None = None) -> None:
        """A computation began; ``title`` names what is computed (kept for later runs)."""
        if title is not None:
            self._title = title
        self.title.setText(self._title)
        self.message.setText("")
        self.bar.setValue(0)
        self.bar.show()
        self.cancel_button.show()

    def progress(self, fraction: float, message: str) -> None:
        self.bar.setValue(int(fraction * 1000))
        if message:
            self.message.setText(shown_text(message))

    def stopped(self, title: str, message: str = "") -> None:
        """The run ended without results: say so (``title``) and why (``message``)."""
        self.title.setText(shown_text(title))
        self.message.setText(shown_text(message))  # an error may quote a name of a megabyte
        self.bar.hide()
        self.cancel_button.hide()


__all__ = ["CANCELLED", "ComputingPage"]

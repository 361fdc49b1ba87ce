"""Zoom of a panel's text views, following the presentation zoom of the whole application
(:mod:`iaa_desktop.gui.presentation`: View → Zoom, ``Ctrl +`` / ``Ctrl −`` / ``Ctrl 0``).

The text views follow the application font by themselves; a :class:`TextZoom` is what a view
that writes sizes into its own HTML reads (:attr:`TextZoom.factor`) and re-renders on
(:attr:`TextZoom.changed`). The keys belong to the windows (the main window's View menu, the
adjudication window), so that one key press zooms every part of a window together.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QTextEdit, QWidget

from iaa_desktop.gui import presentation


class TextZoom(QObject):
    """The presentation zoom as seen by the text views of ``panel``."""

    changed = Signal(float)  # the new factor

    def __init__(self, panel: QWidget, views: list[QTextEdit] | None = None) -> None:
        super().__init__(panel)
        self.views: list[QTextEdit] = list(views or [])
        presentation.zoom().changed.connect(self.changed)

    @property
    def factor(self) -> float:
        """Size relative to the default (1.0 = not zoomed)."""
        return presentation.factor()

    def add(self, view: QTextEdit) -> None:
        self.views.append(view)

    def zoom(self, step: int) -> None:
        """One step in (1), out (−1), or back to the default size (0), for the application."""
        presentation.zoom().step(step)

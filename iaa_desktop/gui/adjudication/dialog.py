"""The adjudication window and how it is opened from the main window.

Wiring (main window): a menu action "Adjudicate…" (Ctrl+J) calling
``open_adjudication(self, self.session, self.study_path)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, QSize, Qt
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QVBoxLayout, QWidget

from iaa_desktop.core.adjudication import (
    AdjudicationSession,
    AdjudicationStore,
    StoreCorruptError,
    StoreError,
    StoreLockedError,
    StoreReadOnlyError,
    store_path_for,
    units_for,
)
from iaa_desktop.core.errors import IaaError
from iaa_desktop.gui.adjudication.panel import AdjudicationPanel
from iaa_desktop.gui.geometry import clamp_soon, fit_window
from iaa_desktop.gui.meeting import MeetingLayout, zoom_actions
from iaa_desktop.gui.widgets.short_text import shown
from iaa_desktop.gui.window_state import restore_geometry, save_geometry

ADJUDICATE_SHORTCUT = QKeySequence("Ctrl+J")
#: the size the window asks for (made smaller to fit the screen with its frame)
DEFAULT_SIZE = QSize(1400, 900)
GEOMETRY_KEY = "adjudication"


def open_store_interactive(parent: QWidget | None, path: Path) -> AdjudicationStore | None:
    """Open the store at ``path``, asking the user what to do when it is locked, read-only or
    corrupt (never overwriting anything). ``None`` when the user gave up."""
    try:
        return AdjudicationStore.open(path)
    except (StoreLockedError, StoreReadOnlyError) as e:
        answer = QMessageBox.question(
            parent,
            "Adjudication store",
            f"{e}\n\nOpen it read-only?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Yes,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return None
        try:
            return AdjudicationStore.open(path, read_only=True)
        except StoreError as e2:
            QMessageBox.critical(parent, "Adjudication store", str(e2))
            return None
    except StoreCorruptError as e:
        if e.damaged and _ask(parent, f"{e}\n\nOpen it read-only to export what can be read?"):
            try:
                return AdjudicationStore.open(path, read_only=True, damaged_ok=True)
            except StoreError as e2:
                QMessageBox.critical(parent, "Adjudication store", str(e2))
                return None
        answer = QMessageBox.question(
            parent,
            "Adjudication store",
            f"{e}\n\nStart a new store at {e.suggested}?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return None
        return open_store_interactive(parent, e.suggested)
    except StoreError as e:
        QMessageBox.critical(parent, "Adjudication store", str(e))
        return None


def _ask(parent: QWidget | None, text: str) -> bool:
    answer = QMessageBox.question(
        parent,
        "Adjudication store",
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


class AdjudicationDialog(QDialog):
    """A non-modal window holding an :class:`AdjudicationPanel`; closes the store when closed.

    Esc never closes it (it clears the queue's filter first, see
    :meth:`AdjudicationPanel.escape`); Ctrl+W and the window's close button do, asking first
    when a typed value or a note has not been used. Its place on the screen is remembered in
    ``settings`` (the main window's), with the frame kept on the screen.
    """

    def __init__(
        self,
        session: AdjudicationSession,
        parent: QWidget | None = None,
        study: str = "",
        settings: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.setWindowTitle(window_title(session, study))
        self.settings = settings
        self.panel = AdjudicationPanel(session, self)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.panel)
        fit_window(self, DEFAULT_SIZE)
        self.zoom_actions = zoom_actions(self, settings)
        self.meeting = MeetingLayout(self, lambda: [self.panel.side])
        if settings is not None:
            restore_geometry(self, settings, GEOMETRY_KEY)
        keys = {"Ctrl+W"} | {
            k.toString() for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Close)
        }
        for key in sorted(keys):
            close = QShortcut(QKeySequence(key), self)
            close.setContext(Qt.ShortcutContext.WindowShortcut)
            close.activated.connect(self.close)
        self._closed = False

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        clamp_soon(self)  # the bottom row of buttons stays on the screen

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and not event.modifiers():
            self.panel.escape()  # a dialog would close on Esc: a meeting window must not
            return
        super().keyPressEvent(event)

    def reject(self) -> None:
        """The close button and Ctrl+W (Esc never comes here): ask about what is not used yet,
        then release the store."""
        if not self.panel.confirm_leave():
            return
        self._release()
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:
        super().closeEvent(event)  # calls reject(), which may keep the window open
        if event.isAccepted() and not self.isVisible():
            self._release()

    def _release(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.meeting.set_active(False)
        if self.settings is not None:
            save_geometry(self, self.settings, GEOMETRY_KEY)
        self.panel.close_store()


def window_title(session: AdjudicationSession, study: str) -> str:
    """ "Adjudication of STUDY" (the store's file name when the study has no name)."""
    name = study or session.store.path.name
    ro = " (read-only)" if session.read_only else ""
    return f"Adjudication of {shown(name)}{ro} — iaa_desktop"


def _study_name(parent: QWidget | None, result: Any) -> str:
    """The study's name as the main window shows it: its file's name, else its title."""
    path = getattr(parent, "study_path", None)
    if path:
        return Path(path).stem
    study = getattr(getattr(parent, "session", None), "study", None)
    title = getattr(study, "title", "")
    if title:
        return str(title)
    inputs = getattr(result, "inputs", ())
    return Path(inputs[0]).name if inputs else ""


def _result_of(obj: Any) -> Any:
    if hasattr(obj, "kind") and hasattr(obj, "inputs") and hasattr(obj, "tables"):
        return obj
    for name in ("result", "last_result", "current_result", "latest_result"):
        r = getattr(obj, name, None)
        r = r() if callable(r) else r
        if r is not None:
            return r
    return None


def open_adjudication(
    parent: QWidget | None,
    session_or_result: Any,
    study_path: str | Path | None,
    store_path: str | Path | None = None,
    show: bool = True,
) -> AdjudicationDialog | None:
    """Start or resume the adjudication of the current comparison.

    Parameters
    ----------
    parent : the main window (or any parent widget)
    session_or_result : a ``StudySession`` (its latest result is used) or a ``TaskResult``
    study_path : the study file; the store is ``<study>.adjudication.sqlite`` beside it. When
        ``None`` (study not saved yet) the user chooses where the store goes.
    store_path : an explicit store file (tests, scripts)
    """
    result = _result_of(session_or_result)
    if result is None:
        QMessageBox.information(
            parent, "Adjudicate", "Compute a comparison first; adjudication works on its result."
        )
        return None
    try:
        model = units_for(result)
    except IaaError as e:
        QMessageBox.warning(parent, "Adjudicate", str(e))
        return None
    if store_path is None:
        if study_path is not None:
            store_path = store_path_for(study_path)
        else:
            first = Path(result.inputs[0]) if result.inputs else Path.home() / "study"
            suggestion = str(
                (first.parent if first.is_file() else first.parent)
                / f"{first.stem or 'study'}.adjudication.sqlite"
            )
            chosen, _ = QFileDialog.getSaveFileName(
                parent,
                "Where to keep the adjudication (save the study to keep it beside it)",
                suggestion,
                "Adjudication store (*.sqlite)",
                options=QFileDialog.Option.DontConfirmOverwrite,
            )
            if not chosen:
                return None
            store_path = chosen
    store = open_store_interactive(parent, Path(store_path))
    if store is None:
        return None
    try:
        session = AdjudicationSession(model, store)
    except IaaError as e:
        store.close()
        QMessageBox.warning(parent, "Adjudicate", str(e))
        return None
    settings = getattr(parent, "settings", None)
    dialog = AdjudicationDialog(
        session,
        parent,
        study=_study_name(parent, result),
        settings=settings if isinstance(settings, QSettings) else None,
    )
    if show:
        dialog.show()
        dialog.raise_()
    return dialog

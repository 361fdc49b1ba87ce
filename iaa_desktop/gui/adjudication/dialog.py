"""The adjudication window and how it is opened from the main window.

Wiring (main window): a menu action "Adjudicate…" (Ctrl+J) calling
``open_adjudication(self, self.session, self.study_path)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QKeySequence
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

ADJUDICATE_SHORTCUT = QKeySequence("Ctrl+J")


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
    """A non-modal window holding an :class:`AdjudicationPanel`; closes the store when closed."""

    def __init__(self, session: AdjudicationSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        title = "Adjudication" + (" (read-only)" if session.read_only else "")
        self.setWindowTitle(f"{title} — {session.store.path.name}")
        self.panel = AdjudicationPanel(session, self)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.panel)
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        w, h = (
            (1400, 900)
            if screen is None
            else (min(1400, screen.width()), min(900, screen.height()))
        )
        self.resize(w, h)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.panel.close_store()
        super().closeEvent(event)

    def reject(self) -> None:  # Esc closes the window like the close button (store released)
        self.panel.close_store()
        super().reject()


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
    dialog = AdjudicationDialog(session, parent)
    if show:
        dialog.show()
        dialog.raise_()
    return dialog

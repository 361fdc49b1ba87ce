"""The keys of a meeting, in both windows: the presentation zoom (``Ctrl +`` / ``Ctrl =``,
``Ctrl −``, ``Ctrl 0``) and the full-screen meeting layout (``F11``), which hides what a meeting
does not need (the main window's docks, the adjudication window's side panel) and gives the
room to the lists and the unit; ``F11`` again brings them back.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from iaa_desktop.gui import presentation

ZOOM_KEYS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("Zoom &in", ("Ctrl++", "Ctrl+="), 1),
    ("Zoom &out", ("Ctrl+-",), -1),
    ("&Actual size", ("Ctrl+0",), 0),
)
FULL_SCREEN_KEY = "F11"


def zoom_actions(parent: QWidget, settings: QSettings | None = None) -> list[QAction]:
    """Zoom in / out / actual size as actions of ``parent`` (window-wide keys); a change is
    remembered in ``settings``."""
    actions = []
    for text, keys, step in ZOOM_KEYS:
        act = QAction(text.replace("&", "") if settings is None else text, parent)
        act.setShortcuts([QKeySequence(k) for k in keys])
        act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        act.triggered.connect(lambda _c=False, s=step: _step(s, settings))
        parent.addAction(act)
        actions.append(act)
    return actions


def _step(step: int, settings: QSettings | None) -> None:
    f = presentation.zoom().step(step)
    if settings is not None:
        settings.setValue(presentation.SETTINGS_KEY, f)


def restore_zoom(settings: QSettings) -> None:
    """The zoom level remembered in ``settings`` (100 % when none)."""
    try:
        f = float(settings.value(presentation.SETTINGS_KEY, 1.0))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        f = 1.0
    presentation.zoom().set_factor(f)


def add_zoom_menu(menu: QMenu, window: QWidget, settings: QSettings) -> list[QAction]:
    actions = zoom_actions(window, settings)
    for act in actions:
        menu.addAction(act)
    return actions


class MeetingLayout:
    """Full screen with the parts a meeting does not need hidden (``hide`` gives them), and
    back to the window as it was."""

    def __init__(self, window: QWidget, parts: Callable[[], list[QWidget]]) -> None:
        self.window = window
        self.parts = parts
        self.active = False
        self._hidden: list[QWidget] = []
        self._was_maximized = False
        self.action = QAction("&Full-screen meeting layout", window)
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence(FULL_SCREEN_KEY))
        self.action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.action.setToolTip("full screen, only the lists and the unit (F11 again to leave)")
        self.action.toggled.connect(self.set_active)
        window.addAction(self.action)

    def set_active(self, on: bool) -> None:
        if on == self.active:
            return
        self.active = on
        if self.action.isChecked() != on:
            self.action.setChecked(on)
        w = self.window
        if on:
            self._was_maximized = w.isMaximized()
            self._hidden = [p for p in self.parts() if p.isVisible()]
            for p in self._hidden:
                p.hide()
            w.showFullScreen()
        else:
            for p in self._hidden:
                p.show()
            self._hidden = []
            if self._was_maximized:
                w.showMaximized()
            else:
                w.showNormal()


__all__ = ["MeetingLayout", "add_zoom_menu", "restore_zoom", "zoom_actions"]

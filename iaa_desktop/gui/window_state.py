"""What the main window remembers between sessions: its size and dock layout per kind of view, its
place on the screen, the recent studies and the folders last used.

Each kind of view (the start page, the table overview, the coreference view, ...) keeps its own
size and dock layout under ``view/<kind>/...`` in the settings, so a wide view chosen for one study
is not carried over to a study of another kind. Sizes are clamped to the screen with the window
manager's frame (:mod:`iaa_desktop.gui.geometry`); the place on the screen is remembered per
screen (its name and size), and a maximized or full-screen window comes back so.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QSize, QStandardPaths
from PySide6.QtWidgets import QMainWindow, QWidget

from iaa_desktop.core.user_files import start_folder
from iaa_desktop.gui.geometry import client_size

MAX_RECENT = 10
DEFAULT_SIZE = QSize(1400, 900)
START = "start"  # the view shown when no study is open


def _bytes(value) -> QByteArray | None:
    if isinstance(value, QByteArray | bytes) and value:
        return QByteArray(value)
    return None


def documents_folder() -> str:
    return QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)


def data_folder() -> Path:
    """The user's data folder for this application (example copies, stores of unsaved studies)."""
    loc = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(loc) if loc else Path.home() / ".local" / "share" / "iaa_desktop"


def fit_size(size: QSize, available: QSize) -> QSize:
    """``size`` made no larger than the screen's available area."""
    return QSize(min(size.width(), available.width()), min(size.height(), available.height()))


def screen_key(window: QWidget) -> str:
    """The settings key part naming ``window``'s screen: its name and size (a laptop alone and
    the same laptop on a projector are two screens with two remembered places)."""
    screen = window.screen()
    if screen is None:
        return "default"
    size = screen.size()
    name = "".join(c if c.isalnum() else "_" for c in screen.name()) or "screen"
    return f"{name}_{size.width()}x{size.height()}"


def save_geometry(window: QWidget, settings: QSettings, prefix: str) -> None:
    """Remember ``window``'s place and state (maximized, full screen) for its screen."""
    settings.setValue(f"{prefix}/geometry/{screen_key(window)}", window.saveGeometry())
    settings.setValue(f"{prefix}/geometry", window.saveGeometry())  # any other screen


def restore_geometry(window: QWidget, settings: QSettings, prefix: str) -> bool:
    """Bring back the place and state remembered for ``window``'s screen (else for any screen);
    whether there was one."""
    for key in (f"{prefix}/geometry/{screen_key(window)}", f"{prefix}/geometry"):
        geo = _bytes(settings.value(key))
        if geo is not None:
            return bool(window.restoreGeometry(geo))
    return False


class WindowState:
    """Reads and writes the window's remembered state in ``settings``."""

    def __init__(self, window: QMainWindow, settings: QSettings) -> None:
        self.window = window
        self.settings = settings
        self.view = START

    # ------------------------------------------------------------------ geometry

    def _fit(self, size: QSize) -> QSize:
        return client_size(self.window, size)

    def restore_position(self) -> None:
        """The place (and maximized / full-screen state) remembered for this screen."""
        restore_geometry(self.window, self.settings, "window")

    def restore(self, view: str) -> None:
        """Size and dock layout remembered for ``view`` (the default size when there are none);
        a maximized or full-screen window keeps its state."""
        self.view = view
        size = self.settings.value(f"view/{view}/size")
        if not self.window.isMaximized() and not self.window.isFullScreen():
            self.window.resize(self._fit(size if isinstance(size, QSize) else DEFAULT_SIZE))
        state = _bytes(self.settings.value(f"view/{view}/state"))
        if state is not None:
            self.window.restoreState(state)

    def save(self) -> None:
        """Remember the current view's size and dock layout, and the window's place."""
        if not self.window.isMaximized() and not self.window.isFullScreen():
            self.settings.setValue(f"view/{self.view}/size", self.window.size())
        self.settings.setValue(f"view/{self.view}/state", self.window.saveState())
        save_geometry(self.window, self.settings, "window")
        self.settings.sync()

    def switch(self, view: str) -> None:
        """Leave the current view (remembering it) for ``view``; nothing happens if it is the same."""
        if view != self.view:
            self.save()
            self.restore(view)

    # ------------------------------------------------------------------ recent studies

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent/files") or []
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value]

    def add_recent(self, path: str) -> list[str]:
        recent = [p for p in self.recent_files() if p != path]
        recent.insert(0, path)
        self.settings.setValue("recent/files", recent[:MAX_RECENT])
        self.settings.sync()
        return recent[:MAX_RECENT]

    # ------------------------------------------------------------------ folders

    def open_folder(self) -> str:
        """Where open dialogs start: the folder last opened from, else the documents folder."""
        last = self.settings.value("paths/last_open_dir")
        return str(start_folder(last, documents_folder()))

    def remember_open(self, path: str | Path) -> None:
        p = Path(path)
        self.settings.setValue("paths/last_open_dir", str(p if p.is_dir() else p.parent))

    def save_folder(self, avoid: tuple[Path, ...] = ()) -> Path:
        """Where save and export dialogs start: the folder last saved into, else the documents
        folder, never inside ``avoid`` (the installed package, its examples)."""
        last = self.settings.value("paths/last_save_dir")
        return start_folder(last, documents_folder(), avoid=avoid)

    def remember_save(self, path: str | Path) -> None:
        p = Path(path)
        self.settings.setValue("paths/last_save_dir", str(p if p.is_dir() else p.parent))


__all__ = [
    "DEFAULT_SIZE",
    "START",
    "WindowState",
    "data_folder",
    "documents_folder",
    "fit_size",
    "restore_geometry",
    "save_geometry",
    "screen_key",
]

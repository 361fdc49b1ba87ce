"""Windows and dialogs that fit the screen with their window manager's frame.

A window manager adds a title bar and borders around a window; sizing a window to the screen's
available area leaves its bottom (a status bar, a row of buttons) off the screen. Here a window's
*client* area is the available area minus the frame: before the window is first shown the frame
is not known yet and a typical title bar is assumed; once the window manager has framed it the
real margins are used and the window is clamped again (moved up and, if need be, made smaller:
:func:`clamp_soon`, called from the window's ``showEvent``).
A maximized or full-screen window is left to the window manager.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QRect, QSize, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

#: the frame assumed before the window manager reports one: a title bar and thin borders
DEFAULT_FRAME = QMargins(4, 32, 4, 4)
#: after the window is shown, the frame is looked at again after these delays (ms): the window
#: manager frames a window asynchronously
SETTLE_MS = (0, 150, 600)


def real_screen() -> bool:
    """Whether windows are on a real screen (the offscreen platform has no size to respect)."""
    return QGuiApplication.platformName() not in ("offscreen", "minimal")


def frame_margins(widget: QWidget) -> QMargins:
    """The frame the window manager put around ``widget``'s window, or :data:`DEFAULT_FRAME`
    while it has none yet."""
    handle = widget.window().windowHandle()
    if handle is not None and widget.window().isVisible():
        m = handle.frameMargins()
        if m.left() or m.top() or m.right() or m.bottom():
            return m
    return QMargins(DEFAULT_FRAME)


def fitted_rect(geometry: QRect, margins: QMargins, available: QRect) -> QRect:
    """``geometry`` (the client area) made to fit, frame included, in ``available``: no larger
    than the available area minus the frame, then moved so the whole frame is inside it."""
    max_w = max(1, available.width() - margins.left() - margins.right())
    max_h = max(1, available.height() - margins.top() - margins.bottom())
    w, h = min(geometry.width(), max_w), min(geometry.height(), max_h)
    x = min(max(geometry.x(), available.left() + margins.left()),
            available.right() + 1 - margins.right() - w)  # fmt: skip
    y = min(max(geometry.y(), available.top() + margins.top()),
            available.bottom() + 1 - margins.bottom() - h)  # fmt: skip
    return QRect(x, y, w, h)


def client_size(widget: QWidget, wanted: QSize) -> QSize:
    """``wanted`` made no larger than the client area the screen has for ``widget``."""
    screen = widget.screen()
    if screen is None or not real_screen():
        return wanted
    area = screen.availableGeometry()
    m = frame_margins(widget)
    return QSize(
        min(wanted.width(), area.width() - m.left() - m.right()),
        min(wanted.height(), area.height() - m.top() - m.bottom()),
    )


def clamp_to_screen(widget: QWidget) -> None:
    """Move and, if need be, shrink ``widget``'s window so that its frame is on its screen."""
    win = widget.window()
    if not real_screen() or win.isMaximized() or win.isFullScreen() or win.isMinimized():
        return
    screen = win.screen()
    if screen is None:
        return
    new = fitted_rect(win.geometry(), frame_margins(win), screen.availableGeometry())
    if new.size() != win.size():
        win.resize(new.size())
    if new.topLeft() != win.geometry().topLeft():
        win.move(new.x() - frame_margins(win).left(), new.y() - frame_margins(win).top())


def clamp_soon(window: QWidget) -> None:
    """Clamp ``window`` to its screen once the window manager has framed it (call from its
    ``showEvent``): the frame arrives asynchronously, so it is looked at a few times. The
    timers are the window's: nothing runs after it is gone."""
    for ms in SETTLE_MS:
        QTimer.singleShot(ms, window, lambda w=window: clamp_to_screen(w))


def fit_window(window: QWidget, wanted: QSize) -> None:
    """Size ``window`` to ``wanted`` at most, within its screen's area minus the frame (a
    dialog is then centred on its parent by Qt, whole)."""
    window.resize(client_size(window, wanted))


__all__ = [
    "DEFAULT_FRAME",
    "clamp_soon",
    "clamp_to_screen",
    "client_size",
    "fit_window",
    "fitted_rect",
    "frame_margins",
    "real_screen",
]

"""What a person does with the window's controls, as real key presses and clicks.

Every helper sends input events (``QTest`` through ``qtbot``) to the widget that has the focus, so
the widget's own event handler runs and emits its signals the way it does for a user. None of them
emits a widget's signal or calls a slot.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QLineEdit,
    QTabBar,
    QWidget,
)


def activate(qtbot, widget: QWidget) -> None:
    """Make ``widget``'s window the active one, as a click on it does under a window manager
    (the offscreen platform has none). After a modal message box closed, the offscreen platform
    may leave no window active whatever is asked; input events still reach their widget then."""
    top = widget.window()
    if not top.isActiveWindow():
        top.activateWindow()
        try:
            qtbot.waitUntil(top.isActiveWindow, timeout=1000)
        except qtbot.TimeoutError:
            pass


def focus(qtbot, widget: QWidget) -> None:
    """Click ``widget`` (near its left edge, clear of buttons and arrows) and wait for the focus."""
    activate(qtbot, widget)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(6, widget.height() // 2))
    if widget.window().isActiveWindow():  # else the keys still reach the widget they are sent to
        qtbot.waitUntil(
            lambda: widget.hasFocus() or widget.isAncestorOf(QApplication.focusWidget())
        )


def choose(qtbot, combo: QComboBox, data, index: int | None = None) -> None:
    """Click the combo to open its list, move to the entry whose data is ``data`` (or the entry at
    ``index``) with the arrow keys and press Return (one choice: the entries passed on the way are
    not chosen)."""
    target = combo.findData(data) if index is None else index
    assert target >= 0, f"{data!r} is not offered"
    activate(qtbot, combo)
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton, pos=QPoint(6, combo.height() // 2))
    view = combo.view()
    qtbot.waitUntil(view.isVisible)
    key = Qt.Key.Key_Down if target > view.currentIndex().row() else Qt.Key.Key_Up
    while view.currentIndex().row() != target:
        qtbot.keyClick(view, key)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible())


def step(qtbot, combo: QComboBox, data) -> None:
    """Move a closed combo to ``data`` with the arrow keys (each step is a choice, as in Qt)."""
    focus(qtbot, combo)
    target = combo.findData(data)
    assert target >= 0, f"{data!r} is not offered"
    key = Qt.Key.Key_Down if target > combo.currentIndex() else Qt.Key.Key_Up
    while combo.currentIndex() != target:
        qtbot.keyClick(combo, key)


def type_number(qtbot, spin: QAbstractSpinBox, text: str) -> None:
    """Select everything in a spin box, type ``text`` and press Return."""
    focus(qtbot, spin)
    qtbot.keyClick(spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Return)


def type_text(qtbot, line: QLineEdit, text: str) -> None:
    """Select everything in a line edit, type ``text`` (or delete, for "") and press Tab."""
    focus(qtbot, line)
    qtbot.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    if text:
        qtbot.keyClicks(line, text)
    else:
        qtbot.keyClick(line, Qt.Key.Key_Delete)
    qtbot.keyClick(line, Qt.Key.Key_Tab)


def click(qtbot, box: QCheckBox) -> None:
    """Click a check box (on its indicator)."""
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))


def click_tab(qtbot, window: QWidget, title: str) -> None:
    """Click the tab titled ``title`` in whichever tab bar of ``window`` shows it (docks too)."""
    for bar in window.findChildren(QTabBar):
        for i in range(bar.count()):
            if bar.tabText(i) == title and bar.isVisible():
                qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(i).center())
                return
    raise AssertionError(f"no visible tab {title!r}")


class Answers(list):
    """The texts of the dialogs :func:`answer_dialogs` answered; ``timer`` keeps answering."""

    timer: Any = None


def answer_dialogs(qtbot, button: Any = None) -> Answers:
    """Answer every modal dialog (a question, a message) that opens from now on, as a person
    reading it would: a click on its ``button`` (a ``QMessageBox.StandardButton``), else Return.
    Returns the texts the dialogs showed; ``.timer.stop()`` ends the answering."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox

    seen = Answers()

    def press() -> None:
        box = QApplication.activeModalWidget()
        if box is None or not box.isVisible():
            return
        seen.append(box.text() if isinstance(box, QMessageBox) else box.windowTitle())
        target = box.button(button) if isinstance(box, QMessageBox) and button else None
        if target is not None:
            QTest.mouseClick(target, Qt.MouseButton.LeftButton)
        else:
            QTest.keyClick(box, Qt.Key.Key_Return)

    timer = QTimer()
    timer.setInterval(50)
    timer.timeout.connect(press)
    timer.start()
    seen.timer = timer
    return seen


def press(qtbot, button: QWidget) -> None:
    """Click a push button (or any clickable widget) in its middle."""
    activate(qtbot, button)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())


def choose_text(qtbot, combo: QComboBox, text: str) -> None:
    """:func:`choose` the entry shown as ``text``."""
    index = combo.findText(text)
    assert index >= 0, f"{text!r} is not offered"
    choose_index(qtbot, combo, index)


def choose_index(qtbot, combo: QComboBox, index: int) -> None:
    """:func:`choose` the entry at ``index``."""
    choose(qtbot, combo, combo.itemData(index), index)


def type_filter(qtbot, line: QLineEdit, text: str) -> None:
    """Replace what a search field holds with ``text`` (typed; "" deletes), no Tab."""
    focus(qtbot, line)
    qtbot.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    if text:
        type_keys(qtbot, line, text)
    else:
        qtbot.keyClick(line, Qt.Key.Key_Delete)


def type_keys(qtbot, widget: QWidget, text: str) -> None:
    """Type ``text`` key by key; a letter outside ASCII (Hebrew, Arabic…) arrives as the key
    event its keyboard layout produces (no key code, the letter as its text)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QKeyEvent

    for ch in text:
        if ch.isascii():
            qtbot.keyClicks(widget, ch)
            continue
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, ch))


def check(qtbot, box: QCheckBox, on: bool) -> None:
    """Click the check box if it is not already ``on``."""
    if box.isChecked() != on:
        activate(qtbot, box)
        click(qtbot, box)
    assert box.isChecked() == on


def click_row(qtbot, view, row: int, column: int = 0) -> None:
    """Click the first visible row of an item view, then walk down to ``row`` with the arrow key
    (rows below the fold are reached as a person reaches them)."""
    activate(qtbot, view)
    model = view.model()
    first = view.indexAt(QPoint(2, 2))
    start = first if first.isValid() else model.index(0, column)
    start = model.index(start.row(), column)
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(start).center()
    )
    key = Qt.Key.Key_Down if row >= view.currentIndex().row() else Qt.Key.Key_Up
    while view.currentIndex().row() != row:
        qtbot.keyClick(view, key)


def sort_by(qtbot, view, column: int) -> None:
    """Click the header of ``column`` (a second call reverses the order)."""
    header = view.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 4))


def edit_cell(qtbot, view, row: int, column: int, text: str) -> None:
    """Select a cell, press F2, type ``text`` over what it holds and press Return."""
    click_row(qtbot, view, row, column)
    qtbot.keyClick(view, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits from the event loop
    qtbot.waitUntil(lambda: view.state() != view.State.EditingState)


def click_anchor(qtbot, browser, href: str) -> None:
    """Click the link ``href`` where a text browser draws it."""
    doc = browser.document()
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.charFormat().anchorHref() == href:
                cursor = browser.textCursor()
                cursor.setPosition(frag.position() + min(1, frag.length() - 1))
                browser.setTextCursor(cursor)
                browser.ensureCursorVisible()  # scrolled to, as a person scrolls to it
                rect = browser.cursorRect(cursor)
                activate(qtbot, browser)
                qtbot.mouseClick(
                    browser.viewport(),
                    Qt.MouseButton.LeftButton,
                    pos=QPoint(rect.left() + 1, rect.center().y()),
                )
                return
            it += 1
        block = block.next()
    raise AssertionError(f"no link {href!r} in the text")


def menu_item(qtbot, menu, starts_with: str) -> None:
    """In an open menu, walk down to the entry whose text starts with ``starts_with`` and press
    Return."""
    qtbot.waitUntil(menu.isVisible)
    actions = [a for a in menu.actions() if not a.isSeparator() and a.isEnabled()]
    target = next(a for a in actions if a.text().startswith(starts_with))
    while menu.activeAction() is not target:
        qtbot.keyClick(menu, Qt.Key.Key_Down)
    qtbot.keyClick(menu, Qt.Key.Key_Return)


def go_to_unit(qtbot, panel, unit: int) -> None:
    """In an adjudication panel, show ``unit`` as a person does: if the queue does not list it,
    choose "all" in its filter; then click the queue's first visible row and walk down (or up)
    to the unit's row with the arrow keys."""
    model = panel.queue_model
    if model.row_of(unit) < 0:
        choose(qtbot, panel.toolbar.filter_combo, "all")
    row = model.row_of(unit)
    assert row >= 0, f"unit {unit} is not in the queue"
    click_row(qtbot, panel.queue_view, row, 1)
    qtbot.waitUntil(lambda: panel.current == unit)


def open_menu(qtbot, window, menu) -> None:
    """Click the menu bar of ``window`` where it shows ``menu``'s title; the menu opens."""
    activate(qtbot, window)
    bar = window.menuBar()
    rect = bar.actionGeometry(menu.menuAction())
    assert rect.isValid(), f"{menu.title()!r} is not in the menu bar"
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(menu.isVisible)


def menu_command(qtbot, window, menu, starts_with: str) -> None:
    """Open ``menu`` from the menu bar with a click, walk to the entry whose text starts with
    ``starts_with`` with the arrow keys and press Return."""
    open_menu(qtbot, window, menu)
    menu_item(qtbot, menu, starts_with)

"""The unit in the adjudication panel: its context (the kind's rich text) followed by every way
to decide it, each version in its value's colour and clickable — a click accepts it, as in
INCEpTION's curation, where the adjudicator accepts an annotation by clicking it."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QTextBrowser

from iaa_desktop.gui.widgets.colours import ValueColours
from iaa_desktop.gui.widgets.text import direction

CHOOSE = "choose:"


def versions_html(session: Any, i: int, colours: ValueColours) -> str:
    """The choices of unit ``i`` as a table of links (``choose:<n>``, n = position in
    ``session.choices(i)``); the decided one in bold."""
    m = session.model
    d = session.decision(i)
    rows = []
    for n, c in enumerate(session.choices(i)):
        who, _, rest = c.label.partition(":")
        if c.value is None:  # no version: the kind's text for it ("—"; DURel: "?" or empty)
            value = rest.strip()
        else:
            value = rest.strip() or m.describe_value(i, c.value)
        chosen = d is not None and d.choice == c.choice and d.value == c.value
        bg = colours.hex(c.value) if c.value is not None else "#f4f4f4"
        key = f"<b>{html.escape(c.key)}</b>" if c.key else ""
        text = html.escape(value)
        if c.value is not None and not session.read_only:
            text = f"<a href='{CHOOSE}{n}' style='color:#000; text-decoration:none'>{text}</a>"
        weight = "font-weight:bold;" if chosen else ""
        mark = " ✓" if chosen else ""
        rows.append(
            f"<tr><td style='color:#555'>{key}</td><td>{html.escape(who.strip())}</td>"
            f"<td dir='{direction(value)}' style='background:{bg};{weight}'>&nbsp;{text}&nbsp;{mark}</td></tr>"
        )
    return (
        "<p style='color:#555; margin-top:8px'>Versions — press the key or click a version to "
        "accept it:</p><table cellspacing='0' cellpadding='3'>" + "".join(rows) + "</table>"
    )


def unit_page(session: Any, i: int, colours: ValueColours) -> str:
    """The whole page of unit ``i``: context, then the versions."""
    return session.describe_html(i) + versions_html(session, i, colours)


class VersionsInView(QObject):
    """Keeps the versions (the end of the unit's page) in the text pane: when the context and
    the versions are taller than the pane (a large zoom, five annotators), the page is shown
    scrolled down to its end, the context above as far as it fits; and it stays so when the pane
    is resized, until the person scrolls."""

    def __init__(self, browser: QTextBrowser) -> None:
        super().__init__(browser)
        self.browser = browser
        self.following = True
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self._follow)
        bar = browser.verticalScrollBar()
        bar.valueChanged.connect(self._scrolled)
        bar.rangeChanged.connect(lambda _a, _b: self._soon.start() if self.following else None)
        browser.viewport().installEventFilter(self)

    def reveal(self) -> None:
        """A new page: its end in view."""
        self.following = True
        self.browser.document().documentLayout().documentSize()  # laid out: the bar's range
        self._to_end()
        self._soon.start()

    def _follow(self) -> None:
        if self.following:
            self._to_end()

    def _to_end(self) -> None:
        bar = self.browser.verticalScrollBar()
        self._moving = True
        try:
            bar.setValue(bar.maximum())
        finally:
            self._moving = False

    def _scrolled(self, value: int) -> None:
        if not getattr(self, "_moving", False):
            self.following = value >= self.browser.verticalScrollBar().maximum()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.following:
            self._soon.start()
        return super().eventFilter(watched, event)

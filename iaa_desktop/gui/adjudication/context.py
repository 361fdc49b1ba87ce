"""The unit in the adjudication panel: its context (the kind's rich text) followed by every way
to decide it, each version in its value's colour and clickable — a click accepts it, as in
INCEpTION's curation, where the adjudicator accepts an annotation by clicking it."""

from __future__ import annotations

import html
from typing import Any

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

"""The display form of a name, a label or a text, once for the whole GUI.

An annotator's name, a label or an item's text is data of any length: a file may name an
annotator with a megabyte. Qt measures and lays out the whole of a widget's text (a list entry,
a header, a combo box, a label, a window title) whenever it asks for a size, so such a text would
hold the GUI thread for a minute and make widgets wider than any screen. Every widget therefore
shows :func:`shown` (at most :data:`NAME_CHARS` characters of a name or label, :data:`TEXT_CHARS`
of a text in a table cell, cut with "…") and puts at most :data:`TIP_CHARS` characters in a
tooltip (:func:`tip`). The data, the exports and the adjudicated gold keep the text whole.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QListWidgetItem

#: a name or a label (an annotator, a label value, a column title) shows at most this many
#: characters, as in the charts (``core/export/charts.py``)
NAME_CHARS = 80
#: a text in a table cell (an item's text, a passage) shows at most this many characters:
#: more than the widest column holds, so no normal text looks different
TEXT_CHARS = 1000
#: a text read in a pane of its own (an item's text beside its labels) shows at most this many
PASSAGE_CHARS = 10_000
#: a tooltip holds at most this many characters of a text (about a dozen wrapped lines)
TIP_CHARS = 1000
ELLIPSIS = "…"


def _cut(text: str, n: int) -> str:
    """The first ``n`` characters of ``text``, fewer rather than a mark without its letter."""
    while n > 0 and unicodedata.combining(text[n]):
        n -= 1
    return text[:n]


def shown(text: object, limit: int = NAME_CHARS) -> str:
    """``text`` as a widget shows it: whole up to ``limit`` characters, else its first
    ``limit - 1`` characters and "…" (``limit`` characters in all)."""
    s = text if isinstance(text, str) else str(text)
    if len(s) <= limit:
        return s
    return _cut(s, max(limit - 1, 0)) + ELLIPSIS


def shown_text(text: object) -> str:
    """:func:`shown` with the limit of a text in a table cell (:data:`TEXT_CHARS`)."""
    return shown(text, TEXT_CHARS)


def tip(text: object, limit: int = TIP_CHARS) -> str:
    """``text`` as a tooltip holds it: whole up to ``limit`` characters, else its beginning and
    how long it is (the exports have it whole)."""
    s = text if isinstance(text, str) else str(text)
    if len(s) <= limit:
        return s
    return f"{_cut(s, limit)}{ELLIPSIS} ({len(s):,} characters)"


def is_shortened(text: object, limit: int = NAME_CHARS) -> bool:
    """Whether :func:`shown` cuts ``text`` (its tooltip then gives more of it)."""
    return len(text if isinstance(text, str) else str(text)) > limit


def html_name(text: object, limit: int = NAME_CHARS) -> str:
    """A name (or label) for rich text: :func:`shown`, HTML-escaped."""
    return html.escape(shown(text, limit))


def name_item(text: object) -> QListWidgetItem:
    """A list entry showing a name (:func:`shown`), a longer part of it in its tooltip and the
    whole of it as its :data:`Qt.ItemDataRole.UserRole` data."""
    item = QListWidgetItem(shown(text))
    if is_shortened(text):
        item.setToolTip(tip(text))
    item.setData(Qt.ItemDataRole.UserRole, text)
    return item


def add_names(combo: QComboBox, names: Iterable[Any], data: Iterable[Any] | None = None) -> None:
    """Add an entry to ``combo`` per name: the name shown (:func:`shown`), the whole name (or
    the matching ``data``) as the entry's data (``currentData()``), more of it in a tooltip."""
    values = list(names)
    datas = list(data) if data is not None else values
    for name, value in zip(values, datas):
        combo.addItem(shown(name), value)
        if is_shortened(name):
            combo.setItemData(combo.count() - 1, tip(name), Qt.ItemDataRole.ToolTipRole)


__all__ = [
    "PASSAGE_CHARS",
    "add_names",
    "html_name",
    "name_item",
    "ELLIPSIS",
    "NAME_CHARS",
    "TEXT_CHARS",
    "TIP_CHARS",
    "is_shortened",
    "shown",
    "shown_text",
    "tip",
]

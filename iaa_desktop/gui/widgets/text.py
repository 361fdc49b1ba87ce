"""Right-to-left text, once for the whole GUI.

Qt's item views lay a cell's text out with the view's direction; a Hebrew or Arabic label in a
left-to-right table then shows its punctuation on the wrong end. :func:`bidi_cell` wraps such a
text in a right-to-left embedding (U+202B … U+202C, Unicode Bidirectional Algorithm, UAX #9 §2.2)
and :func:`is_rtl` decides by the first strong character, as the algorithm's rule P2 does.
"""

from __future__ import annotations

import html
import unicodedata

from iaa_desktop.core.bidi import escape_bidi

RLE, PDF = "\u202b", "\u202c"


def is_rtl(text: object) -> bool:
    """Whether the first strong character of ``text`` is right-to-left (UAX #9, rule P2)."""
    if not isinstance(text, str):
        return False
    for ch in text:
        d = unicodedata.bidirectional(ch)
        if d in ("R", "AL"):
            return True
        if d == "L":
            return False
    return False


def bidi_cell(text: str) -> str:
    """``text`` embedded right-to-left when it reads right to left (for item-view cells); a
    bidirectional control within it is shown escaped, never obeyed."""
    text = escape_bidi(text)
    return f"{RLE}{text}{PDF}" if is_rtl(text) else text


def direction(text: str) -> str:
    """``"rtl"`` or ``"ltr"`` for an HTML ``dir`` attribute."""
    return "rtl" if is_rtl(text) else "ltr"


def html_paragraph(text: str, style: str = "") -> str:
    """An escaped paragraph whose direction and alignment follow its text (Qt's rich text does
    not honour ``dir='auto'``)."""
    d = direction(text)
    align = "right" if d == "rtl" else "left"
    st = f" style='{style}'" if style else ""
    body = html.escape(text).replace("\n", "<br/>")
    return f"<p dir='{d}' align='{align}'{st}>{body}</p>"


def wrap_tip(text: str) -> str:
    """Plain text as a rich-text tooltip: Qt word-wraps rich-text tooltips at about 80 average
    characters, where a plain one is a single line as wide as the screen."""
    if not text:
        return text
    if text.lstrip().startswith("<"):
        return text  # rich text already
    return "<p>" + html.escape(text).replace("\n", "<br/>") + "</p>"

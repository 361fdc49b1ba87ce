"""Rich text of a unit's context for the adjudication panel (Qt's HTML subset; no Qt here).

Qt's rich text does not resolve ``dir='auto'``: a paragraph's direction is set from its first
strong character (Unicode Bidirectional Algorithm, rule P2), so Hebrew and Arabic read right to
left with their punctuation on the correct side.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence

#: metadata columns shown as the unit's text (large), in this order of preference
TEXT_COLUMNS = ("text", "sentence", "review", "passage", "context", "content", "body", "title")


def is_rtl(text: str) -> bool:
    """Whether the first strong character of ``text`` is right-to-left (UAX #9, rule P2)."""
    for ch in str(text):
        d = unicodedata.bidirectional(ch)
        if d in ("R", "AL"):
            return True
        if d == "L":
            return False
    return False


def paragraph(text: str, style: str = "", escape: bool = True) -> str:
    """A paragraph whose direction and alignment follow its first strong character."""
    rtl = is_rtl(text)
    body = html.escape(text).replace("\n", "<br/>") if escape else text
    st = f" style='{style}'" if style else ""
    return f"<p dir='{'rtl' if rtl else 'ltr'}' align='{'right' if rtl else 'left'}'{st}>{body}</p>"


def split_text(context: Sequence[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """The texts of the unit (columns named like a text, or long values) and the other metadata."""
    texts, meta = [], []
    for col, value in context:
        if col.lower() in TEXT_COLUMNS or len(value) > 60:
            texts.append(value)
        else:
            meta.append((col, value))
    return texts, meta


def context_block(
    heading: str,
    context: Sequence[tuple[str, str]] = (),
    notes: Sequence[tuple[str, str, str]] = (),
) -> str:
    """Heading, the unit's text in a larger font, its metadata on one line, the annotators' notes."""
    texts, meta = split_text(context)
    out = [f"<p><b>{html.escape(heading)}</b></p>"]
    for t in texts:
        out.append(paragraph(t, "font-size:large"))
    if meta:
        out.append(
            "<p style='color:#444'>"
            + " · ".join(f"{html.escape(c)}: <b>{html.escape(v)}</b>" for c, v in meta)
            + "</p>"
        )
    if not texts and not meta:
        out.append(
            "<p style='color:#777'><i>The inputs have no text or metadata column for this unit "
            "(add one, e.g. <code>text</code>, to see it here).</i></p>"
        )
    for who, col, value in notes:
        out.append(
            "<p style='color:#444'>"
            f"<i>{html.escape(who)}</i> ({html.escape(col)}): {html.escape(value)}</p>"
        )
    return "".join(out)

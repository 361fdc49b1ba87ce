"""Bidirectional control characters in names taken from the inputs.

An annotator, label, document or item name may hold a bidirectional formatting character
(Unicode Bidirectional Algorithm, UAX #9 §2: the embeddings, overrides and isolates U+202A–U+202E
and U+2066–U+2069, the marks U+200E, U+200F and U+061C). Written raw into a report, an unclosed
right-to-left override (U+202E) reverses the rest of the line, other names and figures included.
Outputs meant to be read (HTML, PDF, the window) show each such character escaped, as
``<U+202E>``; CSV files keep the text (so it reads back the same) inside a first-strong isolate
(U+2068 … U+2069), which ends every embedding and override opened within it (UAX #9, rule X6a).
"""

from __future__ import annotations

import re

#: the bidirectional formatting characters of UAX #9 §2 and the Arabic letter mark
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_CONTROL = re.compile(f"[{BIDI_CONTROLS}]")
FSI, PDI = "\u2068", "\u2069"


def has_bidi_controls(text: str) -> bool:
    return _CONTROL.search(text) is not None


def escape_bidi(text: str) -> str:
    """``text`` with every bidirectional control shown as ``<U+XXXX>``.

    >>> escape_bidi("A\\u202eB")
    'A<U+202E>B'
    """
    return _CONTROL.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def isolate_bidi(text: str) -> str:
    """``text`` inside a first-strong isolate when it holds a bidirectional control."""
    return f"{FSI}{text}{PDI}" if has_bidi_controls(text) else text


def unisolate_bidi(text: str) -> str:
    """The inverse of :func:`isolate_bidi` (for reading written files back)."""
    if text.startswith(FSI) and text.endswith(PDI) and has_bidi_controls(text[1:-1]):
        return text[1:-1]
    return text

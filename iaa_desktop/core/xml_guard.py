"""Checks on XML bytes before a library parses them (UIMA CAS XMI, a type system).

* A document type declaration (``<!DOCTYPE …>``) is refused: no annotation format this
  application reads needs one, and its entities are how an XML file expands to gigabytes
  ("billion laughs", OWASP XML Security Cheat Sheet) or pulls in a file of this computer or of
  the network ("XML external entity"). Nothing is expanded or fetched: the bytes are only looked at.
* More elements than a document may hold is refused before parsing: dkpro-cassis builds a Python
  object for each (some 70,000 a second), so an XMI of 4 million spans, 200 KB zipped, would
  take a minute of CPU and gigabytes before any other check could run.
"""

from __future__ import annotations

import re
from pathlib import Path

from iaa_desktop.core.errors import ReaderError

#: the most XML elements (annotations, tokens, sentences …) read from one document's XMI
MAX_XMI_ELEMENTS = 1_000_000
#: the most XML elements of a type system (INCEpTION's, with every DKPro layer: some 5,000);
#: dkpro-cassis reads one again for every document
MAX_TYPESYSTEM_ELEMENTS = 50_000
#: the largest XMI file read
MAX_XMI_BYTES = 64 * 1024 * 1024
#: the longest document text (``sofaString``) read from an XMI file, in bytes: dkpro-cassis takes
#: some 190 bytes of memory for each character of it (its UTF-16 offset tables), so a text of
#: 10 MiB would take 2 GB (and lxml refuses a text over 10 MB anyway)
MAX_SOFA_BYTES = 4 * 1024 * 1024
#: a document type declaration, in the prolog (before the root element); UTF-8 or a one-byte
#: encoding (XML in UTF-16 is checked after decoding its first characters)
_DOCTYPE = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)


def _prolog(raw: bytes) -> bytes:
    """The start of ``raw`` up to its root element, as bytes in a one-byte form."""
    head = raw[: 1 << 20]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head[1:2] == b"\x00" or head[:1] == b"\x00":
        for enc in ("utf-16", "utf-16-le", "utf-16-be"):
            try:
                head = head[: len(head) // 2 * 2].decode(enc, errors="replace").encode("utf-8")
                break
            except (UnicodeDecodeError, LookupError):
                continue
    return head


def check_xml(
    raw: bytes, where: str | Path, document: bool = False, type_system: bool = False
) -> None:
    """Raise a :class:`ReaderError` naming ``where`` when ``raw`` declares a document type
    (entities), when a ``document``'s XMI is larger than its limits (bytes, text, elements) or
    a ``type_system`` holds more than :data:`MAX_TYPESYSTEM_ELEMENTS` elements."""
    head = _prolog(raw)
    m = _DOCTYPE.search(head)
    if m is not None:
        line = head.count(b"\n", 0, m.start()) + 1
        raise ReaderError(
            where,
            line,
            "the XML declares a document type (<!DOCTYPE> or <!ENTITY>), which no annotation "
            "format needs and which can expand to gigabytes or read other files; it was not read.",
        )
    if type_system and raw.count(b"<") > MAX_TYPESYSTEM_ELEMENTS:
        raise ReaderError(
            where,
            None,
            f"the type system holds more than {MAX_TYPESYSTEM_ELEMENTS:,} elements, far more "
            "than a type system describes; it was not read.",
        )
    if document and len(raw) > MAX_XMI_BYTES:
        raise ReaderError(
            where,
            None,
            f"the XMI file is {len(raw) / 2**20:,.0f} MiB, more than the "
            f"{MAX_XMI_BYTES / 2**20:,.0f} MiB read from one document; it was not read.",
        )
    if document:
        longest = _longest_sofa(raw)
        if longest > MAX_SOFA_BYTES:
            raise ReaderError(
                where,
                None,
                f"the document's text is {longest / 2**20:,.1f} MiB, more than the "
                f"{MAX_SOFA_BYTES / 2**20:,.0f} MiB read from one XMI document; it was not read.",
            )
        max_elements = MAX_XMI_ELEMENTS
        n = raw.count(b"<")  # every element has one; comments, closing tags: an upper bound
        if n > max_elements:
            n = raw.count(b"<") - raw.count(b"</") - raw.count(b"<!--") - raw.count(b"<?")
        if n > max_elements:
            raise ReaderError(
                where,
                None,
                f"the XML holds {n:,} elements (annotations, tokens …), more than the "
                f"{max_elements:,} read from one document; it was not read.",
            )


def _longest_sofa(raw: bytes) -> int:
    """The length in bytes of the longest ``sofaString`` attribute of an XMI file."""
    longest, k = 0, 0
    while (k := raw.find(b"sofaString=", k)) >= 0:
        k += len(b"sofaString=")
        quote = raw[k : k + 1]
        if quote not in (b'"', b"'"):
            continue
        end = raw.find(quote, k + 1)
        if end < 0:
            end = len(raw)
        longest = max(longest, end - k - 1)
        k = end
    return longest

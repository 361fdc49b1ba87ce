"""XML read without a DTD: no entity is declared or expanded and nothing is fetched.

Python's expat parser expands entities a document declares in its DTD (the "billion laughs") and
may be asked to resolve external ones; an annotation file never needs either, so a document type
declaration, an entity declaration or a reference to an undeclared entity is refused here (as
defusedxml refuses them, without depending on it). Every element keeps the line it starts on, for
messages that name the file and the line.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from xml.parsers import expat

from iaa_desktop.core.errors import ReaderError


@dataclass(slots=True)
class Element:
    """An element: its tag, attributes, text (character data directly inside it), children and
    the line it starts on.

    Few objects the garbage collector tracks, as an ELAN file of hours holds hundreds of thousands
    of elements and each full collection visits them all while holding the interpreter lock
    (the window's thread waits): no instance dictionary (slots), and an element without children
    shares one empty tuple instead of holding an empty list (attribute dictionaries of strings
    are not tracked)."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: Sequence[Element] = ()
    text: str = ""

    def get(self, name: str, default: str = "") -> str:
        return self.attrib.get(name, default)

    def iter(self, tag: str) -> list[Element]:
        """The children named ``tag`` (direct children only)."""
        return [c for c in self.children if c.tag == tag]

    def find(self, tag: str) -> Element | None:
        return next((c for c in self.children if c.tag == tag), None)


#: bytes fed to the parser at a time
CHUNK = 1 << 18

_apart_lock = threading.Lock()
#: readers inside :func:`set_apart` now, and whether the collector ran before the first came in
_apart: list[int] = [0, 1]


@contextmanager
def set_apart() -> Iterator[None]:
    """Keep a large tree out of the garbage collector's way while it is built and read.

    Every full collection visits every object the collector tracks while holding the
    interpreter lock, so while a worker builds a tree of hundreds of thousands of elements (an
    ELAN file of hours) the window's thread waits for each of them (tenths of a second, several
    times). Inside this context automatic collections are paused (:func:`gc.disable`; the
    tree has no reference cycles, and it is freed by its reference counts before leaving); they
    resume when the last reader inside leaves, if they ran before the first came in."""
    with _apart_lock:
        if _apart[0] == 0:
            _apart[1] = int(gc.isenabled())
            gc.disable()
        _apart[0] += 1
    try:
        yield
    finally:
        with _apart_lock:
            _apart[0] -= 1
            if _apart[0] == 0 and _apart[1]:
                gc.enable()


def release(root: Element, batch: int = 4096) -> None:
    """Free a large tree a slice at a time: freeing it at once would hold the interpreter lock
    until its last element is gone (the window's thread waits); between slices other threads
    run."""
    for child in root.children:
        kids = child.children
        if isinstance(kids, list):
            while kids:
                del kids[-batch:]
    if isinstance(root.children, list):
        root.children.clear()


class _Refused(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def parse(raw: bytes, path: Path | str) -> Element:
    """The root element of ``raw`` (an XML document in any encoding its declaration names),
    fed to the parser :data:`CHUNK` bytes at a time.

    Raises :class:`ReaderError` with the line for malformed XML, a DTD or an entity."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    stack: list[Element] = []
    root: list[Element] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        el = Element(tag, attrs, parser.CurrentLineNumber)
        if stack:
            parent = stack[-1]
            if isinstance(parent.children, list):
                parent.children.append(el)
            else:  # its first child
                parent.children = [el]
        else:
            root.append(el)
        stack.append(el)

    def end(_tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if stack:
            stack[-1].text += data

    def refuse_dtd(*_args: object) -> None:
        raise _Refused(
            parser.CurrentLineNumber,
            "the XML declares a document type (DTD); annotation files have none, and it is not "
            "read (its entities could expand without bound or fetch other files).",
        )

    def refuse_entity(*_args: object) -> None:
        raise _Refused(parser.CurrentLineNumber, "the XML refers to an entity; it is not read.")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_entity
    parser.ExternalEntityRefHandler = refuse_entity  # type: ignore[assignment]
    parser.SkippedEntityHandler = refuse_entity
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        for at in range(0, len(raw), CHUNK):
            parser.Parse(raw[at : at + CHUNK], False)
        parser.Parse(b"", True)
    except _Refused as e:
        raise ReaderError(path, e.line, e.message) from None
    except expat.ExpatError as e:
        raise ReaderError(
            path, e.lineno, f"not well-formed XML ({expat.ErrorString(e.code)})."
        ) from None
    if not root:
        raise ReaderError(path, None, "the file holds no XML element.")
    return root[0]

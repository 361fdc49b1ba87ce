"""XML read without a DTD: no entity is declared or expanded and nothing is fetched.

Python's expat parser expands entities a document declares in its DTD (the "billion laughs") and
may be asked to resolve external ones; an annotation file never needs either, so a document type
declaration, an entity declaration or a reference to an undeclared entity is refused here (as
defusedxml refuses them, without depending on it). Every element keeps the line it starts on, for
messages that name the file and the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from iaa_desktop.core.errors import ReaderError


@dataclass
class Element:
    """An element: its tag, attributes, text (character data directly inside it), children and
    the line it starts on."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)
    text: str = ""

    def get(self, name: str, default: str = "") -> str:
        return self.attrib.get(name, default)

    def iter(self, tag: str) -> list[Element]:
        """The children named ``tag`` (direct children only)."""
        return [c for c in self.children if c.tag == tag]

    def find(self, tag: str) -> Element | None:
        return next((c for c in self.children if c.tag == tag), None)


class _Refused(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def parse(raw: bytes, path: Path | str) -> Element:
    """The root element of ``raw`` (an XML document in any encoding its declaration names).

    Raises :class:`ReaderError` with the line for malformed XML, a DTD or an entity."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    stack: list[Element] = []
    root: list[Element] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        el = Element(tag, attrs, parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(el)
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
        parser.Parse(raw, True)
    except _Refused as e:
        raise ReaderError(path, e.line, e.message) from None
    except expat.ExpatError as e:
        raise ReaderError(
            path, e.lineno, f"not well-formed XML ({expat.ErrorString(e.code)})."
        ) from None
    if not root:
        raise ReaderError(path, None, "the file holds no XML element.")
    return root[0]

"""Parsers of annotation tools' exports into neutral values (:mod:`.model`).

One module per format; each has ``FORMAT`` (a short name), ``TITLE``, a ``mismatch`` test that
says why a file is *not* of that format (``None`` when it is), and ``parse(path, ...)`` returning
a :class:`~iaa_desktop.core.formats.model.Parsed`. The kinds decide what the values mean;
:func:`identify` tells which formats a file fits and why the others do not, for messages that
list what was tried.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from iaa_desktop.core.formats.model import (
    Chain,
    Document,
    Judgment,
    Parsed,
    Relation,
    Span,
    utf16_to_codepoints,
)

__all__ = [
    "FORMATS",
    "Chain",
    "Document",
    "FormatInfo",
    "Judgment",
    "Parsed",
    "Relation",
    "Span",
    "identify",
    "read_head",
    "utf16_to_codepoints",
]

#: the formats recognised by the structure of their first task or record
JSON_FORMATS = ("label-studio", "doccano", "prodigy")

#: bytes read to recognise a format
HEAD_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class FormatInfo:
    name: str
    title: str
    module: str
    #: "text" formats are recognised from the start of the file, "zip" ones from the archive
    container: str = "text"


FORMATS: tuple[FormatInfo, ...] = (
    FormatInfo("webanno-tsv3", "WebAnno / INCEpTION TSV 3.x", "webanno_tsv"),
    FormatInfo("inception-zip", "INCEpTION project export (ZIP)", "inception", "zip"),
    FormatInfo("label-studio", "Label Studio JSON export", "label_studio"),
    FormatInfo("doccano", "doccano JSONL export", "doccano"),
    FormatInfo("prodigy", "Prodigy JSONL (db-out)", "prodigy"),
)


def read_head(path: Path, n: int = HEAD_BYTES) -> str:
    """The start of a file as text ("" when it cannot be read or is not text)."""
    from iaa_desktop.core.textio import read_head as head_of

    return head_of(path, n)


def module(info: FormatInfo):
    import importlib

    return importlib.import_module(f"iaa_desktop.core.formats.{info.module}")


def identify(path: Path, head: str | None = None) -> dict[str, str | None]:
    """Format name → ``None`` when ``path`` fits it, else the reason it does not."""
    path = Path(path)
    out: dict[str, str | None] = {}
    from iaa_desktop.core.textio import is_zip as starts_as_zip

    is_zip = starts_as_zip(path)
    if head is None and not is_zip:
        head = read_head(path)
    for info in FORMATS:
        mod = module(info)
        if info.container == "zip":
            out[info.name] = mod.mismatch_zip(path) if is_zip else "not a ZIP archive"
        else:
            out[info.name] = (
                "a ZIP archive, not text"
                if is_zip
                # the JSON formats parse the first task or record, however long, from the file
                else mod.mismatch(head or "", path)
                if info.name in JSON_FORMATS
                else mod.mismatch(head or "")
            )
    return out

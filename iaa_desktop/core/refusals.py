"""What a file is, when it is a format the program recognises but does not compare.

A table reader that meets an ELAN or Praat file would otherwise say "only one column was
found", and one that meets a ZIP archive "cannot be read as an Excel workbook": the refusal names
the format and says what to do instead.

* ELAN annotation documents (``.eaf``: XML whose root is ``ANNOTATION_DOCUMENT``; ELAN manual,
  "EAF format") and Praat TextGrids (``File type = "ooTextFile"``, ``Object class =
  "TextGrid"``; Praat manual, "TextGrid file formats") hold time-aligned tiers, which the
  spans kind reads; the other kinds name them;
* an INCEpTION project export (ZIP with ``exportedproject*.json`` and ``annotation/<document>/
  <user>`` members; INCEpTION user guide, "Project export") is read by the span and coreference
  comparisons when its annotations are UIMA CAS XMI or WebAnno TSV 3.x, and refused with the
  format it holds otherwise.
"""

from __future__ import annotations

import zipfile
from pathlib import Path, PurePosixPath

from iaa_desktop.core.textio import is_zip, read_head

#: what zipfile raises for an archive it cannot read (NotImplementedError: a version or
#: compression it does not know; EOFError / RuntimeError: cut or encrypted members)
_ZIP_ERRORS = (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError, RuntimeError)

_TIERS = (
    "its tiers are time-aligned annotations, which this kind of study does not compare; compare "
    "them as labelled spans (--kind spans), which reads ELAN and Praat tiers as units in time."
)

#: formats INCEpTION writes into ``annotation/`` by the suffix of their files
_INCEPTION_FORMATS = {
    ".xmi": "UIMA CAS XMI",
    ".tsv": "WebAnno TSV",
    ".conllu": "CoNLL-U",
    ".conll": "CoNLL",
    ".json": "UIMA CAS JSON",
    ".bin": "UIMA binary CAS",
    ".ser": "UIMA binary CAS",
    ".ann": "brat",
    ".xml": "XML",
    ".txt": "plain text",
    ".ttl": "NIF",
}


def what_it_is(path: Path) -> str | None:
    """A refusal naming the format of ``path`` and what to do, or None for any other file."""
    path = Path(path)
    if is_zip(path):
        return _inception_export(path)
    head = read_head(path, 2048)
    if path.suffix.lower() == ".eaf" or "<ANNOTATION_DOCUMENT" in head:
        return "an ELAN annotation document (.eaf): " + _TIERS
    if path.suffix.lower() == ".textgrid" or ('"ooTextFile"' in head and '"TextGrid"' in head):
        return "a Praat TextGrid: " + _TIERS
    return None


def _inception_export(path: Path) -> str | None:
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            inner = _inner_suffixes(zf, names)
    except _ZIP_ERRORS:
        return None
    if not any(PurePosixPath(n).name.startswith("exportedproject") for n in names) and not any(
        n.startswith("annotation/") for n in names
    ):
        return None
    found = sorted(
        {_INCEPTION_FORMATS.get(s, s or "files without a suffix") for s in inner} - {"plain text"}
    )
    if found and set(found) <= {"UIMA CAS XMI", "WebAnno TSV"}:
        return (
            "an INCEpTION project export: it holds span or coreference annotations; compare it "
            "as labelled spans or as coreference."
        )
    what = " and ".join(found) if found else "no annotation files"
    return (
        f"an INCEpTION project export in another format ({what}): export the project again "
        "with the format 'UIMA CAS XMI' to compare its annotations."
    )


def _inner_suffixes(zf: zipfile.ZipFile, names: list[str]) -> set[str]:
    """The suffixes of the annotation files of an export (inside the per-user ZIPs too)."""
    out: set[str] = set()
    budget = 256 * 1024 * 1024  # unpacked in all: the inner archives' names are all it needs
    for n in names:
        p = PurePosixPath(n)
        if len(p.parts) != 3 or p.parts[0] not in ("annotation", "curation"):
            continue
        if p.suffix.lower() != ".zip":
            out.add(p.suffix.lower())
            continue
        info = zf.getinfo(n)
        if info.file_size > 64 * 1024 * 1024 or info.file_size > budget:
            continue
        budget -= info.file_size
        try:
            import io

            with zipfile.ZipFile(io.BytesIO(zf.read(n))) as inner:
                out.update(
                    PurePosixPath(m).suffix.lower()
                    for m in inner.namelist()
                    if not m.endswith("/") and PurePosixPath(m).name.lower() != "typesystem.xml"
                )
        except _ZIP_ERRORS:
            continue
    return out


__all__ = ["what_it_is"]

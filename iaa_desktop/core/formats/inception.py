"""INCEpTION project export (ZIP): every annotator's work on every document.

Documented in the INCEpTION user guide, sections "Project export" and "UIMA CAS XMI"
(https://inception-project.github.io/releases/latest/docs/user-guide.html#sect_projects_export).
The archive holds ``exportedproject*.json`` and one folder per document under ``annotation/``
with one file per user: ``annotation/<document>/<user>.zip`` holding ``<document>.xmi`` and
``TypeSystem.xml`` (or the XMI and type system unzipped in that folder; a TSV 3.x export holds
``.tsv`` files instead). ``curation/<document>/CURATION_USER.*`` is the curated version, read
only when asked for. The XMI is read with the ``dkpro-cassis`` library, which also converts the
UTF-16 offsets of UIMA to code points.

Spans are the annotations of every layer except the structural ones (tokens, sentences, document
metadata); a type with ``Governor`` and ``Dependent`` features is a relation layer; a type with a
``first`` feature is a chain layer whose links follow ``next``.
"""

from __future__ import annotations

import contextlib
import io
import warnings
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from iaa_desktop.core import xml_guard
from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats import webanno_tsv
from iaa_desktop.core.formats.model import Chain, Document, Parsed, Relation, Span
from iaa_desktop.core.refusals import what_it_is
from iaa_desktop.core.textio import check_input_file, decode_text
from iaa_desktop.core.xml_guard import check_xml

FORMAT = "inception-zip"
TITLE = "INCEpTION project export (ZIP)"

#: users that are not annotators: the document as imported, before anyone annotated it
_NOT_ANNOTATORS = {"INITIAL_CAS"}
CURATION_USER = "CURATION_USER"
#: layers that structure the text rather than annotate it
_STRUCTURAL_PREFIXES = (
    "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.",
    "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.",
    "uima.tcas.DocumentAnnotation",
    "de.tudarmstadt.ukp.clarin.webanno.api.type.",
    "de.tudarmstadt.ukp.inception.",
)
_PRIMITIVES = {
    "uima.cas.String",
    "uima.cas.Integer",
    "uima.cas.Float",
    "uima.cas.Double",
    "uima.cas.Boolean",
    "uima.cas.Long",
    "uima.cas.Short",
    "uima.cas.Byte",
}
_SKIP_FEATURES = {"sofa", "begin", "end"}


#: what reading a damaged archive member raises: a bad CRC or header, broken deflate data, a
#: member cut short, an unknown compression method, an encrypted member
ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError)
#: largest archive member read (bytes, as its header declares; zipfile reads no more than that)
MAX_MEMBER_BYTES = 512 * 1024 * 1024
#: the most bytes read from one export, the members of the archives inside it included (a
#: project export is ZIPs inside a ZIP: per-member limits alone let 16 users' members of
#: 400 MiB each unpack to 6.4 GiB); every document's text is kept while the study runs
MAX_UNPACKED_TOTAL = 512 * 1024 * 1024
#: largest XMI member read: parsing one takes some four times its size in memory
MAX_XMI_BYTES = xml_guard.MAX_XMI_BYTES


class Unpacked:
    """The bytes unpacked so far from one archive and the archives inside it, within
    :data:`MAX_UNPACKED_TOTAL`."""

    def __init__(self, archive: str | Path) -> None:
        self.archive = archive
        self.total = 0
        self.exceeded = False

    def charge(self, size: int) -> None:
        """Count ``size`` more bytes; a :class:`ReaderError` naming the archive past the limit."""
        self.total += size
        if self.total > MAX_UNPACKED_TOTAL:
            self.exceeded = True
            raise ReaderError(
                self.archive,
                None,
                f"the archive and the archives inside it unpack to more than "
                f"{MAX_UNPACKED_TOTAL / 2**20:,.0f} MiB, the most read from one export; the "
                "rest of it was not read.",
            )


def read_member(
    zf: zipfile.ZipFile, name: str, where: str, unpacked: Unpacked | None = None
) -> bytes:
    """The bytes of archive member ``name``; a :class:`ReaderError` naming ``where`` when it is
    damaged or larger than :data:`MAX_MEMBER_BYTES` (:data:`MAX_XMI_BYTES` for an XMI file), or
    naming the archive when ``unpacked`` (the bytes read from it so far) would pass
    :data:`MAX_UNPACKED_TOTAL`."""
    try:
        size = zf.getinfo(name).file_size
        xmi = name.lower().endswith(".xmi")
        limit = MAX_XMI_BYTES if xmi else MAX_MEMBER_BYTES
        if size > limit:
            raise ReaderError(
                where,
                None,
                f"the archive member unpacks to {size / 2**20:,.0f} MiB, more than the "
                f"{limit / 2**20:,.0f} MiB read from one {'XMI file' if xmi else 'member'}.",
            )
        if unpacked is not None:
            unpacked.charge(size)
        return zf.read(name)
    except ZIP_ERRORS as e:
        raise ReaderError(where, None, f"the archive member is damaged ({e}).") from None


def mismatch_zip(path: Path) -> str | None:
    """``None`` when ``path`` is an INCEpTION project export, else why it is not."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except ZIP_ERRORS:
        return "not a ZIP archive"
    if any(n.startswith("annotation/") and _member_user(n) for n in names):
        return None
    return "the ZIP archive has no 'annotation/<document>/<user>' files"


def _member_user(name: str) -> str | None:
    parts = PurePosixPath(name).parts
    if len(parts) != 3 or parts[0] not in ("annotation", "curation"):
        return None
    suffix = PurePosixPath(parts[2]).suffix.lower()
    if suffix not in (".zip", ".xmi", ".tsv"):
        return None
    return PurePosixPath(parts[2]).stem


def parse(path: Path | str, include_curation: bool = False) -> Parsed:
    """Read every user's annotations of every document in an INCEpTION project export."""
    path = Path(path)
    check_input_file(path)
    try:
        zf = zipfile.ZipFile(path)
    except ZIP_ERRORS as e:
        raise ReaderError(path, None, f"not a readable ZIP archive ({e}).") from None
    documents: list[Document] = []
    errors: list[ReaderError] = []
    warnings: list[ReaderError] = []
    unpacked = Unpacked(path)
    with zf:
        root_ts = _find_typesystem(zf, "", unpacked)
        members = sorted(
            n for n in zf.namelist() if _member_user(n) and not n.endswith("/") and "/" in n
        )
        for name in members:
            folder, doc, user = _split(name)
            if user in _NOT_ANNOTATORS or name.lower().endswith("typesystem.xml"):
                continue
            if folder == "curation" and not include_curation:
                continue
            annotator = "curation" if folder == "curation" else user
            where = f"{path}!{name}"
            try:
                documents.extend(
                    _read_member(zf, name, doc, annotator, where, root_ts, warnings, unpacked)
                )
            except ReaderError as e:
                errors.append(e)
                if unpacked.exceeded:
                    break
    if not documents and not errors:
        other = what_it_is(path)  # annotations in a format not read: name it
        raise ReaderError(
            path,
            None,
            other
            if other and "another format" in other
            else "the project export holds no annotated document.",
        )
    return Parsed(
        FORMAT, documents=tuple(documents), errors=tuple(errors), warnings=tuple(warnings)
    )


def curation_available(path: Path | str) -> bool:
    """Whether the export holds curated documents (``curation/`` folder)."""
    try:
        with zipfile.ZipFile(path) as zf:
            return any(n.startswith("curation/") and _member_user(n) for n in zf.namelist())
    except ZIP_ERRORS:
        return False


def _split(name: str) -> tuple[str, str, str]:
    parts = PurePosixPath(name).parts
    return parts[0], parts[1], PurePosixPath(parts[2]).stem


def _find_typesystem(
    zf: zipfile.ZipFile, folder: str, unpacked: Unpacked | None = None
) -> bytes | None:
    for n in zf.namelist():
        p = PurePosixPath(n)
        if str(p.parent) in (folder.rstrip("/") or ".",) and p.name.lower() == "typesystem.xml":
            return read_member(zf, n, f"{zf.filename}!{n}", unpacked)
    return None


def _read_member(
    zf: zipfile.ZipFile,
    name: str,
    doc: str,
    annotator: str,
    where: str,
    root_ts: bytes | None,
    warnings: list[ReaderError],
    unpacked: Unpacked | None = None,
) -> Iterator[Document]:
    suffix = PurePosixPath(name).suffix.lower()
    if suffix == ".zip":
        try:
            inner = zipfile.ZipFile(io.BytesIO(read_member(zf, name, where, unpacked)))
        except ZIP_ERRORS:
            raise ReaderError(where, None, "not a readable ZIP archive.") from None
        with inner:
            ts = _find_typesystem(inner, "", unpacked) or root_ts
            for n in sorted(inner.namelist()):
                low = n.lower()
                if low.endswith(".xmi"):
                    raw = read_member(inner, n, f"{where}!{n}", unpacked)
                    yield _from_xmi(raw, ts, doc, annotator, f"{where}!{n}", warnings)
                elif low.endswith(".tsv"):
                    raw = read_member(inner, n, f"{where}!{n}", unpacked)
                    yield _from_tsv(raw, doc, annotator, f"{where}!{n}", warnings)
        return
    if suffix == ".tsv":
        yield _from_tsv(read_member(zf, name, where, unpacked), doc, annotator, where, warnings)
        return
    folder = str(PurePosixPath(name).parent)
    ts = _find_typesystem(zf, folder, unpacked) or root_ts
    yield _from_xmi(read_member(zf, name, where, unpacked), ts, doc, annotator, where, warnings)


def _from_tsv(
    raw: bytes, doc: str, annotator: str, where: str, warnings: list[ReaderError]
) -> Document:
    parsed = webanno_tsv.parse_text(decode_text(raw, where), where, annotator, doc)
    warnings.extend(parsed.errors)
    return parsed.documents[0]


@contextlib.contextmanager
def library_warnings(where: str, problems: list[ReaderError], library: str) -> Iterator[None]:
    """Warnings a library emits inside the block, as problems naming ``where`` (each message
    once) instead of lines printed on the terminal."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    seen: set[str] = set()
    for w in caught:
        text = " ".join(str(w.message).split())
        if text and text not in seen:
            seen.add(text)
            problems.append(ReaderError(where, None, f"{library}: {text}"))


def _from_xmi(
    raw: bytes,
    ts_raw: bytes | None,
    doc: str,
    annotator: str,
    where: str,
    problems: list[ReaderError] | None = None,
) -> Document:
    import cassis  # imported here: only INCEpTION exports need it

    if ts_raw is None:
        raise ReaderError(where, None, "no TypeSystem.xml beside the XMI file; cannot read it.")
    check_xml(ts_raw, where + " (TypeSystem.xml)", type_system=True)
    check_xml(raw, where, document=True)
    # cassis raises many exception types (lxml, ValueError, TypeError) for a broken file; each
    # becomes one error that names the member, and the other members still load
    try:
        with library_warnings(where, problems if problems is not None else [], "dkpro-cassis"):
            ts = cassis.load_typesystem(io.BytesIO(ts_raw))
            cas = cassis.load_cas_from_xmi(io.BytesIO(raw), typesystem=ts, lenient=True)
    except Exception as e:  # noqa: BLE001
        raise ReaderError(where, None, f"the XMI could not be read ({e}).") from None
    return cas_to_document(cas, ts, doc, annotator, where)


def _is_structural(type_name: str) -> bool:
    return type_name.startswith(_STRUCTURAL_PREFIXES)


def _features(fs: Any, type_: Any) -> tuple[tuple[str, str | None], ...]:
    out: list[tuple[str, str | None]] = []
    for f in type_.all_features:
        if f.name in _SKIP_FEATURES or f.rangeType.name not in _PRIMITIVES:
            continue
        value = fs.get(f.name)
        out.append((f.name, None if value is None else str(value)))
    return tuple(out)


def cas_to_document(cas: Any, ts: Any, doc: str, annotator: str, where: str) -> Document:
    """The spans, relations and chains of a CAS as a neutral :class:`Document`.

    One loop sorts every feature structure into spans, relations and chains; it is long because
    each branch is a few lines that share the same lookups.
    """
    text = cas.sofa_string or ""
    spans: list[Span] = []
    relations: list[Relation] = []
    chains: list[Chain] = []
    for fs in cas.select_all_fs():
        type_ = fs.type
        tname = type_.name
        if _is_structural(tname):
            continue
        feature_names = {f.name for f in type_.all_features}
        if "first" in feature_names and not hasattr(fs, "begin"):
            links: list[str] = []
            link = fs.get("first")
            seen: set[int] = set()
            while link is not None and link.xmiID not in seen:
                seen.add(link.xmiID)
                links.append(str(link.xmiID))
                link = (
                    link.get("next") if "next" in {f.name for f in link.type.all_features} else None
                )
            first = fs.get("first")
            layer = first.type.name if first is not None else tname
            chains.append(Chain(str(fs.xmiID), tuple(links), layer))
            continue
        if not ts.is_instance_of(tname, "uima.tcas.Annotation"):
            continue
        feats = _features(fs, type_)
        if {"Governor", "Dependent"} <= feature_names:
            gov, dep = fs.get("Governor"), fs.get("Dependent")
            if gov is None or dep is None:
                continue
            label = next((v for _, v in feats if v is not None), None)
            relations.append(Relation(str(gov.xmiID), str(dep.xmiID), label, tname, feats))
            continue
        label = dict(feats).get("value")
        if label is None:
            label = next((v for _, v in feats if v is not None), None)
        begin, end = int(fs.begin), int(fs.end)
        spans.append(
            Span(begin, end, label, tname, str(fs.xmiID), feats, (), text[begin:end], None)
        )
    spans.sort(key=lambda s: (s.start, -s.end, s.layer, s.id))
    return Document(doc, text, annotator, tuple(spans), tuple(relations), tuple(chains), where)

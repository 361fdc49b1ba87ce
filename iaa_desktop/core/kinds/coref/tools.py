"""Coreference chains of WebAnno/INCEpTION TSV 3.x files and INCEpTION project exports.

The parsing is in :mod:`iaa_desktop.core.formats` (``webanno_tsv``, ``inception``); here each
chain layer's chains become the classes of a :class:`CorefDocument`. Mentions are character
spans (code points) of the document text, identified by their offsets only: the chain link's
``referenceType`` (e.g. ``pr``, ``nam``) is kept as the mention's text label, not as a part of
its identity, so two annotators who chain the same span agree on the mention whatever they
typed. A chain of one link is a singleton.
"""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats import read_head
from iaa_desktop.core.formats.model import Document
from iaa_desktop.core.kinds.coref.readers import CorefDocument, MentionKey


def is_tsv3_with_chains(path: Path) -> bool:
    head = read_head(path, 8192)
    return head.lstrip("\ufeff").startswith("#FORMAT=WebAnno TSV 3") and "#T_CH=" in head


def is_inception_zip(path: Path) -> bool:
    from iaa_desktop.core.formats.inception import mismatch_zip
    from iaa_desktop.core.textio import is_zip

    return is_zip(path) and mismatch_zip(path) is None


def coref_document(doc: Document, name: str | None = None) -> CorefDocument:
    """The chains of a neutral document as a :class:`CorefDocument`."""
    out = CorefDocument(name or doc.name, doc.source, doc.text)
    spans = doc.span_by_id()
    seen: set[MentionKey] = set()
    for chain in doc.chains:
        cls: list[MentionKey] = []
        for sid in chain.mentions:
            span = spans.get(sid)
            if span is None:
                continue
            key = ("", span.start, span.end)
            out.mentions.setdefault(key, doc.text[span.start : span.end])
            if key in seen:
                out.errors.append(
                    ReaderError(
                        doc.source,
                        span.line,
                        f"the span {span.start}–{span.end} is in two chains; kept in the first.",
                    )
                )
                continue
            seen.add(key)
            cls.append(key)
        if cls:
            out.classes.append(cls)
    if not doc.chains:
        out.errors.append(
            ReaderError(doc.source, None, "no coreference chain layer (#T_CH / a chain type).")
        )
    return out


def read_tsv3(path: Path) -> list[CorefDocument]:
    from iaa_desktop.core.formats import webanno_tsv

    parsed = webanno_tsv.parse(path)
    docs = [coref_document(d) for d in parsed.documents]
    for d in docs:
        d.errors[:0] = list(parsed.errors)
    return docs


def read_inception_zip(
    path: Path, include_curation: bool = False
) -> tuple[dict[str, dict[str, CorefDocument]], list[ReaderError]]:
    """Annotator → document name → chains, for every user of an INCEpTION project export."""
    from iaa_desktop.core.formats import inception

    parsed = inception.parse(path, include_curation=include_curation)
    errors = list(parsed.errors) + list(parsed.warnings)
    by: dict[str, dict[str, CorefDocument]] = {}
    for d in parsed.documents:
        cd = coref_document(d)
        errors.extend(cd.errors)
        by.setdefault(d.annotator, {})[d.name] = cd
    return by, errors

"""The spans of a study as flat arrays: one row per span (and per fragment) of every annotator.

Documents are laid end to end in input order on one axis (``offset[d]`` is where document ``d``
starts), so the whole corpus is compared by a few vectorised calls. Identical spans of one
annotator (same label and fragments) count once, as in bratiaa.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.kinds.spans.readers import Span, SpanDocument

#: tokens for the token-level coefficients: runs of word characters, or one other non-space
TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass
class SpanCorpus:
    """Every annotator's spans of every document, as arrays (see the module docstring)."""

    annotators: tuple[str, ...]
    labels: tuple[str, ...]
    names: tuple[str, ...]
    lengths: NDArray[Any]  # characters per document
    texts: list[str | None]
    has: NDArray[Any]  # (annotators × documents) bool: the annotator has the document
    # one row per span
    ann: NDArray[Any]
    doc: NDArray[Any]
    label: NDArray[Any]
    key: NDArray[Any]  # same id ⇔ same document, label and fragments
    where: NDArray[Any]  # same id ⇔ same document and fragments (any label)
    spans: list[Span]
    # one row per fragment
    frag_span: NDArray[Any]
    frag_start: NDArray[Any]  # relative to the document
    frag_end: NDArray[Any]
    duplicates: int = 0
    docs: dict[str, dict[str, SpanDocument]] = field(default_factory=dict)
    #: "ms" when the documents are recordings (ELAN, Praat) and offsets are times; "" for texts
    time_unit: str = ""

    @property
    def offsets(self) -> NDArray[Any]:
        out: NDArray[Any] = np.concatenate([[0], np.cumsum(self.lengths)[:-1]]).astype(np.int64)
        return out

    @property
    def n_spans(self) -> int:
        return len(self.ann)

    def frag_global(self) -> tuple[NDArray[Any], NDArray[Any]]:
        """Fragment bounds on the corpus axis (documents end to end)."""
        off = self.offsets[self.doc[self.frag_span]]
        return self.frag_start + off, self.frag_end + off

    def tokens(self) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
        """Token bounds on the corpus axis and the document of each token."""
        starts, ends, docs = [], [], []
        for d, (text, off) in enumerate(zip(self.texts, self.offsets)):
            if not text:
                continue
            pos = np.array([m.span() for m in TOKEN.finditer(text)], dtype=np.int64).reshape(-1, 2)
            starts.append(pos[:, 0] + off)
            ends.append(pos[:, 1] + off)
            docs.append(np.full(len(pos), d, dtype=np.int64))
        if not starts:
            z = np.zeros(0, dtype=np.int64)
            return z, z, z
        return np.concatenate(starts), np.concatenate(ends), np.concatenate(docs)


def build_corpus(
    annotators: tuple[str, ...], docs: dict[str, dict[str, SpanDocument]]
) -> SpanCorpus:
    """Arrays of ``docs`` (document name → annotator → document), documents in input order:
    the order of the files, or of the records in an export, as the readers met them (the pooled
    unitizing α concatenates the documents in this order, so it must not depend on their names,
    which in a Prodigy export are input hashes)."""
    names = tuple(docs)
    labels = tuple(sorted({s.label for by in docs.values() for d in by.values() for s in d.spans}))
    label_ix = {lab: i for i, lab in enumerate(labels)}
    ann_ix = {a: i for i, a in enumerate(annotators)}
    lengths, texts = [], []
    has = np.zeros((len(annotators), len(names)), dtype=bool)
    rows: list[tuple[int, int, int]] = []
    spans: list[Span] = []
    keys: dict[tuple[Any, ...], int] = {}
    wheres: dict[tuple[Any, ...], int] = {}
    key_ids, where_ids = [], []
    duplicates = 0
    for d, name in enumerate(names):
        by = docs[name]
        text = next((x.text for x in by.values() if x.text is not None), None)
        end = max((s.end for x in by.values() for s in x.spans), default=0)
        # a recording is as long as its file says (ELAN, Praat), at least up to its last unit
        duration = max((int(x.meta.get("duration", 0)) for x in by.values()), default=0)
        lengths.append(len(text) if text is not None else max(end, duration))
        texts.append(text)
        for a, sd in by.items():
            x = ann_ix[a]
            has[x, d] = True
            seen: set[Span] = set()
            for s in sd.spans:
                if s in seen:
                    duplicates += 1
                    continue
                seen.add(s)
                rows.append((x, d, label_ix[s.label]))
                spans.append(s)
                key_ids.append(keys.setdefault((d, s.label, s.fragments), len(keys)))
                where_ids.append(wheres.setdefault((d, s.fragments), len(wheres)))
    arr = np.array(rows, dtype=np.int64).reshape(-1, 3)
    n_frags = np.array([len(s.fragments) for s in spans], dtype=np.int64)
    frag_span = np.repeat(np.arange(len(spans), dtype=np.int64), n_frags)
    flat = np.array([f for s in spans for f in s.fragments], dtype=np.int64).reshape(-1, 2)
    return SpanCorpus(
        annotators=annotators,
        labels=labels,
        names=names,
        lengths=np.array(lengths, dtype=np.int64),
        texts=texts,
        has=has,
        ann=arr[:, 0],
        doc=arr[:, 1],
        label=arr[:, 2],
        key=np.array(key_ids, dtype=np.int64),
        where=np.array(where_ids, dtype=np.int64),
        spans=spans,
        frag_span=frag_span,
        frag_start=flat[:, 0],
        frag_end=flat[:, 1],
        duplicates=duplicates,
        docs=docs,
        time_unit=next(
            (
                x.meta["time_unit"]
                for by in docs.values()
                for x in by.values()
                if "time_unit" in x.meta
            ),
            "",
        ),
    )

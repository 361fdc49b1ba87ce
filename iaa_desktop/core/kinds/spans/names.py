"""Annotator, document and label names of a spans study compared after Unicode NFC
normalization (Unicode Standard Annex #15): "café" with a composed é and with e + a combining
acute are one name. Two raw forms made one are a warning naming the file and line of the first
changed; the texts themselves are left as they are (the offsets count their characters).

Two annotators whose names become one are one annotator when they were read from one file (a
table or tool export naming its annotators), and two annotators told apart by a prime when they
were read from different inputs, as two inputs named alike are.
"""

from __future__ import annotations

from dataclasses import replace

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.kinds.spans.readers import SpanDocument
from iaa_desktop.core.kinds.spec import unique_name
from iaa_desktop.core.nfc import NameForms

ByAnnotator = dict[str, dict[str, SpanDocument]]


def nfc_names(
    by_annotator: ByAnnotator, errors: list[ReaderError]
) -> tuple[ByAnnotator, list[ReaderError]]:
    """``by_annotator`` with every name in NFC, and the merge warnings. Two documents of one
    annotator that become one name are a problem (the second is left out, in ``errors``)."""
    who_forms = NameForms("annotator names")
    doc_forms = NameForms("document names")
    label_forms = NameForms("labels")
    out: ByAnnotator = {}
    files: dict[str, set[str]] = {}
    for who, docs in by_annotator.items():
        first = next(iter(docs.values()), None)
        name = who_forms.see(who, first.path if first else None)
        paths = {d.path for d in docs.values()}
        if name in out and not paths & files[name]:
            name = unique_name(name, out)
        files.setdefault(name, set()).update(paths)
        mine = out.setdefault(name, {})
        for d in docs.values():
            d.name = doc_forms.see(d.name, d.path)
            lines = d.lines if len(d.lines) == len(d.spans) else [None] * len(d.spans)
            labels = [label_forms.see(s.label, d.path, ln) for s, ln in zip(d.spans, lines)]
            d.spans = [s if s.label == n else replace(s, label=n) for s, n in zip(d.spans, labels)]
            had = mine.get(d.name)
            if had is None:
                mine[d.name] = d
            elif had.path == d.path and had.text == d.text and len(had.lines) == len(had.spans):
                for span, line in zip(d.spans, lines):  # rows of one table: one document
                    had.add(span, line)
            else:
                errors.append(
                    ReaderError(
                        d.path, None, f"document {d.name} appears twice for {name}; left out."
                    )
                )
    warnings = [w for f in (who_forms, doc_forms, label_forms) if (w := f.warning()) is not None]
    return out, warnings

"""Annotator, document and mention-type names of a coreference study compared after Unicode NFC
normalization (Unicode Standard Annex #15): "café" with a composed é and with e + a combining
acute are one name. Two raw forms made one are a warning naming the file and line of the first
changed; the texts and covered words are left as they are. Every input (and every user of a
project export) is one annotator, so two whose names become one are told apart by a prime, as
two inputs named alike are.
"""

from __future__ import annotations

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.kinds.coref.readers import CorefDocument, MentionKey
from iaa_desktop.core.kinds.spec import unique_name
from iaa_desktop.core.nfc import NameForms

Documents = dict[str, dict[str, CorefDocument]]  # annotator → document name → document


def nfc_names(
    by_annotator: Documents, errors: list[ReaderError]
) -> tuple[Documents, list[ReaderError]]:
    """``by_annotator`` with every name in NFC, and the merge warnings. Two documents of one
    annotator that become one name are a problem (the second is left out, in ``errors``); the
    annotators keep their order."""
    who_forms = NameForms("annotator names")
    doc_forms = NameForms("document names")
    type_forms = NameForms("mention types")
    out: Documents = {}
    for who, docs in by_annotator.items():
        first = next(iter(docs.values()), None)
        name = who_forms.see(who, first.path if first else None, first.line if first else None)
        name = unique_name(name, out)
        mine = out.setdefault(name, {})
        for d in docs.values():
            d.name = doc_forms.see(d.name, d.path, d.line)
            if d.name in mine:
                errors.append(
                    ReaderError(
                        d.path, d.line, f"document {d.name} appears twice for {name}; left out."
                    )
                )
                continue
            _nfc_types(d, type_forms)
            mine[d.name] = d
    warnings = [w for f in (who_forms, doc_forms, type_forms) if (w := f.warning()) is not None]
    return out, warnings


def _nfc_types(d: CorefDocument, forms: NameForms) -> None:
    """The mention types of ``d`` in NFC (mentions that become one are kept once)."""
    new: dict[MentionKey, MentionKey] = {}
    for key in d.mentions:
        t = forms.see(key[0], d.path, d.line)
        if t != key[0]:
            new[key] = (t, key[1], key[2])
    if not new:
        return
    mentions: dict[MentionKey, str] = {}
    for key, text in d.mentions.items():
        mentions.setdefault(new.get(key, key), text)
    d.mentions = mentions
    classes: list[list[MentionKey]] = []
    seen: set[MentionKey] = set()  # a mention stays in the first class that holds it
    for c in d.classes:
        kept = [k for k in dict.fromkeys(new.get(m, m) for m in c) if k not in seen]
        seen.update(kept)
        if kept:
            classes.append(kept)
    d.classes = classes

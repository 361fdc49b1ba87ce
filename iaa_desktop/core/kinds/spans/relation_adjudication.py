"""Relation units of a spans adjudication, and gold written back with its relations.

A relation unit is one directed pair of arguments (by offsets) that some annotator linked in a
document; an annotator's version is the label of their link (several joined by ``;``), ``""``
when they did not link the pair (``None`` when they lack the document). A link in the other
direction is another unit. Units are decided by key like the span units (``<document>|rel|
<source>><target>``); the adjudicator picks a version, a label (a letter per relation label) or
no link (``x``). Gold in brat standoff gets an ``R`` line per decided link, in WebAnno TSV 3.3 a
relation layer, in UIMA CAS XMI (INCEpTION) a relation annotation with ``Governor`` and
``Dependent``, in Label Studio JSON a ``relation`` result, in doccano JSONL a ``relations`` entry
(``from_id``/``to_id``/``type``), in Prodigy JSONL a ``rel.manual`` relation; the argument spans are added when the
gold spans lack them (with the label most annotators gave a span at those offsets).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.model import Choice
from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.spans.adjudication import (
    COLOURS,
    LABEL_KEYS,
    SpansModel,
    units_for_spans,
)
from iaa_desktop.core.kinds.spans.readers import Span
from iaa_desktop.core.kinds.spans.relations import NO_LABEL, Fragments, Relation

#: a relation unit: document index, source and target arguments
RelationUnit = tuple[int, Fragments, Fragments]


def _frags(f: Fragments) -> str:
    return ",".join(f"{s}-{e}" for s, e in f)


def _quote(text: str, f: Fragments) -> str:
    return "‘\u2068" + " … ".join(text[a:b] for a, b in f)[:40] + "\u2069’"


def _labels(value: str | None) -> list[str]:
    return [p for p in (value or "").split(";") if p]


def relation_rows(
    result: Any,
) -> tuple[list[str], NDArray[Any], list[str], list[str], list[RelationUnit]]:
    """The relation units of a spans result: keys, versions (units × annotators), titles,
    groups (document names) and what each unit is (document, source, target)."""
    corpus = result.corpus
    A = len(corpus.annotators)
    units: dict[RelationUnit, list[list[str]]] = {}
    for d, name in enumerate(corpus.names):
        for x, who in enumerate(corpus.annotators):
            sd = corpus.docs.get(name, {}).get(who)
            for r in sd.relations if sd is not None else ():
                labels = units.setdefault((d, r.source, r.target), [[] for _ in range(A)])[x]
                if r.label not in labels:
                    labels.append(r.label)
    keys, titles, groups, what = [], [], [], []
    rows = []
    for unit in sorted(units, key=lambda u: (u[0], u[1], u[2])):
        d, src, tgt = unit
        name, text = corpus.names[d], corpus.texts[d] or ""
        row = [";".join(sorted(units[unit][x])) if corpus.has[x, d] else None for x in range(A)]
        given = [v for v in row if v is not None]
        kind = "agree" if len(set(given)) == 1 else ("only some" if "" in given else "label")
        keys.append(f"{name}|rel|{_frags(src)}>{_frags(tgt)}")
        titles.append(f"{name} relation {_quote(text, src)} → {_quote(text, tgt)} — {kind}")
        groups.append(name)
        what.append(unit)
        rows.append(row)
    versions = np.empty((len(rows), A), dtype=object)
    for i, row in enumerate(rows):
        versions[i, :] = row
    return keys, versions, titles, groups, what


class SpansRelationsModel(SpansModel):
    """The span units of a spans study followed by its relation units."""

    relation_units: dict[int, RelationUnit]

    def _unit(self, i: int | None) -> RelationUnit | None:
        return self.relation_units.get(i) if i is not None else None

    def format_value(self, value: str | None) -> str:
        try:
            return super().format_value(value)
        except ValueError:  # a relation unit's labels
            return value or "∅ (no link)"

    def value_text(self, i: int, value: str | None) -> str:
        unit = self._unit(i)
        if unit is None:
            return super().value_text(i, value)
        if value is None:
            return "—"
        text = self.corpus.texts[unit[0]] or ""
        link = f"{_quote(text, unit[1])} → {_quote(text, unit[2])}"
        return f"{value} {link}" if value else "∅ (no link)"

    def extra_choices(self, i: int) -> list[Choice]:
        unit = self._unit(i)
        if unit is None:
            return super().extra_choices(i)
        seen = {lab for v in self.versions[i] if v for lab in _labels(v)}
        rel = getattr(self.result, "relations", None)
        every = sorted(seen | set(rel.labels if rel is not None else ()))
        out = [
            Choice(key, f"label {lab}: {self.value_text(i, lab)}", f"label:{lab}", lab)
            for key, lab in zip(LABEL_KEYS, every)
        ]
        out.append(Choice("x", "drop: no link here", "drop", ""))
        return out

    def value_hint(self, i: int) -> str | None:
        """A relation unit's typed value: its labels, not spans."""
        if self._unit(i) is None:
            return super().value_hint(i)
        return "relation LABEL, several joined by ;  (the link source → target as shown)"

    def parse_value(self, text: str, i: int | None = None) -> str:
        if self._unit(i) is None:
            return super().parse_value(text, i)
        labels = [p.strip() for p in text.split(";") if p.strip()]
        if any(" " in lab for lab in labels):
            raise OptionError("a relation label has no spaces; several are joined by ';'.")
        return ";".join(sorted(set(labels)))

    def describe_html(
        self, i: int, names: Sequence[str] | None = None, current: str | None = None
    ) -> str:
        unit = self._unit(i)
        if unit is None:
            return super().describe_html(i, names, current)
        d, src, tgt = unit
        text = self.corpus.texts[d] or ""
        lo = min(src[0][0], tgt[0][0])
        hi = max(src[-1][1], tgt[-1][1])
        a = max(text.rfind("\n", 0, lo) + 1, lo - 80)
        nl = text.find("\n", hi)
        b = min(nl if nl >= 0 else len(text), hi + 80)
        marks = sorted([(f, "#fbb4ae") for f in src] + [(f, "#b3cde3") for f in tgt])
        pieces, pos = [], a
        for (fs, fe), colour in marks:
            if fs < pos:
                continue
            pieces.append(html.escape(text[pos:fs]))
            pieces.append(
                f"<span style='background:{colour}'><b>{html.escape(text[fs:fe])}</b></span>"
            )
            pos = fe
        pieces.append(html.escape(text[pos:b]))
        rows = [f"<p style='margin:2px'><span dir='auto'>\u2068{''.join(pieces)}\u2069</span></p>"]
        names = list(names) if names is not None else list(self.annotators)
        for x, name in enumerate(names):
            v = self.versions[i, x]
            shown = "—" if v is None else (html.escape(v) if v else "∅ no link")
            colour = COLOURS[x % len(COLOURS)]
            rows.append(
                f"<p style='margin:2px'><b>{html.escape(name)}</b>: "
                f"<span style='background:{colour}'>{shown}</span> (source → target)</p>"
            )
        return "".join(rows)

    # -- gold ------------------------------------------------------------------------------------

    def gold_spans(self, gold: NDArray[Any]) -> dict[int, list[Span]]:
        spans_only = np.array(gold, dtype=object)
        for i in self.relation_units:
            spans_only[i] = None
        return super().gold_spans(spans_only)

    def gold_relations(self, gold: NDArray[Any]) -> dict[int, list[Relation]]:
        """Document index → the decided links of the gold."""
        out: dict[int, list[Relation]] = {}
        for i, (d, src, tgt) in self.relation_units.items():
            for lab in _labels(gold[i]):
                out.setdefault(d, []).append(Relation(lab, src, tgt))
        return out

    def _argument_label(self, d: int, frags: Fragments) -> str:
        """The label most annotators gave a span at exactly these offsets."""
        name = self.corpus.names[d]
        found = Counter(
            s.label
            for sd in self.corpus.docs.get(name, {}).values()
            for s in sd.spans
            if s.fragments == frags
        )
        return found.most_common(1)[0][0] if found else NO_LABEL

    def write_gold(self, gold: NDArray[Any], out_dir: Path, notes: Any = None) -> list[Path]:
        """Gold spans and relations in brat standoff, WebAnno TSV 3.3, UIMA CAS XMI, Label Studio
        JSON, doccano or Prodigy JSONL; in the other formats the spans only."""
        if self.fmt not in (
            "brat",
            "label-studio",
            "webanno-tsv3",
            "xmi",
            "inception-zip",
            "doccano",
            "prodigy",
        ):
            return super().write_gold(gold, out_dir, notes)
        from iaa_desktop.core.kinds.spans import tool_writers, writers

        spans = self.gold_spans(gold)
        relations = self.gold_relations(gold)
        for d, rels in relations.items():
            have = {s.fragments for s in spans.get(d, [])}
            for r in rels:
                for arg in (r.source, r.target):
                    if arg not in have:
                        spans.setdefault(d, []).append(Span(self._argument_label(d, arg), arg))
                        have.add(arg)
            spans[d] = sorted(spans[d], key=lambda s: (s.start, s.end, s.label))
        folder = Path(out_dir) / "gold"
        if self.fmt == "brat":
            return writers.write_brat(self.corpus, spans, folder, relations)
        if self.fmt in ("webanno-tsv3", "xmi", "inception-zip"):
            layer, feature = self._layer_feature()
            sources = self._sources(self.fmt)
            write = (
                tool_writers.write_tsv3 if self.fmt == "webanno-tsv3" else tool_writers.write_xmi
            )
            return write(self.corpus, spans, folder, sources, layer, feature, relations)
        if self.fmt == "doccano":
            return tool_writers.write_doccano(self.corpus, spans, folder, relations)
        if self.fmt == "prodigy":
            return tool_writers.write_prodigy(self.corpus, spans, folder, relations)
        info = self._meta("from_name") or {}
        return tool_writers.write_label_studio(self.corpus, spans, folder, info, relations)


def units(result: Any) -> SpansModel:
    """The units of a spans result: its span groups, then its relation units."""
    return with_relation_units(units_for_spans(result), result)


def with_relation_units(model: SpansModel, result: Any) -> SpansModel:
    """``model`` with the relation units of ``result`` after its span units (itself when the
    result has no relations)."""
    if getattr(result, "relations", None) is None:
        return model
    keys, versions, titles, groups, what = relation_rows(result)
    if not keys:
        return model
    n = model.n_units
    both = np.concatenate([np.asarray(model.versions, dtype=object), versions], axis=0)
    out = SpansRelationsModel(
        model.annotators,
        [*model.keys, *keys],
        both,
        titles=[*model.titles, *titles],
        groups=[*model.groups, *groups],
        disagreement=np.concatenate([model.disagreement, _disagreement(versions)]),
        inputs=model.inputs,
        options=model.options,
        result=result,
        fmt=model.fmt,
    )
    out.group_doc = [*model.group_doc, *(w[0] for w in what)]
    out.relation_units = {n + k: w for k, w in enumerate(what)}
    return out


def _disagreement(versions: NDArray[Any]) -> NDArray[Any]:
    """Per relation unit, 1 − the share of the annotators who gave the most common version."""
    out = []
    for row in versions:
        given = [v for v in row if v is not None]
        top = Counter(given).most_common(1)[0][1] if given else 0
        out.append(1.0 - top / len(given) if given else 0.0)
    return np.array(out, dtype=float)

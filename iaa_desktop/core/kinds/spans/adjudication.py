"""Units of the ``spans`` kind: every group of overlapping spans; gold in the inputs' format.

A unit is one group of spans that overlap (any annotator, any label) in one document; an
annotator's version is their spans in the group, each ``LABEL s-e[,s-e]`` joined by ``;`` in text
order, ``""`` when they marked nothing there (``None`` when they lack the document). Unanimous
groups are merged by the ``unanimous`` strategy; for the others the adjudicator picks a version
(1, 2 …), merges the boundaries (``u``: one span over all of them, with the most frequent label),
takes the common part (``i``), changes the label of a version's spans (a letter per label), keeps
the spans of everyone (``k``) or drops them all (``x``).

Gold export in the format most documents were read from: brat standoff (``gold/<document>.ann`` and
``.txt``), a span table ``gold/gold.csv`` (document, start, end, label, text), or a tool's format
(:mod:`.tool_writers`: WebAnno TSV 3.3, UIMA CAS XMI for INCEpTION exports, Label Studio JSON,
doccano JSONL, Prodigy JSONL).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.model import AdjudicationModel, Choice, Suggestion
from iaa_desktop.core.errors import IaaError, OptionError
from iaa_desktop.core.kinds.annotators.suggestions import Part, part_suggestions
from iaa_desktop.core.kinds.spans.readers import Span

#: keys of the label choices (n and p navigate; digits, m, u, i, k, x are taken)
LABEL_KEYS = "abcdefghjlqrstvwy"
COLOURS = ["#8dd3c7", "#ffffb3", "#bebada", "#fbb4ae", "#b3cde3", "#fed9a6", "#b3de69", "#fccde5"]


def encode(spans: Sequence[Span]) -> str:
    return ";".join(s.encode() for s in sorted(spans, key=lambda s: (s.start, s.end, s.label)))


def decode(value: str | None) -> list[Span]:
    if not value:
        return []
    return [Span.decode(p) for p in value.split(";") if p.strip()]


class SpansModel(AdjudicationModel):
    kind = "spans"

    def __init__(self, *args: Any, result: Any = None, fmt: str = "brat", **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.result = result
        self.fmt = fmt
        self.group_doc: list[int] = []

    @property
    def corpus(self) -> Any:
        return self.result.corpus

    def _text(self, i: int) -> str:
        return self.corpus.texts[self.group_doc[i]] or ""

    def format_value(self, value: str | None) -> str:
        """Spans without a document: label and offsets (``PER 10–19``)."""
        return self._spans_text(value, None)

    def value_text(self, i: int, value: str | None) -> str:
        """Spans of unit ``i`` quoting their words from unit ``i``'s own document
        (``PER ‘Maria Ruiz’ 10–19``)."""
        return self._spans_text(value, self._text(i))

    @staticmethod
    def _spans_text(value: str | None, text: str | None) -> str:
        if value is None:
            return "—"
        spans = decode(value)
        if not spans:
            return "∅ (no span)"
        if text is None:
            return "; ".join(f"{s.label} {s.start}–{s.end}" for s in spans)
        return "; ".join(
            f"{s.label} ‘\u2068{' … '.join(text[a:b] for a, b in s.fragments)}\u2069’ {s.start}–{s.end}"
            for s in spans
        )

    def extra_choices(self, i: int) -> list[Choice]:
        def show(v: str | None) -> str:
            return self.value_text(i, v)

        versions = [decode(v) for v in self.versions[i] if v]
        every = [s for v in versions for s in v]
        if not every:
            return []
        labels = Counter(s.label for s in every)
        top = labels.most_common(1)[0][0]
        lo, hi = min(s.start for s in every), max(s.end for s in every)
        out = [
            Choice(
                "u",
                f"merge boundaries: {show(encode([Span(top, ((lo, hi),))]))}",
                "merge",
                encode([Span(top, ((lo, hi),))]),
            )
        ]
        a, b = max(s.start for s in every), min(s.end for s in every)
        if a < b and (a, b) != (lo, hi):
            v = encode([Span(top, ((a, b),))])
            out.append(Choice("i", f"common part: {show(v)}", "common", v))
        base = Counter(encode(v) for v in versions).most_common(1)[0][0]
        for key, lab in zip(LABEL_KEYS, sorted(set(self.corpus.labels) | set(labels))):
            relabelled = encode([Span(lab, s.fragments) for s in decode(base)])
            if relabelled != base:
                out.append(
                    Choice(
                        key,
                        f"label {lab}: {show(relabelled)}",
                        f"label:{lab}",
                        relabelled,
                    )
                )
        union = encode(list(dict.fromkeys(every)))
        out.append(Choice("k", f"keep all: {show(union)}", "keep", union))
        out.append(Choice("x", "drop: no span here", "drop", ""))
        return out

    def parse_value(self, text: str, i: int | None = None) -> str:
        """``LABEL start end`` (or ``LABEL s-e,s-e``), several joined by ``;``; empty = no span."""
        parts = [p.strip() for p in text.split(";") if p.strip()]
        spans = []
        for p in parts:
            bits = p.split()
            try:
                if len(bits) == 3:
                    spans.append(Span(bits[0], ((int(bits[1]), int(bits[2])),)))
                else:
                    spans.append(Span.decode(p))
            except ValueError:
                raise OptionError(
                    f"'{p}' is not a span: type LABEL START END (several joined by ';')."
                ) from None
        n = len(self._text(i)) if i is not None else None
        for s in spans:
            if any(e <= b or (n and e > n) for b, e in s.fragments):
                raise OptionError(f"{s.encode()}: the offsets must lie inside the text.")
        return encode(spans)

    def describe(self, i: int) -> str:
        return self.titles[i]

    # -- forms: every occurrence of a covered text decided at once ---------------------------

    def _unit_spans(self, i: int) -> Counter[Span]:
        """The spans of unit ``i``, with how many annotators marked each."""
        return Counter(s for v in self.versions[i] if v for s in decode(v))

    def _covered(self, i: int, s: Span) -> str:
        from iaa_desktop.core.kinds.spans.occurrences import covered_text

        return covered_text(self._text(i) or None, s.fragments)

    def form(self, i: int) -> str:
        """The covered text most annotators marked in unit ``i`` (the first of equals)."""
        spans = self._unit_spans(i)
        if not spans:
            return ""
        best = max(spans.values())
        return self._covered(i, next(s for s, n in spans.items() if n == best))

    def _form_span(self, i: int, key: str) -> Span | None:
        """The span of unit ``i`` whose covered text is the form ``key`` (most marked first)."""
        from iaa_desktop.core.nfc import fold

        match = self.result.chosen.occurrence_match  # the options the units were made with
        for s, _n in self._unit_spans(i).most_common():
            if fold(self._covered(i, s), match) == key:
                return s
        return None

    def form_treatments(self, i: int) -> list[str]:
        """The labels the form of unit ``i`` received in any unit, most frequent first, and
        "(none)" when some annotator left it unmarked somewhere."""
        from iaa_desktop.core.kinds.occurrences import NOT_MARKED

        key = self.form_key(i)
        counts: Counter[str] = Counter()
        for j in self.units_of_form(key):
            s = self._form_span(j, key)
            if s is None:
                continue
            for v in self.versions[j]:
                if v is None:
                    continue
                labels = [t.label for t in decode(v) if t.fragments == s.fragments]
                counts.update(labels or [NOT_MARKED])
        return [t for t, _n in counts.most_common()]

    def form_value(self, i: int, treatment: str) -> str | None:
        """Unit ``i`` as the one span of the form with the label ``treatment`` ("(none)": no
        span); None when the unit holds no span of the form."""
        from iaa_desktop.core.kinds.occurrences import NOT_MARKED

        s = self._form_span(i, self.form_key(i))
        if s is None:
            return None
        return "" if treatment == NOT_MARKED else encode([Span(treatment, s.fragments)])

    def describe_html(
        self, i: int, names: Sequence[str] | None = None, current: str | None = None
    ) -> str:
        """The sentence around the group once per annotator, with that annotator's spans marked."""
        text = self._text(i)
        names = list(names) if names is not None else list(self.annotators)
        spans = [s for v in self.versions[i] if v for s in decode(v)]
        lo = min((s.start for s in spans), default=0)
        hi = max((s.end for s in spans), default=0)
        a = max(text.rfind("\n", 0, lo) + 1, lo - 120)
        nl = text.find("\n", hi)
        b = min(nl if nl >= 0 else len(text), hi + 120)
        colour = {lab: COLOURS[k % len(COLOURS)] for k, lab in enumerate(self.corpus.labels)}
        rows = []  # the panel shows the unit's title above
        for x, name in enumerate(names):
            mine = sorted(decode(self.versions[i, x]), key=lambda s: s.start)
            pieces, pos = [], a
            for s in mine:
                for fs, fe in s.fragments:
                    if fs < pos:
                        continue
                    pieces.append(html.escape(text[pos:fs]))
                    pieces.append(
                        f"<span style='background:{colour.get(s.label, '#ddd')}'><b>"
                        f"{html.escape(text[fs:fe])}</b><sub>{html.escape(s.label)}</sub></span>"
                    )
                    pos = fe
            pieces.append(html.escape(text[pos:b]))
            rows.append(
                f"<p style='margin:2px'><b>{html.escape(name)}</b>: "
                f"<span dir='auto'>\u2068{''.join(pieces)}\u2069</span></p>"
            )
        return "".join(rows)

    # -- gold ------------------------------------------------------------------------------------

    def gold_spans(self, gold: NDArray[Any]) -> dict[int, list[Span]]:
        """Document index → gold spans (decided units only), in text order."""
        out: dict[int, list[Span]] = {d: [] for d in range(len(self.corpus.names))}
        for i, v in enumerate(gold):
            if v:
                out[self.group_doc[i]].extend(decode(v))
        return {d: sorted(set(s), key=lambda s: (s.start, s.end, s.label)) for d, s in out.items()}

    def write_gold(self, gold: NDArray[Any], out_dir: Path, notes: Any = None) -> list[Path]:
        from iaa_desktop.core.kinds.spans import tool_writers as T
        from iaa_desktop.core.kinds.spans import writers

        spans = self.gold_spans(gold)
        folder = Path(out_dir) / "gold"
        corpus = self.corpus
        if self.fmt == "brat":
            return writers.write_brat(corpus, spans, folder)
        if self.fmt in ("elan", "textgrid"):  # units in time: a gold tier in ELAN or Praat
            from iaa_desktop.core.kinds.spans import timed_writers

            if self.fmt == "elan":
                return timed_writers.write_eaf(corpus, spans, folder)
            return timed_writers.write_textgrid(corpus, spans, folder)
        if self.fmt == "label-studio":
            return T.write_label_studio(corpus, spans, folder, self._meta("from_name") or {})
        if self.fmt == "doccano":
            return T.write_doccano(corpus, spans, folder)
        if self.fmt == "prodigy":
            return T.write_prodigy(corpus, spans, folder)
        if self.fmt in ("webanno-tsv3", "inception-zip", "xmi"):
            layer, feature = self._layer_feature()
            sources = self._sources(self.fmt)
            write = T.write_tsv3 if self.fmt == "webanno-tsv3" else T.write_xmi
            return write(corpus, spans, folder, sources, layer, feature)
        return writers.write_table(corpus, spans, folder)

    def _meta(self, key: str) -> dict[str, Any] | None:
        """The meta data of the first document read with ``key`` in it."""
        for by in self.corpus.docs.values():
            for d in by.values():
                if key in d.meta:
                    meta: dict[str, Any] = d.meta
                    return meta
        return None

    def _layer_feature(self) -> tuple[str, str]:
        from iaa_desktop.core.kinds.spans.options import DEFAULT_FEATURE, DEFAULT_LAYER

        meta = self._meta("layer") or {}
        return meta.get("layer", DEFAULT_LAYER), meta.get("feature", DEFAULT_FEATURE)

    def _sources(self, fmt: str) -> dict[int, tuple[str, tuple[str, ...]]]:
        """Document index → an annotator's source file of it in ``fmt`` (tokens, other layers)."""
        out = {}
        for d, name in enumerate(self.corpus.names):
            for doc in self.corpus.docs.get(name, {}).values():
                if doc.format == fmt and "source" in doc.meta:
                    out[d] = doc.meta["source"]
                    break
        return out


def source_format(result: Any) -> str:
    """The format most of the documents were read from (gold is written in it)."""
    counts = Counter(d.format or "table" for by in result.corpus.docs.values() for d in by.values())
    return counts.most_common(1)[0][0] if counts else "table"


def units_for_spans(result: Any) -> SpansModel:
    """Units of a :class:`~iaa_desktop.core.kinds.spans.compare.SpansResult` (every group)."""
    from iaa_desktop.core.kinds.spans.measures import KINDS

    corpus, groups = result.corpus, result.groups
    if corpus is None or groups is None or len(corpus.annotators) < 2:
        raise IaaError("Span adjudication needs a comparison of two or more annotators.")
    members = np.argsort(groups.of_span, kind="stable")
    bounds = np.searchsorted(groups.of_span[members], np.arange(len(groups.doc) + 1))
    order = np.lexsort((groups.start, groups.doc))
    A = len(corpus.annotators)
    versions = np.empty((len(order), A), dtype=object)
    keys, titles, grp, dis, gdoc = [], [], [], [], []
    for row, g in enumerate(order.tolist()):
        d = int(groups.doc[g])
        ix = members[bounds[g] : bounds[g + 1]]
        by: dict[int, list[Span]] = {}
        for k in ix.tolist():
            by.setdefault(int(corpus.ann[k]), []).append(corpus.spans[k])
        for x in range(A):
            versions[row, x] = encode(by.get(x, [])) if corpus.has[x, d] else None
        name = corpus.names[d]
        text = corpus.texts[d] or ""
        s, e = int(groups.start[g]), int(groups.end[g])
        keys.append(f"{name}|{s}|{e}")
        quoted = f"{s}–{e} ‘\u2068{text[s:e][:60]}\u2069’"
        if corpus.time_unit:  # a recording: the group's time, in seconds
            quoted = f"{s / 1000:.3f}–{e / 1000:.3f} s"
        titles.append(f"{name} {quoted} — {KINDS[int(groups.kind[g])]}")
        grp.append(name)
        dis.append(float(groups.score[g]))
        gdoc.append(d)
    model = SpansModel(
        corpus.annotators,
        keys,
        versions,
        titles=titles,
        groups=grp,
        disagreement=np.array(dis),
        inputs=result.inputs,
        options=dict(result.options),
        result=result,
        fmt=source_format(result),
    )
    model.group_doc = gdoc
    figures = getattr(result, "annotator_figures", None)
    competence = getattr(figures, "competence", None)
    if competence is not None:
        model.suggestions = token_suggestions(model, corpus, competence.inferred)
    return model


#: a token of competence's inferred labels: ``document | start–end | text``
_TOKEN_KEY = re.compile(r"^(.*) \| (\d+)–(\d+) \| (.*)$", re.DOTALL)


def _token_labels(value: str, tokens: Sequence[tuple[int, int]]) -> list[str] | None:
    """Per token, the label of the version's spans overlapping it (``(none)``: none), as the
    token-level figures code it; None when two labels overlap a token (left out there)."""
    from iaa_desktop.core.kinds.spans.annotators import NO_LABEL

    spans = decode(value)
    out = []
    for ts, te in tokens:
        labels = {sp.label for sp in spans for a, b in sp.fragments if a < te and b > ts}
        if len(labels) > 1:
            return None
        out.append(labels.pop() if labels else NO_LABEL)
    return out


def token_suggestions(
    model: SpansModel, corpus: Any, inferred: Sequence[Mapping[str, Any]]
) -> dict[str, Suggestion]:
    """Each span group's tokens with their inferred labels (Dawid & Skene 1979, token by
    token: "Dawid–Skene: ‘Maria’ PER 0.97, ‘Ruiz’ PER 0.95"). Token labels do not say where
    one span ends and the next of the same label begins, so the unit's value is an
    annotator's version whose spans give every token of the group its inferred label (the
    most frequent such version); none when no version does, or when a token of the group was
    left out of competence (two labels of one annotator on it)."""
    inferred_at: dict[tuple[str, int, int], tuple[str, str, float]] = {}
    for row in inferred:
        m = _TOKEN_KEY.match(str(row["item"]))
        if m is None:
            continue
        at = (m.group(1), int(m.group(2)), int(m.group(3)))
        inferred_at[at] = (m.group(4), str(row["dawid_skene"]), float(row["dawid_skene_posterior"]))
    us, ue, udoc = corpus.tokens()
    starts: dict[int, NDArray[Any]] = {}
    ends: dict[int, NDArray[Any]] = {}
    for d in range(len(corpus.names)):
        sel = udoc == d
        starts[d] = us[sel] - int(corpus.offsets[d])
        ends[d] = ue[sel] - int(corpus.offsets[d])
    parts: dict[str, list[Part]] = {}
    values: dict[str, str | None] = {}
    for i, key in enumerate(model.keys):
        d = model.group_doc[i]
        name, s, e = key.rsplit("|", 2)
        lo, hi = int(s), int(e)
        ts, te = starts[d], ends[d]
        first = int(np.searchsorted(te, lo, side="right"))
        last = int(np.searchsorted(ts, hi, side="left"))
        tokens = list(zip(ts[first:last].tolist(), te[first:last].tolist(), strict=True))
        found = [inferred_at.get((name, a, b)) for a, b in tokens]
        mine = [(f"‘\u2068{f[0]}\u2069’", f[1], f[2]) for f in found if f is not None]
        if not mine:
            continue
        parts[key] = mine
        if len(mine) < len(tokens):
            continue
        labels = [f[1] for f in found if f is not None]
        same = [
            v for v in model.versions[i] if v is not None and _token_labels(v, tokens) == labels
        ]
        values[key] = max(same, key=same.count) if same else None
    return part_suggestions(parts, values)

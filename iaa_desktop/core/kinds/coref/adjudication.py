"""Units of the ``coref`` kind for any number of annotators: chains and mentions; gold chains.

The classes of all annotators of a document are matched into groups, one class per annotator at
most (:func:`iaa_desktop.core.align.nway.match_n_way`; for two annotators, the comparison's own
class matching, so the pairs the view shows are the pairs adjudicated). Units:

* a **chain** (``group``): a group holding the classes of two or more annotators. Each annotator's
  version is their class (``""`` = they have no class in the group); the adjudicator takes one
  version (keys ``1``…), the majority, the **union** (``u``) or **intersection** (``i``) of the
  versions, the mentions most versions hold (``j``), or edits the chain mention by mention;
* a **lone chain** (``class``): a class only one annotator has: ``keep`` or ``drop``;
* a **mention** not every annotator has: ``keep`` or ``drop`` (versions: ``keep`` where the
  annotator has it).

Values: a class is its mentions as ``type start end`` joined by ``;`` (sorted); the others are
``keep`` / ``drop``. The gold of a document (:meth:`CorefModel.gold_chains`) is always a consistent
set of chains: the gold mentions are those every annotator has plus the mentions kept; each
decided chain gives its chosen class restricted to the gold mentions, plus the kept mentions its
versions held; each kept lone chain gives its gold mentions; a mention already in an earlier chain
is not repeated; a chain left with fewer than two mentions dissolves. Undecided units contribute
nothing. Gold files: :mod:`iaa_desktop.core.kinds.coref.gold`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.model import AdjudicationModel, Choice
from iaa_desktop.core.errors import IaaError, OptionError, ReaderError
from iaa_desktop.core.kinds.coref.gold_values import (
    DROP,
    KEEP,
    Mention,
    decode_class,
    encode_class,
    mention_text,
)
from iaa_desktop.core.kinds.coref.marks import line_of
from iaa_desktop.core.kinds.coref.options import CorefOptions
from iaa_desktop.core.kinds.coref.source_text import token_layout

NAME = "\x00"  # where a title names annotators (replaced by the shown names)


def _iso(text: str) -> str:
    """Unicode first-strong isolate: a right-to-left surface does not reorder the text around it."""
    return f"\u2068{text}\u2069"


@dataclass
class AnnotatedDoc:
    """One annotator's annotation of one document."""

    mentions: frozenset[Mention]
    classes: tuple[frozenset[Mention], ...]


@dataclass
class CorefDocument:
    """A document with every annotator's annotation (``None``: that annotator lacks it).

    ``token_spans`` maps token ``k`` to its character span in ``text`` (CoNLL; ``None`` for brat,
    whose offsets are characters already).
    """

    name: str
    text: str
    annotations: tuple[AnnotatedDoc | None, ...]
    token_spans: list[tuple[int, int]] | None = None
    source: tuple[Path, ...] = ()
    covered: dict[Mention, str] = field(default_factory=dict)  # the files' covered text

    def char_span(self, m: Mention) -> tuple[int, int]:
        if self.token_spans is None:
            return m[1], m[2]
        if m[2] - 1 >= len(self.token_spans):
            return 0, 0
        return self.token_spans[m[1]][0], self.token_spans[m[2] - 1][1]

    def surface(self, m: Mention) -> str:
        s, e = self.char_span(m)
        return self.text[s:e] if self.text else self.covered.get(m, "")

    def line(self, m: Mention) -> int:
        return line_of(self.text, self.char_span(m)[0]) if self.text else 0

    def label(self, m: Mention) -> str:
        """How a mention is named to people: its words and its line (offsets only as a last
        resort: two mentions of one word on a line)."""
        return f"{_iso(self.surface(m))} (line {self.line(m)})" if self.text else mention_text(m)

    @property
    def present(self) -> list[AnnotatedDoc]:
        return [a for a in self.annotations if a is not None]


# ---------------------------------------------------------------------------------------------
# documents from a comparison result


def _source_format(path: str) -> str:
    from iaa_desktop.core.kinds.coref.source_text import source_format

    return source_format(path)


def _pairs_of(dc: Any, a: str, b: str) -> list[tuple[int, int]] | None:
    comparison = next((p for p in dc.pairs if (p.a, p.b) == (a, b)), None)
    if comparison is None:
        return None
    return [
        (int(r.class_a[1:]) - 1, int(r.class_b[1:]) - 1)
        for r in comparison.rows
        if r.class_a.startswith("C") and r.class_b.startswith("C") and r.M > 0
    ]


def documents_from_result(
    result: Any,
) -> tuple[tuple[str, ...], list[CorefDocument], str, list[list[tuple[int, int]] | None]]:
    """Annotators, the documents two or more of them have, the format, and (two annotators)
    the comparison's matched class pairs per document."""
    names = tuple(result.annotators)
    if len(names) < 2:
        raise IaaError("Coreference adjudication needs two annotators.")
    docs: list[CorefDocument] = []
    matched: list[list[tuple[int, int]] | None] = []
    fmt = "brat"
    for dc in result.documents:
        have = [n for n in names if n in dc.docs]
        if len(have) < 2:
            continue
        first = dc.docs[have[0]]
        fmt = _source_format(first.path)
        text = next((dc.docs[n].text for n in have if dc.docs[n].text), "") or ""
        ends = [m[2] for n in have for m in dc.docs[n].mentions]
        text, spans = token_layout(fmt, first, text, max(ends, default=0))
        anns = tuple(
            AnnotatedDoc(
                frozenset(dc.docs[n].mentions), tuple(frozenset(c) for c in dc.docs[n].classes)
            )
            if n in dc.docs
            else None
            for n in names
        )
        covered: dict[Mention, str] = {}
        for n in reversed(have):
            covered.update(dc.docs[n].mentions)
        source = tuple(Path(dc.docs[n].path) for n in have)
        docs.append(CorefDocument(dc.name, text, anns, spans, source, covered))
        matched.append(_pairs_of(dc, names[0], names[1]) if len(names) == 2 else None)
    return names, docs, fmt, matched


def load_documents(
    inputs: Sequence[Path], options: dict[str, Any] | None = None
) -> tuple[tuple[str, ...], list[CorefDocument], str, list[ReaderError]]:
    """Run the ``coref`` kind's readers on the inputs: annotators, documents, format, problems."""
    result = _run_coref(inputs, options)
    names, docs, fmt, _pairs = documents_from_result(result)
    return names, docs, fmt, list(result.errors)


def _run_coref(inputs: Sequence[Path], options: dict[str, Any] | None = None) -> Any:
    from iaa_desktop.core.kinds.coref.compare import KIND
    from iaa_desktop.core.kinds.spec import run_kind
    from iaa_desktop.core.progress import run_to_end

    return run_to_end(run_kind(KIND, [Path(p) for p in inputs], dict(options or {})))


def match_classes(
    a: Sequence[frozenset[Mention]], b: Sequence[frozenset[Mention]]
) -> list[tuple[int, int]]:
    """Pairs (i, j) of a minimum-|a △ b| assignment (ties: largest overlap) that share a mention."""
    from iaa_desktop.core.align.nway import match_n_way

    return [(g[0], g[1]) for g in match_n_way([a, b]) if g[0] is not None and g[1] is not None]


# ---------------------------------------------------------------------------------------------
# the model


@dataclass(frozen=True)
class CorefUnit:
    """What a unit is about: ``doc`` index, ``kind`` (``group``, ``class``, ``mention``), the
    class of each annotator (``None`` = none in this group), the mention of a mention unit."""

    doc: int
    kind: str
    classes: tuple[frozenset[Mention] | None, ...] = ()
    mention: Mention | None = None

    @property
    def union(self) -> frozenset[Mention]:
        out: frozenset[Mention] = frozenset()
        for c in self.classes:
            if c:
                out |= c
        return out


class CorefModel(AdjudicationModel):
    kind = "coref"

    def __init__(
        self,
        *args: Any,
        docs: list[CorefDocument] | None = None,
        units: list[CorefUnit] | None = None,
        fmt: str = "brat",
        templates: tuple[list[str], list[tuple[int, ...]]] | None = None,
        chosen: CorefOptions | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        #: the options of the comparison (from the options record when not given)
        self.chosen = chosen if chosen is not None else CorefOptions.resolve(self.options)
        self.docs = docs or []
        self.units = units or []
        self.fmt = fmt
        self._templates = templates

    # -- forms: every mention unit of one text decided at once --------------------------------

    def form(self, i: int) -> str:
        """The words of a mention unit (chains have no single form)."""
        u = self.units[i] if i < len(self.units) else None
        if u is None or u.kind != "mention" or u.mention is None:
            return ""
        return self.docs[u.doc].surface(u.mention)

    def form_treatments(self, i: int) -> list[str]:
        """Keep (a mention) or drop (not a mention), the more frequent among the versions of
        the form's mention units first."""
        counts = {KEEP: 0, DROP: 0}
        for j in self.units_of_form(self.form_key(i)):
            for v in self.versions[j]:
                if v in counts:
                    counts[v] += 1
        return sorted(counts, key=lambda t: -counts[t])

    def form_value(self, i: int, treatment: str) -> str | None:
        if not self.form(i) or treatment not in (KEEP, DROP):
            return None
        return treatment

    # -- presentation -------------------------------------------------------------------------

    def format_value(self, value: str | None) -> str:
        if value is None:
            return "—"
        if value in (KEEP, DROP):
            return value
        if value == "":
            return "∅ (no chain)"
        ms = sorted(decode_class(value), key=lambda m: m[1])
        return "{" + ", ".join(mention_text(m) for m in ms) + "}"

    def describe_value(self, i: int, value: str | None) -> str:
        """A version as the adjudicator reads it: its mentions by words and line, and what it
        has or lacks compared with the other versions."""
        u = self.units[i]
        if value is None or value in (KEEP, DROP) or u.kind != "group":
            return self.format_value(value)
        doc = self.docs[u.doc]
        mine = decode_class(value)
        if not mine:
            return "no chain"
        common = frozenset.intersection(*[c or frozenset() for c in u.classes])
        extra = sorted(mine - common, key=lambda m: m[1])
        missing = sorted(u.union - mine, key=lambda m: m[1])
        head = ", ".join(_iso(doc.surface(m)) for m in sorted(mine, key=lambda m: m[1])[:6])
        more = "…" if len(mine) > 6 else ""
        diff = []
        if extra and len(extra) < len(mine):
            diff.append("with " + ", ".join(doc.label(m) for m in extra[:3]))
        if missing:
            diff.append("without " + ", ".join(doc.label(m) for m in missing[:3]))
        return f"{len(mine)}: {head}{more}" + (f" — {'; '.join(diff)}" if diff else "")

    def with_mention_toggled(
        self, i: int, value: str | None, mention: str, start: str | None = None
    ) -> str:
        """Unit ``i``'s decision after a click on ``mention`` (``"T start end"``, as the text's
        links name it): a chain gains the mention, or loses it if it was in; an undecided chain
        is edited from ``start`` (the first version shown). A mention unit is kept by a click
        and dropped by the next."""
        if self.units[i].kind != "group":
            return DROP if value == KEEP else KEEP
        current = start if value is None else value
        chain = set(decode_class(current)) if current else set()
        t, s, e = mention.rsplit(" ", 2)
        chain ^= {(t, int(s), int(e))}
        return encode_class(chain)

    def parse_value(self, text: str, i: int | None = None) -> str:
        t = text.strip()
        if i is not None and self.units[i].kind == "group":
            if t.lower() in ("", "none", "no chain", "∅"):
                return ""
            try:
                chosen = decode_class(t)
            except ValueError:
                raise OptionError(
                    "For a chain pick a version (1, 2 …), the union (U), the intersection (I), or "
                    "click mentions in the text to add or remove them."
                ) from None
            doc = self.docs[self.units[i].doc]
            known = frozenset().union(*(a.mentions for a in doc.present))
            if not chosen <= known:
                raise OptionError("A chain can only hold mentions an annotator marked.")
            return encode_class(chosen)
        if t.lower() in (KEEP, DROP):
            return t.lower()
        raise OptionError("Type 'keep' or 'drop'.")

    def choices(
        self,
        i: int,
        order: Sequence[int] | None = None,
        names: Sequence[str] | None = None,
        min_share: float = 0.5,
    ) -> list[Choice]:
        out = super().choices(i, order, names, min_share)
        if self.units[i].kind != "group":
            return out
        shown = list(self.annotators) if names is None else list(names)
        order = list(range(len(self.annotators))) if order is None else list(order)
        relabelled = []
        for c in out:
            if c.choice.startswith("annotator:") and c.value is not None:
                pos = order.index(self.annotators.index(c.choice.split(":", 1)[1]))
                c = Choice(
                    c.key,
                    f"{shown[pos]}: {self.describe_value(i, c.value)}",
                    c.choice,
                    c.value,
                    c.annotators,
                )
            elif c.value is not None and c.choice != "typed":
                c = Choice(
                    c.key,
                    f"{c.label.split(':', 1)[0]}: {self.describe_value(i, c.value)}",
                    c.choice,
                    c.value,
                    c.annotators,
                )
            relabelled.append(c)
        return relabelled

    def extra_choices(self, i: int) -> list[Choice]:
        u = self.units[i]
        if u.kind != "group":
            return [Choice("k", "keep", "keep", KEEP), Choice("x", "drop", "drop", DROP)]
        versions = [c for c in u.classes if c is not None]
        union = u.union
        inter = frozenset.intersection(*versions) if versions else frozenset()
        out = [Choice("u", "union", "union", encode_class(union))]
        if inter and inter != union:
            out.append(Choice("i", "intersection", "intersection", encode_class(inter)))
        if len(versions) >= 3:
            most = frozenset(
                m for m in union if sum(m in c for c in versions) * 2 > len(self.annotators)
            )
            if len(most) >= 2 and most not in (union, inter):
                out.append(Choice("j", "mentions most hold", "most", encode_class(most)))
        return out

    def title(self, i: int, names: Sequence[str] | None = None) -> str:
        if names is None or self._templates is None:
            return self.titles[i]
        templates, owners = self._templates
        if not owners[i]:
            return self.titles[i]
        return templates[i].replace(NAME, ", ".join(names[x] for x in owners[i]))

    def describe(self, i: int) -> str:
        u = self.units[i]
        what = {
            "group": "chain",
            "mention": "mention not every annotator has",
            "class": "chain only one annotator has",
        }[u.kind]
        return f"{self.docs[u.doc].name}: {what} — {self.titles[i]}"

    def describe_html(self, i: int, names: Any = None, current: str | None = None) -> str:
        from iaa_desktop.core.kinds.coref.unit_html import unit_html

        shown = list(names) if names is not None else list(self.annotators)
        return unit_html(self, i, shown, current)

    # -- gold ------------------------------------------------------------------------------------

    def gold_chains(
        self, gold: NDArray[Any]
    ) -> list[tuple[frozenset[Mention], list[frozenset[Mention]]]]:
        """Per document: (gold mentions, gold chains), consistent (see the module docstring)."""
        out = []
        by_doc: dict[int, list[int]] = {}
        for i, u in enumerate(self.units):
            by_doc.setdefault(u.doc, []).append(i)
        for d, doc in enumerate(self.docs):
            units = by_doc.get(d, [])
            common = frozenset.intersection(*(a.mentions for a in doc.present))
            kept = {
                m
                for i in units
                if self.units[i].kind == "mention"
                and gold[i] == KEEP
                and (m := self.units[i].mention) is not None
            }
            mentions = frozenset(common | kept)
            chains: list[frozenset[Mention]] = []
            used: set[Mention] = set()

            def add(
                c: frozenset[Mention] | set[Mention],
                used: set[Mention] = used,
                chains: list[frozenset[Mention]] = chains,
                mentions: frozenset[Mention] = mentions,
            ) -> None:
                c = frozenset(m for m in c if m in mentions and m not in used)
                if len(c) >= 2:
                    chains.append(c)
                    used.update(c)

            for i in units:
                u = self.units[i]
                if u.kind == "group" and gold[i] is not None:
                    chosen = set(decode_class(gold[i]))
                    if chosen:
                        chosen |= {m for m in u.union if m in kept}
                    add(chosen)
            for i in units:
                u = self.units[i]
                if u.kind == "class" and gold[i] == KEEP:
                    add(u.union)
            out.append((mentions, chains))
        return out

    def write_gold(self, gold: NDArray[Any], out_dir: Path, notes: Any = None) -> list[Path]:
        from iaa_desktop.core.kinds.coref import gold as writers

        chains = self.gold_chains(gold)
        if self.fmt == "conll":
            return writers.write_conll(self.docs, chains, out_dir)
        if self.fmt == "table":
            return writers.write_mention_table(self.docs, chains, out_dir, self.chosen)
        return writers.write_brat(self.docs, chains, out_dir)


# ---------------------------------------------------------------------------------------------
# building the units


@dataclass
class _Built:
    keys: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    owners: list[tuple[int, ...]] = field(default_factory=list)  # annotators a title names
    groups: list[str] = field(default_factory=list)
    search: list[str] = field(default_factory=list)
    versions: list[list[str | None]] = field(default_factory=list)
    disagreement: list[float] = field(default_factory=list)
    units: list[CorefUnit] = field(default_factory=list)

    def add(
        self,
        key: str,
        title: str,
        owners: Sequence[int],
        doc: CorefDocument,
        search: str,
        versions: list[str | None],
        disagreement: float,
        unit: CorefUnit,
    ) -> None:
        self.keys.append(key)
        self.titles.append(title)
        self.owners.append(tuple(owners))
        self.groups.append(doc.name)
        self.search.append(search)
        self.versions.append(versions)
        self.disagreement.append(disagreement)
        self.units.append(unit)


def _letter(x: int) -> str:
    return chr(ord("A") + x) if x < 26 else f"X{x}"


def _surfaces(doc: CorefDocument, c: frozenset[Mention], limit: int = 3) -> str:
    ms = sorted(c, key=lambda m: m[1])
    words = ", ".join(f"“{_iso(doc.surface(m))}”" for m in ms[:limit])
    return words + ("…" if len(ms) > limit else "")


def _add_groups(
    b: _Built, d: int, doc: CorefDocument, groups: list[tuple[int | None, ...]]
) -> None:
    from iaa_desktop.core.align.nway import group_disagreement

    n = len(doc.annotations)
    for g in groups:
        classes = tuple(
            a.classes[k] if k is not None and a else None for a, k in zip(doc.annotations, g)
        )
        owners = [x for x, c in enumerate(classes) if c is not None]
        union = frozenset().union(*(c for c in classes if c is not None))
        search = " ".join(doc.surface(m) for m in sorted(union, key=lambda m: m[1]))
        # keys of two annotators as before N-way matching (…|pair|A3|B5), so stores stay valid
        tag = "|".join(f"{_letter(x)}{k + 1}" for x, k in enumerate(g) if k is not None)
        if len(owners) >= 2:
            versions = [
                None if doc.annotations[x] is None else encode_class(c) if c is not None else ""
                for x, c in enumerate(classes)
            ]
            members = [c or frozenset() for x, c in enumerate(classes) if doc.annotations[x]]
            b.add(
                f"{doc.name}|pair|{tag}",
                f"{doc.name}: chain {_surfaces(doc, union)} ({len(union)} mentions)",
                (),
                doc,
                search,
                versions,
                group_disagreement(members),
                CorefUnit(d, "group", classes),
            )
        else:
            x = owners[0]
            versions = [
                None if doc.annotations[y] is None else (KEEP if y == x else DROP) for y in range(n)
            ]
            b.add(
                f"{doc.name}|class|{tag}",
                f"{doc.name}: only {NAME} has the chain {_surfaces(doc, union)} "
                f"({len(union)} mentions)",
                (x,),
                doc,
                search,
                versions,
                1.0,
                CorefUnit(d, "class", classes),
            )


def _add_mentions(b: _Built, d: int, doc: CorefDocument) -> None:
    present = doc.present
    everyone = frozenset.intersection(*(a.mentions for a in present))
    anyone = frozenset().union(*(a.mentions for a in present))
    for m in sorted(anyone - everyone, key=lambda m: (m[1], m[2], m[0])):
        has = [x for x, a in enumerate(doc.annotations) if a is not None and m in a.mentions]
        versions = [
            None if a is None else (KEEP if m in a.mentions else DROP) for a in doc.annotations
        ]
        share = len(has) / len(present)
        b.add(
            f"{doc.name}|mention|{mention_text(m)}",
            f"{doc.name}: mention “{_iso(doc.surface(m))}” (line {doc.line(m)}) only {NAME}",
            has,
            doc,
            doc.surface(m),
            versions,
            1.0 - abs(2 * share - 1),
            CorefUnit(d, "mention", (), m),
        )


def build_model(
    annotators: Sequence[str],
    docs: list[CorefDocument],
    fmt: str,
    inputs: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    matched: Sequence[Sequence[tuple[int, int]] | None] | None = None,
    chosen: CorefOptions | None = None,
) -> CorefModel:
    """Units of the documents (every annotator); ``matched`` = for two annotators, the class
    pairs per document (default: the N-way matching)."""
    from iaa_desktop.core.align.nway import match_n_way

    if len(annotators) < 2:
        raise IaaError("Coreference adjudication needs two annotators.")
    names = tuple(annotators)
    b = _Built()
    for d, doc in enumerate(docs):
        classes = [a.classes if a is not None else () for a in doc.annotations]
        pairs = matched[d] if matched is not None and d < len(matched) else None
        position: dict[Hashable, tuple[int, ...]] = {
            m: (m[1], m[2]) for cls in classes for c in cls for m in c
        }
        groups = match_n_way(classes, pairs, position)
        _add_groups(b, d, doc, groups)
        _add_mentions(b, d, doc)
    versions = np.empty((len(b.keys), len(names)), dtype=object)
    for k, row in enumerate(b.versions):
        versions[k, :] = row
    titles = [
        t.replace(NAME, ", ".join(names[x] for x in o)) if o else t
        for t, o in zip(b.titles, b.owners)
    ]
    model = CorefModel(
        names,
        b.keys,
        versions,
        titles=titles,
        groups=b.groups,
        disagreement=np.array(b.disagreement, dtype=float),
        inputs=inputs,
        options=options,
        docs=docs,
        units=b.units,
        fmt=fmt,
        templates=(b.titles, b.owners),
        chosen=chosen,
    )
    model.search_texts = tuple(b.search)
    return model


def model_from_inputs(inputs: Sequence[Path], options: dict[str, Any] | None = None) -> CorefModel:
    """Run the ``coref`` kind on the inputs and build the units from its result."""
    return units_for_coref(_run_coref(inputs, options))


def units_for_coref(result: Any) -> CorefModel:
    """Units of a :class:`~iaa_desktop.core.kinds.coref.compare.CorefResult` (every annotator)."""
    names, docs, fmt, matched = documents_from_result(result)
    return build_model(
        names, docs, fmt, result.inputs, dict(result.options), matched, result.chosen
    )

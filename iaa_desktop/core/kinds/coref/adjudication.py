"""Units of the ``coref`` kind: class pairs, lone mentions and unmatched classes; gold chains.

For two annotators A and B and each document:

* every **matched class pair** (a, b) — a row ``Ci ↔ Cj`` of the comparison's class matching
  (the kind's cost option; rows sharing no mention are not pairs) — is a unit whose versions are
  A's class and B's class; the adjudicator may also take their **union** (``u``) or
  **intersection** (``i``);
* every **mention only one annotator has** is a unit: ``keep`` or ``drop``;
* every **unmatched class** (matched to nothing, to the other side's singletons ``S`` or to a
  class it shares no mention with) is a unit: ``keep`` or ``drop``.

Values: a class is its mentions as ``type start end`` joined by ``;`` (sorted); lone mentions and
unmatched classes are ``keep`` / ``drop``. The gold of a document (:meth:`CorefModel.gold_chains`)
is always a consistent set of chains: the gold mentions are the mentions both annotators have plus
the lone mentions kept; each decided class pair gives the chosen class restricted to the gold
mentions, plus the kept lone mentions its two classes held; each kept unmatched class gives its
gold mentions; a mention already in an earlier chain is not repeated; a chain left with fewer
than two mentions dissolves into singletons. Undecided units contribute nothing (no chain, lone
mention left out).

Gold export in the inputs' format: brat standoff (``gold/<doc>.ann`` with the ``.txt``),
CoNLL-2012 (the first annotator's file with the coreference column replaced; singletons as
one-mention entities) or a mention table (``begin, end, entityNum, surface``).

The documents, mentions, classes and the class matching come from the ``coref`` kind's result
(:class:`~iaa_desktop.core.kinds.coref.compare.CorefResult`): the pairs the comparison view shows are the
pairs adjudicated. :func:`model_from_inputs` runs that kind on the inputs.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from iaa_desktop.core.adjudication.model import AdjudicationModel, Choice
from iaa_desktop.core.errors import IaaError, OptionError, ReaderError
from iaa_desktop.core.io import NameAllocator, path_inside, write_text_atomic

Mention = tuple[
    str, int, int
]  # (type, start, end): characters (brat) or tokens (CoNLL), end exclusive
KEEP, DROP = "keep", "drop"
NAME = "\x00"  # where a title names an annotator (replaced by the shown name)


def _iso(text: str) -> str:
    """Unicode first-strong isolate: a right-to-left surface does not reorder the text around it."""
    return f"\u2068{text}\u2069"


def mention_text(m: Mention) -> str:
    return f"{m[0]} {m[1]} {m[2]}"


def encode_class(c: frozenset[Mention] | set[Mention]) -> str:
    return ";".join(mention_text(m) for m in sorted(c, key=lambda m: (m[1], m[2], m[0])))


def decode_class(v: str) -> frozenset[Mention]:
    out = set()
    for part in v.split(";"):
        if part.strip():
            t, s, e = part.rsplit(" ", 2)
            out.add((t, int(s), int(e)))
    return frozenset(out)


@dataclass
class AnnotatedDoc:
    """One annotator's annotation of one document."""

    mentions: frozenset[Mention]
    classes: tuple[frozenset[Mention], ...]


@dataclass
class CorefDocument:
    """A document with every annotator's annotation.

    ``text`` is the document text; ``token_spans`` maps token ``k`` to its character span in
    ``text`` (CoNLL; ``None`` for brat, where offsets are characters already).
    """

    name: str
    text: str
    annotations: tuple[AnnotatedDoc, ...]
    token_spans: list[tuple[int, int]] | None = None
    source: tuple[Path, ...] = ()
    covered: dict[Mention, str] = field(default_factory=dict)  # the files' covered text per mention

    def char_span(self, m: Mention) -> tuple[int, int]:
        if self.token_spans is None:
            return m[1], m[2]
        if m[2] - 1 >= len(self.token_spans):
            return 0, 0
        return self.token_spans[m[1]][0], self.token_spans[m[2] - 1][1]

    def surface(self, m: Mention) -> str:
        s, e = self.char_span(m)
        return self.text[s:e] if self.text else self.covered.get(m, "")


# ---------------------------------------------------------------------------------------------
# reading


_CONLL_BEGIN = "#begin document"


def _conll_token_lines(path: Path) -> tuple[list[str], dict[str, list[int]]]:
    """The lines of a CoNLL file and, per document (named as the coref reader names it), the
    line index of each token."""
    from iaa_desktop.core.textio import text_lines

    lines = text_lines(path)
    out: dict[str, list[int]] = {}
    cur: list[int] | None = None
    for n, line in enumerate(lines):
        if line.startswith(_CONLL_BEGIN):
            name = line[len(_CONLL_BEGIN) :].strip() or f"{path.stem}:{len(out) + 1}"
            cur = out.setdefault(name, [])
            continue
        if line.startswith("#end document"):
            cur = None
            continue
        if cur is None or not line.strip() or line.startswith("#"):
            continue
        cur.append(n)
    return lines, out


def _source_format(path: str) -> str:
    from iaa_desktop.core.kinds.coref.readers import is_conll

    p = Path(path)
    if p.suffix == ".ann":
        return "brat"
    if p.suffix.lower() in (".csv", ".tsv", ".xlsx"):
        return "table"
    return "conll" if is_conll(p) else "brat"


def documents_from_result(
    result: Any,
) -> tuple[tuple[str, ...], list[CorefDocument], str, list[list[tuple[int, int]]]]:
    """Annotators (the first two), documents both have, format, and the matched class pairs
    (indices into each side's classes) of the result's class matching."""
    if len(result.annotators) < 2:
        raise IaaError("Coreference adjudication needs two annotators.")
    a, b = result.annotators[0], result.annotators[1]
    docs: list[CorefDocument] = []
    matched: list[list[tuple[int, int]]] = []
    fmt = "brat"
    for dc in result.documents:
        if a not in dc.docs or b not in dc.docs:
            continue
        da, db = dc.docs[a], dc.docs[b]
        fmt = _source_format(da.path)
        text = da.text or db.text or ""
        spans = None
        if fmt == "conll":
            spans, pos = [], 0
            for tok in text.split(" "):
                spans.append((pos, pos + len(tok)))
                pos += len(tok) + 1
        anns = tuple(
            AnnotatedDoc(frozenset(d.mentions), tuple(frozenset(c) for c in d.classes))
            for d in (da, db)
        )
        covered = {**db.mentions, **da.mentions}
        docs.append(
            CorefDocument(dc.name, text, anns, spans, (Path(da.path), Path(db.path)), covered)
        )
        pairs: list[tuple[int, int]] = []
        comparison = next((p for p in dc.pairs if (p.a, p.b) == (a, b)), None)
        if comparison is not None:
            for r in comparison.rows:
                if r.class_a.startswith("C") and r.class_b.startswith("C") and r.M > 0:
                    pairs.append((int(r.class_a[1:]) - 1, int(r.class_b[1:]) - 1))
        else:
            pairs = match_classes(anns[0].classes, anns[1].classes)
        matched.append(pairs)
    return (a, b), docs, fmt, matched


def load_documents(
    inputs: Sequence[Path], options: dict[str, Any] | None = None
) -> tuple[tuple[str, ...], list[CorefDocument], str, list[ReaderError]]:
    """Run the ``coref`` kind's readers on the inputs: annotators, documents, format, problems."""
    result = _run_coref(inputs, options)
    names, docs, fmt, _pairs = documents_from_result(result)
    return names, docs, fmt, list(result.errors)


def _run_coref(inputs: Sequence[Path], options: dict[str, Any] | None = None) -> Any:
    from iaa_desktop.core.kinds import get_kind
    from iaa_desktop.core.progress import run_to_end

    return run_to_end(get_kind("coref").run([Path(p) for p in inputs], dict(options or {})))


# ---------------------------------------------------------------------------------------------
# matching


def match_classes(a: Sequence[frozenset], b: Sequence[frozenset]) -> list[tuple[int, int]]:
    """Pairs (i, j) of a minimum-|a △ b| assignment (ties: largest overlap) that share a mention."""
    if not a or not b:
        return []
    from scipy.optimize import linear_sum_assignment

    n_mentions = len(set().union(*a, *b))
    inter = np.array([[len(x & y) for y in b] for x in a], dtype=float)
    size_a = np.array([len(x) for x in a], dtype=float)[:, None]
    size_b = np.array([len(y) for y in b], dtype=float)[None, :]
    sym = size_a + size_b - 2 * inter
    rows, cols = linear_sum_assignment(sym * (n_mentions + 1) - inter)
    return [(int(i), int(j)) for i, j in zip(rows, cols) if inter[i, j] > 0]


@dataclass(frozen=True)
class CorefUnit:
    """What a unit of a coreference adjudication is about."""

    doc: int
    kind: str  # "pair", "mention" or "class"
    classes: tuple[
        frozenset[Mention] | None, ...
    ] = ()  # pair: (a, b); class: the class per annotator or None
    mention: Mention | None = None


@dataclass
class _Built:
    keys: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    owners: list[int] = field(
        default_factory=list
    )  # annotator column named in the title, -1 = none
    groups: list[str] = field(default_factory=list)
    versions: list[list[str | None]] = field(default_factory=list)
    disagreement: list[float] = field(default_factory=list)
    units: list[CorefUnit] = field(default_factory=list)


class CorefModel(AdjudicationModel):
    kind = "coref"

    def __init__(
        self,
        *args: Any,
        docs: list[CorefDocument] | None = None,
        units: list[CorefUnit] | None = None,
        fmt: str = "brat",
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        self.docs = docs or []
        self.units = units or []
        self.fmt = fmt

    # -- presentation -------------------------------------------------------------------------

    def format_value(self, value: str | None) -> str:
        if value is None:
            return "—"
        if value in (KEEP, DROP):
            return value
        return (
            "{"
            + ", ".join(
                self._mention_label(m) for m in sorted(decode_class(value), key=lambda m: m[1])
            )
            + "}"
        )

    def _mention_label(self, m: Mention, doc: CorefDocument | None = None) -> str:
        doc = doc or (
            self.docs[self._current_doc]
            if getattr(self, "_current_doc", None) is not None
            else None
        )
        if doc is None:
            return mention_text(m)
        # isolate the (possibly right-to-left) surface so "@offset" stays beside it
        return f"\u2068{doc.surface(m)}\u2069@{m[1]}"

    def parse_value(self, text: str, i: int | None = None) -> str:
        t = text.strip().lower()
        if i is not None and self.units[i].kind == "pair":
            raise OptionError(
                "For a class pair pick A's class (1), B's (2), their union (U) or intersection (I)."
            )
        if t in (KEEP, DROP):
            return t
        raise OptionError(
            "Type 'keep' or 'drop' (for a class pair, pick A, B, union (U) or intersection (I))."
        )

    def choices(self, i: int, order=None, names=None, min_share: float = 0.5) -> list[Choice]:
        self._current_doc = self.units[i].doc
        return super().choices(i, order, names, min_share)

    def extra_choices(self, i: int) -> list[Choice]:
        u = self.units[i]
        self._current_doc = u.doc
        if u.kind == "pair":
            a, b = u.classes
            assert a is not None and b is not None
            out = [
                Choice(
                    "u",
                    f"union: {self.format_value(encode_class(a | b))}",
                    "union",
                    encode_class(a | b),
                )
            ]
            if a & b:
                out.append(
                    Choice(
                        "i",
                        f"intersection: {self.format_value(encode_class(a & b))}",
                        "intersection",
                        encode_class(a & b),
                    )
                )
            return out
        return [Choice("k", "keep", "keep", KEEP), Choice("x", "drop", "drop", DROP)]

    def title(self, i: int, names: Sequence[str] | None = None) -> str:
        templates, owners = getattr(self, "_templates", (None, None))
        if names is None or templates is None or owners[i] < 0:
            return self.titles[i]
        return templates[i].replace(NAME, names[owners[i]])

    def describe(self, i: int) -> str:
        u = self.units[i]
        doc = self.docs[u.doc]
        what = {
            "pair": "class pair",
            "mention": "mention only one annotator has",
            "class": "unmatched class",
        }[u.kind]
        return f"{doc.name}: {what} — {self.titles[i]}"

    def describe_html(self, i: int, names: Any = None) -> str:
        """The document lines holding the unit's mentions, A's in blue, B's in orange, shared in green."""
        u = self.units[i]
        doc = self.docs[u.doc]
        self._current_doc = u.doc
        a_set: set[Mention] = set()
        b_set: set[Mention] = set()
        if u.kind == "pair":
            a_set, b_set = set(u.classes[0] or ()), set(u.classes[1] or ())
        elif u.kind == "class":
            a_set = set(u.classes[0] or ())
            b_set = set(u.classes[1] or ()) if len(u.classes) > 1 else set()
        elif u.mention is not None:
            has_a = u.mention in doc.annotations[0].mentions
            (a_set if has_a else b_set).add(u.mention)
        spans = {}
        for m in a_set | b_set:
            s, e = doc.char_span(m)
            colour = (
                "#b7e4b7"
                if (m in a_set and m in b_set)
                else ("#b9d4f5" if m in a_set else "#ffd3a6")
            )
            spans[(s, e)] = colour
        text = doc.text
        # lines holding a mention (± 1 line), so long documents stay readable
        starts = [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]
        line_of = lambda pos: int(np.searchsorted(starts, pos, side="right") - 1)  # noqa: E731
        wanted = set()
        for s, _e in spans:
            ln = line_of(s)
            wanted.update({ln - 1, ln, ln + 1})
        out = []
        n_lines = len(starts)
        for ln in sorted(x for x in wanted if 0 <= x < n_lines):
            lo = starts[ln]
            hi = starts[ln + 1] - 1 if ln + 1 < n_lines else len(text)
            pieces, pos = [], lo
            for (s, e), colour in sorted(spans.items()):
                if s < lo or s >= hi or s < pos:
                    continue
                pieces.append(html.escape(text[pos:s]))
                pieces.append(
                    f"<span style='background:{colour}'><b>{html.escape(text[s:e])}</b></span>"
                )
                pos = e
            pieces.append(html.escape(text[pos:hi]))
            out.append(f"<p dir='auto' style='margin:2px'>{''.join(pieces)}</p>")
        names = list(names) if names is not None else list(self.annotators)
        legend = (
            f"<p><b>{html.escape(doc.name)}</b> — {html.escape(self.describe(i).split(' — ', 1)[0].split(': ', 1)[1])}"
            f" &nbsp; <span style='background:#b9d4f5'>&nbsp;{html.escape(names[0])}&nbsp;</span>"
            f" <span style='background:#ffd3a6'>&nbsp;{html.escape(names[1] if len(names) > 1 else '')}&nbsp;</span>"
            " <span style='background:#b7e4b7'>&nbsp;both&nbsp;</span></p>"
        )
        return legend + "".join(out)

    # -- gold ------------------------------------------------------------------------------------

    def gold_chains(
        self, gold: np.ndarray
    ) -> list[tuple[frozenset[Mention], list[frozenset[Mention]]]]:
        """Per document: (gold mentions, gold chains), consistent (see the module docstring)."""
        out = []
        by_doc: dict[int, list[int]] = {}
        for i, u in enumerate(self.units):
            by_doc.setdefault(u.doc, []).append(i)
        for d, doc in enumerate(self.docs):
            common = frozenset.intersection(*(a.mentions for a in doc.annotations))
            kept = {
                self.units[i].mention
                for i in by_doc.get(d, [])
                if self.units[i].kind == "mention" and gold[i] == KEEP
            }
            mentions = frozenset(common | kept)
            chains: list[frozenset[Mention]] = []
            used: set[Mention] = set()

            def add(
                c: frozenset[Mention] | set[Mention], used=used, chains=chains, mentions=mentions
            ) -> None:
                c = frozenset(m for m in c if m in mentions and m not in used)
                if len(c) >= 2:
                    chains.append(c)
                    used.update(c)

            for i in by_doc.get(d, []):
                u = self.units[i]
                if u.kind == "pair" and gold[i] is not None:
                    a, b = u.classes
                    chosen = set(decode_class(gold[i]))
                    chosen |= {m for m in (a | b) if m in kept}
                    add(chosen)
            for i in by_doc.get(d, []):
                u = self.units[i]
                if u.kind == "class" and gold[i] == KEEP:
                    add(next(c for c in u.classes if c is not None))
            out.append((mentions, chains))
        return out

    def write_gold(self, gold: np.ndarray, out_dir: Path, notes: Any = None) -> list[Path]:
        chains = self.gold_chains(gold)
        if self.fmt == "conll":
            return self._write_conll(chains, out_dir)
        if self.fmt == "table":
            return self._write_table(chains, out_dir)
        return self._write_brat(chains, out_dir)

    def _write_brat(self, chains, out_dir: Path) -> list[Path]:
        folder = out_dir / "gold"
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        names = NameAllocator()
        for doc, (mentions, doc_chains) in zip(self.docs, chains):
            # the .ann and .txt of one document share a stem (brat pairs them by it)
            stem = names.take(doc.name)
            ids: dict[Mention, str] = {}
            lines = []
            for k, m in enumerate(sorted(mentions, key=lambda m: (m[1], m[2], m[0])), 1):
                ids[m] = f"T{k}"
                lines.append(f"T{k}\t{m[0] or 'Mention'} {m[1]} {m[2]}\t{doc.surface(m)}")
            for c in doc_chains:
                lines.append(
                    "*\tCoreference "
                    + " ".join(ids[m] for m in sorted(c, key=lambda m: (m[1], m[2])))
                )
            ann = path_inside(folder, f"{stem}.ann")
            write_text_atomic(ann, "\n".join(lines) + "\n")
            written.append(ann)
            if doc.text:
                txt = path_inside(folder, f"{stem}.txt")
                write_text_atomic(txt, doc.text)
                written.append(txt)
        return written

    def _write_conll(self, chains, out_dir: Path) -> list[Path]:
        by_source: dict[Path, list[int]] = {}
        for d, doc in enumerate(self.docs):
            by_source.setdefault(doc.source[0], []).append(d)
        written = []
        single = len(by_source) == 1
        names = NameAllocator()
        for src, ds in by_source.items():
            lines, token_lines = _conll_token_lines(src)
            for d in ds:
                doc, (mentions, doc_chains) = self.docs[d], chains[d]
                rows = token_lines.get(doc.name)
                if (
                    rows is None
                ):  # the comparison paired documents of different names (key/response)
                    rows = next(iter(token_lines.values())) if len(token_lines) == 1 else []
                marks: dict[int, list[str]] = {}
                cluster_of = {m: cid for cid, c in enumerate(doc_chains) for m in c}
                next_id = len(doc_chains)
                for m in sorted(mentions, key=lambda m: (m[1], -m[2])):
                    cid = cluster_of.get(m)
                    if cid is None:  # a mention in no chain: its own entity, as CoNLL writes them
                        cid = next_id
                        next_id += 1
                    first, last = m[1], m[2] - 1
                    if first == last:
                        marks.setdefault(first, []).append(f"({cid})")
                    else:
                        marks.setdefault(first, []).append(f"({cid}")
                        marks.setdefault(last, []).append(f"{cid})")
                for k, ln in enumerate(rows):
                    col = "|".join(marks.get(k, [])) or "-"
                    lines[ln] = re.sub(
                        r"\S+(\s*)$", lambda mm, col=col: col + mm.group(1), lines[ln], count=1
                    )
            if single:
                suffix = src.suffix if re.fullmatch(r"\.\w{1,20}", src.suffix) else ".conll"
                path = path_inside(out_dir, "gold" + suffix)
            else:
                (out_dir / "gold").mkdir(parents=True, exist_ok=True)
                path = path_inside(out_dir / "gold", names.take(src.name))
            write_text_atomic(path, "\n".join(lines) + "\n")
            written.append(path)
        return written

    def _write_table(self, chains, out_dir: Path) -> list[Path]:
        """Mention tables (``begin, end, entityNum, surface``), one per document in ``gold/``."""
        import pandas as pd

        from iaa_desktop.core.adjudication.gold_io import write_table

        folder = out_dir / "gold"
        folder.mkdir(parents=True, exist_ok=True)
        o = self.options
        begin, end = o.get("begin_column") or "begin", o.get("end_column") or "end"
        entity, doc_col = o.get("entity_column") or "entityNum", o.get("doc_column") or ""
        frames = []
        for doc, (mentions, doc_chains) in zip(self.docs, chains):
            cluster_of = {m: str(cid + 1) for cid, c in enumerate(doc_chains) for m in c}
            ms = sorted(mentions, key=lambda m: (m[1], m[2]))
            df = pd.DataFrame(
                {
                    begin: [m[1] for m in ms],
                    end: [m[2] for m in ms],
                    entity: [cluster_of.get(m, "") for m in ms],
                    "surface": [doc.surface(m) for m in ms],
                }
            )
            if doc_col:
                df.insert(0, doc_col, doc.name, allow_duplicates=True)
            frames.append((doc.name, df))
        if doc_col:
            return [
                write_table(
                    pd.concat([f for _, f in frames], ignore_index=True), folder / "gold.tsv", "\t"
                )
            ]
        names = NameAllocator()
        return [
            write_table(f, path_inside(folder, names.take(name, ".tsv")), "\t")
            for name, f in frames
        ]


def build_model(
    annotators: Sequence[str],
    docs: list[CorefDocument],
    fmt: str,
    inputs: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    matched: Sequence[Sequence[tuple[int, int]]] | None = None,
) -> CorefModel:
    """Units of the documents (the first two annotators are compared); ``matched`` = the class
    pairs per document (default: :func:`match_classes`)."""
    if len(annotators) < 2:
        raise IaaError("Coreference adjudication needs two annotators.")
    names = tuple(annotators[:2])
    b = _Built()
    for d, doc in enumerate(docs):
        A, B = doc.annotations[0], doc.annotations[1]
        pairs = list(matched[d]) if matched is not None else match_classes(A.classes, B.classes)
        matched_a = {i for i, _ in pairs}
        matched_b = {j for _, j in pairs}
        for i, j in pairs:
            a, c = A.classes[i], B.classes[j]
            ea, ec = encode_class(a), encode_class(c)
            b.keys.append(f"{doc.name}|pair|A{i + 1}|B{j + 1}")
            b.titles.append(
                f"{doc.name}: C{i + 1} ↔ C{j + 1} ({len(a & c)} shared, {len(a ^ c)} differ)"
            )
            b.owners.append(-1)
            b.groups.append(doc.name)
            b.versions.append([ea, ec])
            b.disagreement.append(len(a ^ c) / len(a | c))
            b.units.append(CorefUnit(d, "pair", (a, c)))
        for x, (ann, taken) in enumerate(((A, matched_a), (B, matched_b))):
            for k, c in enumerate(ann.classes):
                if k in taken:
                    continue
                side = "A" if x == 0 else "B"
                b.keys.append(f"{doc.name}|class|{side}{k + 1}")
                surf = ", ".join(_iso(doc.surface(m)) for m in sorted(c, key=lambda m: m[1])[:4])
                b.titles.append(f"{doc.name}: {NAME}'s class C{k + 1} only ({len(c)}: {surf}…)")
                b.owners.append(x)
                b.groups.append(doc.name)
                b.versions.append([KEEP, DROP] if x == 0 else [DROP, KEEP])
                b.disagreement.append(1.0)
                b.units.append(CorefUnit(d, "class", (c, None) if x == 0 else (None, c)))
        for m in sorted(A.mentions ^ B.mentions, key=lambda m: (m[1], m[2], m[0])):
            has_a = m in A.mentions
            b.keys.append(f"{doc.name}|mention|{mention_text(m)}")
            b.titles.append(f"{doc.name}: mention '{_iso(doc.surface(m))}' @{m[1]} only {NAME}")
            b.owners.append(0 if has_a else 1)
            b.groups.append(doc.name)
            b.versions.append([KEEP, DROP] if has_a else [DROP, KEEP])
            b.disagreement.append(1.0)
            b.units.append(CorefUnit(d, "mention", (), m))
    versions = np.empty((len(b.keys), 2), dtype=object)
    for k, row in enumerate(b.versions):
        versions[k, 0], versions[k, 1] = row
    titles = [t.replace(NAME, names[o]) if o >= 0 else t for t, o in zip(b.titles, b.owners)]
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
    )
    model._templates = (b.titles, b.owners)
    return model


def model_from_inputs(inputs: Sequence[Path], options: dict[str, Any] | None = None) -> CorefModel:
    """Run the ``coref`` kind on the inputs and build the units from its result."""
    return units_for_coref(_run_coref(inputs, options))


def units_for_coref(result: Any) -> CorefModel:
    """Units of a :class:`~iaa_desktop.core.kinds.coref.compare.CorefResult` (its first two annotators)."""
    names, docs, fmt, matched = documents_from_result(result)
    return build_model(names, docs, fmt, result.inputs, dict(result.options), matched)

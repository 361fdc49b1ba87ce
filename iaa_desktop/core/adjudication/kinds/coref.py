"""Units of the ``coref`` kind: class pairs, lone mentions and unmatched classes; gold chains.

For two annotators A and B and each document:

* every **matched class pair** (a, b) — minimum-cost assignment of A's classes to B's with cost
  |a △ b| and, among optimal assignments, the largest total overlap (ties as in the Psalms study;
  pairs sharing no mention are not matched) — is a unit whose versions are A's class and B's
  class; the adjudicator may also take their **union** (``u``) or **intersection** (``i``);
* every **mention only one annotator has** is a unit: ``keep`` or ``drop``;
* every **unmatched class** is a unit: ``keep`` or ``drop``.

Values: a class is its mentions as ``type start end`` joined by ``;`` (sorted); lone mentions and
unmatched classes are ``keep`` / ``drop``. The gold of a document (:meth:`CorefModel.gold_chains`)
is always a consistent set of chains: the gold mentions are the mentions both annotators have plus
the lone mentions kept; each decided class pair gives the chosen class restricted to the gold
mentions, plus the kept lone mentions its two classes held; each kept unmatched class gives its
gold mentions; a mention already in an earlier chain is not repeated; a chain left with fewer
than two mentions dissolves into singletons. Undecided units contribute nothing (no chain, lone
mention left out).

Gold export in the inputs' format: brat standoff (``<doc>.ann`` with the ``.txt``) or CoNLL-2012
(the first annotator's file with the coreference column replaced).

Documents are read with :func:`load_documents` (brat folders: one per annotator, documents
matched by file name; CoNLL files: one per annotator, documents by ``#begin document`` line).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import IaaError, OptionError, ReaderError
from ..model import AdjudicationModel, Choice

Mention = tuple[
    str, int, int
]  # (type, start, end): characters (brat) or tokens (CoNLL), end exclusive
KEEP, DROP = "keep", "drop"
NAME = "\x00"  # where a title names an annotator (replaced by the shown name)


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

    def char_span(self, m: Mention) -> tuple[int, int]:
        if self.token_spans is None:
            return m[1], m[2]
        return self.token_spans[m[1]][0], self.token_spans[m[2] - 1][1]

    def surface(self, m: Mention) -> str:
        s, e = self.char_span(m)
        return self.text[s:e]


# ---------------------------------------------------------------------------------------------
# reading


def _read_brat(ann: Path, errors: list[ReaderError]) -> AnnotatedDoc:
    ids: dict[str, Mention] = {}
    chains: list[list[str]] = []
    for n, line in enumerate(ann.read_text(encoding="utf-8-sig").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if parts[0].startswith("T") and len(parts) >= 2:
            head = parts[1].split(" ")
            try:
                if ";" in parts[1]:  # discontinuous span: first to last offset
                    nums = re.findall(r"\d+", parts[1][len(head[0]) :])
                    ids[parts[0]] = (head[0], int(nums[0]), int(nums[-1]))
                else:
                    ids[parts[0]] = (head[0], int(head[1]), int(head[2]))
            except (IndexError, ValueError):
                errors.append(
                    ReaderError(ann, n, f"cannot read the mention '{parts[1]}'; it is left out.")
                )
        elif parts[0].startswith("*") and len(parts) >= 2:
            words = parts[1].split()
            chains.append(words[1:])
    classes = []
    for chain in chains:
        c = frozenset(ids[t] for t in chain if t in ids)
        if len(c) >= 1:
            classes.append(c)
    return AnnotatedDoc(frozenset(ids.values()), tuple(classes))


def _brat_docs(folder: Path) -> dict[str, Path]:
    return {p.stem: p for p in sorted(folder.glob("*.ann"))}


_CONLL_BEGIN = re.compile(r"^#begin document \((.*)\);?\s*(?:part\s+(\d+))?")


def _parse_conll(path: Path) -> list[dict[str, Any]]:
    """Documents of a CoNLL file: name, tokens, per token its line number, mentions, classes."""
    docs: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    for n, line in enumerate(lines, 1):
        m = _CONLL_BEGIN.match(line)
        if m:
            name = m.group(1) + (f" part {int(m.group(2))}" if m.group(2) else "")
            cur = {
                "name": name,
                "tokens": [],
                "lines": [],
                "open": {},
                "clusters": {},
                "mentions": set(),
            }
            docs.append(cur)
            continue
        if line.startswith("#end document"):
            cur = None
            continue
        if cur is None or not line.strip() or line.startswith("#"):
            continue
        cols = line.split()
        k = len(cur["tokens"])
        cur["tokens"].append(cols[3] if len(cols) > 4 else cols[0])
        cur["lines"].append(n - 1)
        last = cols[-1]
        if last in ("-", "_"):
            continue
        for part in last.split("|"):
            mm = re.fullmatch(r"(\()?(\d+)(\))?", part.strip())
            if not mm:
                raise ReaderError(path, n, f"cannot read the coreference column '{last}'.")
            cid = int(mm.group(2))
            if mm.group(1) and mm.group(3):
                mention = ("", k, k + 1)
                cur["mentions"].add(mention)
                cur["clusters"].setdefault(cid, set()).add(mention)
            elif mm.group(1):
                cur["open"].setdefault(cid, []).append(k)
            elif mm.group(3):
                stack = cur["open"].get(cid)
                if not stack:
                    raise ReaderError(path, n, f"mention of cluster {cid} closed but never opened.")
                start = stack.pop()
                mention = ("", start, k + 1)
                cur["mentions"].add(mention)
                cur["clusters"].setdefault(cid, set()).add(mention)
    for d in docs:
        d["classes"] = tuple(frozenset(c) for _, c in sorted(d["clusters"].items()) if len(c) >= 2)
        d["lines_text"] = lines
    return docs


def load_documents(
    inputs: Sequence[Path],
) -> tuple[tuple[str, ...], list[CorefDocument], str, list[ReaderError]]:
    """Annotators, documents (only those every annotator has), format (``brat``/``conll``), problems."""
    paths = [Path(p) for p in inputs]
    errors: list[ReaderError] = []
    if len(paths) < 2:
        raise IaaError(
            "Coreference adjudication needs two annotators (two folders or two CoNLL files)."
        )
    if all(p.is_dir() for p in paths):
        names = tuple(p.name for p in paths)
        per = [_brat_docs(p) for p in paths]
        common = [d for d in per[0] if all(d in q for q in per[1:])]
        docs = []
        for d in common:
            txt_path = per[0][d].with_suffix(".txt")
            text = txt_path.read_text(encoding="utf-8") if txt_path.exists() else ""
            anns = tuple(_read_brat(q[d], errors) for q in per)
            docs.append(CorefDocument(d, text, anns, None, tuple(q[d] for q in per)))
        return names, docs, "brat", errors
    names = tuple(p.stem for p in paths)
    for p in paths:
        if not p.is_file():
            raise IaaError(f"{p}: give one brat folder or one CoNLL-2012 file per annotator.")
        head = p.read_text(encoding="utf-8-sig", errors="replace")[:4000]
        if "#begin document" not in head:
            raise OptionError(
                f"{p}: coreference adjudication reads brat folders (.ann + .txt) and CoNLL-2012 files; "
                "this file is neither (mention tables are not supported for adjudication yet)."
            )
    parsed = [_parse_conll(p) for p in paths]
    by_name = [{d["name"]: d for d in ds} for ds in parsed]
    docs = []
    for d0 in parsed[0]:
        if not all(d0["name"] in b for b in by_name[1:]):
            continue
        spans, pos = [], 0
        for tok in d0["tokens"]:
            spans.append((pos, pos + len(tok)))
            pos += len(tok) + 1
        anns = tuple(
            AnnotatedDoc(frozenset(b[d0["name"]]["mentions"]), b[d0["name"]]["classes"])
            for b in by_name
        )
        docs.append(CorefDocument(d0["name"], " ".join(d0["tokens"]), anns, spans, tuple(paths)))
    return names, docs, "conll", errors


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
        return f"{doc.surface(m)}@{m[1]}"

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
        if self.fmt == "brat":
            return self._write_brat(chains, out_dir)
        return self._write_conll(chains, out_dir)

    def _write_brat(self, chains, out_dir: Path) -> list[Path]:
        folder = out_dir / "gold"
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for doc, (mentions, doc_chains) in zip(self.docs, chains):
            ids: dict[Mention, str] = {}
            lines = []
            for k, m in enumerate(sorted(mentions, key=lambda m: (m[1], m[2], m[0])), 1):
                ids[m] = f"T{k}"
                lines.append(f"T{k}\t{m[0]} {m[1]} {m[2]}\t{doc.text[m[1] : m[2]]}")
            for c in doc_chains:
                lines.append(
                    "*\tCoreference "
                    + " ".join(ids[m] for m in sorted(c, key=lambda m: (m[1], m[2])))
                )
            ann = folder / f"{doc.name}.ann"
            ann.write_text("\n".join(lines) + "\n", encoding="utf-8")
            txt = folder / f"{doc.name}.txt"
            txt.write_text(doc.text, encoding="utf-8")
            written += [ann, txt]
        return written

    def _write_conll(self, chains, out_dir: Path) -> list[Path]:
        src = self.docs[0].source[0] if self.docs else None
        if src is None:
            return []
        parsed = {d["name"]: d for d in _parse_conll(src)}
        lines = src.read_text(encoding="utf-8-sig").splitlines()
        for doc, (mentions, doc_chains) in zip(self.docs, chains):
            p = parsed[doc.name]
            marks: dict[int, list[str]] = {}
            cluster_of: dict[Mention, int] = {}
            for cid, c in enumerate(doc_chains):
                for m in c:
                    cluster_of[m] = cid
            next_id = len(doc_chains)
            for m in sorted(mentions, key=lambda m: (m[1], -m[2])):
                cid = cluster_of.get(m)
                if cid is None:  # a singleton mention: its own cluster, as CoNLL writes them
                    cid = next_id
                    next_id += 1
                s, e = m[1], m[2] - 1
                if s == e:
                    marks.setdefault(s, []).append(f"({cid})")
                else:
                    marks.setdefault(s, []).append(f"({cid}")
                    marks.setdefault(e, []).append(f"{cid})")
            for k, ln in enumerate(p["lines"]):
                col = "|".join(marks.get(k, [])) or "-"
                lines[ln] = re.sub(
                    r"\S+(\s*)$", lambda mm, col=col: col + mm.group(1), lines[ln], count=1
                )
        path = out_dir / f"gold{src.suffix or '.conll'}"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return [path]


def build_model(
    annotators: Sequence[str],
    docs: list[CorefDocument],
    fmt: str,
    inputs: Sequence[str] = (),
    options: dict[str, Any] | None = None,
) -> CorefModel:
    """Units of the documents (the first two annotators are compared)."""
    if len(annotators) < 2:
        raise IaaError("Coreference adjudication needs two annotators.")
    names = tuple(annotators[:2])
    b = _Built()
    for d, doc in enumerate(docs):
        A, B = doc.annotations[0], doc.annotations[1]
        pairs = match_classes(A.classes, B.classes)
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
        for x, (ann, matched) in enumerate(((A, matched_a), (B, matched_b))):
            for k, c in enumerate(ann.classes):
                if k in matched:
                    continue
                side = "A" if x == 0 else "B"
                b.keys.append(f"{doc.name}|class|{side}{k + 1}")
                surf = ", ".join(doc.surface(m) for m in sorted(c, key=lambda m: m[1])[:4])
                b.titles.append(f"{doc.name}: {NAME}'s class C{k + 1} only ({len(c)}: {surf}…)")
                b.owners.append(x)
                b.groups.append(doc.name)
                b.versions.append([KEEP, DROP] if x == 0 else [DROP, KEEP])
                b.disagreement.append(1.0)
                b.units.append(CorefUnit(d, "class", (c, None) if x == 0 else (None, c)))
        for m in sorted(A.mentions ^ B.mentions, key=lambda m: (m[1], m[2], m[0])):
            has_a = m in A.mentions
            b.keys.append(f"{doc.name}|mention|{mention_text(m)}")
            b.titles.append(f"{doc.name}: mention '{doc.surface(m)}' @{m[1]} only {NAME}")
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
    names, docs, fmt, _errors = load_documents(inputs)
    return build_model(names, docs, fmt, tuple(str(p) for p in inputs), options)


def units_for_coref(result: Any) -> CorefModel:
    """Units of a coreference result: the documents of its inputs, read again."""
    return model_from_inputs([Path(p) for p in result.inputs], dict(result.options))

"""WebAnno / INCEpTION TSV 3.x (``#FORMAT=WebAnno TSV 3.x``).

Documented in the INCEpTION user guide, chapter "WebAnno TSV 3.3 File format"
(https://inception-project.github.io/releases/latest/docs/user-guide.html#sect_webannotsv).

A header declares the layers: ``#T_SP=`` span layers (one column per feature; a slot feature
takes two), ``#T_CH=`` chain layers (two columns: ``referenceType`` with the chain number in
brackets, ``referenceRelation`` as ``value->CHAIN-LINK``), ``#T_RL=`` relation layers (one column
per feature and a last column naming the source token). The body has one block per sentence
(``#Text=`` lines, then one row per token or sub-token: ``1-3``, ``9-14`` offsets, the token, the
layer columns). In a cell, ``_`` is "no annotation", ``*`` an annotation without a value,
``PER[3]`` an annotation with disambiguation id 3 (the same id on several rows is one multi-token
annotation) and ``A|B`` stacked annotations. Offsets count UTF-16 units (Java); they are
converted to code points here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.escapes import split_arrow, split_unescaped, strip_suffix, unescape
from iaa_desktop.core.formats.model import Chain, Document, Parsed, Relation, Span
from iaa_desktop.core.textio import read_text

FORMAT = "webanno-tsv3"
TITLE = "WebAnno / INCEpTION TSV 3.x"
MAGIC = "#FORMAT=WebAnno TSV 3"

_TOKEN = re.compile(r"^(\d+)-(\d+(?:\.\d+)?)$")
_OFFSETS = re.compile(r"^(\d{1,18})-(\d{1,18})$")  # longer offsets fit no text
#: longest gap between two sentences (UTF-16 units) that is filled with spaces
MAX_GAP = 1_000_000


def mismatch(head: str) -> str | None:
    """``None`` when ``head`` (the start of a file) is WebAnno TSV 3.x, else why it is not."""
    for line in head.lstrip("\ufeff").splitlines():
        if line.strip():
            if line.startswith(MAGIC):
                return None
            return f"the first line is not '{MAGIC}.x'"
    return "the file is empty"


@dataclass(slots=True)
class _Column:
    layer: str
    kind: str  # "span", "slot_role", "slot_target", "chain_type", "chain_rel", "rel", "rel_source"
    feature: str | None
    base: str = ""  # relation layers: the layer of the annotations they connect


@dataclass(slots=True)
class _Building:
    layer: str
    start16: int
    end16: int
    features: dict[str | None, str | None] = field(default_factory=dict)
    line: int = 0
    tokens: list[str] = field(default_factory=list)
    order: int = 0


def _header_columns(spec: str, kind: str, path: Path, line: int) -> list[_Column]:
    parts = spec.split("|")
    layer, feats = parts[0], parts[1:]
    if not layer:
        raise ReaderError(path, line, "a layer declaration without a layer name.")
    if kind == "SP":
        cols: list[_Column] = []
        i = 0
        while i < len(feats):
            if feats[i].startswith("ROLE_"):
                cols.append(_Column(layer, "slot_role", feats[i]))
                cols.append(_Column(layer, "slot_target", feats[i]))
                i += 2
            else:
                cols.append(_Column(layer, "span", feats[i]))
                i += 1
        return cols or [_Column(layer, "span", None)]
    if kind == "CH":
        return [_Column(layer, "chain_type", "referenceType"), _Column(layer, "chain_rel", None)]
    base = next((f[3:] for f in feats if f.startswith("BT_")), "")
    rel_feats = [f for f in feats if not f.startswith("BT_")]
    cols = [_Column(layer, "rel", f, base) for f in rel_feats] or [
        _Column(layer, "rel", None, base)
    ]
    return [*cols, _Column(layer, "rel_source", None, base)]


def _short(layer: str) -> str:
    return layer.rsplit(".", 1)[-1]


@dataclass(slots=True)
class _Row:
    token_id: str
    start16: int
    end16: int
    token: str
    cells: list[str]
    line: int


class _Reader:
    """State of one pass over a TSV file (kept in one object so the steps stay small)."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.lstrip("\ufeff").splitlines()
        self.columns: list[_Column] = []
        self.errors: list[ReaderError] = []
        self.warnings: list[ReaderError] = []
        self.rows: list[_Row] = []
        self.sentences: list[tuple[str, list[_Row]]] = []

    # -- header and body ---------------------------------------------------------------------
    def read_lines(self) -> None:
        if mismatch("\n".join(self.lines[:5])) is not None:
            raise ReaderError(self.path, 1, f"not WebAnno TSV 3.x (expected '{MAGIC}.x').")
        text_lines: list[str] = []
        sent_rows: list[_Row] = []
        in_header = True
        for n, line in enumerate(self.lines, start=1):
            if in_header and line.startswith(("#T_SP=", "#T_CH=", "#T_RL=")):
                kind = line[3:5]
                self.columns.extend(_header_columns(line[6:], kind, self.path, n))
                continue
            if line.startswith("#FORMAT="):
                continue
            if line.startswith("#Text="):
                in_header = False
                if sent_rows:
                    self.sentences.append(("\n".join(text_lines), sent_rows))
                    text_lines, sent_rows = [], []
                text_lines.append(line[6:])
                continue
            if line.startswith("#") and not _TOKEN.match(line.split("\t", 1)[0]):
                continue  # #Sentence.id= and other sentence header lines
            if not line.strip():
                continue
            in_header = False
            row = self._row(line, n)
            if row is not None:
                sent_rows.append(row)
                self.rows.append(row)
        if sent_rows:
            self.sentences.append(("\n".join(text_lines), sent_rows))

    def _row(self, line: str, n: int) -> _Row | None:
        cells = line.split("\t")
        # a final empty cell is what a trailing TAB leaves (older WebAnno writers add one)
        if len(cells) == len(self.columns) + 4 and cells[-1] == "":
            cells = cells[:-1]
        if len(cells) < 3 or not _TOKEN.match(cells[0]) or not _OFFSETS.match(cells[1]):
            self.errors.append(
                ReaderError(
                    self.path, n, "not a token row (expected 'sentence-token', 'begin-end', token)."
                )
            )
            return None
        if len(cells) - 3 != len(self.columns):
            self.errors.append(
                ReaderError(
                    self.path,
                    n,
                    f"{len(cells) - 3} annotation columns, but the header declares "
                    f"{len(self.columns)}; the row is skipped.",
                )
            )
            return None
        b, e = (int(x) for x in cells[1].split("-"))
        return _Row(cells[0], b, e, unescape(cells[2]), cells[3:], n)

    # -- text ----------------------------------------------------------------------------------
    def document_text(self) -> tuple[str, list[int]]:
        """The document text rebuilt from the sentences, and the UTF-16 → code point map."""
        chars: list[str] = []
        len16 = 0
        for sent_text, rows in self.sentences:
            start16 = min(r.start16 for r in rows)
            sentence = self._sentence_text(sent_text, rows, start16)
            if start16 > len16 + MAX_GAP:
                self.errors.append(
                    ReaderError(
                        self.path,
                        rows[0].line,
                        f"the sentence begins at offset {start16:,}, far beyond the text before "
                        f"it ({len16:,}); it is skipped.",
                    )
                )
                continue
            if start16 > len16:
                pad = start16 - len16
                # sentences are separated by a line break; the text between them is not recorded
                chars.append("\n" + " " * (pad - 1) if chars else " " * pad)
                len16 = start16
            elif start16 < len16:
                self.errors.append(
                    ReaderError(self.path, rows[0].line, "this sentence overlaps the one before.")
                )
                continue
            chars.append(sentence)
            len16 += _len16(sentence)
        text = "".join(chars)
        mapping: list[int] = []
        for i, ch in enumerate(text):
            mapping.append(i)
            if ord(ch) > 0xFFFF:
                mapping.append(i)
        mapping.append(len(text))
        return text, mapping

    def _sentence_text(self, raw: str, rows: list[_Row], start16: int) -> str:
        """The sentence as ``#Text=`` gives it when its tokens sit at their offsets in it."""
        end16 = max(r.end16 for r in rows)
        for candidate in (unescape(raw), raw):
            if _len16(candidate) < end16 - start16:
                continue
            units = candidate.encode("utf-16-le")
            if all(
                units[2 * (r.start16 - start16) : 2 * (r.end16 - start16)].decode(
                    "utf-16-le", "replace"
                )
                == r.token
                for r in rows
            ):
                return candidate
        # tokens alone, at their offsets, with spaces between them
        out: list[str] = []
        pos = start16
        for r in sorted(rows, key=lambda r: (r.start16, -r.end16)):
            if r.start16 < pos:
                continue  # a sub-token inside the token already placed
            out.append(" " * (r.start16 - pos))
            out.append(r.token)
            pos = r.start16 + _len16(r.token)
        return "".join(out)


def _len16(s: str) -> int:
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


class _Annotations:
    """Spans, chain links and relations collected from the columns of every row."""

    def __init__(self, reader: _Reader) -> None:
        self.r = reader
        self.spans: dict[tuple[str, str], _Building] = {}
        self.links: dict[tuple[str, int, int], _Building] = {}
        self.rel_cells: list[tuple[_Row, int, int]] = []  # (row, first column, last column)
        self.slot_cells: list[tuple[_Row, int]] = []

    def collect(self) -> None:
        cols = self.r.columns
        for row in self.r.rows:
            i = 0
            while i < len(cols):
                col = cols[i]
                j = i
                while j + 1 < len(cols) and cols[j + 1].layer == col.layer:
                    j += 1
                if col.kind in ("span", "slot_role", "slot_target"):
                    self._span_cells(row, i, j)
                elif col.kind == "chain_type":
                    self._chain_cells(row, i)
                else:
                    self.rel_cells.append((row, i, j))
                i = j + 1

    def _span_cells(self, row: _Row, first: int, last: int) -> None:
        cols = self.r.columns
        value_cols = [k for k in range(first, last + 1) if cols[k].kind == "span"]
        layer = cols[first].layer
        stacks = [split_unescaped(row.cells[k], "|") for k in value_cols]
        n = max((len(s) for s in stacks), default=0)
        if all(row.cells[k] == "_" for k in value_cols):
            return
        for idx in range(n):
            feats: dict[str | None, str | None] = {}
            disamb: str | None = None
            for k, stack in zip(value_cols, stacks, strict=True):
                piece = stack[idx] if idx < len(stack) else "_"
                value, suffix = strip_suffix(piece)
                disamb = disamb or suffix
                feats[cols[k].feature] = None if value in ("*", "_") else unescape(value)
            key = (layer, disamb) if disamb else (layer, f"{row.token_id}.{idx}")
            b = self.spans.get(key)
            if b is None:
                self.spans[key] = _Building(
                    layer, row.start16, row.end16, feats, row.line, [row.token_id], len(self.spans)
                )
            else:
                b.start16 = min(b.start16, row.start16)
                b.end16 = max(b.end16, row.end16)
                b.tokens.append(row.token_id)

    def _chain_cells(self, row: _Row, i: int) -> None:
        layer = self.r.columns[i].layer
        types = row.cells[i]
        rels = row.cells[i + 1]
        if types == "_" and rels == "_":
            return
        type_stack = split_unescaped(types, "|")
        rel_stack = split_unescaped(rels, "|")
        for idx, rel_piece in enumerate(rel_stack):
            value, target = split_arrow(rel_piece)
            m = re.match(r"^(\d{1,18})-(\d{1,18})$", target or "")
            if not m:
                self.r.errors.append(
                    ReaderError(
                        self.r.path,
                        row.line,
                        f"chain cell '{rel_piece}' is not 'relation->CHAIN-LINK'.",
                    )
                )
                continue
            chain, link = int(m.group(1)), int(m.group(2))
            type_piece = type_stack[idx] if idx < len(type_stack) else "*"
            ref_type, _ = strip_suffix(type_piece)
            key = (layer, chain, link)
            b = self.links.get(key)
            if b is None:
                feats: dict[str | None, str | None] = {
                    "referenceType": None if ref_type in ("*", "_") else unescape(ref_type),
                    "referenceRelation": None if value in ("*", "_") else unescape(value),
                }
                self.links[key] = _Building(
                    layer, row.start16, row.end16, feats, row.line, [row.token_id]
                )
            else:
                b.start16 = min(b.start16, row.start16)
                b.end16 = max(b.end16, row.end16)
                b.tokens.append(row.token_id)


def _label(feats: dict[str | None, str | None]) -> str | None:
    for value in feats.values():
        if value is not None:
            return value
    return None


def parse_text(
    text: str, path: Path | str, annotator: str | None = None, name: str | None = None
) -> Parsed:
    """Parse the text of one TSV 3.x file into one :class:`Document` (plus row errors)."""
    path = Path(path)
    reader = _Reader(path, text)
    reader.read_lines()
    doc_text, to_cp = reader.document_text()
    ann = _Annotations(reader)
    ann.collect()

    def cp(off16: int, line: int) -> int:
        if 0 <= off16 < len(to_cp):
            return to_cp[off16]
        reader.errors.append(ReaderError(path, line, f"offset {off16} is past the text's end."))
        return len(doc_text)

    spans: list[Span] = []
    for (layer, key), b in ann.spans.items():
        s, e = cp(b.start16, b.line), cp(b.end16, b.line)
        sid = f"{layer}:{key}"
        feats = tuple((k or "", v) for k, v in b.features.items())
        spans.append(Span(s, e, _label(b.features), layer, sid, feats, (), doc_text[s:e], b.line))
    chains: dict[tuple[str, int], list[tuple[int, str]]] = {}
    for (layer, chain, link), b in ann.links.items():
        s, e = cp(b.start16, b.line), cp(b.end16, b.line)
        sid = f"{layer}:chain{chain}-link{link}"
        feats = tuple((k or "", v) for k, v in b.features.items())
        label = b.features.get("referenceType")
        spans.append(Span(s, e, label, layer, sid, feats, (), doc_text[s:e], b.line))
        chains.setdefault((layer, chain), []).append((link, sid))
    chain_values = tuple(
        Chain(f"{layer}:chain{c}", tuple(sid for _, sid in sorted(links)), layer)
        for (layer, c), links in sorted(chains.items())
    )
    relations = _relations(reader, ann, spans)
    spans.sort(key=lambda s: (s.start, -s.end, s.layer, s.id))
    doc = Document(
        name or path.stem,
        doc_text,
        annotator or path.stem,
        tuple(spans),
        tuple(relations),
        chain_values,
        str(path),
    )
    return Parsed(FORMAT, documents=(doc,), errors=tuple(reader.errors))


def _relations(reader: _Reader, ann: _Annotations, spans: list[Span]) -> list[Relation]:
    """Relations of every ``#T_RL`` layer, resolved to the span ids of their endpoints."""
    by_token: dict[tuple[str, str], list[tuple[str | None, str]]] = {}
    for (layer, key), b in ann.spans.items():
        disamb = key if "." not in key else None
        for tok in b.tokens:
            by_token.setdefault((layer, tok), []).append((disamb, f"{layer}:{key}"))
    cols = reader.columns
    out: list[Relation] = []
    for row, first, last in ann.rel_cells:
        if all(row.cells[k] == "_" for k in range(first, last + 1)):
            continue
        base = cols[first].base
        stacks = [split_unescaped(row.cells[k], "|") for k in range(first, last + 1)]
        for idx, source_piece in enumerate(stacks[-1]):
            src_tok, ids = strip_suffix(source_piece)
            src_id, tgt_id = ids.split("_", 1) if ids and "_" in ids else (ids, None)
            source = _endpoint(by_token, base, src_tok, src_id)
            target = _endpoint(by_token, base, row.token_id, tgt_id)
            if source is None or target is None:
                reader.errors.append(
                    ReaderError(
                        reader.path,
                        row.line,
                        f"relation from {source_piece} to {row.token_id}: no annotation of "
                        f"layer {_short(base)} there.",
                    )
                )
                continue
            feats = tuple(
                (cols[first + k].feature or "", _value(stacks[k], idx))
                for k in range(len(stacks) - 1)
            )
            label = next((v for _, v in feats if v is not None), None)
            out.append(Relation(source, target, label, cols[first].layer, feats, row.line))
    return out


def _value(stack: list[str], idx: int) -> str | None:
    piece = stack[idx] if idx < len(stack) else "_"
    value, _ = strip_suffix(piece)
    return None if value in ("*", "_") else unescape(value)


def _endpoint(
    by_token: dict[tuple[str, str], list[tuple[str | None, str]]],
    layer: str,
    token: str,
    disamb: str | None,
) -> str | None:
    candidates = by_token.get((layer, token), [])
    if disamb and disamb != "0":
        return next((sid for d, sid in candidates if d == disamb), None)
    return candidates[0][1] if len(candidates) >= 1 else None


def parse(
    path: Path | str,
    annotator: str | None = None,
    encoding: str | None = None,
    name: str | None = None,
) -> Parsed:
    """Read one TSV 3.x file (the annotator defaults to the file name without extension)."""
    path = Path(path)
    return parse_text(read_text(path, encoding), path, annotator, name)

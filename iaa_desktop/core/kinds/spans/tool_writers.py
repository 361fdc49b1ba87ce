"""Gold spans written in the annotation tools' formats, so the gold goes back to the tool.

* **WebAnno TSV 3.3** (``gold/<document>.tsv``): the sentences, tokens and text of an annotator's
  TSV file of the document are kept and the chosen layer's column holds the gold; a gold boundary
  inside a token becomes a sub-token (``1-3.1``), as the format provides. Spans that start or end
  between tokens are cut to the tokens, as INCEpTION does (the INCEpTION user guide, "WebAnno TSV
  3.3 File format"). A document without a TSV file is tokenized here (one sentence per line).
* **UIMA CAS XMI** for INCEpTION project exports (``gold/<document>.zip`` holding
  ``<document>.xmi`` and ``TypeSystem.xml``, INCEpTION's per-document XMI export): an annotator's
  CAS of the document with the chosen layer's annotations replaced by the gold, so tokens,
  sentences and every other layer stay; it loads back into INCEpTION with the project's layers.
* **Label Studio JSON** (``gold/gold.json``): a task per document with one annotation marked
  ``ground_truth`` and without ``completed_by`` (Label Studio gives it to the user who imports
  it); offsets in UTF-16 units, as the browser counts.
* **doccano JSONL** (``gold/gold.jsonl``, the annotator ``gold``): ``label: [[start, end, label]]``;
  with relations, ``entities`` and ``relations`` (doccano's relation extraction form).
* **Prodigy JSONL** (``gold/gold.jsonl``): accepted ``ner_manual`` tasks of the annotator ``gold``,
  ``_input_hash`` the document's; with relations, ``rel.manual`` tasks (``relations`` interface).

A discontinuous gold span (brat's) is written as one span per fragment in these formats, which
have no discontinuous spans.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from iaa_desktop.core.io import safe_filename, write_bytes_atomic, write_text_atomic
from iaa_desktop.core.kinds.spans.options import DEFAULT_FEATURE, DEFAULT_LAYER
from iaa_desktop.core.kinds.spans.readers import Span
from iaa_desktop.core.kinds.spans.relations import Relation
from iaa_desktop.core.kinds.spans.tools import (
    GOLD,
    NO_VALUE,
    layer_matches,
    load_cas,
)
from iaa_desktop.core.textio import read_bytes

_TOKEN_ROW = re.compile(r"^(\d+-\d+(?:\.\d+)?)\t(\d+)-(\d+)\t")


def _inside(folder: Path, name: str, suffix: str) -> Path:
    """``folder/name+suffix``, or a safe file name when ``name`` would leave the folder."""
    path = folder / f"{name}{suffix}"
    if not path.resolve().is_relative_to(folder.resolve()):
        path = folder / f"{safe_filename(name)}{suffix}"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _pieces(spans: list[Span]) -> Iterator[tuple[int, int, str]]:
    for s in spans:
        for a, b in s.fragments:
            yield a, b, s.label


def _raw_id(name: str) -> int | str:
    """A document name as the tool's id: ``"7"`` → ``7``."""
    return int(name) if re.fullmatch(r"-?\d{1,18}", name) else name


def utf16_offsets(text: str) -> list[int]:
    """Code point offset → UTF-16 offset, for every offset 0..len(text)."""
    out = [0]
    for ch in text:
        out.append(out[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return out


# -- Label Studio, doccano, Prodigy -------------------------------------------------------------------


def write_label_studio(
    corpus: Any,
    spans: dict[int, list[Span]],
    folder: Path,
    info: dict[str, str],
    relations: dict[int, list[Relation]] | None = None,
) -> list[Path]:
    """One Label Studio JSON export of the gold; with ``relations``, a ``relation`` result per
    relation between the results of its arguments (contiguous spans)."""
    tasks = []
    for d, name in enumerate(corpus.names):
        text = corpus.texts[d] or ""
        to16 = utf16_offsets(text)
        result: list[dict[str, Any]] = [
            {
                "id": f"gold{k}",
                "from_name": info.get("from_name", "label"),
                "to_name": info.get("to_name", "text"),
                "type": "labels",
                "value": {"start": to16[a], "end": to16[b], "text": text[a:b], "labels": [lab]},
            }
            for k, (a, b, lab) in enumerate(_pieces(spans.get(d, [])), 1)
        ]
        ids: dict[tuple[tuple[int, int], ...], str] = {}
        for k, (a, b, _lab) in enumerate(_pieces(spans.get(d, [])), 1):
            ids.setdefault(((a, b),), f"gold{k}")
        for r in (relations or {}).get(d, []):
            if r.source in ids and r.target in ids:
                result.append(
                    {
                        "from_id": ids[r.source],
                        "to_id": ids[r.target],
                        "type": "relation",
                        "direction": "right",
                        "labels": [r.label],
                    }
                )
        tasks.append(
            {
                "id": _raw_id(name),
                "data": {info.get("data_key", "text"): text},
                "annotations": [{"ground_truth": True, "was_cancelled": False, "result": result}],
            }
        )
    path = _inside(folder, "gold", ".json")
    write_text_atomic(path, json.dumps(tasks, ensure_ascii=False, indent=2) + "\n")
    return [path]


def write_doccano(
    corpus: Any,
    spans: dict[int, list[Span]],
    folder: Path,
    relations: dict[int, list[Relation]] | None = None,
) -> list[Path]:
    """The gold as a doccano JSONL file; with ``relations``, in doccano's relation extraction
    form (``entities`` with ids, ``relations`` with ``from_id``/``to_id``/``type``)."""
    lines = []
    for d, name in enumerate(corpus.names):
        record: dict[str, Any] = {"id": _raw_id(name), "text": corpus.texts[d] or ""}
        pieces = list(_pieces(spans.get(d, [])))
        if relations is None:
            record["label"] = [[a, b, lab] for a, b, lab in pieces]
        else:
            record["entities"] = [
                {"id": k, "start_offset": a, "end_offset": b, "label": lab}
                for k, (a, b, lab) in enumerate(pieces)
            ]
            ids: dict[tuple[tuple[int, int], ...], int] = {}
            for k, (a, b, _lab) in enumerate(pieces):
                ids.setdefault(((a, b),), k)
            record["relations"] = [
                {"id": k, "from_id": ids[r.source], "to_id": ids[r.target], "type": r.label}
                for k, r in enumerate(
                    r for r in relations.get(d, []) if r.source in ids and r.target in ids
                )
            ]
        lines.append(json.dumps(record, ensure_ascii=False))
    path = _inside(folder, GOLD, ".jsonl")
    write_text_atomic(path, "\n".join(lines) + "\n")
    return [path]


_PRODIGY_TOKEN = re.compile(r"\w+|[^\w\s]")


def write_prodigy(
    corpus: Any,
    spans: dict[int, list[Span]],
    folder: Path,
    relations: dict[int, list[Relation]] | None = None,
) -> list[Path]:
    """The gold as accepted Prodigy tasks; with ``relations``, ``rel.manual`` tasks: ``tokens``
    (words and punctuation), spans with their tokens, and ``relations`` from ``head_span`` to
    ``child_span`` (``head``/``child`` the last token of each, as Prodigy's relations interface
    writes them)."""
    lines = []
    for d, name in enumerate(corpus.names):
        text = corpus.texts[d] or ""
        task: dict[str, Any] = {"text": text}
        if isinstance(_raw_id(name), int):  # otherwise Prodigy hashes the text on import
            task["_input_hash"] = _raw_id(name)
        pieces = list(_pieces(spans.get(d, [])))
        task["spans"] = [{"start": a, "end": b, "label": lab} for a, b, lab in pieces]
        view = "ner_manual"
        if relations is not None:
            view = "relations"
            tokens = [m.span() for m in _PRODIGY_TOKEN.finditer(text)]
            task["tokens"] = [
                {"text": text[a:b], "start": a, "end": b, "id": k, "ws": text[b : b + 1].isspace()}
                for k, (a, b) in enumerate(tokens)
            ]

            def token_range(a: int, b: int, tokens: list[tuple[int, int]] = tokens) -> list[int]:
                inside = [k for k, (ta, tb) in enumerate(tokens) if ta < b and tb > a]
                return [inside[0], inside[-1]] if inside else [0, 0]

            by_args: dict[tuple[tuple[int, int], ...], dict[str, Any]] = {}
            for sp in task["spans"]:
                first, last = token_range(sp["start"], sp["end"])
                sp.update(token_start=first, token_end=last)
                by_args.setdefault(((sp["start"], sp["end"]),), sp)
            task["relations"] = [
                {
                    "head": by_args[r.source]["token_end"],
                    "child": by_args[r.target]["token_end"],
                    "head_span": dict(by_args[r.source]),
                    "child_span": dict(by_args[r.target]),
                    "label": r.label,
                }
                for r in relations.get(d, [])
                if r.source in by_args and r.target in by_args
            ]
        task.update(answer="accept", _view_id=view, _annotator_id=GOLD, _session_id=GOLD)
        lines.append(json.dumps(task, ensure_ascii=False))
    path = _inside(folder, GOLD, ".jsonl")
    write_text_atomic(path, "\n".join(lines) + "\n")
    return [path]


# -- sources: the annotators' files of a document ------------------------------------------------------


def read_source(source: tuple[str, tuple[str, ...]]) -> tuple[bytes, zipfile.ZipFile | None]:
    """The bytes of ``file[!member[!inner member]]`` and the archive holding them (or ``None``)."""
    path, members = source
    if not members:
        return read_bytes(Path(path)), None
    zf = zipfile.ZipFile(path)
    for m in members[:-1]:
        zf = zipfile.ZipFile(io.BytesIO(zf.read(m)))
    return zf.read(members[-1]), zf


def _typesystem_near(zf: zipfile.ZipFile | None, member: str, outer: str) -> bytes | None:
    """``TypeSystem.xml`` in the XMI's folder of its archive, else at the project's root."""
    for archive in (zf, zipfile.ZipFile(outer) if zipfile.is_zipfile(outer) else None):
        if archive is None:
            continue
        folder = str(PurePosixPath(member).parent) if archive is zf else "."
        for n in archive.namelist():
            p = PurePosixPath(n)
            if p.name.lower() == "typesystem.xml" and str(p.parent) == folder:
                return archive.read(n)
    return None


# -- UIMA CAS XMI -------------------------------------------------------------------------------------


def _gold_cas(
    source: tuple[str, tuple[str, ...]] | None, text: str, layer: str, feature: str
) -> tuple[Any, Any]:
    """(CAS, type system) to hold the gold: the source CAS, or a new one with only the layer."""
    if source is not None:
        raw, zf = read_source(source)
        if source[1]:
            ts_raw = _typesystem_near(zf, source[1][-1], source[0])
        else:
            folder = Path(source[0]).parent
            ts_file = next(
                (p for p in folder.iterdir() if p.name.lower() == "typesystem.xml"), None
            )
            ts_raw = read_bytes(ts_file) if ts_file else None
        return load_cas(raw, ts_raw, source[0])
    import cassis

    full = layer if "." in layer else DEFAULT_LAYER.rsplit(".", 1)[0] + "." + layer
    ts = cassis.TypeSystem()
    t = ts.create_type(full, supertypeName="uima.tcas.Annotation")
    ts.create_feature(t, feature, "uima.cas.String")
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = text
    return cas, ts


def write_xmi(
    corpus: Any,
    spans: dict[int, list[Span]],
    folder: Path,
    sources: dict[int, tuple[str, tuple[str, ...]]],
    layer: str = DEFAULT_LAYER,
    feature: str = DEFAULT_FEATURE,
    relations: dict[int, list[Relation]] | None = None,
) -> list[Path]:
    """``<document>.zip`` per document: the XMI of the gold and ``TypeSystem.xml``; with
    ``relations``, the gold relations in a relation layer over the gold spans (see
    :func:`_add_xmi_relations`)."""
    written = []
    for d, name in enumerate(corpus.names):
        text = corpus.texts[d] or ""
        cas, ts = _gold_cas(sources.get(d), text, layer, feature)
        full = next(t.name for t in ts.get_types() if layer_matches(t.name, layer))
        if relations is not None:
            rel_type, rel_feature = _xmi_relation_layer(cas, ts, full)
        for fs in list(cas.select(full)):
            cas.remove(fs)
        Layer = ts.get_type(full)
        made: dict[tuple[tuple[int, int], ...], Any] = {}
        for a, b, lab in _pieces(spans.get(d, [])):
            fs = Layer(begin=a, end=b, **{feature: None if lab == NO_VALUE else lab})
            made.setdefault(((a, b),), fs)
            cas.add(fs)
        if relations is not None:
            Rel = ts.get_type(rel_type)
            for r in relations.get(d, []):
                gov, dep = made.get(r.source), made.get(r.target)
                if gov is not None and dep is not None:  # contiguous arguments only
                    label = None if r.label == NO_VALUE else r.label
                    cas.add(
                        Rel(
                            begin=dep.begin,
                            end=dep.end,
                            Governor=gov,
                            Dependent=dep,
                            **{rel_feature: label},
                        )
                    )
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(f"{PurePosixPath(name).stem or 'document'}.xmi", cas.to_xmi())
            z.writestr("TypeSystem.xml", ts.to_xml())
        path = _inside(folder, name, ".zip")
        write_bytes_atomic(path, buf.getvalue())
        written.append(path)
    return written


def _xmi_relation_layer(cas: Any, ts: Any, layer: str) -> tuple[str, str]:
    """(type, label feature) of the gold relations between spans of ``layer`` in a CAS.

    A relation layer is a type with ``Governor`` and ``Dependent`` features (INCEpTION's relation
    layers, the INCEpTION user guide, "Relation layers"). The source's relation layer over
    ``layer`` is kept as the type, its annotations removed (they join the spans being replaced);
    without one, INCEpTION's custom ``webanno.custom.Relation`` layer with a ``label`` feature is
    added to the type system. The label goes in the first string feature, which is where the
    reader takes it from.
    """
    found = None
    for t in ts.get_types():
        names = {f.name: f for f in t.all_features}
        if not {"Governor", "Dependent"} <= set(names):
            continue
        over = [names[f].rangeType.name for f in ("Governor", "Dependent")]
        used = list(cas.select(t.name))
        if all(layer_matches(o, layer) for o in over) or any(
            fs.Governor is not None and layer_matches(fs.Governor.type.name, layer) for fs in used
        ):
            for fs in used:
                cas.remove(fs)
            if found is None:
                found = t
    if found is None:
        name = RELATION_LAYER
        while name in {t.name for t in ts.get_types()}:
            name += "_"
        found = ts.create_type(name, supertypeName="uima.tcas.Annotation")
        ts.create_feature(found, "Governor", layer)
        ts.create_feature(found, "Dependent", layer)
        ts.create_feature(found, "label", "uima.cas.String")
    strings = [
        f.name
        for f in found.all_features
        if f.name not in ("sofa", "begin", "end") and f.rangeType.name == "uima.cas.String"
    ]
    if not strings:
        ts.create_feature(found, "label", "uima.cas.String")
        strings = ["label"]
    label: str = strings[0]
    return found.name, label


# -- WebAnno TSV 3.3 ------------------------------------------------------------------------------------


def escape(value: str) -> str:
    """A feature value with the TSV 3.x reserved characters escaped (``\\ [ ] | _ -> ; * TAB LF``)."""
    out = value.replace("\\", "\\\\")
    for ch in "[]|_;*":
        out = out.replace(ch, "\\" + ch)
    return out.replace("->", "\\->").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


@dataclass
class _Row:
    tid: str
    b16: int
    e16: int
    rest: str  # the token (and nothing else) as written
    cell: list[str] = field(default_factory=list)

    @property
    def sub(self) -> bool:
        return "." in self.tid


@dataclass
class _Sentence:
    header: list[str]
    rows: list[_Row]


def _source_sentences(raw: str) -> list[_Sentence]:
    """The sentence headers and token rows of a TSV 3.x file (annotation columns left out)."""
    out: list[_Sentence] = []
    header: list[str] = []
    for line in raw.lstrip("\ufeff").splitlines():
        if line.startswith(("#FORMAT=", "#T_SP=", "#T_CH=", "#T_RL=")) or not line.strip():
            continue
        m = _TOKEN_ROW.match(line)
        if m:
            token = line.split("\t")[2]
            row = _Row(m.group(1), int(m.group(2)), int(m.group(3)), token)
            if header or not out:
                out.append(_Sentence(header, []))
                header = []
            out[-1].rows.append(row)
        elif line.startswith("#"):
            header.append(line)
    return [s for s in out if s.rows]


def _own_sentences(text: str) -> list[_Sentence]:
    """Sentences (lines) and tokens (runs of word characters, or one other character) of a text."""
    from iaa_desktop.core.kinds.spans.corpus import TOKEN

    to16 = utf16_offsets(text)
    out: list[_Sentence] = []
    pos = 0
    for line in text.split("\n"):
        tokens = [m.span() for m in TOKEN.finditer(line)]
        if tokens:
            start = pos + tokens[0][0]
            k = len(out) + 1
            rows = [
                _Row(f"{k}-{n}", to16[pos + a], to16[pos + b], escape(line[a:b]))
                for n, (a, b) in enumerate(tokens, 1)
            ]
            out.append(_Sentence([f"#Text={text[start : pos + len(line)]}"], rows))
        pos += len(line) + 1
    return out


def _place(
    sentences: list[_Sentence], text: str, pieces: list[tuple[int, int, str]]
) -> list[tuple[list[_Row], int]]:
    """Mark every gold span on the rows it covers (sub-tokens added where it cuts a token); the
    rows of each piece and its disambiguation id (0: none).

    A span gets a disambiguation id ``[N]`` when it covers several rows or shares a row with
    another span, as the format asks.
    """
    from iaa_desktop.core.formats.model import utf16_to_codepoints

    to16, to_cp = utf16_offsets(text), utf16_to_codepoints(text)
    marks: list[list[_Row]] = []
    for a, b, _lab in pieces:
        s16, e16 = to16[a], to16[b]
        for sent in sentences:
            cut = [r for r in sent.rows if not r.sub and r.b16 < e16 and s16 < r.e16]
            for row in cut:
                if row.b16 < s16 or e16 < row.e16:
                    _sub_token(sent, row, max(row.b16, s16), min(row.e16, e16), text, to_cp)
        rows = [r for sent in sentences for r in sent.rows if s16 <= r.b16 and r.e16 <= e16]
        whole = {r.tid for r in rows if not r.sub}
        marks.append([r for r in rows if not (r.sub and r.tid.split(".")[0] in whole)])
    on_row: dict[int, int] = {}
    for rows in marks:
        for r in rows:
            on_row[id(r)] = on_row.get(id(r), 0) + 1
    next_id = 1
    placed: list[tuple[list[_Row], int]] = []
    for (_a, _b, lab), rows in zip(pieces, marks):
        value = NO_VALUE if lab == NO_VALUE else escape(lab)
        given = 0
        if len(rows) > 1 or any(on_row[id(r)] > 1 for r in rows):
            value += f"[{next_id}]"
            given = next_id
            next_id += 1
        for r in rows:
            r.cell.append(value)
        placed.append((rows, given))
    return placed


#: the relation layer of gold relations in TSV 3.3 (INCEpTION's custom relation layer)
RELATION_LAYER = "webanno.custom.Relation"


def _place_relations(
    pieces: list[tuple[int, int, str]],
    placed: list[tuple[list[_Row], int]],
    relations: list[Relation],
) -> dict[int, list[tuple[str, str]]]:
    """Row (by ``id``) → (label, governor reference) of each relation on it: the relation sits on
    the first row of its dependent (target), the ``BT_`` cell names the governor's first row with
    the ids ``[governor_dependent]`` when either span has one."""
    where: dict[tuple[tuple[int, int], ...], tuple[_Row, int]] = {}
    for (a, b, _lab), (rows, given) in zip(pieces, placed):
        if rows:
            where.setdefault(((a, b),), (rows[0], given))
    out: dict[int, list[tuple[str, str]]] = {}
    for r in relations:
        if r.source not in where or r.target not in where:
            continue
        (gov, gid), (dep, did) = where[r.source], where[r.target]
        ref = gov.tid + (f"[{gid}_{did}]" if gid or did else "")
        out.setdefault(id(dep), []).append((escape(r.label), ref))
    return out


def _sub_token(sent: _Sentence, row: _Row, b16: int, e16: int, text: str, to_cp: list[int]) -> None:
    """Add the sub-token ``b16``–``e16`` of ``row`` after its other sub-tokens (once)."""
    subs = [r for r in sent.rows if r.sub and r.tid.split(".")[0] == row.tid]
    if any((r.b16, r.e16) == (b16, e16) for r in subs):
        return
    n = max((int(r.tid.split(".")[1]) for r in subs), default=0) + 1
    new = _Row(f"{row.tid}.{n}", b16, e16, escape(text[to_cp[b16] : to_cp[e16]]))
    at = sent.rows.index(subs[-1] if subs else row) + 1
    sent.rows.insert(at, new)


def write_tsv3(
    corpus: Any,
    spans: dict[int, list[Span]],
    folder: Path,
    sources: dict[int, tuple[str, tuple[str, ...]]],
    layer: str = DEFAULT_LAYER,
    feature: str = DEFAULT_FEATURE,
    relations: dict[int, list[Relation]] | None = None,
) -> list[Path]:
    """``<document>.tsv`` per document (see the module docstring); with ``relations``, a relation
    layer (``#T_RL=``) holding them."""
    from iaa_desktop.core.textio import decode_text

    written = []
    for d, name in enumerate(corpus.names):
        text = corpus.texts[d] or ""
        sentences: list[_Sentence] = []
        if d in sources:
            raw, _zf = read_source(sources[d])
            sentences = _source_sentences(decode_text(raw, sources[d][0]))
        if not sentences:
            sentences = _own_sentences(text)
        pieces = list(_pieces(spans.get(d, [])))
        placed = _place(sentences, text, pieces)
        lines = ["#FORMAT=WebAnno TSV 3.3", f"#T_SP={layer}|{feature}"]
        links: dict[int, list[tuple[str, str]]] | None = None
        if relations is not None:
            lines.append(f"#T_RL={RELATION_LAYER}|label|BT_{layer}")
            links = _place_relations(pieces, placed, relations.get(d, []))
        lines += ["", ""]
        for sent in sentences:
            lines.extend(sent.header)
            for r in sent.rows:
                row = f"{r.tid}\t{r.b16}-{r.e16}\t{r.rest}\t{'|'.join(r.cell) or '_'}"
                if links is not None:
                    mine = links.get(id(r), [])
                    labels = "|".join(lab for lab, _ in mine) or "_"
                    row += f"\t{labels}\t{'|'.join(ref for _, ref in mine) or '_'}"
                lines.append(row)
            lines.append("")
        path = _inside(folder, name, ".tsv")
        write_text_atomic(path, "\n".join(lines) + "\n")
        written.append(path)
    return written

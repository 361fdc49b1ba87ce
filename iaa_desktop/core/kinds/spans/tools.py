"""Span annotations of annotation tools' exports, as :class:`SpanDocument` values.

The files are parsed by :mod:`iaa_desktop.core.formats`; here their spans become a span study's:

* **WebAnno / INCEpTION TSV 3.x** (one file = one document of one annotator): the spans of one
  span layer (``#T_SP=``), labelled with the value of one of its features — the settings
  ``layer`` and ``feature``, by default DKPro's named-entity layer and its ``value``.
* **INCEpTION project export ZIP**: every user's annotations of every document (UIMA CAS XMI read
  with dkpro-cassis, or TSV 3.x), the same layer and feature; the curated version on request.
* **UIMA CAS XMI of one document**: INCEpTION's per-document XMI export (a ZIP holding
  ``<document>.xmi`` and ``TypeSystem.xml``) or an ``.xmi`` file with ``TypeSystem.xml`` beside it.
* **Label Studio JSON**: the ``labels`` results (``value.start``, ``value.end``,
  ``value.labels``) of each annotation, one annotator per ``completed_by``; a task is a document
  named by its id. An annotation without a span is a document the annotator left without spans; an
  annotation without ``completed_by`` marked ``ground_truth`` is the gold this app writes.
* **doccano JSONL**: ``label: [[start, end, label], …]`` (or ``entities``), one file per annotator.
* **Prodigy JSONL**: the accepted ``spans`` tasks, ``_annotator_id`` the annotator,
  ``_input_hash`` the document.

An annotation without a value (TSV's ``*``, a region without a label) gets the label ``*``.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats import read_head
from iaa_desktop.core.formats.inception import ZIP_ERRORS, read_member
from iaa_desktop.core.formats.jsonio import loads, scalar_text
from iaa_desktop.core.formats.model import Document
from iaa_desktop.core.kinds.spans.options import DEFAULT_FEATURE, DEFAULT_LAYER, SpansOptions
from iaa_desktop.core.kinds.spans.readers import Span, SpanDocument, check_fragments
from iaa_desktop.core.textio import read_bytes, read_head_bytes

NO_VALUE = "*"
GOLD = "gold"
#: formats whose file is one document of one annotator (named after its folder or the file)
PER_DOCUMENT = ("webanno-tsv3", "xmi")
#: formats whose file names its annotators and documents
SELF_NAMED = ("inception-zip", "label-studio", "doccano", "prodigy")
TITLES = {
    "brat": "brat standoff",
    "table": "span table",
    "webanno-tsv3": "WebAnno / INCEpTION TSV 3.x",
    "xmi": "UIMA CAS XMI",
    "inception-zip": "INCEpTION project export",
    "label-studio": "Label Studio JSON",
    "doccano": "doccano JSONL",
    "prodigy": "Prodigy JSONL",
}
_LS_SPAN_TYPES = ("labels", "hypertextlabels", "paragraphlabels")
_LS_SPAN_RESULT = re.compile(r'"type"\s*:\s*"(?:labels|hypertextlabels|paragraphlabels)"')
#: a chain element in UIMA XMI (DKPro's CoreferenceChain, INCEpTION's custom ``…Chain`` layers)
_XMI_CHAIN = re.compile(rb"<[\w.-]+:\w*Chain[\s/>]")

ByAnnotator = dict[str, dict[str, SpanDocument]]


# -- recognising ------------------------------------------------------------------------------


def _is_zip(path: Path) -> bool:
    from iaa_desktop.core.textio import is_zip

    return is_zip(path)


def file_format(path: Path) -> str | None:
    """The tool format of ``path`` (a name of :data:`TITLES`), or ``None``."""
    from iaa_desktop.core.formats import doccano, inception, label_studio, prodigy, webanno_tsv

    path = Path(path)
    if not path.is_file():
        return None
    if path.suffix.lower() == ".xmi":
        return "xmi"
    if _is_zip(path):
        if inception.mismatch_zip(path) is None:
            return "inception-zip"
        try:
            with zipfile.ZipFile(path) as zf:
                names = zf.namelist()
        except ZIP_ERRORS:
            return None
        return "xmi" if any(n.lower().endswith(".xmi") for n in names) else None
    head = read_head(path)
    for name, module in (
        ("webanno-tsv3", webanno_tsv),
        ("prodigy", prodigy),
        ("label-studio", label_studio),
        ("doccano", doccano),
    ):
        fits = module.mismatch(head, path) if name != "webanno-tsv3" else module.mismatch(head)
        if fits is None:
            return name
    return None


def _head_records(head: str, limit: int = 50) -> list[dict[str, Any]]:
    """The complete JSON object lines at the start of a JSONL file."""
    lines = head.lstrip("\ufeff").splitlines()
    if lines and not head.endswith("\n"):
        lines = lines[:-1]  # possibly cut off
    out = []
    for line in lines[: limit * 2]:
        try:
            obj = loads(line)
        except ValueError:  # not JSON, or a number of thousands of digits
            continue
        if isinstance(obj, dict):
            out.append(obj)
        if len(out) >= limit:
            break
    return out


def _doccano_has_spans(obj: dict[str, Any]) -> bool:
    raw = obj.get("label", obj.get("labels"))
    if isinstance(raw, list) and any(isinstance(e, list) and len(e) == 3 for e in raw):
        return True
    anns = obj.get("annotations")
    return "entities" in obj or (
        isinstance(anns, list) and any(isinstance(a, dict) and "start_offset" in a for a in anns)
    )


def _prodigy_has_spans(obj: dict[str, Any]) -> bool:
    # the Prodigy parser reads a task as spans exactly when it has spans and no choice or label
    return "spans" in obj and not any(k in obj for k in ("accept", "options", "label"))


def _zip_has_chains(path: Path) -> bool:
    """Whether the first annotated documents of an INCEpTION export hold coreference chains."""
    with zipfile.ZipFile(path) as zf:
        members = [n for n in zf.namelist() if n.startswith("annotation/") and not n.endswith("/")]
        for name in members[:4]:
            data = read_member(zf, name, f"{path}!{name}")
            if name.lower().endswith(".zip"):
                with zipfile.ZipFile(io.BytesIO(data)) as inner:
                    data = b"".join(
                        read_member(inner, n, f"{path}!{name}!{n}")
                        for n in inner.namelist()
                        if n.lower().endswith((".xmi", ".tsv"))
                    )
            if _XMI_CHAIN.search(data) or b"#T_CH=" in data:
                return True
    return False


def export_kind(path: Path, fmt: str) -> str | None:
    """What a tool's file holds: ``"spans"``, ``"coref"`` (chains), ``"judgments"`` or ``None``.

    Label Studio, doccano and Prodigy exports hold either span annotations (a span study) or
    choices and ratings of items (a table study); TSV 3.x and INCEpTION exports with a chain layer
    are coreference studies.
    """
    try:
        if fmt == "inception-zip":
            return "coref" if _zip_has_chains(path) else "spans"
        if fmt == "xmi":
            raw = _read_xmi_bytes(path)[0] if _is_zip(path) else read_head_bytes(path, 2_000_000)
            return "coref" if _XMI_CHAIN.search(raw) else "spans"
    except (*ZIP_ERRORS, ReaderError):
        return None
    head = read_head(path)
    if fmt == "webanno-tsv3":
        return "coref" if "#T_CH=" in head else ("spans" if "#T_SP=" in head else None)
    if fmt == "label-studio":
        return "spans" if _LS_SPAN_RESULT.search(head) else "judgments"
    test = _doccano_has_spans if fmt == "doccano" else _prodigy_has_spans
    return "spans" if any(test(r) for r in _head_records(head)) else "judgments"


# -- neutral documents → span documents ---------------------------------------------------------------


def layer_matches(layer: str, wanted: str) -> bool:
    """``wanted`` names ``layer`` in full or by its short name (``NamedEntity``)."""
    return layer == wanted or layer.rsplit(".", 1)[-1] == wanted


def span_document(
    doc: Document,
    fmt: str,
    name: str,
    layer: str | None = None,
    feature: str | None = None,
    meta: dict[str, Any] | None = None,
    relation_layer: str = "",
    relation_feature: str = "",
) -> SpanDocument:
    """The spans of ``doc`` (of ``layer`` only, labelled by ``feature``, when given) and its
    relations between them (of ``relation_layer`` only, labelled by ``relation_feature``, when
    given)."""
    out = SpanDocument(name, doc.source, doc.text, format=fmt, meta=dict(meta or {}))
    for s in doc.spans:
        if layer is not None and not layer_matches(s.layer, layer):
            continue
        value = s.feature(feature) if feature else s.label
        frags = tuple(sorted(s.pieces))
        problem = check_fragments(frags, doc.text)
        if problem:
            out.errors.append(ReaderError(doc.source, s.line, f"the span {problem}; left out."))
            continue
        out.add(Span(value if value else NO_VALUE, frags), s.line)
    relations = [
        r for r in doc.relations if not relation_layer or layer_matches(r.layer, relation_layer)
    ]
    lacking = [
        r for r in relations if relation_feature and relation_feature not in dict(r.features)
    ]
    if lacking:
        has = sorted({name for r in lacking for name, _v in r.features})
        out.errors.append(
            ReaderError(
                doc.source,
                lacking[0].line,
                f"the relation layer {lacking[0].layer} has no feature {relation_feature} (its "
                f"features: {', '.join(has) or 'none'}); choose one with the 'relation_feature' "
                "setting (--relation-feature); its relations left out.",
            )
        )
        relations = [r for r in relations if r not in lacking]
    if relations:
        links = [
            (
                r.source,
                r.target,
                dict(r.features).get(relation_feature) if relation_feature else r.label,
                r.line,
            )
            for r in relations
        ]
        add_relations(out, doc, links, layer)
    if relation_layer and doc.relations and not relations:
        found = sorted({r.layer for r in doc.relations})
        out.errors.append(
            ReaderError(
                doc.source,
                None,
                f"no relation layer {relation_layer} (its relation layers: {', '.join(found)}); "
                "choose one with the 'relation_layer' setting (--relation-layer).",
            )
        )
    return out


def add_relations(
    out: SpanDocument,
    doc: Document,
    links: list[tuple[str, str, str | None, int | None]],
    layer: str | None = None,
) -> None:
    """The relations ``links`` (source id, target id, label, line) between spans of ``doc``,
    onto ``out``; with ``layer``, only the relations between spans of that layer (the spans
    compared: a dependency relation between part-of-speech spans is not one of them)."""
    from iaa_desktop.core.kinds.spans.relations import linked

    ids = {s.id: tuple(sorted(s.pieces)) for s in doc.spans if s.id}
    if layer is not None:
        compared = {s.id for s in doc.spans if s.id and layer_matches(s.layer, layer)}
        links = [
            link
            for link in links
            if link[0] not in ids
            or link[1] not in ids  # a missing argument is reported
            or (link[0] in compared and link[1] in compared)
        ]
    found, where, problems = linked(links, ids, doc.source)
    out.relations.extend(found)
    out.relation_lines.extend(where)
    out.errors.extend(problems)


def _put(out: ByAnnotator, who: str, doc: SpanDocument, errors: list[ReaderError]) -> None:
    errors.extend(doc.errors)
    docs = out.setdefault(who, {})
    if doc.name in docs:
        errors.append(
            ReaderError(
                doc.path,
                next((n for n in doc.lines if n is not None), None),  # where its spans begin
                f"{who} annotated document {doc.name} twice; the second is left out.",
            )
        )
        return
    docs[doc.name] = doc


def _opts(opts: SpansOptions) -> tuple[str, str, str | None]:
    layer = str(opts.layer or DEFAULT_LAYER).strip()
    feature = str(opts.feature or DEFAULT_FEATURE).strip()
    return layer, feature, opts.encoding or None


def _relation_opts(opts: SpansOptions) -> dict[str, str]:
    """The relation layer and label feature chosen (empty: every layer, its first feature)."""
    return {
        "relation_layer": str(opts.relation_layer or "").strip(),
        "relation_feature": str(opts.relation_feature or "").strip(),
    }


def _missing_layer(path: Path | str, layer: str, docs: list[Document]) -> ReaderError:
    found = sorted({s.layer for d in docs for s in d.spans})
    return ReaderError(
        path,
        None,
        f"no annotation of the layer {layer} (layers with annotations: "
        f"{', '.join(found) or 'none'}); choose the layer with the 'layer' setting (--layer).",
    )


# -- WebAnno TSV 3.x ----------------------------------------------------------------------------


def tsv_span_layers(head: str) -> dict[str, list[str]]:
    """Span layer → its feature names, from the ``#T_SP=`` lines of a TSV 3.x header."""
    out: dict[str, list[str]] = {}
    for line in head.lstrip("\ufeff").splitlines():
        if line.startswith("#T_SP="):
            layer, *features = line[6:].split("|")
            out[layer] = [f for f in features if not f.startswith("ROLE_")]
        elif line.startswith("#Text="):
            break
    return out


def read_tsv3(path: Path, opts: SpansOptions, errors: list[ReaderError]) -> SpanDocument:
    """One TSV 3.x file: the spans of the chosen layer, labelled by the chosen feature."""
    from iaa_desktop.core.formats import webanno_tsv

    layer, feature, enc = _opts(opts)
    path = Path(path)
    declared = tsv_span_layers(read_head(path))
    full = next((name for name in declared if layer_matches(name, layer)), None)
    if full is None:
        raise ReaderError(
            path,
            1,
            f"no span layer {layer} in the header (its span layers: "
            f"{', '.join(declared) or 'none'}); choose one with the 'layer' setting (--layer).",
        )
    features = declared[full]
    if features and feature not in features:
        raise ReaderError(
            path,
            1,
            f"the layer {full} has no feature {feature} (its features: {', '.join(features)}); "
            "choose one with the 'feature' setting (--feature).",
        )
    parsed = webanno_tsv.parse(path, encoding=enc)
    errors.extend(parsed.errors)
    meta = {"source": (str(path), ()), "layer": full, "feature": feature}
    # a layer without features has only valueless annotations ('*')
    return span_document(
        parsed.documents[0],
        "webanno-tsv3",
        path.stem,
        full,
        feature if features else None,
        meta,
        **_relation_opts(opts),
    )


# -- INCEpTION: project export and per-document XMI --------------------------------------------------


def _source_chain(path: Path, source: str) -> tuple[str, tuple[str, ...]]:
    """(archive, members) of a document read from ``path!member[!inner member]``."""
    prefix = str(path) + "!"
    rest = source[len(prefix) :] if source.startswith(prefix) else ""
    return str(path), tuple(p for p in rest.split("!") if p)


def read_inception_zip(path: Path, opts: SpansOptions, errors: list[ReaderError]) -> ByAnnotator:
    """Every user's spans of the chosen layer in an INCEpTION project export."""
    from iaa_desktop.core.formats import inception

    layer, feature, _enc = _opts(opts)
    parsed = inception.parse(path, include_curation=opts.curation)
    errors.extend(parsed.errors)
    errors.extend(parsed.warnings)
    out: ByAnnotator = {}
    for d in parsed.documents:
        meta = {"source": _source_chain(Path(path), d.source), "layer": layer, "feature": feature}
        _put(
            out,
            d.annotator,
            span_document(d, "inception-zip", d.name, layer, feature, meta, **_relation_opts(opts)),
            errors,
        )
    if parsed.documents and not any(doc.spans for docs in out.values() for doc in docs.values()):
        errors.append(_missing_layer(path, layer, list(parsed.documents)))
    return out


def _read_xmi_bytes(path: Path) -> tuple[bytes, bytes | None, tuple[str, ...]]:
    """(XMI, type system, members) of a per-document XMI ZIP or an ``.xmi`` file."""
    path = Path(path)
    if _is_zip(path):
        try:
            zf = zipfile.ZipFile(path)
        except ZIP_ERRORS as e:
            raise ReaderError(path, None, f"not a readable ZIP archive ({e}).") from None
        with zf:
            names = zf.namelist()
            xmi = next((n for n in names if n.lower().endswith(".xmi")), None)
            if xmi is None:
                raise ReaderError(path, None, "the ZIP archive holds no .xmi file.")
            folder = str(PurePosixPath(xmi).parent)
            ts = next(
                (
                    n
                    for n in names
                    if PurePosixPath(n).name.lower() == "typesystem.xml"
                    and str(PurePosixPath(n).parent) == folder
                ),
                None,
            )
            raw = read_member(zf, xmi, f"{path}!{xmi}")
            return raw, (read_member(zf, ts, f"{path}!{ts}") if ts else None), (xmi,)
    ts_path = next((p for p in path.parent.iterdir() if p.name.lower() == "typesystem.xml"), None)
    return read_bytes(path), (read_bytes(ts_path) if ts_path else None), ()


def load_cas(
    raw: bytes, ts_raw: bytes | None, where: str, problems: list[ReaderError] | None = None
) -> tuple[Any, Any]:
    """(CAS, type system) of UIMA XMI bytes, read with dkpro-cassis (its warnings go to
    ``problems``, never to the terminal)."""
    import cassis

    from iaa_desktop.core.formats.inception import library_warnings
    from iaa_desktop.core.xml_guard import check_xml

    if ts_raw is None:
        raise ReaderError(where, None, "no TypeSystem.xml beside the XMI file; cannot read it.")
    check_xml(ts_raw, where + " (TypeSystem.xml)", type_system=True)
    check_xml(raw, where, document=True)
    # cassis raises many exception types (lxml, ValueError, TypeError) for a broken file; each
    # becomes one error naming the file, and the other files still load
    try:
        with library_warnings(where, problems if problems is not None else [], "dkpro-cassis"):
            ts = cassis.load_typesystem(io.BytesIO(ts_raw))
            cas = cassis.load_cas_from_xmi(io.BytesIO(raw), typesystem=ts, lenient=True)
    except Exception as e:  # noqa: BLE001
        raise ReaderError(where, None, f"the XMI could not be read ({e}).") from None
    return cas, ts


def xmi_name(path: Path) -> str:
    """The document a per-document XMI file names: ``story.txt.zip`` → ``story.txt``."""
    return Path(path).stem


def read_xmi(path: Path, opts: SpansOptions, errors: list[ReaderError]) -> SpanDocument:
    """The spans of the chosen layer in one document's UIMA CAS XMI."""
    from iaa_desktop.core.formats.inception import cas_to_document

    layer, feature, _enc = _opts(opts)
    path = Path(path)
    raw, ts_raw, members = _read_xmi_bytes(path)
    cas, ts = load_cas(raw, ts_raw, str(path), errors)
    name = xmi_name(path)
    doc = cas_to_document(cas, ts, name, "", str(path))
    meta = {"source": (str(path), members), "layer": layer, "feature": feature}
    out = span_document(doc, "xmi", name, layer, feature, meta, **_relation_opts(opts))
    if doc.spans and not out.spans:
        errors.append(_missing_layer(path, layer, [doc]))
    return out


# -- Label Studio, doccano, Prodigy -----------------------------------------------------------------


def _ls_prepare(data: Any) -> tuple[list[tuple[str, Any, dict[str, Any]]], dict[str, str]]:
    """Name the gold annotation; list the annotations without spans; the question names.

    Returns ``(item, completed_by, task data)`` of every annotation without a span result and
    ``from_name``/``to_name``/``data_key`` of the first span result (for writing gold).
    """
    empties: list[tuple[str, Any, dict[str, Any]]] = []
    info: dict[str, str] = {}
    tasks = data if isinstance(data, list) else [data]
    for t_index, task in enumerate(tasks, start=1):
        if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
            continue
        item = scalar_text(task.get("id", t_index))
        for ann in task.get("annotations", task.get("completions")) or []:
            if not isinstance(ann, dict) or ann.get("was_cancelled"):
                continue
            if ann.get("completed_by") in (None, "") and ann.get("ground_truth"):
                ann["completed_by"] = GOLD
            spans = [
                r
                for r in ann.get("result") or []
                if isinstance(r, dict) and r.get("type") in _LS_SPAN_TYPES
            ]
            if not spans:
                empties.append((item, ann.get("completed_by"), task["data"]))
            elif not info:
                key = "text" if isinstance(task["data"].get("text"), str) else None
                info = {
                    "from_name": str(spans[0].get("from_name") or "label"),
                    "to_name": str(spans[0].get("to_name") or "text"),
                    "data_key": key
                    or next((k for k, v in task["data"].items() if isinstance(v, str)), "text"),
                }
    return empties, info


def read_label_studio(path: Path, opts: SpansOptions, errors: list[ReaderError]) -> ByAnnotator:
    from iaa_desktop.core.formats import label_studio
    from iaa_desktop.core.formats.jsonio import load_json
    from iaa_desktop.core.textio import read_text

    path = Path(path)
    data = load_json(read_text(path, opts.encoding or None), path)
    empties, info = _ls_prepare(data)
    stamps = None
    if opts.batch_column:  # when each annotation was made (created_at, updated_at)
        from iaa_desktop.core.kinds.spans.batches import BATCH_VALUE, label_studio_stamps

        stamps = label_studio_stamps(data, opts.batch_column, path)

    def meta(item: str, who: str) -> dict[str, str]:
        return info if stamps is None else {**info, BATCH_VALUE: stamps.get((item, who), "")}

    occasions = None
    if opts.retest:  # an annotator's repeated annotations of a task are occasions
        from iaa_desktop.core.kinds.spans.retest import label_studio_occasions

        occasions = label_studio_occasions(data, path, info, span_document)

    def repeat(who: str, name: str) -> bool:
        """Whether this is a repeat kept as an occasion (not a problem) with test–retest."""
        return occasions is not None and name in out.get(who, {})

    parsed = label_studio.parse_value(data, path)
    errors.extend(parsed.errors)
    errors.extend(parsed.warnings)
    out: ByAnnotator = {}
    from iaa_desktop.core.kinds.spans.relations import label_studio_links

    links = label_studio_links(data)
    for d in parsed.documents:
        if repeat(d.annotator, d.name):
            continue
        sd = span_document(d, "label-studio", d.name, meta=meta(d.name, d.annotator))
        if links.get((d.name, d.annotator)):
            add_relations(sd, d, [(*link, None) for link in links[(d.name, d.annotator)]])
        _put(out, d.annotator, sd, errors)
    if out:  # a span project: an annotation without spans is a document without spans
        for item, completed_by, task_data in empties:
            text = task_data.get("text")
            if not isinstance(text, str):
                text = next((v for v in task_data.values() if isinstance(v, str)), "")
            who = label_studio.annotator_name(completed_by)  # the parser's naming of annotators
            if repeat(who, item):
                continue
            doc = SpanDocument(item, str(path), text, format="label-studio", meta=meta(item, who))
            _put(out, who, doc, errors)
    if occasions:
        from iaa_desktop.core.kinds.spans.retest import OCCASIONS

        for (item, who), docs in occasions.items():
            if item in out.get(who, {}):
                out[who][item].meta[OCCASIONS] = docs
    return out


def read_jsonl_export(
    path: Path, fmt: str, opts: SpansOptions, errors: list[ReaderError]
) -> ByAnnotator:
    """A doccano file (one annotator, the file name) or a Prodigy file (every annotator)."""
    from iaa_desktop.core.formats import doccano, prodigy

    module = doccano if fmt == "doccano" else prodigy
    parsed = module.parse(path, encoding=opts.encoding or None)
    errors.extend(parsed.errors)
    out: ByAnnotator = {}
    for d in parsed.documents:
        _put(out, d.annotator, span_document(d, fmt, d.name), errors)
    return out


def read_export(path: Path, fmt: str, opts: SpansOptions, errors: list[ReaderError]) -> ByAnnotator:
    """Annotator → document name → spans of a file that names its annotators."""
    if fmt == "inception-zip":
        out = read_inception_zip(path, opts, errors)
    elif fmt == "label-studio":
        out = read_label_studio(path, opts, errors)
    else:
        out = read_jsonl_export(path, fmt, opts, errors)
    if not out:
        errors.append(
            ReaderError(
                path,
                None,
                f"{TITLES[fmt]}: no span annotation (an export of choices or ratings is a table "
                "study: --kind table).",
            )
        )
    return out


def read_document(
    path: Path, fmt: str, opts: SpansOptions, errors: list[ReaderError]
) -> SpanDocument:
    """One document of one annotator (TSV 3.x, XMI)."""
    return (read_tsv3 if fmt == "webanno-tsv3" else read_xmi)(path, opts, errors)

"""Reading a spans study: one folder (or file) per annotator, or one project folder, table or
tool export (Label Studio, doccano, Prodigy, INCEpTION; see :mod:`.tools`).

A folder of brat, TSV 3.x or XMI files is one annotator (the folder's name), a folder of such
folders a project (one annotator per folder); a file that names its annotators (a table with an
annotator column, a Label Studio, doccano or Prodigy export, an INCEpTION project) gives them.

Documents pair up by name; a document that one annotator's files name differently is paired by its
text when exactly one document of the others has the same text. Annotators who saw different texts
under one name are an error naming the document, which is then left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from iaa_desktop.core.errors import IaaError, ReaderError
from iaa_desktop.core.kinds.spans.options import SpansOptions
from iaa_desktop.core.kinds.spans.readers import SpanDocument, read_brat, read_span_table
from iaa_desktop.core.kinds.spans.tools import (
    PER_DOCUMENT,
    SELF_NAMED,
    file_format,
    read_document,
    read_export,
)
from iaa_desktop.core.kinds.spec import unique_name

TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".xlsx")


def _columns(opts: SpansOptions) -> dict[str, str]:
    return {role: opts.column(role) for role in ("document", "start", "end", "label", "annotator")}


def _texts_beside(folder: Path, encoding: str | None) -> dict[str, str]:
    from iaa_desktop.core.textio import read_text

    return {
        f.stem: read_text(f, encoding)
        for f in sorted(folder.glob("*.txt"))
        if not f.with_suffix(".ann").exists()
    }


def _annotator_folder(folder: Path) -> bool:
    """Whether ``folder`` holds one annotator's documents (brat, TSV 3.x or XMI files)."""
    if any(folder.glob("*.ann")):
        return True
    files = sorted(f for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
    return any(file_format(f) in PER_DOCUMENT for f in files[:5])


def read_input(
    path: Path, opts: SpansOptions, errors: list[ReaderError]
) -> dict[str, dict[str, SpanDocument]]:
    """Annotator → document name → document, from one input (see the module docstring)."""
    enc = opts.encoding or None
    path = Path(path)
    if path.is_dir():
        subdirs = [p for p in sorted(path.iterdir()) if p.is_dir() and not p.name.startswith(".")]
        files = sorted(f for f in path.iterdir() if f.is_file() and not f.name.startswith("."))
        formats = {
            f: (None if f.suffix.lower() in (".txt", ".ann") else file_format(f)) for f in files
        }
        own = any(f.suffix == ".ann" for f in files) or any(
            fmt in PER_DOCUMENT for fmt in formats.values()
        )
        if not own and sum(1 for s in subdirs if _annotator_folder(s)) >= 2:
            # a project: one folder per annotator
            return {
                s.name: _read_folder(s, s.name, opts, errors)
                for s in subdirs
                if _annotator_folder(s)
            }
        if own:
            return {path.name: _read_folder(path, path.name, opts, errors)}
        out: dict[str, dict[str, SpanDocument]] = {}
        for f, fmt in formats.items():
            if fmt in SELF_NAMED:
                _merge(out, _read_export(f, fmt, opts, errors), errors)
        tables = [
            f for f, fmt in formats.items() if fmt is None and f.suffix.lower() in TABLE_SUFFIXES
        ]
        texts = _texts_beside(path, enc)
        for t in tables:
            _merge(out, _read_table(t, opts, texts, errors), errors)
        return out
    if path.suffix == ".ann":
        return {path.stem: {path.stem: _checked(read_brat(path, enc, opts.relations_from), errors)}}
    fmt = file_format(path)
    if fmt in PER_DOCUMENT:
        try:
            doc = _checked(read_document(path, fmt, opts, errors), errors)
        except ReaderError as e:
            errors.append(e)
            return {}
        return {path.stem: {doc.name: doc}}
    if fmt in SELF_NAMED:
        return _read_export(path, fmt, opts, errors)
    return _read_table(path, opts, _texts_beside(path.parent, enc), errors)


def _read_export(
    path: Path, fmt: str, opts: SpansOptions, errors: list[ReaderError]
) -> dict[str, dict[str, SpanDocument]]:
    try:
        return read_export(path, fmt, opts, errors)
    except ReaderError as e:
        errors.append(e)
        return {}


def _checked(doc: SpanDocument, errors: list[ReaderError]) -> SpanDocument:
    errors.extend(doc.errors)
    return doc


def _read_folder(
    folder: Path, who: str, opts: SpansOptions, errors: list[ReaderError]
) -> dict[str, SpanDocument]:
    """One annotator's documents: brat ``.ann`` files (subfolders too), TSV 3.x and XMI files."""
    enc = opts.encoding or None
    out: dict[str, SpanDocument] = {}
    found = [(f, "brat") for f in sorted(folder.rglob("*.ann"))]
    if not found:
        found = [
            (f, fmt)
            for f in sorted(folder.iterdir())
            if f.is_file()
            and not f.name.startswith(".")
            and (fmt := file_format(f)) in PER_DOCUMENT
        ]
    for f, fmt in found:
        try:
            if fmt == "brat":
                doc = _checked(read_brat(f, enc, opts.relations_from), errors)
                doc.name = f.relative_to(folder).with_suffix("").as_posix()
            else:
                doc = _checked(read_document(f, fmt, opts, errors), errors)
        except ReaderError as e:
            errors.append(e)
            continue
        if doc.name in out:
            errors.append(
                ReaderError(f, None, f"document {doc.name} appears twice for {who}; left out.")
            )
            continue
        out[doc.name] = doc
    return out


def _read_table(
    path: Path, opts: SpansOptions, texts: dict[str, str], errors: list[ReaderError]
) -> dict[str, dict[str, SpanDocument]]:
    try:
        found = read_span_table(path, _columns(opts), texts, opts.batch_column)
    except ReaderError as e:
        errors.append(e)
        return {}
    out: dict[str, dict[str, SpanDocument]] = {}
    for who, docs in found.items():
        name = who if who is not None else path.stem
        out[name] = {d.name: _checked(d, errors) for d in docs}
    return out


def _merge(
    into: dict[str, dict[str, SpanDocument]],
    new: dict[str, dict[str, SpanDocument]],
    errors: list[ReaderError],
) -> None:
    for who, docs in new.items():
        mine = into.setdefault(who, {})
        for name, d in docs.items():
            if name in mine:
                errors.append(
                    ReaderError(
                        d.path,
                        None,
                        f"document {name} appears twice for {who}; the second is left out.",
                    )
                )
                continue
            mine[name] = d


def read_inputs(
    inputs: Sequence[Path], opts: SpansOptions, errors: list[ReaderError]
) -> dict[str, dict[str, SpanDocument]]:
    """Annotator → documents over all inputs; annotator names made unique."""
    out: dict[str, dict[str, SpanDocument]] = {}
    for p, found in inputs_read(inputs, opts, errors):
        for who, docs in found.items():
            name = unique_name(who, out)
            if docs and not any(d.spans for d in docs.values()):
                errors.append(_no_spans(Path(p), who, name, docs))
                continue  # an annotator of whom nothing was read is not one who found nothing
            out[name] = docs
    if sum(1 for d in out.values() if d) < 2:
        raise IaaError(
            "Spans need two or more annotators: give one folder (or file) per annotator, a brat "
            "project with one folder per annotator, or a table with an annotator column.\n"
            + "\n".join(str(e) for e in errors[:10])
        )
    return {a: d for a, d in out.items() if d}


def inputs_read(
    inputs: Sequence[Path], opts: SpansOptions, errors: list[ReaderError]
) -> list[tuple[Path, dict[str, dict[str, SpanDocument]]]]:
    """Each input and what it holds; time-aligned files (ELAN, Praat) are read together, as their
    tiers may name the same annotators across files (:mod:`.timed`)."""
    from iaa_desktop.core.kinds.spans.timed import is_timed_input, read_timed_inputs

    timed = [Path(p) for p in inputs if is_timed_input(Path(p))]
    out = []
    if timed:
        found = read_timed_inputs(timed, opts.tier_map(), opts.encoding or None, errors)
        out.append((timed[0] if len(timed) == 1 else timed[0].parent, found))
    return out + [
        (Path(p), read_input(Path(p), opts, errors)) for p in inputs if Path(p) not in timed
    ]


def _no_spans(given: Path, who: str, name: str, docs: dict[str, SpanDocument]) -> ReaderError:
    """The problem of an annotator whose documents hold no span at all (left out)."""
    paths = {Path(d.path) for d in docs.values()}
    where = paths.pop() if len(paths) == 1 else given / who if (given / who).is_dir() else given
    return ReaderError(
        where,
        None,
        f"no spans were found for {name} in {len(docs)} document(s): is it the right layer, "
        "label feature or column? This annotator is left out.",
    )


def pair_documents(
    by_annotator: dict[str, dict[str, SpanDocument]], errors: list[ReaderError]
) -> dict[str, dict[str, SpanDocument]]:
    """Document name → annotator → document (see the module docstring)."""
    names: dict[str, dict[str, SpanDocument]] = {}
    for who, docs in by_annotator.items():
        for name, d in docs.items():
            names.setdefault(name, {})[who] = d
    # documents of one annotator only: pair by text with a document of the others
    by_text: dict[str, list[str]] = {}
    for name, by in names.items():
        text = next((d.text for d in by.values() if d.text), None)
        if text:
            by_text.setdefault(text, []).append(name)
    for _text, group in by_text.items():
        if len(group) < 2:
            continue
        target = max(group, key=lambda n: (len(names[n]), n))
        for other in group:
            if other == target or set(names[other]) & set(names[target]):
                continue
            names[target].update(names.pop(other))
    out: dict[str, dict[str, SpanDocument]] = {}
    for name, by in names.items():
        texts = {d.text for d in by.values() if d.text is not None}
        if len(texts) > 1:
            who = ", ".join(sorted(by))
            errors.append(
                ReaderError(
                    next(iter(by.values())).path,
                    None,
                    f"document {name}: the annotators ({who}) saw different texts; the document is left out.",
                )
            )
            continue
        out[name] = by
    return out

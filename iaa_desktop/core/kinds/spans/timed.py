"""Time-aligned inputs of a spans study: ELAN ``.eaf`` and Praat ``.TextGrid`` tiers.

A recording (one file) is a document whose axis is time in whole milliseconds instead of
characters: a unit (a non-empty annotation, interval or point) is a span labelled with its text,
from its start to its end relative to the recording's start (ELAN 0, Praat the TextGrid's xmin);
the recording is as long as the file says (ELAN up to its largest time value, Praat to xmax).
Which tier is which annotator:

* with the ``tiers`` setting (``TIER=ANNOTATOR,…``): every file given, or found in a folder given,
  is one recording named by its file; each mapped tier's units go to its annotator (several tiers
  may go to one); other tiers are ignored;
* without it, two or more folders (or one folder of folders) are one annotator each, their files
  the recordings (every tier of a file is the annotator's);
* without it, files (or one folder of files) are recordings whose tiers are the annotators, one
  annotator per tier name.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import OptionError, ReaderError
from iaa_desktop.core.formats.timed import TIME_UNIT, TimedFile
from iaa_desktop.core.kinds.spans.readers import Span, SpanDocument

SUFFIXES = {".eaf": "elan", ".textgrid": "textgrid"}
TITLES = {"elan": "ELAN annotation document", "textgrid": "Praat TextGrid"}
ByAnnotator = dict[str, dict[str, SpanDocument]]


def parse_tier_map(text: str) -> dict[str, str]:
    """``"A=x, B=x, C=y"`` → ``{"A": "x", "B": "x", "C": "y"}``; a part without ``=`` or with an
    empty side is an :class:`OptionError` naming it."""
    out: dict[str, str] = {}
    for part in (p.strip() for p in (text or "").split(",")):
        if not part:
            continue
        tier, eq, who = part.rpartition("=")
        if not eq or not tier.strip() or not who.strip():
            raise OptionError(
                f"Tiers → annotators: '{part[:80]}' is not TIER=ANNOTATOR (several joined by ',')."
            )
        if tier.strip() in out and out[tier.strip()] != who.strip():
            raise OptionError(f"Tiers → annotators: tier '{tier.strip()[:80]}' is given twice.")
        out[tier.strip()] = who.strip()
    return out


def timed_format(path: Path) -> str | None:
    """``"elan"`` or ``"textgrid"`` for such a file (by its name or its first bytes), else None."""
    path = Path(path)
    if not path.is_file():
        return None
    fmt = SUFFIXES.get(path.suffix.lower())
    if fmt:
        return fmt
    from iaa_desktop.core.formats import elan, textgrid
    from iaa_desktop.core.textio import read_head

    head = read_head(path, 2048)
    if elan.looks_like(head):
        return "elan"
    return "textgrid" if textgrid.looks_like(head) else None


def _files(folder: Path) -> list[Path]:
    return sorted(f for f in folder.iterdir() if not f.name.startswith(".") and timed_format(f))


def _subfolders(folder: Path) -> list[Path]:
    return sorted(
        s for s in folder.iterdir() if s.is_dir() and not s.name.startswith(".") and _files(s)
    )


def is_timed_input(path: Path) -> bool:
    """A time-aligned file, or a folder holding such files (directly or one level down)."""
    path = Path(path)
    if path.is_dir():
        return bool(_files(path) or _subfolders(path))
    return timed_format(path) is not None


def read_timed(path: Path, encoding: str | None = None) -> TimedFile:
    from iaa_desktop.core.formats.elan import read_eaf
    from iaa_desktop.core.formats.textgrid import read_textgrid

    fmt = timed_format(path)
    return read_eaf(path) if fmt == "elan" else read_textgrid(path, encoding)


def recording(
    f: TimedFile, name: str, tiers: Sequence[str], extra: dict[str, Any] | None = None
) -> SpanDocument:
    """The units of ``tiers`` of ``f`` as one annotator's document ``name`` (times relative to
    the recording's start)."""
    doc = SpanDocument(
        name,
        f.path,
        None,
        format=f.format,
        meta={
            "time_unit": TIME_UNIT,
            "origin": f.start,
            "duration": f.end - f.start,
            "tiers": tuple(tiers),
            "media": f.media,
            "source": f.path,
            **(extra or {}),
        },
    )
    for t in (x for x in f.tiers if x.name in tiers):
        for u in t.units:
            a, b = u.start - f.start, u.end - f.start
            if a < 0 or b > f.end - f.start:
                doc.errors.append(
                    ReaderError(
                        f.path,
                        u.line,
                        f"tier '{t.name[:80]}': the unit {u.start}–{u.end} ms lies outside the "
                        f"recording ({f.start}–{f.end} ms); left out.",
                    )
                )
                continue
            doc.add(Span(u.value, ((a, b),)), u.line)
    return doc


def _read(path: Path, encoding: str | None, errors: list[ReaderError]) -> TimedFile | None:
    try:
        f = read_timed(path, encoding)
    except ReaderError as e:
        errors.append(e)
        return None
    errors.extend(f.problems)
    return f


def _put(out: ByAnnotator, who: str, doc: SpanDocument, errors: list[ReaderError]) -> None:
    mine = out.setdefault(who, {})
    if doc.name in mine:
        errors.append(
            ReaderError(
                doc.path,
                None,
                f"recording {doc.name} appears twice for {who}; the second is left out.",
            )
        )
        return
    errors.extend(doc.errors)
    mine[doc.name] = doc


def read_timed_inputs(
    inputs: Sequence[Path],
    tier_map: dict[str, str],
    encoding: str | None,
    errors: list[ReaderError],
) -> ByAnnotator:
    """Annotator → recording name → document, by the rules of the module docstring."""
    inputs = [Path(p) for p in inputs]
    out: ByAnnotator = {}
    folders = [p for p in inputs if p.is_dir()]
    if tier_map:
        files = [f for p in inputs for f in (_all_files(p) if p.is_dir() else [p])]
        for path in files:
            f = _read(path, encoding, errors)
            if f is None:
                continue
            found = [t.name for t in f.tiers if t.name in tier_map]
            if not found:
                errors.append(
                    ReaderError(
                        path,
                        None,
                        "none of its tiers ("
                        + ", ".join(t.name for t in f.tiers)[:300]
                        + ") is mapped to an annotator.",
                    )
                )
            for who in dict.fromkeys(tier_map[n] for n in found):
                tiers = [n for n in found if tier_map[n] == who]
                _put(out, who, recording(f, path.stem, tiers), errors)
        return out
    if len(folders) == 1 and len(inputs) == 1 and _subfolders(folders[0]):
        folders = _subfolders(folders[0])  # a project: one folder per annotator
        inputs = folders
    if len(folders) >= 2:
        for folder in folders:
            for path in _all_files(folder):
                f = _read(path, encoding, errors)
                if f is not None:
                    name = path.relative_to(folder).with_suffix("").as_posix()
                    _put(out, folder.name, recording(f, name, [t.name for t in f.tiers]), errors)
        return out
    files = [f for p in inputs for f in (_files(p) if p.is_dir() else [p])]
    for path in files:
        f = _read(path, encoding, errors)
        for t in f.tiers if f is not None else ():
            if t.units or t.untimed:
                assert f is not None
                _put(out, t.name, recording(f, path.stem, [t.name]), errors)
    return out


def _all_files(folder: Path) -> list[Path]:
    """Time-aligned files in ``folder`` and its subfolders."""
    return sorted(
        f
        for f in folder.rglob("*")
        if not any(p.startswith(".") for p in f.relative_to(folder).parts) and timed_format(f)
    )


def tiers_survey(docs: dict[str, SpanDocument]) -> str:
    """The tiers an annotator's recordings were read from ("" for documents of texts)."""
    tiers = {t: None for d in docs.values() for t in d.meta.get("tiers", ())}
    files = {Path(d.path).name: None for d in docs.values() if "tiers" in d.meta}
    if not tiers:
        return ""
    shown = ", ".join(list(tiers)[:5]) + (" …" if len(tiers) > 5 else "")
    where = ", ".join(list(files)[:3]) + (" …" if len(files) > 3 else "")
    return f"tier {shown} of {where}"


def tier_hints(inputs: Sequence[Path], encoding: str | None = None) -> list[dict[str, str]]:
    """Each tier of the inputs with its file, ELAN's PARTICIPANT and ANNOTATOR attributes and its
    count of units: what the import dialog shows to map tiers to annotators."""
    rows = []
    for p in inputs:
        p = Path(p)
        for path in _all_files(p) if p.is_dir() else [p]:
            try:
                f = read_timed(path, encoding)
            except ReaderError:
                continue
            for t in f.tiers:
                rows.append(
                    {
                        "file": path.name,
                        "tier": t.name,
                        "participant": t.participant,
                        "annotator": t.annotator,
                        "units": str(len(t.units)) + (" points" if t.points else ""),
                    }
                )
    return rows

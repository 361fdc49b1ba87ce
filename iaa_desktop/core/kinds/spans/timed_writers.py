"""Gold units in time written back as ELAN and Praat files.

* ELAN: a copy of the first annotator's ``.eaf`` of each recording (its tiers, linked media and
  everything else kept byte for byte) with one tier ``gold`` added: a ``TIME_SLOT`` per boundary
  in the ``TIME_ORDER``, an ``ALIGNABLE_ANNOTATION`` per unit, and a time-alignable linguistic
  type of its own (EAF schema: tiers before linguistic types). Gold units that overlap each other
  go to further tiers ``gold 2`` …, as one ELAN tier holds no overlapping annotations.
* Praat: the first annotator's TextGrid's tiers written again (long text format, UTF-8), with
  the interval tier ``gold`` added (empty intervals filling the gaps, overlapping units in
  ``gold 2`` …) and points (units of length zero) in a point tier ``gold points``.

The recording names the files: ``gold/<recording>.eaf`` or ``.TextGrid``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from iaa_desktop.core.formats.timed import TimedFile, TimedTier, TimedUnit
from iaa_desktop.core.io import safe_filename, write_text_atomic
from iaa_desktop.core.kinds.spans.readers import Span

GOLD = "gold"


def _target(folder: Path, name: str, suffix: str) -> Path:
    path = folder / f"{name}{suffix}"
    if not path.resolve().is_relative_to(folder.resolve()):
        path = folder / f"{safe_filename(name)}{suffix}"  # nothing is written outside the folder
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _source(corpus: Any, d: int, fmt: str) -> Any:
    """The first annotator's document of recording ``d`` read from a file of ``fmt``."""
    by = corpus.docs.get(corpus.names[d], {})
    for a in corpus.annotators:
        doc = by.get(a)
        if doc is not None and doc.format == fmt and doc.meta.get("source"):
            return doc
    return next((x for x in by.values() if x.meta.get("source")), None)


def layers(units: list[TimedUnit]) -> list[list[TimedUnit]]:
    """Units spread over as few tiers as keep each tier free of overlaps (greedy, by start)."""
    out: list[list[TimedUnit]] = []
    for u in sorted(units, key=lambda x: (x.start, x.end, x.value)):
        for layer in out:
            if layer[-1].end <= u.start:
                layer.append(u)
                break
        else:
            out.append([u])
    return out


def _tier_names(taken: set[str], n: int, base: str = GOLD) -> list[str]:
    names: list[str] = []
    k = 1
    while len(names) < n:
        name = base if k == 1 else f"{base} {k}"
        while name in taken:
            name += "'"
        names.append(name)
        taken.add(name)
        k += 1
    return names


def _timed(spans: list[Span], origin: int) -> list[TimedUnit]:
    return [TimedUnit(s.start + origin, s.end + origin, s.label) for s in spans]


# ------------------------------------------------------------------------------------------ ELAN

_EMPTY_EAF = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<ANNOTATION_DOCUMENT AUTHOR="" FORMAT="3.0" VERSION="3.0">\n'
    '    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>\n'
    "    <TIME_ORDER>\n    </TIME_ORDER>\n</ANNOTATION_DOCUMENT>\n"
)


def eaf_with_gold(xml: str, tiers: list[TimedTier]) -> str:
    """``xml`` (an EAF document) with ``tiers`` added (see the module docstring)."""
    ids = set(re.findall(r'(?:TIME_SLOT_ID|ANNOTATION_ID|LINGUISTIC_TYPE_ID)="([^"]*)"', xml))

    def fresh(prefix: str) -> str:
        k = len(ids)
        while f"{prefix}{k}" in ids:
            k += 1
        ids.add(f"{prefix}{k}")
        return f"{prefix}{k}"

    slots, body = [], []
    lt = fresh("iaa-gold-type")
    for tier in tiers:
        anns = []
        for u in tier.units:
            s1, s2, aid = fresh("iaa-gold-ts"), fresh("iaa-gold-ts"), fresh("iaa-gold-a")
            slots.append(f'        <TIME_SLOT TIME_SLOT_ID="{s1}" TIME_VALUE="{u.start}"/>\n')
            slots.append(f'        <TIME_SLOT TIME_SLOT_ID="{s2}" TIME_VALUE="{u.end}"/>\n')
            anns.append(
                f'        <ANNOTATION>\n            <ALIGNABLE_ANNOTATION ANNOTATION_ID="{aid}" '
                f'TIME_SLOT_REF1="{s1}" TIME_SLOT_REF2="{s2}">\n                <ANNOTATION_VALUE>'
                f"{escape(u.value)}</ANNOTATION_VALUE>\n            </ALIGNABLE_ANNOTATION>\n"
                "        </ANNOTATION>\n"
            )
        who = f" PARTICIPANT={quoteattr(tier.participant)}" if tier.participant else ""
        body.append(
            f'    <TIER LINGUISTIC_TYPE_REF="{lt}"{who} TIER_ID={quoteattr(tier.name)}>\n'
            + "".join(anns)
            + "    </TIER>\n"
        )
    body.append(
        f'    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="{lt}" '
        'TIME_ALIGNABLE="true"/>\n'
    )
    xml = re.sub(r"<TIME_ORDER\s*/>", "<TIME_ORDER>\n    </TIME_ORDER>", xml, count=1)
    if "</TIME_ORDER>" not in xml:  # no TIME_ORDER at all: one after the header
        xml = re.sub(
            r"(</HEADER>|<HEADER[^>]*/>)", r"\1\n    <TIME_ORDER>\n    </TIME_ORDER>", xml, count=1
        )
    at = xml.index("</TIME_ORDER>")
    xml = xml[:at] + "".join(slots) + "    " + xml[at:]
    m = re.search(r"<LINGUISTIC_TYPE[\s/>]", xml) or re.search(
        r"<(?:LOCALE|LANGUAGE|CONSTRAINT|CONTROLLED_VOCABULARY|LEXICON_REF|EXTERNAL_REF)[\s/>]",
        xml,
    )
    at = m.start() if m else xml.rindex("</ANNOTATION_DOCUMENT>")
    return xml[:at] + "".join(body).lstrip() + "    " + xml[at:]


def participant(xml: str, corpus: Any, d: int) -> str:
    """The ``PARTICIPANT`` that every compared tier of recording ``d`` found in ``xml`` (the
    copied EAF document) has, when they share one: the gold tier is that participant's too.
    Empty when they have none or several."""
    from xml.sax.saxutils import unescape

    compared = {
        t for x in corpus.docs.get(corpus.names[d], {}).values() for t in x.meta.get("tiers", ())
    }
    found = set()
    for tag in re.findall(r"<TIER\b[^>]*>", xml):
        attrs = {
            k: unescape(v, {"&quot;": '"'})
            for k, v in re.findall(r'([\w.:-]+)\s*=\s*"([^"]*)"', tag)
        }
        if attrs.get("TIER_ID") in compared:
            found.add(attrs.get("PARTICIPANT", "").strip())
    return found.pop() if len(found) == 1 else ""


def write_eaf(corpus: Any, spans: dict[int, list[Span]], folder: Path) -> list[Path]:
    """``gold/<recording>.eaf`` per recording (see the module docstring)."""
    from iaa_desktop.core.textio import decode_text, read_bytes

    written = []
    for d, name in enumerate(corpus.names):
        doc = _source(corpus, d, "elan")
        xml = _EMPTY_EAF
        origin = int(doc.meta.get("origin", 0)) if doc is not None else 0
        if doc is not None and doc.format == "elan":
            src = Path(doc.meta["source"])
            xml = decode_text(read_bytes(src), src)
            # written as UTF-8, whatever the copy's declaration said
            xml = re.sub(r"^(<\?xml[^>]*encoding=)[\"'][^\"']*[\"']", r'\1"UTF-8"', xml)
        taken = set(re.findall(r'TIER_ID="([^"]*)"', xml))
        groups = layers(_timed(spans.get(d, []), origin)) or [[]]
        who = participant(xml, corpus, d)
        tiers = [
            TimedTier(n, tuple(g), participant=who)
            for n, g in zip(_tier_names(taken, len(groups)), groups)
        ]
        path = _target(folder, name, ".eaf")
        write_text_atomic(path, eaf_with_gold(xml, tiers))
        written.append(path)
    return written


# ---------------------------------------------------------------------------------------- Praat


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _seconds(ms: int) -> str:
    return repr(ms / 1000)


def textgrid_text(f: TimedFile) -> str:
    """A TextGrid in Praat's long text format; interval tiers filled with empty intervals."""
    out = [
        'File type = "ooTextFile"',
        'Object class = "TextGrid"',
        "",
        f"xmin = {_seconds(f.start)} ",
        f"xmax = {_seconds(f.end)} ",
        "tiers? <exists> ",
        f"size = {len(f.tiers)} ",
        "item []: ",
    ]
    for k, t in enumerate(f.tiers, 1):
        out += [
            f"    item [{k}]:",
            f'        class = "{"TextTier" if t.points else "IntervalTier"}" ',
            f"        name = {_quote(t.name)} ",
            f"        xmin = {_seconds(f.start)} ",
            f"        xmax = {_seconds(f.end)} ",
        ]
        if t.points:
            out.append(f"        points: size = {len(t.units)} ")
            for j, u in enumerate(t.units, 1):
                out += [
                    f"        points [{j}]:",
                    f"            number = {_seconds(u.start)} ",
                    f"            mark = {_quote(u.value)} ",
                ]
            continue
        cells: list[tuple[int, int, str]] = []
        pos = f.start
        for u in sorted(t.units, key=lambda x: x.start):
            if u.start > pos:
                cells.append((pos, u.start, ""))
            cells.append((u.start, u.end, u.value))
            pos = u.end
        if pos < f.end or not cells:
            cells.append((pos, f.end, ""))
        out.append(f"        intervals: size = {len(cells)} ")
        for j, (a, b, v) in enumerate(cells, 1):
            out += [
                f"        intervals [{j}]:",
                f"            xmin = {_seconds(a)} ",
                f"            xmax = {_seconds(b)} ",
                f"            text = {_quote(v)} ",
            ]
    return "\n".join(out) + "\n"


def write_textgrid(corpus: Any, spans: dict[int, list[Span]], folder: Path) -> list[Path]:
    """``gold/<recording>.TextGrid`` per recording (see the module docstring)."""
    from iaa_desktop.core.kinds.spans.timed import read_timed

    written = []
    for d, name in enumerate(corpus.names):
        doc = _source(corpus, d, "textgrid")
        origin = int(doc.meta.get("origin", 0)) if doc is not None else 0
        end = origin + int(corpus.lengths[d])
        tiers: list[TimedTier] = []
        if doc is not None and doc.format == "textgrid":
            src = read_timed(Path(doc.meta["source"]))
            tiers, origin, end = list(src.tiers), src.start, src.end
        units = _timed(spans.get(d, []), origin)
        intervals = [u for u in units if u.end > u.start]
        points = [u for u in units if u.end == u.start]
        taken = {t.name for t in tiers}
        groups = layers(intervals) or [[]]
        for n, g in zip(_tier_names(taken, len(groups)), groups):
            tiers.append(TimedTier(n, tuple(g)))
        if points:
            [pname] = _tier_names(taken, 1, f"{GOLD} points")
            tiers.append(
                TimedTier(pname, tuple(sorted(points, key=lambda u: u.start)), points=True)
            )
        path = _target(folder, name, ".TextGrid")
        write_text_atomic(
            path, textgrid_text(TimedFile(str(path), "textgrid", tuple(tiers), origin, end))
        )
        written.append(path)
    return written

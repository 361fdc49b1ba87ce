"""ELAN annotation documents (``.eaf``; ELAN's EAF schema, "Annotation Format" 2.x–3.0).

An EAF file is XML whose root is ``ANNOTATION_DOCUMENT``: a ``HEADER`` (``TIME_UNITS`` in
milliseconds, ``MEDIA_DESCRIPTOR`` elements linking the recording), a ``TIME_ORDER`` of
``TIME_SLOT`` elements (an id and, when aligned, a ``TIME_VALUE`` in ms), ``TIER`` elements
(``TIER_ID``, optional ``PARTICIPANT``, ``ANNOTATOR``, ``PARENT_REF`` and the
``LINGUISTIC_TYPE_REF`` whose ``CONSTRAINTS`` say how a dependent tier relates to its parent),
each holding ``ANNOTATION`` elements of one of two kinds:

* ``ALIGNABLE_ANNOTATION`` — ``TIME_SLOT_REF1`` and ``TIME_SLOT_REF2`` name its start and end
  slots; a slot without a time value (inside a time subdivision) gets the time ELAN shows it at,
  the aligned times on either side of it in its chain of annotations divided evenly;
* ``REF_ANNOTATION`` — ``ANNOTATION_REF`` names its parent annotation: a symbolic association has
  the parent's time; the annotations of a symbolic subdivision (ordered by
  ``PREVIOUS_ANNOTATION``) divide the parent's time evenly, as ELAN draws them.

An annotation whose time cannot be found (a slot without any aligned time in its chain, a parent
that is missing or has no time) is counted as not compared; each such problem names its line. The
XML is read without DTD or entities (:mod:`.xml_safe`). The recording runs from 0 to the largest
time value of the file.
"""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.timed import TimedFile, TimedTier, TimedUnit
from iaa_desktop.core.formats.xml_safe import Element, parse, release, set_apart
from iaa_desktop.core.textio import read_bytes

ROOT = "ANNOTATION_DOCUMENT"
#: the largest time accepted (about 11.5 days): beyond it a value is taken for a broken file
MAX_MS = 10**9


def looks_like(head: str) -> bool:
    """Whether the start of a file is an EAF document."""
    return "<ANNOTATION_DOCUMENT" in head


def _int(text: str) -> int | None:
    try:
        v = int(text.strip())
    except ValueError:
        return None
    return v if 0 <= v <= MAX_MS else None


class _Reader:
    def __init__(self, path: Path, root: Element) -> None:
        self.path = path
        self.root = root
        self.problems: list[ReaderError] = []
        self.slots: dict[str, int | None] = {}
        #: annotation id → (start, end) once known; None: known to have no time
        self.times: dict[str, tuple[int, int] | None] = {}
        self.refs: dict[str, Element] = {}  # REF_ANNOTATION elements by id
        self.ref_tier_type: dict[str, str] = {}  # REF_ANNOTATION id → its tier's constraint
        self.children: dict[str, list[Element]] = {}  # parent id → REF_ANNOTATIONs of it
        self.reported: set[str] = set()  # annotations whose problem is already said

    def problem(self, line: int | None, message: str) -> None:
        self.problems.append(ReaderError(self.path, line, message))

    def read_slots(self) -> None:
        order = self.root.find("TIME_ORDER")
        for ts in order.iter("TIME_SLOT") if order is not None else []:
            sid = ts.get("TIME_SLOT_ID")
            raw = ts.get("TIME_VALUE")
            value = _int(raw) if raw else None
            if raw and value is None:
                self.problem(ts.line, f"time slot {sid}: '{raw[:40]}' is not a time in ms.")
            self.slots[sid] = value

    def constraints(self) -> dict[str, str]:
        """Linguistic type id → its constraint stereotype ("" for a top-level type)."""
        return {
            lt.get("LINGUISTIC_TYPE_ID"): lt.get("CONSTRAINTS")
            for lt in self.root.iter("LINGUISTIC_TYPE")
        }

    def alignable_times(self, tier: Element) -> None:
        """Times of a tier's alignable annotations; unaligned slots divided evenly in a chain."""
        anns = [a for wrap in tier.iter("ANNOTATION") for a in wrap.iter("ALIGNABLE_ANNOTATION")]
        by_start = {a.get("TIME_SLOT_REF1"): a for a in anns}
        ends = {a.get("TIME_SLOT_REF2") for a in anns}
        for a in anns:
            for ref in ("TIME_SLOT_REF1", "TIME_SLOT_REF2"):
                if a.get(ref) not in self.slots:
                    self.problem(
                        a.line,
                        f"annotation {a.get('ANNOTATION_ID')}: time slot "
                        f"'{a.get(ref)[:40]}' is not in the TIME_ORDER; not compared.",
                    )
                    self.times[a.get("ANNOTATION_ID")] = None
                    self.reported.add(a.get("ANNOTATION_ID"))
        # chains: annotations joined end slot to start slot (a time subdivision)
        for first in anns:
            if (
                first.get("TIME_SLOT_REF1") in ends
                and self.slots.get(first.get("TIME_SLOT_REF1")) is None
            ):
                continue  # starts inside a chain: handled from the chain's first annotation
            chain: list[Element] = []
            step: Element | None = first
            seen: set[int] = set()
            while step is not None and id(step) not in seen:
                seen.add(id(step))
                chain.append(step)
                nxt = step.get("TIME_SLOT_REF2")
                step = by_start.get(nxt) if self.slots.get(nxt) is None else None
            slots = [chain[0].get("TIME_SLOT_REF1")] + [c.get("TIME_SLOT_REF2") for c in chain]
            values = _interpolated([self.slots.get(s) for s in slots])
            for k, c in enumerate(chain):
                aid = c.get("ANNOTATION_ID")
                if aid in self.times:
                    continue
                s, e = values[k], values[k + 1]
                if s is None or e is None:
                    self.times[aid] = None
                elif e < s:
                    self.problem(
                        c.line,
                        f"annotation {aid} ends ({e} ms) before it starts ({s} ms); not compared.",
                    )
                    self.times[aid] = None
                    self.reported.add(aid)
                else:
                    self.times[aid] = (s, e)

    def ref_time(self, aid: str, depth: int = 0) -> tuple[int, int] | None:
        """The time of a reference annotation, from its parent's (recursively)."""
        if aid in self.times:
            return self.times[aid]
        el = self.refs.get(aid)
        if el is None or depth > 50:
            return None
        self.times[aid] = None  # a cycle of references ends here without a time
        parent = el.get("ANNOTATION_REF")
        pt = self.ref_time(parent, depth + 1)
        if pt is None:
            return None
        if self.ref_tier_type.get(aid) == "Symbolic_Subdivision":
            sibs = _ordered(self.children.get(parent, []))
            k = next((i for i, s in enumerate(sibs) if s.get("ANNOTATION_ID") == aid), 0)
            n = max(len(sibs), 1)
            s, e = pt
            self.times[aid] = (s + round((e - s) * k / n), s + round((e - s) * (k + 1) / n))
        else:
            self.times[aid] = pt
        return self.times[aid]

    def read(self) -> TimedFile:
        header = self.root.find("HEADER")
        units = header.get("TIME_UNITS", "milliseconds") if header is not None else "milliseconds"
        if units != "milliseconds":
            raise ReaderError(
                self.path,
                header.line if header is not None else None,
                f"TIME_UNITS '{units[:40]}' is not milliseconds; the file is not read.",
            )
        media = tuple(
            m.get("RELATIVE_MEDIA_URL") or m.get("MEDIA_URL")
            for m in (header.iter("MEDIA_DESCRIPTOR") if header is not None else [])
            if m.get("RELATIVE_MEDIA_URL") or m.get("MEDIA_URL")
        )
        self.read_slots()
        kinds = self.constraints()
        tiers = self.root.iter("TIER")
        for tier in tiers:
            self.alignable_times(tier)
            kind = kinds.get(tier.get("LINGUISTIC_TYPE_REF"), "")
            for wrap in tier.iter("ANNOTATION"):
                for r in wrap.iter("REF_ANNOTATION"):
                    rid = r.get("ANNOTATION_ID")
                    self.refs[rid] = r
                    self.ref_tier_type[rid] = kind
                    self.children.setdefault(r.get("ANNOTATION_REF"), []).append(r)
        out, seen = [], set()
        for tier in tiers:
            name = tier.get("TIER_ID")
            if name in seen:
                self.problem(
                    tier.line, f"tier '{name[:80]}' appears twice; the second is left out."
                )
                continue
            seen.add(name)
            out.append(self.tier(tier))
        values = [v for v in self.slots.values() if v is not None]
        return TimedFile(
            str(self.path),
            "elan",
            tuple(out),
            0,
            max(values, default=0),
            media,
            tuple(self.problems),
        )

    def tier(self, tier: Element) -> TimedTier:
        units, untimed = [], 0
        for wrap in tier.iter("ANNOTATION"):
            for a in wrap.children:
                if a.tag not in ("ALIGNABLE_ANNOTATION", "REF_ANNOTATION"):
                    continue
                value_el = a.find("ANNOTATION_VALUE")
                value = (value_el.text if value_el is not None else "").strip()
                aid = a.get("ANNOTATION_ID")
                t = self.times.get(aid) if a.tag == "ALIGNABLE_ANNOTATION" else self.ref_time(aid)
                if not value:
                    continue  # an empty annotation is no unit
                if t is None:
                    untimed += 1
                    if (
                        untimed <= 20 and aid not in self.reported
                    ):  # a tier left unaligned by the annotator: its first ones
                        self.problem(
                            a.line,
                            f"annotation {aid[:40]} of tier "
                            f"'{tier.get('TIER_ID')[:80]}' has no time (unaligned, or "
                            "referring to an annotation without one); not compared.",
                        )
                    continue
                units.append(TimedUnit(t[0], t[1], value, a.line))
        if untimed > 20:
            self.problem(
                tier.line,
                f"tier '{tier.get('TIER_ID')[:80]}': {untimed} annotations "
                "without a time in all are not compared.",
            )
        units.sort(key=lambda u: (u.start, u.end, u.value))
        return TimedTier(
            tier.get("TIER_ID"),
            tuple(units),
            tier.get("PARTICIPANT"),
            tier.get("ANNOTATOR"),
            False,
            untimed,
            tier.line,
        )


def _interpolated(values: list[int | None]) -> list[int | None]:
    """Unknown values between two known ones divided evenly (ELAN's unaligned slots)."""
    out = list(values)
    known = [i for i, v in enumerate(values) if v is not None]
    for a, b in zip(known, known[1:]):
        va, vb = values[a], values[b]
        assert va is not None and vb is not None
        for i in range(a + 1, b):
            out[i] = va + round((vb - va) * (i - a) / (b - a))
    return out


def _ordered(siblings: list[Element]) -> list[Element]:
    """Symbolic subdivisions of one parent in ``PREVIOUS_ANNOTATION`` order."""
    after = {s.get("PREVIOUS_ANNOTATION"): s for s in siblings}
    first = next((s for s in siblings if not s.get("PREVIOUS_ANNOTATION")), None)
    out, seen = [], set()
    while first is not None and id(first) not in seen:
        seen.add(id(first))
        out.append(first)
        first = after.get(first.get("ANNOTATION_ID"))
    return out + [s for s in siblings if id(s) not in seen]


def read_eaf(path: Path) -> TimedFile:
    """The tiers of an EAF file (see the module docstring); raises :class:`ReaderError` when the
    file is not an EAF document, else reports problems in ``TimedFile.problems``."""
    path = Path(path)
    with set_apart():  # hours of recording: the tree out of the collector's way
        root = parse(read_bytes(path), path)
        if root.tag != ROOT:
            raise ReaderError(
                path,
                root.line,
                f"the root element is <{root.tag[:60]}>, not <{ROOT}>: not an ELAN document.",
            )
        out = _Reader(path, root).read()
        release(root)  # freed here, by reference counts, before the collector runs again
    return out

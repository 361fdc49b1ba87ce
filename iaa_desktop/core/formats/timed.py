"""Time-aligned annotation files (ELAN, Praat) as neutral values: tiers of timed units.

A unit is one annotation (ELAN) or one non-empty interval or point (Praat): its tier, start and
end in whole milliseconds (a point has ``start == end``), its text and the line of the file it was
read from. :mod:`.elan` and :mod:`.textgrid` return a :class:`TimedFile`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from iaa_desktop.core.errors import ReaderError

#: the unit of every time here
TIME_UNIT = "ms"


@dataclass(frozen=True, slots=True)
class TimedUnit:
    """One annotation: start and end in ms (end ≥ start), its text, its line in the file."""

    start: int
    end: int
    value: str
    line: int | None = None


@dataclass(frozen=True)
class TimedTier:
    """One tier: its name, ELAN's participant and annotator attributes (hints of who annotated
    it), whether it holds points (Praat point tiers), and its units in time order."""

    name: str
    units: tuple[TimedUnit, ...]
    participant: str = ""
    annotator: str = ""
    points: bool = False
    #: units that have no time (unaligned ELAN annotations, references to one), not compared
    untimed: int = 0
    line: int | None = None


@dataclass(frozen=True)
class TimedFile:
    """A file's tiers; the recording runs from ``start`` to ``end`` (ms): ELAN 0 to its largest
    time value, Praat the TextGrid's xmin to xmax. ``media``: ELAN's linked media files (URLs as
    written, relative ones first)."""

    path: str
    format: str  # "elan" or "textgrid"
    tiers: tuple[TimedTier, ...]
    start: int
    end: int
    media: tuple[str, ...] = ()
    #: problems met while reading (each names the file and line); the rest was read
    problems: tuple[ReaderError, ...] = field(default=())

    def tier(self, name: str) -> TimedTier | None:
        return next((t for t in self.tiers if t.name == name), None)

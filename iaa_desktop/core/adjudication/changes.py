"""Adjudication decisions as invertible change values.

A :class:`Decision` is what the adjudicator chose for one unit (which version, the value, a
note, when). A :class:`Decide` change replaces the decision of one unit (``old`` → ``new``,
``None`` meaning "no decision"); its :meth:`Decide.inverse` swaps them. Undo and redo are
nothing but applying inverses, so the store, the core session and Qt's undo stack share one
notion of change and the property "apply, then apply the inverse, restores the store" can be
tested without a GUI.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any


def now_iso() -> str:
    """UTC time with milliseconds, ISO 8601 (sortable as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class Decision:
    """The adjudicator's decision for one unit.

    Attributes
    ----------
    choice : how the value was chosen: ``annotator:<name>``, ``majority``, ``mean``, ``median``,
        ``typed`` or a kind-specific choice (``union``, ``intersection``, ``keep``, ``drop``)
    value : the gold value as the kind encodes it; ``None`` = decided to leave it undecided
    note : free text of the adjudicator
    time : ISO 8601 UTC time the decision was made
    author : user name of the adjudicator
    """

    choice: str
    value: str | None
    note: str = ""
    time: str = ""
    author: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "choice": self.choice,
            "value": self.value,
            "note": self.note,
            "time": self.time,
            "author": self.author,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any] | None) -> Decision | None:
        if d is None:
            return None
        return cls(
            str(d["choice"]),
            d.get("value"),
            str(d.get("note", "")),
            str(d.get("time", "")),
            str(d.get("author", "")),
        )


@dataclass(frozen=True, slots=True)
class Decide:
    """Replace the decision of ``unit``: ``old`` (what the store holds now) → ``new``.

    ``None`` on either side means the unit has no decision (it falls back to the automatic merge).
    """

    unit: str
    old: Decision | None
    new: Decision | None

    def inverse(self) -> Decide:
        """The change that undoes this one."""
        return Decide(self.unit, self.new, self.old)

    @property
    def is_noop(self) -> bool:
        return self.old == self.new

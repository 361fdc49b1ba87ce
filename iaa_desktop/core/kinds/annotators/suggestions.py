"""The inferred labels of ``--competence`` as adjudication suggestions, for any kind.

A kind's ``units_for`` fills :attr:`~iaa_desktop.core.adjudication.model.AdjudicationModel.suggestions`
(unit key → :class:`~iaa_desktop.core.adjudication.model.Suggestion`) from its study's
``inferred[]`` rows (:attr:`~iaa_desktop.core.kinds.annotators.competence.CompetenceFigures.inferred`)
with one of two helpers:

* :func:`item_suggestions` when an inferred item is one unit (a table item, a DURel use pair, a
  normalization token): the kind names the unit of an item and the unit's value of a label;
* :func:`part_suggestions` when a unit is inferred in parts (a multi-label item label by label,
  a span group token by token): the kind gathers each unit's parts and, where the parts make
  one value of the unit, that value.

The adjudication window then shows the suggestion above the unit's context, and the
``inferred`` merge strategy takes its value; nothing is decided otherwise (Dawid & Skene 1979).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from iaa_desktop.core.adjudication.model import Suggestion
from iaa_desktop.core.kinds.annotators.competence import METHOD_TITLES, suggestion

__all__ = ["MAX_PARTS", "Part", "item_suggestions", "part_suggestions", "parts_text"]

#: the parts a suggestion's text lists before "…" (the value and threshold use every part)
MAX_PARTS = 8
#: the method whose label is suggested (MACE's is in the inferred table beside it)
METHOD = "dawid_skene"

#: one part of a unit: what it is (a label, a token), its inferred label, the posterior
Part = tuple[str, str, float]


def item_suggestions(
    rows: Iterable[Mapping[str, Any]],
    unit_of: Callable[[str], str | None],
    value_of: Callable[[str, str], str | None],
) -> dict[str, Suggestion]:
    """Unit key → suggestion, one inferred item per unit.

    ``unit_of(item)`` names the unit of an inferred item (``None``: no unit); ``value_of(unit,
    label)`` is the unit's value in the kind's encoding for the inferred label (``None``: no
    single value; the suggestion is then shown but never taken).
    """
    out: dict[str, Suggestion] = {}
    for row in rows:
        unit = unit_of(str(row["item"]))
        if unit is None:
            continue
        label, p = str(row[METHOD]), float(row[f"{METHOD}_posterior"])
        out[unit] = Suggestion(suggestion(METHOD, label, p), value_of(unit, label), p)
    return out


def parts_text(parts: Sequence[Part], limit: int = MAX_PARTS) -> str:
    """``Dawid–Skene: Complication yes 0.93, Success no 0.88`` (the first ``limit`` parts)."""
    shown = [f"{what} {label} {p:.2f}" for what, label, p in parts[:limit]]
    more = f", … ({len(parts) - limit} more)" if len(parts) > limit else ""
    return f"{METHOD_TITLES[METHOD]}: " + ", ".join(shown) + more


def part_suggestions(
    parts: Mapping[str, Sequence[Part]], values: Mapping[str, str | None]
) -> dict[str, Suggestion]:
    """Unit key → suggestion of units inferred in parts; ``values`` the unit's value the parts
    make (absent or ``None``: none). The posterior compared with a threshold is the lowest
    part's, so a unit is taken only when every part is as certain."""
    out: dict[str, Suggestion] = {}
    for unit, ps in parts.items():
        if not ps:
            continue
        low = min(p for _w, _l, p in ps)
        out[unit] = Suggestion(parts_text(ps), values.get(unit), low)
    return out

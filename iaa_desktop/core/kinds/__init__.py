"""The registry of study kinds: ``KINDS`` maps a kind's name to its :class:`KindSpec`.

Each kind is one package below this one (its readers, comparison, result, report section, methods
paragraph, adjudication units and gold writers, what the import dialog shows, its example) whose
``__init__`` defines ``SPEC``; everything the program knows about a kind is reached through
``KINDS[name]``. Adding a kind is one package and one line in ``KINDS``; its view in the window is
one module the spec names (:mod:`iaa_desktop.gui.kinds`). The specs import their heavy modules
when first used, so importing this registry is cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from iaa_desktop.core import kind_lookup
from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds import (
    candidates,
    coref,
    durel,
    multilabel,
    normalization,
    spans,
    table,
)
from iaa_desktop.core.kinds.spec import KindSpec, Setting, TaskKind, TaskResult

__all__ = [
    "FALLBACK_KIND",
    "KINDS",
    "KindSpec",
    "Setting",
    "TaskKind",
    "TaskResult",
    "best_kind",
    "detect_kind",
    "get_kind",
    "kind_names",
    "sniff_all",
]

#: kind name → spec; the only registry of kinds in the application
KINDS: dict[str, KindSpec] = {
    spec.name: spec
    for spec in (
        table.SPEC,
        coref.SPEC,
        durel.SPEC,
        candidates.SPEC,
        normalization.SPEC,
        multilabel.SPEC,
        spans.SPEC,
    )
}
kind_lookup.install(KINDS)  # results reach their kind's report and adjudication through it


def kind_names() -> list[str]:
    return list(KINDS)


def get_kind(name: str) -> KindSpec:
    try:
        return KINDS[name]
    except KeyError:
        shown = name if len(str(name)) <= 40 else f"{str(name)[:40]}…"
        raise OptionError(
            f"Unknown kind of study '{shown}'; choose one of: {', '.join(KINDS)}."
        ) from None


#: the kind that reads what no kind claims (any table of judgments)
FALLBACK_KIND = "table"


def best_kind(scores: Mapping[str, float]) -> tuple[str, float]:
    """The kind with the highest sniff score (the first of equals), and the score;
    :data:`FALLBACK_KIND` when no kind claims the inputs."""
    best, best_score = FALLBACK_KIND, 0.0
    for name, score in scores.items():
        if score > best_score:
            best, best_score = name, score
    return best, best_score


def sniff_all(inputs: Sequence[Path]) -> dict[str, float]:
    """Every kind's confidence that ``inputs`` are its own (a sniffer failing means "not mine")."""
    scores = {}
    for name, spec in KINDS.items():
        try:
            scores[name] = float(spec.sniff(list(inputs)))
        except Exception:  # noqa: BLE001
            scores[name] = 0.0
    return scores


def detect_kind(inputs: Sequence[Path]) -> str:
    """The kind whose ``sniff`` is most confident (:func:`best_kind`)."""
    return best_kind(sniff_all(inputs))[0]

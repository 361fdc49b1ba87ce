"""The registry of study kinds: ``KINDS`` maps a kind's name to its :class:`KindSpec`.

Each kind is one package below this one (its readers, comparison, result, report section, methods
paragraph, adjudication units and gold writers, what the import dialog shows, its example) whose
``__init__`` defines ``SPEC``; everything the program knows about a kind is reached through
``KINDS[name]``. Adding a kind is one package and one line in ``KINDS``; its view in the window is
one module the spec names (:mod:`iaa_desktop.gui.kinds`). The specs import their heavy modules
when first used, so importing this registry is cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    "KINDS",
    "KindSpec",
    "Setting",
    "TaskKind",
    "TaskResult",
    "detect_kind",
    "get_kind",
    "kind_names",
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


def detect_kind(inputs: Sequence[Path]) -> str:
    """The kind whose ``sniff`` is most confident; ``table`` when nothing else claims the inputs."""
    best, best_score = "table", 0.0
    for name, spec in KINDS.items():
        try:
            score = spec.sniff(inputs)
        except Exception:  # noqa: BLE001
            score = 0.0
        if score > best_score:
            best, best_score = name, score
    return best

"""Registry of study kinds. Adding a kind is one module and one line here.

Modules are imported lazily so start-up stays fast (lingpy alone takes seconds to import).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path

from ..errors import OptionError
from .base import Setting, TaskKind, TaskResult

__all__ = ["KIND_MODULES", "Setting", "TaskKind", "TaskResult", "detect_kind", "get_kind", "kind_names"]

#: kind name → module defining ``KIND``
KIND_MODULES: dict[str, str] = {
    "table": "iaa_desktop.core.tasks.table",
    "coref": "iaa_desktop.core.tasks.coref",
    "durel": "iaa_desktop.core.tasks.durel",
    "candidates": "iaa_desktop.core.tasks.candidates",
    "normalization": "iaa_desktop.core.tasks.normalization",
    "multilabel": "iaa_desktop.core.tasks.multilabel",
}


def kind_names() -> list[str]:
    return list(KIND_MODULES)


def get_kind(name: str) -> TaskKind:
    try:
        module = KIND_MODULES[name]
    except KeyError:
        raise OptionError(
            f"Unknown kind of study '{name}'; choose one of: {', '.join(KIND_MODULES)}."
        ) from None
    return importlib.import_module(module).KIND


def detect_kind(inputs: Sequence[Path]) -> str:
    """The kind whose ``sniff`` is most confident; ``table`` when nothing else claims the inputs."""
    best, best_score = "table", 0.0
    for name in KIND_MODULES:
        try:
            score = get_kind(name).sniff(inputs)
        except Exception:  # a sniffer must never stop detection
            score = 0.0
        if score > best_score:
            best, best_score = name, score
    return best

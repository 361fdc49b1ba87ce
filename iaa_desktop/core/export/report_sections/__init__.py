"""Per-kind parts of the report: ``build(result, ctx) -> KindReport``, one module per kind.

Kinds without a module here get :mod:`.generic` (headline figures and every table of
``result.tables()``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

#: kind name → module of this package
SECTION_MODULES: dict[str, str] = {
    "table": "table",
    "durel": "durel",
    "candidates": "candidates",
    "normalization": "normalization",
    "multilabel": "multilabel",
    "coref": "coref",
}


def builder_for(kind: str) -> Callable[[Any, Any], Any]:
    name = SECTION_MODULES.get(kind, "generic")
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        module = importlib.import_module(f"{__name__}.generic")
    return module.build

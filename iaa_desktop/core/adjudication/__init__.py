"""Adjudication: walk through the disagreements, decide, leave with a gold set and a record.

* :mod:`.model` — units with every annotator's version, merge strategies;
* :mod:`.changes` — decisions as invertible change values;
* :mod:`.store` — the SQLite store (migrations, lock, durability);
* :mod:`.session` — the Qt-free session the GUI and scripts drive;
* :mod:`.kinds` — units and gold export per kind of study.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import OptionError
from .changes import Decide, Decision
from .model import AdjudicationModel, Choice, Strategy, auto_merge
from .session import AdjudicationSession
from .store import (
    AdjudicationStore,
    StoreConflictError,
    StoreCorruptError,
    StoreError,
    StoreLockedError,
    StoreReadOnlyError,
    new_store_path_beside,
    store_path_for,
)

__all__ = [
    "AdjudicationModel",
    "AdjudicationSession",
    "AdjudicationStore",
    "Choice",
    "Decide",
    "Decision",
    "StoreConflictError",
    "StoreCorruptError",
    "StoreError",
    "StoreLockedError",
    "StoreReadOnlyError",
    "Strategy",
    "UNIT_BUILDERS",
    "auto_merge",
    "new_store_path_beside",
    "store_path_for",
    "units_for",
]

#: kind name → "module:function" building an :class:`AdjudicationModel` from a result
UNIT_BUILDERS: dict[str, str] = {
    "table": "iaa_desktop.core.adjudication.kinds.table:units_for_table",
    "durel": "iaa_desktop.core.adjudication.kinds.durel:units_for_durel",
    "candidates": "iaa_desktop.core.adjudication.kinds.candidates:units_for_candidates",
    "multilabel": "iaa_desktop.core.adjudication.kinds.multilabel:units_for_multilabel",
    "normalization": "iaa_desktop.core.adjudication.kinds.normalization:units_for_normalization",
    "coref": "iaa_desktop.core.adjudication.kinds.coref:units_for_coref",
}


def units_for(result: Any) -> AdjudicationModel:
    """The adjudication units of a comparison result (dispatch on ``result.kind``)."""
    target = UNIT_BUILDERS.get(result.kind)
    if target is None:
        raise OptionError(f"Adjudication is not available for '{result.kind}' studies yet.")
    module, func = target.split(":")
    try:
        builder = getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError) as e:
        raise OptionError(
            f"Adjudication is not available for '{result.kind}' studies yet ({e})."
        ) from e
    return builder(result)

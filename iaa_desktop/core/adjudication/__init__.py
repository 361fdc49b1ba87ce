"""Adjudication: walk through the disagreements, decide, leave with a gold set and a record.

* :mod:`.model` — units with every annotator's version, merge strategies;
* :mod:`.changes` — decisions as invertible change values;
* :mod:`.store` — the SQLite store (migrations, lock, durability);
* :mod:`.session` — the Qt-free session the GUI and scripts drive;
* :mod:`.kinds` — units and gold export per kind of study.
"""

from __future__ import annotations

from typing import Any

from iaa_desktop.core.adjudication.changes import Decide, Decision
from iaa_desktop.core.adjudication.model import AdjudicationModel, Choice, Strategy, auto_merge
from iaa_desktop.core.adjudication.session import AdjudicationSession
from iaa_desktop.core.adjudication.store import (
    AdjudicationStore,
    StoreConflictError,
    StoreCorruptError,
    StoreError,
    StoreFullError,
    StoreLockedError,
    StoreReadOnlyError,
    new_store_path_beside,
    store_path_for,
)
from iaa_desktop.core.errors import OptionError

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
    "StoreFullError",
    "StoreLockedError",
    "StoreReadOnlyError",
    "Strategy",
    "auto_merge",
    "new_store_path_beside",
    "store_path_for",
    "units_for",
]


def units_for(result: Any) -> AdjudicationModel:
    """The adjudication units of a comparison result (its kind's spec builds them)."""
    spec = getattr(result, "spec", None)
    if spec is None:
        raise OptionError(f"Adjudication is not available for '{result.kind}' studies.")
    return spec.units_for(result)  # type: ignore[no-any-return]

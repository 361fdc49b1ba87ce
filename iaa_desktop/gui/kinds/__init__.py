"""The views of each kind of study in the window.

A kind's spec names its view module (:attr:`~iaa_desktop.core.kinds.spec.KindSpec.view`),
relative to this package (``".pairs"``) or absolute; the module defines::

    def create_panels(result: TaskResult, context: ViewContext) -> list[tuple[str, QWidget]]

returning the tabs to show for a finished result of that kind (title, widget). Panels get a fresh
result each time the study recomputes; a module may keep state across results by defining a
``Panel`` widget with ``set_result(result)`` and returning the same widget (see ``context.cache``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["create_panels", "view_module"]


def view_module(kind: str) -> ModuleType | None:
    """The view module of ``kind`` (imported on first use), or None when the kind has none."""
    from iaa_desktop.core.kinds import KINDS

    spec = KINDS.get(kind)
    if spec is None or not spec.view:
        return None
    return importlib.import_module(spec.view, __name__)


def create_panels(result: Any, context: Any) -> list[tuple[str, Any]]:
    """The tabs of ``result``'s kind (none when the kind has no view)."""
    module = view_module(result.kind)
    if module is None:
        return []
    make: Callable[[Any, Any], list[tuple[str, Any]]] = module.create_panels
    return make(result, context)

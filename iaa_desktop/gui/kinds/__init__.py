"""The views of each kind of study in the window.

A kind's spec says where its view is (:attr:`~iaa_desktop.core.kinds.spec.KindSpec.view`, a
:class:`~iaa_desktop.core.kinds.spec.ViewRef` holding the module's absolute name: the core never
imports the window, so the window imports the module); the module defines::

    def create_panels(result: TaskResult, context: ViewContext) -> list[tuple[str, QWidget]]

returning the tabs to show for a finished result of that kind (title, widget). Panels get a fresh
result each time the study recomputes; a module may keep state across results by defining a
``Panel`` widget with ``set_result(result)`` and returning the same widget (see ``context.cache``).
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol, runtime_checkable

__all__ = ["KindView", "create_panels", "view_module"]


@runtime_checkable
class KindView(Protocol):
    """What a kind's view module provides: the tabs of a finished result (title, widget)."""

    def create_panels(self, result: Any, context: Any) -> list[tuple[str, Any]]: ...


def view_module(kind: str) -> KindView | None:
    """The view of ``kind`` (its module imported on first use), or None when the kind has none."""
    from iaa_desktop.core.kinds import KINDS

    spec = KINDS.get(kind)
    if spec is None or spec.view is None:
        return None
    module = importlib.import_module(spec.view.module)
    if not isinstance(module, KindView):
        raise TypeError(f"the view of the kind '{kind}', {spec.view.module}, has no create_panels")
    return module


def create_panels(result: Any, context: Any) -> list[tuple[str, Any]]:
    """The tabs of ``result``'s kind (none when the kind has no view)."""
    view = view_module(result.kind)
    return [] if view is None else view.create_panels(result, context)

"""How the shared services reach a result's kind without importing the registry of kinds.

The report, the methods paragraph and adjudication sit below the kinds (they must not import
them), yet each result is reported and adjudicated by its own kind. The registry
(:data:`iaa_desktop.core.kinds.KINDS`) installs itself here when it is imported, which happens
before any result exists (every kind imports :mod:`iaa_desktop.core.kinds.spec`);
``result.spec`` looks the kind up through :func:`spec_of`.
"""

from __future__ import annotations

from collections.abc import Mapping

_registry: list[Mapping[str, object]] = []


def install(kinds: Mapping[str, object]) -> None:
    """Make ``kinds`` (name → spec) the registry :func:`spec_of` looks in."""
    _registry[:] = [kinds]


def spec_of(kind: str) -> object | None:
    """The spec registered under ``kind``, or None (no registry, or an unknown kind)."""
    return _registry[0].get(kind) if _registry else None

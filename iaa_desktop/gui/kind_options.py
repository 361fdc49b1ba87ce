"""The options a study keeps when the user changes its kind, and the ones each kind remembers.

Choosing another kind in the settings panel keeps the value of every setting the new kind shares
with the old one (same name, same type, a value the new kind accepts); the other settings of the
new kind take the values the user last gave them for that kind (remembered in ``QSettings``, as
the window remembers its other state), else their defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import QSettings

from iaa_desktop.core.kinds.spec import Setting

GROUP = "kind_options"
#: what :func:`coerce` gives for a value its setting cannot take
MISSING = object()


def _accepts(setting: Setting, value: Any) -> bool:
    if value is None:
        return False
    if setting.choices:
        return value in setting.choices
    if setting.type is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return type(value) is setting.type


def coerce(setting: Setting, value: Any) -> Any:
    """``value`` (as read back from the settings file, often a string) as ``setting`` takes it,
    or ``MISSING`` when it cannot be one of its values."""
    if isinstance(value, str) and setting.type is not str:
        text = value.strip().lower()
        try:
            if setting.type is bool:
                value = {"true": True, "1": True, "false": False, "0": False}[text]
            elif setting.type is int:
                value = int(text)
            elif setting.type is float:
                value = float(text)
        except (KeyError, ValueError):
            return MISSING
    if setting.type is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    return value if _accepts(setting, value) else MISSING


def carried_options(
    old: Sequence[Setting],
    new: Sequence[Setting],
    options: Mapping[str, Any],
    remembered: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The options of a study changing from settings ``old`` to ``new``.

    A setting of ``new`` whose name and type ``old`` has too keeps its value in ``options`` (if
    ``new`` accepts it); the others take their value in ``remembered`` (if acceptable). Settings
    left out get their defaults when the kind resolves its options.
    """
    old_types = {s.name: s.type for s in old}
    out: dict[str, Any] = {}
    for s in new:
        value: Any = MISSING
        if old_types.get(s.name) is s.type and s.name in options:
            value = coerce(s, options[s.name])
        if value is MISSING and remembered and s.name in remembered:
            value = coerce(s, remembered[s.name])
        if value is not MISSING:
            out[s.name] = value
    return out


class KindOptionMemory:
    """Per-kind option values the user set, in ``settings`` under ``kind_options/<kind>/``."""

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def remember(self, kind: str, name: str, value: Any) -> None:
        if kind and value is not None:
            self.settings.setValue(f"{GROUP}/{kind}/{name}", value)

    def recall(self, kind: str) -> dict[str, Any]:
        self.settings.beginGroup(f"{GROUP}/{kind}")
        try:
            return {k: self.settings.value(k) for k in self.settings.childKeys()}
        finally:
            self.settings.endGroup()


__all__ = ["MISSING", "KindOptionMemory", "carried_options", "coerce"]

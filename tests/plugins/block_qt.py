"""pytest plugin: make Qt unimportable, so the core tests prove the core runs without it.

Used as ``pytest -p no:pytestqt -p block_qt tests/core`` with ``tests/plugins`` on the path
(``.ci/run`` does this once besides the normal run).
"""

from __future__ import annotations

import importlib.abc
import sys

BLOCKED = ("PySide6", "shiboken6", "superqt", "qtpy", "PyQt5", "PyQt6", "pytestqt")


class _BlockQt(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(
                f"{fullname} is blocked: the core must run without Qt", name=fullname
            )
        return None


def pytest_configure(config) -> None:
    for name in list(sys.modules):
        if name.split(".")[0] in ("PySide6", "shiboken6", "superqt"):
            raise RuntimeError(f"{name} was imported before the Qt blocker was installed")
    sys.meta_path.insert(0, _BlockQt())

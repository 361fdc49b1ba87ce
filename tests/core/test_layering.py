"""One-way dependencies: core never imports Qt or the GUI; metrics import nothing else of ours."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[2] / "iaa_desktop"
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "superqt", "qtpy", "pytestqt")


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                # resolve relative imports against the module's package
                base = path.relative_to(PKG.parent).with_suffix("").parts[: -node.level]
                mod = ".".join(base + ((mod,) if mod else ()))
            out.append((mod, node.lineno))
    return out


def _modules(sub: str) -> list[Path]:
    return sorted((PKG / sub).rglob("*.py")) if sub else sorted(PKG.glob("*.py"))


@pytest.mark.parametrize("path", _modules("core"), ids=lambda p: str(p.relative_to(PKG)))
def test_core_never_imports_qt_or_gui(path):
    for name, line in _imports(path):
        assert not name.startswith(QT), f"{path}:{line} imports {name}"
        assert not name.startswith("iaa_desktop.gui"), f"{path}:{line} imports the GUI ({name})"


@pytest.mark.parametrize("path", _modules("core/metrics"), ids=lambda p: str(p.relative_to(PKG)))
def test_metrics_import_nothing_else_from_the_project(path):
    for name, line in _imports(path):
        if name.startswith("iaa_desktop"):
            assert name.startswith("iaa_desktop.core.metrics"), f"{path}:{line} imports {name}"


def test_cli_imports_core_only():
    for name, line in _imports(PKG / "cli.py"):
        assert not name.startswith(QT), f"cli.py:{line} imports {name}"


def test_core_imports_with_qt_unavailable():
    """Every core module imports in a process where importing Qt fails."""
    modules = [
        ".".join(p.relative_to(PKG.parent).with_suffix("").parts)
        for p in _modules("core")
        if p.name != "__init__.py" or p.parent != PKG / "core"
    ]
    modules = [m[: -len(".__init__")] if m.endswith(".__init__") else m for m in modules]
    code = (
        "import sys\n"
        f"for q in {QT!r}: sys.modules[q] = None\n"
        "import importlib\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print('ok')\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PKG.parent, timeout=120
    )
    assert r.returncode == 0, r.stderr[-2000:]

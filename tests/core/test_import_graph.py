"""The package's import graph: no cycles, and no private name imported from another module.

A cycle (two modules importing each other, at the top or inside a function) means a file was cut
where it should not have been; a private name (``_x``) imported elsewhere is a helper that should
be public where it lives, or live elsewhere. The graph is grimp's (the library import-linter uses),
imports under ``TYPE_CHECKING`` left out: they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

PACKAGE = Path(__file__).resolve().parents[2] / "iaa_desktop"
#: cycles still to be cut, each as its sorted modules (the list only shrinks)
KNOWN_CYCLES: list[list[str]] = []


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan 1972)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def test_cycles_are_found() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_package_has_no_import_cycle() -> None:
    graph = grimp.build_graph("iaa_desktop", exclude_type_checking_imports=True)
    edges = {
        m: {i for i in graph.find_modules_directly_imported_by(m) if i.startswith("iaa_desktop")}
        for m in graph.modules
    }
    assert _cycles(edges) == KNOWN_CYCLES


def _private_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("iaa_desktop"):
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    out.append(f"{path.name}:{node.lineno}: {a.name} from {node.module}")
                modules.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name.startswith("iaa_"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            out.append(f"{path.name}:{node.lineno}: {node.value.id}.{node.attr}")
    return out


def test_no_private_name_is_imported_from_another_module(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from iaa_desktop.core.tabular import _x\nimport iaa_desktop.core.io as io\nio._y\n"
    )
    assert len(_private_imports(bad)) == 2
    found = [hit for f in sorted(PACKAGE.rglob("*.py")) for hit in _private_imports(f)]
    assert found == []

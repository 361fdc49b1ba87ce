"""Every kind of the core has a view, and a new kind's view is one module and one line."""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip("pytestqt")

from iaa_desktop.core.kinds import KINDS
from iaa_desktop.gui.kinds import VIEW_MODULES


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_core_kind_has_a_view(name: str) -> None:
    assert name in VIEW_MODULES, f"kind '{name}' has no view in gui/kinds"
    assert callable(importlib.import_module(VIEW_MODULES[name]).create_panels)


def test_a_new_kind_shows_its_view(qtbot, monkeypatch, tmp_path) -> None:
    from iaa_desktop.core.progress import run_to_end
    from tests.core.test_kind_registry import TAGS
    from tests.fixtures.toy_kind import SPEC

    monkeypatch.setitem(KINDS, SPEC.name, SPEC)
    monkeypatch.setitem(VIEW_MODULES, SPEC.name, "tests.fixtures.toy_kind.view")
    path = tmp_path / "tags.csv"
    path.write_text(TAGS.replace(",y\n", ",yes\n").replace(",n\n", ",no\n"), encoding="utf-8")
    result = run_to_end(SPEC.run([path], {"yes": "yes"}))
    panels = importlib.import_module(VIEW_MODULES["toy"]).create_panels(result, None)
    title, widget = panels[0]
    qtbot.addWidget(widget)
    assert title == "Tags" and widget.model().rowCount() == 6

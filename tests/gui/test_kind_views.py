"""Every kind of the core has a view, and a new kind is a full citizen of the window.

The test-only kind (``tests/fixtures/toy_kind``) is registered with one line, as in
``tests/core/test_kind_registry.py``; its example, its view and its adjudication then work.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from iaa_desktop.core.kinds import KINDS
from iaa_desktop.gui import kinds as views


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_core_kind_has_a_view(name: str) -> None:
    ref = KINDS[name].view
    assert ref is not None and ref.module.startswith("iaa_desktop.gui.kinds.")
    module = views.view_module(name)
    assert module is not None, f"kind '{name}' has no view in gui/kinds"
    assert isinstance(module, views.KindView) and callable(module.create_panels)
    assert getattr(module, "__name__", None) == ref.module


def test_a_view_is_named_by_its_module_not_a_relative_name() -> None:
    from iaa_desktop.core.kinds.spec import ViewRef

    with pytest.raises(ValueError, match="dotted name"):
        ViewRef(".pairs")
    with pytest.raises(ValueError, match="dotted name"):
        ViewRef("iaa_desktop.gui.kinds:create_panels")


@pytest.fixture
def toy(monkeypatch, tmp_path) -> Path:
    from tests.core.test_kind_registry import TAGS
    from tests.fixtures.toy_kind import SPEC

    monkeypatch.setitem(KINDS, SPEC.name, SPEC)  # the one line that registers a kind
    path = tmp_path / "tags.csv"
    path.write_text(TAGS.replace(",y\n", ",yes\n").replace(",n\n", ",no\n"), encoding="utf-8")
    return path


def test_a_new_kind_shows_its_view(qtbot, toy) -> None:
    from iaa_desktop.core.progress import run_to_end

    result = run_to_end(KINDS["toy"].run([toy], {"yes": "yes"}))
    panels = views.create_panels(result, None)
    title, widget = panels[0]
    qtbot.addWidget(widget)
    assert title == "Tags" and widget.model().rowCount() == 6


def test_a_new_kind_has_its_example_on_the_start_page(qtbot, toy, tmp_path) -> None:
    from iaa_desktop.gui.start_page import StartPage

    folder = tmp_path / "examples" / "toy"
    folder.mkdir(parents=True)
    shutil.copy(toy, folder / "tags.csv")
    study = {"format": "iaa-study", "version": 1, "name": "Tags (example)", "kind": "toy"}
    study |= {"inputs": ["tags.csv"], "options": {}}
    (folder / "tags.iaa-study").write_text(json.dumps(study), encoding="utf-8")
    page = StartPage(examples_root=tmp_path / "examples")
    qtbot.addWidget(page)
    (card,) = page.cards
    assert card.example.kind == "Yes/no tags" and card.example.blurb.startswith("Six items")


def test_a_new_kind_is_adjudicated_in_the_panel(qtbot, toy, tmp_path) -> None:
    from PySide6.QtCore import Qt

    from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore, units_for
    from iaa_desktop.core.progress import run_to_end
    from iaa_desktop.gui.adjudication import AdjudicationPanel

    result = run_to_end(KINDS["toy"].run([toy], {"yes": "yes"}))
    store = AdjudicationStore.open(tmp_path / "toy.adjudication.sqlite")
    panel = AdjudicationPanel(AdjudicationSession(units_for(result), store))
    qtbot.addWidget(panel)
    panel.show()
    assert panel.value_edit.placeholderText() == "yes or no"
    first = panel.current
    assert first is not None
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_1)
    assert panel.session.is_decided(first)
    assert panel.session.gold[first] == panel.session.model.versions[first, 0]

"""Views of a ``multilabel`` result. Four tabs share one selection (a partition of the exploration
and an annotator pair):

* **Items** — every item with its text and every annotator's label set side by side;
* **Multi-label agreement** — per-label agreement, the pair matrix, label counts and combinations
  (a joint-distribution cell lists its items in the Items tab);
* **Decomposition** — the chosen S1 per pair, every explored partition and the scatter plot;
* **Partition items** — the items behind the selected partition for one pair.

Nothing is computed here beyond lookups in the finished result.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QTabWidget, QWidget

from iaa_desktop.gui.kinds.multilabel.agreement import AgreementPanel
from iaa_desktop.gui.kinds.multilabel.decomposition import DecompositionPanel
from iaa_desktop.gui.kinds.multilabel.items import AllItemsPanel, ItemsPanel
from iaa_desktop.gui.widgets.annotators import StudyAnnotatorsPanel, has_study_annotators

__all__ = [
    "AgreementPanel",
    "AllItemsPanel",
    "DecompositionPanel",
    "ItemsPanel",
    "MultiLabelPanels",
    "create_panels",
]

CACHE_KEY = "multilabel"


def show_tab(widget: QWidget) -> None:
    """Bring the tab holding ``widget`` to the front (when it sits in a tab widget)."""
    w = widget.parentWidget()
    while w is not None and not isinstance(w, QTabWidget):
        w = w.parentWidget()
    if isinstance(w, QTabWidget):
        w.setCurrentWidget(widget)


class MultiLabelPanels(QObject):
    """The tabs of a multi-label result and their shared selection."""

    def __init__(self) -> None:
        super().__init__()
        self.all_items = AllItemsPanel()
        self.agreement = AgreementPanel()
        self.decomposition = DecompositionPanel()
        self.items = ItemsPanel()
        #: model annotators and planning per label, when the study asked for them (made the
        #: first time: a widget never shown is never made)
        self.annotators: StudyAnnotatorsPanel | None = None
        self.with_annotators = False
        self.decomposition.partition_selected.connect(self.items.show_partition)
        self.agreement.cell_items.connect(self._on_cell_items)

    def _on_cell_items(self, mask: Any, what: str) -> None:
        self.all_items.show_cell(mask, what)
        show_tab(self.all_items)

    def set_result(self, result: Any) -> None:
        self.all_items.set_result(result)
        self.agreement.set_result(result)
        self.items.set_result(result)
        self.decomposition.set_result(result)
        self.with_annotators = has_study_annotators(result)
        if self.with_annotators:
            if self.annotators is None:
                self.annotators = StudyAnnotatorsPanel()
            self.annotators.set_result(result)

    def panels(self) -> list[tuple[str, QWidget]]:
        out: list[tuple[str, QWidget]] = [
            ("Items", self.all_items),
            ("Multi-label agreement", self.agreement),
            ("Decomposition", self.decomposition),
            ("Partition items", self.items),
        ]
        if self.with_annotators and self.annotators is not None:
            out.append(("Annotators", self.annotators))
        return out


def create_panels(result: Any, context: Any) -> list[tuple[str, QWidget]]:
    """Tabs for a finished multi-label result; widgets are kept in ``context.cache`` so the
    selected partition and pair survive a recompute."""
    cache = getattr(context, "cache", None)
    panels = cache.get(CACHE_KEY) if isinstance(cache, dict) else None
    if not isinstance(panels, MultiLabelPanels):
        panels = MultiLabelPanels()
        if isinstance(cache, dict):
            cache[CACHE_KEY] = panels
    panels.set_result(result)
    return panels.panels()

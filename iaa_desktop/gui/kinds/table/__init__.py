"""Views of the generic table kind: overview (summary, pairwise heatmap, items in context),
groups and categories (the coincidence matrix lists the items behind a cell)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from iaa_desktop.gui.kinds.table.annotators import AnnotatorsPanel, has_annotator_figures
from iaa_desktop.gui.kinds.table.categories import CategoriesPanel, GroupsPanel
from iaa_desktop.gui.kinds.table.overview import OverviewPanel
from iaa_desktop.gui.widgets.occurrences import OccurrencesPanel

__all__ = ["AnnotatorsPanel", "CategoriesPanel", "GroupsPanel", "OverviewPanel", "create_panels"]


def create_panels(result: Any, context: Any) -> list[tuple[str, QWidget]]:
    cache = context.cache.setdefault("table", {})
    panels: list[tuple[str, QWidget]] = []
    overview = cache.get("overview") or OverviewPanel()
    cache["overview"] = overview
    overview.set_result(result)
    panels.append(("Overview", overview))
    if result.groups:
        groups = cache.get("groups") or GroupsPanel()
        cache["groups"] = groups
        groups.set_result(result)
        panels.append(("Groups", groups))
    if len(result.per_category):
        cats = cache.get("categories") or CategoriesPanel()
        cache["categories"] = cats
        cats.set_result(result)
        panels.append(("Categories", cats))
    if has_annotator_figures(result):
        ann = cache.get("annotators") or AnnotatorsPanel()
        cache["annotators"] = ann
        ann.set_result(result)
        panels.append(("Annotators", ann))
    overview.annotators_panel = cache.get("annotators") if has_annotator_figures(result) else None
    if getattr(result, "occurrences", None) is not None:
        occ = cache.get("occurrences") or OccurrencesPanel()
        cache["occurrences"] = occ
        occ.set_occurrences(result.occurrences, "label")
        panels.append(("Occurrences", occ))
    return panels

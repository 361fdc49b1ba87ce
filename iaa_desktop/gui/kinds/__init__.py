"""Registry of the views of each kind of study. Adding a view is one module and one line here.

Each module named here defines::

    def create_panels(result: TaskResult, context: ViewContext) -> list[tuple[str, QWidget]]

returning the tabs to show for a finished result of that kind (title, widget). Panels get a fresh
result each time the study recomputes; a module may keep state across results by defining a
``Panel`` widget with ``set_result(result)`` and returning the same widget (see ``context.cache``).
"""

from __future__ import annotations

#: kind name → module with ``create_panels``
VIEW_MODULES: dict[str, str] = {
    "table": "iaa_desktop.gui.kinds.table",
    "coref": "iaa_desktop.gui.kinds.coref",
    "durel": "iaa_desktop.gui.kinds.pairs",
    "candidates": "iaa_desktop.gui.kinds.pairs",
    "multilabel": "iaa_desktop.gui.kinds.multilabel",
    "normalization": "iaa_desktop.gui.kinds.normalization",
    "spans": "iaa_desktop.gui.kinds.spans",
}

"""Views of a spelling-normalization study (kind ``normalization``).

* **Interlinear** — the historical text with every annotator's normalization beneath, the selected
  token's line and character grid, and the disagreements (:mod:`.interlinear`, :mod:`.grid`);
* **Agreement** — the summary with interpretation and every table (:mod:`.agreement`);
* **Occurrences** — every historical form with each annotator's normalization of each of its
  occurrences (:mod:`iaa_desktop.gui.widgets.occurrences`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from iaa_desktop.gui.kinds.normalization.agreement import AgreementPanel
from iaa_desktop.gui.kinds.normalization.grid import CharacterGridModel
from iaa_desktop.gui.kinds.normalization.interlinear import NormalizationPanel
from iaa_desktop.gui.widgets.annotators import StudyAnnotatorsPanel, has_study_annotators
from iaa_desktop.gui.widgets.occurrences import OccurrencesPanel

__all__ = ["AgreementPanel", "CharacterGridModel", "NormalizationPanel", "create_panels"]


def create_panels(result: Any, context: Any) -> list[tuple[str, QWidget]]:
    """Tabs for a normalization result; widgets are kept in ``context.cache`` across results."""
    cache = getattr(context, "cache", None)
    if cache is None:
        cache = {}
    panels = cache.get("normalization")
    if panels is None:
        panels = (NormalizationPanel(), AgreementPanel(), OccurrencesPanel())
        cache["normalization"] = panels
    inter, agreement, occurrences = panels
    inter.set_result(result)
    agreement.set_result(result)
    occurrences.set_occurrences(result.occurrences, "normalization")
    out: list[tuple[str, QWidget]] = [
        ("Interlinear", inter),
        ("Agreement", agreement),
        ("Occurrences", occurrences),
    ]
    if has_study_annotators(result):
        annotators = cache.get("normalization_annotators") or StudyAnnotatorsPanel()
        cache["normalization_annotators"] = annotators
        annotators.set_result(result)
        out.append(("Annotators", annotators))
    return out

"""The pair views of the passage-pair kinds (``durel`` and ``candidates``).

* **Pairs** — the list of pairs, every annotator's judgment side by side, beside the selected
  pair's two passages, alignment and judgments (:mod:`.pair_panel`);
* **Agreement** — the summary with interpretation, the tables and charts (:mod:`.agreement`).

Nothing is computed here beyond lookups in the finished result (a pair's alignment is computed
once in the core and cached there). More tabs for a kind (e.g. a model of the labels) are added to
:meth:`PairsPanels.panels`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from iaa_desktop.gui.kinds.pairs.agreement import CandidatesAgreementPanel, DurelAgreementPanel
from iaa_desktop.gui.kinds.pairs.pair_panel import PairListView, PairPanel
from iaa_desktop.gui.kinds.pairs.passages import BoxedTextView, alignment_segments, passage_segments
from iaa_desktop.gui.widgets.annotators import StudyAnnotatorsPanel, has_study_annotators

__all__ = [
    "BoxedTextView",
    "CandidatesAgreementPanel",
    "DurelAgreementPanel",
    "PairListView",
    "PairPanel",
    "PairsPanels",
    "alignment_segments",
    "create_panels",
    "passage_segments",
]

CACHE_KEY = "pairs"


class PairsPanels:
    """The tabs of one kind, kept across results so the selection survives a recompute; graded
    judgments (a result whose ``graded`` is true) get the graded agreement panel."""

    def __init__(self, graded: bool) -> None:
        self.pairs = PairPanel()
        self.agreement: QWidget = DurelAgreementPanel() if graded else CandidatesAgreementPanel()
        #: model annotators and planning, when the study asked for them (made the first time:
        #: a widget never shown is never made)
        self.annotators: StudyAnnotatorsPanel | None = None
        self.with_annotators = False

    def set_result(self, result: Any) -> None:
        self.pairs.set_result(result)
        self.agreement.set_result(result)  # type: ignore[attr-defined]
        self.with_annotators = has_study_annotators(result)
        if self.with_annotators:
            if self.annotators is None:
                self.annotators = StudyAnnotatorsPanel()
            self.annotators.set_result(result)

    def panels(self) -> list[tuple[str, QWidget]]:
        out: list[tuple[str, QWidget]] = [("Pairs", self.pairs), ("Agreement", self.agreement)]
        if self.with_annotators and self.annotators is not None:
            out.append(("Annotators", self.annotators))
        return out


def create_panels(result: Any, context: Any) -> list[tuple[str, QWidget]]:
    """Tabs for a finished passage-pair result (widgets kept in ``context.cache``), and the tab
    of its agreement model when the result has one (``has_model``: candidate pairs)."""
    cache = getattr(context, "cache", None)
    key = f"{CACHE_KEY}:{result.kind}"
    panels = cache.get(key) if isinstance(cache, dict) else None
    if not isinstance(panels, PairsPanels):
        panels = PairsPanels(bool(result.graded))
        if isinstance(cache, dict):
            cache[key] = panels
    panels.set_result(result)
    if result.has_model:  # the agreement model's tab lives in its own module
        from iaa_desktop.gui.kinds.candidates_model import model_panel

        return [*panels.panels(), ("Model", model_panel(result, context))]
    return panels.panels()

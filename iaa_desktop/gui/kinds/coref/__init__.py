"""Coreference views: the two annotators' documents side by side (nested mentions drawn), and the
scores per annotator pair with the summary and the corpus class-matching totals."""

from __future__ import annotations

from typing import Any

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from iaa_desktop.gui.kinds.coref.panel import MATCH_TOOLTIPS, SYMBOL_HEADERS, CorefPanel
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.occurrences import OccurrencesPanel
from iaa_desktop.gui.widgets.summary_table import SummaryTable
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table

__all__ = ["CorefPanel", "ScoresPanel", "create_panels"]

SCORE_TOOLTIPS = {
    "recall": "Recall, 0–1: of the first annotator's (the key's) links, the share the second has",
    "precision": "Precision, 0–1: of the second annotator's links, the share the first has",
    "f1": "F1, 0–1: the harmonic mean of recall and precision",
}


class ScoresPanel(QWidget):
    """Summary, the scores per pair (measure titles, not code names) and the corpus totals."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        split = QSplitter(Qt.Orientation.Vertical)
        self.summary = SummaryTable()
        split.addWidget(self.summary)
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(
            QLabel(
                "Scores per annotator pair over all documents (the first annotator as the key); "
                "hover a measure for what it counts"
            )
        )
        self.model = DataFrameModel(
            tooltips=SCORE_TOOLTIPS, cell_tooltips={"measure": "about"}, hidden=("about",)
        )
        self.view = make_table(self.model, name="coreference_scores")
        bl.addWidget(self.view, 1)
        split.addWidget(box)
        tbox = QWidget()
        tl = QVBoxLayout(tbox)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(QLabel("Class matching over the corpus, per annotator pair"))
        self.totals_model = DataFrameModel(
            severity_column="d", tooltips=MATCH_TOOLTIPS, headers=SYMBOL_HEADERS, digits=4
        )
        self.totals_view = make_table(self.totals_model, name="class_matching_totals")
        tl.addWidget(self.totals_view, 1)
        split.addWidget(tbox)
        lay.addWidget(split)

    def set_result(self, result: Any) -> None:
        from iaa_desktop.core.export.titles import column_title, column_tooltip

        self.summary.set_result(result)
        rows = []
        for (a, b), s in result.corpus_scores.items():
            for metric, vals in s.to_json().items():
                rows.append(
                    {
                        "a": a,
                        "b": b,
                        "measure": column_title(metric),
                        "recall": vals.get("recall"),
                        "precision": vals.get("precision"),
                        "f1": vals["f1"],
                        "about": column_tooltip(metric),
                    }
                )
        self.model.set_frame(pd.DataFrame(rows))
        self.totals_model.set_frame(result.tables()["totals"])
        fit_columns(self.view, max_width=160)
        fit_columns(self.totals_view, max_width=120)


def create_panels(result: Any, context: Any) -> list[tuple[str, QWidget]]:
    panel = context.cache.get("coref_panel") or CorefPanel()
    context.cache["coref_panel"] = panel
    panel.set_result(result)
    scores = context.cache.get("coref_scores") or ScoresPanel()
    context.cache["coref_scores"] = scores
    scores.set_result(result)
    occurrences = context.cache.get("coref_occurrences") or OccurrencesPanel()
    context.cache["coref_occurrences"] = occurrences
    occurrences.set_occurrences(getattr(result, "occurrences", None), "treatment")
    return [("Side by side", panel), ("Scores", scores), ("Occurrences", occurrences)]

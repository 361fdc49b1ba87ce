"""The headline coefficients of a result with their interval and interpretation, as in the report.

Rows come from the kind's report module (``summary(result)``), so the GUI and the PDF show the same
figures with the same conventions: Landis & Koch (1977) for κ-type coefficients, Krippendorff's
(2004) .667 / .800 for α, none for percent agreement, correlations and coreference scores.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table

COLUMNS = ("measure", "value", "interval", "n", "interpretation", "note")
HEADERS = {
    "measure": "Measure",
    "value": "Value",
    "interval": "95% interval",
    "n": "n",
    "interpretation": "Interpretation",
    "note": "Note",
}
TOOLTIPS = {
    "interval": "95% interval of the coefficient (bootstrap percentile or Bayesian posterior, as "
    "the study's settings say); – = not computed for this kind or setting",
    "n": "number of items (pairs, tokens) the coefficient was computed on",
    "interpretation": "the band of a published convention, not a verdict on the data: Landis & "
    "Koch (1977) for κ-type coefficients (L&K), Krippendorff (2004) for α (K: rely on data with "
    "α ≥ .800, tentative conclusions from .667); – = the measure has no such convention",
}


LEGEND = (
    "Interpretation: L&K = Landis & Koch (1977) bands for κ; K = Krippendorff (2004) for α "
    "(≥ .800 reliable, .667–.800 tentative). A convention, not a verdict. – = undefined."
)


def summary_rows(result: Any) -> tuple[list[Any], str]:
    """``(rows, caption)`` of the kind's ``summary(result)`` (empty when it has none)."""
    from iaa_desktop.core.kinds import get_kind

    spec = get_kind(result.kind)
    if spec.summary is None:
        return [], ""
    return spec.summary(result)


def summary_frame(rows: list[Any]) -> pd.DataFrame:
    """The shown table; columns that are empty for every row are left out."""
    from iaa_desktop.core.export.summary import interpretation
    from iaa_desktop.gui.widgets.frame_model import format_value

    data = []
    for r in rows:
        value = r.value
        if r.percent and isinstance(value, float):
            shown: Any = f"{100 * value:.1f}%" if value == value else "–"
        else:
            shown = value
        interval = ""
        if _finite(r.ci_low) and _finite(r.ci_high):
            interval = f"[{format_value(r.ci_low)}, {format_value(r.ci_high)}]"
        data.append(
            {
                "measure": r.measure,
                "value": shown,
                "interval": interval,
                "n": r.n if r.n is not None else "",
                "interpretation": "" if r.scale is None else interpretation(r.value, r.scale),
                "note": r.note,
            }
        )
    df = pd.DataFrame(data, columns=list(COLUMNS))
    keep = [c for c in COLUMNS if c in ("measure", "value") or (df[c].astype(str) != "").any()]
    return df[keep]


def _finite(v: Any) -> bool:
    try:
        return v is not None and float(v) == float(v) and abs(float(v)) != float("inf")
    except (TypeError, ValueError):
        return False


class SummaryTable(QWidget):
    """Caption, the summary table and the interpretation legend."""

    def __init__(
        self, parent: QWidget | None = None, legend: bool = True, caption: bool = True
    ) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self._show_caption = caption
        lay.addWidget(self.caption)
        self.model = DataFrameModel(headers=HEADERS, tooltips=TOOLTIPS, digits=3)
        self.view = make_table(self.model, sortable=False, name="summary")
        self.view.setObjectName("summary")
        lay.addWidget(self.view, 1)
        self.legend = QLabel(LEGEND)
        self.legend.setWordWrap(True)
        self.legend.setStyleSheet("color: #555")
        self.legend.setVisible(legend)
        lay.addWidget(self.legend)

    def set_result(self, result: Any) -> None:
        rows, caption = summary_rows(result)
        self.caption.setText(caption)
        self.caption.setVisible(bool(caption) and self._show_caption)
        df = summary_frame(rows)
        self.model.set_frame(df)
        from iaa_desktop.core.export.summary import NO_CONVENTION_NOTE

        self.legend.setText(LEGEND if "interpretation" in df.columns else NO_CONVENTION_NOTE)
        # the measure names carry the tooltip of their Measures entry
        fit_columns(self.view, max_width=330)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)

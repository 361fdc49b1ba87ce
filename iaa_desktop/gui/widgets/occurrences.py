"""The Occurrences tab: every form of the study, how each annotator treated it wherever it occurs.

The forms list comes from the core's :class:`~iaa_desktop.core.kinds.occurrences.Occurrences`
(most inconsistent first); a text filter searches forms, treatments and annotators; *Annotator*
keeps the forms that annotator treated in more than one way; *only forms treated in more than one
way* hides the consistent ones. Selecting a form lists its occurrences keyword-in-context, every
annotator's treatment aligned under one another in one column each (one colour per treatment).
A small table gives each annotator's consistency with themself.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.occurrences import FORM_MATCH_TITLES, Occurrences
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.short_text import add_names, shown, shown_text
from iaa_desktop.gui.widgets.table_view import current_key, fit_columns, make_table, select_row

ANY_ANNOTATOR = "any annotator"
#: columns of the forms list
FORM_COLUMNS = [
    "form",
    "occurrences",
    "treatments",
    "entropy",
    "within_entropy",
    "treatment_counts",
    "inconsistent_annotators",
]
HEADERS = {
    "form": "Form",
    "occurrences": "Occ.",
    "treatments": "Treat.",
    "entropy": "H (bits)",
    "within_entropy": "H within",
    "inconsistent_annotators": "Treated it two ways",
    "treatment_counts": "Treatments given (count, by whom)",
    "repeated_forms": "Met twice",
    "inconsistent_forms": "Two ways",
    "share_inconsistent": "Share",
    "left": "Before",
    "right": "After",
    "document": "Document",
    "where": "Where",
}
TIPS = {
    "occurrences": "how many times the form occurs",
    "treatments": "how many different treatments it received",
    "treatment_counts": "each treatment, how many judgments gave it, and by whom",
    "repeated_forms": "forms this annotator met at two or more occurrences",
    "inconsistent_forms": "of those, the forms this annotator treated in more than one way "
    "(hover for the list)",
    "entropy": "Shannon entropy of the treatments over every annotator's judgment of every "
    "occurrence: 0 = one treatment everywhere; log₂ k = k treatments equally often",
    "within_entropy": "mean over the annotators who met the form twice or more of the entropy "
    "of their own treatments (0 = each annotator is consistent with themself)",
    "inconsistent_annotators": "annotators who treated this form in more than one way",
    "share_inconsistent": "of the forms this annotator met at two or more occurrences, the "
    "share they treated in more than one way",
}


class OccurrencesPanel(QWidget):
    """The Occurrences tab (see the module docstring); :meth:`set_occurrences` fills it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.occ: Occurrences | None = None
        self._key_of_row: list[str] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        bar = QHBoxLayout()
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter forms, treatments, annotators…")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setToolTip(
            "keeps the forms whose text, treatments or annotators contain it"
        )
        self.annotator_combo = QComboBox()
        self.annotator_combo.setToolTip(
            "keep the forms this annotator treated in more than one way"
        )
        self.only_check = QCheckBox("Only forms treated in more than one way")
        self.only_check.setChecked(True)
        self.count_label = QLabel()
        bar.addWidget(self.filter_edit, 2)
        bar.addWidget(QLabel("Annotator:"))
        bar.addWidget(self.annotator_combo)
        bar.addWidget(self.only_check)
        bar.addWidget(self.count_label, 1)
        lay.addLayout(bar)

        self.forms_model = DataFrameModel(
            headers=HEADERS, tooltips=TIPS, hidden=["key", "severity"], severity_column="severity"
        )
        self.forms_view = make_table(self.forms_model, name="occurrence_forms")
        self.kwic_model = DataFrameModel(headers=HEADERS)
        self.kwic_view = make_table(self.kwic_model, name="occurrence_list")
        self.annotators_model = DataFrameModel(
            headers=HEADERS,
            tooltips=TIPS,
            percent=["share_inconsistent"],
            hidden=["forms"],
            cell_tooltips={"inconsistent_forms": "forms"},
        )
        self.annotators_view = make_table(self.annotators_model, name="occurrence_annotators")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)

        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.forms_view)
        side = QWidget()
        side_lay = QVBoxLayout(side)
        side_lay.setContentsMargins(0, 0, 0, 0)
        side_lay.addWidget(QLabel("Each annotator with themself"))
        side_lay.addWidget(self.annotators_view, 1)
        side_lay.addWidget(self.note)
        top.addWidget(side)
        top.setStretchFactor(0, 4)
        top.setStretchFactor(1, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        kwic = QWidget()
        kwic_lay = QVBoxLayout(kwic)
        kwic_lay.setContentsMargins(0, 0, 0, 0)
        self.kwic_title = QLabel("Select a form to see its occurrences.")
        kwic_lay.addWidget(self.kwic_title)
        kwic_lay.addWidget(self.kwic_view, 1)
        split.addWidget(kwic)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        lay.addWidget(split, 1)

        self.filter_edit.textChanged.connect(self._refilter)
        self.annotator_combo.currentIndexChanged.connect(self._refilter)
        self.only_check.toggled.connect(self._refilter)
        self.forms_view.selectionModel().currentRowChanged.connect(self._show_current)

    # -- content ------------------------------------------------------------------------------

    def set_occurrences(self, occ: Occurrences | None, what: str = "treatment") -> None:
        """Show ``occ`` (None: the kind computed none); the selected form is kept when it is
        still there."""
        previous = self.current_form()
        self.occ = occ
        self.what = what
        names = list(occ.table.annotators) if occ else []
        self.annotator_combo.blockSignals(True)
        chosen = self.annotator_combo.currentData()
        self.annotator_combo.clear()
        add_names(self.annotator_combo, [ANY_ANNOTATOR, *names])
        if chosen in names:
            self.annotator_combo.setCurrentIndex(self.annotator_combo.findData(chosen))
        self.annotator_combo.blockSignals(False)
        if occ is None:
            self.forms_model.set_frame(pd.DataFrame(columns=FORM_COLUMNS))
            self.annotators_model.set_frame(pd.DataFrame())
            self.kwic_model.set_frame(pd.DataFrame())
            self.count_label.setText("no forms")
            return
        rows = []
        top = max((f.entropy for f in occ.forms), default=0.0) or 1.0
        for f in occ.forms:
            rows.append(
                {
                    "form": f.shown,
                    "occurrences": f.n_occurrences,
                    "treatments": f.n_treatments,
                    "entropy": f.entropy,
                    "within_entropy": f.within_entropy,
                    "inconsistent_annotators": ", ".join(f.inconsistent_annotators),
                    "treatment_counts": "; ".join(
                        f"{t.treatment} ×{t.count} ({', '.join(t.annotators)})"
                        for t in f.treatments
                    ),
                    "key": f.key,
                    "severity": f.entropy / top if f.n_treatments > 1 else math.nan,
                }
            )
        self._key_of_row = [f.key for f in occ.forms]
        self.forms_model.set_frame(pd.DataFrame(rows, columns=[*FORM_COLUMNS, "key", "severity"]))
        ann = occ.tables()["occurrence_annotators"]
        ann = ann.rename(columns={"forms": "forms"})
        self.annotators_model.set_frame(ann)
        fit_columns(self.annotators_view, max_width=140, header_width=80)
        self.note.setText(
            f"Forms matched {FORM_MATCH_TITLES[occ.match]} (a setting). "
            f"{len(occ.inconsistent):,} of {len(occ.forms):,} forms were treated in more than "
            "one way."
        )
        self._refilter()
        fit_columns(self.forms_view, max_width=420)
        row = self.forms_model.row_where("key", previous) if previous else -1
        select_row(self.forms_view, row if row >= 0 else 0)

    def current_form(self) -> str | None:
        """The key of the selected form (None: none selected)."""
        key = current_key(self.forms_view)
        if key is None or not 0 <= key < len(self._key_of_row):
            return None
        return self._key_of_row[key]

    def _refilter(self) -> None:
        occ = self.occ
        if occ is None:
            return
        n = len(occ.forms)
        mask = np.ones(n, dtype=bool)
        if self.only_check.isChecked():
            mask &= np.array([f.n_treatments > 1 for f in occ.forms], dtype=bool)
        who = self.annotator_combo.currentData()
        if who and who != ANY_ANNOTATOR:
            mask &= np.array([who in f.inconsistent_annotators for f in occ.forms], dtype=bool)
        self.forms_model.set_row_mask(mask, "occurrences")
        self.forms_model.set_filter(self.filter_edit.text())
        shown = self.forms_model.rowCount()
        self.count_label.setText(f"{shown:,} of {n:,} forms")
        if shown and self.current_form() is None:
            select_row(self.forms_view, 0)
        elif not shown:
            self.kwic_model.set_frame(pd.DataFrame())
            self.kwic_title.setText("No form matches the filters.")

    def _show_current(self, *_args: Any) -> None:
        occ = self.occ
        key = self.current_form()
        form = occ.form(key) if occ is not None and key is not None else None
        if occ is None or form is None:
            return
        t = occ.table
        rows = []
        for o in form.rows:
            row: dict[str, Any] = {
                "document": t.documents[o],
                "where": t.where[o],
                "left": t.left[o] if t.left else "",
                "form": t.forms[o],
                "right": t.right[o] if t.right else "",
            }
            for a, v in zip(t.annotators, t.treatments[o].tolist()):
                row[a] = "" if v is None else str(v)
            rows.append(row)
        cols = ["document", "where", "left", "form", "right", *t.annotators]
        frame = pd.DataFrame(rows, columns=cols)
        if not t.left:
            frame = frame.drop(columns=["left", "right"])
        self.kwic_model.set_frame(frame, label_columns=list(t.annotators))
        fit_columns(self.kwic_view)
        # a label (or a form) of a megabyte is named shortened: the label would be as wide
        treatments = ", ".join(f"{shown(x.treatment)} ×{x.count}" for x in form.treatments)
        self.kwic_title.setText(
            f"‘\u2068{shown(form.shown)}\u2069’: {form.n_occurrences:,} occurrence(s); "
            f"{self.what}s given: \u2068{shown_text(treatments)}\u2069"
        )

"""The right-hand side of the adjudication panel: the agreement of each annotator with the gold
so far, the decisions of this sitting (a click goes back to one), and the exports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QFileDialog,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QUndoView,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.errors import IaaError
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table


class SidePanel(QWidget):
    """See the module docstring; ``panel`` is the :class:`AdjudicationPanel`."""

    def __init__(self, panel: Any) -> None:
        super().__init__(panel)
        self.panel = panel
        rl = QVBoxLayout(self)
        rl.setContentsMargins(0, 0, 0, 0)
        label = QLabel("Agreement of each annotator with the gold so far")
        label.setWordWrap(True)
        rl.addWidget(label)
        self.agreement_model = DataFrameModel(
            percent=("percent_agreement",),
            headers={
                "annotator": "Annotator",
                "n_units": "Units",
                "n_agree": "Agree",
                "percent_agreement": "%",
                "cohen_kappa": "κ",
            },
            tooltips={
                "n_units": "units with a version of this annotator and a gold value",
                "percent_agreement": "share of those units where the gold is this annotator's version",
                "cohen_kappa": "Cohen's κ of the annotator against the gold (−1 to 1)",
            },
            hidden=("n_overruled", "n_agree"),
        )
        self.agreement_view = make_table(self.agreement_model, sortable=False, name="agreement")
        self.agreement_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # names that share a prefix (annotator_1 … annotator_5) stay apart when cut
        self.agreement_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        rl.addWidget(self.agreement_view, 1)
        rl.addWidget(QLabel("Decisions of this sitting (click to go back):"))
        self.history_view = QUndoView(panel.undo_stack)
        self.history_view.setEmptyLabel("(start of this sitting)")
        self.history_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        rl.addWidget(self.history_view, 1)
        self.export_gold_button = QPushButton("Export gold…")
        self.export_log_button = QPushButton("Export decision log…")
        self.export_feedback_button = QPushButton("Export feedback…")
        self.export_feedback_button.setToolTip("one file per annotator: where the gold differs")
        for b, slot in (
            (self.export_gold_button, self._on_export_gold),
            (self.export_log_button, self._on_export_log),
            (self.export_feedback_button, self._on_export_feedback),
        ):
            b.clicked.connect(slot)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            rl.addWidget(b)

    def show_agreement(self, table: pd.DataFrame) -> pd.DataFrame:
        """Show the agreement table in display order with the shown names; returns it with the
        real names (what the panel keeps as ``last_agreement``)."""
        s = self.panel.session
        names = dict(zip(s.model.annotators, s.names_by_column()))
        order = [s.model.annotators[x] for x in s.annotator_order]
        t = table.set_index("annotator").loc[order].reset_index()
        shown = t.copy()
        shown["annotator"] = [names[a] for a in t["annotator"]]
        self.agreement_model.set_frame(shown)
        fit_columns(self.agreement_view, max_width=90)
        # the figures keep the width of their text; the names take what is left (cut in the
        # middle), so the last figure is never hidden behind the edge
        hh = self.agreement_view.horizontalHeader()
        hh.setStretchLastSection(False)
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        return t

    # -- exports ------------------------------------------------------------------------------

    def _on_export_gold(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export the gold into folder")
        if folder:
            self._run_export(lambda: self.panel.export_gold(folder), folder, gold=True)

    def _on_export_log(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the decision log", "decision_log.csv", "CSV (*.csv)"
        )
        if path:
            self._run_export(lambda: [self.panel.session.write_decision_log(path)])

    def _on_export_feedback(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, "Export one feedback file per annotator into folder"
        )
        if folder:
            self._run_export(lambda: self.panel.session.write_feedback(folder), folder)

    def _run_export(self, fn: Any, folder: str | None = None, gold: bool = False) -> None:
        from contextlib import ExitStack

        from iaa_desktop.core.io import protecting_inputs, writing_into

        try:
            with ExitStack() as guard:
                guard.enter_context(protecting_inputs(self.panel.session.model.inputs))
                if folder:
                    guard.enter_context(writing_into(folder))
                files = fn()
        except (OSError, IaaError) as e:
            QMessageBox.critical(self, "Export", f"Nothing was lost, but the export failed: {e}")
            return
        text = "Written:\n" + "\n".join(str(f) for f in files[:12])
        open_, total = 0, 0
        if gold:
            resolved, total = self.panel.session.progress()
            open_ = total - resolved
        box = QMessageBox(
            QMessageBox.Icon.Warning if open_ else QMessageBox.Icon.Information,
            "Export",
            undecided_text(open_, total, files) if open_ else text,
            parent=self,
        )
        if open_:
            box.setInformativeText(text)
        box.addButton(QMessageBox.StandardButton.Ok)
        show = box.addButton("Show in folder", QMessageBox.ButtonRole.ActionRole)
        box.exec()
        if box.clickedButton() is show and files:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(files[0]).parent)))


def undecided_text(n: int, total: int, files: list) -> str:
    """What an export of the gold says when units are still undecided: how many, and where
    they are listed."""
    listed = next((Path(f) for f in files if Path(f).name == "undecided.csv"), None)
    where = f"listed in {listed}" if listed is not None else "listed in undecided.csv"
    return (
        f"{n:,} of {total:,} units are still undecided: they have no gold value in the files "
        f"written and are {where} (here: Show “unresolved”)."
    )

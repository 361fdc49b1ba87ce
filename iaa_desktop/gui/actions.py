"""The main window's menus and the work behind them: saving studies, exports, adjudication.

Save and export dialogs start in the folder last saved into, else the user's documents folder,
never in the input data's folder or inside the installed package. The adjudication store of a
study that was never saved goes to the user's data folder.
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox

from iaa_desktop.core.study_file import SUFFIX, save_study
from iaa_desktop.core.user_files import unsaved_store_path
from iaa_desktop.gui.meeting import add_zoom_menu
from iaa_desktop.gui.open_flow import examples_dir, package_dir

if TYPE_CHECKING:
    from iaa_desktop.gui.main_window import MainWindow


class WindowActions:
    """Builds the menus of ``window`` and carries out the file commands."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.report_worker = None

    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        act = QAction(text, self.window)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
        act.triggered.connect(slot)
        menu.addAction(act)
        return act

    def build_menus(self) -> None:
        w = self.window
        flow = w.open_flow
        file = w.menuBar().addMenu("&File")
        self._action(
            file,
            "&New study from files…",
            flow.choose_files,
            QKeySequence.StandardKey.New,
            "Choose the annotators' files",
        )
        w.open_folders_action = self._action(
            file,
            "Open &folder(s)…",
            flow.choose_folders,
            "Ctrl+Shift+O",
            "Choose the annotators' folders (one per annotator) or a folder holding the study",
        )
        self._action(file, "&Open study…", flow.choose_study, QKeySequence.StandardKey.Open)
        w.recent_menu = file.addMenu("Open &recent")
        self._action(file, "&Add files to study…", w.add_files, "Ctrl+Shift+A")
        file.addSeparator()
        self._action(file, "&Save study", self.save_study, QKeySequence.StandardKey.Save)
        self._action(file, "Save study &as…", self.save_study_as, QKeySequence.StandardKey.SaveAs)
        file.addSeparator()
        w.export_action = self._action(
            file,
            "&Export tables…",
            self.export_tables,
            "Ctrl+E",
            "Every result table as CSV, and the results as JSON",
        )
        w.export_report_action = self._action(
            file, "Export &report…", self.export_report, "Ctrl+Shift+E", "A PDF or HTML report"
        )
        w.adjudicate_action = self._action(
            file,
            "A&djudicate…",
            self.adjudicate,
            "Ctrl+J",
            "Walk through the disagreements, decide, and export a gold set",
        )
        w.extra_file_actions_anchor = file.addSeparator()
        self._action(file, "&Quit", w.close, QKeySequence.StandardKey.Quit)
        w.file_menu = file

        view = w.menuBar().addMenu("&View")
        view.addAction(w.study_dock.toggleViewAction())
        view.addAction(w.settings_dock.toggleViewAction())
        # both panels folded away (or back) for room beside four or five annotators; the dock
        # layout is remembered per kind of view
        self._action(view, "Fold the side &panels", self.toggle_side_panels, "F9")
        view.addSeparator()
        add_zoom_menu(view, w, w.settings)
        view.addAction(w.meeting.action)
        view.addSeparator()
        self._action(view, "&Recompute", lambda: w.session.recompute(immediately=True), "F5")
        self._action(view, "&Cancel computation", w.session.cancel, "Esc")
        self._action(view, "Next results tab", lambda: w.step_tab(1), "Ctrl+PgDown")
        self._action(view, "Previous results tab", lambda: w.step_tab(-1), "Ctrl+PgUp")
        w.view_menu = view

        w.help_menu = w.menuBar().addMenu("&Help")
        self._action(
            w.help_menu, "&Measures…", w.show_measures, "F1", "What each coefficient means"
        )
        self._action(w.help_menu, "&About iaa_desktop", w.show_about)

    # ------------------------------------------------------------------ folders

    def save_start(self, name: str) -> str:
        """The suggested path of a save dialog: ``name`` in the folder it should start in."""
        folder = self.window.state.save_folder(avoid=(examples_dir(), package_dir()))
        return str(folder / name)

    # ------------------------------------------------------------------ studies

    def save_study(self) -> None:
        if self.window.session.study is None:
            return
        if self.window.study_path is None:
            self.save_study_as()
            return
        self.write_study(self.window.study_path)

    def save_study_as(self) -> None:
        study = self.window.session.study
        if study is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self.window, "Save study", self.save_start(f"study{SUFFIX}"), f"Studies (*{SUFFIX})"
        )
        if path:
            if not path.endswith(SUFFIX):
                path += SUFFIX
            self.window.state.remember_save(path)
            self.write_study(Path(path))

    def write_study(self, path: Path) -> None:
        w = self.window
        study = w.session.study
        if study is not None and study.kind is None and w.session.kind_name:
            study = replace(study, kind=w.session.kind_name)
        try:
            save_study(study, path)
        except OSError as e:
            QMessageBox.warning(w, "Cannot save the study", f"{path}: {e.strerror or e}")
            return
        w.study_path = path
        w.add_recent(str(path))
        w.status_label.setText(f"Saved {path.name}")
        w.update_title()

    # ------------------------------------------------------------------ adjudication, export

    def adjudicate(self) -> None:
        """Start or resume the adjudication of the current result: the store is kept beside the
        study file, or in the user's data folder while the study is not saved."""
        from iaa_desktop.gui.adjudication import open_adjudication

        w = self.window
        store = None
        study = w.session.study
        if w.study_path is None and study is not None:
            store = unsaved_store_path(study.inputs, w.session.kind_name, w.data_dir)
            store.parent.mkdir(parents=True, exist_ok=True)
        w.adjudication_window = open_adjudication(w, w.session, w.study_path, store_path=store)

    def toggle_side_panels(self) -> None:
        w = self.window
        docks = (w.study_dock, w.settings_dock)
        show = not any(d.isVisible() for d in docks)
        for d in docks:
            d.setVisible(show)
        if show:
            w.study_dock.raise_()

    def export_tables(self) -> None:
        w = self.window
        if w.session.result is None:
            QMessageBox.information(w, "Nothing to export", "There are no results yet.")
            return
        directory = QFileDialog.getExistingDirectory(
            w, "Export tables into folder", self.save_start("")
        )
        if directory:
            w.state.remember_save(directory)
            self.export_tables_to(Path(directory))

    def export_tables_to(self, directory: Path) -> list[Path]:
        from iaa_desktop.core.errors import IaaError
        from iaa_desktop.core.io import (
            protecting_inputs,
            write_csv_tables,
            write_json,
            writing_into,
        )
        from iaa_desktop.core.kinds.spec import result_json

        w = self.window
        result = w.session.result
        try:
            with protecting_inputs(result.inputs), writing_into(directory):
                written = write_csv_tables(result.tables(), directory)
                write_json(result_json(result), directory / "results.json")
        except OSError as e:
            QMessageBox.warning(w, "Export failed", f"{directory}: {e.strerror or e}")
            return []
        except IaaError as e:
            QMessageBox.warning(w, "Export failed", str(e))
            return []
        w.status_label.setText(f"Exported {len(written)} tables and results.json to {directory}")
        w.message_bar.notify(
            f"Exported {len(written)} tables and results.json",
            str(directory),
            [("Show in folder", lambda: _open_local(directory))],
        )
        return written

    def export_report(self) -> None:
        w = self.window
        result = w.session.result
        if result is None:
            QMessageBox.information(w, "Nothing to export", "There are no results yet.")
            return
        try:
            report = importlib.import_module("iaa_desktop.core.export.report")
        except ImportError:
            QMessageBox.information(
                w, "Report", "The report module is not available in this build."
            )
            return
        path, _ = QFileDialog.getSaveFileName(
            w, "Export report", self.save_start("report.pdf"), "PDF (*.pdf);;HTML (*.html)"
        )
        if not path:
            return
        w.state.remember_save(path)
        self.write_report(report, result, path)

    def write_report(self, report, result, path: str) -> None:
        from superqt.utils import create_worker

        from iaa_desktop.core.errors import IaaError
        from iaa_desktop.core.io import refuse_replacing_inputs

        w = self.window
        try:
            refuse_replacing_inputs([path], w.session.study.inputs if w.session.study else ())
        except IaaError as e:
            QMessageBox.warning(w, "Report not written", str(e))
            return
        kwargs: dict[str, Any] = (
            {"html_path": path} if path.lower().endswith((".html", ".htm")) else {"pdf_path": path}
        )
        if w.session.study is not None:
            kwargs["title"] = w.session.study.title
        worker = create_worker(
            _write_protecting_inputs,
            report.write_report,
            result,
            _start_thread=False,
            _ignore_errors=True,
            **kwargs,
        )
        worker.returned.connect(lambda _r: self._report_written(Path(path)))
        worker.errored.connect(lambda e: QMessageBox.warning(w, "Report failed", str(e)))
        worker.finished.connect(self._export_finished)
        w.status_label.setText(f"Writing the report {Path(path).name}…")
        w.progress.setRange(0, 0)  # busy: the report is written in one step
        w.progress.show()
        self.report_worker = worker
        worker.start()

    def _export_finished(self) -> None:
        w = self.window
        w.progress.setRange(0, 1000)
        if not w.session.running:
            w.progress.hide()

    def _report_written(self, path: Path) -> None:
        w = self.window
        w.status_label.setText(f"Report written: {path}")
        w.message_bar.notify(
            f"Report written: {path.name}",
            str(path),
            [
                ("Open", lambda: _open_local(path)),
                ("Show in folder", lambda: _open_local(path.parent)),
            ],
        )


def _open_local(path: Path) -> None:
    """Open a file or folder with the desktop's application for it."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices

    QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


def _write_protecting_inputs(write: Any, result: Any, **kwargs: Any) -> Any:
    """``write(result, **kwargs)`` refusing to replace any input of the result."""
    from iaa_desktop.core.io import protecting_inputs

    with protecting_inputs(result.inputs):
        return write(result, **kwargs)


__all__ = ["WindowActions"]

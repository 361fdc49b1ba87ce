"""The main window: composition and wiring only; the session holds state and does the work."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, Qt, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop import __version__
from iaa_desktop.core.study_file import SUFFIX, Study, is_study_file, load_study, save_study
from iaa_desktop.gui.confirm import confirm_study
from iaa_desktop.gui.session import StudySession
from iaa_desktop.gui.widgets.settings_panel import SettingsPanel
from iaa_desktop.gui.widgets.study_panel import StudyPanel

MAX_RECENT = 10


@dataclass
class ViewContext:
    """What a kind's view gets besides the result: the session and a cache kept across results."""

    session: Any = None
    cache: dict[str, Any] = field(default_factory=dict)
    window: Any = None


class SimpleStartPage(QWidget):
    """Shown when no study is open: how to start, and the recent studies."""

    open_requested = Signal(str)
    new_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(40, 30, 40, 30)
        title = QLabel(
            "<h1>iaa_desktop</h1><p>Compare the work of several annotators: open their files "
            "(one per annotator, or one table holding all), or drop them on this window.</p>"
        )
        title.setWordWrap(True)
        lay.addWidget(title)
        new = QPushButton("New study from files…")
        new.clicked.connect(self.new_requested)
        new.setMaximumWidth(260)
        lay.addWidget(new)
        lay.addWidget(QLabel("<h3>Recent studies</h3>"))
        self.recent = QListWidget()
        self.recent.itemActivated.connect(
            lambda it: self.open_requested.emit(it.data(Qt.ItemDataRole.UserRole))
        )
        lay.addWidget(self.recent, 1)

    def set_recent(self, paths: list[str]) -> None:
        self.recent.clear()
        for p in paths:
            it = QListWidgetItem(Path(p).name)
            it.setToolTip(p)
            it.setData(Qt.ItemDataRole.UserRole, p)
            self.recent.addItem(it)


class MainWindow(QMainWindow):
    """Menus, docks, the results tabs and the status bar around one :class:`StudySession`."""

    def __init__(
        self, settings: QSettings | None = None, session: StudySession | None = None
    ) -> None:
        super().__init__()
        self.settings = (
            settings if settings is not None else QSettings("iaa_desktop", "iaa_desktop")
        )
        self.session = session or StudySession(parent=self)
        self.study_path: Path | None = None
        self.context = ViewContext(session=self.session, window=self)
        self.setWindowTitle("iaa_desktop")
        self.setAcceptDrops(True)
        self.resize(1400, 900)

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.setObjectName("results")
        self.start_page = self._make_start_page()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.start_page)
        self.stack.addWidget(self.tabs)
        self.setCentralWidget(self.stack)

        self.study_panel = StudyPanel()
        self.study_panel.add_requested.connect(self.add_files)
        self.study_panel.remove_requested.connect(self._on_remove_requested)
        self.study_dock = self._dock(
            "Study", self.study_panel, Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.settings_panel = SettingsPanel()
        self.settings_panel.option_changed.connect(self.session.set_option)
        self.settings_panel.kind_changed.connect(self.session.set_kind)
        self.settings_dock = self._dock(
            "Settings", self.settings_panel, Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.tabifyDockWidget(self.study_dock, self.settings_dock)
        self.study_dock.raise_()

        self.status_label = QLabel("Ready")
        self.headline_label = QLabel()
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the computation (Esc)")
        self.cancel_button.clicked.connect(self.session.cancel)
        self.cancel_button.hide()
        sb = self.statusBar()
        sb.addWidget(self.status_label, 1)
        sb.addPermanentWidget(self.headline_label)
        sb.addPermanentWidget(self.progress)
        sb.addPermanentWidget(self.cancel_button)

        self._build_menus()
        self.session.computation_started.connect(self._on_computation_started)
        self.session.progress_changed.connect(self._on_progress_changed)
        self.session.results_ready.connect(self._on_results_ready)
        self.session.computation_failed.connect(self._on_computation_failed)
        self.session.computation_cancelled.connect(self._on_computation_cancelled)
        self.session.errors_changed.connect(self.study_panel.set_errors)
        self.session.study_changed.connect(self._on_study_changed)
        self._restore_geometry()
        self._refresh_recent()
        self.session.start_warm_up()

    # ------------------------------------------------------------------ construction

    def _make_start_page(self) -> QWidget:
        try:  # the richer first-run page with example studies, when present
            from iaa_desktop.gui.start_page import StartPage

            page = StartPage(self)
        except ImportError:
            page = SimpleStartPage(self)
        if hasattr(page, "open_requested"):
            page.open_requested.connect(self.open_path)
        if hasattr(page, "new_requested"):
            page.new_requested.connect(self.new_study_from_files)
        return page

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{title.lower()}")
        dock.setWidget(widget)
        dock.setMinimumWidth(260)
        self.addDockWidget(area, dock)
        return dock

    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
        act.triggered.connect(slot)
        menu.addAction(act)
        return act

    def _build_menus(self) -> None:
        mb = self.menuBar()
        file = mb.addMenu("&File")
        self._action(
            file,
            "&New study from files…",
            self.new_study_from_files,
            QKeySequence.StandardKey.New,
            "Choose the annotators' files or folders",
        )
        self._action(file, "&Open study…", self.open_study_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = file.addMenu("Open &recent")
        self._action(file, "&Add files to study…", self.add_files, "Ctrl+Shift+A")
        file.addSeparator()
        self._action(file, "&Save study", self.save_study, QKeySequence.StandardKey.Save)
        self._action(file, "Save study &as…", self.save_study_as, QKeySequence.StandardKey.SaveAs)
        file.addSeparator()
        self.export_action = self._action(
            file,
            "&Export tables…",
            self.export_tables,
            "Ctrl+E",
            "Every result table as CSV, and the results as JSON",
        )
        self.export_report_action = self._action(
            file, "Export &report…", self.export_report, "Ctrl+Shift+E", "A PDF or HTML report"
        )
        self.adjudicate_action = self._action(
            file,
            "A&djudicate…",
            self.adjudicate,
            "Ctrl+J",
            "Walk through the disagreements, decide, and export a gold set",
        )
        self.extra_file_actions_anchor = file.addSeparator()
        self._action(file, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        self.file_menu = file

        view = mb.addMenu("&View")
        view.addAction(self.study_dock.toggleViewAction())
        view.addAction(self.settings_dock.toggleViewAction())
        view.addSeparator()
        self._action(view, "&Recompute", lambda: self.session.recompute(immediately=True), "F5")
        self._action(view, "&Cancel computation", self.session.cancel, "Esc")
        self._action(view, "Next results tab", lambda: self._step_tab(1), "Ctrl+PgDown")
        self._action(view, "Previous results tab", lambda: self._step_tab(-1), "Ctrl+PgUp")
        self.view_menu = view

        self.help_menu = mb.addMenu("&Help")
        self._action(
            self.help_menu, "&Measures…", self.show_measures, "F1", "What each coefficient means"
        )
        self._action(self.help_menu, "&About iaa_desktop", self.show_about)

    # ------------------------------------------------------------------ studies

    def new_study_from_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self,
            "Choose the annotators' files",
            self._last_dir(),
            "Annotation files (*.csv *.tsv *.xlsx *.ann *.txt *_conll *.conll);;All files (*)",
        )
        if files:
            self._remember_dir(files[0])
            self.open_inputs([Path(f) for f in files])

    def add_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Add files", self._last_dir())
        if files:
            self._remember_dir(files[0])
            self.session.add_inputs([Path(f) for f in files])

    def open_study_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open study", self._last_dir(), f"Studies (*{SUFFIX});;All files (*)"
        )
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path) -> None:
        """Open a study file, or start a study from a data file or folder."""
        path = Path(path)
        if is_study_file(path):
            try:
                study = load_study(path)
            except Exception as e:  # a ReaderError: tell the user, keep what is open  # noqa: BLE001
                QMessageBox.warning(self, "Cannot open the study", str(e))
                return
            if (study := confirm_study(self, path, study)) is None:
                return
            self.study_path = path
            self._add_recent(str(path))
            self.session.set_study(study)
        else:
            self.open_inputs([path])

    def open_study(self, study: Study, path: Path | None = None) -> None:
        self.study_path = path
        if path is not None:
            self._add_recent(str(path))
        self.session.set_study(study)

    def open_inputs(
        self, inputs: list[Path], kind: str | None = None, options: dict | None = None
    ) -> None:
        self.study_path = None
        self.context.cache.clear()
        self.session.set_study(Study(tuple(Path(p) for p in inputs), kind, dict(options or {})))

    def save_study(self) -> None:
        if self.session.study is None:
            return
        if self.study_path is None:
            self.save_study_as()
            return
        self._write_study(self.study_path)

    def save_study_as(self) -> None:
        if self.session.study is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Save study",
            str(Path(self._last_dir()) / f"study{SUFFIX}"),
            f"Studies (*{SUFFIX})",
        )
        if path:
            if not path.endswith(SUFFIX):
                path += SUFFIX
            self._write_study(Path(path))

    def _write_study(self, path: Path) -> None:
        study = self.session.study
        if study is not None and study.kind is None and self.session.kind_name:
            from dataclasses import replace

            study = replace(study, kind=self.session.kind_name)
        try:
            save_study(study, path)
        except OSError as e:
            QMessageBox.warning(self, "Cannot save the study", f"{path}: {e.strerror or e}")
            return
        self.study_path = path
        self._add_recent(str(path))
        self.status_label.setText(f"Saved {path.name}")
        self._update_title()

    # ------------------------------------------------------------------ export

    def adjudicate(self) -> None:
        """Start or resume the adjudication of the current result (store beside the study file)."""
        from iaa_desktop.gui.adjudication import open_adjudication

        self.adjudication_window = open_adjudication(self, self.session, self.study_path)

    def export_tables(self) -> None:
        result = self.session.result
        if result is None:
            QMessageBox.information(self, "Nothing to export", "There are no results yet.")
            return
        directory = QFileDialog.getExistingDirectory(
            self, "Export tables into folder", self._last_dir()
        )
        if directory:
            self.export_tables_to(Path(directory))

    def export_tables_to(self, directory: Path) -> list[Path]:
        from iaa_desktop.core.io import write_csv_tables, write_json
        from iaa_desktop.core.kinds.spec import result_json

        result = self.session.result
        try:
            written = write_csv_tables(result.tables(), directory)
            write_json(result_json(result), directory / "results.json")
        except OSError as e:
            QMessageBox.warning(self, "Export failed", f"{directory}: {e.strerror or e}")
            return []
        self.status_label.setText(f"Exported {len(written)} tables and results.json to {directory}")
        return written

    def export_report(self) -> None:
        result = self.session.result
        if result is None:
            QMessageBox.information(self, "Nothing to export", "There are no results yet.")
            return
        try:
            report = importlib.import_module("iaa_desktop.core.export.report")
        except ImportError:
            QMessageBox.information(
                self, "Report", "The report module is not available in this build."
            )
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Export report",
            str(Path(self._last_dir()) / "report.pdf"),
            "PDF (*.pdf);;HTML (*.html)",
        )
        if not path:
            return
        from superqt.utils import create_worker

        kwargs: dict[str, Any] = (
            {"html_path": path} if path.lower().endswith((".html", ".htm")) else {"pdf_path": path}
        )
        if self.session.study is not None:
            kwargs["title"] = self.session.study.title
        worker = create_worker(
            report.write_report, result, _start_thread=False, _ignore_errors=True, **kwargs
        )
        worker.returned.connect(lambda _r: self.status_label.setText(f"Report written: {path}"))
        worker.errored.connect(lambda e: QMessageBox.warning(self, "Report failed", str(e)))
        self.status_label.setText("Writing the report…")
        self._report_worker = worker
        worker.start()

    # ------------------------------------------------------------------ help

    def show_measures(self) -> None:
        try:
            from iaa_desktop.gui.help_dialogs import MeasuresDialog

            MeasuresDialog(self).exec()
        except ImportError:
            QMessageBox.information(
                self, "Measures", "See ../shared/spec/METHODS.md and the README."
            )

    def show_about(self) -> None:
        try:
            from iaa_desktop.gui.help_dialogs import AboutDialog

            AboutDialog(self).exec()
        except ImportError:
            QMessageBox.about(self, "About iaa_desktop", f"iaa_desktop {__version__}")

    # ------------------------------------------------------------------ session signals

    def _on_study_changed(self, study: Study) -> None:
        self.study_panel.set_study(study)
        self.stack.setCurrentWidget(self.tabs)
        self._update_title()
        self._refresh_settings()

    def _refresh_settings(self) -> None:
        from iaa_desktop.core.kinds import get_kind, kind_names

        study = self.session.study
        if study is None:
            return
        names = [(n, get_kind(n).title) for n in kind_names()]
        self.settings_panel.set_kinds(names, study.kind)
        kind = study.kind or self.session.kind_name
        if kind:
            from iaa_desktop.core.kinds.spec import resolve_options

            k = get_kind(kind)
            try:
                opts = resolve_options(k.settings, study.options)
            except Exception:  # noqa: BLE001
                opts = dict(study.options)
            self.settings_panel.set_settings(list(k.settings), opts)

    def _on_computation_started(self, _gen: int) -> None:
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self.status_label.setText("Computing…")

    def _on_progress_changed(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(fraction * 1000))
        if message:
            self.status_label.setText(message)

    def _on_results_ready(self, result) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        kind_changed = self.settings_panel.property("kind") != result.kind
        self.settings_panel.setProperty("kind", result.kind)
        if kind_changed or self.session.study.kind is None:
            self._refresh_settings()
        self._show_panels(result)
        self.study_panel.set_annotators(getattr(result, "annotators", ()))
        n_err = len(result.errors)
        self.status_label.setText(
            f"Computed in {self.session.last_duration:.2f} s"
            + (f" — {n_err} problem(s) in the inputs, see the Study panel" if n_err else "")
        )
        self.headline_label.setText("   ".join(f"{k}: <b>{v}</b>" for k, v in result.headline()))
        if n_err:
            self.study_dock.raise_()

    def _on_computation_failed(self, message: str, details: str) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        kept = " (the last results stay on screen)" if self.session.result is not None else ""
        self.status_label.setText(f"Error: {message.splitlines()[0]}{kept}")
        self.study_dock.raise_()
        if details:  # a bug, not bad input: offer the details without a raw traceback in the face
            box = QMessageBox(QMessageBox.Icon.Warning, "Internal error", message, parent=self)
            box.setDetailedText(details)
            box.open()

    def _on_computation_cancelled(self) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.status_label.setText("Cancelled")

    def _show_panels(self, result) -> None:
        from iaa_desktop.gui.kinds import VIEW_MODULES

        module_name = VIEW_MODULES.get(result.kind)
        panels: list[tuple[str, QWidget]] = []
        if module_name:
            module = importlib.import_module(module_name)
            panels = module.create_panels(result, self.context)
        current_title = self.tabs.tabText(self.tabs.currentIndex()) if self.tabs.count() else None
        existing = [(self.tabs.tabText(i), self.tabs.widget(i)) for i in range(self.tabs.count())]
        if [(t, id(w)) for t, w in existing] != [(t, id(w)) for t, w in panels]:
            keep = {id(w) for _t, w in panels}
            self.tabs.clear()
            for _t, w in existing:
                if id(w) not in keep and not self._cached(w):
                    w.deleteLater()
            for title, w in panels:
                self.tabs.addTab(w, title)
            for i in range(self.tabs.count()):
                if self.tabs.tabText(i) == current_title:
                    self.tabs.setCurrentIndex(i)
                    break
        self.stack.setCurrentWidget(self.tabs)

    def _cached(self, widget: QWidget) -> bool:
        def walk(v: Any) -> bool:
            if v is widget:
                return True
            if isinstance(v, dict):
                return any(walk(x) for x in v.values())
            if isinstance(v, list | tuple):
                return any(walk(x) for x in v)
            return False

        return walk(self.context.cache)

    def select_tab(self, title: str) -> bool:
        for i in range(self.tabs.count()):
            if self.tabs.tabText(i).lower() == title.lower():
                self.tabs.setCurrentIndex(i)
                return True
        return False

    def _step_tab(self, step: int) -> None:
        if self.tabs.count():
            self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % self.tabs.count())

    def _on_remove_requested(self, paths: list[Path]) -> None:
        study = self.session.study
        if study is None:
            return
        from dataclasses import replace

        remaining = tuple(p for p in study.inputs if Path(p) not in set(map(Path, paths)))
        self.session.set_study(replace(study, inputs=remaining))

    def _update_title(self) -> None:
        study = self.session.study
        name = self.study_path.name if self.study_path else (study.title if study else "")
        self.setWindowTitle(f"{name} — iaa_desktop" if name else "iaa_desktop")

    # ------------------------------------------------------------------ drag and drop

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        self.handle_dropped_paths(paths)
        event.acceptProposedAction()

    def handle_dropped_paths(self, paths: list[Path]) -> None:
        if not paths:
            return
        studies = [p for p in paths if is_study_file(p)]
        if studies:
            self.open_path(studies[0])
        elif self.session.study is None:
            self.open_inputs(paths)
        else:
            self.session.add_inputs(paths)

    # ------------------------------------------------------------------ settings: geometry, recent

    def _restore_geometry(self) -> None:
        geo = self.settings.value("window/geometry")
        if isinstance(geo, QByteArray | bytes) and geo:
            self.restoreGeometry(QByteArray(geo))
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray | bytes) and state:
            self.restoreState(QByteArray(state))
        size = self.settings.value("window/size")
        if size is not None and hasattr(size, "width"):
            self.resize(size)

    def closeEvent(self, event) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/size", self.size())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()
        self.session.cancel()
        super().closeEvent(event)

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent/files") or []
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value]

    def _add_recent(self, path: str) -> None:
        recent = [p for p in self.recent_files() if p != path]
        recent.insert(0, path)
        self.settings.setValue("recent/files", recent[:MAX_RECENT])
        self.settings.sync()
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        recent = self.recent_files()
        self.recent_menu.clear()
        for p in recent:
            act = self.recent_menu.addAction(Path(p).name)
            act.setToolTip(p)
            act.triggered.connect(lambda _checked=False, p=p: self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))
        if hasattr(self.start_page, "set_recent"):
            self.start_page.set_recent(recent)

    def _last_dir(self) -> str:
        return str(self.settings.value("paths/last_dir") or Path.home())

    def _remember_dir(self, file: str) -> None:
        self.settings.setValue("paths/last_dir", str(Path(file).parent))

    def open_url(self, url: str) -> None:
        QDesktopServices.openUrl(QUrl(url))

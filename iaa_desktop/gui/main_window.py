"""The main window: composition and wiring only; the session holds state and does the work.

Opening studies lives in :mod:`iaa_desktop.gui.open_flow` (dialogs, drops, the import dialog,
examples), the menus and file commands in :mod:`iaa_desktop.gui.actions`, what the window
remembers in :mod:`iaa_desktop.gui.window_state`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QPaintEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop import __version__
from iaa_desktop.core.study_file import Study
from iaa_desktop.gui import presentation
from iaa_desktop.gui.actions import WindowActions
from iaa_desktop.gui.geometry import clamp_soon
from iaa_desktop.gui.kind_options import KindOptionMemory, carried_options
from iaa_desktop.gui.meeting import MeetingLayout, restore_zoom
from iaa_desktop.gui.open_flow import OpenFlow
from iaa_desktop.gui.session import StudySession
from iaa_desktop.gui.trust import StudyTrust
from iaa_desktop.gui.widgets.computing_page import CANCELLED, ComputingPage
from iaa_desktop.gui.widgets.elided_label import ElidedLabel, ElidedText
from iaa_desktop.gui.widgets.message_bar import MessageBar
from iaa_desktop.gui.widgets.settings_panel import SettingsPanel
from iaa_desktop.gui.widgets.short_text import shown
from iaa_desktop.gui.widgets.study_panel import StudyPanel
from iaa_desktop.gui.window_state import START, WindowState, data_folder

if TYPE_CHECKING:
    from iaa_desktop.gui.start_page import StartPage

SAVE_AND_CLOSE = "Save and close"
CLOSE_ANYWAY = "Close without saving"
KEEP_OPEN = "Keep open"


@dataclass
class ViewContext:
    """What a kind's view gets besides the result: the session and a cache kept across results."""

    session: Any = None
    cache: dict[str, Any] = field(default_factory=dict)
    window: Any = None


class MainWindow(QMainWindow):
    """Menus, docks, the results tabs and the status bar around one :class:`StudySession`.

    ``first_painted`` is emitted once, right after the window has first been painted; the
    warm-up imports (pandas, matplotlib, the kinds) begin then, not before, so that they do not
    compete with the first paint (``warm_up=False`` leaves them out, e.g. to time the start).
    """

    first_painted = Signal()

    # menus and actions: built by WindowActions.build_menus
    open_folders_action: QAction
    recent_menu: QMenu
    export_action: QAction
    export_report_action: QAction
    adjudicate_action: QAction
    extra_file_actions_anchor: QAction
    file_menu: QMenu
    view_menu: QMenu
    help_menu: QMenu

    def __init__(
        self,
        settings: QSettings | None = None,
        session: StudySession | None = None,
        data_dir: Path | None = None,
        warm_up: bool = True,
    ) -> None:
        super().__init__()
        self.settings = (
            settings if settings is not None else QSettings("iaa_desktop", "iaa_desktop")
        )
        self.session = session or StudySession(parent=self)
        self.study_path: Path | None = None
        self.data_dir = Path(data_dir) if data_dir is not None else data_folder()
        self.context = ViewContext(session=self.session, window=self)
        self.state = WindowState(self, self.settings)
        self.open_flow = OpenFlow(self, self.data_dir)
        self.commands = WindowActions(self)
        restore_zoom(self.settings)
        self.adjudication_window: QWidget | None = None
        self.setWindowTitle("iaa_desktop")
        self.setAcceptDrops(True)
        self._build_pages()
        self._build_docks()
        self._build_status_bar()
        self.meeting = MeetingLayout(self, lambda: [self.study_dock, self.settings_dock])
        self.commands.build_menus()
        self._connect_session()
        self.state.restore_position()
        self.state.restore(START)
        self._refresh_recent()
        self._watch_first_paint(warm_up)

    def _build_pages(self) -> None:
        """The start page and the results tabs, one at a time, under the message bar."""
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.setObjectName("results")
        self.tabs.currentChanged.connect(self._focus_page)
        self.start_page = self._make_start_page()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.start_page)
        self.stack.addWidget(self.tabs)
        self.computing_page = ComputingPage()  # the first results of a study, on their way
        self.computing_page.cancel_requested.connect(self.session.cancel)
        self.stack.addWidget(self.computing_page)
        self.message_bar = MessageBar()
        central = QWidget()
        lay = QVBoxLayout(central)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.message_bar)
        lay.addWidget(self.stack, 1)
        self.setCentralWidget(central)

    def _build_docks(self) -> None:
        self.study_panel = StudyPanel()
        self.study_panel.add_requested.connect(self.add_files)
        self.study_panel.remove_requested.connect(self._on_remove_requested)
        self.study_dock = self._dock(
            "Study", self.study_panel, Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.settings_panel = SettingsPanel()
        self.kind_memory = KindOptionMemory(self.settings)
        self._close_confirmed = False
        self.trust = StudyTrust(self.settings)  # study files the user allowed beyond their folder
        self.settings_panel.option_changed.connect(self._on_option_set)
        self.settings_panel.kind_changed.connect(self._on_kind_chosen)
        self.settings_dock = self._dock(
            "Settings", self.settings_panel, Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.tabifyDockWidget(self.study_dock, self.settings_dock)
        self.study_dock.raise_()

    def _build_status_bar(self) -> None:
        self.status_label = ElidedText("Ready")
        # the headline is elided to the room it has, the whole of it in the tooltip
        self.headline_label = ElidedLabel()
        # long texts may be cut but must not make the window wider than a laptop screen (an
        # explicit minimum width overrides a label's minimum size hint, its whole text)
        for label in (self.status_label, self.headline_label):
            label.setMinimumWidth(80)
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
        sb.addPermanentWidget(self.headline_label, 3)
        sb.addPermanentWidget(self.progress)
        sb.addPermanentWidget(self.cancel_button)

    def _connect_session(self) -> None:
        self.session.computation_started.connect(self._on_computation_started)
        self.session.progress_changed.connect(self._on_progress_changed)
        self.session.results_ready.connect(self._on_results_ready)
        self.session.computation_failed.connect(self._on_computation_failed)
        self.session.computation_cancelled.connect(self._on_computation_cancelled)
        self.session.errors_changed.connect(self.study_panel.set_errors)
        self.session.study_changed.connect(self._on_study_changed)

    def _watch_first_paint(self, warm_up: bool) -> None:
        """``first_painted`` follows the window's own first paint, whichever page it shows (the
        start page, or the results of a study opened at start)."""
        self._painted = False
        if warm_up:
            self.first_painted.connect(self.session.start_warm_up)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            # after this paint has reached the screen: the next turn of the event loop
            QTimer.singleShot(0, self.first_painted.emit)

    # ------------------------------------------------------------------ construction

    def _make_start_page(self) -> StartPage:
        from iaa_desktop.gui.start_page import StartPage

        page = StartPage(self)
        page.open_requested.connect(self.open_path)
        page.new_requested.connect(self.new_study_from_files)
        page.folders_requested.connect(self.open_folders)
        return page

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{title.lower()}")
        dock.setWidget(widget)
        dock.setMinimumWidth(200)
        self.addDockWidget(area, dock)
        return dock

    # ------------------------------------------------------------------ studies (delegated)

    def new_study_from_files(self) -> None:
        self.open_flow.choose_files()

    def open_folders(self) -> None:
        self.open_flow.choose_folders()

    def open_study_dialog(self) -> None:
        self.open_flow.choose_study()

    def open_path(self, path: str | Path):
        """Open a study file (an example as its copy), or start a study from a data path; a
        study file reaching outside its folder is asked about in the message bar first (the
        :class:`~iaa_desktop.gui.confirm.Outcome` says which happened)."""
        return self.open_flow.open_path(path)

    def open_selection(self, paths: list[Path], kind: str | None = None):
        """The import dialog for files and folders; accepting it opens the study."""
        return self.open_flow.open_selection(paths, kind)

    def add_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Add files", self.state.open_folder())
        if files:
            self.state.remember_open(files[0])
            self.session.add_inputs([Path(f) for f in files])

    def open_study(self, study: Study, path: Path | None = None) -> None:
        self.message_bar.dismiss()  # a question about another study is answered "no"
        self.study_path = path
        self.context.cache.clear()
        if path is not None:
            self.add_recent(str(path))
        self.session.set_study(study)

    def open_inputs(
        self, inputs: list[Path], kind: str | None = None, options: dict | None = None
    ) -> None:
        self.open_study(Study(tuple(Path(p) for p in inputs), kind, dict(options or {})))

    def save_study(self) -> None:
        self.commands.save_study()

    def save_study_as(self) -> None:
        self.commands.save_study_as()

    def write_study(self, path: Path) -> None:
        self.commands.write_study(path)

    def adjudicate(self) -> None:
        self.commands.adjudicate()

    def export_tables(self) -> None:
        self.commands.export_tables()

    def export_tables_to(self, directory: Path) -> list[Path]:
        return self.commands.export_tables_to(directory)

    def export_report(self) -> None:
        self.commands.export_report()

    # ------------------------------------------------------------------ help

    def show_measures(self) -> None:
        from iaa_desktop.gui.help_dialogs import MeasuresDialog

        MeasuresDialog(self).exec()

    def show_about(self) -> None:
        try:
            from iaa_desktop.gui.help_dialogs import AboutDialog

            AboutDialog(self).exec()
        except ImportError:
            QMessageBox.about(self, "About iaa_desktop", f"iaa_desktop {__version__}")

    # ------------------------------------------------------------------ session signals

    def _on_study_changed(self, study: Study) -> None:
        self.study_panel.set_study(study)
        if self.session.result is None:  # another study, or other inputs: no figure is its own
            self._clear_results(study)
        self.stack.setCurrentWidget(self.tabs if self.tabs.count() else self.computing_page)
        self.update_title()
        self._refresh_settings()

    def _clear_results(self, study: Study) -> None:
        """Take the previous figures off the screen at once (tabs, annotators, headline); the
        computing page, with its progress and Cancel, stands in their place until the new study's
        own results arrive. The old views are deleted by the event loop."""
        old = [self.tabs.widget(i) for i in range(self.tabs.count())]
        self.tabs.clear()
        for w in old:
            if w is not None and not self._cached(w):
                w.deleteLater()
        name = study.name or ", ".join(p.name for p in study.inputs[:3])
        self.computing_page.started(f"Computing the figures of {shown(name)}…")
        self.study_panel.set_annotators(())
        self.headline_label.clear()
        self.status_label.setText("Computing…")

    def _refresh_settings(self) -> None:
        from iaa_desktop.core.kinds import get_kind, kind_names

        study = self.session.study
        if study is None:
            return
        names = [(n, get_kind(n).title) for n in kind_names()]
        self.settings_panel.set_kinds(names, study.kind)
        kind = study.kind or self.session.kind_name
        if kind:
            k = get_kind(kind)
            try:  # the values the kind computes with, as it resolves them
                opts = k.shown_values(study.options)
            except Exception:  # noqa: BLE001
                opts = dict(study.options)
            self.settings_panel.set_settings(list(k.settings), opts)

    def _current_kind(self) -> str | None:
        study = self.session.study
        return (study.kind if study is not None else None) or self.session.kind_name

    def _on_option_set(self, name: str, value: Any) -> None:
        """An option the user set: used now and remembered for the kind."""
        kind = self._current_kind()
        if kind:
            self.kind_memory.remember(kind, name, value)
        self.session.set_option(name, value)

    def _on_kind_chosen(self, kind: str | None) -> None:
        """Another kind: the settings it shares keep their values, the others come back as the
        user last set them for that kind."""
        from iaa_desktop.core.kinds import get_kind

        study, old = self.session.study, self._current_kind()
        options: dict[str, Any] = {}
        if study is not None and kind:
            old_settings = get_kind(old).settings if old else ()
            options = carried_options(
                old_settings, get_kind(kind).settings, study.options, self.kind_memory.recall(kind)
            )
        self.session.set_kind(kind, options)

    def _on_computation_started(self, _gen: int) -> None:
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self.status_label.setText("Computing…")
        if not self.tabs.count():
            self.computing_page.started()
            self.stack.setCurrentWidget(self.computing_page)

    def _on_progress_changed(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(fraction * 1000))
        self.computing_page.progress(fraction, message)
        if message:
            self.status_label.setText(message)

    def _on_results_ready(self, result) -> None:
        self.state.switch(result.kind)  # each kind of view has its own size and dock layout
        self.progress.hide()
        self.cancel_button.hide()
        kind_changed = self.settings_panel.property("kind") != result.kind
        self.settings_panel.setProperty("kind", result.kind)
        study = self.session.study
        if kind_changed or study is None or study.kind is None:
            self._refresh_settings()
        self._show_panels(result)
        self.study_panel.set_annotators(getattr(result, "annotators", ()))
        n_err = len(result.errors)
        self.status_label.setText(
            f"Computed in {self.session.last_duration:.2f} s"
            + (f" — {n_err} problem(s) in the inputs, see the Study panel" if n_err else "")
        )
        self.headline_label.set_parts(result.headline())
        if n_err:
            self.study_dock.raise_()

    def _on_computation_failed(self, message: str, details: str) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        kept = " (the last results stay on screen)" if self.session.result is not None else ""
        self.status_label.setText(f"Error: {message.splitlines()[0]}{kept}")
        if self.stack.currentWidget() is self.computing_page:
            self.computing_page.stopped(
                "No results", f"{message.splitlines()[0]}\nCorrect the inputs and press F5."
            )
        self.study_dock.raise_()
        if details:  # a bug, not bad input: offer the details without a raw traceback in the face
            box = QMessageBox(QMessageBox.Icon.Warning, "Internal error", message, parent=self)
            box.setDetailedText(details)
            box.open()

    def _on_computation_cancelled(self) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.status_label.setText(CANCELLED)
        if self.stack.currentWidget() is self.computing_page:
            self.computing_page.stopped(CANCELLED)

    def _show_panels(self, result) -> None:
        from iaa_desktop.gui.kinds import create_panels

        panels: list[tuple[str, QWidget]] = create_panels(result, self.context)
        current_title = self.tabs.tabText(self.tabs.currentIndex()) if self.tabs.count() else None
        existing = [(self.tabs.tabText(i), self.tabs.widget(i)) for i in range(self.tabs.count())]
        if [(t, id(w)) for t, w in existing] != [(t, id(w)) for t, w in panels]:
            keep = {id(w) for _t, w in panels}
            self.tabs.clear()
            for _t, w in existing:
                if w is not None and id(w) not in keep and not self._cached(w):
                    w.deleteLater()
            for title, w in panels:
                self.tabs.addTab(w, title)
            for i in range(self.tabs.count()):
                if self.tabs.tabText(i) == current_title:
                    self.tabs.setCurrentIndex(i)
                    break
        self.stack.setCurrentWidget(self.tabs)
        if presentation.factor() != 1.0:
            presentation.rescale(self.tabs)  # charts made for these results, at the zoom

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

    def _focus_page(self, index: int) -> None:
        """A tab shown: its first list takes the keys (N / P), unless the focus is in it or on
        the tab bar (someone walking the tabs with the arrow keys)."""
        from PySide6.QtWidgets import QAbstractItemView

        page = self.tabs.widget(index)
        focus = QApplication.focusWidget()
        if page is None or (focus is not None and page.isAncestorOf(focus)):
            return
        if focus is self.tabs.tabBar():
            return
        view = getattr(page, "list_view", None)
        if not isinstance(view, QAbstractItemView):
            views = [v for v in page.findChildren(QAbstractItemView) if v.isVisibleTo(page)]
            view = views[0] if views else None
        if view is not None:
            view.setFocus(Qt.FocusReason.TabFocusReason)

    def step_tab(self, step: int) -> None:
        if self.tabs.count():
            self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % self.tabs.count())

    def _on_remove_requested(self, paths: list[Path]) -> None:
        study = self.session.study
        if study is None:
            return
        from dataclasses import replace

        remaining = tuple(p for p in study.inputs if Path(p) not in set(map(Path, paths)))
        self.session.set_study(replace(study, inputs=remaining))

    def update_title(self) -> None:
        study = self.session.study
        name = self.study_path.name if self.study_path else (study.title if study else "")
        self.setWindowTitle(f"{shown(name)} — iaa_desktop" if name else "iaa_desktop")

    # ------------------------------------------------------------------ drag and drop

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        self.open_flow.handle_dropped(paths)
        event.acceptProposedAction()

    # ------------------------------------------------------------------ remembered state

    def showEvent(self, event) -> None:
        super().showEvent(event)
        clamp_soon(self)  # the frame and the status bar stay on the screen

    def closeEvent(self, event) -> None:
        if not self._close_confirmed and self._unsaved_names():
            event.ignore()  # asked on the message bar: nothing waits meanwhile
            self.message_bar.ask(
                "The annotator names you gave are not saved in a study file.",
                "Save the study to keep them, or close without them.",
                [
                    (SAVE_AND_CLOSE, self._save_and_close),
                    (CLOSE_ANYWAY, self._close_anyway),
                    (KEEP_OPEN, lambda: None),
                ],
            )
            return
        self.meeting.set_active(False)  # the docks come back before the layout is remembered
        self.state.save()
        self.session.cancel()
        super().closeEvent(event)

    def _unsaved_names(self) -> bool:
        """Whether the annotator names the user gave are kept in no study file yet."""
        from iaa_desktop.core.study_file import load_study

        study = self.session.study
        names = study.options.get("annotator_names") if study is not None else None
        if not names:
            return False
        if self.study_path is None:
            return True
        try:
            return load_study(self.study_path).options.get("annotator_names") != names
        except Exception:  # noqa: BLE001 - a file gone or changed: the names are not in it
            return True

    def _close_anyway(self) -> None:
        self._close_confirmed = True
        QTimer.singleShot(0, self.close)  # after the button's own handler has returned

    def _save_and_close(self) -> None:
        self.save_study()
        if not self._unsaved_names():  # else the save was cancelled: the window stays
            self._close_anyway()

    def recent_files(self) -> list[str]:
        return self.state.recent_files()

    def add_recent(self, path: str) -> None:
        self.state.add_recent(path)
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        recent = self.recent_files()
        self.recent_menu.clear()
        for p in recent:
            act = self.recent_menu.addAction(Path(p).name)
            act.setToolTip(p)
            act.triggered.connect(lambda _checked=False, p=p: self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))
        self.start_page.set_recent(recent)

    def open_url(self, url: str) -> None:
        QDesktopServices.openUrl(QUrl(url))

"""The import dialog: what a selection of files and folders becomes, before anything is computed.

It shows the :class:`~iaa_desktop.core.study_import.ImportPlan` of the selection: the kind of
study detected and why (every kind's confidence), which files or folders become which annotator
(names editable), which documents or targets pair up, the files left out and why, and a preview of
the first items. The kind can be changed; files and folders can be added or removed. The plan is
made in a worker thread (it reads the files); a plan made for an older selection is dropped.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds import KINDS
from iaa_desktop.core.study_file import Study
from iaa_desktop.core.study_import import ImportPlan, plan_import, why
from iaa_desktop.gui.geometry import fit_window
from iaa_desktop.gui.tasks import TaskRunner
from iaa_desktop.gui.widgets.choice_combo import ChoiceCombo

ANNOTATION_FILTER = (
    "Annotation files (*.csv *.tsv *.tab *.txt *.xlsx *.ann *_conll *.conll *.key *.response)"
    ";;All files (*)"
)


def choose_folders(parent: QWidget | None, caption: str, start: str) -> list[Path]:
    """A folder dialog in which several folders can be selected (Ctrl/Shift-click).

    Qt's own (non-native) dialog: native folder pickers take one folder only.
    """
    dialog = QFileDialog(parent, caption, start)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    enable_multi_selection(dialog)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return []
    return [Path(p) for p in dialog.selectedFiles()]


def enable_multi_selection(dialog: QFileDialog) -> None:
    """Let the list and tree views of a non-native file dialog select several entries."""
    for view in dialog.findChildren(QAbstractItemView):
        if view.objectName() in ("listView", "treeView"):
            view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)


def _item(text: str, tip: str = "") -> QTableWidgetItem:
    it = QTableWidgetItem(text)
    it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable)
    if tip:
        it.setToolTip(tip)
    return it


def _table(columns: list[str]) -> QTableWidget:
    t = QTableWidget(0, len(columns))
    t.setHorizontalHeaderLabels(columns)
    t.verticalHeader().setVisible(False)
    t.setWordWrap(False)
    t.setAlternatingRowColors(True)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    t.horizontalHeader().setStretchLastSection(True)
    return t


#: the option naming the model annotators (the kinds that have it compare models with humans)
MODEL_OPTION = "model_annotators"


def _has_models(kind: str) -> bool:
    return any(s.name == MODEL_OPTION for s in KINDS[kind].settings)


def _model_box(name: str) -> QTableWidgetItem:
    it = QTableWidgetItem("model")
    it.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
    it.setCheckState(Qt.CheckState.Unchecked)
    it.setToolTip(
        f"Tick if '{name}' is a model (e.g. an LLM): it is then compared with the human "
        "annotators by the alternative annotator test and left out of their agreement."
    )
    return it


class ImportDialog(QDialog):
    """Shows what a selection becomes as a study; :meth:`study` is the study to open.

    Signals
    -------
    plan_ready(ImportPlan)
        a plan for the current selection and kind arrived from the worker.
    """

    plan_ready = Signal(object)

    def __init__(
        self,
        selection: list[Path],
        parent: QWidget | None = None,
        kind: str | None = None,
        start_dir: str = "",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("import_dialog")
        self.setWindowTitle("Open as a study")
        self.setSizeGripEnabled(True)
        self.setAcceptDrops(True)  # more files or folders can be dropped on the dialog
        self.selection: list[Path] = list(dict.fromkeys(Path(p) for p in selection))
        self.forced_kind = kind
        self.plan: ImportPlan | None = None
        self.start_dir = start_dir
        self.tasks = TaskRunner(self)
        # bound methods: Qt drops the connections if the dialog goes first
        self.tasks.succeeded.connect(self._on_plan)
        self.tasks.failed.connect(self._on_failed)
        self._build()
        fit_window(self, QSize(1100, 640))
        self.refresh()

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        outer.addWidget(split, 1)
        split.addWidget(self._left_column())
        self.tabs = QTabWidget()
        self.preview = _table([])
        self.preview.setObjectName("preview")
        self.pairing = _table([])
        self.pairing.setObjectName("pairing")
        self.left_out = QListWidget()
        self.left_out.setObjectName("left_out")
        self.left_out.setWordWrap(True)
        self.problems = QListWidget()
        self.problems.setObjectName("problems")
        self.problems.setWordWrap(True)
        self.reasons = QLabel()
        self.reasons.setObjectName("kind_reasons")
        self.reasons.setWordWrap(True)
        self.reasons.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.reasons.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        reasons = QScrollArea()
        reasons.setWidgetResizable(True)
        reasons.setWidget(self.reasons)
        for w, title in (
            (self.preview, "Preview"),
            (self.pairing, "What pairs up"),
            (self.left_out, "Left out"),
            (self.problems, "Problems"),
            (reasons, "Why this kind"),
        ):
            self.tabs.addTab(w, title)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        self.status = QLabel()
        self.status.setObjectName("import_status")
        self.status.setWordWrap(True)
        outer.addWidget(self.status)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        self.open_button = self.buttons.button(QDialogButtonBox.StandardButton.Open)
        self.open_button.setText("Compare")
        self.open_button.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)

    def _left_column(self) -> QWidget:
        host = QWidget()
        lay = QVBoxLayout(host)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("<b>Selected</b> (drop more files or folders here)"))
        self.selected = QListWidget()
        self.selected.setObjectName("selected")
        self.selected.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        lay.addWidget(self.selected, 1)
        row = QHBoxLayout()
        for text, slot in (
            ("Add folder(s)…", self._add_folders),
            ("Add files…", self._add_files),
            ("Remove", self._remove_selected),
        ):
            b = QPushButton(text)
            b.clicked.connect(slot)
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        form = QFormLayout()
        self.kind_combo = ChoiceCombo()
        self.kind_combo.setObjectName("import_kind")
        for name, spec in KINDS.items():
            self.kind_combo.addItem(spec.title, name)
        self.kind_combo.activated.connect(self._on_kind_activated)
        form.addRow("Kind of study", self.kind_combo)
        lay.addLayout(form)
        self.why_label = QLabel()
        self.why_label.setObjectName("import_why")
        self.why_label.setWordWrap(True)
        lay.addWidget(self.why_label)
        lay.addWidget(QLabel("<b>Annotators</b> (double-click a name to change it)"))
        self.annotators = _table(["name", "from", "annotations", "model"])
        self.annotators.setObjectName("annotators")
        self.annotators.itemChanged.connect(self._check_names)
        self.annotators.setMinimumHeight(110)
        lay.addWidget(self.annotators, 2)
        self.notes = QLabel()
        self.notes.setObjectName("import_notes")
        self.notes.setWordWrap(True)
        lay.addWidget(self.notes)
        return host

    # ------------------------------------------------------------------ selection

    def _add_folders(self) -> None:
        folders = choose_folders(self, "Add folders", self._start())
        self.add_paths(folders)

    def _add_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Add files", self._start(), ANNOTATION_FILTER)
        self.add_paths([Path(f) for f in files])

    def _start(self) -> str:
        return str(self.selection[-1].parent) if self.selection else self.start_dir

    def _remove_selected(self) -> None:
        gone = {Path(i.data(Qt.ItemDataRole.UserRole)) for i in self.selected.selectedItems()}
        if gone:
            self.selection = [p for p in self.selection if p not in gone]
            self.refresh()

    def add_paths(self, paths: list[Path]) -> None:
        new = [p for p in paths if p not in self.selection]
        if new:
            self.selection.extend(new)
            self.refresh()

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        self.add_paths([Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()])
        event.acceptProposedAction()

    def _on_kind_activated(self, index: int) -> None:
        self.forced_kind = self.kind_combo.itemData(index)
        self.refresh()

    # ------------------------------------------------------------------ planning (worker)

    def refresh(self) -> None:
        """Make the plan of the current selection and kind in a worker thread."""
        self.selected.clear()
        for p in self.selection:
            it = QListWidgetItem(p.name + ("/" if p.is_dir() else ""))
            it.setToolTip(str(p))
            it.setData(Qt.ItemDataRole.UserRole, str(p))
            self.selected.addItem(it)
        self.tasks.supersede()  # a plan made for the previous selection is dropped
        self.plan = None
        self.open_button.setEnabled(False)
        if not self.selection:
            self.status.setText("Add the annotators' files or folders.")
            return
        self.status.setText("Reading the files…")
        self.tasks.start(plan_import, list(self.selection), self.forced_kind)

    def _on_failed(self, exc: BaseException) -> None:
        self.status.setText(f"<span style='color:#a00'>{html.escape(str(exc))}</span>")

    def _on_plan(self, plan: ImportPlan) -> None:
        self.plan = plan
        self._show_plan(plan)
        self.plan_ready.emit(plan)

    def _show_plan(self, plan: ImportPlan) -> None:
        self.kind_combo.setCurrentIndex(max(0, self.kind_combo.findData(plan.kind)))
        self.why_label.setText(why(plan))
        self.reasons.setText(self._reasons_html(plan))
        self._fill_annotators(plan)
        self._fill_grid(self.pairing, plan.pairing)
        self._fill_preview(plan)
        self.left_out.clear()
        for lo in plan.left_out:
            it = QListWidgetItem(f"{lo.path.name} — {lo.reason}")
            it.setToolTip(str(lo.path))
            self.left_out.addItem(it)
        self.tabs.setTabText(2, f"Left out ({len(plan.left_out)})")
        self.problems.clear()
        for text in plan.problems:
            self.problems.addItem(QListWidgetItem(text))
        self.tabs.setTabText(3, f"Problems ({len(plan.problems)})")
        notes = list(plan.notes)
        if plan.problems:
            notes.append(f"{len(plan.problems)} problem(s) found while reading: see Problems.")
        self.notes.setText("\n".join(notes))
        self._check_names()

    @staticmethod
    def _reasons_html(plan: ImportPlan) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(s.title)}</td><td align='right'>{s.score:.2f}</td>"
            f"<td>{html.escape(s.accepts)}</td></tr>"
            for s in plan.scores
        )
        found = "".join(f"<li>{html.escape(e)}</li>" for e in plan.evidence)
        return (
            "<p>Each kind of study says how sure it is (0–1) that the selection is its kind; the "
            "most confident one is proposed.</p>"
            f"<table cellpadding='3'><tr><th align='left'>kind</th><th>confidence</th>"
            f"<th align='left'>reads</th></tr>{rows}</table>"
            f"<p><b>Found in the selection</b></p><ul>{found}</ul>"
        )

    def _fill_annotators(self, plan: ImportPlan) -> None:
        t = self.annotators
        t.blockSignals(True)
        t.setRowCount(len(plan.annotators))
        for r, a in enumerate(plan.annotators):
            name = QTableWidgetItem(a.name)
            name.setData(Qt.ItemDataRole.UserRole, a.name)
            name.setToolTip(f"found in the inputs as '{a.name}'")
            t.setItem(r, 0, name)
            t.setItem(r, 1, _item(a.source, a.source))
            t.setItem(r, 2, _item(a.detail))
            t.setItem(r, 3, _model_box(a.name))
        # a model annotator is compared with the humans, never counted as one
        t.setColumnHidden(3, not _has_models(plan.kind))
        t.blockSignals(False)
        t.resizeColumnsToContents()
        t.setColumnWidth(1, min(t.columnWidth(1), 260))

    @staticmethod
    def _fill_grid(t: QTableWidget, pairing) -> None:
        if pairing is None:
            t.setColumnCount(1)
            t.setHorizontalHeaderLabels([""])
            t.setRowCount(1)
            t.setItem(0, 0, _item("Items are matched by their identifiers; see the preview."))
            return
        t.setColumnCount(1 + len(pairing.annotators))
        t.setHorizontalHeaderLabels([pairing.unit, *pairing.annotators])
        t.setRowCount(len(pairing.rows))
        for r, (name, has) in enumerate(pairing.rows):
            t.setItem(r, 0, _item(name, name))
            for c, h in enumerate(has):
                cell = _item("✓" if h else "missing")
                if not h:
                    cell.setForeground(QColor(170, 0, 0))
                t.setItem(r, 1 + c, cell)
        t.resizeColumnsToContents()

    def _fill_preview(self, plan: ImportPlan) -> None:
        t = self.preview
        pv = plan.preview
        if pv is None:
            t.setColumnCount(0)
            t.setRowCount(0)
            self.tabs.setTabToolTip(0, "")
            return
        t.setColumnCount(len(pv.columns))
        t.setHorizontalHeaderLabels(list(pv.columns))
        t.setRowCount(len(pv.rows))
        for r, row in enumerate(pv.rows):
            for c, v in enumerate(row):
                t.setItem(r, c, _item(v, v))
        t.resizeColumnsToContents()
        for c in range(t.columnCount()):
            t.setColumnWidth(c, min(t.columnWidth(c), 320))
        self.tabs.setTabToolTip(0, pv.caption)

    # ------------------------------------------------------------------ names and result

    def names(self) -> dict[str, str]:
        """Names found in the inputs → the names shown (as edited)."""
        out = {}
        for r in range(self.annotators.rowCount()):
            it = self.annotators.item(r, 0)
            if it is not None:
                out[str(it.data(Qt.ItemDataRole.UserRole))] = it.text().strip()
        return out

    def _check_names(self, *_args) -> None:
        plan = self.plan
        if plan is None:
            return
        shown = list(self.names().values())
        problem = ""
        if any(not n for n in shown):
            problem = "An annotator name cannot be empty."
        elif len(set(shown)) < len(shown):
            problem = "Two annotators have the same name."
        elif not plan.inputs:
            problem = "Nothing in the selection can be read as this kind of study."
        elif not plan.can_open:
            problem = "Agreement needs two or more annotators."
        ok = not problem
        self.open_button.setEnabled(ok)
        n = len(plan.annotators)
        title = KINDS[plan.kind].title
        summary = f"{title}, {n} annotator{'s' if n != 1 else ''}" if n else title
        self.status.setText(
            f"<span style='color:#a00'>{html.escape(problem)}</span>"
            if problem
            else f"Ready: {html.escape(summary)}. Nothing has been computed yet."
        )

    def models(self) -> list[str]:
        """The names shown of the annotators ticked as models (kinds that compare models)."""
        if self.plan is None or not _has_models(self.plan.kind):
            return []
        out = []
        for r in range(self.annotators.rowCount()):
            box, name = self.annotators.item(r, 3), self.annotators.item(r, 0)
            if box is not None and name is not None:
                if box.checkState() == Qt.CheckState.Checked:
                    out.append(name.text().strip())
        return out

    def study(self) -> Study:
        """The study to open (call after the dialog was accepted)."""
        if self.plan is None:
            raise RuntimeError("the plan is not ready")
        study = self.plan.study(self.names())
        if self.models():
            study.options[MODEL_OPTION] = ",".join(self.models())
        return study


__all__ = ["ImportDialog", "choose_folders", "enable_multi_selection"]

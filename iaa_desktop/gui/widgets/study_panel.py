"""The study panel: the inputs, the annotators and the problems found while loading."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.gui.widgets.short_text import html_name, name_item, shown_text, tip


class StudyPanel(QWidget):
    """Shows inputs, annotators and errors; emits ``remove_requested`` / ``add_requested``."""

    add_requested = Signal()
    remove_requested = Signal(list)  # list[Path]

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.title = QLabel("<b>No study open</b>")
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        lay.addWidget(QLabel("Inputs (drop files or folders on the window to add)"))
        self.inputs = QListWidget()
        self.inputs.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        lay.addWidget(self.inputs, 2)
        buttons = QHBoxLayout()
        add = QPushButton("Add…")
        add.clicked.connect(self.add_requested)
        rem = QPushButton("Remove")
        rem.clicked.connect(self._remove_selected)
        buttons.addWidget(add)
        buttons.addWidget(rem)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        lay.addWidget(QLabel("Annotators"))
        self.annotators = QListWidget()
        lay.addWidget(self.annotators, 1)
        self.errors_label = QLabel("Problems")
        lay.addWidget(self.errors_label)
        self.errors = QListWidget()
        self.errors.setWordWrap(True)
        self.errors.setObjectName("errors")
        lay.addWidget(self.errors, 2)

    def set_study(self, study) -> None:
        # a study file's name is shown shortened and as written (never read as markup)
        self.title.setText(f"<b>{html_name(study.title)}</b>" if study else "<b>No study open</b>")
        self.inputs.clear()
        for p in study.inputs if study else ():
            item = QListWidgetItem(Path(p).name + ("/" if Path(p).is_dir() else ""))
            item.setToolTip(str(p))
            item.setData(Qt.ItemDataRole.UserRole, str(p))
            if not Path(p).exists():
                item.setForeground(QColor(180, 0, 0))
                item.setToolTip(f"{p}\n(missing)")
            self.inputs.addItem(item)

    def set_annotators(self, names) -> None:
        self.annotators.clear()
        for n in names:
            self.annotators.addItem(name_item(str(n)))

    def set_errors(self, messages: list[str]) -> None:
        self.errors.clear()
        for m in messages:
            item = QListWidgetItem(shown_text(m))
            item.setToolTip(tip(m))
            if not m.startswith("warning:"):
                item.setForeground(QColor(170, 0, 0))
                item.setIcon(QIcon.fromTheme("dialog-error"))
            self.errors.addItem(item)
        n_err = sum(1 for m in messages if not m.startswith("warning:"))
        n_warn = len(messages) - n_err
        parts = []
        if n_err:
            parts.append(f"{n_err} error{'s' if n_err != 1 else ''}")
        if n_warn:
            parts.append(f"{n_warn} warning{'s' if n_warn != 1 else ''}")
        self.errors_label.setText("Problems" + (f" ({', '.join(parts)})" if parts else " (none)"))

    def _remove_selected(self) -> None:
        paths = [Path(i.data(Qt.ItemDataRole.UserRole)) for i in self.inputs.selectedItems()]
        if paths:
            self.remove_requested.emit(paths)

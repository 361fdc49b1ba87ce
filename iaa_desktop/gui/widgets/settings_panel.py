"""The settings form, generated from the kind's declared settings (the same ones the CLI uses)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)


class SettingsPanel(QWidget):
    """Edits the options of a study. ``option_changed(name, value)`` fires on each change
    (line edits when editing finishes); the session recomputes."""

    option_changed = Signal(str, object)
    kind_changed = Signal(object)  # str or None (= detect)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._editors: dict[str, QWidget] = {}
        self._kind_names: list[str] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        self.kind_combo = QComboBox()
        self.kind_combo.setToolTip("Kind of study (detected from the inputs unless you choose one)")
        self.kind_combo.activated.connect(self._on_kind_activated)
        top = QFormLayout()
        top.addRow("Kind", self.kind_combo)
        outer.addLayout(top)
        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        outer.addWidget(self._scroll, 1)
        self._form_host = QWidget()
        self._form = QFormLayout(self._form_host)
        self._form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._scroll.setWidget(self._form_host)
        self._placeholder = QLabel("Open a study to see its settings.")
        self._placeholder.setWordWrap(True)
        self._form.addRow(self._placeholder)

    def set_kinds(self, names: list[tuple[str, str]], current: str | None) -> None:
        self.kind_combo.blockSignals(True)
        self.kind_combo.clear()
        self._kind_names = [""] + [n for n, _ in names]
        self.kind_combo.addItem("Detect from the inputs", None)
        for name, title in names:
            self.kind_combo.addItem(title, name)
        self.kind_combo.setCurrentIndex(
            self._kind_names.index(current) if current in self._kind_names else 0
        )
        self.kind_combo.blockSignals(False)

    def _on_kind_activated(self, index: int) -> None:
        self.kind_changed.emit(self.kind_combo.itemData(index))

    def set_settings(self, settings: list[Any], options: dict[str, Any]) -> None:
        """Rebuild the form for ``settings`` with the current ``options``."""
        while self._form.rowCount():
            self._form.removeRow(0)
        self._editors.clear()
        for s in settings:
            if not getattr(s, "gui", True):
                continue
            value = options.get(s.name, s.default)
            editor = self._make_editor(s, value)
            editor.setToolTip(s.help or s.label)
            editor.setObjectName(f"setting_{s.name}")
            label = QLabel(s.label)
            label.setToolTip(s.help or s.label)
            self._form.addRow(label, editor)
            self._editors[s.name] = editor
        if not self._editors:
            self._form.addRow(QLabel("This kind of study has no settings."))

    def editor(self, name: str) -> QWidget | None:
        return self._editors.get(name)

    def _make_editor(self, s: Any, value: Any) -> QWidget:
        name = s.name
        if s.choices:
            w = QComboBox()
            for c in s.choices:
                w.addItem(str(c), c)
            if value in s.choices:
                w.setCurrentIndex(list(s.choices).index(value))
            w.activated.connect(
                lambda i, w=w, name=name: self.option_changed.emit(name, w.itemData(i))
            )
            return w
        if s.type is bool:
            box = QCheckBox()
            box.setChecked(bool(value))
            box.toggled.connect(lambda v, name=name: self.option_changed.emit(name, bool(v)))
            return box
        if s.type is int:
            spin = QSpinBox()
            spin.setRange(-1_000_000_000, 1_000_000_000)
            spin.setValue(int(value or 0))
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda v, name=name: self.option_changed.emit(name, int(v)))
            return spin
        if s.type is float:
            real = QDoubleSpinBox()
            real.setDecimals(4)
            real.setRange(-1e9, 1e9)
            real.setSingleStep(0.1)
            real.setValue(float(value or 0.0))
            real.setKeyboardTracking(False)
            real.valueChanged.connect(lambda v, name=name: self.option_changed.emit(name, float(v)))
            return real
        edit = QLineEdit("" if value is None else str(value))
        edit.setClearButtonEnabled(True)
        # emit when editing is finished (Enter or focus out), not on every keystroke
        edit.editingFinished.connect(
            lambda w=edit, name=name: self.option_changed.emit(name, w.text())
        )
        return edit


def later(fn, ms: int = 0) -> None:
    QTimer.singleShot(ms, fn)


__all__ = ["SettingsPanel", "later", "Qt"]

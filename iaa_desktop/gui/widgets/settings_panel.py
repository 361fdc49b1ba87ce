"""The settings form, generated from the kind's declared settings (the same ones the CLI uses)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
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

from iaa_desktop.gui.widgets.choice_combo import ChoiceCombo

_UNSET = object()


class SettingsPanel(QWidget):
    """Edits the options of a study. ``option_changed(name, value)`` fires on each change
    (line edits when editing finishes); the session recomputes."""

    option_changed = Signal(str, object)
    kind_changed = Signal(object)  # str or None (= detect)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._editors: dict[str, QWidget] = {}
        self._kind_names: list[str] = []
        self._signature: list[tuple[str, type, tuple[Any, ...]]] = []
        self._values: dict[str, Any] = {}  # the value each editor shows (to skip repeats)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        self.kind_combo = ChoiceCombo()
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
        """List ``names`` (kind, title) with ``current`` chosen. The list is only rebuilt when it
        differs from the one shown, so a choice made in the combo never clears the combo."""
        kind_names = [""] + [n for n, _ in names]
        with QSignalBlocker(self.kind_combo):
            if kind_names != self._kind_names:
                self.kind_combo.clear()
                self._kind_names = kind_names
                self.kind_combo.addItem("Detect from the inputs", None)
                for name, title in names:
                    self.kind_combo.addItem(title, name)
            self.kind_combo.setCurrentIndex(
                kind_names.index(current) if current in kind_names else 0
            )

    def _on_kind_activated(self, index: int) -> None:
        self._post(self.kind_changed.emit, self.kind_combo.itemData(index))

    def set_settings(self, settings: list[Any], options: dict[str, Any]) -> None:
        """Show ``settings`` with the current ``options``.

        When the form already shows these settings its editors are updated in place (signals
        blocked); it is rebuilt only for another list of settings, and the editors it replaces
        are deleted by the event loop, never while one of them may still be handling an event.
        """
        shown = [s for s in settings if getattr(s, "gui", True)]
        signature = [(s.name, s.type, tuple(s.choices)) for s in shown]
        if self._editors and signature == self._signature:
            for s in shown:
                self._set_value(s, self._editors[s.name], options.get(s.name, s.default))
            return
        while self._form.rowCount():
            row = self._form.takeRow(0)
            for item in (row.labelItem, row.fieldItem):
                w = item.widget() if item is not None else None
                if w is not None:
                    w.hide()
                    w.deleteLater()
        self._editors.clear()
        self._signature = signature
        for s in shown:
            editor = self._make_editor(s)
            self._set_value(s, editor, options.get(s.name, s.default))
            editor.setToolTip(s.help or s.label)
            editor.setObjectName(f"setting_{s.name}")
            label = QLabel(s.label)
            label.setToolTip(s.help or s.label)
            label.setBuddy(editor)
            self._form.addRow(label, editor)
            self._editors[s.name] = editor
        if not self._editors:
            self._form.addRow(QLabel("This kind of study has no settings."))

    def editor(self, name: str) -> QWidget | None:
        return self._editors.get(name)

    def editors(self) -> list[str]:
        """The names of the settings the form shows, in its order."""
        return list(self._editors)

    def _post(self, fn: Callable[..., None], *args: Any) -> None:
        """Call ``fn(*args)`` from the event loop, after the editor's own event handler has
        returned: whatever the change leads to (a new study, a rebuilt form) never runs on top of
        the editor's stack frame."""
        QTimer.singleShot(0, self, lambda: fn(*args))

    def _changed(self, name: str, value: Any) -> None:
        if self._values.get(name, _UNSET) == value:
            return  # e.g. a line edit that loses focus after Return: already applied
        self._values[name] = value
        self._post(self.option_changed.emit, name, value)

    def _set_value(self, s: Any, w: QWidget, value: Any) -> None:
        self._values[s.name] = value
        with QSignalBlocker(w):
            if isinstance(w, QComboBox):
                i = w.findData(value)
                if i >= 0:
                    w.setCurrentIndex(i)
            elif isinstance(w, QCheckBox):
                w.setChecked(bool(value))
            elif isinstance(w, QSpinBox):
                w.setValue(int(value or 0))
            elif isinstance(w, QDoubleSpinBox):
                w.setValue(float(value or 0.0))
            elif isinstance(w, QLineEdit):
                text = "" if value is None else str(value)
                self._values[s.name] = text  # compared with what the user types
                if w.text() != text:
                    w.setText(text)

    def _make_editor(self, s: Any) -> QWidget:
        name = s.name
        if s.choices:
            w = QComboBox()
            for c in s.choices:
                w.addItem(str(c), c)
            w.activated.connect(lambda i, w=w, name=name: self._changed(name, w.itemData(i)))
            return w
        if s.type is bool:
            box = QCheckBox()
            box.toggled.connect(lambda v, name=name: self._changed(name, bool(v)))
            return box
        if s.type is int:
            spin = QSpinBox()
            spin.setRange(-1_000_000_000, 1_000_000_000)
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda v, name=name: self._changed(name, int(v)))
            return spin
        if s.type is float:
            real = QDoubleSpinBox()
            real.setDecimals(4)
            real.setRange(-1e9, 1e9)
            real.setSingleStep(0.1)
            real.setKeyboardTracking(False)
            real.valueChanged.connect(lambda v, name=name: self._changed(name, float(v)))
            return real
        edit = QLineEdit()
        edit.setClearButtonEnabled(True)
        # applied when editing is finished (Enter or focus out), not on every keystroke
        edit.editingFinished.connect(lambda w=edit, name=name: self._changed(name, w.text()))
        return edit


def later(fn, ms: int = 0) -> None:
    QTimer.singleShot(ms, fn)


__all__ = ["SettingsPanel", "later", "Qt"]

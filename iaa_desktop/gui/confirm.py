"""Asking before a study file reads outside its folder or writes where it says.

A study file may come from anyone; :func:`confirm_study` shows what it asks for beyond its own
folder (:func:`iaa_desktop.core.study_file.check_study_paths`) and opens it only as the user
allows. Devices and pipes among its inputs are refused without asking.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox, QWidget

from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.study_file import Study, check_study_paths, confine_study


def confirm_study(parent: QWidget | None, path: str | Path, study: Study) -> Study | None:
    """The study as the user allows it to be opened, or None when it must not be opened."""
    paths = check_study_paths(study, path)
    allowed = True
    if not paths.special and paths.needs_confirmation:
        box = QMessageBox(parent)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Open this study?")
        box.setText(f"The study {Path(path).name} reaches beyond its own folder.")
        box.setInformativeText(
            paths.describe() + "\n\nOpen it only if you trust where it comes from."
        )
        box.setStandardButtons(QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        allowed = box.exec() == QMessageBox.StandardButton.Open
        if not allowed:
            return None
    try:
        confined, _notes = confine_study(study, paths, allow_outside=allowed, allow_outputs=allowed)
    except IaaError as e:
        QMessageBox.warning(parent, "Cannot open the study", str(e))
        return None
    return confined

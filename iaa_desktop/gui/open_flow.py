"""How a study gets opened: file and folder dialogs, dropped files, the import dialog, examples.

Files and folders the user picks or drops go through the :class:`ImportDialog` (what becomes which
annotator, the kind and why, a preview) before anything is computed. Study files open directly
when they read nothing outside their folder, otherwise once the user allows it in the window's
message bar (:mod:`iaa_desktop.gui.confirm`); a bundled example opens as its copy in the user's
data folder (inputs and all, so it asks nothing), and nothing is ever written inside the
installed package.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.study_file import SUFFIX, Study, is_study_file, load_study
from iaa_desktop.core.user_files import example_copy, is_example
from iaa_desktop.gui.confirm import Outcome, confirm_study
from iaa_desktop.gui.import_dialog import ANNOTATION_FILTER, ImportDialog, choose_folders
from iaa_desktop.gui.start_page import examples_dir

if TYPE_CHECKING:
    from iaa_desktop.gui.main_window import MainWindow


def package_dir() -> Path:
    import iaa_desktop

    return Path(iaa_desktop.__file__).resolve().parent


class OpenFlow(QObject):
    """Opens studies for ``window``; ``data_dir`` is the user's data folder (example copies)."""

    def __init__(self, window: MainWindow, data_dir: Path) -> None:
        super().__init__(window)
        self.window = window
        self.data_dir = Path(data_dir)
        self.dialog: ImportDialog | None = None

    # ------------------------------------------------------------------ dialogs

    def choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self.window,
            "Choose the annotators' files",
            self.window.state.open_folder(),
            ANNOTATION_FILTER,
        )
        if files:
            self.window.state.remember_open(files[0])
            self.open_selection([Path(f) for f in files])

    def choose_folders(self) -> None:
        folders = choose_folders(
            self.window,
            "Choose the annotators' folders (Ctrl-click to pick several)",
            self.window.state.open_folder(),
        )
        if folders:
            self.window.state.remember_open(folders[0])
            self.open_selection(folders)

    def choose_study(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window,
            "Open study",
            self.window.state.open_folder(),
            f"Studies (*{SUFFIX});;All files (*)",
        )
        if path:
            self.window.state.remember_open(path)
            self.open_path(path)

    def open_selection(self, paths: list[Path], kind: str | None = None) -> ImportDialog:
        """Show the import dialog for ``paths``; accepting it opens the study it shows."""
        if self.dialog is not None:
            self.dialog.close()
        dialog = ImportDialog(
            [Path(p) for p in paths], self.window, kind, self.window.state.open_folder()
        )
        dialog.accepted.connect(self._on_import_accepted)
        self.dialog = dialog
        dialog.open()  # window-modal, without a nested event loop
        return dialog

    def _on_import_accepted(self) -> None:
        dialog = self.dialog
        if dialog is not None and dialog.plan is not None:
            self.window.open_study(dialog.study())

    # ------------------------------------------------------------------ paths

    def handle_dropped(self, paths: list[Path]) -> None:
        """A study file dropped opens; anything else goes through the import dialog."""
        if not paths:
            return
        studies = [p for p in paths if is_study_file(p)]
        if studies:
            self.open_path(studies[0])
        else:
            self.open_selection(paths)

    def resolve_example(self, path: Path) -> Path:
        """An example study's copy in the user's data folder (made on first use); other paths
        unchanged."""
        if is_example(path, examples_dir()):
            return example_copy(path, examples_dir(), self.data_dir)
        return path

    def open_path(self, path: str | Path) -> Outcome | None:
        """Open a study file (an example as its copy), or start a study from a data path.

        A study file reaching outside its folder is only asked about here (the answer comes
        later, from the message bar); the outcome says which happened (None for data paths).
        """
        path = Path(path)
        if not is_study_file(path):
            self.window.open_inputs([path])
            return None
        bar = self.window.message_bar
        try:
            path = self.resolve_example(path)
            study = load_study(path)
        except OSError as e:
            bar.refuse(f"Cannot open the study {path.name}.", f"{path}: {e.strerror or e}")
            return Outcome.REFUSED
        except IaaError as e:  # tell the user, keep what is open
            bar.refuse(f"Cannot open the study {path.name}.", str(e))
            return Outcome.REFUSED

        def opened(allowed: Study, notes: list[str]) -> None:
            self.window.open_study(allowed, path)
            if notes:
                self.window.status_label.setText("Not done: " + " ".join(notes))

        return confirm_study(bar, path, study, opened, self.window.trust)


__all__ = ["OpenFlow", "examples_dir", "package_dir"]

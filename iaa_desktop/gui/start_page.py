"""The first-run page: what the app does, one example study per kind, new study, recent studies.

Shown by the main window whenever no study is open. The examples are the package's own small
studies (``iaa_desktop/resources/examples/<kind>/*.iaa-study``), found through
:mod:`importlib.resources`, so they are there in a checkout, an installed wheel and the frozen
application alike. Clicking one emits :attr:`StartPage.open_requested` with the study file path.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)


@dataclass(frozen=True)
class Example:
    """An example study shipped with the app."""

    kind_folder: str
    title: str
    path: Path
    kind: str
    blurb: str


def examples_dir() -> Path:
    """The folder holding the example studies (inside the installed package)."""
    return Path(str(files("iaa_desktop") / "resources" / "examples"))


def find_examples(root: Path | None = None) -> list[Example]:
    """Every ``<folder>/*.iaa-study`` under ``root``, each shown with the example of the kind whose
    ``example`` names its folder, in the kinds' order of places on the page."""
    from iaa_desktop.core.kinds import KINDS
    from iaa_desktop.core.study_file import load_study

    root = examples_dir() if root is None else Path(root)
    found: list[Example] = []
    if not root.is_dir():
        return found
    examples = {s.example.folder: s.example for s in KINDS.values() if s.example is not None}
    order = {f: e.place for f, e in examples.items()}
    for folder in sorted(
        (p for p in root.iterdir() if p.is_dir()), key=lambda p: (order.get(p.name, 99), p.name)
    ):
        for study_path in sorted(folder.glob("*.iaa-study")):
            try:
                study = load_study(study_path)
            except Exception:  # a broken example must not break the start page  # noqa: BLE001
                continue
            shown = examples.get(folder.name)
            kind_title, blurb = (
                (shown.shown, shown.blurb) if shown else (study.kind or folder.name, "")
            )
            found.append(Example(folder.name, study.title, study_path, kind_title, blurb))
    return found


def _app_icon() -> QIcon:
    p = Path(str(files("iaa_desktop") / "resources" / "icons" / "iaa-desktop.svg"))
    return QIcon(str(p)) if p.is_file() else QIcon()


class ExampleCard(QFrame):
    """One example: kind, title, what it shows, and an Open button (the whole card is clickable)."""

    clicked = Signal(str)

    def __init__(self, example: Example, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.example = example
        self.setObjectName("example_card")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.setToolTip(f"Open the example study\n{example.path}")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 10, 12, 10)
        head = QLabel(
            f"<span style='color:#2f6fb3; font-weight:600'>{html.escape(example.kind)}</span>"
        )
        lay.addWidget(head)
        shown = re.sub(r"\s*\((?:[^()]*\s)?example\)$", "", example.title)  # the kind is above
        title = QLabel(f"<b>{html.escape(shown, quote=False)}</b>")
        title.setWordWrap(True)
        lay.addWidget(title)
        blurb = QLabel(example.blurb)
        blurb.setTextFormat(Qt.TextFormat.PlainText)
        blurb.setWordWrap(True)
        lay.addWidget(blurb, 1)
        self.button = QPushButton("Open example")
        self.button.setObjectName(f"open_example_{example.kind_folder}")
        self.button.clicked.connect(lambda: self.clicked.emit(str(example.path)))
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.button)
        lay.addLayout(row)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(str(self.example.path))
        super().mouseReleaseEvent(event)


class StartPage(QWidget):
    """Shown when no study is open: how to start, the example studies, the recent studies.

    Signals
    -------
    open_requested(str)
        a study file (example or recent) to open.
    new_requested()
        "New study from files…" was pressed.
    folders_requested()
        "Open folder(s)…" was pressed.
    """

    open_requested = Signal(str)
    new_requested = Signal()
    folders_requested = Signal()

    def __init__(self, parent: QWidget | None = None, examples_root: Path | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("start_page")
        lay = self._scrolling_body()
        self._add_intro(lay)
        self._add_buttons(lay)
        self._add_examples(lay, examples_root)
        self._add_recent(lay)
        self.set_recent([])

    def _scrolling_body(self) -> QVBoxLayout:
        """The page scrolls as a whole; the layout its sections are added to."""
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(scroll)
        body = QWidget()
        scroll.setWidget(body)
        lay = QVBoxLayout(body)
        lay.setContentsMargins(40, 28, 40, 28)
        lay.setSpacing(12)
        return lay

    def _add_intro(self, lay: QVBoxLayout) -> None:
        head = QHBoxLayout()
        icon = QLabel()
        icon.setPixmap(_app_icon().pixmap(72, 72))
        head.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        intro = QLabel(
            "<h1 style='margin:0'>iaa_desktop</h1>"
            "<p>Compare the work of several annotators. Open their files — one per annotator, or one "
            "table holding all — and see where they agree and where they do not, side by side, with "
            "the agreement computed as you go. Adjudicate the disagreements into a gold standard and "
            "export a report.</p>"
            "<p>Start with an example below (it opens as your own copy), or with your own files or "
            "folders; you can also drop them on this window. Help → Measures explains every "
            "coefficient.</p>"
        )
        intro.setWordWrap(True)
        intro.setTextFormat(Qt.TextFormat.RichText)
        head.addWidget(intro, 1)
        lay.addLayout(head)

    def _add_buttons(self, lay: QVBoxLayout) -> None:
        buttons = QHBoxLayout()
        self.new_button = QPushButton("New study from files…")
        self.new_button.setObjectName("new_study")
        self.new_button.setDefault(True)
        self.new_button.clicked.connect(self.new_requested)
        buttons.addWidget(self.new_button)
        self.folders_button = QPushButton("Open folder(s)…")
        self.folders_button.setObjectName("open_folders")
        self.folders_button.setToolTip(
            "One folder per annotator (brat, CoNLL), or a folder holding the study (DURel targets)"
        )
        self.folders_button.clicked.connect(self.folders_requested)
        buttons.addWidget(self.folders_button)
        buttons.addStretch(1)
        lay.addLayout(buttons)

    def _add_examples(self, lay: QVBoxLayout, examples_root: Path | None) -> None:
        """One card per example study, three to a row."""
        lay.addWidget(
            QLabel(
                "<h2 style='margin-bottom:0'>Example studies</h2>"
                "<p style='margin-top:2px'>One per kind of study; each opens with one click.</p>"
            )
        )
        self.examples = find_examples(examples_root)
        grid = QGridLayout()
        grid.setSpacing(10)
        self.cards: list[ExampleCard] = []
        columns = 3
        for i, ex in enumerate(self.examples):
            card = ExampleCard(ex)
            card.clicked.connect(self.open_requested)
            grid.addWidget(card, i // columns, i % columns)
            self.cards.append(card)
        for c in range(columns):
            grid.setColumnStretch(c, 1)
        lay.addLayout(grid)
        if not self.examples:
            lay.addWidget(QLabel("(The example studies were not found in this installation.)"))

    def _add_recent(self, lay: QVBoxLayout) -> None:
        lay.addWidget(QLabel("<h2 style='margin-bottom:0'>Recent studies</h2>"))
        self.recent = QListWidget()
        self.recent.setObjectName("recent_studies")
        self.recent.setMinimumHeight(90)
        self.recent.itemActivated.connect(self._open_item)
        lay.addWidget(self.recent, 1)
        self.no_recent = QLabel("No recent studies yet: the studies you open appear here.")
        lay.addWidget(self.no_recent)

    def _open_item(self, item: QListWidgetItem) -> None:
        self.open_requested.emit(item.data(Qt.ItemDataRole.UserRole))

    def set_recent(self, paths: list[str]) -> None:
        """Show ``paths`` (newest first; double-click or Enter opens); missing files are greyed out."""
        self.recent.clear()
        for p in paths:
            path = Path(p)
            it = QListWidgetItem(f"{path.name}    —    {path.parent}")
            it.setToolTip(p)
            it.setData(Qt.ItemDataRole.UserRole, p)
            if not path.exists():
                it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                it.setText(f"{path.name}    —    {path.parent}   (missing)")
            self.recent.addItem(it)
        self.recent.setVisible(bool(paths))
        self.no_recent.setVisible(not paths)


__all__ = ["Example", "ExampleCard", "StartPage", "examples_dir", "find_examples"]

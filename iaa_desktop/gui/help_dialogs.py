"""Help → Measures (what each coefficient means) and Help → About (version, licences, sources).

The text of the measures comes from :mod:`iaa_desktop.core.measures`, the same text the results
show as tooltips.
"""

from __future__ import annotations

import html
import platform
import sys
from importlib import metadata

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop import __version__
from iaa_desktop.core.measures import MEASURES, find, measures_html
from iaa_desktop.gui.geometry import fit_window

#: (distribution name, shown name, licence) of the libraries the application bundles
BUNDLED_LIBRARIES: tuple[tuple[str, str, str], ...] = (
    (
        "PySide6-Essentials",
        "Qt for Python (PySide6) and Qt",
        "LGPL-3.0 (Qt and PySide6, used as shared libraries)",
    ),
    ("superqt", "superqt", "BSD-3-Clause"),
    ("numpy", "NumPy", "BSD-3-Clause"),
    ("pandas", "pandas", "BSD-3-Clause"),
    ("scipy", "SciPy", "BSD-3-Clause"),
    (
        "matplotlib",
        "Matplotlib",
        "Matplotlib licence (PSF-based); DejaVu fonts: Bitstream Vera licence",
    ),
    ("lingpy", "LingPy", "BSD-2-Clause"),
    ("rapidfuzz", "RapidFuzz", "MIT"),
    ("openpyxl", "openpyxl", "MIT"),
    ("typst", "Typst (the PDF report's typesetter)", "Apache-2.0"),
)

#: the sources of the methods (the five studies the app implements) and the standard references
METHOD_SOURCES: tuple[str, ...] = (
    "Inter-annotator agreement on biblical intertextuality in Bernard of Clairvaux: a Bayesian "
    "multi-annotator Cohen's κ with contextual factors, weighted Jaccard overlap, the candidate-pair "
    "view (candidate pairs).",
    "C. Erwich, Creating a coreference-annotated corpus for Biblical Hebrew: an analysis of "
    "inter-annotator agreement for coreference resolution annotations in the Psalms and beyond "
    "(github.com/cmerwich/participant-analysis): class matching by minimum-cost assignment "
    "(coreference).",
    "F. Periti, P. Cassotti, S. Montanelli, N. Tahmasebi, D. Schlechtweg, TRoTR: a framework for "
    "evaluating the recontextualization of text reuse: ordinal α, weighted Spearman, filtering "
    "(graded pairs).",
    "M. Bollmann, S. Dipper, F. Petran, Evaluating inter-annotator agreement on historical spelling "
    "normalization: word- and character-based π* and α_NLD (spelling normalization).",
    "E. Levi, S. R. Shenhav, A decomposition-based approach for evaluating and analyzing "
    "inter-annotator disagreement: first and second level (multi-label).",
    "Standard references: Artstein & Poesio (2008); Krippendorff (2011); Cohen (1960, 1968); "
    "Fleiss (1971); Gwet (2008); Pradhan et al. (2014) and Moosavi & Strube (2016) for the "
    "coreference scores. Help → Measures names the source of each coefficient.",
)


def _version_of(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        if dist == "PySide6-Essentials":
            try:
                import PySide6

                return PySide6.__version__
            except ImportError:
                pass
        return "not installed"


def about_html() -> str:
    """The text of Help → About."""
    e = html.escape
    rows = "".join(
        f"<tr><td>{e(shown)}</td><td>{e(_version_of(dist))}</td><td>{e(lic)}</td></tr>"
        for dist, shown, lic in BUNDLED_LIBRARIES
    )
    sources = "".join(f"<li>{e(s)}</li>" for s in METHOD_SOURCES)
    frozen = " (standalone application)" if getattr(sys, "frozen", False) else ""
    return (
        f"<h2>iaa_desktop {e(__version__)}</h2>"
        "<p>Compare the work of several annotators: aligned views, live agreement, adjudication and "
        "reports.</p>"
        f"<p>Licence: GPL-3.0-or-later. Python {e(platform.python_version())}{e(frozen)} on "
        f"{e(platform.system())}.</p>"
        "<h3>Libraries included</h3>"
        "<table cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'>"
        "<tr><th align='left'>Library</th><th align='left'>Version</th><th align='left'>Licence</th></tr>"
        f"{rows}</table>"
        "<p>Qt and PySide6 are used under the LGPL-3.0: their libraries are separate files in the "
        "application folder and can be replaced by the user.</p>"
        "<h3>Sources of the methods</h3>"
        f"<ol>{sources}</ol>"
    )


class MeasuresDialog(QDialog):
    """Help → Measures: the list of measures on the left, their explanation on the right."""

    def __init__(self, parent: QWidget | None = None, measure: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Measures — what each coefficient means")
        fit_window(self, QSize(980, 720))  # its Close button on a 1,280 × 720 screen
        lay = QVBoxLayout(self)
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Find a measure…")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        ll.addWidget(self.search)
        self.list = QListWidget()
        self.list.setObjectName("measure_list")
        group = None
        for m in MEASURES:
            if m.group != group:
                group = m.group
                head = QListWidgetItem(group)
                head.setFlags(Qt.ItemFlag.NoItemFlags)
                f = head.font()
                f.setBold(True)
                head.setFont(f)
                self.list.addItem(head)
            it = QListWidgetItem("   " + m.title)
            it.setData(Qt.ItemDataRole.UserRole, m.key)
            it.setToolTip(m.text())
            self.list.addItem(it)
        self.list.currentItemChanged.connect(lambda cur, _prev: self._jump(cur))
        ll.addWidget(self.list, 1)
        split.addWidget(left)
        self.browser = QTextBrowser()
        self.browser.setObjectName("measures_text")
        self.browser.setOpenExternalLinks(True)
        self.browser.setHtml(measures_html())
        split.addWidget(self.browser)
        split.setSizes([310, 670])
        lay.addWidget(split, 1)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        box.accepted.connect(self.accept)
        lay.addWidget(box)
        if measure:
            self.show_measure(measure)

    def show_measure(self, name: str) -> bool:
        """Scroll to the measure behind ``name`` (any name :func:`find` accepts)."""
        m = find(name)
        if m is None:
            return False
        for i in range(self.list.count()):
            if self.list.item(i).data(Qt.ItemDataRole.UserRole) == m.key:
                self.list.setCurrentRow(i)
                break
        self.browser.scrollToAnchor(m.key)
        return True

    def _jump(self, item: QListWidgetItem | None) -> None:
        if item is not None and item.data(Qt.ItemDataRole.UserRole):
            self.browser.scrollToAnchor(item.data(Qt.ItemDataRole.UserRole))

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.list.count()):
            it = self.list.item(i)
            key = it.data(Qt.ItemDataRole.UserRole)
            if not key:  # group headings stay
                continue
            m = find(key)
            it.setHidden(bool(needle) and needle not in (m.text().lower() if m else ""))


class AboutDialog(QDialog):
    """Help → About: version, licences of the bundled libraries, sources of the methods."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About iaa_desktop")
        fit_window(self, QSize(720, 640))
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.browser = QTextBrowser()
        self.browser.setObjectName("about_text")
        self.browser.setOpenExternalLinks(True)
        self.browser.setHtml(about_html())
        row.addWidget(self.browser)
        lay.addLayout(row, 1)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        lay.addWidget(box)

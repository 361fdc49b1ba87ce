"""The table view every list and table of the GUI uses, and the bar above a list.

:class:`FrameTableView` shows a :class:`~iaa_desktop.gui.widgets.frame_model.DataFrameModel`; its
context menu copies the cell, the selected rows or the whole table (tab-separated, as spreadsheets
paste it; also ``Ctrl+C``) and exports the table as CSV (through :func:`iaa_desktop.core.io.write_csv`,
formula injection neutralised) or XLSX. :class:`ListBar` puts a text filter, a *disagreements only*
toggle and the count of shown rows above a list.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QTableView,
    QWidget,
)

from iaa_desktop.gui.widgets.frame_model import DataFrameModel, Role


class FrameTableView(QTableView):
    """A read-only table with copy and export in its context menu (see the module docstring)."""

    #: the user exported the table (path)
    exported = Signal(str)

    def __init__(self, parent: QWidget | None = None, name: str = "table") -> None:
        super().__init__(parent)
        self.export_name = name
        self._menu_index = QModelIndex()
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._on_context_menu)
        self.horizontalHeader().setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.horizontalHeader().customContextMenuRequested.connect(
            lambda pos: self._on_context_menu(pos, header=True)
        )
        copy = QAction("Copy", self)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        copy.triggered.connect(self.copy_selection)
        self.addAction(copy)

    # -- copy ---------------------------------------------------------------------------------

    def _text(self, row: int, col: int) -> str:
        model = self.model()
        v = model.data(model.index(row, col), Qt.ItemDataRole.DisplayRole)
        return "" if v is None else str(v).replace("\u202b", "").replace("\u202c", "")

    def _rows_text(self, rows: list[int], header: bool) -> str:
        model = self.model()
        cols = [c for c in range(model.columnCount()) if not self.isColumnHidden(c)]
        lines = []
        if header:
            lines.append(
                "\t".join(str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in cols)
            )
        for r in rows:
            lines.append("\t".join(self._text(r, c).replace("\t", " ") for c in cols))
        return "\n".join(lines)

    def copy_selection(self) -> str:
        """Copy the selected rows (or cells) tab-separated; returns the copied text."""
        sm = self.selectionModel()
        if sm is None:
            return ""
        indexes = sm.selectedIndexes()
        if not indexes and self.currentIndex().isValid():
            indexes = [self.currentIndex()]
        if not indexes:
            return ""
        rows = sorted({i.row() for i in indexes})
        if len(indexes) == 1:
            text = self._text(indexes[0].row(), indexes[0].column())
        elif self.selectionBehavior() == QAbstractItemView.SelectionBehavior.SelectRows:
            text = self._rows_text(rows, header=False)
        else:
            cols = sorted({i.column() for i in indexes})
            text = "\n".join("\t".join(self._text(r, c) for c in cols) for r in rows)
        QGuiApplication.clipboard().setText(text)
        return text

    def copy_cell(self, index: QModelIndex) -> str:
        text = self._text(index.row(), index.column()) if index.isValid() else ""
        QGuiApplication.clipboard().setText(text)
        return text

    def copy_table(self) -> str:
        text = self._rows_text(list(range(self.model().rowCount())), header=True)
        QGuiApplication.clipboard().setText(text)
        return text

    # -- export -------------------------------------------------------------------------------

    def export(self, path: str | Path) -> Path:
        """Write the shown rows and columns to ``path`` (``.xlsx`` = Excel, anything else CSV)."""
        from iaa_desktop.core.io import write_csv, write_xlsx

        model = self.model()
        if isinstance(model, DataFrameModel):
            df = model.export_frame()
        else:
            import pandas as pd

            cols = list(range(model.columnCount()))
            df = pd.DataFrame(
                [[self._text(r, c) for c in cols] for r in range(model.rowCount())],
                columns=[str(model.headerData(c, Qt.Orientation.Horizontal)) for c in cols],
            )
        p = Path(path)
        if p.suffix.lower() == ".xlsx":
            write_xlsx(df, p)
        else:
            write_csv(df, p)
        self.exported.emit(str(p))
        return p

    def _ask_export(self, suffix: str) -> None:
        kind = "Excel workbook (*.xlsx)" if suffix == ".xlsx" else "CSV (*.csv)"
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the table", f"{self.export_name}{suffix}", kind
        )
        if not path:
            return
        if not path.lower().endswith(suffix):
            path += suffix
        try:
            self.export(path)
        except OSError as e:
            QMessageBox.critical(self, "Export", f"The table was not written: {e}")

    # -- menu ---------------------------------------------------------------------------------

    def context_menu(self, index: QModelIndex) -> QMenu:
        menu = QMenu(self)
        if index.isValid():
            menu.addAction("Copy cell", lambda: self.copy_cell(index))
        menu.addAction("Copy selected rows", self.copy_selection)
        menu.addAction("Copy table", self.copy_table)
        menu.addSeparator()
        menu.addAction("Export table as CSV…", lambda: self._ask_export(".csv"))
        menu.addAction("Export table as Excel (XLSX)…", lambda: self._ask_export(".xlsx"))
        return menu

    def _on_context_menu(self, pos, header: bool = False) -> None:
        index = QModelIndex() if header else self.indexAt(pos)
        source = self.horizontalHeader() if header else self.viewport()
        self.context_menu(index).popup(source.mapToGlobal(pos))

    def keyboardSearch(self, search: str) -> None:
        # letters are the views' navigation keys (N / P); no jump to a row by its first letter
        return


def make_table(
    model, sortable: bool = True, name: str = "table", view: FrameTableView | None = None
) -> FrameTableView:
    """A :class:`FrameTableView` set up as every list of the app (rows selected, no wrap)."""
    view = view or FrameTableView(name=name)
    view.export_name = name
    view.setModel(model)
    # no sort indicator until the user sorts (set before enabling sorting, which would sort by
    # the indicator at once): the rows come in the core's ranking
    view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
    view.setSortingEnabled(sortable)
    view.setAlternatingRowColors(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    vh = view.verticalHeader()
    vh.setDefaultSectionSize(view.fontMetrics().height() + 6)
    vh.setVisible(False)
    vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    hh = view.horizontalHeader()
    hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    hh.setStretchLastSection(True)
    hh.setHighlightSections(False)
    hh.setMinimumSectionSize(28)
    # long titles (the metrics catalogue's) wrap onto a second line rather than being cut
    hh.setDefaultAlignment(
        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap
    )
    view.setWordWrap(False)
    # cut in the middle: names that share a beginning (Psalms_011, Psalms_067) stay apart
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    return view


def fit_columns(
    view: QTableView, max_width: int = 320, sample: int = 100, header_width: int = 150
) -> None:
    """Column widths from the first ``sample`` rows and the header — a long title wraps onto
    two lines rather than widening its column past ``header_width`` (Qt's own resize to contents
    measures every row and takes hundreds of milliseconds on a large table)."""
    model = view.model()
    fm = view.fontMetrics()
    hh = view.horizontalHeader()
    hfm = hh.fontMetrics()
    rows = min(model.rowCount(), sample)
    for c in range(model.columnCount()):
        header = str(model.headerData(c, Qt.Orientation.Horizontal) or "")
        width = min(hfm.horizontalAdvance(header) + 26, header_width)
        for word in header.split():
            width = max(width, hfm.horizontalAdvance(word) + 26)
        for r in range(rows):
            text = model.data(model.index(r, c))
            if text:
                width = max(width, fm.horizontalAdvance(str(text)) + 14)
        view.setColumnWidth(c, min(width, max_width))
    fit_header_height(view)


def fit_header_height(view: QTableView) -> None:
    """Make the header as tall as its most wrapped title (Qt keeps it one line high)."""
    from PySide6.QtCore import QRect

    model, hh = view.model(), view.horizontalHeader()
    hfm = hh.fontMetrics()
    lines = 1
    for c in range(model.columnCount()):
        text = str(model.headerData(c, Qt.Orientation.Horizontal) or "")
        w = max(20, view.columnWidth(c) - 14)
        rect = hfm.boundingRect(QRect(0, 0, w, 1000), int(Qt.TextFlag.TextWordWrap), text)
        lines = max(lines, min(3, round(rect.height() / max(1, hfm.lineSpacing()))))
    hh.setFixedHeight(lines * hfm.lineSpacing() + 10)


def compact_columns(view: QTableView, widths: dict[str, int]) -> None:
    """Make the named columns (of a :class:`DataFrameModel`) at most ``widths[name]``
    characters wide: one column per annotator for four or five annotators side by side (the
    full header in its tooltip, the cells' values short)."""
    model: Any = view.model()  # a DataFrameModel (column_of), or any other model: skipped
    ch = max(1, view.fontMetrics().averageCharWidth())
    for name, chars in widths.items():
        try:
            c = model.column_of(name)
        except (AttributeError, ValueError):  # not a column of this table
            continue
        if c >= 0:
            view.setColumnWidth(c, min(view.columnWidth(c), ch * chars + 14))


def fit_height_to_rows(view: QTableView, max_height: int, splitter=None) -> None:
    """Ask for the height that shows every row (a grid with one row per annotator, five of
    them and more), at most ``max_height``; the vertical ``splitter`` whose first pane holds
    the view gives that pane the room."""
    view.resizeRowsToContents()
    rows = sum(view.rowHeight(r) for r in range(view.model().rowCount()))
    header = (
        view.horizontalHeader().sizeHint().height() if view.horizontalHeader().isVisible() else 0
    )
    bar = view.horizontalScrollBar().sizeHint().height()
    view.setMinimumHeight(min(max_height, rows + header + bar + 2 * view.frameWidth() + 2))
    if splitter is not None and splitter.count() > 1:
        sizes = splitter.sizes()
        pane = splitter.widget(0)
        need = pane.minimumSizeHint().height()
        if pane.hasHeightForWidth():  # wrapped labels beside the view need their lines
            need = max(need, pane.heightForWidth(pane.width()))
        need = min(need, sum(sizes) - 150)  # the pane below keeps a few rows
        if sizes[0] < need:
            splitter.setSizes([need, sum(sizes) - need, *sizes[2:]])


def select_row(view: QTableView, row: int) -> None:
    """Make ``row`` current and selected, and scroll to it."""
    model = view.model()
    if not 0 <= row < model.rowCount():
        return
    idx = model.index(row, 0)
    sm = view.selectionModel()
    sm.setCurrentIndex(idx, sm.SelectionFlag.ClearAndSelect | sm.SelectionFlag.Rows)
    view.scrollTo(idx)


def current_key(view: QTableView) -> int | None:
    """The source row (:attr:`Role.RowKey`) of the current row, or ``None``."""
    idx = view.currentIndex()
    if not idx.isValid():
        return None
    return int(view.model().data(idx, Role.RowKey))


class ListBar(QWidget):
    """Filter text, *disagreements only* toggle and row count for one list's model."""

    changed = Signal()

    def __init__(
        self,
        model: DataFrameModel,
        noun: str = "rows",
        placeholder: str = "Filter (any column)…",
        disagreements: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        self.noun = noun
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(placeholder)
        self.filter.setClearButtonEnabled(True)
        self.filter.setMinimumWidth(80)
        # focused only when clicked or on Ctrl+F: a tab switch leaves N / P to the list
        self.filter.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.filter.setToolTip("Ctrl+F")
        lay.addWidget(self.filter, 1)
        self.only = QCheckBox("Disagreements only")
        self.only.setToolTip("show only the rows where the annotators disagree")
        self.only.setVisible(disagreements)
        lay.addWidget(self.only)
        self.count = QLabel()
        self.count.setStyleSheet("color: #555")
        lay.addWidget(self.count)
        self._timer = QTimer(self, singleShot=True, interval=200)
        self._timer.timeout.connect(self._apply_text)
        self.filter.textChanged.connect(lambda _t: self._timer.start())
        self.filter.returnPressed.connect(self._apply_text)
        self.only.toggled.connect(self._apply_only)
        model.modelReset.connect(self.update_count)
        model.layoutChanged.connect(self.update_count)
        self.extra_mask: Callable[[], object] | None = None
        self.update_count()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        parent = self.parentWidget()
        if parent is not None and parent.property("find_bar") is None:
            # Ctrl+F in the part of the window this list belongs to (one bar per part)
            parent.setProperty("find_bar", True)
            find = QShortcut(QKeySequence(QKeySequence.StandardKey.Find), parent)
            find.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            find.activated.connect(self.focus_filter)

    def focus_filter(self) -> None:
        self.filter.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter.selectAll()

    def _apply_text(self) -> None:
        self._timer.stop()
        self.model.set_filter(self.filter.text())
        self.changed.emit()

    def _apply_only(self, on: bool) -> None:
        self.model.set_disagreements_only(on)
        self.changed.emit()

    def reapply(self) -> None:
        """After a new snapshot: apply the toggle to it (the text filter is kept by the model)."""
        if self.only.isChecked():
            self.model.set_disagreements_only(True)

    def update_count(self) -> None:
        shown, total = self.model.rowCount(), len(self.model.source_frame)
        with_dis = int((self.model.severity() > 0).sum()) if total else 0
        text = f"{shown:,} of {total:,}" if shown != total else f"{total:,} {self.noun}"
        if not self.only.isHidden():
            text += f", {with_dis:,} disagree"
        self.count.setText(text)
        self.count.setMinimumWidth(self.count.sizeHint().width())
        self.count.setToolTip(
            f"{shown:,} {self.noun} shown of {total:,}; {with_dis:,} with a disagreement"
        )

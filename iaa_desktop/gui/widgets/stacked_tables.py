"""Several small tables one below the other in a scrolling page, each with its title: the
agreement tabs whose tables are short (every one keeps copy and export in its context menu)."""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table


def compact(view, max_rows: int = 14) -> None:
    """Make a short table only as tall as its rows (up to ``max_rows``)."""
    rows = min(view.model().rowCount(), max_rows)
    hh = view.horizontalHeader()
    height = (
        max(hh.sizeHint().height(), hh.minimumHeight())
        + rows * view.verticalHeader().defaultSectionSize()
    )
    scroll = view.horizontalScrollBar().sizeHint().height()
    view.setFixedHeight(height + 2 * view.frameWidth() + scroll + 2)


class StackedTables(QScrollArea):
    """Titled tables in a vertical page; :meth:`set_tables` replaces them all."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.page = QWidget()
        self.lay = QVBoxLayout(self.page)
        self.lay.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.setWidget(self.page)
        self.views: dict[str, object] = {}

    def set_tables(
        self,
        tables: list[tuple[str, str, pd.DataFrame, dict]],
        header: QWidget | None = None,
    ) -> None:
        """``tables``: (name, title, frame, model options) in order."""
        while self.lay.count():
            item = self.lay.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:  # hidden, not unparented: a queued show would make it a window
                w.hide()
                w.deleteLater()
        self.views = {}
        if header is not None:
            self.lay.addWidget(header)
        for name, title, df, opts in tables:
            label = QLabel(f"<b>{title}</b>")
            label.setWordWrap(True)
            self.lay.addWidget(label)
            model = DataFrameModel(df, **opts)
            view = make_table(model, name=name)
            fit_columns(view, max_width=180)
            compact(view)
            self.lay.addWidget(view)
            self.views[name] = view
        self.lay.addStretch(1)

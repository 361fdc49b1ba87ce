"""THE table model of the GUI: formats, right-to-left text, colours, numpy sort keeping persistent
indexes, filters; copy and export from the table view; the model tester on every state."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPersistentModelIndex, Qt
from PySide6.QtWidgets import QApplication

from iaa_desktop.gui.widgets.frame_model import DataFrameModel, Role
from iaa_desktop.gui.widgets.table_view import ListBar, make_table
from tests.gui import user


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "item": ["b", "a", "שלום, עולם.", "c"],
            "A": ["4", "5", "1", ""],
            "B": ["5", "5", "5", "2"],
            "severity": [0.0625, 0.0, 1.0, float("nan")],
            "cohen_kappa_mean": [0.5, float("nan"), -0.25, 1.0],
        }
    )


def test_formats_titles_colours_and_rtl(qtmodeltester) -> None:
    m = DataFrameModel(_frame(), severity_column="severity", label_columns=("A", "B"))
    qtmodeltester.check(m)
    title = lambda c: m.headerData(c, Qt.Orientation.Horizontal)  # noqa: E731
    assert [title(c) for c in range(5)] == [
        "Item",
        "A",
        "B",
        "Severity",
        "Cohen's κ (mean over pairs)",
    ]
    assert "chance" in m.headerData(4, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert m.data(m.index(1, 4)) == "–"  # undefined, and the tooltip says why
    assert "undefined" in m.data(m.index(1, 4), Qt.ItemDataRole.ToolTipRole)
    # right to left: one embedding, aligned right
    assert m.data(m.index(2, 0)).startswith("\u202b")
    assert m.data(m.index(2, 0), Qt.ItemDataRole.TextAlignmentRole) & int(
        Qt.AlignmentFlag.AlignRight
    )
    # the same label value has the same colour in every annotator's column
    five_a = m.data(m.index(1, 1), Qt.ItemDataRole.BackgroundRole).color()
    five_b = m.data(m.index(0, 2), Qt.ItemDataRole.BackgroundRole).color()
    four = m.data(m.index(0, 1), Qt.ItemDataRole.BackgroundRole).color()
    assert five_a == five_b and four != five_a
    # rows are tinted by severity, the worst the strongest
    weak = m.data(m.index(0, 0), Qt.ItemDataRole.BackgroundRole).color()
    strong = m.data(m.index(2, 0), Qt.ItemDataRole.BackgroundRole).color()
    assert strong.alpha() > weak.alpha()
    assert m.data(m.index(1, 0), Qt.ItemDataRole.BackgroundRole) is None  # no disagreement


def test_sort_keeps_persistent_indexes_and_undefined_last(qtmodeltester) -> None:
    m = DataFrameModel(_frame(), severity_column="severity")
    qtmodeltester.check(m)
    keep = QPersistentModelIndex(m.index(2, 0))  # the Hebrew item
    m.sort(4, Qt.SortOrder.AscendingOrder)
    assert [m.value(r, "cohen_kappa_mean") for r in range(3)] == [-0.25, 0.5, 1.0]
    assert np.isnan(m.value(3, "cohen_kappa_mean"))  # undefined last
    assert keep.isValid() and m.value(keep.row(), "item") == "שלום, עולם."
    m.sort(4, Qt.SortOrder.DescendingOrder)
    assert [m.value(r, "cohen_kappa_mean") for r in range(3)] == [1.0, 0.5, -0.25]
    assert np.isnan(m.value(3, "cohen_kappa_mean"))  # still last
    assert m.value(keep.row(), "item") == "שלום, עולם." and m.data(keep, Role.RowKey) == 2
    m.sort(0, Qt.SortOrder.AscendingOrder)  # text: case-folded order
    assert list(m.frame["item"])[:3] == ["a", "b", "c"]
    qtmodeltester.check(m)


def test_filters_combine(qtbot, qtmodeltester) -> None:
    m = DataFrameModel(_frame(), severity_column="severity")
    bar = ListBar(m, noun="items")
    qtbot.addWidget(bar)
    bar.show()
    user.check(qtbot, bar.only, True)
    assert set(m.frame["item"]) == {"b", "שלום, עולם."}
    m.set_row_mask(np.array([True, True, False, True]))
    assert list(m.frame["item"]) == ["b"]
    m.set_row_mask(None)
    user.type_filter(qtbot, bar.filter, "עולם")
    qtbot.waitUntil(lambda: list(m.frame["item"]) == ["שלום, עולם."])
    assert list(m.frame["item"]) == ["שלום, עולם."]
    assert "1 of 4" in bar.count.text()
    qtmodeltester.check(m)


def test_copy_and_export(qtbot, tmp_path) -> None:
    from openpyxl import load_workbook

    df = pd.DataFrame({"item": ["=cmd()", "x"], "cohen_kappa": [0.5, 0.25]})
    m = DataFrameModel(df)
    view = make_table(m, name="t")
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    user.click_row(qtbot, view, 1)
    qtbot.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ShiftModifier)  # the whole row
    assert view.copy_selection() == "x\t0.250"
    assert QApplication.clipboard().text() == "x\t0.250"
    assert view.copy_table().splitlines()[0] == "Item\tCohen's κ"
    csv = view.export(tmp_path / "t.csv")
    text = csv.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "Item,Cohen's κ" and "'=cmd()" in text  # formula neutralised
    xlsx = view.export(tmp_path / "t.xlsx")
    ws = load_workbook(xlsx).active
    assert [c.value for c in ws[1]] == ["Item", "Cohen's κ"]
    assert ws["A2"].value == "'=cmd()" and ws["B2"].value == 0.5
    menu = view.context_menu(m.index(0, 0))
    assert [a.text() for a in menu.actions() if a.text()] == [
        "Copy cell",
        "Copy selected rows",
        "Copy table",
        "Export table as CSV…",
        "Export table as Excel (XLSX)…",
    ]

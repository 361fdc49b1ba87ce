"""The table kind's views: items in context, a heatmap or coincidence cell lists its items."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from PySide6.QtCore import QPoint, Qt

from iaa_desktop.cli import compute
from iaa_desktop.gui.kinds.table import create_panels
from tests.gui import user

RATINGS = (
    Path(__file__).resolve().parents[2]
    / "iaa_desktop"
    / "resources"
    / "examples"
    / "judgments"
    / "ratings.csv"
)


def _panels(qtbot):
    r = compute("table", [RATINGS], {"level": "ordinal", "group_by": "topic", "interval": "none"})
    panels = dict(create_panels(r, SimpleNamespace(cache={}, session=None)))
    for w in panels.values():
        qtbot.addWidget(w)
        w.resize(1000, 650)
        w.show()
    return r, panels


def test_items_in_context_and_the_heatmap_lists_a_pairs_items(qtbot) -> None:
    r, panels = _panels(qtbot)
    ov = panels["Overview"]
    qtbot.waitUntil(lambda: ov.items_view.currentIndex().isValid(), timeout=3000)
    # ranked by severity, the item's text in the list and in the detail with every label
    sev = ov.items_model.frame["severity"].to_numpy()
    assert sev[0] == max(s for s in sev if s == s)
    assert "text" in ov.items_model.columns()
    first = ov.items_model.record(0)
    assert first["text"] in ov.detail.toPlainText()
    assert all(a in ov.detail.toPlainText() for a in r.annotators)
    # the summary has the interpretation column
    assert "interpretation" in ov.summary.model.columns()
    # a click on the Ada × Bea cell lists the items both labelled
    qtbot.waitUntil(lambda: ov.heatmap.cell_centre(0, 2) is not None, timeout=3000)
    centre = ov.heatmap.cell_centre(0, 2).toPoint()
    qtbot.mouseClick(ov.heatmap, Qt.MouseButton.LeftButton, pos=QPoint(centre))
    a, b = r.annotators[0], r.annotators[2]
    shown = ov.items_model.frame
    assert len(shown) == int(((r.items[a] != "") & (r.items[b] != "")).sum())
    assert (shown[a] != "").all() and (shown[b] != "").all()
    assert "Show all items" == ov.scope_clear.text() and ov.scope_clear.isVisible()
    user.press(qtbot, ov.scope_clear)
    assert ov.items_model.rowCount() == len(r.items)


def test_a_coincidence_cell_lists_its_items(qtbot) -> None:
    r, panels = _panels(qtbot)
    cats = panels["Categories"]
    cats.show_cell_items(0, 4)  # one annotator said 1, another 5
    rows = cats.items_model.frame
    labels = rows[list(r.annotators)].astype(str)
    assert len(rows) and all(("1" in set(v)) and ("5" in set(v)) for v in labels.to_numpy())
    assert "1 and 5" in cats.cell_label.text()

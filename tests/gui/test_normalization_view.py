"""The normalization view, standalone with pytest-qt, from real results of ``KIND.run``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt

from iaa_desktop.core.kinds.normalization.compare import KIND
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.gui.kinds.normalization import (
    CharacterGridModel,
    NormalizationPanel,
    create_panels,
)
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from tests.gui import user

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "normalization"


def _result(folder: Path):
    return run_to_end(KIND.run([folder], {}))


def _context():
    return SimpleNamespace(session=None, cache={})


def test_tiny_grid_shows_table4(qtbot):
    res = _result(FIX / "tiny")
    panels = create_panels(res, _context())
    assert [t for t, _ in panels] == ["Interlinear", "Agreement", "Occurrences"]
    panel: NormalizationPanel = panels[0][1]
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    user.click_anchor(qtbot, panel.text_view, "tok:0")
    assert panel.current == 0
    m = panel.grid_model
    assert m.columnCount() == 6 and m.rowCount() == 2
    assert [m.headerData(c, Qt.Orientation.Horizontal) for c in range(6)] == list("gewain")
    row = lambda r: [m.index(r, c).data() for c in range(6)]  # noqa: E731
    assert row(0) == ["_", "_", "_", "e", "_", "_t"]
    assert row(1) == ["∅", "∅", "_", "e", "_", "_te"]
    user.choose_text(qtbot, panel.mode_combo, "Full")
    assert row(0) == ["g", "e", "w", "e", "i", "nt"]
    assert row(1) == ["∅", "∅", "w", "e", "i", "nte"]
    # cells where annotators differ are highlighted, the others are not
    assert m.differs(0) and not m.differs(3)
    assert m.index(0, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert m.index(0, 3).data(Qt.ItemDataRole.BackgroundRole) is None


def test_keyboard_next_previous_and_filters(qtbot):
    res = _result(FIX / "marks")
    ctx = _context()
    panel: NormalizationPanel = create_panels(res, ctx)[0][1]
    qtbot.addWidget(panel)
    panel.show()
    user.choose_index(qtbot, panel.text_combo, 0)  # all texts
    # N / P stop where the text is tinted: a type-only difference only when asked for
    idx = panel.disagreement_indices().tolist()
    assert idx == sorted(idx) and len(idx) == 3
    user.check(qtbot, panel.type_tint, True)
    idx = panel.disagreement_indices().tolist()
    assert idx == sorted(idx) and len(idx) == 4
    # the panel opened on the first disagreement of the list; from no selection, N is the first
    # in text order
    assert panel.current is not None
    # from the first token (a click on it), N is the first disagreement after it in text order
    assert idx[0] > 0
    user.click_anchor(qtbot, panel.text_view, "tok:0")
    assert panel.current == 0
    qtbot.keyClick(panel.text_view, Qt.Key.Key_N)
    assert panel.current == idx[0]
    qtbot.keyClick(panel.text_view, Qt.Key.Key_N)
    assert panel.current == idx[1]
    qtbot.keyClick(panel.text_view, Qt.Key.Key_P)
    assert panel.current == idx[0]
    # the list's selection follows N / P
    row = panel.dis_view.currentIndex().row()
    assert int(panel.dis_model.value(row, "index")) == idx[0]
    user.choose_text(qtbot, panel.subset_combo, "STRICT")
    assert set(panel.disagreement_indices()) <= set(res.changed.all(axis=1).nonzero()[0])
    user.choose_text(qtbot, panel.subset_combo, "ALL")
    user.choose_index(qtbot, panel.mod_combo, 1)
    assert panel.dis_model.rowCount() == 1  # zehant: EXT vs SEM
    # the modernization layer appears beneath the annotators
    k = res.orig.index("zehant")
    user.click_anchor(qtbot, panel.text_view, f"tok:{k}")
    assert panel.current == k
    names = [
        panel.grid_model.headerData(r, Qt.Orientation.Vertical)
        for r in range(panel.grid_model.rowCount())
    ]
    assert names == ["ann_1", "ann_2", "ann_1 · mod", "ann_2 · mod"]
    # a recompute keeps the widget and the selection
    again = create_panels(_result(FIX / "marks"), ctx)[0][1]
    assert again is panel and panel.current == k


def test_combining_marks_stay_in_their_unit(qtbot):
    res = _result(FIX / "marks")
    panel = NormalizationPanel()
    qtbot.addWidget(panel)
    panel.set_result(res)
    panel.show()
    qtbot.waitExposed(panel)
    user.choose_index(qtbot, panel.text_combo, 0)  # all texts
    k = res.orig.index("vn\u0304")
    user.click_anchor(qtbot, panel.text_view, f"tok:{k}")
    assert panel.current == k
    m = panel.grid_model
    assert [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())] == [
        "v",
        "n\u0304",
    ]
    assert "vn\u0304" in panel.text_view.toPlainText()


def test_models_pass_the_qt_model_tester(qtmodeltester):
    res = _result(FIX / "marks")
    grid = CharacterGridModel()
    grid.set_token(res.token_units(1))
    qtmodeltester.check(grid)
    qtmodeltester.check(DataFrameModel(res.disagreements))


def test_five_annotator_screenshot(qtbot, tmp_path):
    from tests.conftest import shared_path

    res = _result(shared_path("normalization"))
    panels = create_panels(res, _context())
    panel: NormalizationPanel = panels[0][1]
    qtbot.addWidget(panel)
    panel.resize(1400, 900)
    panel.show()
    qtbot.waitExposed(panel)
    user.focus(qtbot, panel.text_view)
    qtbot.keyClick(panel.text_view, Qt.Key.Key_N)
    assert panel.current is not None and panel.grid_model.rowCount() >= 5
    img = panel.grab()
    assert img.width() > 0
    img.save(str(tmp_path / "normalization.png"))

"""The multi-label view, standalone with pytest-qt, on real results of the kind."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPoint, Qt

from iaa_desktop.core.kinds.multilabel.compare import KIND
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.gui import kinds as views
from iaa_desktop.gui.kinds.multilabel import create_panels
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from tests.conftest import FIXTURES, shared_path
from tests.gui import user

FIX = FIXTURES / "multilabel"


@pytest.fixture(scope="module")
def fixture_result():
    return run_to_end(KIND.run([FIX / "long.tsv", FIX / "texts.tsv"], {}))


def _panels(result, cache=None):
    ctx = SimpleNamespace(session=None, cache={} if cache is None else cache)
    return ctx, dict(create_panels(result, ctx))


def test_registered() -> None:
    assert views.view_module("multilabel") is sys.modules["iaa_desktop.gui.kinds.multilabel"]


def test_models_pass_the_model_tester(qtbot, qtmodeltester, fixture_result) -> None:
    ctx, panels = _panels(fixture_result)
    dp = panels["Decomposition"]
    qtmodeltester.check(dp.model)
    qtmodeltester.check(panels["Multi-label agreement"].per_label_model)
    qtmodeltester.check(panels["Partition items"].first_model)


def test_tabs_and_tables(qtbot, fixture_result) -> None:
    ctx, panels = _panels(fixture_result)
    assert list(panels) == ["Items", "Multi-label agreement", "Decomposition", "Partition items"]
    for w in panels.values():
        qtbot.addWidget(w)
    ag = panels["Multi-label agreement"]
    assert ag.per_label_model.rowCount() == 3
    assert ag.counts_model.rowCount() == 3
    assert ag.comb_model.rowCount() == 8
    dp = panels["Decomposition"]
    assert dp.model.rowCount() == 127
    # the chosen S1 = {000} is selected at first
    assert dp.selected_partition() is not None and np.flatnonzero(
        dp.selected_partition()
    ).tolist() == [0]


def test_sort_and_filter(qtbot, fixture_result) -> None:
    _, panels = _panels(fixture_result)
    dp = panels["Decomposition"]
    qtbot.addWidget(dp)
    dp.show()
    qtbot.waitExposed(dp)
    col = dp.model.column_of("rank 2nd")
    user.choose_index(qtbot, dp.sort_box, 1)
    ranks = [dp.model.data(dp.model.index(r, col), Qt.ItemDataRole.DisplayRole) for r in range(5)]
    assert ranks == ["1", "2", "3", "4", "5"]
    user.choose_text(qtbot, dp.size_box, "2")
    assert dp.model.rowCount() == 28  # C(8, 2)
    assert set(dp.model.frame["|S1|"]) == {2}
    # the scatter shows only the filtered partitions
    assert len(dp._point_rows) <= 28


def test_pick_selects_row_and_items_follow(qtbot, fixture_result) -> None:
    _, panels = _panels(fixture_result)
    dp, ip = panels["Decomposition"], panels["Partition items"]
    qtbot.addWidget(dp)
    qtbot.addWidget(ip)
    dp.resize(1000, 600)
    dp.show()
    qtbot.waitExposed(dp)
    dp.canvas.draw()
    # a point of the scatter with no other point near it, clicked where it is drawn
    points = dp.ax.transData.transform(dp.ax.collections[0].get_offsets())
    gaps = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
    np.fill_diagonal(gaps, np.inf)
    target_point = int(np.argmax(gaps.min(axis=1)))
    x, y = points[target_point] / dp.canvas.device_pixel_ratio
    with qtbot.waitSignal(dp.partition_selected, timeout=1000) as blocker:
        qtbot.mouseClick(
            dp.canvas,
            Qt.MouseButton.LeftButton,
            pos=QPoint(round(x), round(dp.canvas.height() - y)),
        )
    row = int(dp._point_rows[target_point])
    assert blocker.args == [row]
    current = dp.view.currentIndex()
    assert int(dp.model.frame["row"].iloc[current.row()]) == row
    # the items tab shows that partition
    first, second = fixture_result.partition_items(0, fixture_result.partitions[row])
    assert ip.first_model.rowCount() == len(first)
    assert ip.second_model.rowCount() == len(second)
    # selecting a table row moves the selection back
    user.click_row(qtbot, dp.view, 0)
    assert dp._selected == int(dp.model.frame["row"].iloc[0])


def test_detail_is_right_to_left_for_hebrew(qtbot, fixture_result) -> None:
    _, panels = _panels(fixture_result)
    ip = panels["Partition items"]
    qtbot.addWidget(ip)
    # a pair that disagrees on T04 (Hebrew) and S1 = the first one's code: T04 is a first-level item
    r = fixture_result
    i = r.data.items.index("T04")
    pairs = [
        p
        for p, (a, b) in enumerate(r.pair_index)
        if min(r.data.codes[i, [a, b]]) >= 0 and r.data.codes[i, a] != r.data.codes[i, b]
    ]
    if not pairs:
        pytest.skip("no pair disagrees on T04 in the fixture")
    a, _ = r.pair_index[pairs[0]]
    s1 = np.zeros(8, dtype=bool)
    s1[r.data.codes[i, a]] = True
    # the partition {that code} vs the rest, picked in the Decomposition table (size 1)
    dp = panels["Decomposition"]
    qtbot.addWidget(dp)
    dp.resize(1000, 600)
    dp.show()
    qtbot.waitExposed(dp)
    user.choose_text(qtbot, dp.size_box, "1")
    rows = dp.model.frame["row"].to_numpy(dtype=int)
    hit = [
        k
        for k, p in enumerate(rows)
        if (r.partitions[p] == s1).all() or (r.partitions[p] == ~s1).all()
    ]
    assert hit, "the partition is offered"
    user.click_row(qtbot, dp.view, hit[0])
    qtbot.waitUntil(lambda: ip.s1 is not None and ((ip.s1 == s1).all() or (ip.s1 == ~s1).all()))
    ip.show()
    qtbot.waitExposed(ip)
    user.choose_index(qtbot, ip.pair_box, pairs[0])  # the pair chosen by hand shows it
    rows = ip.first_model.frame
    j = int(np.flatnonzero(rows["item"].to_numpy() == "T04")[0])
    user.click_row(qtbot, ip.first_view, j)
    html = ip.detail.toHtml()
    assert "הממשלה" in ip.detail.toPlainText()
    assert 'dir="rtl"' in html or "dir='rtl'" in html or "right" in html


def test_selection_survives_recompute(qtbot, fixture_result) -> None:
    cache: dict = {}
    _, panels = _panels(fixture_result, cache)
    dp = panels["Decomposition"]
    qtbot.addWidget(dp)
    dp.resize(1000, 600)
    dp.show()
    qtbot.waitExposed(dp)
    user.click_row(qtbot, dp.view, 42)
    chosen = dp.selected_partition()
    assert (chosen == fixture_result.partitions[int(dp.model.frame["row"].iloc[42])]).all()
    again = run_to_end(KIND.run([FIX / "long.tsv", FIX / "texts.tsv"], {}))
    _, panels2 = _panels(again, cache)
    assert panels2["Decomposition"] is dp
    assert (dp.selected_partition() == chosen).all()


def test_frame_model_formats_undefined(qapp) -> None:
    import pandas as pd

    m = DataFrameModel(pd.DataFrame({"x": [0.5, float("nan")], "p": [0.25, 1.0]}), percent=("p",))
    assert m.data(m.index(0, 0)) == "0.500"
    assert m.data(m.index(1, 0)) == "–"  # undefined, with a tooltip saying why
    assert "undefined" in m.data(m.index(1, 0), Qt.ItemDataRole.ToolTipRole)
    assert m.data(m.index(0, 1)) == "25.0%"
    m.sort(0, Qt.SortOrder.DescendingOrder)
    assert m.data(m.index(1, 0)) == "–"  # undefined stays last


def test_neat_screens(qtbot, tmp_path) -> None:
    d = shared_path("multilabel")
    r = run_to_end(KIND.run([d / "annotations.tsv"], {"texts": str(d / "sentences.tsv")}))
    _, panels = _panels(r)
    dp = panels["Decomposition"]
    qtbot.addWidget(dp)
    dp.resize(1400, 900)
    dp.show()
    assert dp.model.rowCount() == 127
    assert "Exhaustive" in dp.info.text()
    assert not dp.grab().isNull()

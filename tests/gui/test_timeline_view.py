"""The timeline of a time-aligned study (ELAN): a lane per annotator, zoom with the keys and the
wheel, a click on a unit selects its disagreement in the table."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.gui.kinds.spans import create_panels
from iaa_desktop.gui.main_window import ViewContext
from iaa_desktop.gui.widgets.timeline import AXIS_HEIGHT, LANE_HEIGHT, time_text
from tests.conftest import FIXTURES
from tests.gui import user


def _panels(qtbot):
    result = run_to_end(
        get_kind("spans").run([FIXTURES / "time" / "two_coders.eaf"], {"n_resamples": 20})
    )
    panels = create_panels(result, ViewContext())
    panel = panels[0][1]
    qtbot.addWidget(panel)
    panel.resize(1280, 720)
    panel.show()
    qtbot.waitExposed(panel)
    return result, panels, panel


def _block_point(timeline, lane: int, ms: int) -> QPoint:
    x = timeline.canvas.x_of(ms) - timeline.horizontalScrollBar().value()
    return QPoint(int(x), AXIS_HEIGHT + lane * LANE_HEIGHT + LANE_HEIGHT // 2)


def test_timeline_replaces_the_text_and_a_click_selects_the_row(qtbot):
    result, panels, panel = _panels(qtbot)
    assert panels[0][0] == "Timeline"
    timeline = panel.timeline
    assert timeline.isVisible() and not panel.text.isVisible()
    assert timeline.data.lanes == ["gesture-Dana", "gesture-Eli"]
    assert timeline.data.duration == 10000
    # Eli's beat 8000–10000 ms, which Dana did not mark: its group's row gets selected
    dis = result.frames["disagreements"]
    beat = dis[(dis["gesture-Dana"] == "") & dis["gesture-Eli"].str.startswith("beat")]
    group = int(beat["group"].iloc[0])
    other = next(r for r, g in enumerate(panel.dis_model.frame["group"]) if int(g) != group)
    user.click_row(qtbot, panel.dis_view, other)
    assert panel.dis_view.currentIndex().row() == other
    qtbot.mouseClick(
        timeline.canvas, Qt.MouseButton.LeftButton, pos=_block_point(timeline, 1, 9000)
    )
    row = panel.dis_view.currentIndex().row()
    assert int(panel.dis_model.frame["group"].iloc[row]) == group
    assert timeline.selected == group


def test_zoom_with_keys_and_ctrl_wheel_keeps_the_time_under_the_pointer(qtbot):
    _result, _panels_, panel = _panels(qtbot)
    timeline = panel.timeline
    user.activate(qtbot, timeline)
    before = timeline.px_per_ms
    timeline.setFocus()
    qtbot.keyClick(timeline, Qt.Key.Key_Plus)
    qtbot.keyClick(timeline, Qt.Key.Key_Plus)
    assert timeline.px_per_ms == pytest_approx(before * 2.25)
    assert timeline.canvas.width() > timeline.viewport().width()
    qtbot.keyClick(timeline, Qt.Key.Key_Minus)
    assert timeline.px_per_ms == pytest_approx(before * 1.5)


def pytest_approx(x):
    import pytest

    return pytest.approx(x, rel=1e-9)


def test_time_labels():
    assert time_text(0, 5000) == "0:00"
    assert time_text(61_500, 500) == "1:01.5"
    assert time_text(3_723_004, 1) == "1:02:03.004"


def test_a_block_says_who_what_when_and_how_it_agrees(qtbot):
    _result, _p, panel = _panels(qtbot)
    data = panel.timeline.data
    k = next(i for i in range(len(data.label)) if data.label[i] == "beat" and data.lane[i] == 1)
    assert data.tooltip(k) == "gesture-Eli: beat 8.000–10.000 s — only some"


def test_many_units_in_view_are_drawn_as_coverage(qtbot):
    import numpy as np
    from PySide6.QtGui import QColor

    from iaa_desktop.gui.widgets.timeline import MAX_BLOCKS, TimelineData, TimelineView

    n = MAX_BLOCKS + 500
    start = np.arange(n, dtype=np.int64) * 1000
    data = TimelineData(
        lanes=["agree", "disagree"],
        duration=n * 1000,
        lane=np.arange(n, dtype=np.int64) % 2,
        start=start,
        end=start + 600,
        label=["x"] * n,
        fill=["#ffffff"] * n,
        border=["#2e7d32", "#c00000"] * (n // 2),
        group=np.arange(n, dtype=np.int64),
        note=["agree", "label"] * (n // 2),
    )
    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(900, 200)
    view.show()
    qtbot.waitExposed(view)
    view.set_data(data)
    image = view.canvas.grab().toImage()
    row = lambda lane: [  # noqa: E731
        QColor(image.pixel(x, AXIS_HEIGHT + lane * LANE_HEIGHT + LANE_HEIGHT // 2)).name()
        for x in range(130, 880)
    ]
    assert "#9e9e9e" in row(0) and "#c00000" not in row(0)
    assert "#c00000" in row(1)

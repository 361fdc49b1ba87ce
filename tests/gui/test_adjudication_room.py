"""Five annotators in the adjudication window at 1,280 × 720 with a large presentation zoom,
in the window's own layout (not the full-screen meeting one): the side panel folds away so that
every annotator's version can be read in the queue, the queue keeps a useful width at 200 %,
and the unit's page shows all five versions."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from iaa_desktop.cli import compute
from iaa_desktop.gui import presentation
from iaa_desktop.gui.adjudication import open_adjudication
from tests.conftest import shared_path
from tests.gui import user

CTRL = Qt.KeyboardModifier.ControlModifier
#: the client area of a 1,280 × 720 screen under a window manager's title bar and borders
CLIENT = (1272, 684)


@pytest.fixture
def five(qtbot, tmp_path):
    d = shared_path("normalization")
    result = compute("normalization", sorted(d.glob("annotator_*.tsv")), {})
    dlg = open_adjudication(None, result, None, store_path=tmp_path / "s.sqlite", show=False)
    qtbot.addWidget(dlg)
    dlg.resize(*CLIENT)  # the screen's size: the offscreen platform has none
    dlg.show()
    qtbot.waitExposed(dlg)
    user.activate(qtbot, dlg)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dlg.panel.queue_view, timeout=5000)
    yield dlg
    presentation.zoom().set_factor(1.0)  # the zoom is the application's: back for other tests
    dlg.close()


def _zoom_to(qtbot, panel, level: float) -> None:
    while presentation.factor() < level - 1e-6:
        qtbot.keyClick(panel.queue_view, Qt.Key.Key_Equal, CTRL)
    while presentation.factor() > level + 1e-6:
        qtbot.keyClick(panel.queue_view, Qt.Key.Key_Minus, CTRL)
    assert presentation.factor() == pytest.approx(level)


def _version_widths(panel) -> list[int]:
    view, model = panel.queue_view, panel.queue_model
    return [view.columnWidth(c) for c in range(3, model.decision_column())]


def _chars(panel) -> int:
    return panel.queue_view.fontMetrics().averageCharWidth()


def test_at_150_percent_the_queue_shows_five_versions_readably(qtbot, five) -> None:
    panel = five.panel
    _zoom_to(qtbot, panel, 1.5)
    view = panel.queue_view
    last = panel.queue_model.decision_column() - 1

    def readable() -> bool:
        # every version column has room for six characters at least (not "…" alone), all of
        # them beside each other in the queue, none scrolled out of sight
        right = view.columnViewportPosition(last) + view.columnWidth(last)
        return min(_version_widths(panel)) >= 6 * _chars(panel) and (
            right <= view.viewport().width()
        )

    qtbot.waitUntil(readable, timeout=5000)
    assert len(_version_widths(panel)) == 5
    # the side panel gave its room; the toolbar's button says so and brings it back
    assert not panel.side.isVisible()
    button = panel.toolbar.side_button
    assert not button.isChecked()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.side.isVisible() and panel.side.width() > 0, timeout=5000)
    assert button.isChecked()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.side.isVisible(), timeout=5000)
    # back at 100 % the side panel has its room again
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # shown: the zoom decides again
    _zoom_to(qtbot, panel, 1.0)
    qtbot.waitUntil(lambda: panel.side.isVisible() and panel.side.width() > 0, timeout=5000)


def test_at_200_percent_the_queue_keeps_a_useful_width(qtbot, five) -> None:
    panel = five.panel
    _zoom_to(qtbot, panel, 2.0)
    ch = _chars(panel)
    view = panel.queue_view
    # the state, the unit, the severity and versions of five characters at least (the queue
    # scrolls sideways when they do not all fit)
    qtbot.waitUntil(lambda: view.width() >= 30 * ch, timeout=5000)
    qtbot.waitUntil(lambda: min(_version_widths(panel)) >= 5 * ch, timeout=5000)
    # and the unit's side keeps its buttons
    assert panel.next_button.isVisible() and panel.next_button.width() > 0


def test_at_150_percent_the_unit_page_shows_every_version(qtbot, five) -> None:
    panel = five.panel
    _zoom_to(qtbot, panel, 1.5)
    browser = panel.context_view

    def visible(name: str) -> bool:
        doc = browser.document()
        cursor = doc.find(name)
        if cursor.isNull():
            return False
        rect = browser.cursorRect(cursor)
        return rect.top() >= 0 and rect.bottom() <= browser.viewport().height()

    names = panel.session.display_names()
    assert len(names) == 5
    qtbot.waitUntil(lambda: all(visible(n) for n in names), timeout=5000)
    # on the next unit too
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_N)
    qtbot.waitUntil(lambda: all(visible(n) for n in names), timeout=5000)

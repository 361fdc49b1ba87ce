"""Five annotators in the adjudication window at 150 %: every control grows with the zoom (the
decide buttons and the legend too), and the queue's column titles tell the annotators apart."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QLabel

from iaa_desktop.cli import compute
from iaa_desktop.gui import presentation
from iaa_desktop.gui.adjudication import open_adjudication
from tests.conftest import shared_path
from tests.gui import user

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def five(qtbot, tmp_path):
    d = shared_path("normalization")
    result = compute("normalization", sorted(d.glob("annotator_*.tsv")), {})
    dlg = open_adjudication(None, result, None, store_path=tmp_path / "s.sqlite", show=True)
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    user.activate(qtbot, dlg)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dlg.panel.queue_view, timeout=5000)
    yield dlg
    presentation.zoom().set_factor(1.0)  # the zoom is the application's: back for other tests
    dlg.close()


def test_every_control_grows_with_the_zoom(qtbot, five) -> None:
    panel = five.panel
    legend = next(w for w in panel.findChildren(QLabel) if w.text().startswith("• to decide"))
    for _ in range(3):  # 110 %, 125 %, 150 %
        qtbot.keyClick(panel.queue_view, Qt.Key.Key_Equal, CTRL)
    assert presentation.factor() == 1.5
    size = QApplication.font().pointSizeF()
    buttons = panel._choice_buttons
    assert len(buttons) >= 5
    for widget in (*buttons, legend, panel.toolbar.filter_combo):
        assert widget.font().pointSizeF() == pytest.approx(size), widget
    # the next unit's buttons too
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_N)
    qtbot.waitUntil(lambda: panel._choice_buttons and panel._choice_buttons[0].isVisible())
    assert panel._choice_buttons[0].font().pointSizeF() == pytest.approx(size)
    # the unit's label keeps its bold with the new size
    assert panel.unit_label.font().bold()
    assert panel.unit_label.font().pointSizeF() == pytest.approx(size)


def test_the_queue_titles_tell_five_annotators_apart(qtbot, five) -> None:
    model = five.panel.queue_model
    names = five.panel.session.display_names()
    titles = [model.headerData(3 + k, Qt.Orientation.Horizontal) for k in range(len(names))]
    assert titles == ["…1", "…2", "…3", "…4", "…5"]
    tips = [
        model.headerData(3 + k, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        for k in range(len(names))
    ]
    assert all(t.startswith(n + ":") for t, n in zip(tips, names))
    # the agreement beside the queue cuts names in the middle, keeping their ends apart
    assert five.panel.agreement_view.textElideMode() == Qt.TextElideMode.ElideMiddle
    # the unit column does not repeat the group (its own column)
    first = model.data(model.index(0, 1))
    group = model.data(model.index(0, 2))
    assert not first.strip("\u2068\u2069").startswith(group.strip("\u2068\u2069") + "/")


def test_deciding_fast_puts_no_button_on_the_screen_as_a_window(qtbot, five) -> None:
    """Keys pressed faster than the window repaints: the buttons of the units passed on the way
    are removed without ever being shown as windows of their own."""
    from PySide6.QtCore import QObject
    from PySide6.QtWidgets import QPushButton

    shown_as_window = []

    class Watch(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Show and isinstance(obj, QPushButton) and obj.isWindow():
                shown_as_window.append(obj.text())
            return False

    watch = Watch()
    QApplication.instance().installEventFilter(watch)
    panel = five.panel
    done = panel.session.progress()[0]
    try:
        for _ in range(4):  # no event loop between the keys, as when a person types ahead
            press = QKeyEvent(
                QEvent.Type.KeyPress, Qt.Key.Key_1, Qt.KeyboardModifier.NoModifier, "1"
            )
            QApplication.sendEvent(panel.queue_view, press)
        qtbot.wait(100)
    finally:
        QApplication.instance().removeEventFilter(watch)
    assert panel.session.progress()[0] == done + 4
    assert not shown_as_window
    assert all(b.isVisible() for b in panel._choice_buttons)


def test_the_same_decision_again_leaves_nothing_to_undo(qtbot, five) -> None:
    """Pressing 1 on a unit decided so already moves on; Ctrl+Z then undoes the decision made,
    not a repetition of it."""
    panel = five.panel
    first = panel.current
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_1)
    assert panel.session.is_decided(first)
    user.go_to_unit(qtbot, panel, first)  # back to it, in the list of all units
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_1)  # the same again
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_Z, CTRL)
    assert not panel.session.is_decided(first)
    assert panel.current == first


def test_zoomed_tables_keep_every_number_whole_and_names_apart(qtbot, window) -> None:
    """The Psalms study at 150 %: the columns grow with the text, so no number is cut, and names
    that share a beginning are cut in the middle."""
    from PySide6.QtWidgets import QTableView

    d = shared_path("psalms-coref")
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        window.open_inputs([d / "A", d / "B"], "coref", {})
    window.show()
    qtbot.waitExposed(window)
    user.activate(qtbot, window)
    try:
        for _ in range(3):
            qtbot.keyClick(window, Qt.Key.Key_Equal, CTRL)
        assert presentation.factor() == 1.5
        tables = [v for v in window.tabs.currentWidget().findChildren(QTableView) if v.isVisible()]
        assert tables
        cut = []
        for view in tables:
            model, fm = view.model(), view.fontMetrics()
            last = model.columnCount() - 1
            for c in range(last):  # the last column stretches
                if view.isColumnHidden(c):
                    continue
                for r in range(min(10, model.rowCount())):
                    text = str(model.index(r, c).data() or "")
                    if text.replace(".", "", 1).replace("-", "", 1).isdigit():
                        if fm.horizontalAdvance(text) + 6 > view.columnWidth(c):
                            cut.append((view.objectName(), c, text))
        assert not cut, cut
        assert all(v.textElideMode() == Qt.TextElideMode.ElideMiddle for v in tables)
    finally:
        presentation.zoom().set_factor(1.0)


def test_the_agreement_beside_the_queue_shows_every_figure_whole(qtbot, five) -> None:
    panel = five.panel
    view, model = panel.agreement_view, panel.agreement_model
    qtbot.waitUntil(lambda: model.rowCount() == 5, timeout=10000)
    five.resize(1280, 720)
    for _ in range(3):  # 150 %
        qtbot.keyClick(panel.queue_view, Qt.Key.Key_Equal, CTRL)
    # the side panel folded away to give the queue room: brought back by its button
    qtbot.waitUntil(lambda: not panel.side.isVisible(), timeout=5000)
    qtbot.mouseClick(panel.toolbar.side_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.viewport().width() > 0, timeout=5000)
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_1)  # a decision: the figures are shown again
    qtbot.waitUntil(lambda: panel.session.progress()[0] > 0)
    qtbot.wait(300)
    fm = view.fontMetrics()
    widths = [view.columnWidth(c) for c in range(model.columnCount())]
    assert sum(widths) <= view.viewport().width() + 1, (widths, view.viewport().width())
    for c in range(1, model.columnCount()):
        for r in range(model.rowCount()):
            text = str(model.index(r, c).data() or "")
            assert fm.horizontalAdvance(text) + 6 <= widths[c], (c, text, widths[c])


def test_a_narrow_queue_never_hides_part_of_a_severity(qtbot, five) -> None:
    """At 150 % beside the side panels, five annotators do not fit the queue: it scrolls, and
    the severity stays whole where the queue begins."""
    panel = five.panel
    view, model = panel.queue_view, panel.queue_model
    five.resize(1280, 720)
    for _ in range(3):  # 150 %
        qtbot.keyClick(panel.queue_view, Qt.Key.Key_Equal, CTRL)
    qtbot.wait(200)
    hh = view.horizontalHeader()
    severity = model.columnCount() - 1
    left = hh.sectionViewportPosition(severity)
    assert 0 <= left and left + hh.sectionSize(severity) <= view.viewport().width()
    fm = view.fontMetrics()
    assert hh.sectionSize(severity) >= fm.horizontalAdvance("0.00") + 10
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_0, CTRL)  # 100 %: back in its place, last
    qtbot.waitUntil(lambda: hh.visualIndex(severity) == severity)

"""The window's first paint is signalled once, whether it shows the start page or a study opened
at start; the start-up warm-up follows it in both cases."""

from __future__ import annotations

from iaa_desktop.gui.app import create_main_window, example_study
from iaa_desktop.gui.main_window import MainWindow


def test_the_first_paint_is_signalled_on_the_start_page(qtbot, settings, tmp_path):
    w = MainWindow(settings=settings, data_dir=tmp_path / "user-data", warm_up=False)
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.first_painted, timeout=10000):
        w.show()
    assert w.stack.currentWidget() is w.start_page


def test_the_first_paint_and_the_warm_up_follow_a_study_opened_at_start(qtbot, settings, tmp_path):
    study = example_study("judgments")
    assert study is not None
    w = create_main_window(settings=settings, inputs=[study], data_dir=tmp_path / "user-data")
    qtbot.addWidget(w)
    assert w.session.study is not None  # the study is open before the window is shown
    with qtbot.waitSignals([w.first_painted, w.session.warmed_up], timeout=60000):
        w.show()
    assert w.session.is_warm
    qtbot.waitUntil(lambda: not w.session.running, timeout=60000)
    w.session.cancel()


def test_the_first_paint_is_signalled_once(qtbot, settings, tmp_path):
    w = MainWindow(settings=settings, data_dir=tmp_path / "user-data", warm_up=False)
    qtbot.addWidget(w)
    seen: list[int] = []
    w.first_painted.connect(lambda: seen.append(1))
    with qtbot.waitSignal(w.first_painted, timeout=10000):
        w.show()
    w.resize(w.width() + 40, w.height() + 30)
    w.repaint()
    qtbot.wait(50)
    assert seen == [1]

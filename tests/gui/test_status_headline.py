"""The status bar's headline is elided to whole parts with "…", the whole of it in the tooltip."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel

from iaa_desktop.gui.app import create_main_window
from iaa_desktop.gui.start_page import examples_dir
from iaa_desktop.gui.widgets.elided_label import ELLIPSIS, ElidedLabel

PARTS = [
    ("Labels", "Complication, Resolution, Success"),
    ("κ per label (mean over pairs)", "Complication 0.843, Resolution 0.706, Success 0.462"),
    ("Exact set agreement", "56.7%"),
    ("עברית", "שלום 0.5"),
    ("Emoji", "🙂 0.25"),
]


def test_parts_that_do_not_fit_are_elided_whole(qtbot):
    label = ElidedLabel()
    qtbot.addWidget(label)
    label.set_parts(PARTS)
    label.resize(label.full_width() + 20, 24)
    label.show()
    assert label.shown_parts() == len(PARTS) and ELLIPSIS not in label.text()
    label.resize(label.full_width() // 2, 24)
    n = label.shown_parts()
    assert 0 < n < len(PARTS)
    assert label.text().endswith(ELLIPSIS)
    assert PARTS[n - 1][1] in label.text() and PARTS[n][1] not in label.text()
    tip = label.toolTip()
    assert all(k in tip and v in tip for k, v in PARTS)
    label.resize(10, 24)  # no room at all: just the ellipsis, never a part cut mid-word
    assert label.shown_parts() == 0 and label.text() == ELLIPSIS


def test_the_multilabel_headline_at_1280_px(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = create_main_window(settings=settings, data_dir=tmp_path / "user-data")
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    with qtbot.waitSignal(w.session.results_ready, timeout=120000) as blocker:
        w.open_path(examples_dir() / "multilabel" / "island.iaa-study")
    w.resize(1280, 720)
    qtbot.waitUntil(lambda: w.headline_label.shown_parts() > 0, timeout=10000)
    label = w.headline_label
    parts = blocker.args[0].headline()
    assert w.width() <= 1280
    assert label.shown_parts() < len(parts) and label.text().endswith(ELLIPSIS)
    assert all(str(v) in label.toolTip() for _k, v in parts)
    # the status message beside it keeps its room too ("Computed in … s" readable)
    assert w.status_label.width() >= w.status_label.fontMetrics().horizontalAdvance("Computed in")
    w.session.cancel()


def test_a_long_status_message_is_elided_with_the_whole_in_its_tooltip(qtbot):
    from iaa_desktop.gui.widgets.elided_label import ElidedText

    message = "Error: /a/long/path/to/ratings.csv: no DURel judgments were found (expected …)"
    label = ElidedText(message)
    qtbot.addWidget(label)
    label.resize(label.sizeHint().width() + 10, 24)
    label.show()
    assert label.toolTip() == "" and QLabel.text(label) == message
    label.resize(120, 24)
    shown = QLabel.text(label)
    assert shown.endswith("…") and message.startswith(shown[:-1])
    assert label.text() == message and label.toolTip() == message

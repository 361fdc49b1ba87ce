"""The Play button of the timeline: the selected unit's stretch of the recording the ELAN file
links (RELATIVE_MEDIA_URL beside the .eaf), played through QtMultimedia; disabled, with the
reason, when the recording is missing."""

from __future__ import annotations

import shutil
import wave

import pytest
from PySide6.QtCore import QPoint, Qt

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.gui.kinds.spans import create_panels
from iaa_desktop.gui.main_window import ViewContext
from iaa_desktop.gui.widgets.timeline import AXIS_HEIGHT, LANE_HEIGHT
from tests.conftest import FIXTURES
from tests.gui import user

# PySide6-Addons (the media extra); its libraries need PulseAudio's client library (libpulse)
pytest.importorskip("PySide6.QtMultimedia", exc_type=ImportError)

#: what QtMultimedia's FFmpeg back end says of the machine (no video acceleration library, no
#: sound server or device on a test runner), not faults of the view
MACHINE = pytest.mark.qt_log_ignore(
    "Couldn't (load|resolve) va",
    "PulseAudioService",
    "No audio device",
    extend=True,
)


def _recording(folder, with_media: bool):
    """two_coders.eaf (its MEDIA_DESCRIPTOR: RELATIVE_MEDIA_URL="./talk.wav") copied to
    ``folder``, with 10 s of silence as talk.wav beside it when ``with_media``."""
    eaf = folder / "two_coders.eaf"
    shutil.copy(FIXTURES / "time" / "two_coders.eaf", eaf)
    if with_media:
        with wave.open(str(folder / "talk.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(8000)
            w.writeframes(b"\0\0" * 8000 * 10)
    return eaf


def _panel(qtbot, eaf):
    result = run_to_end(get_kind("spans").run([eaf], {"n_resamples": 20}))
    panel = create_panels(result, ViewContext())[0][1]
    qtbot.addWidget(panel)
    panel.resize(1280, 720)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def _click_unit(qtbot, panel, lane: int, ms: int) -> None:
    timeline = panel.timeline
    x = timeline.canvas.x_of(ms) - timeline.horizontalScrollBar().value()
    pos = QPoint(int(x), AXIS_HEIGHT + lane * LANE_HEIGHT + LANE_HEIGHT // 2)
    qtbot.mouseClick(timeline.canvas, Qt.MouseButton.LeftButton, pos=pos)


@MACHINE
def test_play_asks_the_player_for_the_units_stretch_of_the_linked_recording(qtbot, tmp_path):
    eaf = _recording(tmp_path, with_media=True)
    panel = _panel(qtbot, eaf)
    player = panel.player
    assert player.isVisible()
    # Dana's unit 500–1500 ms, in the first lane
    _click_unit(qtbot, panel, 0, 1000)
    assert player.button.isEnabled(), player.button.toolTip()
    assert "talk.wav" in player.button.toolTip()
    user.press(qtbot, player.button)
    assert player.source == tmp_path / "talk.wav"
    assert (player.start, player.end) == (500, 1500)
    assert player.player.source().toLocalFile() == str(tmp_path / "talk.wav")
    # the player loads asynchronously: it plays from the start, or the view says why it cannot
    qtbot.waitUntil(
        lambda: (
            player.player.isPlaying() or player.status.text().startswith(("Played", "Cannot play"))
        ),
        timeout=5000,
    )
    if not player.status.text().startswith("Cannot play"):
        assert player.player.position() >= 500
    # the block clicked, not its group's first: Eli's 520–1480 ms, matched with Dana's
    _click_unit(qtbot, panel, 1, 1000)
    assert (player.start, player.end) == (520, 1480)
    # Space on the timeline plays the unit clicked there: Eli's 8000–10000 ms
    _click_unit(qtbot, panel, 1, 9000)
    assert (player.start, player.end) == (8000, 10000)
    panel.timeline.setFocus()
    qtbot.keyClick(panel.timeline, Qt.Key.Key_Space)
    assert player.source == tmp_path / "talk.wav"
    assert "8.000–10.000 s" in player.status.text() or "Cannot play" in player.status.text()


@MACHINE
def test_play_is_disabled_with_the_reason_when_the_recording_is_missing(qtbot, tmp_path):
    eaf = _recording(tmp_path, with_media=False)
    panel = _panel(qtbot, eaf)
    _click_unit(qtbot, panel, 0, 1000)
    player = panel.player
    assert panel.timeline.selected >= 0
    assert not player.button.isEnabled()
    assert "not there" in player.button.toolTip()
    assert str(tmp_path / "talk.wav") in player.button.toolTip()
    assert player.player is None  # nothing asked of QtMultimedia
    panel.timeline.setFocus()
    qtbot.keyClick(panel.timeline, Qt.Key.Key_Space)
    assert player.player is None and player.source is None

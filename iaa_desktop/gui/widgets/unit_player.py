"""Play a unit's stretch of the recording an ELAN file links (its ``MEDIA_DESCRIPTOR``).

ELAN's ``MEDIA_DESCRIPTOR`` names the recording by ``RELATIVE_MEDIA_URL`` (relative to the
``.eaf``'s folder, e.g. ``./talk.wav``) and ``MEDIA_URL`` (an absolute ``file:`` URL); ELAN also
looks for the file's name beside the ``.eaf``. :func:`media_file` resolves them in that order.

QtMultimedia (PySide6-Addons, the ``media`` extra) is imported on the first use of a
:class:`UnitPlayer`, not at start-up; without it, or without an existing media file, the Play
button is disabled and its tooltip says why. :class:`QMediaPlayer` works asynchronously: the
player is asked to load the source, seek to the unit's start and play; ``positionChanged``
pauses it at the unit's end, so the GUI thread never waits for the media.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

_MULTIMEDIA: list[Any] = []  # [module] once imported, [None, reason] when it cannot be


def multimedia() -> tuple[Any, str]:
    """The ``PySide6.QtMultimedia`` module (imported on the first call) or ``None`` and why."""
    if not _MULTIMEDIA:
        try:
            from PySide6 import QtMultimedia
        except ImportError as exc:  # PySide6-Addons not installed, or a library it loads missing
            _MULTIMEDIA.extend(
                [
                    None,
                    f"QtMultimedia cannot be loaded ({exc}): install PySide6-Addons "
                    "(pip install 'iaa-desktop[media]') and PulseAudio's client library "
                    "(libpulse0).",
                ]
            )
        else:
            _MULTIMEDIA.extend([QtMultimedia, ""])
    return _MULTIMEDIA[0], _MULTIMEDIA[1] if len(_MULTIMEDIA) > 1 else ""


def _local(url: str) -> Path | None:
    if url.startswith("file:"):
        parsed = urlparse(url)
        return Path(unquote(parsed.path)) if parsed.path else None
    if "://" in url:  # http, rtsp…: not a local file
        return None
    return Path(unquote(url))


def media_file(urls: Iterable[str], source: str | Path | None) -> tuple[Path | None, str]:
    """The first existing media file among ``urls`` (ELAN's ``RELATIVE_MEDIA_URL`` or
    ``MEDIA_URL``), relative ones resolved against the folder of ``source`` (the ``.eaf``), then
    each file's name beside ``source``; or ``None`` and why."""
    folder = Path(source).parent if source else None
    tried: list[Path] = []
    urls = [u for u in urls if u]
    for url in urls:
        path = _local(url)
        if path is None:
            continue
        if not path.is_absolute() and folder is not None:
            path = folder / path
        tried.append(path)
    if folder is not None:
        tried += [folder / p.name for p in list(tried) if p.name]
    for path in tried:
        if path.is_file():
            return path, ""
    if not urls:
        return None, "The annotation file links no recording (an ELAN MEDIA_DESCRIPTOR)."
    shown = ", ".join(dict.fromkeys(str(p) for p in tried)) or ", ".join(urls)
    return None, f"The linked recording is not there: {shown}"


class UnitPlayer(QWidget):
    """A Play button and a status line: plays ``[start, end]`` ms of a media file."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.button = QPushButton("▶ Play unit (Space)")
        self.button.setObjectName("play_unit")
        self.button.clicked.connect(self.play)
        self.status = QLabel()
        self.status.setObjectName("play_status")
        lay.addWidget(self.button)
        lay.addWidget(self.status, 1)
        self.player: Any = None
        self.audio: Any = None
        #: what the player was last asked to do: the file and the stretch (ms)
        self.source: Path | None = None
        self.start = 0
        self.end = 0
        self._pending = False
        self.set_unit(None, 0, 0, "Select a unit on the timeline.")

    def set_unit(self, media: Path | None, start: int, end: int, reason: str = "") -> None:
        """The unit to play: ``media`` (None: ``reason`` says why there is nothing to play)."""
        self._stop()
        self.media, self.start, self.end = media, int(start), int(end)
        # QtMultimedia imported only once there is something to play
        module, why = multimedia() if media is not None else (None, "")
        ok = module is not None and media is not None
        self.button.setEnabled(ok)
        tip = (
            f"Play {start / 1000:.3f}–{end / 1000:.3f} s of {media.name}"
            if ok and media is not None
            else why or reason
        )
        self.button.setToolTip(tip)
        self.status.setText("" if ok else tip)

    def play(self) -> None:
        """Load the media (when another), seek to the unit's start and play to its end."""
        module, why = multimedia()
        if module is None or self.media is None or not self.button.isEnabled():
            return
        if self.player is None:
            self.player = module.QMediaPlayer(self)
            self.audio = module.QAudioOutput(self)
            self.player.setAudioOutput(self.audio)
            self.player.positionChanged.connect(self._on_position)
            self.player.mediaStatusChanged.connect(self._on_status)
            self.player.errorOccurred.connect(self._on_error)
            self.player.playbackStateChanged.connect(self._on_state)
        self.status.setText(f"Playing {self.start / 1000:.3f}–{self.end / 1000:.3f} s…")
        if self.source != self.media:
            self.source = self.media
            self._pending = True
            self.player.setSource(QUrl.fromLocalFile(str(self.media)))
            return  # plays once loaded (mediaStatusChanged)
        self._start()

    def _start(self) -> None:
        self._pending = False
        self.player.setPosition(self.start)
        self.player.play()

    def _stop(self) -> None:
        self._pending = False
        if self.player is not None:
            self.player.pause()

    def _on_status(self, status: Any) -> None:
        s = type(status)
        if self._pending and status in (s.LoadedMedia, s.BufferedMedia):
            self._start()
        elif status == s.InvalidMedia:
            self._pending = False
            self.status.setText(f"Cannot play {self.source}: {self.player.errorString()}")

    def _on_position(self, ms: int) -> None:
        if ms >= self.end and self.player.isPlaying():
            self.player.pause()
            self.status.setText(f"Played {self.start / 1000:.3f}–{self.end / 1000:.3f} s")

    def _on_state(self, state: Any) -> None:
        if state == type(state).StoppedState and not self._pending:
            self.status.setText(f"Played {self.start / 1000:.3f}–{self.end / 1000:.3f} s")

    def _on_error(self, _error: Any, text: str) -> None:
        self._pending = False
        self.status.setText(f"Cannot play {self.source}: {text}")

"""Trust given to a study file that reaches beyond its folder, remembered for that file.

When the user opens such a study anyway (or saves one, which makes it theirs), the answer is
kept in the window's settings under the file's path with the SHA-256 of its content; the same
file opens without the question until its content changes (then it is asked about again).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import QSettings

GROUP = "trusted_studies"


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _key(path: Path) -> str:
    # a settings key holds no slashes: the resolved path, hashed
    return hashlib.sha256(str(path.resolve()).encode("utf-8")).hexdigest()


class StudyTrust:
    """Which study files the user allowed, and whether to write into the folders they name."""

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def allow(self, path: str | Path, outputs: bool) -> None:
        """Remember the current content of ``path`` as allowed (``outputs``: its output
        folders too)."""
        digest = _digest(Path(path))
        if digest is not None:
            self.settings.setValue(f"{GROUP}/{_key(Path(path))}", f"{digest}:{int(outputs)}")

    def allowed(self, path: str | Path) -> bool | None:
        """``None`` when ``path`` as it is now was never allowed; else whether its output
        folders were allowed too."""
        value = self.settings.value(f"{GROUP}/{_key(Path(path))}")
        if not isinstance(value, str) or ":" not in value:
            return None
        digest, outputs = value.rsplit(":", 1)
        if digest != _digest(Path(path)):
            return None
        return outputs == "1"


__all__ = ["StudyTrust"]

"""Fixtures of the GUI tests: a settings file and a main window of their own per test."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from iaa_desktop.gui.app import create_main_window


@pytest.fixture
def settings(tmp_path):
    """Settings in an INI file of the test's own (never the user's)."""
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings, tmp_path):
    """A shown main window with its own settings and data folder; its session's work is
    cancelled when the test ends."""
    w = create_main_window(settings=settings, data_dir=tmp_path / "user-data")
    qtbot.addWidget(w)
    w.show()
    yield w
    w.session.cancel()

"""Shared fixtures. Tests that read the shared data skip cleanly when it is absent.

The shared data folder is ``$IAA_SHARED_DATA`` (default: ``shared/data`` beside the checkout);
a run that skipped tests for want of it says so in one line at the end.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("IAA_SHARED_DATA", REPO.parent / "shared" / "data"))
FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: test data and test-only packages, imported by tests, never collected (nor their doctests)
collect_ignore_glob = ["fixtures/*", "plugins/*"]
_SKIP_REASON = "shared data not available"


def shared_path(*parts: str) -> Path:
    """Path inside the shared data folder, or skip the test when that folder is not there."""
    p = SHARED_DATA.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{_SKIP_REASON}: {p}")
    return p


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.exists():
        pytest.skip(f"{_SKIP_REASON}: {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture(autouse=True)
def _user_folders(tmp_path_factory, monkeypatch):
    """The user's data and configuration folders (XDG) point into a temporary folder, so no test
    writes example copies, stores or settings into the real home folder."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    return home


def pytest_unconfigure(config):
    """After the summary line: how many tests the missing shared data folder skipped."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or hasattr(
        config, "workerinput"
    ):  # an xdist worker: its controller says it
        return
    skipped = reporter.stats.get("skipped", [])
    n = sum(1 for r in skipped if _SKIP_REASON in str(getattr(r, "longrepr", "")))
    if n:
        reporter.write_line(
            f"{n} test{'s' if n != 1 else ''} skipped: the shared data folder {SHARED_DATA} was "
            "not found (set IAA_SHARED_DATA to its location).",
            yellow=True,
        )

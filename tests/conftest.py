"""Shared fixtures. Tests that read ``../shared/data`` skip cleanly when it is absent."""

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


def shared_path(*parts: str) -> Path:
    """Path inside ../shared/data, or skip the test when that folder is not there."""
    p = SHARED_DATA.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"shared data not available: {p}")
    return p


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.exists():
        pytest.skip("../shared/data is not available")
    return SHARED_DATA


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES

"""Start-up: nothing heavy is imported before the main window shows; the warm-up comes after.

Each test starts a fresh interpreter with ``python -X importtime`` (the import log goes to
stderr in the order modules are imported) and reads which modules were imported, and when. No
time is measured here; ``bench/bench_startup.py`` does that.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: modules that take a large share of a second to import; none may come before the first paint
HEAVY = ("pandas", "scipy", "matplotlib", "lingpy", "numpy", "typst", "rapidfuzz", "PIL")


def _run(args: list[str], **env: str) -> list[str]:
    """stderr lines of ``python -X importtime ARGS`` run from the repository root."""
    full_env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **env}
    r = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stderr.splitlines()


def _imported(lines: list[str]) -> list[str]:
    """Top-level package of every module in an ``-X importtime`` log, in import order."""
    out = []
    for line in lines:
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                out.append(name.split(".")[0])
    return out


def _heavy(packages: list[str]) -> set[str]:
    return {p for p in packages if p in HEAVY}


def test_the_main_window_module_imports_nothing_heavy():
    packages = _imported(_run(["-c", "import iaa_desktop.gui.main_window"]))
    assert "PySide6" in packages and "iaa_desktop" in packages  # the log was read
    assert not _heavy(packages)


def test_the_app_paints_its_window_before_importing_anything_heavy():
    """The whole start of ``iaa-desktop`` up to the first paint (the app quits right then)."""
    lines = _run(["-m", "iaa_desktop"], IAA_QUIT_AFTER_SHOW="1", IAA_STARTUP_TIMING="1")
    assert any("first paint at monotonic" in line for line in lines)
    packages = _imported(lines)
    assert "PySide6" in packages
    assert not _heavy(packages)


def test_the_first_paint_quits_when_a_study_opens_at_start(tmp_path):
    """``--example`` opens a study as the window shows: the first paint still comes, and
    IAA_QUIT_AFTER_SHOW ends the program there."""
    lines = _run(
        ["-m", "iaa_desktop", "--example", "judgments"],
        IAA_QUIT_AFTER_SHOW="1",
        IAA_STARTUP_TIMING="1",
        XDG_DATA_HOME=str(tmp_path),
    )
    assert any("first paint at monotonic" in line for line in lines)


@pytest.mark.slow
def test_the_warm_up_imports_begin_after_the_first_paint():
    lines = _run(["-m", "iaa_desktop"], IAA_QUIT_AFTER_WARM_UP="1", IAA_STARTUP_TIMING="1")
    paint = next(i for i, line in enumerate(lines) if "first paint at monotonic" in line)
    before, after = _imported(lines[:paint]), _imported(lines[paint:])
    assert not _heavy(before)
    assert {"pandas", "matplotlib"} <= _heavy(after)  # the warm-up did run, after the paint

"""Without a usable display the window commands say why in one sentence and exit non-zero."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from iaa_desktop.gui.display import display_problem, missing_libraries, package_list, packages_for

ROOT = Path(__file__).resolve().parents[2]
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland checks")


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT
    )


@linux
@pytest.mark.parametrize(
    "args", [["-m", "iaa_desktop"], [str(ROOT / "packaging" / "entry.py")]], ids=["app", "frozen"]
)
def test_no_display_is_one_sentence_and_a_non_zero_exit(args, tmp_path):
    env = _env(XDG_RUNTIME_DIR=str(tmp_path))
    r = _run(args, env)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "no display" in lines[0] and "xvfb-run" in lines[0]
    assert "propagateSizeHints" not in r.stderr + r.stdout


@linux
def test_a_display_nobody_answers_on_is_named(tmp_path):
    r = _run(["-m", "iaa_desktop"], _env(DISPLAY=":9731", XDG_RUNTIME_DIR=str(tmp_path)))
    assert r.returncode == 2
    assert r.stderr.strip() == (
        "iaa-desktop: no X server answers on the display ':9731': start one (or run under "
        "xvfb-run), or use `iaa-desktop report` for results without a window."
    )


def test_a_chosen_platform_is_trusted():
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"QT_QPA_PLATFORM": "vnc:size=800x600"}) is None


@linux
def test_missing_libraries_are_named_with_their_packages(tmp_path):
    """A platform plugin whose libraries are missing: every missing one is named (not only the
    first, and not a wrong one), with the Debian package when the list knows it."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is needed to build a stand-in plugin")
    build = tmp_path / "build"
    build.mkdir()
    for name in ("iaa-gone-a", "iaa-gone-b"):
        src = build / f"{name}.c"
        src.write_text(f"int {name.replace('-', '_')}(void) {{ return 1; }}\n")
        subprocess.run(
            ["gcc", "-shared", "-fPIC", "-o", str(build / f"lib{name}.so.1"), str(src),
             f"-Wl,-soname,lib{name}.so.1"],
            check=True,
        )  # fmt: skip
        (build / f"lib{name}.so").symlink_to(build / f"lib{name}.so.1")
    plugin = tmp_path / "plugins" / "platforms" / "libqxcb.so"
    plugin.parent.mkdir(parents=True)
    main = build / "plugin.c"
    main.write_text("int iaa_gone_a(void); int iaa_gone_b(void); int f(void) { return iaa_gone_a() + iaa_gone_b(); }\n")  # fmt: skip
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-o", str(plugin), str(main), f"-L{build}",
         "-Wl,--no-as-needed", "-liaa-gone-a", "-liaa-gone-b"],
        check=True,
    )  # fmt: skip
    shutil.rmtree(build)  # the libraries are gone
    assert missing_libraries(plugin) == ["libiaa-gone-a.so.1", "libiaa-gone-b.so.1"]
    problem = display_problem(
        {"DISPLAY": ":0", "QT_PLUGIN_PATH": str(tmp_path / "plugins"), "XDG_RUNTIME_DIR": "/none"}
    )
    assert problem == (
        "iaa-desktop: Qt cannot open a window because these system libraries are missing: "
        "libiaa-gone-a.so.1, libiaa-gone-b.so.1."
    )


def test_the_package_list_is_shared_with_the_scripts():
    rows = package_list()
    assert ("libxcb-cursor0", "lib:libxcb-cursor.so.0", "qt") in rows
    assert packages_for(["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libunknown.so.3"]) == [
        "libxcb-icccm4",
        "libxcb-keysyms1",
    ]
    assert "iaa_desktop/resources/system-packages.txt" in (ROOT / "scripts" / "setup.sh").read_text(
        encoding="utf-8"
    )
    for script in (ROOT / "run", ROOT / ".ci" / "run"):
        assert ". scripts/setup.sh" in script.read_text(encoding="utf-8")


@linux
def test_the_window_opens_under_xvfb(tmp_path):
    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is not installed")
    env = _env(IAA_STARTUP_TIMING="1", IAA_QUIT_AFTER_SHOW="1", XDG_RUNTIME_DIR=str(tmp_path))
    r = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", sys.executable, "-m", "iaa_desktop"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    assert "window shown after" in r.stderr

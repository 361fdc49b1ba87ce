"""Before Qt is imported, the window commands check Qt's libraries and the display; every problem
is named in one message, with one command installing what is missing, and the exit status is 2."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from iaa_desktop import preflight
from iaa_desktop.preflight import (
    display_problem,
    install_command,
    message,
    missing_libraries,
    package_list,
    packages_for,
)

ROOT = Path(__file__).resolve().parents[2]
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland checks")
#: the routes into the window: the installed command and the frozen bundle's entry point
ROUTES = pytest.mark.parametrize(
    "route", [["-m", "iaa_desktop"], [str(ROOT / "packaging" / "entry.py")]], ids=["app", "frozen"]
)


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


def _library_lacking_two(folder: Path, name: str) -> Path:
    """A shared library that needs two libraries no system has, made without a compiler: a copy
    of libxcb with its two X libraries (libXau, libXdmcp) renamed in its dynamic string table to
    names of the same length."""
    out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=False).stdout
    found = re.search(r"^\s*libxcb\.so\.1 \(.*\) => (\S+)$", out, flags=re.M)
    if found is None:
        pytest.fail("libxcb.so.1 is missing: it is in the package list's qt role")
    data = Path(found.group(1)).read_bytes()
    for old, new in (
        (b"libXau.so.6\0", b"libGON.so.6\0"),
        (b"libXdmcp.so.6\0", b"libGONE2.so.6\0"),
    ):
        assert data.count(old) == 1, old
        data = data.replace(old, new)
    target = folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return target


@linux
@ROUTES
def test_no_display_is_one_sentence_and_a_non_zero_exit(route, tmp_path):
    r = _run(route, _env(XDG_RUNTIME_DIR=str(tmp_path)))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert "there is no display" in lines[0] and "xvfb-run" in lines[0]
    # the packages of xvfb-run are named only where it is not installed
    install = f"  install what is missing with:  {install_command(['xvfb', 'xauth'])}"
    assert lines[1:] == ([] if shutil.which("xvfb-run") else [install])
    assert "propagateSizeHints" not in r.stderr + r.stdout


@linux
def test_a_display_nobody_answers_on_is_named(tmp_path):
    r = _run(["-m", "iaa_desktop"], _env(DISPLAY=":9731", XDG_RUNTIME_DIR=str(tmp_path)))
    assert r.returncode == 2
    assert r.stderr.strip() == (
        "iaa-desktop: the window cannot open: no X server answers on the display ':9731'. Run it "
        "in a desktop session or under xvfb-run, or use `iaa-desktop report` for results without "
        "a window."
    )


def test_a_wayland_display_without_its_socket_is_named_as_such(tmp_path):
    problem = display_problem({"WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": str(tmp_path)})
    assert problem == (
        f"no Wayland display is running (WAYLAND_DISPLAY='wayland-9' names no socket: "
        f"{tmp_path / 'wayland-9'} does not exist)"
    )
    (tmp_path / "wayland-9").touch()
    assert (
        display_problem({"WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": str(tmp_path)}) is None
    )


def test_a_chosen_platform_is_trusted():
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"QT_QPA_PLATFORM": "vnc:size=800x600"}) is None


@linux
def test_every_missing_library_is_named(tmp_path):
    """A platform plugin whose libraries are missing: every missing one is named (not only the
    first, and not a wrong one)."""
    plugin = _library_lacking_two(tmp_path / "plugins" / "platforms", "libqxcb.so")
    assert missing_libraries([plugin]) == ["libGON.so.6", "libGONE2.so.6"]
    env = {"DISPLAY": ":0", "QT_PLUGIN_PATH": str(tmp_path / "plugins"), "XDG_RUNTIME_DIR": "/none"}
    assert preflight.check_window(env) == (
        "iaa-desktop: the window cannot open: system libraries Qt needs are missing "
        "(libGON.so.6, libGONE2.so.6). (use `iaa-desktop report` for results without a window.)"
    )


@linux
@ROUTES
@pytest.mark.parametrize("args", [[], ["--example", "judgments"]], ids=["plain", "example"])
def test_qt_that_cannot_load_stops_every_route_before_any_import(route, args, tmp_path):
    """A Qt whose QtCore lacks system libraries (and would raise ImportError when imported): one
    message naming them and the missing display, exit 2, no traceback."""
    fake = tmp_path / "site" / "PySide6"
    _library_lacking_two(fake / "Qt" / "lib", "libQt6Core.so.6")
    (fake / "__init__.py").write_text(
        "raise ImportError('libglib-2.0.so.0: cannot open shared object file')\n", encoding="utf-8"
    )
    env = _env(XDG_RUNTIME_DIR=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    env["PYTHONPATH"] = f"{tmp_path / 'site'}{os.pathsep}{ROOT}"
    r = _run([*route, *args], env)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    first = r.stderr.splitlines()[0]
    assert "system libraries Qt needs are missing (libGON.so.6, libGONE2.so.6)" in first
    assert "there is no display" in first


def test_the_message_has_one_install_line(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/sudo" if name == "sudo" else None)
    text = message(["system libraries Qt needs are missing (libEGL.so.1)"], ["libegl1", "xvfb"])
    assert (
        text.splitlines()[1] == "  install what is missing with:  sudo apt-get install libegl1 xvfb"
    )
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert install_command(["libegl1"]) == "su -c 'apt-get install libegl1'"
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert install_command(["libegl1"]) == "apt-get install libegl1"


def test_the_package_list_is_shared_with_the_scripts():
    rows = package_list()
    assert ("libxcb-cursor0", "lib:libxcb-cursor.so.0", "qt") in rows
    assert packages_for(
        ["libxcb-icccm.so.4", "libgthread-2.0.so.0", "libxcb-keysyms.so.1", "libunknown.so.3"]
    ) == ["libxcb-icccm4", "libglib2.0-0", "libxcb-keysyms1"]
    assert "iaa_desktop/resources/system-packages.txt" in (ROOT / "scripts" / "setup.sh").read_text(
        encoding="utf-8"
    )
    for script in (ROOT / "run", ROOT / ".ci" / "run"):
        assert ". scripts/setup.sh" in script.read_text(encoding="utf-8")


def test_an_unknown_example_lists_the_examples(tmp_path):
    r = _run(
        ["-m", "iaa_desktop", "--example", "nope"],
        _env(QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path)),
    )
    assert r.returncode == 2
    assert r.stderr.strip() == (
        "iaa-desktop: error: no example study named 'nope' (the examples: candidates, coref, "
        "durel, judgments, multilabel, normalization, spans)."
    )


@linux
@pytest.mark.parametrize("args", [[], ["--example", "judgments"]], ids=["start-page", "example"])
def test_the_window_opens_under_xvfb(args, tmp_path):
    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is not installed")
    env = _env(
        IAA_STARTUP_TIMING="1",
        IAA_QUIT_AFTER_SHOW="1",
        XDG_RUNTIME_DIR=str(tmp_path),
        XDG_DATA_HOME=str(tmp_path / "data"),
    )
    r = subprocess.run(
        [
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1280x720x24",
            sys.executable,
            "-m",
            "iaa_desktop",
            *args,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    assert "window shown after" in r.stderr


def test_the_readme_names_every_package_and_every_example():
    """The by-hand route of the README: its apt line is the package list's (set-up, window,
    report), and it names every bundled example."""
    from iaa_desktop.gui.app import example_names

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if x.startswith("sudo apt-get install "))
    wanted = [pkg for pkg, _c, role in package_list() if role in ("setup", "qt", "report")]
    assert line.split()[3:] == wanted
    by_hand = readme[readme.index("**By hand**") : readme.index("## Opening your own study")]
    assert all(f"`{name}`" in by_hand for name in example_names())


def test_before_pip_everything_missing_is_named_at_once(monkeypatch):
    """``./run`` as a user: the venv module, the window's packages and the display in one
    message, one install line with the report's packages too (so one command does it all)."""
    missing = {
        ("setup", "qt"): ["python3-venv", "libegl1", "libxcb1"],
        ("report",): ["fonts-noto-core"],
    }
    monkeypatch.setattr(preflight, "missing_packages", lambda roles: missing[roles])
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/sudo" if name == "sudo" else None)
    stop, report = preflight.check_setup({"XDG_RUNTIME_DIR": "/none"})
    assert report == ["fonts-noto-core"]
    lines = stop.splitlines()
    assert len(lines) == 2
    assert "Python's venv module is missing" in lines[0]
    assert "(libegl1 libxcb1)" in lines[0] and "there is no display" in lines[0]
    assert lines[1] == (
        "  install what is missing with:  sudo apt-get install python3-venv libegl1 libxcb1 xvfb "
        "xauth fonts-noto-core"
    )
    # the report's packages alone do not stop the set-up; nor does a missing display alone
    missing[("setup", "qt")] = []
    assert preflight.check_setup({}) == (None, ["fonts-noto-core"])


def test_a_missing_optional_package_is_noted_once(tmp_path):
    (tmp_path / ".venv").mkdir()
    script = f". {ROOT / 'scripts' / 'setup.sh'}; " + "iaa_note_missing 'fonts-noto-core'; " * 3
    r = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0
    assert len(r.stderr.splitlines()) == 1 and "fonts-noto-core" in r.stderr
    r = subprocess.run(["bash", "-c", script.replace("fonts-noto-core", "")], cwd=tmp_path)
    assert not (tmp_path / ".venv" / ".iaa-noted-missing").exists()


def test_a_python_too_old_is_named_with_what_to_do(monkeypatch):
    monkeypatch.setattr(preflight, "MIN_PYTHON", (9, 1))
    monkeypatch.setattr(preflight, "missing_packages", lambda roles: [])
    stop, _report = preflight.check_setup({"DISPLAY": ":0"})
    have = ".".join(map(str, sys.version_info[:3]))
    assert stop == (
        f"iaa-desktop: cannot start yet: iaa_desktop needs Python 9.1 or later, and "
        f"{sys.executable} is {have} (install one with `uv python install 9.1`, or on Ubuntu from "
        f"the deadsnakes PPA, and run `PYTHON=python9.1 ./run`)."
    )


def test_missing_fonts_are_named_with_their_package(monkeypatch, tmp_path):
    """A bundle brings its libraries but not the system's fonts and fontconfig's configuration."""
    listing = tmp_path / "system-packages.txt"
    listing.write_text(
        f"fonts-x  file:{tmp_path / 'x.ttf'}  qt\nfontconfig-config  file:/etc/hostname  qt\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(preflight, "LIST", listing)
    assert preflight.missing_files(("qt",)) == ([str(tmp_path / "x.ttf")], ["fonts-x"])
    problems, packages = preflight.window_problems({"QT_QPA_PLATFORM": "offscreen"})
    assert problems == [f"fonts or their configuration are missing ({tmp_path / 'x.ttf'})"]
    assert packages == ["fonts-x"]

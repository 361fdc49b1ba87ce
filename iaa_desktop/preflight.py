"""Before anything imports Qt: can this program open its window here? One answer, one message.

Without a display, or with a system library missing, Qt aborts the process with a long message
that often blames the wrong library, or Python ends in an ``ImportError`` traceback. So every
route into the window (``./run``, the installed ``iaa-desktop``, the frozen bundle) asks here
first, and every problem found is named at once with the one command that installs what is
missing (the Debian/Ubuntu packages of ``resources/system-packages.txt``, the list ``./run`` and
``.ci/run`` install from). The checks:

* the Python version and, before the environment exists, its ``venv`` module (``--setup``);
* the shared libraries of Qt itself (QtCore, QtGui, QtWidgets) and of its xcb platform plugin:
  each is loaded with the dynamic linker, and ``ldd`` names every library still missing;
* a display: an X server that answers (the connection stays open until Qt has its own, so that
  an X server whose only client we were does not reset just as Qt connects) or a Wayland socket.

An explicitly chosen platform (``QT_QPA_PLATFORM=offscreen``, ``vnc``, ...) needs no display.
This module imports neither Qt nor the rest of the package, and runs on older Pythons too (it is
what tells their users which Python to get): ``python3 -m iaa_desktop.preflight --setup``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

MIN_PYTHON = (3, 11)
HEADLESS = "use `iaa-desktop report` for results without a window"
#: the packages that make ``xvfb-run`` work (a virtual X server)
XVFB = ["xvfb", "xauth"]
LIST = Path(__file__).resolve().parent / "resources" / "system-packages.txt"
#: Qt's own libraries, loaded whatever the platform (relative to PySide6's folder)
QT_LIBRARIES = ("Qt/lib/libQt6Core.so.6", "Qt/lib/libQt6Gui.so.6", "Qt/lib/libQt6Widgets.so.6")
XCB_PLUGIN = "Qt/plugins/platforms/libqxcb.so"

_held_display = None  # the X connection kept open until Qt has connected (see release_display)


def package_list(path: Path | None = None) -> list[tuple[str, str, str]]:
    """``(package, checks, needed by)`` of the package list; ``checks`` may name several,
    separated by commas (a package providing more than one library)."""
    rows = []
    for line in (path or LIST).read_text(encoding="utf-8").splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) == 3:
            rows.append((parts[0], parts[1], parts[2]))
    return rows


def packages_for(libraries: list[str]) -> list[str]:
    """The Debian/Ubuntu packages that provide ``libraries`` (sonames), as far as the list knows."""
    by_lib = {}
    for pkg, checks, _who in package_list():
        for check in checks.split(","):
            if check.startswith("lib:"):
                by_lib[check[4:]] = pkg
    return list(dict.fromkeys(by_lib[lib] for lib in libraries if lib in by_lib))


def _linker_libraries() -> set[str]:
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    try:
        out = subprocess.run(
            [ldconfig, "-p"], capture_output=True, text=True, timeout=20, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return set()
    return {line.split()[0] for line in out.splitlines()[1:] if line.strip()}


def _present(check: str, libraries: set[str]) -> bool:
    kind, _, what = check.partition(":")
    if kind == "lib":
        return what in libraries
    if kind == "file":
        return Path(what).exists()
    if kind == "cmd":
        return shutil.which(what) is not None
    if kind == "py":
        return importlib.util.find_spec(what) is not None
    return False


def missing_packages(roles: tuple[str, ...]) -> list[str]:
    """The packages of ``roles`` (``setup``, ``qt``, ``report``, ``ci``) that are not installed."""
    libraries = _linker_libraries()
    return [
        pkg
        for pkg, checks, role in package_list()
        if role in roles and not all(_present(c, libraries) for c in checks.split(","))
    ]


def missing_files(roles: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """``(files, packages)``: the files of ``roles`` that are not there (fonts, fontconfig's
    configuration: needed by a bundle too, which brings its own libraries but not these)."""
    files, packages = [], []
    for pkg, checks, role in package_list():
        wanted = [c[5:] for c in checks.split(",") if c.startswith("file:")]
        if role in roles and wanted and not all(Path(f).exists() for f in wanted):
            files += [f for f in wanted if not Path(f).exists()]
            packages.append(pkg)
    return files, packages


def install_command(packages: list[str]) -> str:
    """The one command that installs ``packages``: as root, with sudo, or through su."""
    command = "apt-get install " + " ".join(packages)
    if os.geteuid() == 0:
        return command
    if shutil.which("sudo"):
        return "sudo " + command
    return f"su -c '{command}'"


def qt_folder() -> Path | None:
    """PySide6's folder, found without importing it (importing is what fails)."""
    if getattr(sys, "frozen", False):
        bundled = Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent)) / "PySide6"
        return bundled if bundled.is_dir() else None
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def xcb_plugin(environ: Mapping[str, str] = os.environ) -> Path | None:
    """Qt's xcb platform plugin as this program will load it (a checkout, a wheel or a bundle)."""
    roots = [
        Path(p) / "platforms" for p in environ.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p
    ]
    folder = qt_folder()
    if folder is not None:
        roots.append((folder / XCB_PLUGIN).parent)
    for root in roots:
        if (root / "libqxcb.so").is_file():
            return root / "libqxcb.so"
    return None


def missing_libraries(binaries: list[Path]) -> list[str]:
    """The shared libraries ``binaries`` need that the dynamic linker cannot find (``[]``: none).

    Loading each is the test; ``ldd`` then lists every missing library, not just the first."""
    failed, first = [], []
    for binary in binaries:
        try:
            ctypes.CDLL(str(binary), mode=getattr(os, "RTLD_LAZY", 1) | ctypes.RTLD_LOCAL)
        except OSError as e:
            failed.append(binary)
            first += re.findall(r"([\w.+-]+\.so[\w.]*): cannot open shared object", str(e))
    if not failed:
        return []
    found: list[str] = []
    ldd = shutil.which("ldd") or ""
    for binary in failed if ldd else []:
        try:
            out = subprocess.run(
                [ldd, str(binary)], capture_output=True, text=True, timeout=20, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        found += re.findall(r"^\s*(\S+) => not found", out, flags=re.M)
    return list(dict.fromkeys(found or first or ["(a library Qt needs)"]))


def x_server_answers(display: str) -> bool:
    """True when an X server accepts a connection on ``display`` (asked through libxcb).

    The connection is kept (until :func:`release_display`): were it closed now, an X server with
    no other client (``xvfb-run``) would reset just as Qt connects, and Qt would abort."""
    global _held_display
    name = ctypes.util.find_library("xcb") or "libxcb.so.1"
    try:
        xcb = ctypes.CDLL(name)
    except OSError:
        return True  # cannot tell: the library check names libxcb
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    conn = xcb.xcb_connect(display.encode(), None)
    if conn is None:
        return False
    if xcb.xcb_connection_has_error(conn) != 0:
        xcb.xcb_disconnect(conn)
        return False
    release_display()
    _held_display = (xcb, conn)
    return True


def release_display() -> None:
    """Close the connection :func:`x_server_answers` kept (once Qt has its own)."""
    global _held_display
    if _held_display is not None:
        xcb, conn = _held_display
        _held_display = None
        xcb.xcb_disconnect(conn)


def _platform(environ: Mapping[str, str]) -> str:
    return environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()


def _wayland_socket(environ: Mapping[str, str]) -> Path | None:
    name = environ.get("WAYLAND_DISPLAY", "")
    if not name:
        return None
    return Path(name) if os.path.isabs(name) else Path(environ.get("XDG_RUNTIME_DIR", "")) / name


def display_problem(environ: Mapping[str, str] = os.environ, connect: bool = True) -> str | None:
    """Why no window can be shown on a display here (part of a sentence), or ``None``.

    ``connect=False`` only looks at the environment (no connection is made)."""
    chosen = _platform(environ)
    if chosen and chosen not in ("xcb", "wayland", "wayland-egl"):
        return None  # offscreen, vnc, eglfs ...: the user chose it
    socket = _wayland_socket(environ)
    if socket is not None and socket.exists() and chosen != "xcb":
        return None  # a Wayland session: Qt talks to the compositor
    display = environ.get("DISPLAY", "")
    if chosen.startswith("wayland") or (socket is not None and not display):
        name = environ.get("WAYLAND_DISPLAY", "")
        where = f"WAYLAND_DISPLAY={name!r} names no socket: {socket} does not exist"
        return f"no Wayland display is running ({where if name else 'WAYLAND_DISPLAY is not set'})"
    if not display:
        return "there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    if connect and not x_server_answers(display):
        return f"no X server answers on the display {display!r}"
    return None


def qt_binaries(environ: Mapping[str, str] = os.environ, display: bool = True) -> list[Path]:
    """The Qt libraries to load before Qt is imported: its own, and the xcb plugin unless the
    window goes to Wayland or a platform chosen in ``QT_QPA_PLATFORM``."""
    folder = qt_folder()
    binaries = [folder / lib for lib in QT_LIBRARIES] if folder is not None else []
    binaries = [b for b in binaries if b.is_file()]
    chosen = _platform(environ)
    socket = _wayland_socket(environ)
    wayland = chosen.startswith("wayland") or (
        not chosen and socket is not None and socket.exists()
    )
    # with or without DISPLAY: where there is none yet, xvfb-run will bring an X one
    if display and chosen in ("", "xcb") and not wayland:
        plugin = xcb_plugin(environ)
        if plugin is not None:
            binaries.append(plugin)
    return binaries


def window_problems(
    environ: Mapping[str, str] = os.environ, display: bool = True
) -> tuple[list[str], list[str]]:
    """``(problems, packages)``: what keeps the window from opening, and what installs it."""
    problems, packages = [], []
    if sys.version_info < MIN_PYTHON:
        problems.append(_python_problem())
    missing = missing_libraries(qt_binaries(environ, display)) if sys.platform == "linux" else []
    if missing:
        problems.append(f"system libraries Qt needs are missing ({', '.join(missing)})")
        packages += packages_for(missing)
    files, providers = missing_files(("qt",)) if sys.platform == "linux" else ([], [])
    if files:
        problems.append(f"fonts or their configuration are missing ({', '.join(files)})")
        packages += providers
    if display and sys.platform == "linux":
        problem = display_problem(environ, connect=not missing)
        if problem:
            problems.append(problem)
            if not environ.get("DISPLAY") and shutil.which("xvfb-run") is None:
                packages += XVFB
    return problems, list(dict.fromkeys(packages))


def _python_problem() -> str:
    have = ".".join(map(str, sys.version_info[:3]))
    want = ".".join(map(str, MIN_PYTHON))
    return (
        f"iaa_desktop needs Python {want} or later, and {sys.executable} is {have} (install one "
        f"with `uv python install {want}`, or on Ubuntu from the deadsnakes PPA, and run "
        f"`PYTHON=python{want} ./run`)"
    )


def message(problems: list[str], packages: list[str], what: str = "the window cannot open") -> str:
    """All problems in one message; one install line when packages would solve some of them."""
    text = f"iaa-desktop: {what}: {'; '.join(problems)}."
    if any("display" in p for p in problems):
        text += f" Run it in a desktop session or under xvfb-run, or {HEADLESS}."
    elif not packages and any("libraries" in p for p in problems):
        text += f" ({HEADLESS}.)"
    if packages:
        text += f"\n  install what is missing with:  {install_command(packages)}"
    return text


def check_window(environ: Mapping[str, str] = os.environ, display: bool = True) -> str | None:
    """The message that stops a window command here, or ``None`` when the window can open."""
    problems, packages = window_problems(environ, display)
    return message(problems, packages) if problems else None


def check_setup(
    environ: Mapping[str, str] = os.environ, window: bool = True
) -> tuple[str | None, list[str]]:
    """Before the environment is made (``./run`` as a user): the Python version, its venv module
    and the system packages of the window (by the list). Returns the stopping message (or
    ``None``; it names a missing display too) and the missing packages of the PDF report, which
    are only worth a note."""
    problems, packages = [], missing_packages(("setup",) + (("qt",) if window else ()))
    if sys.version_info < MIN_PYTHON:
        problems.append(_python_problem())
    if "python3-venv" in packages:
        problems.append("Python's venv module is missing")
    qt = [p for p in packages if p != "python3-venv"]
    if qt:
        problems.append(f"the window needs system packages that are missing ({' '.join(qt)})")
    report = missing_packages(("report",))
    if not problems:
        return None, report  # a missing display alone is the window's to say, after set-up
    if window and sys.platform == "linux":
        problem = display_problem(environ, connect=False)
        if problem:
            problems.append(problem)
            if not environ.get("DISPLAY") and shutil.which("xvfb-run") is None:
                packages += XVFB
    return message(problems, packages + report, "cannot start yet"), report


def main(argv: list[str]) -> int:
    """``python3 -m iaa_desktop.preflight --setup [--no-window]`` (before pip, from ./run):
    exit 2 with one message when something is missing; the report's missing packages go to
    stdout for ./run's note."""
    if not argv or argv[0] != "--setup":
        print("usage: python3 -m iaa_desktop.preflight --setup [--no-window]", file=sys.stderr)
        return 2
    stop, report = check_setup(window="--no-window" not in argv)
    if stop:
        print(stop, file=sys.stderr)
        return 2
    print(" ".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

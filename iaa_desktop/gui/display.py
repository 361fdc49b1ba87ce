"""Can a window be opened here? Asked before Qt starts, answered in one sentence.

Without a display, Qt's xcb plugin aborts the process with a long message that blames the wrong
library, and falling back to the offscreen platform leaves a program running with no window. So
the window commands check first, on Linux: is there an X or Wayland display, are the system
libraries Qt's xcb plugin loads present (the missing ones are named with their Debian/Ubuntu
packages, from ``resources/system-packages.txt``), and does the X server answer. Nothing here
imports Qt's GUI modules; an explicitly chosen platform (``QT_QPA_PLATFORM=offscreen``, ``vnc``,
...) is trusted as it is.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path

HEADLESS = "use `iaa-desktop report` for results without a window"


def package_list() -> list[tuple[str, str, str]]:
    """``(package, check, needed by)`` of ``resources/system-packages.txt``."""
    text = (files("iaa_desktop") / "resources" / "system-packages.txt").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) == 3:
            rows.append((parts[0], parts[1], parts[2]))
    return rows


def packages_for(libraries: list[str]) -> list[str]:
    """The Debian/Ubuntu packages that provide ``libraries`` (sonames), as far as the list knows."""
    by_lib = {check[4:]: pkg for pkg, check, _who in package_list() if check.startswith("lib:")}
    return list(dict.fromkeys(by_lib[lib] for lib in libraries if lib in by_lib))


def xcb_plugin(environ: Mapping[str, str] = os.environ) -> Path | None:
    """Qt's xcb platform plugin as this program will load it (a checkout, a wheel or a bundle)."""
    roots = [p for p in environ.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    try:
        from PySide6.QtCore import QLibraryInfo

        roots.append(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
        import PySide6

        roots.append(str(Path(PySide6.__file__).parent / "Qt" / "plugins"))
    except ImportError:
        return None
    for root in roots:
        plugin = Path(root) / "platforms" / "libqxcb.so"
        if plugin.is_file():
            return plugin
    return None


def missing_libraries(plugin: Path) -> list[str]:
    """The shared libraries ``plugin`` needs that the dynamic linker cannot find (``[]``: none).

    Loading the plugin is the test; ``ldd`` then lists every missing library, not just the first.
    """
    try:
        ctypes.CDLL(str(plugin), mode=getattr(os, "RTLD_LAZY", 1) | ctypes.RTLD_LOCAL)
        return []
    except OSError as e:
        first = re.findall(r"([\w.+-]+\.so[\w.]*): cannot open shared object", str(e))
    ldd = shutil.which("ldd")
    if ldd:
        try:
            out = subprocess.run(
                [ldd, str(plugin)], capture_output=True, text=True, timeout=20, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        found = re.findall(r"^\s*(\S+) => not found", out, flags=re.M)
        if found:
            return list(dict.fromkeys(found))
    return first or ["(a library Qt's xcb plugin needs)"]


def x_server_answers(display: str) -> bool:
    """True when an X server accepts a connection on ``display`` (checked with libxcb)."""
    name = ctypes.util.find_library("xcb") or "libxcb.so.1"
    try:
        xcb = ctypes.CDLL(name)
    except OSError:
        return True  # cannot tell: let Qt try and report
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    conn = xcb.xcb_connect(display.encode(), None)
    try:
        return conn is not None and xcb.xcb_connection_has_error(conn) == 0
    finally:
        if conn is not None:
            xcb.xcb_disconnect(conn)


def _wayland_socket(environ: Mapping[str, str]) -> bool:
    name = environ.get("WAYLAND_DISPLAY", "")
    if not name:
        return False
    path = Path(name) if os.path.isabs(name) else Path(environ.get("XDG_RUNTIME_DIR", "")) / name
    return path.exists()


def display_problem(environ: Mapping[str, str] = os.environ) -> str | None:
    """Why no window can be opened here, in one sentence, or ``None`` when one can."""
    if not sys.platform.startswith("linux"):
        return None
    chosen = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen and chosen not in ("xcb", "wayland", "wayland-egl"):
        return None  # offscreen, vnc, eglfs ...: the user chose it
    if _wayland_socket(environ) and chosen != "xcb":
        return None  # a Wayland session: Qt talks to the compositor
    if chosen.startswith("wayland"):
        return (
            "iaa-desktop: QT_QPA_PLATFORM asks for Wayland but no Wayland display is running "
            f"(WAYLAND_DISPLAY={environ.get('WAYLAND_DISPLAY', '')!r}); unset it, or {HEADLESS}."
        )
    display = environ.get("DISPLAY", "")
    if not display:
        return (
            "iaa-desktop: there is no display to open the window on (neither DISPLAY nor "
            "WAYLAND_DISPLAY is set): run it in a desktop session or under xvfb-run, or "
            f"{HEADLESS}."
        )
    plugin = xcb_plugin(environ)
    missing = missing_libraries(plugin) if plugin is not None else []
    if missing:
        packages = packages_for(missing)
        install = f" (Debian/Ubuntu: sudo apt-get install {' '.join(packages)})" if packages else ""
        return (
            f"iaa-desktop: Qt cannot open a window because these system libraries are missing: "
            f"{', '.join(missing)}{install}."
        )
    if not x_server_answers(display):
        return (
            f"iaa-desktop: no X server answers on the display {display!r}: start one (or run "
            f"under xvfb-run), or {HEADLESS}."
        )
    return None


def check_libraries() -> int:
    """``python -m iaa_desktop.gui.display --check-libraries``: 0 when Qt's xcb plugin finds every
    library it loads, else 1 with the missing ones and their packages named (used by ./run)."""
    plugin = xcb_plugin()
    missing = missing_libraries(plugin) if plugin is not None else []
    if not missing:
        return 0
    packages = packages_for(missing)
    print(f"Qt's window plugin still lacks these libraries: {', '.join(missing)}", file=sys.stderr)
    if packages:
        print(f"  install them with:  sudo apt-get install {' '.join(packages)}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(check_libraries() if sys.argv[1:] == ["--check-libraries"] else 2)


__all__ = [
    "check_libraries",
    "display_problem",
    "missing_libraries",
    "package_list",
    "packages_for",
    "xcb_plugin",
]

"""Build the standalone application folder (PyInstaller one-dir) for the platform this runs on.

Usage::

    python packaging/build.py [--dist DIR] [--work DIR] [--no-check] [--clean]

The folder ``<dist>/iaa-desktop/`` holds the program ``iaa-desktop`` (``.exe`` on Windows; on
macOS also ``iaa-desktop.app``) and everything it loads: Python, Qt with its plugins, numpy,
pandas, scipy, matplotlib (with its fonts), LingPy (with its data), the app's icons and example
studies. On Linux the desktop entry, the AppStream metadata and the icons are added under
``share/`` so that ``packaging/README.md``'s install step puts the app in the desktop's menus.

After building, the script checks that the pieces the app needs are in the folder and runs the
bundled program once (``--version`` and a headless report of an example study), with the
environment cleared of Python variables, so a build that only works thanks to the build
machine's site-packages is caught here.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPEC = HERE / "iaa_desktop.spec"
NAME = "iaa-desktop"


def exe_name() -> str:
    return NAME + (".exe" if sys.platform == "win32" else "")


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def run_pyinstaller(dist: Path, work: Path, clean: bool) -> None:
    cmd = [
        sys.executable,
        "-m",
        "PyInstaller",
        str(SPEC),
        "--noconfirm",
        "--distpath",
        str(dist),
        "--workpath",
        str(work),
        "--log-level",
        "WARN",
    ]
    if clean:
        cmd.append("--clean")
    print("running:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)


def add_linux_desktop_files(app_dir: Path) -> None:
    """``share/applications``, ``share/metainfo`` and ``share/icons`` inside the folder."""
    share = app_dir / "share"
    (share / "applications").mkdir(parents=True, exist_ok=True)
    (share / "metainfo").mkdir(parents=True, exist_ok=True)
    shutil.copy2(
        ROOT / "resources" / "iaa-desktop.desktop", share / "applications" / "iaa-desktop.desktop"
    )
    for xml in (ROOT / "resources").glob("*.metainfo.xml"):
        shutil.copy2(xml, share / "metainfo" / xml.name)
    icons = share / "icons"
    if icons.exists():
        shutil.rmtree(icons)
    shutil.copytree(ROOT / "resources" / "icons" / "hicolor", icons / "hicolor")
    scalable = icons / "hicolor" / "scalable" / "apps"
    scalable.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "resources" / "icons" / "iaa-desktop.svg", scalable / "iaa-desktop.svg")


def find_internal(app_dir: Path) -> Path:
    """PyInstaller ≥ 6 puts everything but the program into ``_internal``."""
    internal = app_dir / "_internal"
    return internal if internal.is_dir() else app_dir


def check_contents(app_dir: Path) -> list[str]:
    """Names of the required pieces that are missing from the folder (empty = complete)."""
    internal = find_internal(app_dir)
    missing = []
    required = {
        "the program": [app_dir / exe_name()],
        "the app icon": [internal / "iaa_desktop" / "resources" / "icons" / "iaa-desktop.svg"],
        "the example studies": [
            internal
            / "iaa_desktop"
            / "resources"
            / "examples"
            / "coref"
            / "ruth-and-david.iaa-study"
        ],
        "matplotlib's fonts": [
            internal / "matplotlib" / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
        ],
        "matplotlib's settings": [internal / "matplotlib" / "mpl-data" / "matplotlibrc"],
    }
    plugin_roots = [p for p in internal.rglob("plugins") if p.is_dir() and "PySide6" in p.parts]

    def plugin(sub: str, stem: str) -> list[Path]:
        return [f for root in plugin_roots for f in (root / sub).glob(f"*{stem}*")]

    lingpy_data = list((internal / "lingpy").rglob("*.json")) + list(
        (internal / "lingpy").rglob("*.csv")
    )
    if not lingpy_data:
        missing.append("LingPy's data files")
    if sys.platform.startswith("linux"):
        for stem in ("qoffscreen", "qxcb"):
            if not plugin("platforms", stem):
                missing.append(f"the Qt platform plugin {stem}")
    elif sys.platform == "win32":
        for stem in ("qwindows", "qoffscreen"):
            if not plugin("platforms", stem):
                missing.append(f"the Qt platform plugin {stem}")
    elif sys.platform == "darwin":
        for stem in ("qcocoa", "qoffscreen"):
            if not plugin("platforms", stem):
                missing.append(f"the Qt platform plugin {stem}")
    for sub, stem in (
        ("imageformats", "qsvg"),
        ("imageformats", "qjpeg"),
        ("iconengines", "qsvgicon"),
    ):
        if not plugin(sub, stem):
            missing.append(f"the Qt plugin {sub}/{stem}")
    for what, paths in required.items():
        if not any(p.exists() for p in paths):
            missing.append(what)
    return missing


def clean_env() -> dict[str, str]:
    """The environment of a user without Python: no virtualenv, no PYTHONPATH/PYTHONHOME."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "VIRTUAL_ENV", "CONDA", "PYENV")) and k != "QT_PLUGIN_PATH"
    }
    path = [
        p for p in env.get("PATH", "").split(os.pathsep) if "venv" not in p and "pyenv" not in p
    ]
    env["PATH"] = os.pathsep.join(path)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    return env


def smoke_test(app_dir: Path) -> None:
    program = app_dir / exe_name()
    env = clean_env()
    t0 = time.perf_counter()
    out = subprocess.run(
        [str(program), "--version"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=app_dir.parent,
    )
    print(f"{out.stdout.strip()} (started and answered in {time.perf_counter() - t0:.2f} s)")
    examples = find_internal(app_dir) / "iaa_desktop" / "resources" / "examples" / "multilabel"
    t0 = time.perf_counter()
    out = subprocess.run(
        [
            str(program),
            "report",
            "--kind",
            "multilabel",
            str(examples / "annotations.tsv"),
            str(examples / "sentences.tsv"),
        ],
        env=env,
        capture_output=True,
        text=True,
        cwd=app_dir.parent,
    )
    if out.returncode != 0:
        raise SystemExit(f"the bundled report failed:\n{out.stderr}")
    print(f"bundled report of the multi-label example in {time.perf_counter() - t0:.2f} s:")
    print("  " + out.stdout.strip().replace("\n", "\n  "))
    if sys.platform.startswith("linux"):
        no_display_check(program, env, app_dir)


def no_display_check(program: Path, env: dict[str, str], app_dir: Path) -> None:
    """Without a display the bundled window command says so in one sentence (and, where Xvfb is
    not installed, one line installing it) and exits 2 (no offscreen window, no Qt abort)."""
    bare = {
        k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    out = subprocess.run(
        [str(program)], env=bare, capture_output=True, text=True, timeout=120, cwd=app_dir.parent
    )
    lines = out.stderr.strip().splitlines()
    extra = lines[1:] and not (len(lines) == 2 and "apt-get install xvfb" in lines[1])
    if out.returncode != 2 or not lines or "no display" not in lines[0] or extra:
        raise SystemExit(
            f"without a display the bundled program should exit 2 with one sentence; it exited "
            f"{out.returncode} with:\n{out.stderr}"
        )
    print(f"without a display: exit 2, {lines[0]!r}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--dist",
        type=Path,
        default=HERE / "dist",
        help="where the application folder goes (default packaging/dist)",
    )
    p.add_argument(
        "--work",
        type=Path,
        default=HERE / "build",
        help="PyInstaller's work folder (default packaging/build)",
    )
    p.add_argument("--clean", action="store_true", help="empty PyInstaller's cache first")
    p.add_argument(
        "--no-check", action="store_true", help="skip the content check and the test run"
    )
    ns = p.parse_args(argv)
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        print("PyInstaller is missing: pip install -e '.[packaging]'", file=sys.stderr)
        return 2
    if sys.platform.startswith("linux") and shutil.which("objdump") is None:
        # PyInstaller reads the libraries' dependencies with objdump
        print("objdump is missing (Debian/Ubuntu: apt-get install binutils)", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        run_pyinstaller(ns.dist.resolve(), ns.work.resolve(), ns.clean)
    except subprocess.CalledProcessError as e:
        print(f"PyInstaller failed (exit status {e.returncode}); see above", file=sys.stderr)
        return 1
    app_dir = ns.dist.resolve() / NAME
    if sys.platform.startswith("linux"):
        add_linux_desktop_files(app_dir)
    print(
        f"built {app_dir} in {time.perf_counter() - t0:.0f} s; size {folder_size(app_dir) / 2**20:.0f} MiB"
    )
    if ns.no_check:
        return 0
    missing = check_contents(app_dir)
    if missing:
        print("missing from the bundle: " + "; ".join(missing), file=sys.stderr)
        return 1
    smoke_test(app_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())

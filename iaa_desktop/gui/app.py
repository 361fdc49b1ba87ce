"""Building the application and the main window; the ``iaa-desktop`` and ``open`` commands.

No module-level application, window or settings: :func:`create_main_window` builds the object
graph, so the tests build the same one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from iaa_desktop import __version__

_T0 = time.perf_counter()  # when this module was imported: the start of the GUI command


def window_problem() -> str | None:
    """Why no window can be opened (the whole message), or ``None``; see
    :mod:`iaa_desktop.preflight` (the command dispatcher asks it before Qt is imported)."""
    from iaa_desktop.preflight import check_window

    return check_window()


def make_app(argv: Sequence[str] | None = None):
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication(list(argv or [sys.argv[0]]))
        app.setApplicationName("iaa_desktop")
        app.setOrganizationName("iaa_desktop")
        app.setApplicationVersion(__version__)
        app.setDesktopFileName(
            "iaa-desktop"
        )  # Wayland: window ↔ resources/iaa-desktop.desktop (its icon)
        _set_icon(app)
    from iaa_desktop.preflight import release_display

    release_display()  # Qt has its own connection now: the check's may go
    return app


def _set_icon(app) -> None:
    try:
        from importlib.resources import files

        from PySide6.QtGui import QIcon

        icon_dir = files("iaa_desktop") / "resources" / "icons"
        for name in ("iaa-desktop.svg", "iaa-desktop.png"):
            p = icon_dir / name
            if p.is_file():
                app.setWindowIcon(QIcon(str(p)))
                return
    except Exception:  # noqa: BLE001
        pass


def create_main_window(
    settings=None,
    inputs: Sequence[Path] = (),
    kind: str | None = None,
    options: dict | None = None,
    data_dir: Path | None = None,
):
    """The main window with its session; opens a study on ``inputs`` if any are given.

    ``data_dir`` is the user's data folder (example copies, stores of unsaved studies); by
    default Qt's ``AppDataLocation``.
    """
    from iaa_desktop.gui.main_window import MainWindow

    window = MainWindow(settings=settings, data_dir=data_dir)
    if inputs:
        open_inputs(window, [Path(p) for p in inputs], kind, options)
    return window


def open_inputs(window, inputs: list[Path], kind: str | None, options: dict | None = None) -> None:
    """A study file opens as saved (an example as its copy); data files open as a study."""
    if len(inputs) == 1 and str(inputs[0]).endswith(".iaa-study"):
        window.open_path(inputs[0])
    else:
        window.open_inputs(inputs, kind, options)


def example_names() -> list[str]:
    """The names of the bundled example studies (their kind folders), found without Qt."""
    from importlib.resources import files

    root = Path(str(files("iaa_desktop") / "resources" / "examples"))
    return sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.iaa-study")))


def example_study(name: str) -> Path | None:
    """The bundled example study of kind folder ``name`` (``judgments``, ``coref``, ...)."""
    from importlib.resources import files

    root = Path(str(files("iaa_desktop") / "resources" / "examples"))
    found = sorted((root / name).glob("*.iaa-study")) if name in example_names() else []
    return found[0] if found else None


def _wait_for_workers(timeout_ms: int = 15000) -> None:
    """Let background workers (the start-up warm-up, a figure) finish before the window goes, so
    none of them emits into a deleted object on the way out."""
    from PySide6.QtCore import QThreadPool

    QThreadPool.globalInstance().waitForDone(timeout_ms)


def _parse_gui_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="iaa-desktop", description="Open the main window.")
    p.add_argument(
        "inputs", nargs="*", type=Path, help="annotators' files or folders, or a .iaa-study file"
    )
    p.add_argument("--kind", default=None, help="kind of study (detected when left out)")
    p.add_argument(
        "--example",
        metavar="NAME",
        default=None,
        help=f"open a bundled example study ({', '.join(example_names())}) as your own copy "
        "in the user's data folder",
    )
    return p.parse_args(list(argv))


def _report_first_paint() -> None:
    """IAA_STARTUP_TIMING: when the window first painted, on the system-wide monotonic clock (so
    that a benchmark can subtract the moment it launched this process)."""
    print(
        f"window shown after {time.perf_counter() - _T0:.3f} s (from the GUI command); "
        f"first paint at monotonic {time.monotonic():.6f}",
        file=sys.stderr,
        flush=True,
    )


def cmd_gui(argv: Sequence[str]) -> int:
    ns = _parse_gui_args(argv)
    if ns.example:
        study = example_study(ns.example)
        if study is None:
            print(
                f"iaa-desktop: error: no example study named {ns.example!r} (the examples: "
                f"{', '.join(example_names())}).",
                file=sys.stderr,
            )
            return 2
        ns.inputs = [study]
    missing = [p for p in ns.inputs if not p.exists()]
    if missing:
        print(f"iaa-desktop: error: {missing[0]}: no such file or folder.", file=sys.stderr)
        return 2
    app = make_app()  # the dispatcher has checked the libraries and the display
    from PySide6.QtCore import QTimer

    from iaa_desktop.gui.main_window import MainWindow

    quit_after_show = bool(os.environ.get("IAA_QUIT_AFTER_SHOW"))
    window = MainWindow(warm_up=not quit_after_show)
    if os.environ.get("IAA_STARTUP_TIMING"):
        window.first_painted.connect(_report_first_paint)
    if quit_after_show:
        window.first_painted.connect(app.quit)
    elif os.environ.get("IAA_QUIT_AFTER_WARM_UP"):  # start-up tests: the warm-up imports too
        window.session.warmed_up.connect(app.quit)
    window.show()
    if ns.inputs:
        # start the study once the window is on screen
        QTimer.singleShot(0, lambda: open_inputs(window, list(ns.inputs), ns.kind))
    code = app.exec()
    _wait_for_workers()
    return code


def _open_parser(add_help: bool) -> argparse.ArgumentParser:
    from iaa_desktop.cli import add_study_permissions
    from iaa_desktop.core.kinds import kind_names

    p = argparse.ArgumentParser(
        prog="iaa-desktop open",
        add_help=add_help,
        description="Open the window on INPUTS, wait for the results, save a screenshot and exit.",
    )
    p.add_argument("inputs", nargs="*" if not add_help else "+", type=Path)
    p.add_argument("--kind", choices=kind_names())
    p.add_argument(
        "--screenshot",
        type=Path,
        help="PNG file to write (without a display the window is drawn offscreen)",
    )
    p.add_argument("--size", default="1280x720", help="window size WxH (default 1280x720)")
    p.add_argument(
        "--tab", default=None, help="select the results tab with this title before the screenshot"
    )
    p.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for the results")
    add_study_permissions(p)
    return p


def _parse_open_args(argv: Sequence[str]) -> tuple[argparse.Namespace, str | None, dict] | int:
    """The options of ``open``, the kind and its resolved options; an exit status on an error."""
    from iaa_desktop.core.errors import IaaError
    from iaa_desktop.core.kinds import detect_kind, get_kind
    from iaa_desktop.core.kinds.spec import ResolvedOptions, add_settings_to_parser

    known, _ = _open_parser(False).parse_known_args(list(argv))
    inputs = [Path(p) for p in known.inputs]
    is_study = len(inputs) == 1 and str(inputs[0]).endswith(".iaa-study")
    kind_name = known.kind or (None if is_study or not inputs else detect_kind(inputs))
    parser = _open_parser(True)
    if kind_name:
        add_settings_to_parser(
            parser.add_argument_group(f"options of --kind {kind_name}"),
            get_kind(kind_name).settings,
        )
    ns = parser.parse_args(list(argv))
    for p in ns.inputs:
        if not Path(p).exists():
            print(f"iaa-desktop: error: {p}: no such file or folder.", file=sys.stderr)
            return 2
    options: dict[str, Any] = {}
    if kind_name and not is_study:
        spec = get_kind(kind_name)
        given = {s.name: getattr(ns, s.name, None) for s in spec.settings}
        try:
            chosen = spec.resolve(given)  # as the command line's report resolves them
        except IaaError as e:
            print(f"iaa-desktop: error: {e}", file=sys.stderr)
            return 2
        # the study records every setting's value: what was given over the defaults
        record = chosen.record() if isinstance(chosen, ResolvedOptions) else chosen
        options = {**{s.name: s.default for s in spec.settings}, **record}
    return ns, kind_name if ns.kind else None, options


def cmd_open(argv: Sequence[str]) -> int:
    """``iaa-desktop open INPUTS... --screenshot PNG``: show the results, save a screenshot, exit."""
    parsed = _parse_open_args(argv)
    if isinstance(parsed, int):
        return parsed
    ns, kind_name, options = parsed
    try:
        w, h = (int(x) for x in ns.size.lower().split("x"))
    except ValueError:
        print("iaa-desktop: error: --size must look like 1280x720", file=sys.stderr)
        return 2

    problem = window_problem()
    if problem:
        if not ns.screenshot:
            print(problem, file=sys.stderr)
            return 2
        # a screenshot needs no screen: draw offscreen, as asked for by --screenshot
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        _quiet_offscreen()
    app = make_app()
    import tempfile

    from PySide6.QtCore import QSettings

    with tempfile.TemporaryDirectory(prefix="iaa-open-") as tmp:
        # a throw-away settings file: the screenshot neither reads nor changes what the user's
        # window remembers
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        window = create_main_window(settings=settings)
        window.resize(w, h)
        window.show()
        failures: list[str] = []
        window.session.computation_failed.connect(lambda m, _d: failures.append(m))
        open_inputs(window, list(ns.inputs), kind_name, options)
        if not _answer_study_question(window, ns):
            return 2
        done = window.session.wait(ns.timeout)
        window.resize(w, h)  # the size asked for, not the one remembered for the kind of view
        app.processEvents()
        if not done:
            print(f"iaa-desktop: error: no results after {ns.timeout:.0f} s.", file=sys.stderr)
            return 2
        if failures and window.session.result is None:
            print(f"iaa-desktop: error: {failures[-1]}", file=sys.stderr)
        return _finish_screenshot(app, window, ns)


def _answer_study_question(window, ns: argparse.Namespace) -> bool:
    """What the window asks or refuses about a study file, answered from the command line's
    ``--allow-…`` flags; False (with the reason on stderr) when the study is not opened."""
    from iaa_desktop.gui.confirm import OPEN, OPEN_NO_OUTPUTS

    bar = window.message_bar
    if bar.asking:
        if getattr(bar.subject, "outside", ()) and not ns.allow_outside_inputs:
            print(
                f"iaa-desktop: error: {bar.details.text()}\nOpen it only if you trust it: "
                "--allow-outside-inputs.",
                file=sys.stderr,
            )
            return False
        choice = OPEN if ns.allow_study_outputs else OPEN_NO_OUTPUTS
        bar.buttons[choice if choice in bar.buttons else OPEN].click()
    elif bar.isVisibleTo(window) and window.session.study is None:
        print(f"iaa-desktop: error: {bar.text.text()} {bar.details.text()}", file=sys.stderr)
        return False
    return True


def _quiet_offscreen() -> None:
    """Drop the offscreen platform's note that windows have no size hints (said for every window,
    and meaningless for a screenshot); every other Qt message still reaches stderr."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode, _context, message: str) -> None:
        if "propagateSizeHints" not in message:
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


def _finish_screenshot(app, window, ns: argparse.Namespace) -> int:
    if ns.tab and not window.select_tab(ns.tab):
        titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
        print(
            f"iaa-desktop: warning: no tab named {ns.tab!r} (tabs: {', '.join(titles)})",
            file=sys.stderr,
        )
    for _ in range(5):  # let layouts and canvases settle
        app.processEvents()
        time.sleep(0.05)
    _wait_for_workers()
    code = 0 if window.session.result is not None else 2
    if ns.screenshot:
        ns.screenshot.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(ns.screenshot)):
            print(f"iaa-desktop: error: cannot write {ns.screenshot}", file=sys.stderr)
            code = 2
        else:
            print(f"screenshot written: {ns.screenshot}")
    window.close()
    return code

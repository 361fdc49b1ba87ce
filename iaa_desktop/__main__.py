"""``python -m iaa_desktop`` and the ``iaa-desktop`` entry point: the command dispatcher.

The headless commands (``report``, ``gold``) run from :mod:`iaa_desktop.cli`, which imports the
core only; the window commands (``open`` and the plain GUI) import :mod:`iaa_desktop.gui`, once
:mod:`iaa_desktop.preflight` has found Qt's libraries and a display (else one message, exit 2).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from collections.abc import Callable, Sequence


def _open(args: Sequence[str]) -> int:
    from iaa_desktop.gui.app import cmd_open

    return int(cmd_open(list(args)) or 0)


#: window sub-command name → its entry point, ``(argv) -> exit status``
WINDOW_COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {"open": _open}


def usage() -> str:
    return (
        "usage: iaa-desktop [INPUTS...]                 open the main window\n"
        "       iaa-desktop report [--kind KIND] INPUTS... [--json PATH|-] [--csv DIR]\n"
        "       iaa-desktop gold --strategy unanimous|majority|annotator:NAME INPUTS... --out DIR\n"
        "       iaa-desktop open INPUTS... --screenshot PNG\n"
        "       iaa-desktop SUBCOMMAND --help           options of a sub-command\n"
    )


def _preflight(args: list[str]) -> str | None:
    """Before Qt is imported: what keeps the window from opening (every problem, with the one
    command that installs what is missing), or ``None``. ``open --screenshot`` needs no display."""
    from iaa_desktop.preflight import check_window

    screenshot = args[:1] == ["open"] and any(a.startswith("--screenshot") for a in args)
    return check_window(display=not screenshot)


def _one_blas_thread() -> None:
    """Unless the user chose otherwise, numpy's OpenBLAS runs in the calling thread.

    Its worker threads busy-wait after every call that woke them (matplotlib's transforms make
    thousands): a report or the window spent 0.3–0.9 s of CPU in their waiting (system time),
    a third of a PDF report's, for no gain in wall time — the computations here are counting
    passes and small matrices (measured in bench/bench_studies.py). Set before numpy loads.
    """
    if not {"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"} & set(os.environ):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def main(argv: Sequence[str] | None = None) -> int:
    _one_blas_thread()
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        print(usage())
        return 0
    if args and args[0] == "--version":
        from iaa_desktop import __version__

        print(f"iaa-desktop {__version__}")
        return 0
    from iaa_desktop.cli import COMMANDS
    from iaa_desktop.cli import main as cli_main

    if args and args[0] in COMMANDS:
        # at exit the interpreter's collections would walk every object the command created
        # (tables, matplotlib, Typst: a tenth to a third of a second of CPU, more than many
        # a command's work); the objects alive then are set aside and the system frees the
        # memory. Files are written and closed before the command returns.
        atexit.register(gc.freeze)
        return cli_main(args)
    if not {"-h", "--help"} & set(args):
        stop = _preflight(args)
        if stop:
            print(stop, file=sys.stderr)
            return 2
    if args and args[0] in WINDOW_COMMANDS:
        return WINDOW_COMMANDS[args[0]](args[1:])
    from iaa_desktop.gui.app import cmd_gui

    return int(cmd_gui(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

"""Headless commands: ``iaa-desktop report ...`` (and the dispatch for the GUI commands).

This module imports only :mod:`iaa_desktop.core`; the GUI is imported lazily by
:func:`main` when a window is asked for.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .core.errors import IaaError
from .core.progress import Progress, run_to_end
from .core.tasks import detect_kind, get_kind, kind_names
from .core.tasks.base import TaskResult, add_settings_to_parser, resolve_options

EXIT_OK = 0
EXIT_INPUT_ERRORS = 1  # results written, but some input had problems
EXIT_FAILED = 2  # nothing could be computed, or the command line was wrong


def _base_report_parser(prog: str = "iaa-desktop report", add_help: bool = True) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Compute agreement headless and write the results.",
        add_help=add_help,
    )
    p.add_argument("inputs", nargs="*" if not add_help else "+", type=Path, help="files or folders: one per annotator, or one table holding all; or one .iaa-study file")
    p.add_argument("--kind", choices=kind_names(), help="kind of study (detected from the inputs when left out)")
    p.add_argument("--json", dest="json_out", metavar="PATH|-", help="write the results as JSON ('-' = standard output)")
    p.add_argument("--csv", dest="csv_dir", metavar="DIR", type=Path, help="write every result table as CSV into DIR")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")
    return p


def _study_input(inputs: Sequence[str]) -> Any:
    """The loaded study when the only input is a ``.iaa-study`` file, else None."""
    if len(inputs) != 1 or not str(inputs[0]).endswith(".iaa-study"):
        return None
    from .core.study_file import load_study

    return load_study(inputs[0])


def parse_report_args(argv: Sequence[str]) -> tuple[argparse.Namespace, str, dict[str, Any]]:
    """Parse in two steps: find the kind, then add that kind's own options."""
    # first pass without --help, so that `report --kind K --help` lists K's own options
    base = _base_report_parser(add_help=False)
    known, _rest = base.parse_known_args(list(argv))
    study = _study_input(known.inputs)
    kind_name = known.kind or (study.kind if study else None)
    kind_name = kind_name or (detect_kind([Path(p) for p in known.inputs]) if known.inputs else "table")
    kind = get_kind(kind_name)
    full = _base_report_parser()
    add_settings_to_parser(full.add_argument_group(f"options of --kind {kind_name}"), kind.settings)
    _add_output_extensions(full)
    ns = full.parse_args(list(argv))
    given = {s.name: getattr(ns, s.name, None) for s in kind.settings}
    if study is not None:
        # a study file: its inputs and saved options; flags given on the command line win
        ns.inputs = list(study.inputs)
        given = {k: study.options.get(k) if v is None else v for k, v in given.items()}
    return ns, kind_name, resolve_options(kind.settings, given)


#: extra output options other modules add (e.g. the PDF report); name → callable(parser)
OUTPUT_EXTENSIONS: list[Any] = []
#: writers called after the result is computed: callable(ns, result) -> list of written paths
OUTPUT_WRITERS: list[Any] = []

from .core.export import report_cli as _report_cli  # noqa: E402  (--pdf/--html/--paper; light import)

_report_cli.register(OUTPUT_EXTENSIONS, OUTPUT_WRITERS)


def _add_output_extensions(parser: argparse.ArgumentParser) -> None:
    for ext in OUTPUT_EXTENSIONS:
        ext(parser)


def compute(kind_name: str, inputs: Sequence[Path], options: dict[str, Any], quiet: bool = True) -> TaskResult:
    kind = get_kind(kind_name)
    last = [-1]

    def show(p: Progress) -> None:
        if quiet:
            return
        pct = int(p.fraction * 100)
        if pct != last[0]:
            last[0] = pct
            print(f"\r{pct:3d}% {p.message[:60]:<60}", end="", file=sys.stderr, flush=True)

    result = run_to_end(kind.run([Path(p) for p in inputs], options), show)
    if not quiet:
        print("\r" + " " * 66 + "\r", end="", file=sys.stderr, flush=True)
    return result


def result_json(result: TaskResult) -> dict[str, Any]:
    data = result.to_json()
    data.setdefault("kind", result.kind)
    data["errors"] = result.errors_json()
    data["warnings"] = result.warnings_json()
    data["app_version"] = __version__
    return data


def cmd_report(argv: Sequence[str]) -> int:
    from .core.export.csvio import to_json_text, write_csv_tables, write_json

    try:
        ns, kind_name, options = parse_report_args(argv)
        for p in ns.inputs:
            if not Path(p).exists():
                raise IaaError(f"{p}: no such file or folder.")
        result = compute(kind_name, ns.inputs, options, quiet=ns.quiet or not sys.stderr.isatty())
    except IaaError as e:
        print(f"iaa-desktop: error: {e}", file=sys.stderr)
        return EXIT_FAILED
    except Exception as e:  # a bug, not bad input: say so in one line, details only on request
        if os.environ.get("IAA_DEBUG"):
            raise
        print(f"iaa-desktop: internal error ({type(e).__name__}: {e}); rerun with IAA_DEBUG=1 for details "
              "and please report it.", file=sys.stderr)
        return EXIT_FAILED
    for err in result.errors:
        print(f"iaa-desktop: error: {err}", file=sys.stderr)
    for w in result.warnings:
        print(f"iaa-desktop: warning: {w}", file=sys.stderr)
    try:
        if ns.json_out == "-":
            sys.stdout.write(to_json_text(result_json(result)))
        elif ns.json_out:
            write_json(result_json(result), ns.json_out)
        if ns.csv_dir:
            write_csv_tables(result.tables(), ns.csv_dir)
        for writer in OUTPUT_WRITERS:
            writer(ns, result)
    except OSError as e:
        print(f"iaa-desktop: error: cannot write output: {e}", file=sys.stderr)
        return EXIT_FAILED
    except IaaError as e:
        print(f"iaa-desktop: error: {e}", file=sys.stderr)
        return EXIT_FAILED
    if not (ns.json_out or ns.csv_dir or any(getattr(ns, a, None) for a in ("pdf", "html"))):
        for name, value in result.headline():
            print(f"{name}: {value}")
    return EXIT_INPUT_ERRORS if result.errors else EXIT_OK


#: sub-command name → module with ``main(argv) -> int`` (lazy imports keep start-up fast)
COMMANDS: dict[str, str] = {
    "report": "iaa_desktop.cli:cmd_report",
    "open": "iaa_desktop.gui.app:cmd_open",
    "gold": "iaa_desktop.gold_cli:cmd_gold",
}


def usage() -> str:
    return (
        "usage: iaa-desktop [INPUTS...]                 open the main window\n"
        "       iaa-desktop report [--kind KIND] INPUTS... [--json PATH|-] [--csv DIR]\n"
        "       iaa-desktop open INPUTS... --screenshot PNG\n"
        + "".join(f"       iaa-desktop {c} ...\n" for c in COMMANDS if c not in ("report", "open"))
        + "       iaa-desktop SUBCOMMAND --help           options of a sub-command\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    import importlib

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        print(usage())
        return EXIT_OK
    if argv and argv[0] == "--version":
        print(f"iaa-desktop {__version__}")
        return EXIT_OK
    if argv and argv[0] in COMMANDS:
        module, func = COMMANDS[argv[0]].split(":")
        return int(getattr(importlib.import_module(module), func)(argv[1:]) or 0)
    from .gui.app import cmd_gui

    return int(cmd_gui(argv) or 0)

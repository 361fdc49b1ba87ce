"""Headless commands: ``iaa-desktop report ...`` and ``iaa-desktop gold ...``.

This module imports only :mod:`iaa_desktop.core`; the window commands are dispatched by
:mod:`iaa_desktop.__main__`, which hands every other command to :func:`main` here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from iaa_desktop.core.kinds.spec import ResolvedOptions, result_json
from iaa_desktop.study_command import (
    EXIT_FAILED,
    EXIT_INPUT_ERRORS,
    EXIT_OK,
    add_study_permissions,
    check_inputs,
    compute,
    kind_command_parser,
    parse_kind_args,
    run_guarded,
)

__all__ = [
    "COMMANDS",
    "EXIT_FAILED",
    "EXIT_INPUT_ERRORS",
    "EXIT_OK",
    "add_study_permissions",
    "check_inputs",
    "cmd_report",
    "compute",
    "kind_command_parser",
    "main",
    "parse_kind_args",
    "parse_report_args",
    "run_guarded",
]


def _base_report_parser(add_help: bool = True) -> argparse.ArgumentParser:
    p = kind_command_parser(
        "iaa-desktop report",
        "Compute agreement headless and write the results.",
        add_help,
        "files or folders: one per annotator, or one table holding all; or one .iaa-study file",
    )
    p.add_argument(
        "--json",
        dest="json_out",
        metavar="PATH|-",
        help="write the results as JSON ('-' = standard output)",
    )
    p.add_argument(
        "--csv",
        dest="csv_dir",
        metavar="DIR",
        type=Path,
        help="write every result table as CSV into DIR",
    )
    add_study_permissions(p)
    return p


def _report_parser(add_help: bool) -> argparse.ArgumentParser:
    p = _base_report_parser(add_help=add_help)
    if add_help:
        _add_output_extensions(p)
    return p


def parse_report_args(
    argv: Sequence[str],
) -> tuple[argparse.Namespace, str, ResolvedOptions | dict[str, Any]]:
    return parse_kind_args(_report_parser, argv, study_file=True)


#: extra output options other modules add (e.g. the PDF report); name → callable(parser)
OUTPUT_EXTENSIONS: list[Any] = []
#: writers called after the result is computed: callable(ns, result) -> list of written paths
OUTPUT_WRITERS: list[Any] = []
#: what those options add to the ``--json`` document and to the console's headline:
#: callable(ns, result) -> (JSON keys, headline lines)
OUTPUT_RECORDS: list[Any] = []

from iaa_desktop.core.export import report_cli as _report_cli  # noqa: E402

_report_cli.register(OUTPUT_EXTENSIONS, OUTPUT_WRITERS, OUTPUT_RECORDS)


def _add_output_extensions(parser: argparse.ArgumentParser) -> None:
    for ext in OUTPUT_EXTENSIONS:
        ext(parser)


def cmd_report(argv: Sequence[str]) -> int:
    from iaa_desktop.core.io import (
        protecting_inputs,
        refuse_replacing_inputs,
        to_json_text,
        write_csv_tables,
        write_json,
        writing_into,
    )

    state: dict[str, Any] = {}

    def compute_step() -> None:
        ns, kind_name, options = parse_report_args(argv)
        check_inputs(ns.inputs)
        outputs = [ns.json_out, *(getattr(ns, a, None) for a in ("pdf", "html"))]
        refuse_replacing_inputs(outputs, ns.inputs)
        state["ns"] = ns
        state["result"] = compute(
            kind_name, ns.inputs, options, quiet=ns.quiet or not sys.stderr.isatty()
        )

    failed = run_guarded(compute_step)
    if failed is not None:
        return failed
    ns, result = state["ns"], state["result"]
    for err in result.errors:
        print(f"iaa-desktop: error: {err}", file=sys.stderr)
    for w in result.warnings:
        print(f"iaa-desktop: warning: {w}", file=sys.stderr)

    extra: dict[str, Any] = {}
    headline: list[tuple[str, str]] = []

    def write_step() -> None:
        for record in OUTPUT_RECORDS:
            keys, lines = record(ns, result)
            extra.update(keys)
            headline.extend(lines)
        with protecting_inputs(ns.inputs):  # no table of --csv may replace an input
            if ns.json_out == "-":
                sys.stdout.write(to_json_text({**result_json(result), **extra}))
            elif ns.json_out:
                write_json({**result_json(result), **extra}, ns.json_out)
            if ns.csv_dir:
                with writing_into(ns.csv_dir):
                    write_csv_tables(result.tables(), ns.csv_dir)
            for writer in OUTPUT_WRITERS:
                writer(ns, result)

    failed = run_guarded(write_step)
    if failed is not None:
        return failed
    if not (ns.json_out or ns.csv_dir or any(getattr(ns, a, None) for a in ("pdf", "html"))):
        for name, value in [*result.headline(), *headline]:
            print(f"{name}: {value}")
    # a kind's further console text (e.g. a model comparison); on stderr when stdout holds JSON
    text = getattr(result, "console_text", lambda: "")()
    if text:
        print(text, file=sys.stderr if ns.json_out == "-" else sys.stdout)
    return EXIT_INPUT_ERRORS if result.errors else EXIT_OK


def _gold(argv: Sequence[str]) -> int:
    from iaa_desktop.gold_cli import cmd_gold

    return cmd_gold(argv)


def _plan(argv: Sequence[str]) -> int:
    from iaa_desktop.plan_cli import cmd_plan

    return cmd_plan(argv)


#: headless sub-command name → its entry point, ``(argv) -> exit status``
COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "report": cmd_report,
    "gold": _gold,
    "plan": _plan,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one headless sub-command (``report``, ``gold``); the window commands are in
    :mod:`iaa_desktop.__main__`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        print(
            f"iaa-desktop: error: unknown command; choose one of: {', '.join(COMMANDS)}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return int(COMMANDS[argv[0]](argv[1:]) or 0)

"""What every headless command over a study shares: the kind and its options from the command
line (or a ``.iaa-study`` file), the checks of the inputs, the computation with progress on
standard error, and one line on standard error instead of a traceback.

The commands themselves are :mod:`iaa_desktop.cli` (``report``) and :mod:`iaa_desktop.gold_cli`
(``gold``); this module imports only :mod:`iaa_desktop.core`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import IaaError, OptionError, ReaderError, shown_path
from iaa_desktop.core.kinds import FALLBACK_KIND, detect_kind, get_kind, kind_names
from iaa_desktop.core.kinds.spec import (
    GivenOptions,
    ResolvedOptions,
    TaskResult,
    add_settings_to_parser,
)
from iaa_desktop.core.progress import Progress, run_to_end

EXIT_OK = 0
EXIT_INPUT_ERRORS = 1  # results written, but some input had problems
EXIT_FAILED = 2  # nothing could be computed, or the command line was wrong


def kind_command_parser(
    prog: str, description: str, add_help: bool, inputs_help: str
) -> argparse.ArgumentParser:
    """The options every command over a study has: the inputs, ``--kind`` and ``--quiet``."""
    p = argparse.ArgumentParser(prog=prog, description=description, add_help=add_help)
    p.add_argument("inputs", nargs="+" if add_help else "*", type=Path, help=inputs_help)
    p.add_argument(
        "--kind",
        choices=kind_names(),
        help="kind of study (detected from the inputs when left out)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")
    return p


def add_study_permissions(p: argparse.ArgumentParser) -> None:
    """The options that let a ``.iaa-study`` file reach beyond its own folder."""
    p.add_argument(
        "--allow-outside-inputs",
        action="store_true",
        help="a .iaa-study file may read inputs outside its own folder (only for studies you trust)",
    )
    p.add_argument(
        "--allow-study-outputs",
        action="store_true",
        help="a .iaa-study file may name folders to write into (e.g. its iaa_dir option)",
    )


def _study_input(inputs: Sequence[str], ns: argparse.Namespace | None = None) -> Any:
    """The loaded study when the only input is a ``.iaa-study`` file, else None.

    A study file reads only below its own folder and writes nowhere it names, unless the command
    line allows it (``--allow-outside-inputs``, ``--allow-study-outputs``).
    """
    if len(inputs) != 1 or not str(inputs[0]).endswith(".iaa-study"):
        return None
    from iaa_desktop.core.study_file import check_study_paths, confine_study, load_study

    study = load_study(inputs[0])
    try:
        study, notes = confine_study(
            study,
            check_study_paths(study, inputs[0]),
            allow_outside=bool(getattr(ns, "allow_outside_inputs", False)),
            allow_outputs=bool(getattr(ns, "allow_study_outputs", False)),
        )
    except OptionError as e:  # named by the study file that asks it
        raise OptionError(f"{shown_path(inputs[0])}: {e}") from None
    for note in notes:
        print(f"iaa-desktop: warning: {inputs[0]}: {note}", file=sys.stderr)
    return study


def parse_kind_args(
    make_parser: Any, argv: Sequence[str], study_file: bool = False
) -> tuple[argparse.Namespace, str, ResolvedOptions | dict[str, Any]]:
    """Parse in two steps: find the kind, then add that kind's own options.

    ``make_parser(add_help)`` builds the command's parser; with ``study_file`` a single
    ``.iaa-study`` input stands for its kind, inputs and saved options (flags given win). The
    options come back resolved by the kind (:meth:`KindSpec.resolve`), which computes with them
    as they are.
    """
    # first pass without --help, so that `CMD --kind K --help` lists K's own options
    known, _rest = make_parser(False).parse_known_args(list(argv))
    study = _study_input(known.inputs, known) if study_file else None
    kind_name = known.kind or (study.kind if study else None)
    kind_name = kind_name or (
        detect_kind([Path(p) for p in known.inputs]) if known.inputs else FALLBACK_KIND
    )
    try:
        kind = get_kind(kind_name)
    except OptionError as e:
        if study is None or known.kind:
            raise
        raise ReaderError(Path(known.inputs[0]), None, f"{e}") from None
    full = make_parser(True)
    add_settings_to_parser(full.add_argument_group(f"options of --kind {kind_name}"), kind.settings)
    ns = full.parse_args(list(argv))
    given = {s.name: getattr(ns, s.name, None) for s in kind.settings}
    if study is not None:
        ns.inputs = list(study.inputs)
        given = {k: study.options.get(k) if v is None else v for k, v in given.items()}
        try:
            return ns, kind_name, kind.resolve(given)
        except OptionError as e:  # the study file's own options (flags are checked by argparse)
            raise ReaderError(Path(known.inputs[0]), None, f"in its options: {e}") from None
    return ns, kind_name, kind.resolve(given)


def check_inputs(inputs: Sequence[Path]) -> None:
    """Every input exists; a file is a regular file within the size limit (never a device or a
    pipe, which would never end or block)."""
    from iaa_desktop.core.textio import check_input_file

    for p in inputs:
        if not Path(p).exists():
            raise IaaError(f"{shown_path(p)}: no such file or folder.")
        if not Path(p).is_dir():
            check_input_file(Path(p))


def run_guarded(body: Any, what: str = "output") -> int | None:
    """Run ``body()``; bad input and write failures become one line on stderr and exit 2.

    Returns ``None`` when ``body`` finished, else the exit status. A bug prints one line (the
    traceback only with ``IAA_DEBUG=1``).
    """
    try:
        body()
    except IaaError as e:
        print(f"iaa-desktop: error: {e}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as e:
        where = f"{shown_path(e.filename)}: " if e.filename else ""
        print(
            f"iaa-desktop: error: {where}{e.strerror or e} (reading the inputs or writing the "
            f"{what}).",
            file=sys.stderr,
        )
        return EXIT_FAILED
    except Exception as e:
        if os.environ.get("IAA_DEBUG"):
            raise
        print(
            f"iaa-desktop: internal error ({type(e).__name__}: {e}); rerun with IAA_DEBUG=1 for details "
            "and please report it.",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return None


def compute(
    kind_name: str, inputs: Sequence[Path], options: GivenOptions, quiet: bool = True
) -> TaskResult:
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

"""Headless gold: ``iaa-desktop gold --strategy unanimous|majority|annotator:NAME|inferred[:T] INPUTS... --out DIR``.

Writes the automatically merged gold in the inputs' own format (every unit present, undecided
ones left empty so the file loads back with them as missing values), ``undecided.csv`` (the units
still to decide, with every annotator's version) and ``gold_summary.json``. Majority means more
than half of the annotators of the unit (``--min-share`` raises the bar). ``inferred`` takes the
label Dawid & Skene's (1979) model infers from every annotator's responses, in a study computed
with ``--competence``; ``inferred:0.9`` only where its posterior is at least 0.9.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.kinds.spec import ENCODING, GivenOptions, ResolvedOptions, given_of
from iaa_desktop.study_command import (
    EXIT_INPUT_ERRORS,
    EXIT_OK,
    check_inputs,
    compute,
    kind_command_parser,
    parse_kind_args,
    run_guarded,
)


def _parser(add_help: bool = True) -> argparse.ArgumentParser:
    p = kind_command_parser(
        "iaa-desktop gold",
        "Write the automatically merged gold and the list of units still to decide.",
        add_help,
        "files or folders, as for 'report'",
    )
    p.add_argument(
        "--strategy",
        default="unanimous",
        help="unanimous (default), majority, annotator:NAME (that annotator's version), or "
        "inferred (the label Dawid-Skene infers; needs --competence), inferred:0.9 (only where "
        "its posterior is at least 0.9)",
    )
    p.add_argument(
        "--min-share",
        type=float,
        default=None,
        dest="min_share",
        help="majority: the share of the unit's annotators the value needs (default: more than half)",
    )
    p.add_argument("--out", required=add_help, type=Path, help="folder to write the gold into")
    return p


def parse_gold_args(
    argv: Sequence[str],
) -> tuple[argparse.Namespace, str, ResolvedOptions | dict[str, Any]]:
    return parse_kind_args(_parser, argv)


def build_model(
    kind_name: str,
    inputs: Sequence[Path],
    options: GivenOptions,
    quiet: bool = True,
    compare: bool = False,
) -> tuple[Any, list[Any]]:
    """The adjudication units of the inputs, and the reader problems (list of ReaderError);
    ``compare``: from the comparison even where the kind reads units without one (the
    inferred labels come from it)."""
    from iaa_desktop.core.adjudication import units_for

    spec = get_kind(kind_name)
    if spec.gold_units is not None and not compare:  # units that need no comparison (faster)
        from iaa_desktop.core.textio import encoding_scope

        record = options.record() if isinstance(options, ResolvedOptions) else dict(options)
        with encoding_scope(given_of(options).get(ENCODING.name) or None):
            return spec.gold_units([Path(p) for p in inputs], record)
    result = compute(kind_name, inputs, options, quiet=quiet)
    return units_for(result), list(result.errors)


def cmd_gold(argv: Sequence[str]) -> int:
    """Entry point of ``iaa-desktop gold``."""
    import json

    import numpy as np

    from iaa_desktop.core.adjudication.model import Strategy, auto_merge
    from iaa_desktop.core.io import (
        protecting_inputs,
        write_csv,
        write_text_atomic,
        writing_into,
    )

    state: dict[str, Any] = {}

    def body() -> None:
        with contextlib.ExitStack() as guard:
            ns, kind_name, options = parse_gold_args(argv)
            check_inputs(ns.inputs)
            guard.enter_context(protecting_inputs(ns.inputs))  # --out never replaces an input
            guard.enter_context(writing_into(ns.out))  # nor writes into a pipe found there
            strategy = Strategy.parse(ns.strategy, ns.min_share)
            model, errors = build_model(
                kind_name,
                ns.inputs,
                options,
                quiet=ns.quiet or not sys.stderr.isatty(),
                compare=strategy.name == "inferred",
            )
            gold = auto_merge(model, strategy)
            out: Path = ns.out
            out.mkdir(parents=True, exist_ok=True)
            files = model.write_gold(gold, out)
            undecided = np.flatnonzero(np.array([v is None for v in gold], dtype=bool))
            rows: dict[str, Any] = {
                "unit": [model.keys[i] for i in undecided],
                "title": [model.titles[i] for i in undecided],
                "group": [model.groups[i] for i in undecided],
            }
            for x, a in enumerate(model.annotators):
                rows[a] = [
                    model.value_text(i, model.versions[i, x])
                    if model.versions[i, x] is not None
                    else ""
                    for i in undecided
                ]
            import pandas as pd

            write_csv(pd.DataFrame(rows), out / "undecided.csv")
            summary = {
                "kind": kind_name,
                "strategy": str(strategy),
                "min_share": strategy.min_share,
                **({"threshold": strategy.threshold} if strategy.name == "inferred" else {}),
                "n_units": model.n_units,
                "n_decided": int(model.n_units - len(undecided)),
                "n_undecided": int(len(undecided)),
                "annotators": list(model.annotators),
                "files": [str(f) for f in files] + [str(out / "undecided.csv")],
            }
            write_text_atomic(
                out / "gold_summary.json", json.dumps(summary, ensure_ascii=False, indent=2) + "\n"
            )
            state.update(ns=ns, errors=errors, summary=summary, strategy=strategy, out=out)

    failed = run_guarded(body, what="gold")
    if failed is not None:
        return failed
    ns, errors, summary, strategy, out = (
        state["ns"],
        state["errors"],
        state["summary"],
        state["strategy"],
        state["out"],
    )
    for err in errors:
        print(f"iaa-desktop: error: {err}", file=sys.stderr)
    if not ns.quiet:
        print(
            f"{summary['n_decided']} of {summary['n_units']} units merged ({strategy}); "
            f"{summary['n_undecided']} to decide, listed in {out / 'undecided.csv'}"
        )
    return EXIT_INPUT_ERRORS if errors else EXIT_OK

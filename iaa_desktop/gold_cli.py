"""Headless gold: ``iaa-desktop gold --strategy unanimous|majority|annotator:NAME INPUTS... --out DIR``.

Writes the automatically merged gold in the inputs' own format (every unit present, undecided
ones left empty so the file loads back with them as missing values), ``undecided.csv`` (the units
still to decide, with every annotator's version) and ``gold_summary.json``. Majority means more
than half of the annotators of the unit (``--min-share`` raises the bar).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .cli import EXIT_FAILED, EXIT_INPUT_ERRORS, EXIT_OK, compute
from .core.errors import IaaError
from .core.tasks import detect_kind, get_kind, kind_names
from .core.tasks.base import add_settings_to_parser, resolve_options


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="iaa-desktop gold",
        description="Write the automatically merged gold and the list of units still to decide.",
    )
    p.add_argument("inputs", nargs="+", type=Path, help="files or folders, as for 'report'")
    p.add_argument(
        "--kind",
        choices=kind_names(),
        help="kind of study (detected from the inputs when left out)",
    )
    p.add_argument(
        "--strategy",
        default="unanimous",
        help="unanimous (default), majority, or annotator:NAME (that annotator's version)",
    )
    p.add_argument(
        "--min-share",
        type=float,
        default=None,
        dest="min_share",
        help="majority: the share of the unit's annotators the value needs (default: more than half)",
    )
    p.add_argument("--out", required=True, type=Path, help="folder to write the gold into")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")
    return p


def parse_gold_args(argv: Sequence[str]) -> tuple[argparse.Namespace, str, dict[str, Any]]:
    known, _ = _parser().parse_known_args(list(argv))
    kind_name = known.kind or detect_kind([Path(p) for p in known.inputs])
    kind = get_kind(kind_name)
    full = _parser()
    add_settings_to_parser(full.add_argument_group(f"options of --kind {kind_name}"), kind.settings)
    ns = full.parse_args(list(argv))
    given = {s.name: getattr(ns, s.name, None) for s in kind.settings}
    return ns, kind_name, resolve_options(kind.settings, given)


def build_model(
    kind_name: str, inputs: Sequence[Path], options: dict[str, Any], quiet: bool = True
):
    """The adjudication units of the inputs, and the reader problems (list of ReaderError)."""
    from .core.adjudication import units_for

    if kind_name == "normalization":
        # the units are the tokens of the files: no need for the (slower) comparison
        from .core.adjudication.kinds.normalization import model_from_data
        from .core.readers.normalization import read_normalization

        data = read_normalization([Path(p) for p in inputs])
        return model_from_data(data, tuple(str(p) for p in inputs), options), list(data.errors)
    result = compute(kind_name, inputs, options, quiet=quiet)
    return units_for(result), list(result.errors)


def cmd_gold(argv: Sequence[str]) -> int:
    """Entry point of ``iaa-desktop gold``."""
    import json

    import numpy as np

    from .core.adjudication.model import Strategy, auto_merge
    from .core.export.csvio import write_csv, write_text_atomic

    try:
        ns, kind_name, options = parse_gold_args(argv)
        for p in ns.inputs:
            if not Path(p).exists():
                raise IaaError(f"{p}: no such file or folder.")
        strategy = Strategy.parse(ns.strategy, ns.min_share)
        model, errors = build_model(
            kind_name, ns.inputs, options, quiet=ns.quiet or not sys.stderr.isatty()
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
                model.format_value(model.versions[i, x]) if model.versions[i, x] is not None else ""
                for i in undecided
            ]
        import pandas as pd

        write_csv(pd.DataFrame(rows), out / "undecided.csv")
        summary = {
            "kind": kind_name,
            "strategy": str(strategy),
            "min_share": strategy.min_share,
            "n_units": model.n_units,
            "n_decided": int(model.n_units - len(undecided)),
            "n_undecided": int(len(undecided)),
            "annotators": list(model.annotators),
            "files": [str(f) for f in files] + [str(out / "undecided.csv")],
        }
        write_text_atomic(
            out / "gold_summary.json", json.dumps(summary, ensure_ascii=False, indent=2) + "\n"
        )
    except IaaError as e:
        print(f"iaa-desktop: error: {e}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as e:
        print(f"iaa-desktop: error: cannot write the gold: {e}", file=sys.stderr)
        return EXIT_FAILED
    except Exception as e:  # a bug, not bad input
        if os.environ.get("IAA_DEBUG"):
            raise
        print(
            f"iaa-desktop: internal error ({type(e).__name__}: {e}); rerun with IAA_DEBUG=1 for details "
            "and please report it.",
            file=sys.stderr,
        )
        return EXIT_FAILED
    for err in errors:
        print(f"iaa-desktop: error: {err}", file=sys.stderr)
    if not ns.quiet:
        print(
            f"{summary['n_decided']} of {summary['n_units']} units merged ({strategy}); "
            f"{summary['n_undecided']} to decide, listed in {out / 'undecided.csv'}"
        )
    return EXIT_INPUT_ERRORS if errors else EXIT_OK

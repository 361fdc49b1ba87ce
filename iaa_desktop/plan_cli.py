"""Planning before any data: ``iaa-desktop plan --kappa 0.6 --prevalence 0.5,0.3,0.2``.

The half-width of the 95% interval of Krippendorff's α, Fleiss' κ and the mean Cohen's κ against
the number of doubly annotated items, for a study with the assumed agreement and category
prevalences (:func:`~iaa_desktop.core.kinds.table.annotator_time.assumed_study`); with data, the
table kind's ``--planning`` resamples the study itself.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.kinds.options import N_RESAMPLES, SEED
from iaa_desktop.study_command import EXIT_OK

#: exit status of a refused option
EXIT_REFUSED = 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="iaa-desktop plan",
        description="Items to double-annotate for a target interval width, from an assumed "
        "agreement and category distribution.",
    )
    p.add_argument("--kappa", type=float, required=True, help="assumed Cohen's κ (0 to 1)")
    p.add_argument(
        "--prevalence",
        required=True,
        help="the categories' shares, comma-separated (e.g. 0.5,0.3,0.2)",
    )
    p.add_argument("--annotators", type=int, default=2, help="annotators per item (default 2)")
    p.add_argument("--n-resamples", type=int, default=N_RESAMPLES, help="studies per size")
    p.add_argument("--seed", type=int, default=SEED, help="random seed")
    p.add_argument("--json", dest="json_out", metavar="PATH|-", help="write the curve as JSON")
    return p


def cmd_plan(argv: Sequence[str]) -> int:
    from iaa_desktop.core.io import to_json_text, write_json
    from iaa_desktop.core.kinds.table.annotator_time import assumed_study, planning
    from iaa_desktop.core.kinds.table.options import TableOptions

    ns = _parser().parse_args(list(argv))
    try:
        shares = [float(x) for x in ns.prevalence.split(",") if x.strip()]
    except ValueError:
        print(f"iaa-desktop: error: Prevalence: '{ns.prevalence}' is not numbers.", file=sys.stderr)
        return EXIT_REFUSED
    try:
        opts = TableOptions.resolve({"n_resamples": ns.n_resamples, "seed": ns.seed})
        data = assumed_study(ns.kappa, shares, ns.annotators, seed=ns.seed)
        curve, needed = planning(data, opts)
    except IaaError as e:
        print(f"iaa-desktop: error: {e}", file=sys.stderr)
        return EXIT_REFUSED
    out = {
        "assumed": {"kappa": ns.kappa, "prevalence": shares, "annotators": ns.annotators},
        "planning": [{k: v for k, v in c.items() if k != "study_items"} for c in curve],
        "planning_needed": needed,
    }
    if ns.json_out == "-":
        print(to_json_text(out))
    elif ns.json_out:
        write_json(out, ns.json_out)
    if ns.json_out != "-":
        for n in needed:
            how = " (extrapolated)" if n["extrapolated"] else ""
            print(f"{n['metric']}: ±{n['half_width']:g} needs {n['n_items']:,} items{how}")
    return EXIT_OK

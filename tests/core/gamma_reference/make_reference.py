"""Record pygamma-agreement's γ on a continuum as a small JSON fixture.

Runs only where pygamma-agreement is installed (it pins its own NumPy and SciPy, so in an
environment of its own), and exits saying so otherwise::

    /path/to/pygamma-venv/bin/python tests/core/gamma_reference/make_reference.py \
        UNITS.csv OUT.json [--seed 0] [--sampler statistical|shuffle] [--precision 0.02] \
        [--fast] [--alignment-only]

UNITS.csv has pygamma-agreement's layout: annotator, category, start, end, no header. The JSON
holds the settings, the library's version, the best alignment (one row per unitary alignment,
each annotator's unit by its index in start, end, category order, the empty unit as that
annotator's number of units), the unitary disorders, the observed disorder, the sampled
continua's disorders, γ, its precision interval, γ-cat and γ-k, and the CPU and wall seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("units")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sampler", choices=["statistical", "shuffle"], default="statistical")
    ap.add_argument("--precision", type=float, default=0.02)
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--alignment-only", action="store_true")
    args = ap.parse_args()
    try:
        import numpy as np
        import pygamma_agreement as pa
    except ImportError:
        print("pygamma-agreement is not installed here: nothing recorded.", file=sys.stderr)
        return 0
    import logging
    from importlib.metadata import version

    logging.disable(logging.WARNING)  # one warning per alignment solved without CBC
    continuum = pa.Continuum.from_csv(args.units)
    dissim = pa.CombinedCategoricalDissimilarity()
    annotators = list(continuum.annotators)
    units = {a: list(continuum[a]) for a in annotators}
    cpu, wall = time.process_time(), time.perf_counter()
    out: dict = {
        "source": args.units.rsplit("/", 1)[-1],
        "pygamma_agreement": version("pygamma-agreement"),
        "numpy": np.__version__,
        "seed": args.seed,
        "sampler": args.sampler,
        "precision_level": args.precision,
        "fast": args.fast,
        "annotators": annotators,
    }
    if args.alignment_only:
        best = continuum.get_best_alignment(dissim)
    else:
        sampler = pa.ShuffleContinuumSampler() if args.sampler == "shuffle" else None
        np.random.seed(args.seed)  # noqa: NPY002  (the library samples from the global generator)
        res = continuum.compute_gamma(
            dissim, precision_level=args.precision, sampler=sampler, fast=args.fast
        )
        best = res.best_alignment
        lo, hi = res.approx_gamma_range
        out.update(
            gamma=float(res.gamma),
            gamma_range=[float(lo), float(hi)],
            expected_disorder=float(res.expected_disorder),
            chance_disorders=[float(a.disorder) for a in res.chance_alignments],
            gamma_cat=float(res.gamma_cat),
            gamma_k={c: float(res.gamma_k(c)) for c in continuum.categories},
        )
    rows = []
    for ua in best.unitary_alignments:
        row = []
        for a, u in sorted(ua.n_tuple, key=lambda t: annotators.index(t[0])):
            row.append(len(units[a]) if u is None else units[a].index(u))
        rows.append([row, float(ua.disorder)])
    rows.sort(key=lambda r: r[0][::-1])
    out["alignment"] = [r[0] for r in rows]
    out["unitary_disorders"] = [r[1] for r in rows]
    out["observed_disorder"] = float(best.disorder)
    out["cpu_seconds"] = round(time.process_time() - cpu, 3)
    out["wall_seconds"] = round(time.perf_counter() - wall, 3)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

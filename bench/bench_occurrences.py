"""Benchmark of consistency across occurrences: every form with each annotator's treatment.

    python bench/bench_occurrences.py [--tokens 100000] [--annotators 5] [--repeat 3]
                                      [--scale 22] [--out /tmp/occ_bench]

1. Grouping ``--tokens`` × ``--annotators`` judgments (a Zipf vocabulary of 8,000 forms, 5% of
   the judgments changed) with :func:`iaa_desktop.core.kinds.occurrences.gather`, against the
   same counts by a long pandas table and ``groupby`` (forms × treatments, annotators × forms:
   judgments and distinct treatments), in this process, CPU and wall. Target: well under 1 s CPU.
2. The normalization study of ``--scale`` replicates of the shared five-annotator data (22 × 4,600
   = 101,200 tokens; the data set's own generator, written under ``--out``): the Occurrences of
   its result (table + grouping) against the whole analysis of the same study, in this process.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing
from bench_normalization import generate


def synthetic(n: int, c: int):
    import numpy as np

    from iaa_desktop.core.kinds.occurrences import OccurrenceTable

    rng = np.random.default_rng(0)
    vocab = [f"w{i}" for i in range(8000)]
    forms = tuple(vocab[i] for i in rng.zipf(1.3, n) % len(vocab))
    tr = np.empty((n, c), dtype=object)
    for x in range(c):
        changed = rng.random(n) < 0.05
        tr[:, x] = [f + "_" if z else f for f, z in zip(forms, changed)]
    return OccurrenceTable(
        tuple(f"A{x + 1}" for x in range(c)),
        forms,
        ("d",) * n,
        tuple(str(i) for i in range(n)),
        tr,
    )


def pandas_reference(t):
    import pandas as pd

    n, c = t.treatments.shape
    long = pd.DataFrame(
        {
            "form": [f for f in t.forms for _ in range(c)],
            "annotator": list(t.annotators) * n,
            "treatment": t.treatments.reshape(-1),
        }
    ).dropna()
    per_form = long.groupby(["form", "treatment"]).size()
    per_ann = long.groupby(["annotator", "form"])["treatment"].agg(["size", "nunique"])
    return per_form, per_ann


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=100_000)
    ap.add_argument("--annotators", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scale", type=int, default=22)
    ap.add_argument("--out", type=Path, default=Path("/tmp/occ_bench"))
    args = ap.parse_args()
    timing.machine()
    from iaa_desktop.core.kinds.occurrences import gather

    t = synthetic(args.tokens, args.annotators)
    ours, ref = timing.compare(
        f"grouping {args.tokens:,} × {args.annotators} judgments vs pandas groupby counts",
        lambda: gather(t, "case"),
        lambda: pandas_reference(t),
        repeat=args.repeat,
    )
    occ = ours.result
    same = {(f.key, x.treatment): x.count for f in occ.forms for x in f.treatments} == {
        k: int(v) for k, v in ref.result[0].items()
    }
    print(
        f"    {len(occ.forms):,} forms, {len(occ.inconsistent):,} treated more than one way; "
        f"counts equal pandas': {same}   target: well under 1 s CPU"
    )
    timing.record(
        "occurrences",
        f"grouping {args.tokens:,} × {args.annotators}",
        ours,
        ref,
        reference="pandas groupby (counts only)",
        target="well under 1 s CPU",
    )

    from iaa_desktop.core.kinds.normalization.analysis import analyse
    from iaa_desktop.core.kinds.normalization.occurrences import occurrences
    from iaa_desktop.core.kinds.normalization.reader import read_normalization
    from iaa_desktop.core.progress import run_to_end

    folder = generate(args.scale, args.out)
    data = read_normalization([folder])
    study = timing.measure(lambda: run_to_end(analyse(data, {})), repeat=1)
    result = study.result
    occ_t = timing.measure(lambda: occurrences(result), repeat=args.repeat)
    n, c = result.norm.shape
    print(
        f"normalization study {n:,} tokens × {c}: analysis {timing.fmt(study)}; "
        f"Occurrences (table + grouping) {timing.fmt(occ_t)} "
        f"= {occ_t.cpu_median / study.cpu_median:.2f}× the analysis's CPU"
    )
    timing.record(
        "occurrences",
        f"normalization {n:,} × {c}: Occurrences",
        occ_t,
        study,
        reference="the study's own analysis",
    )


if __name__ == "__main__":
    main()

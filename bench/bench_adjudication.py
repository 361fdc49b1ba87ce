"""Benchmark of the adjudication core.

1. Automatic merge (majority / unanimous) vectorised over all units vs a plain-Python
   ``collections.Counter`` per unit (the obvious reference), on the five normalization
   annotators tiled to ``--scale`` × 4,600 tokens; results must be identical.
2. Live agreement of every annotator with the gold (what the panel recomputes after each
   decision) vs scikit-learn's ``cohen_kappa_score`` per annotator.
3. Store: committed decisions per second (WAL, synchronous=FULL, one transaction each).

Both sides of a comparison run the same number of times, alternately (``bench/timing.py``: CPU
and wall time, the machine's load printed).

Run: ``python bench/bench_adjudication.py [--scale 20] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing

from iaa_desktop.core.adjudication import (
    AdjudicationModel,
    AdjudicationStore,
    Decide,
    Decision,
    Strategy,
    auto_merge,
)
from iaa_desktop.core.adjudication.session import agreement_with_gold
from iaa_desktop.core.kinds.normalization.adjudication import model_from_inputs

DATA = (
    Path(os.environ.get("IAA_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    / "normalization"
)


def counter_majority(versions: np.ndarray) -> list:
    out = []
    for row in versions:
        vals = [v for v in row if v is not None]
        if not vals:
            out.append(None)
            continue
        v, n = Counter(vals).most_common(1)[0]
        out.append(v if 2 * n > len(vals) else None)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    timing.machine()
    base = model_from_inputs(sorted(DATA.glob("annotator_*.tsv")))
    versions = np.tile(base.versions, (args.scale, 1))
    keys = [f"{k}#{r}" for r in range(args.scale) for k in base.keys]
    built = timing.measure(lambda: AdjudicationModel(base.annotators, keys, versions), 1)
    model = built.result
    print(
        f"units: {model.n_units:,} × {len(model.annotators)} annotators (model built: {timing.fmt(built)})"
    )
    ours, ref = timing.compare(
        "majority merge: vectorised vs a Counter per unit",
        lambda: auto_merge(model, Strategy("majority")),
        lambda: counter_majority(versions),
        repeat=args.repeat,
    )
    assert list(ours.result) == ref.result
    timing.record(
        "adjudication",
        f"majority merge, {model.n_units:,} units",
        ours,
        ref,
        reference="Counter per unit",
    )

    gold = ours.result.copy()
    code_of = {v: k for k, v in enumerate(model.code_values)}
    gold_codes = np.array([-1 if v is None else code_of[v] for v in gold], dtype=np.int64)

    def ours_agreement():
        return agreement_with_gold(model.codes, gold_codes, model.annotators)

    try:
        from sklearn.metrics import cohen_kappa_score

        def sk():
            out = []
            for x in range(versions.shape[1]):
                ok = np.array([g is not None for g in gold]) & np.array(
                    [v is not None for v in versions[:, x]]
                )
                out.append(cohen_kappa_score(versions[ok, x].astype(str), gold[ok].astype(str)))
            return out

        t_ag, t_sk = timing.compare(
            "agreement with the gold: ours vs scikit-learn per annotator",
            ours_agreement,
            sk,
            repeat=args.repeat,
        )
        assert np.allclose(t_sk.result, t_ag.result["cohen_kappa"].to_numpy(), atol=1e-9)
        timing.record(
            "adjudication", "agreement with the gold", t_ag, t_sk, reference="scikit-learn"
        )
    except ImportError:
        print(f"agreement with gold: ours {timing.fmt(timing.measure(ours_agreement))}")

    with tempfile.TemporaryDirectory() as d, AdjudicationStore.open(Path(d) / "s.sqlite") as store:

        def decide_all():
            for k in range(args.decisions):
                store.apply(Decide(f"u{k}", None, Decision("typed", str(k), "", "t")))

        t = timing.measure(decide_all, repeat=1)
        rate = args.decisions / t.wall_median
        print(
            f"store: {rate:.0f} committed decisions/s ({t.wall_median / args.decisions * 1000:.2f} ms "
            f"each, synchronous=FULL; {timing.fmt(t)})"
        )
        timing.record(
            "adjudication",
            f"store: {args.decisions} committed decisions ({rate:.0f}/s)",
            t,
        )


if __name__ == "__main__":
    main()

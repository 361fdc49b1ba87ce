"""Benchmark of the adjudication core.

1. Automatic merge (majority / unanimous) vectorised over all units vs a plain-Python
   ``collections.Counter`` per unit (the obvious reference), on the five normalization
   annotators tiled to ``--scale`` × 4,600 tokens; results must be identical.
2. Live agreement of every annotator with the gold (what the panel recomputes after each
   decision) vs scikit-learn's ``cohen_kappa_score`` per annotator.
3. Store: committed decisions per second (WAL, synchronous=FULL, one transaction each).

Run: ``/work/venv/bin/python bench/bench_adjudication.py [--scale 20]``
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

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

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "normalization"


def timed(fn, repeat: int = 3):
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


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
    args = ap.parse_args()
    base = model_from_inputs(sorted(DATA.glob("annotator_*.tsv")))
    versions = np.tile(base.versions, (args.scale, 1))
    keys = [f"{k}#{r}" for r in range(args.scale) for k in base.keys]
    t_build, model = timed(lambda: AdjudicationModel(base.annotators, keys, versions), 1)
    print(
        f"units: {model.n_units:,} × {len(model.annotators)} annotators (model built in {t_build * 1000:.0f} ms)"
    )

    t_vec, ours = timed(lambda: auto_merge(model, Strategy("majority")))
    t_ref, ref = timed(lambda: counter_majority(versions), 1)
    assert list(ours) == ref
    print(
        f"majority merge: ours {t_vec * 1000:.1f} ms, Counter loop {t_ref * 1000:.1f} ms, ratio {t_ref / t_vec:.1f}×"
    )

    gold = ours.copy()
    code_of = {v: k for k, v in enumerate(model.code_values)}
    gold_codes = np.array([-1 if v is None else code_of[v] for v in gold], dtype=np.int64)
    t_ag, table = timed(lambda: agreement_with_gold(model.codes, gold_codes, model.annotators))
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

        t_sk, kappas = timed(sk, 1)
        assert np.allclose(kappas, table["cohen_kappa"].to_numpy(), atol=1e-9)
        print(
            f"agreement with gold: ours {t_ag * 1000:.1f} ms, scikit-learn {t_sk * 1000:.1f} ms, ratio {t_sk / t_ag:.1f}×"
        )
    except ImportError:
        print(f"agreement with gold: ours {t_ag * 1000:.1f} ms (scikit-learn not installed)")

    with tempfile.TemporaryDirectory() as d, AdjudicationStore.open(Path(d) / "s.sqlite") as store:
        t = time.perf_counter()
        for k in range(args.decisions):
            store.apply(Decide(f"u{k}", None, Decision("typed", str(k), "", "t")))
        dt = time.perf_counter() - t
        print(
            f"store: {args.decisions / dt:.0f} committed decisions/s ({dt / args.decisions * 1000:.2f} ms each, synchronous=FULL)"
        )


if __name__ == "__main__":
    main()

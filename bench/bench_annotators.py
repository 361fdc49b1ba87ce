"""Benchmark of the annotator figures.

1. Dawid–Skene to its fixed point vs crowd-kit's ``DawidSkene`` iterated the same way (its E- and
   M-steps from its majority-vote start), on simulated responses (``--items`` × ``--annotators``,
   4 classes, 80% of cells answered); the posteriors must agree to 1e-6.
2. MACE (10 restarts × 50 variational iterations) vs crowd-kit's ``MACE`` with the same counts
   (its figures differ: other random starts and smoothing; only the time is compared).
3. The alternative annotator test vs a per-item Python loop over dictionaries calling SciPy's
   ``ttest_1samp`` and statsmodels' Benjamini–Yekutieli (the reference program's shape).

crowd-kit is optional (``pip install crowd-kit``); without it parts 1–2 time ours alone.
Both sides run the same number of times, alternately (``bench/timing.py``).

Run: ``python bench/bench_annotators.py [--items 2000] [--annotators 20] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing

from iaa_desktop.core.metrics.alt_test import alt_test
from iaa_desktop.core.metrics.crowd import dawid_skene, mace


def simulate(n_items: int, n_ann: int, q: int = 4, seed: int = 0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, n_items)
    acc = rng.uniform(0.4, 0.95, n_ann)
    it, an = np.nonzero(rng.random((n_items, n_ann)) < 0.8)
    right = rng.random(len(it)) < acc[an]
    lab = np.where(right, truth[it], rng.integers(0, q, len(it)))
    return it, an, lab, truth


def crowd_kit_ds(df):
    from crowdkit.aggregation import DawidSkene, MajorityVote

    probas = MajorityVote().fit_predict_proba(df)
    for _ in range(10_000):
        errors = DawidSkene._m_step(df, probas)
        new = DawidSkene._e_step(df, probas.mean(), errors)
        change = float((new - probas).abs().to_numpy().max())
        probas = new
        if change <= 1e-8:
            break
    return probas


def naive_alt(model, humans, eps):
    from scipy.stats import ttest_1samp
    from statsmodels.stats.multitest import multipletests

    h = {j: {i: humans[i, j] for i in range(len(model)) if not math.isnan(humans[i, j])}
         for j in range(humans.shape[1])}  # fmt: skip
    by_item: dict[int, list[int]] = {}
    for j, d in h.items():
        for i in d:
            by_item.setdefault(i, []).append(j)
    keep = {i for i, js in by_item.items() if len(js) >= 2}
    ps = []
    for j, d in h.items():
        items = [i for i in d if i in keep]
        if len(items) < 30:
            continue
        diff = []
        for i in items:
            rest = [h[k][i] for k in by_item[i] if k != j]
            sh = np.mean([d[i] == r for r in rest])
            sf = np.mean([model[i] == r for r in rest])
            diff.append(int(sh >= sf) - int(sf >= sh))
        ps.append(ttest_1samp(diff, eps, alternative="less").pvalue)
    return multipletests(ps, method="fdr_by")[0].mean()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=2000)
    ap.add_argument("--annotators", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    timing.machine()
    it, an, lab, truth = simulate(args.items, args.annotators)
    n, k = args.items, args.annotators
    print(f"{len(it):,} responses: {n:,} items × {k} annotators, 4 classes")
    try:
        import crowdkit.aggregation as ck  # noqa: F401
        import pandas as pd

        df = pd.DataFrame({"task": it, "worker": an, "label": lab})
    except ImportError:
        df = None
    if df is not None:
        ours, ref = timing.compare(
            "Dawid–Skene to the fixed point: ours vs crowd-kit's steps",
            lambda: dawid_skene(it, an, lab, n, k, 4),
            lambda: crowd_kit_ds(df),
            repeat=args.repeat,
        )
        p = ref.result.sort_index()[[0, 1, 2, 3]].to_numpy()
        print(f"  max |posterior difference| = {np.abs(p - ours.result.posterior).max():.2e}")
        from crowdkit.aggregation import MACE

        timing.compare(
            "MACE, 10 restarts × 50 iterations: ours vs crowd-kit",
            lambda: mace(it, an, lab, n, k, 4),
            lambda: MACE(n_restarts=10, n_iter=50).fit(df),
            repeat=args.repeat,
        )
    else:
        print("crowd-kit not installed: ours alone")
        print("Dawid–Skene:", timing.fmt(timing.measure(lambda: dawid_skene(it, an, lab), 3)))
        print("MACE:", timing.fmt(timing.measure(lambda: mace(it, an, lab), 1)))
    humans = np.full((n, min(k, 6)), np.nan)
    sel = an < humans.shape[1]
    humans[it[sel], an[sel]] = lab[sel]
    model = np.where(np.random.default_rng(1).random(n) < 0.85, truth, 0).astype(float)
    ours, ref = timing.compare(
        "alt-test: vectorised vs a loop over dictionaries (SciPy + statsmodels)",
        lambda: alt_test(model, humans, "accuracy", 0.1).winning_rate,
        lambda: naive_alt(model, humans, 0.1),
        repeat=args.repeat,
    )
    assert ours.result == ref.result, (ours.result, ref.result)


if __name__ == "__main__":
    main()

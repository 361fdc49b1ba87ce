"""Benchmark of the passage-pair kinds against reference libraries, in one run.

1. durel: all TRoTR-style figures (pooled and per-target α ordinal and weighted Spearman, before
   and after the filter, labels, TRaC ranking, annotator-vs-others) for 100,000 pairs × 4
   annotators (667 targets of 150 pairs, two annotators judge everything, a third half, a fourth
   a tenth; 0.5% can't decide). Timed: the computation on the judgment matrix, and the whole
   ``KIND.run`` from DURel files on disk. Reference: ``krippendorff.alpha`` (ordinal) and
   ``scipy.stats.spearmanr`` per annotator pair, for the same figures; values are compared.
2. candidates: the run on ../shared/data/candidates (overlap, multi-κ and posterior per factor
   level and bin), and the overlap against a plain Counter implementation.

Both sides of a comparison run the same number of times, alternately (``bench/timing.py``).

Run: ``python bench/bench_pairs.py [--repeat 1]`` from the repository root.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing  # noqa: E402

from iaa_desktop.core.kinds.durel import compare as durel_task  # noqa: E402
from iaa_desktop.core.kinds.durel import figures as durel_figures  # noqa: E402
from iaa_desktop.core.kinds.durel import measures as durel_measures  # noqa: E402
from iaa_desktop.core.kinds.durel.options import DurelOptions  # noqa: E402
from iaa_desktop.core.progress import run_to_end  # noqa: E402

N_TARGETS, PER_TARGET = 667, 150
ANNOTATORS = ("a1", "a2", "a3", "a4")


def synthetic(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = N_TARGETS * PER_TARGET
    latent = rng.uniform(0.5, 4.5, n)
    rows = []
    share = (1.0, 1.0, 0.5, 0.1)
    for a, p in zip(ANNOTATORS, share):
        who = rng.random(n) < p
        v = np.clip(np.rint(latent + rng.normal(0, 0.8, n)), 1, 4)
        v[rng.random(n) < 0.005] = 0.0  # can't decide
        idx = np.flatnonzero(who)
        rows.append(pd.DataFrame({"item": idx, "annotator": a, "raw": v[idx]}))
    df = pd.concat(rows, ignore_index=True)
    df["target"] = "T" + (df["item"] // PER_TARGET).astype(str)
    df["id1"] = "u" + (df["item"] % PER_TARGET).astype(str) + "a"
    df["id2"] = "u" + (df["item"] % PER_TARGET).astype(str) + "b"
    df["value"] = np.where(df["raw"] == 0, np.nan, df["raw"])
    df["comment"] = ""
    return df


def write_durel(df: pd.DataFrame, folder: Path) -> None:
    for t, g in df.groupby("target", sort=False):
        d = folder / t
        d.mkdir(parents=True)
        out = pd.DataFrame(
            {
                "identifier1": g["id1"],
                "identifier2": g["id2"],
                "annotator": g["annotator"],
                "judgment": g["raw"].map(lambda x: f"{x:.1f}"),
                "comment": "",
                "lemma": "x",
                "timestamp": "",
            }
        )
        out.to_csv(d / "judgments.tsv", sep="\t", index=False)
        ids = sorted(set(g["id1"]) | set(g["id2"]))
        uses = pd.DataFrame(
            {
                "lemma": "x",
                "pos": "",
                "date": "",
                "grouping": "",
                "identifier": ids,
                "description": "",
                "context": [f"text of {i} with the quoted words 🙂" for i in ids],
                "indexes_target_token": "12:22",
                "indexes_target_sentence": "0:40",
            }
        )
        uses.to_csv(d / "uses.tsv", sep="\t", index=False)


def reference(df: pd.DataFrame, options: DurelOptions) -> tuple[dict, float]:
    """The same pooled and per-target α and Spearman with krippendorff and scipy."""
    import warnings

    import krippendorff
    from scipy.stats import spearmanr

    warnings.simplefilter(
        "ignore"
    )  # scipy warns on constant input: ρ undefined, left out as ours does

    wide = df.pivot_table(
        index=["target", "id1", "id2"],
        columns="annotator",
        values="value",
        aggfunc="first",
        dropna=False,
    )
    judged = (
        df.assign(j=1)
        .pivot_table(
            index=["target", "id1", "id2"], columns="annotator", values="j", aggfunc="first"
        )
        .notna()
    )
    wide = wide.reindex(judged.index)
    values = wide.to_numpy(dtype=float)
    jm = judged.to_numpy()
    stats = durel_measures.item_statistics(values, options)
    kept = stats["kept"]

    def figures(v, j):
        alpha = krippendorff.alpha(reliability_data=v.T, level_of_measurement="ordinal")
        num = den = 0.0
        for x, y in combinations(range(v.shape[1]), 2):
            both = ~np.isnan(v[:, x]) & ~np.isnan(v[:, y])
            nj = int((j[:, x] & j[:, y]).sum())
            if both.sum() >= 2:
                rho = spearmanr(v[both, x], v[both, y]).statistic
                if math.isfinite(rho):
                    num += nj * rho
                    den += nj
        return alpha, num / den

    out = {"all": figures(values, jm), "filtered": figures(values[kept], jm[kept])}
    targets = wide.index.get_level_values("target").to_numpy()
    per = {}
    for t in pd.unique(targets):
        m = targets == t
        per[t] = (figures(values[m], jm[m]), figures(values[m & kept], jm[m & kept]))
    out["targets"] = per
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    timing.machine()
    options = DurelOptions()
    df = synthetic()
    print(
        f"durel: {df[['target', 'id1', 'id2']].drop_duplicates().shape[0]:,} pairs × {len(ANNOTATORS)} annotators, "
        f"{len(df):,} judgments, {N_TARGETS} targets"
    )

    def ours():
        matrix = durel_figures.build_matrix(df)
        targets = [f"T{k}" for k in range(N_TARGETS)]
        return run_to_end(durel_figures.compute(matrix, targets, options))

    t_ours, t_ref = timing.compare(
        "all figures from the judgments: ours vs krippendorff + scipy.spearmanr",
        ours,
        lambda: reference(df, options),
        repeat=args.repeat,
    )
    figs, ref = t_ours.result, t_ref.result
    print(f"    target < 2 s: {'ok' if t_ours.cpu_median < 2 else 'TOO SLOW'}")
    timing.record(
        "pairs",
        f"durel: {N_TARGETS * PER_TARGET:,} pairs × {len(ANNOTATORS)}, all figures",
        t_ours,
        t_ref,
        reference="krippendorff + scipy",
        target="< 2 s",
    )
    with tempfile.TemporaryDirectory() as tmp:
        write_durel(df, Path(tmp))
        run = timing.measure(lambda: run_to_end(durel_task.KIND.run([Path(tmp)], {})), repeat=1)
        res = run.result
    print(
        f"  ours, whole run from {N_TARGETS} DURel folders (reading, validation, figures): "
        f"{timing.fmt(run)}"
    )
    timing.record("pairs", f"durel: whole run from {N_TARGETS} DURel folders", run)
    worst = 0.0
    for part in ("all", "filtered"):
        mine = figs["overall"][part]
        worst = max(
            worst,
            abs(mine["krippendorff_alpha"] - ref[part][0]),
            abs(mine["spearman_weighted"] - ref[part][1]),
        )
    for t in figs["targets"]:
        (ra, rs), (fa, fs) = ref["targets"][t["target"]]
        worst = max(
            worst,
            abs(t["all"]["krippendorff_alpha"] - ra),
            abs(t["all"]["spearman_weighted"] - rs),
            abs(t["filtered"]["krippendorff_alpha"] - fa),
            abs(t["filtered"]["spearman_weighted"] - fs),
        )
    print(
        f"  largest difference from the reference over pooled and {len(figs['targets'])} targets: {worst:.2e}"
    )
    assert res.overall["all"]["n_items"] == N_TARGETS * PER_TARGET
    _candidates(args.repeat)
    print("done")


def _candidates(repeat: int) -> None:
    shared = Path(os.environ.get("IAA_SHARED_DATA", ROOT.parent / "shared" / "data"))
    cand = shared / "candidates"
    if not cand.exists():
        return
    from iaa_desktop.core.align.tokens import tokenize, weighted_jaccard
    from iaa_desktop.core.kinds.candidates.compare import KIND as CANDIDATES

    run = timing.measure(lambda: run_to_end(CANDIDATES.run([cand], {})), repeat=1)
    r = run.result
    print(
        f"candidates: {len(r.pairs)} pairs, {len(r.factor_table())} factor levels and bins, "
        f"4000 posterior draws each; whole run {timing.fmt(run)}"
    )
    timing.record("pairs", "candidates: whole run", run)
    pairs = pd.read_csv(cand / "pairs.tsv", sep="\t")
    a_texts, b_texts = list(pairs["target_text"]) * 20, list(pairs["source_text"]) * 20
    t_o, t_r = timing.compare(
        f"overlap of {len(a_texts):,} pairs: ours (tokenize + Jaccard) vs a Counter per pair",
        lambda: [
            weighted_jaccard(tokenize(a).keys, tokenize(b).keys) for a, b in zip(a_texts, b_texts)
        ],
        lambda: [
            _counter_jaccard(a.lower().split(), b.lower().split()) for a, b in zip(a_texts, b_texts)
        ],
        repeat=repeat,
    )
    print(f"    equal: {np.allclose(t_o.result, t_r.result)}")
    timing.record(
        "pairs",
        f"candidates: overlap of {len(a_texts):,} pairs",
        t_o,
        t_r,
        reference="Counter per pair",
    )


def _counter_jaccard(a, b):
    ca, cb = Counter(a), Counter(b)
    num = sum(min(ca[w], cb[w]) for w in set(ca) | set(cb))
    den = sum(max(ca[w], cb[w]) for w in set(ca) | set(cb))
    return num / den if den else 0.0


if __name__ == "__main__":
    main()

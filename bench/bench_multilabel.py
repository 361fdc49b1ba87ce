"""Time the multi-label decomposition against brute force with scikit-learn, and print ratios.

    python bench/bench_multilabel.py [--items 100000] [--sample 12] [--repeat 3]

Figures (timed with ``bench/timing.py``: the same repeats for both sides, CPU and wall time):

* k = 4: all 32,767 partitions on 100,000 items (one annotator pair), from raw codes (joint
  counts included) — target under 0.1 s. Against brute force on the same ``--sample``
  partitions (for each, filter the items and call scikit-learn's ``cohen_kappa_score``, 1 + k
  calls) and ours on those same partitions: same work on both sides, nothing scaled up (brute
  force on all 32,767 takes over half an hour). The sample is also checked for equality.
* k = 5 (2,147,483,647 partitions): the bounded exploration (|S1| ≤ 4: 41,448 partitions) and
  the beam search under each criterion.
* The whole ``multilabel`` kind on ../shared/data/multilabel (reading included), when present.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing

from iaa_desktop.core.metrics import decomposition as dec


def timed(fn, repeat: int = 3):
    """(CPU seconds, the last result): the median over ``repeat`` runs (bench/timing.py)."""
    t = timing.measure(fn, repeat=repeat)
    return t.cpu_median, t.result


def codes_pair(n: int, k: int, agree: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two annotators: the second copies the first with probability ``agree``, else flips bits."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2**k, n)
    flips = rng.integers(0, 2**k, n)
    y = np.where(rng.random(n) < agree, x, x ^ flips)
    return x, y


def brute_force(x: np.ndarray, y: np.ndarray, s1: np.ndarray, k: int) -> tuple[float, list[float]]:
    from sklearn.metrics import cohen_kappa_score

    cx, cy = s1[x].astype(int), s1[y].astype(int)
    first = cohen_kappa_score(cx, cy)
    agree = cx == cy
    xa, ya = x[agree], y[agree]
    second = [cohen_kappa_score((xa >> (k - 1 - j)) & 1, (ya >> (k - 1 - j)) & 1) for j in range(k)]
    return first, second


def bench_k4(n: int, sample: int) -> None:
    k = 4
    x, y = codes_pair(n, k, 0.7, seed=1)
    parts = dec.exhaustive_partitions(k)  # cached enumeration, built once per k

    def ours():
        joint = dec.joint_counts(x, y, k)[None]
        return dec.decompose(joint, parts)

    all_parts = timing.measure(ours, repeat=3)
    t_ours, out = all_parts.cpu_median, all_parts.result
    print(
        f"k = 4, {n:,} items, 1 pair, {len(parts):,} partitions (first + {k} second-level κ each)"
    )
    print(f"  vectorised, all partitions (joint counts included): {timing.fmt(all_parts)}")
    print(f"    target < 0.1 s: {'OK' if t_ours < 0.1 else 'MISSED'}")
    timing.record(
        "multilabel",
        f"k = 4, {n:,} items: all {len(parts):,} partitions",
        all_parts,
        target="< 0.1 s",
    )
    rng = np.random.default_rng(0)
    pick = np.sort(rng.choice(len(parts), size=sample, replace=False))

    def brute():
        return [brute_force(x, y, parts[i], k) for i in pick]

    def ours_sample():
        return dec.decompose(dec.joint_counts(x, y, k)[None], parts[pick])

    t_o, t_b = timing.compare(
        f"the same {sample} partitions: vectorised vs brute force (filter + scikit-learn)",
        ours_sample,
        brute,
        repeat=1,
    )
    worst = 0.0
    for j, i in enumerate(pick):
        first, second = t_b.result[j]
        worst = max(
            worst, abs(first - out.first[0, i]), *np.abs(np.array(second) - out.second[0, i])
        )
    print(f"    max |difference| on the sample: {worst:.1e}")
    timing.record(
        "multilabel",
        f"k = 4, {n:,} items: {sample} partitions",
        t_o,
        t_b,
        reference="scikit-learn per partition",
    )

    # three annotators (three pairs), as in studies with overlapping annotators
    xs = [codes_pair(n, k, 0.7, seed=s) for s in (2, 3, 4)]
    t3, _ = timed(
        lambda: dec.decompose(np.stack([dec.joint_counts(a, b, k) for a, b in xs]), parts)
    )
    print(f"  three pairs at once: {t3 * 1000:8.1f} ms")


def bench_k5(n: int) -> None:
    k = 5
    x, y = codes_pair(n, k, 0.7, seed=5)
    joint = dec.joint_counts(x, y, k)[None]
    bound = dec.largest_bound(k, 50_000)
    t_enum, parts = timed(lambda: dec.bounded_partitions(k, bound), repeat=3)
    t_dec, _ = timed(lambda: dec.decompose(joint, parts), repeat=3)
    print(f"k = 5, {n:,} items: {dec.n_partitions(k):,} partitions in all (not enumerated)")
    print(
        f"  |S1| ≤ {bound}: {len(parts):,} partitions: enumerate {t_enum * 1000:.1f} ms + compute {t_dec * 1000:.1f} ms"
    )
    for crit in ("first", "second"):
        t_s, (best, n_eval) = timed(
            lambda c=crit: dec.search_partitions(joint, c, top=20), repeat=3
        )
        out = dec.decompose(joint, best[:1])
        score = out.first[0, 0] if crit == "first" else float(np.mean(out.second[0, 0]))
        print(
            f"  beam search, {crit} level: {n_eval:,} partitions evaluated in {t_s * 1000:.1f} ms; best |S1| = {int(best[0].sum())}, score {score:.3f}"
        )
    # how good is the search? compare with the best of the bounded enumeration
    allp = dec.decompose(joint, parts)
    print(
        f"  best within |S1| ≤ {bound}: first {np.nanmin(allp.first[0]):.3f}, second {np.nanmax(allp.second[0].mean(axis=1)):.3f}"
    )


def bench_kind() -> None:
    shared = Path(__file__).resolve().parents[2] / "shared" / "data"
    data = Path(os.environ.get("IAA_SHARED_DATA", shared)) / "multilabel"
    if not (data / "annotations.tsv").exists():
        print("(../shared/data/multilabel not available: skipping the whole-kind timing)")
        return
    from iaa_desktop.core.kinds.multilabel.compare import KIND
    from iaa_desktop.core.progress import run_to_end

    kind_t = timing.measure(
        lambda: run_to_end(
            KIND.run([data / "annotations.tsv"], {"texts": str(data / "sentences.tsv")})
        ),
        repeat=3,
    )
    t, r = kind_t.cpu_median, kind_t.result
    timing.record("multilabel", "NEAT data, the whole kind (reading included)", kind_t)
    js = r.to_json()
    k = {
        (p["a"], p["b"]): {lab: round(v["kappa"], 3) for lab, v in p["per_label"].items()}
        for p in js["pairs"]
    }
    print(
        f"NEAT (2,209 sentences, 3 annotators): whole kind incl. reading in {t * 1000:.0f} ms; κ per label {k}"
    )
    d = js["decomposition"]
    print(
        f"  S1 = {{000}}: first level {d['first_level']:.3f}, second level average {d['second_level']['average']:.3f}; {len(js['exploration'])} partitions"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--sample", type=int, default=12, help="partitions timed with scikit-learn")
    args = ap.parse_args()
    timing.machine()
    bench_k4(args.items, args.sample)
    bench_k5(args.items)
    bench_kind()


if __name__ == "__main__":
    main()

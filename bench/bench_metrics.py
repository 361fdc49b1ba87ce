"""Time the core coefficients against the reference libraries, in one process, and print ratios.

    python bench/bench_metrics.py [--items 1000000] [--annotators 5]

Figures (issue 2): α nominal and interval on 1,000,000 items × 5 annotators with 10% missing
against the `krippendorff` package; Fleiss' κ plus all ten pairwise Cohen's κ; α with normalized
Levenshtein on 50,000 items × 5 annotators with about 15,000 distinct labels (NLTK on a subset,
extrapolated, since it takes minutes on the whole).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from iaa_desktop.core.metrics import (
    cohen_kappa,
    fleiss_kappa,
    krippendorff_alpha,
    krippendorff_alpha_strings,
    pairwise_cohen_kappa,
)


def timed(fn, repeat: int = 3):
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def coded_study(n: int, c: int, q: int, missing: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, n)
    codes = np.where(rng.random((n, c)) < 0.7, truth[:, None], rng.integers(0, q, (n, c))).astype(
        np.int32
    )
    codes[rng.random((n, c)) < missing] = -1
    return codes


def string_study(n: int, c: int, n_labels: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    alphabet = np.array(list("abcdefghijklmnopqrstuvwxyzäöüß"))
    vocab = sorted(
        {"".join(rng.choice(alphabet, rng.integers(2, 11))) for _ in range(int(n_labels * 1.05))}
    )[:n_labels]
    vocab = np.array(vocab, dtype=object)
    truth = rng.integers(0, len(vocab), n)
    idx = np.where(rng.random((n, c)) < 0.8, truth[:, None], rng.integers(0, len(vocab), (n, c)))
    labels = vocab[idx].astype(object)
    labels[rng.random((n, c)) < 0.05] = None
    return labels


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--annotators", type=int, default=5)
    ap.add_argument("--string-items", type=int, default=50_000)
    ap.add_argument("--labels", type=int, default=15_000)
    args = ap.parse_args()

    import krippendorff

    n, c, q = args.items, args.annotators, 5
    codes = coded_study(n, c, q, 0.10)
    values = np.arange(1, q + 1, dtype=float)
    rel = np.where(
        codes >= 0, values[np.maximum(codes, 0)], np.nan
    ).T  # coders × units for the package
    print(f"reliability data: {n:,} items × {c} annotators, {q} categories, 10% missing")
    for level in ("nominal", "interval"):
        t_ours, ours = timed(lambda level=level: krippendorff_alpha(codes, level, values))
        t_ref, ref = timed(
            lambda level=level: krippendorff.alpha(
                reliability_data=rel, level_of_measurement=level, value_domain=values
            ),
            repeat=1,
        )
        print(
            f"  alpha {level:9s} ours {t_ours:7.3f} s  krippendorff {t_ref:7.3f} s  ratio {t_ref / t_ours:6.1f}x  "
            f"(|diff| {abs(ours.value - ref):.1e})"
        )

    def fleiss_and_pairs():
        f = fleiss_kappa(codes, q)
        ks = list(pairwise_cohen_kappa(codes, q).values())
        return f, ks

    t_f, (f, ks) = timed(fleiss_and_pairs)
    print(f"  Fleiss' kappa + {len(ks)} pairwise Cohen's kappa: {t_f:.3f} s (target < 0.1 s)")
    try:
        from sklearn.metrics import cohen_kappa_score

        x, y = codes[:, 0], codes[:, 1]
        both = (x >= 0) & (y >= 0)
        t_sk, k_sk = timed(lambda: cohen_kappa_score(x[both], y[both]), repeat=1)
        t_one, k_one = timed(lambda: cohen_kappa(codes[both][:, [0, 1]], q))
        print(
            f"  one Cohen's kappa: ours {t_one:.4f} s  scikit-learn {t_sk:.4f} s  ratio {t_sk / t_one:.1f}x (|diff| {abs(k_one.value - k_sk):.1e})"
        )
    except ImportError:
        pass

    labels = string_study(args.string_items, c, args.labels)
    n_distinct = len({v for v in labels.ravel() if v is not None})
    t_nld, r = timed(lambda: krippendorff_alpha_strings(labels), repeat=1)
    print(
        f"alpha NLD: {args.string_items:,} items × {c} annotators, {n_distinct:,} distinct labels: {t_nld:.2f} s (target < 2 s), alpha = {r.value:.4f}"
    )
    try:
        from nltk.metrics.agreement import AnnotationTask
        from nltk.metrics.distance import edit_distance

        sub = labels[:300]
        sub = sub[[all(v is not None for v in row) for row in sub]]
        triples = [(str(a), str(i), sub[i, a]) for i in range(len(sub)) for a in range(c)]

        def nld(a, b):
            m = max(len(a), len(b))
            return edit_distance(a, b) / m if m else 0.0

        t_nltk, a_nltk = timed(lambda: AnnotationTask(triples, distance=nld).alpha(), repeat=1)
        t_ours_sub, a_ours = timed(lambda: krippendorff_alpha_strings(sub), repeat=1)
        # NLTK's expected disagreement is quadratic in the number of labels (n·c)²
        scale = (labels.size / sub.size) ** 2
        print(
            f"  NLTK on {len(sub)} items: {t_nltk:.2f} s (ours {t_ours_sub:.3f} s, ratio {t_nltk / t_ours_sub:.0f}x, |diff| {abs(a_nltk - a_ours.value):.1e}); "
            f"extrapolated to the whole set ≈ {t_nltk * scale / 60:.0f} min"
        )
    except ImportError:
        pass


if __name__ == "__main__":
    main()

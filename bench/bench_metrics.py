"""Time the coefficients of coded items against the reference libraries, in one run, and print ratios.

    python bench/bench_metrics.py [--items 1000000] [--annotators 5] [--repeat 3]

Both sides of a comparison run the same number of times, alternately (``bench/timing.py``); CPU
time is the figure to compare on a shared machine, wall time is printed beside it. Figures:

- Krippendorff's α nominal and interval on N items × c annotators with 10% missing values, against
  the ``krippendorff`` package, with the one-pass floor (one ``np.bincount`` over the data) beside;
- Fleiss' κ plus the Cohen's κ of every annotator pair from one tally, against statsmodels
  (``aggregate_raters`` + ``fleiss_kappa``) and scikit-learn (``cohen_kappa_score`` per pair);
- every coefficient of the table kind with 1,000-resample bootstrap intervals on the same data
  (the multinomial draw of the resamples printed beside: the floor of the matrix bootstrap);
- the 80-item example study run through the table kind in this process, intervals included;
- α with normalized Levenshtein on 50,000 items × 5 annotators with about 15,000 distinct labels:
  the bit-parallel kernel against the rapidfuzz engine (and rapidfuzz ``cdist`` alone over the same
  label pairs beside, that engine's floor), the once-per-process cost of loading the kernel, and
  against NLTK on the largest subset NLTK runs in reasonable time (no extrapolation)
  (``--nld-only``: these figures alone).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from timing import compare, fmt, machine, measure, record  # noqa: E402

from iaa_desktop.core.metrics import (  # noqa: E402
    aggregate,
    batch,
    bootstrap_batch,
    fleiss_kappa,
    krippendorff_alpha,
    krippendorff_alpha_strings,
    pairwise_cohen_kappa,
    table_coefficients,
    tally,
)
from iaa_desktop.core.metrics.suite import CodedOptions, evaluate, evaluator  # noqa: E402


def coded_study(n: int, c: int, q: int, missing: float, seed: int = 0) -> np.ndarray:
    """Labels that agree with a hidden truth 70% of the time, ``missing`` of them left out."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, n)
    codes = np.where(rng.random((n, c)) < 0.7, truth[:, None], rng.integers(0, q, (n, c))).astype(
        np.int32
    )
    codes[rng.random((n, c)) < missing] = -1
    return codes


def string_study(n: int, c: int, n_labels: int, seed: int = 0) -> np.ndarray:
    """String labels from a vocabulary of ``n_labels`` words (80% agree with a hidden truth)."""
    rng = np.random.default_rng(seed)
    alphabet = np.array(list("abcdefghijklmnopqrstuvwxyzäöüß"))
    vocab = sorted(
        {"".join(rng.choice(alphabet, rng.integers(2, 11))) for _ in range(int(n_labels * 1.05))}
    )[:n_labels]
    words = np.array(vocab, dtype=object)
    truth = rng.integers(0, len(words), n)
    idx = np.where(rng.random((n, c)) < 0.8, truth[:, None], rng.integers(0, len(words), (n, c)))
    labels = words[idx].astype(object)
    labels[rng.random((n, c)) < 0.05] = None
    return labels


def bench_alpha(codes: np.ndarray, q: int, repeat: int) -> None:
    import krippendorff

    values = np.arange(1, q + 1, dtype=float)
    rel = np.where(codes >= 0, values[np.maximum(codes, 0)], np.nan).T  # coders × units
    floor = measure(lambda: np.bincount(codes.ravel() + 1), repeat)
    print(f"  one-pass floor (np.bincount over the data): {fmt(floor)}")
    for level in ("nominal", "interval"):
        ours, ref = compare(
            f"Krippendorff's α, {level}",
            lambda level=level: krippendorff_alpha(codes, level, values).value,
            lambda level=level: krippendorff.alpha(
                reliability_data=rel, level_of_measurement=level, value_domain=values
            ),
            repeat,
        )
        print(
            f"    |ours − krippendorff| = {abs(ours.result - ref.result):.1e}; "
            f"ours / floor = {ours.cpu_median / floor.cpu_median:.1f}x"
        )
        record(
            "metrics",
            f"α {level}, {codes.shape[0]:,} × {codes.shape[1]}",
            ours,
            ref,
            reference="krippendorff",
            target="≥ 20× krippendorff, ≤ 5× floor",
            note=f"floor {floor.cpu_median * 1e3:.1f} ms",
        )


def bench_fleiss_cohen(codes: np.ndarray, q: int, repeat: int) -> None:
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    c = codes.shape[1]

    def ours() -> float:
        t = tally(codes, q)
        ag = aggregate(t)
        return float(batch.fleiss(t, ag).value[0] + batch.cohen_pairs(ag).value.sum())

    complete = codes[(codes >= 0).all(axis=1)]  # statsmodels' Fleiss needs complete rows

    def reference() -> float:
        f = sm_fleiss(aggregate_raters(complete, n_cat=q)[0])
        ks = 0.0
        for x in range(c):
            for y in range(x + 1, c):
                both = (codes[:, x] >= 0) & (codes[:, y] >= 0)
                ks += cohen_kappa_score(codes[both, x], codes[both, y])
        return float(f + ks)

    t_ours, t_ref = compare(
        f"Fleiss' κ + {c * (c - 1) // 2} pairwise Cohen's κ (one tally)", ours, reference, repeat
    )
    t = tally(codes, q)
    given = measure(lambda: batch.cohen_pairs(aggregate(t)), repeat)
    print(f"    of which the coefficients from the tally: {fmt(given)}")
    # the public functions: each on its own (two counts) and sharing one count
    separate = measure(lambda: (fleiss_kappa(codes, q), pairwise_cohen_kappa(codes, q)), repeat)
    shared = measure(
        lambda: table_coefficients(codes, ["fleiss_kappa", "pairwise_cohen_kappa"], q), repeat
    )
    print(f"    public fleiss_kappa + pairwise_cohen_kappa, each counting: {fmt(separate)}")
    print(
        f"    public table_coefficients (one count): {fmt(shared)}; best "
        f"{shared.cpu_best * 1e3:.1f} ms CPU (target ≤ 10 ms)"
    )
    record(
        "metrics",
        f"Fleiss + {c * (c - 1) // 2} Cohen through table_coefficients, {codes.shape[0]:,} × {c}",
        shared,
        separate,
        reference="the two public functions, each counting",
        target="≤ 10 ms CPU",
    )
    record(
        "metrics",
        f"Fleiss + {c * (c - 1) // 2} Cohen, {codes.shape[0]:,} × {c}",
        t_ours,
        t_ref,
        reference="statsmodels + scikit-learn",
        target="≤ 10 ms CPU",
    )


def bench_all_with_intervals(codes: np.ndarray, q: int, repeat: int, n_resamples: int) -> None:
    values = np.arange(1, q + 1, dtype=float)
    opts = CodedOptions(level="ordinal", values=values, spearman=True)

    def run() -> int:
        t = tally(codes, q)
        evaluate(t, aggregate(t), opts)
        return len(bootstrap_batch(t, evaluator(t, opts), n_resamples, seed=0))

    t = tally(codes, q)
    rng = np.random.default_rng(0)
    draw = measure(lambda: rng.multinomial(int(t.n_items), t.freq / t.n_items, n_resamples), repeat)
    total = measure(run, repeat)
    print(
        f"  every coefficient ({total.result} of them) with {n_resamples:,}-resample intervals, "
        f"{codes.shape[0]:,} × {codes.shape[1]} ({t.n_rows:,} distinct rows): {fmt(total)}"
    )
    print(f"    the multinomial draw of the resamples alone: {fmt(draw)}")
    record(
        "metrics",
        f"all coefficients + {n_resamples} resamples, {codes.shape[0]:,} × {codes.shape[1]}",
        total,
        draw,
        reference="multinomial draw (floor)",
        target="≤ 1 s CPU",
    )


def bench_example(repeat: int) -> None:
    from iaa_desktop.core.kinds import get_kind
    from iaa_desktop.core.progress import run_to_end
    from iaa_desktop.core.study_file import load_study

    study = load_study(ROOT / "iaa_desktop/resources/examples/judgments/ratings.iaa-study")
    mod, attr = get_kind("table").compare.split(":")
    kind = getattr(importlib.import_module(mod), attr)
    first = measure(lambda: run_to_end(kind.run(study.inputs, study.options)), 1)
    t = measure(lambda: run_to_end(kind.run(study.inputs, study.options)), max(repeat, 5))
    print(
        f"  80-item example study through the table kind, intervals included: {fmt(t)} "
        f"(first run, with lazy imports: cpu {first.cpu_median:.3f} s)"
    )
    record("metrics", "80-item example (table kind, in process)", t, target="≤ 0.2 s CPU")


def _cdist_floor(labels: np.ndarray) -> Callable[[], int]:
    """rapidfuzz ``cdist`` over the label pairs the engines visit (every pair of length blocks of
    the distinct labels, in a block with itself rows of 1,024 against themselves and the labels
    after them), bytes out, one thread, nothing summed: the floor of the rapidfuzz engine."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist

    distinct = sorted({v for v in labels.ravel() if v is not None})
    by_len: dict[int, list[str]] = {}
    for w in distinct:
        by_len.setdefault(len(w), []).append(w)
    blocks = [by_len[k] for k in sorted(by_len)]

    def run() -> int:
        pairs = 0
        for i, queries in enumerate(blocks):
            for start in range(0, len(queries), 1024):
                rows = queries[start : start + 1024]
                d = cdist(rows, queries[start:], scorer=Levenshtein.distance, dtype=np.uint8)
                pairs += d.size - len(rows) * (len(rows) - 1) // 2
            for choices in blocks[i + 1 :]:
                d = cdist(queries, choices, scorer=Levenshtein.distance, dtype=np.uint8)
                pairs += d.size
        return pairs

    return run


KERNEL_LOAD = """
import time
c = time.process_time()
import numpy as np
from iaa_desktop.core.metrics import levenshtein
base = time.process_time() - c
c = time.process_time()
for la in (1, 9, 17, 33):  # every lane width: 8, 16, 32, 64 bits
    q = np.zeros((1, la), dtype=np.int32)
    levenshtein.block_sums(q, q, np.ones((1, 1)), True)
print(base, time.process_time() - c)
"""


def bench_nld_first_call() -> None:
    """Importing numba and loading the compiled kernel from its disk cache, in a fresh process."""
    import subprocess

    cmd = [sys.executable, "-c", KERNEL_LOAD]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)  # compile once if not cached
    out = [
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True) for _ in range(3)
    ]
    loads = sorted(float(o.stdout.split()[1]) for o in out)
    print(
        f"    once per process: importing numba and loading the cached kernel: cpu {loads[1]:.3f} s "
        f"(median of 3 fresh processes)"
    )
    record("metrics", "α NLD: numba import + cached kernel load, once per process", loads[1])


def bench_nld(n_items: int, c: int, n_labels: int, repeat: int) -> None:
    from iaa_desktop.core.metrics.levenshtein import block_kernel

    labels = string_study(n_items, c, n_labels)
    n_distinct = len({v for v in labels.ravel() if v is not None})
    engine = "bitparallel" if block_kernel() is not None else "rapidfuzz"
    krippendorff_alpha_strings(labels, engine=engine)  # compiles the kernel if not cached yet
    ours, ref = compare(
        f"α NLD: {n_items:,} items × {c}, {n_distinct:,} distinct labels: {engine} kernel "
        "(reference: the rapidfuzz engine, cdist + matrix products)",
        lambda: krippendorff_alpha_strings(labels, engine=engine).value,
        lambda: krippendorff_alpha_strings(labels, engine="rapidfuzz").value,
        repeat,
    )
    print(
        f"    α = {ours.result:.15f}; |{engine} − rapidfuzz| = {abs(ours.result - ref.result):.1e}"
    )
    floor = measure(_cdist_floor(labels), repeat)
    print(
        f"    floor of the rapidfuzz engine: cdist alone over the {floor.result:,} label pairs of "
        f"the length blocks, nothing summed: {fmt(floor)}"
    )
    record(
        "metrics",
        f"α NLD, {n_items:,} × {c}, {n_distinct:,} labels",
        ours,
        ref,
        reference="rapidfuzz engine",
        target="≤ 0.5 s CPU",
        note=f"rapidfuzz cdist alone {floor.cpu_median:.3f} s",
    )
    if engine == "bitparallel":
        bench_nld_first_call()
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import edit_distance

    def nld(a: str, b: str) -> float:
        m = max(len(a), len(b))
        return edit_distance(a, b) / m if m else 0.0

    sub = labels[:300]
    sub = sub[[all(v is not None for v in row) for row in sub]]
    triples = [(str(a), str(i), sub[i, a]) for i in range(len(sub)) for a in range(c)]
    ours, ref = compare(
        f"α NLD on the first {len(sub)} complete items (NLTK's AnnotationTask on the same)",
        lambda: krippendorff_alpha_strings(sub).value,
        lambda: AnnotationTask(triples, distance=nld).alpha(),
        repeat,
    )
    print(f"    |ours − NLTK| = {abs(ours.result - ref.result):.1e}")
    record("metrics", f"α NLD, {len(sub)} items × {c}", ours, ref, reference="NLTK")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--annotators", type=int, default=5)
    ap.add_argument("--categories", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--string-items", type=int, default=50_000)
    ap.add_argument("--labels", type=int, default=15_000)
    ap.add_argument("--nld-only", action="store_true", help="only the α NLD figures")
    ap.add_argument(
        "--coded-only", action="store_true", help="only α and Fleiss + Cohen on the coded study"
    )
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    machine()
    if args.nld_only:
        bench_nld(args.string_items, args.annotators, args.labels, args.repeat)
        return
    n, c, q = args.items, args.annotators, args.categories
    codes = coded_study(n, c, q, 0.10)
    print(f"reliability data: {n:,} items × {c} annotators, {q} categories, 10% missing")
    bench_alpha(codes, q, args.repeat)
    bench_fleiss_cohen(codes, q, args.repeat)
    if args.coded_only:
        return
    bench_all_with_intervals(codes, q, args.repeat, args.resamples)
    bench_example(args.repeat)
    bench_nld(args.string_items, c, args.labels, args.repeat)


if __name__ == "__main__":
    main()

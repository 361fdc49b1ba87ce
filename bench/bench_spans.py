"""Benchmark of the spans kind against bratiaa's implementation, same data, same run.

Data: ``--docs`` documents × 3 annotators, ``--spans`` spans per annotator in all (default
1,000 × 50,000), simulated: a reference annotation of random spans (4 labels, 1–4 words) that each
annotator copies with some boundary shifts, label changes, drops and additions. Written as a brat
project (one folder per annotator, ``annotation.conf``) in a temporary folder.

Timed, ``--repeats`` times each, CPU and wall:

* ours, comparison: every figure from the spans in memory (``compare_corpus``: exact and overlap
  F1, groups, confusion, character/token κ and α, αU, the bootstrap over documents: 1,000
  resamples, intervals of every figure, αU's and macro F1's included);
* ours, end to end: reading the brat files too (``kind.run``);
* bratiaa: ``compute_f1_agreement`` (instance-level F1, reading the files), the reference.

Exact-match F1 per label must equal bratiaa's. Run:
``PYTHONPATH=. python bench/bench_spans.py [--docs 1000 --spans 50000 --repeats 3]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing

LABELS = ("PER", "LOC", "ORG", "MISC")


def simulate(root: Path, n_docs: int, n_spans: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    words = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "Paris",
        "Berlin",
        "Anna",
        "Omar",
        "ירושלים",
        "مدينة",
    ]
    per_doc = max(1, n_spans // n_docs)
    (root / "annotation.conf").parent.mkdir(parents=True, exist_ok=True)
    (root / "annotation.conf").write_text(
        "[entities]\n" + "\n".join(LABELS) + "\n[relations]\n[events]\n[attributes]\n",
        encoding="utf-8",
    )
    for who in ("A1", "A2", "A3"):
        (root / who).mkdir(parents=True, exist_ok=True)
    for d in range(n_docs):
        toks = rng.choice(words, size=per_doc * 8)
        text = " ".join(toks) + "\n"
        starts = np.concatenate([[0], np.cumsum([len(t) + 1 for t in toks])[:-1]])
        ends = starts + np.array([len(t) for t in toks])
        first = np.sort(rng.choice(np.arange(0, len(toks) - 4, 2), size=per_doc, replace=False))
        ref = []
        for f in first:
            n = int(rng.integers(1, 3))
            ref.append((int(starts[f]), int(ends[f + n - 1]), str(rng.choice(LABELS)), f, n))
        for who in ("A1", "A2", "A3"):
            lines = []
            for s, e, lab, f, n in ref:
                r = rng.random()
                if r < 0.04:
                    continue  # dropped
                if r < 0.08:
                    lab = str(rng.choice(LABELS))
                elif r < 0.12:
                    e = int(ends[f + n])  # one word longer
                lines.append(f"T{len(lines) + 1}\t{lab} {s} {e}\t{text[s:e]}")
            (root / who / f"doc{d:05d}.txt").write_text(text, encoding="utf-8")
            (root / who / f"doc{d:05d}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")


def timed(fn, repeats: int):
    """(median CPU s, median wall s, last result) with the shared helper (bench/timing.py)."""
    t = timing.measure(fn, repeat=repeats)
    return t.cpu_median, t.wall_median, t.result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--spans", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    timing.machine()

    from iaa_desktop.core.kinds import get_kind
    from iaa_desktop.core.kinds.spans.compare import compare_corpus
    from iaa_desktop.core.kinds.spans.corpus import build_corpus
    from iaa_desktop.core.kinds.spans.loading import pair_documents, read_inputs
    from iaa_desktop.core.kinds.spans.options import SpansOptions
    from iaa_desktop.core.progress import run_to_end

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        simulate(root, args.docs, args.spans)
        errors: list = []
        by_ann = read_inputs([root], SpansOptions(), errors)
        corpus = build_corpus(tuple(by_ann), pair_documents(by_ann, errors))
        print(f"{args.docs:,} documents × 3 annotators, {corpus.n_spans:,} spans in all")
        opts = {"n_resamples": 1000, "seed": 0, "gamma": False}  # γ: bench_gamma.py
        c_cmp, w_cmp, res = timed(lambda: run_to_end(compare_corpus(corpus, opts)), args.repeats)
        c_all, w_all, _ = timed(
            lambda: run_to_end(get_kind("spans").run([root], opts)), args.repeats
        )
        try:
            from bratiaa import compute_f1_agreement
        except ImportError:
            print("bratiaa is not installed (pip install bratiaa): no reference timing")
            compute_f1_agreement = None
        rows = [
            ("ours: comparison (all figures, 1,000 resamples)", c_cmp, w_cmp),
            ("ours: reading + comparison", c_all, w_all),
        ]
        if compute_f1_agreement is not None:
            c_ref, w_ref, ref = timed(lambda: compute_f1_agreement(str(root)), args.repeats)
            rows.append(("bratiaa: instance F1 (reading + comparison)", c_ref, w_ref))
            theirs = dict(zip(ref.labels, ref.mean_sd_per_label()[0]))
            ours = dict(zip(res.frames["labels"]["label"], res.frames["labels"]["exact_f1"]))
            same = all(abs(ours[k] - theirs[k]) < 1e-12 for k in theirs)
            print(f"exact-match F1 per label equal to bratiaa's: {same}")
        print(f"{'':50s} {'CPU s':>8s} {'wall s':>8s}")
        for name, c, w in rows:
            print(f"{name:50s} {c:8.3f} {w:8.3f}")
        if compute_f1_agreement is not None:
            print(
                f"bratiaa / ours (comparison), wall: {w_ref / w_cmp:.1f}×; "
                f"bratiaa / ours (end to end), wall: {w_ref / w_all:.1f}×"
            )
        ref_cpu = c_ref if compute_f1_agreement is not None else None
        label = f"{args.docs:,} documents × 3, {corpus.n_spans:,} spans"
        timing.record("spans", f"{label}: comparison", c_cmp, ref_cpu, reference="bratiaa")
        timing.record(
            "spans", f"{label}: reading + comparison", c_all, ref_cpu, reference="bratiaa"
        )


if __name__ == "__main__":
    main()

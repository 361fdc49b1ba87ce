"""Benchmark of the relation figures of the spans kind, against the span comparison of the same
corpus (a simpler run) and against Hopcroft–Karp (SciPy) as the matching.

Data: the simulated brat project of ``bench_spans.py`` (``--docs`` × 3 annotators, ``--spans``
spans per annotator), and per annotator and document a relation between each span and the next
(4 labels) that each annotator keeps, relabels, reverses or drops at random. Timed, ``--repeats``
times each, CPU and wall:

* relations: every relation figure (exact and overlap F1 per pair, label and document, 1,000
  bootstrap resamples, label κ, the causes of disagreement): ``relation_figures``;
* spans: every span figure of the same corpus without γ (``compare_corpus``), for scale;
* the overlap matching of every pair and document, ours (``max_matching``: the assignment of
  the dense 0/1 matrix by ``linear_sum_assignment``) against Hopcroft–Karp on the sparse graph
  (SciPy's ``maximum_bipartite_matching``, the reference); both must find matchings of the same
  size.

Run: ``PYTHONPATH=. python bench/bench_relations.py [--docs 300 --spans 15000 --repeats 3]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from itertools import combinations
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing
from bench_spans import simulate

LABELS = ("Employer", "Located", "Part", "Knows")


def add_relations(root: Path, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for ann in sorted(root.glob("*/*.ann")):
        lines = ann.read_text(encoding="utf-8").splitlines()
        tids = [ln.split("\t", 1)[0] for ln in lines if ln.startswith("T")]
        out = list(lines)
        for k, (a, b) in enumerate(zip(tids, tids[1:]), 1):
            label = LABELS[(int(a[1:]) * 7) % len(LABELS)]
            u = rng.random()
            if u < 0.1:
                continue  # dropped
            if u < 0.2:
                label = LABELS[int(rng.integers(len(LABELS)))]
            if u > 0.95:
                a, b = b, a
            out.append(f"R{k}\t{label} Arg1:{a} Arg2:{b}")
        ann.write_text("\n".join(out) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=300)
    ap.add_argument("--spans", type=int, default=15_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    timing.machine()

    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    from iaa_desktop.core.kinds.spans import measures as M
    from iaa_desktop.core.kinds.spans.compare import compare_corpus
    from iaa_desktop.core.kinds.spans.corpus import build_corpus
    from iaa_desktop.core.kinds.spans.loading import pair_documents, read_inputs
    from iaa_desktop.core.kinds.spans.options import SpansOptions
    from iaa_desktop.core.kinds.spans.relation_figures import relation_figures
    from iaa_desktop.core.metrics import relations as MR
    from iaa_desktop.core.progress import run_to_end

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        simulate(root, args.docs, args.spans)
        add_relations(root)
        errors: list = []
        by_ann = read_inputs([root], SpansOptions(), errors)
        corpus = build_corpus(tuple(by_ann), pair_documents(by_ann, errors))
        draws = M.doc_draws(len(corpus.names), 1000, 0)
        rel = relation_figures(corpus, draws)
        print(
            f"{args.docs:,} documents × 3 annotators, {corpus.n_spans:,} spans, "
            f"{rel.n_relations:,} relations"
        )
        t_rel = timing.measure(lambda: relation_figures(corpus, draws), repeat=args.repeats)
        opts = {"n_resamples": 1000, "seed": 0, "gamma": False}
        t_spans = timing.measure(
            lambda: run_to_end(compare_corpus(corpus, opts)), repeat=args.repeats
        )
        docs = [
            [
                [(r.label, r.source, r.target) for r in by[a].relations] if a in by else []
                for a in corpus.annotators
            ]
            for by in corpus.docs.values()
        ]

        def ours() -> int:
            return sum(
                len(MR.max_matching(d[x], d[y], "overlap"))
                for d in docs
                for x, y in combinations(range(3), 2)
            )

        def reference() -> int:
            n = 0
            for d in docs:
                for x, y in combinations(range(3), 2):
                    a, b = d[x], d[y]
                    pairs = [
                        (i, j)
                        for i, p in enumerate(a)
                        for j, q in enumerate(b)
                        if MR.may_match(p, q, "overlap")
                    ]
                    if not pairs:
                        continue
                    rows, cols = zip(*pairs)
                    g = csr_matrix((np.ones(len(pairs)), (rows, cols)), shape=(len(a), len(b)))
                    n += int((maximum_bipartite_matching(g, perm_type="column") >= 0).sum())
            return n

        t_ours = timing.measure(ours, repeat=args.repeats)
        t_ref = timing.measure(reference, repeat=args.repeats)
        print(f"same matching sizes as Hopcroft–Karp: {t_ours.result == t_ref.result}")
        print(f"{'':58s} {'CPU s':>8s} {'wall s':>8s}")
        for name, t in (
            ("relations: every figure (1,000 resamples)", t_rel),
            ("spans: every figure but γ (1,000 resamples), for scale", t_spans),
            ("overlap matching, ours (assignment of the 0/1 matrix)", t_ours),
            ("overlap matching, Hopcroft–Karp on the sparse graph (reference)", t_ref),
        ):
            print(f"{name:58s} {t.cpu_median:8.3f} {t.wall_median:8.3f}")
        print(
            f"relations / spans, CPU: {t_rel.cpu_median / t_spans.cpu_median:.2f}×; "
            f"Hopcroft–Karp / ours, CPU: {t_ref.cpu_median / t_ours.cpu_median:.2f}×"
        )
        label = f"{args.docs:,} documents × 3, {rel.n_relations:,} relations"
        timing.record(
            "relations",
            f"{label}: every figure",
            t_rel.cpu_median,
            t_spans.cpu_median,
            reference="span figures",
        )


if __name__ == "__main__":
    main()

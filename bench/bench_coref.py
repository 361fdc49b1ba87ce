"""Coreference benchmarks: class matching at scale, and reading + scoring a large CoNLL-2012 pair.

    python bench/bench_coref.py [--repeat 3]

1. One document pair with 5,000 classes per side (25,000 mentions; about 1.7 overlapping classes
   per class), matched with each cost: ours (sparse overlap graph) against the dense assignment
   over all pairs of classes (the former implementation, ``tests/oracles``), same repeats, same
   optimum checked. Target: ≤ 0.1 s CPU.
2. A 1,000,000-token CoNLL-2012 corpus pair (written to a temporary folder): read, then scored with
   every metric by the project's scorer (sparse contingency tables) and by the dense-matrix
   scorer kept as a test oracle, same repeats, same figures checked.
3. One long document with 6,000 entities, both scorers.

scipy's one-time import is done before timing (it is a start-up cost, not matching work).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing  # noqa: E402

from iaa_desktop.core.align.class_matching import match_sets  # noqa: E402
from iaa_desktop.core.kinds.coref.compare import entities_of  # noqa: E402
from iaa_desktop.core.kinds.coref.readers import read_conll  # noqa: E402
from iaa_desktop.core.metrics.coref_scores import score_corpus, score_document  # noqa: E402
from tests.oracles import class_matching_dense, coref_dense  # noqa: E402


def partitions(n_mentions: int, n_classes: int, agree: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, n_classes, n_mentions)
    b = np.where(rng.random(n_mentions) < agree, a, rng.integers(0, n_classes, n_mentions))
    order_a = np.argsort(a, kind="stable")
    order_b = np.argsort(b, kind="stable")
    sa = [list(x) for x in np.split(order_a, np.flatnonzero(np.diff(a[order_a])) + 1)]
    sb = [list(x) for x in np.split(order_b, np.flatnonzero(np.diff(b[order_b])) + 1)]
    return sa, sb


def write_conll(path: Path, n_tokens: int, labels: np.ndarray, doc_len: int = 5000) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for start in range(0, n_tokens, doc_len):
            f.write(f"#begin document (doc{start // doc_len}); part 000\n")
            for t in range(start, min(n_tokens, start + doc_len)):
                lab = labels[t]
                f.write(f"d 0 {t - start} w{t} {'-' if lab < 0 else f'({lab})'}\n")
            f.write("#end document\n")


def _objective(rows, cost: str) -> tuple[float, int]:
    pairs = [r for r in rows if r.class_a != "-" and r.class_b != "-"]
    if cost == "jaccard":
        return round(sum(r.d for r in pairs), 6), sum(r.M for r in rows)
    if cost == "opt":
        return sum(r.D for r in rows), sum(r.M for r in rows)
    return sum(r.D for r in pairs), sum(r.M for r in rows)


def bench_matching(repeat: int) -> None:
    import scipy.optimize
    import scipy.sparse.csgraph  # noqa: F401

    sa, sb = partitions(25_000, 5_000, 0.85)
    names_a = [f"C{i}" for i in range(len(sa))]
    names_b = [f"C{i}" for i in range(len(sb))]
    print(f"class matching: {len(sa):,} × {len(sb):,} classes, 25,000 mentions")
    for cost in ("symdiff", "jaccard", "opt"):
        ours, ref = timing.compare(
            f"{cost}: sparse overlap graph vs dense assignment (the former implementation)",
            lambda cost=cost: match_sets(sa, sb, names_a, names_b, cost),
            lambda cost=cost: class_matching_dense.match_sets(sa, sb, names_a, names_b, cost),
            repeat=repeat,
        )
        same = _objective(ours.result, cost) == _objective(ref.result, cost)
        print(f"    same optimum (cost, Σ M): {same}   target ≤ 0.1 s CPU")
        timing.record(
            "coref",
            f"class matching {len(sa):,} × {len(sb):,}, {cost}",
            ours,
            ref,
            reference="dense assignment",
            target="≤ 0.1 s CPU",
        )


def bench_scoring(repeat: int) -> None:
    n_tokens = 1_000_000
    rng = np.random.default_rng(1)
    key = np.where(rng.random(n_tokens) < 0.3, rng.integers(0, 60, n_tokens), -1)
    resp = np.where(
        rng.random(n_tokens) < 0.9,
        key,
        np.where(rng.random(n_tokens) < 0.3, rng.integers(0, 60, n_tokens), -1),
    )
    with tempfile.TemporaryDirectory() as tmp:
        kp, rp = Path(tmp) / "key_conll", Path(tmp) / "resp_conll"
        write_conll(kp, n_tokens, key)
        write_conll(rp, n_tokens, resp)
        read = timing.measure(lambda: (read_conll(kp), read_conll(rp)), repeat=1)
    kd, rd = read.result
    pairs = [(entities_of(a), entities_of(b)) for a, b in zip(kd, rd)]
    print(f"CoNLL-2012 pair, {n_tokens:,} tokens, {len(kd)} documents: read {timing.fmt(read)}")
    ours, ref = timing.compare(
        "scoring every metric: contingency tables vs dense overlap matrices (test oracle)",
        lambda: score_corpus(pairs).to_json(),
        lambda: coref_dense.score_corpus(pairs).to_json(),
        repeat=repeat,
    )
    s, d = ours.result, ref.result
    diff = max(abs(s[m][f] - d[m][f]) for m in d for f in d[m])
    print(f"    max |difference| {diff:.1e}; CoNLL F1 {s['conll']['f1']:.3f}")
    timing.record("coref", f"read {n_tokens:,}-token CoNLL pair", read, target="")
    timing.record(
        "coref",
        f"score {n_tokens:,}-token CoNLL pair",
        ours,
        ref,
        reference="dense scorer (oracle)",
    )
    n_ent, n_m = 6_000, 18_000
    key1 = rng.integers(0, n_ent, n_m)
    resp1 = np.where(rng.random(n_m) < 0.9, key1, rng.integers(0, n_ent, n_m))

    def ents(lab):
        order = np.argsort(lab, kind="stable")
        return [list(x) for x in np.split(order, np.flatnonzero(np.diff(lab[order])) + 1)]

    ka, ra = ents(key1), ents(resp1)
    ours, ref = timing.compare(
        f"one document, {n_ent:,} entities, {n_m:,} mentions: contingency vs dense",
        lambda: score_document(ka, ra),
        lambda: coref_dense.score_document(ka, ra),
        repeat=repeat,
    )
    timing.record(
        "coref",
        f"score one document of {n_ent:,} entities",
        ours,
        ref,
        reference="dense scorer (oracle)",
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    timing.machine()
    bench_matching(args.repeat)
    bench_scoring(args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

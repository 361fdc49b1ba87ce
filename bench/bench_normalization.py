"""Benchmark of the normalization kind: Needleman–Wunsch against LingPy, the study end to end.

    python bench/bench_normalization.py [--scale 11] [--out /tmp/norm_bench] [--pairs 100000]
                                        [--repeat 3] [--nltk-tokens 2000]

Generates ``--scale`` replicates of the five-annotator data with the data set's own generator
(``shared/data/normalization/generate.py``; 11 × 4,600 = 50,600 tokens) under ``--out`` (never
inside the repository). Timed with the shared helper (``bench/timing.py``: the same repeats for
both sides, alternately, CPU and wall time):

1. Needleman–Wunsch on ``--pairs`` (historical, normalized) pairs, every token × annotator of the
   scaled data, no de-duplication: ours (``nw_align_many``, the alignments as operation codes,
   and again as LingPy's lists) against LingPy's ``nw_align`` pair by pair; every alignment is
   checked identical. Target: 100,000 pairs ≤ 0.2 s CPU.
2. The study end to end in this process: reading the files and the whole analysis (alignment of
   every distinct pair, word and character percent agreement / π* / α_NLD for ALL, MEDIUM,
   STRICT, overall and per text, pairwise matrices, modernization, disagreement list). Target:
   ≤ 1.5 s. The whole ``report --json`` command in a fresh process is timed beside it.
3. The reference on the same prefix of ``--nltk-tokens`` tokens, for both sides: LingPy
   alignment of every token × annotator plus NLTK's ``AnnotationTask.alpha`` with NLD, word and
   character level, against ours on the same tokens (NLTK's α is quadratic in the number of
   labels; no figure is scaled up from a prefix).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing  # noqa: E402

GENERATOR = (
    Path(os.environ.get("IAA_SHARED_DATA", REPO.parent / "shared" / "data"))
    / "normalization"
    / "generate.py"
)


def generate(scale: int, out: Path) -> Path:
    folder = out / f"x{scale}"
    if not (folder / "annotator_5.tsv").exists():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, str(GENERATOR), "--scale", str(scale), "--out", str(folder)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return folder


def token_pairs(folder: Path, limit: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(historical, normalized) as graphemes, token × annotator in file order, no de-duplication."""
    from iaa_desktop.core.align.characters import graphemes

    cache: dict[str, tuple[str, ...]] = {}

    def units(s: str) -> tuple[str, ...]:
        u = cache.get(s)
        if u is None:
            u = cache[s] = graphemes(s.lower())
        return u

    out = []
    for f in sorted(folder.glob("annotator_*.tsv")):
        for line in f.read_text(encoding="utf-8").splitlines()[1:]:
            cells = line.split("\t")
            out.append((units(cells[2]), units(cells[3])))
            if len(out) == limit:
                return out
    return out


def bench_alignment(folder: Path, n_pairs: int, repeat: int) -> None:
    import logging

    logging.getLogger("lingpy").setLevel(logging.WARNING)
    from lingpy.align.pairwise import nw_align as lingpy_nw_align

    from iaa_desktop.core.align.needleman_wunsch import nw_align_many

    pairs = token_pairs(folder, n_pairs)
    a = [p[0] for p in pairs]
    b = [p[1] for p in pairs]
    print(f"Needleman–Wunsch: {len(pairs):,} pairs (token × annotator, no de-duplication)")

    def lingpy_all():
        return [lingpy_nw_align(list(x), list(y))[:2] for x, y in zip(a, b)]

    ops, ref = timing.compare(
        "ours (operation codes) vs LingPy's nw_align, pair by pair",
        lambda: nw_align_many(a, b),
        lingpy_all,
        repeat=repeat,
    )
    lists, _ = timing.compare(
        "ours (as LingPy's lists) vs LingPy's nw_align, pair by pair",
        lambda: nw_align_many(a, b).to_lists(),
        lingpy_all,
        repeat=1,
    )
    same = lists.result == [(list(x), list(y)) for x, y in ref.result]
    print(f"    identical to LingPy on every pair: {same}   target ≤ 0.2 s CPU")
    timing.record(
        "normalization",
        f"Needleman–Wunsch, {len(pairs):,} pairs (alignments)",
        ops,
        ref,
        reference="LingPy nw_align",
        target="≤ 0.2 s CPU",
        note=f"identical: {same}",
    )
    timing.record(
        "normalization",
        f"Needleman–Wunsch, {len(pairs):,} pairs (as LingPy's lists)",
        lists,
        ref,
        reference="LingPy nw_align",
    )


def bench_study(folder: Path, repeat: int) -> None:
    from iaa_desktop.core.kinds.normalization.compare import analyse
    from iaa_desktop.core.kinds.normalization.reader import read_normalization
    from iaa_desktop.core.progress import run_to_end

    def end_to_end():
        return run_to_end(analyse(read_normalization([folder]), {}))

    t = timing.measure(end_to_end, repeat=repeat)
    res = t.result
    n, c = res.norm.shape
    print(
        f"study: {n:,} tokens × {c} annotators, {len(res.texts)} texts, "
        f"{res.character['ALL'].n_units:,} character units, {res.aligner.n_pairs:,} distinct pairs"
    )
    print(f"  read + analysis in this process: {timing.fmt(t)}   target ≤ 1.5 s")
    w, ch = res.word["ALL"], res.character["ALL"]
    print(
        f"    word ALL: agr {w.percent_agreement:.4f} π* {w.pi:.4f} α_NLD {w.alpha_nld:.4f}; "
        f"char ALL: agr {ch.percent_agreement:.4f} π* {ch.pi:.4f} α_NLD {ch.alpha_nld:.4f}"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(REPO)
    cmd = [sys.executable, "-m", "iaa_desktop", "report", "--kind", "normalization"]
    cmd += [str(folder), "--json", os.devnull, "--quiet"]
    proc = timing.measure_process(cmd, repeat=repeat, env=env, cwd=REPO)
    print(f"  the whole 'report --json' command, fresh process: {timing.fmt(proc)}")
    timing.record(
        "normalization",
        f"study {n:,} × {c}: read + analysis (in process)",
        t,
        target="≤ 1.5 s",
    )
    timing.record("normalization", f"study {n:,} × {c}: report --json (whole process)", proc)


def bench_reference(folder: Path, n_tokens: int) -> None:
    """LingPy + NLTK against ours on the same first tokens."""
    import logging

    logging.getLogger("lingpy").setLevel(logging.WARNING)
    from lingpy.align.pairwise import nw_align as lingpy_nw_align
    from nltk.metrics.agreement import AnnotationTask
    from rapidfuzz.distance import Levenshtein

    from iaa_desktop.core.align.characters import align_units, graphemes
    from iaa_desktop.core.kinds.normalization.compare import analyse
    from iaa_desktop.core.kinds.normalization.reader import read_normalization
    from iaa_desktop.core.progress import run_to_end

    def nld(x: str, y: str) -> float:
        m = max(len(x), len(y))
        return Levenshtein.distance(x, y) / m if m else 0.0

    prefix = _prefix(read_normalization([folder]), n_tokens)
    # the tokens the analysis compares (lower-cased, punctuation left out), for the reference too
    res0 = run_to_end(analyse(prefix, {}))
    orig, norm = res0.orig, res0.norm
    m, c = norm.shape

    def reference():
        diff = [
            [
                align_units(
                    *lingpy_nw_align(list(graphemes(orig[i])), list(graphemes(norm[i, x])))[:2]
                )[1]
                for x in range(c)
            ]
            for i in range(m)
        ]
        word = AnnotationTask(
            [(str(x), str(i), norm[i, x]) for i in range(m) for x in range(c)], distance=nld
        )
        char = AnnotationTask(
            [
                (str(x), f"{i}.{u}", diff[i][x][u])
                for i in range(m)
                for u in range(len(diff[i][0]))
                for x in range(c)
            ],
            distance=nld,
        )
        return word.alpha(), char.alpha()

    ours, ref = timing.compare(
        f"first {m:,} tokens: ours (the whole analysis) vs LingPy alignment + NLTK α (word, char)",
        lambda: run_to_end(analyse(prefix, {})),
        reference,
        repeat=1,
    )
    a_word, a_char = ref.result
    res = ours.result
    print(
        f"    α word {a_word:.10f} (ours {res.word['ALL'].alpha_nld:.10f}), "
        f"α char {a_char:.10f} (ours {res.character['ALL'].alpha_nld:.10f})"
    )
    timing.record(
        "normalization",
        f"first {m:,} tokens: analysis vs LingPy + NLTK α",
        ours,
        ref,
        reference="LingPy + NLTK",
    )


def _prefix(data, m: int):
    """The same study restricted to its first ``m`` tokens (before any token is dropped)."""
    import dataclasses

    return dataclasses.replace(
        data,
        text_ids=data.text_ids[:m],
        token_ids=data.token_ids[:m],
        orig=data.orig[:m],
        norm=data.norm[:m],
        mod=data.mod[:m],
        mod_type=data.mod_type[:m],
    )


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scale", type=int, default=11)
    ap.add_argument("--out", type=Path, default=Path("/tmp/norm_bench"))
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--nltk-tokens", type=int, default=2000)
    args = ap.parse_args()
    if not GENERATOR.exists():
        print(f"generator not found: {GENERATOR}", file=sys.stderr)
        return 2
    timing.machine()
    folder = generate(args.scale, args.out)
    bench_alignment(folder, args.pairs, args.repeat)
    bench_study(folder, args.repeat)
    bench_reference(folder, args.nltk_tokens)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

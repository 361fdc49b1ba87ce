"""Benchmark of the normalization kind against LingPy-only alignment plus NLTK's α.

Usage::

    python bench/bench_normalization.py [--scale 11] [--out /tmp/norm_bench] [--ref-tokens N]

Generates ``--scale`` replicates of the five-annotator data with the data set's own generator
(``../shared/data/normalization/generate.py``; 11 × 4,600 = 50,600 tokens) under ``--out``
(never inside the repository), then times in one run

1. ours: reading the files, and the whole analysis (alignment of every distinct pair, word and
   character percent agreement / π* / α_NLD for ALL, MEDIUM, STRICT, overall and per text,
   pairwise matrices, modernization, disagreement list);
2. the reference: LingPy's ``nw_align`` for every token × annotator (no cache) and NLTK's
   ``AnnotationTask.alpha`` with NLD, word- and character-based, on the first ``--ref-tokens``
   tokens (default: all; NLTK's α is quadratic in the number of distinct labels, so on the full
   data it takes minutes); the reference time is scaled linearly to the full data when a
   prefix is used, and the ratio says so;
3. responsiveness: the analysis runs in a worker thread while the main thread wakes every 5 ms
   (as a GUI event loop would); the longest gap between wake-ups is printed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GENERATOR = REPO.parent / "shared" / "data" / "normalization" / "generate.py"


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


def nld(a: str, b: str) -> float:
    from rapidfuzz.distance import Levenshtein

    m = max(len(a), len(b))
    return Levenshtein.distance(a, b) / m if m else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scale", type=int, default=11)
    ap.add_argument("--out", type=Path, default=Path("/tmp/norm_bench"))
    ap.add_argument(
        "--ref-tokens", type=int, default=0, help="reference on the first N tokens only (0 = all)"
    )
    args = ap.parse_args()
    if not GENERATOR.exists():
        print(f"generator not found: {GENERATOR}", file=sys.stderr)
        return 2
    folder = generate(args.scale, args.out)

    from iaa_desktop.core.kinds.normalization.compare import analyse
    from iaa_desktop.core.kinds.normalization.reader import read_normalization
    from iaa_desktop.core.progress import run_to_end

    # -- ours ------------------------------------------------------------------------------------
    t0 = time.perf_counter()
    data = read_normalization([folder])
    t_read = time.perf_counter() - t0
    t0 = time.perf_counter()
    res = run_to_end(analyse(data, {}))
    t_cold = time.perf_counter() - t0
    # a second run (fresh aligner, nothing cached) without the first run's lazy imports
    t0 = time.perf_counter()
    res = run_to_end(analyse(data, {}))
    t_ours = time.perf_counter() - t0
    n, c = res.norm.shape
    print(
        f"data: {n:,} tokens × {c} annotators, {len(res.texts)} texts, "
        f"{res.character['ALL'].n_units:,} character units, {res.aligner.n_pairs:,} distinct pairs aligned"
    )
    print(
        f"ours: read {t_read:.2f} s; analysis {t_cold:.2f} s first run (with lazy imports), "
        f"{t_ours:.2f} s second run; read + first analysis {t_read + t_cold:.2f} s (target < 3 s)"
    )
    print(
        f"      word ALL: agr {res.word['ALL'].percent_agreement:.4f}  π* {res.word['ALL'].pi:.4f}  "
        f"α_NLD {res.word['ALL'].alpha_nld:.4f}"
    )
    print(
        f"      char ALL: agr {res.character['ALL'].percent_agreement:.4f}  π* {res.character['ALL'].pi:.4f}  "
        f"α_NLD {res.character['ALL'].alpha_nld:.4f}"
    )

    # -- responsiveness -----------------------------------------------------------------------
    done = threading.Event()

    def work() -> None:
        run_to_end(analyse(read_normalization([folder]), {}))
        done.set()

    th = threading.Thread(target=work)
    gaps = []
    last = time.perf_counter()
    th.start()
    while not done.is_set():
        time.sleep(0.005)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    th.join()
    print(
        f"responsiveness: main thread woke {len(gaps)} times during read+analysis in a worker; "
        f"longest gap {1000 * max(gaps):.0f} ms, median {1000 * float(np.median(gaps)):.1f} ms"
    )

    # -- reference: LingPy alignment of every token × annotator + NLTK α ------------------------
    import logging

    logging.getLogger("lingpy").setLevel(logging.WARNING)
    from nltk.metrics.agreement import AnnotationTask

    from iaa_desktop.core.align.characters import align_units, graphemes, lingpy_nw_align

    m = n if args.ref_tokens <= 0 else min(n, args.ref_tokens)
    t0 = time.perf_counter()
    lingpy_nw_align(["a"], ["a"])  # import LingPy (part of the reference's cost)
    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    diff_labels: list[list[tuple[str, ...]]] = []
    for i in range(m):
        units = graphemes(res.orig[i])
        diff_labels.append(
            [align_units(*lingpy_nw_align(units, graphemes(res.norm[i, x])))[1] for x in range(c)]
        )
    t_align = time.perf_counter() - t0
    t0 = time.perf_counter()
    word_task = AnnotationTask(
        data=[(str(x), str(i), res.norm[i, x]) for i in range(m) for x in range(c)], distance=nld
    )
    a_word = word_task.alpha()
    t_nltk_word = time.perf_counter() - t0
    t0 = time.perf_counter()
    char_task = AnnotationTask(
        data=[
            (str(x), f"{i}.{u}", diff_labels[i][x][u])
            for i in range(m)
            for u in range(len(diff_labels[i][0]))
            for x in range(c)
        ],
        distance=nld,
    )
    a_char = char_task.alpha()
    t_nltk_char = time.perf_counter() - t0
    t_ref = t_import + t_align + t_nltk_word + t_nltk_char
    print(
        f"reference on {m:,} tokens: LingPy import {t_import:.2f} s, LingPy alignment {t_align:.2f} s, "
        f"NLTK α word {t_nltk_word:.2f} s, NLTK α char {t_nltk_char:.2f} s, total {t_ref:.2f} s"
    )
    if m == n:
        ok_w = abs(a_word - res.word["ALL"].alpha_nld) < 1e-9
        ok_c = abs(a_char - res.character["ALL"].alpha_nld) < 1e-9
        print(
            f"           α word {a_word:.10f} (same as ours: {ok_w}), α char {a_char:.10f} (same as ours: {ok_c})"
        )
        print(
            f"ratio reference / ours: {t_ref / t_ours:.1f}× (second run), "
            f"{t_ref / (t_read + t_cold):.1f}× (read + first run)"
        )
    else:
        scale = n / m
        t_est = t_import + (t_align + t_nltk_word + t_nltk_char) * scale
        print(
            f"ratio reference / ours (analysis), reference scaled linearly ×{scale:.1f} "
            f"(a lower bound: NLTK's α grows faster than linearly): {t_est / t_ours:.1f}×"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

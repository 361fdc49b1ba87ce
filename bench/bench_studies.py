"""Whole-process cost of the real studies as a user runs them: ``report --json``, ``report --pdf``
and the window (``open --screenshot``), CPU time best of N (default two) and wall beside it.

    python bench/bench_studies.py [--repeat 2] [--repo PATH] [--only json,pdf,window]
                                  [--studies psalms,trotr,...] [--before PATH]

Studies: the Psalms coreference study, the TRoTR DURel export, the shared candidates study, the
normalization study and the multi-label study (``$IAA_SHARED_DATA``), and the bundled judgments
example as the window's reference. Printed, as ratios measured in this one run:

* TRoTR ``report --json`` / Psalms ``report --json`` (target ≤ 2);
* each study's ``report --pdf`` / its own ``report --json`` (target ≤ 2.5);
* ``open --screenshot`` on TRoTR and on Psalms / on the bundled judgments example (target ≤ 3).

CPU time is the child's user + system time (``resource.getrusage(RUSAGE_CHILDREN)``): on a
machine shared with other work it is the figure to compare; wall time says what a user waits.
``--repo`` times another checkout (e.g. the code before a change) with the same inputs;
``--before PATH`` times that checkout too, each command right after this one's (so both see the
same load), and prints per study the PDF CPU, the JSON CPU and their ratio for both.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing  # noqa: E402

DATA = Path(os.environ.get("IAA_SHARED_DATA", ROOT.parent / "shared" / "data"))


def studies(repo: Path) -> dict[str, list[str]]:
    """Study name → the inputs and options of ``iaa-desktop report`` / ``open``."""
    d = DATA
    return {
        "psalms": ["--kind", "coref", str(d / "psalms-coref" / "A"), str(d / "psalms-coref" / "B")],
        "trotr": ["--kind", "durel", str(d / "trotr")],
        "candidates": [
            "--kind",
            "candidates",
            str(d / "candidates" / "pairs.tsv"),
            str(d / "candidates" / "labels.tsv"),
        ],
        "normalization": ["--kind", "normalization", str(d / "normalization")],
        "multilabel": [
            "--kind",
            "multilabel",
            str(d / "multilabel" / "annotations.tsv"),
            str(d / "multilabel" / "sentences.tsv"),
        ],
        "judgments-example": [
            str(repo / "iaa_desktop" / "resources" / "examples" / "judgments" / "ratings.iaa-study")
        ],
    }


def best(t: timing.Timing) -> str:
    return f"cpu {t.cpu_best:6.2f} s (best of {t.repeat}), wall {t.wall_best:6.2f} s"


def print_before_after(
    names: list[str],
    got_before: dict[tuple[str, str], timing.Timing],
    got: dict[tuple[str, str], timing.Timing],
) -> None:
    """Per study: PDF CPU, JSON CPU and their ratio, before and now."""
    print("\nPDF against --json, CPU best of each (target ≤ 2.5):")
    print(
        f"  {'study':15s} {'before: pdf':>12s} {'json':>6s} {'ratio':>6s}   "
        f"{'now: pdf':>9s} {'json':>6s} {'ratio':>6s}"
    )
    for name in names:
        cells = []
        for g in (got_before, got):
            p, j = g.get((name, "pdf")), g.get((name, "json"))
            if p is None or j is None:
                cells.append(f"{'–':>12s} {'–':>6s} {'–':>6s}")
            else:
                cells.append(f"{p.cpu_best:12.2f} {j.cpu_best:6.2f} {p.cpu_best / j.cpu_best:6.2f}")
        print(f"  {name:15s} {cells[0]}   {cells[1][3:]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--repo", type=Path, default=ROOT, help="checkout to time (default: this one)")
    ap.add_argument("--only", default="json,pdf,window", help="which commands: json,pdf,window")
    ap.add_argument("--studies", default="", help="comma-separated study names (default: all)")
    ap.add_argument(
        "--before", type=Path, help="another checkout (the code before a change) timed alongside"
    )
    args = ap.parse_args()
    repo = args.repo.resolve()
    only = set(args.only.split(","))
    timing.machine()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(repo)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.setdefault("MPLBACKEND", "Agg")
    all_studies = studies(repo)
    names = [s for s in args.studies.split(",") if s] or list(all_studies)
    got: dict[tuple[str, str], timing.Timing] = {}
    got_before: dict[tuple[str, str], timing.Timing] = {}
    env_before = {**env, "PYTHONPATH": str(args.before.resolve())} if args.before else None
    py = [sys.executable, "-m", "iaa_desktop"]
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            inputs = all_studies[name]
            if not all(Path(a).exists() for a in inputs if "/" in a):
                print(f"{name}: inputs absent, skipped")
                continue
            runs = {
                "json": [*py, "report", *inputs, "--json", f"{tmp}/{name}.json", "--quiet"],
                "pdf": [*py, "report", *inputs, "--pdf", f"{tmp}/{name}.pdf", "--quiet"],
                "window": [*py, "open", *inputs, "--screenshot", f"{tmp}/{name}.png"],
            }
            for what, cmd in runs.items():
                if what not in only:
                    continue
                if what != "window" and name == "judgments-example" and what == "pdf":
                    continue
                t = timing.measure_process(cmd, repeat=args.repeat, env=env, cwd=repo, timeout=900)
                ok = t.result.returncode == 0
                got[(name, what)] = t
                status = "" if ok else f"  EXIT {t.result.returncode}: {t.result.stderr[-300:]}"
                print(f"{name:18s} {what:6s} {best(t)}{status}", flush=True)
                timing.record("studies", f"{name} {what} (whole process)", t)
                if env_before is not None and what != "window":
                    tb = timing.measure_process(
                        cmd, repeat=args.repeat, env=env_before, cwd=args.before, timeout=900
                    )
                    got_before[(name, what)] = tb
                    print(f"{'  (before)':18s} {what:6s} {best(tb)}", flush=True)

    def cpu(name: str, what: str) -> float | None:
        t = got.get((name, what))
        return t.cpu_best if t else None

    print("\nratios (CPU, best of each):")

    def show(label: str, a: float | None, b: float | None, target: float) -> None:
        if a is None or b is None:
            return
        r = a / b
        mark = "ok" if r <= target else "OVER"
        print(f"  {label:55s} {r:5.2f}  (target ≤ {target:g}) {mark}")

    show(
        "TRoTR report --json / Psalms report --json", cpu("trotr", "json"), cpu("psalms", "json"), 2
    )
    for name in names:
        show(f"{name} report --pdf / its report --json", cpu(name, "pdf"), cpu(name, "json"), 2.5)
    for name in ("trotr", "psalms"):
        show(
            f"{name} open --screenshot / judgments example's",
            cpu(name, "window"),
            cpu("judgments-example", "window"),
            3,
        )
    if got_before:
        print_before_after(names, got_before, got)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

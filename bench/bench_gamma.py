"""Benchmark of γ (Mathet et al. 2015) against pygamma-agreement, same continua, same run.

Continua (``tests/fixtures/gamma``, see its README): ``three_small`` (three annotators, six units
each, written by hand), ``three_by_100`` and ``five_by_100`` (three and five annotators, about 100
units each on one continuum of about 2,000 positions, made by the seeded ``make_continua.py``),
and the bundled spans example; or, with ``--folder``, the ``*.csv`` continua of another folder
(annotator, category, start, end, no header). Both sides compute γ with the exact best alignment, the combined
dissimilarity (α = β = Δ∅ = 1), pygamma-agreement's statistical sampler, seed 0, precision level
2%.

Timed, CPU and wall:

* ours: :func:`iaa_desktop.core.metrics.gamma.gamma` in this process (CPU of this process and of
  the worker processes it starts);
* pygamma-agreement: ``tests/fixtures/gamma/make_reference.py`` run by the Python of an
  environment where pygamma-agreement is installed (``--pygamma-python``, default
  ``$IAA_PYGAMMA_PYTHON``): the whole process (import and compilation included) and, as that
  script measures it, the computation alone. A run still going after ``--timeout`` seconds is
  stopped and reported as such (the ratio is then a lower bound, marked ≥).

Targets: five_by_100 ≤ 10 s CPU, the three-annotator sets ≤ 1 s. Run:
``PYTHONPATH=. python bench/bench_gamma.py [--pygamma-python /path/bin/python] [--timeout 1800]
[--sets NAME ...] [--folder DIR]``
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing

DATA = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "gamma"
SETS = {
    "three_small": 1.0,
    "three_by_100": 1.0,
    "spans_example": 1.0,
    "five_by_100": 10.0,
}


def cpu_all() -> float:
    """CPU seconds of this process and of its finished children."""
    own = time.process_time()
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + ch.ru_utime + ch.ru_stime


def ours(path: Path) -> tuple[float, float, float, int]:
    from iaa_desktop.core.metrics.gamma import gamma, make_continuum

    with open(path, encoding="utf-8", newline="") as f:
        units = [(r[0], float(r[2]), float(r[3]), r[1]) for r in csv.reader(f) if r]
    c0, w0 = cpu_all(), time.perf_counter()
    r = gamma(make_continuum(units), seed=0, precision_level=0.02)
    return cpu_all() - c0, time.perf_counter() - w0, r.gamma, r.n_samples


def theirs(python: str, path: Path, timeout: float) -> tuple[float, float, float | None, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "ref.json"
        cmd = [python, str(DATA / "make_reference.py"), str(path), str(out)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        try:
            subprocess.run(cmd, capture_output=True, timeout=timeout, check=True)
            stopped = False
        except subprocess.TimeoutExpired:  # the child is killed and waited for
            stopped = True
        wall = time.perf_counter() - w0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if stopped:
            return cpu, wall, None, {}
        ref = json.loads(out.read_text(encoding="utf-8"))
        return cpu, wall, ref.get("gamma"), ref


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pygamma-python", default=os.environ.get("IAA_PYGAMMA_PYTHON", ""))
    ap.add_argument("--timeout", type=float, default=1800.0)
    ap.add_argument("--sets", nargs="*", help="continua by name (default: every one of the folder)")
    ap.add_argument("--folder", type=Path, default=DATA, help="a folder of *.csv continua")
    args = ap.parse_args()
    folder: Path = args.folder
    names = args.sets or (
        list(SETS) if folder == DATA else sorted(p.stem for p in folder.glob("*.csv"))
    )
    timing.machine()
    ours(DATA / "three_small.csv")  # imports SciPy's solvers once, as a running application has
    head = f"{'continuum':16s} {'ours CPU':>9s} {'wall':>7s} {'target':>7s} "
    head += (
        f"{'pygamma CPU':>12s} {'wall':>8s} {'(compute)':>10s} {'CPU ratio':>10s}  γ ours / pygamma"
    )
    print(head)
    for name in names:
        c, w, g, n = ours(folder / f"{name}.csv")
        target = SETS.get(name) if folder == DATA else None
        goal = "—" if target is None else f"≤ {target:g} s"
        line = f"{name:16s} {c:9.3f} {w:7.3f} {goal.removesuffix(' s').replace(' ', ''):>7s} "
        if not args.pygamma_python:
            print(line + "   (no pygamma-agreement environment: --pygamma-python)")
            timing.record("gamma", f"γ {name}", c, target=goal)
            continue
        rc, rw, rg, ref = theirs(args.pygamma_python, folder / f"{name}.csv", args.timeout)
        done = rg is not None
        ratio = rc / c if c > 0 else float("inf")
        mark = "" if done else "≥"
        compute = f"{ref['cpu_seconds']:10.3f}" if done else f"{'stopped':>10s}"
        gtxt = (
            f"{g:.6f} / {rg:.6f}" if done else f"{g:.6f} / (stopped after {args.timeout:g} s wall)"
        )
        print(
            f"{line}{(mark + format(rc, '.3f')):>12s} {rw:8.1f} {compute} "
            f"{(mark + format(ratio, '.0f') + '×'):>10s}  {gtxt}"
        )
        timing.record(
            "gamma",
            f"γ {name} ({n} samples)",
            c,
            rc if done else None,
            reference="pygamma-agreement (whole process)",
            target=goal,
            note=""
            if done
            else f"pygamma-agreement stopped after {args.timeout:g} s wall, {rc:.0f} s CPU",
        )


if __name__ == "__main__":
    main()

"""The candidates model as a user runs it: the full model alone and the five-model comparison,
CPU and wall time, diagnostics, and the Model tab's time estimate against the real fit.

    python bench/bench_model_speed.py [--only full,all] [--cli]

For the shared candidates study (``$IAA_SHARED_DATA/candidates``), default sampler settings:

* fits the full model (``m.klMB``) and then the five nested models (``all``) with
  :func:`~iaa_desktop.core.kinds.candidates.model.results.fit_models`, in this process, printing
  CPU time (``time.process_time``: all threads) and wall time of each, the draws per chain each
  model took, divergences, the worst R-hat (parameters and κ cells) and the worst bulk ESS of the
  κ cells; targets ≤ 60 s CPU (full model) and ≤ 180 s CPU (comparison) with R-hat ≤ 1.01, bulk
  ESS ≥ 400 for every κ cell and no divergences (the draws go on past ``--model-draws``, up to
  three times as many, while a parameter's or κ cell's R-hat exceeds 1.01: it prints why each
  model stopped);
* feeds every progress report to the Model tab's clock (``FitClock``, as the window does) and
  prints its estimate of the time left at the first estimate and at 25 / 50 / 75 % of the fit
  against the time the fit really took from there (ratio estimate / actual, target within 2×);
* with ``--cli`` also times ``iaa-desktop report --model m.klMB`` as a whole process.

Earlier figures (before the chains were vectorised and the draws chosen by the κ cells' ESS):
4 chains × (1,000 warm-up + 1,000 draws) chain after chain; on this machine the full model took
55 s CPU as a whole ``report --model m.klMB`` process (41 s in the sampler), the comparison
8–11 minutes in the window. With the draws chosen by the κ cells' ESS and going on while an R-hat
exceeds 1.01 (load 4–5): the full model 42 s CPU in the process, 43 s as a whole process; the
comparison 106–110 s CPU in the process (``m.MB`` 1,400 draws per chain, the others 300–700),
128 s as a whole ``report --model all --html`` process.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing  # noqa: E402

SHARED = Path(os.environ.get("IAA_SHARED_DATA", ROOT.parent / "shared" / "data"))


def fit(result, which: str) -> dict:
    from iaa_desktop.core.kinds.candidates.model.results import fit_models, resolve_specs
    from iaa_desktop.core.kinds.candidates.model.settings import sampler_settings
    from iaa_desktop.gui.kinds.candidates_model import FitClock

    specs = resolve_specs(which, list(result.factors))
    clock = FitClock(time.monotonic())
    trace: list[tuple[float, float, float | None]] = []

    def seen(p) -> None:
        now = time.monotonic()
        clock.update(now, p.fraction)
        trace.append((now, p.fraction, clock.remaining()))
        if os.environ.get("IAA_BENCH_TRACE"):
            left = clock.remaining()
            print(
                f"    {now - start:7.1f} s  {p.fraction:6.3f}  {left if left is not None else '–'}  {p.message}",
                flush=True,
            )

    start = time.monotonic()
    c0, w0 = time.process_time(), time.perf_counter()
    gen = fit_models(
        result.pairs, result.annotators, result.categories, specs, sampler_settings({}), None
    )
    from iaa_desktop.core.progress import run_to_end

    res = run_to_end(gen, seen)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    end = time.monotonic()
    checks = []
    first = next((t for t in trace if t[2] is not None), None)
    marks = [("first estimate", first)]
    for q in (0.25, 0.5, 0.75):
        marks.append(
            (
                f"{q:.0%} of the time",
                min(trace, key=lambda t: abs(t[0] - start - q * (end - start))),
            )
        )
    for name, t in marks:
        if t is None or t[2] is None:
            checks.append((name, None, None, None))
            continue
        actual = end - t[0]
        checks.append((name, t[0] - start, t[2], t[2] / actual if actual > 0 else float("nan")))
    return {"res": res, "cpu": cpu, "wall": wall, "checks": checks}


def report(which: str, r: dict, target: float) -> None:
    res = r["res"]
    print(f"\n{which}: cpu {r['cpu']:.1f} s, wall {r['wall']:.1f} s (target ≤ {target:g} s CPU)")
    worst = {"rhat": 0.0, "kess": float("inf"), "div": 0}
    for name, f in res.fits.items():
        d = f.diagnostics
        print(
            f"  {name:<8} {d['n_chains']} chains × {d['n_draws']} draws; divergences "
            f"{d['divergences']}; R-hat params {d['rhat_max']:.4f}, κ cells "
            f"{d.get('kappa_rhat_max', float('nan')):.4f}; κ-cell bulk ESS ≥ "
            f"{d.get('kappa_ess_bulk_min', float('nan')):.0f} ({d.get('kappa_ess_bulk_worst', '')}); "
            f"sampler cpu {d['cpu_seconds']:.1f} s"
        )
        if d.get("stopped"):
            print(
                f"           stopped at {d['n_draws']} draws per chain ({d.get('draws_set')} set, "
                f"at most {d.get('max_draws')} while the chains disagree): {d['stopped']}"
            )
        worst["rhat"] = max(worst["rhat"], d["rhat_max"], d.get("kappa_rhat_max", 0.0))
        worst["kess"] = min(worst["kess"], d.get("kappa_ess_bulk_min", float("nan")))
        worst["div"] += d["divergences"]
    ok = worst["rhat"] <= 1.01 and worst["kess"] >= 400 and worst["div"] == 0
    print(
        f"  thresholds (R-hat ≤ 1.01, κ-cell bulk ESS ≥ 400, no divergences): "
        f"{'met' if ok else 'NOT met'}"
    )
    for name, at, est, ratio in r["checks"]:
        if est is None:
            print(f"  estimate at {name}: none")
        else:
            print(
                f"  estimate at {name} ({at:.0f} s in): {est:.0f} s left; "
                f"estimate / actual {ratio:.2f} (target 0.5–2)"
            )
    timing.record(
        "model",
        f"candidates model {which}: fit in the process",
        r["cpu"],
        target=f"≤ {target:g} s CPU",
        note=f"wall {r['wall']:.0f} s",
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="full,all")
    ap.add_argument("--cli", action="store_true")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    timing.machine()
    from iaa_desktop.core.kinds.candidates.compare import KIND
    from iaa_desktop.core.progress import run_to_end

    folder = SHARED / "candidates"
    result = run_to_end(KIND.run([folder / "pairs.tsv", folder / "labels.tsv"], {}))
    c0 = time.process_time()
    import jax  # noqa: F401
    import numpyro  # noqa: F401

    print(f"imports (JAX, NumPyro): cpu {time.process_time() - c0:.1f} s (once per process)")
    only = a.only.split(",")
    if "full" in only:
        report("full model (m.klMB)", fit(result, "m.klMB"), 60)
    if "all" in only:
        report("five-model comparison (all)", fit(result, "all"), 180)
    if a.cli:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        cmd = [sys.executable, "-m", "iaa_desktop", "report", "--kind", "candidates"]
        cmd += [str(folder / "pairs.tsv"), str(folder / "labels.tsv"), "--model", "m.klMB", "-q"]
        subprocess.run(cmd, capture_output=True, cwd=ROOT, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        print(
            f"\nreport --model m.klMB (whole process): cpu {cpu:.1f} s, "
            f"wall {time.perf_counter() - w0:.1f} s (earlier: 55 s CPU)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

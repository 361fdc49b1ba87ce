"""Coverage of the agreement model's 95% κ intervals over simulated candidate-pair studies.

For each seed, the candidate-pairs generator (``generate.py`` beside the shared data set)
simulates a new study (pairs, book effects, labels); the full model (``m.klMB``, default sampler
settings) is fitted, and for every retrieval method × known condition (overlap at its mean, an
average book) the posterior 89% / 95% intervals of multi-κ are compared with the κ the generator
implies (:mod:`bayes_truth`). Prints one line per study and the coverage; writes every figure to
``--out`` (JSON).

Run: ``python bench/bayes_coverage.py --seeds 20 --work /tmp/bayes_cov --out cov.json``
(about a minute of CPU per study: ~30 s to generate, ~30 s to fit).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bayes_truth import load_params, true_kappa

from iaa_desktop.core.kinds.candidates.compare import KIND
from iaa_desktop.core.kinds.candidates.model.data import build_outcomes, named_spec
from iaa_desktop.core.kinds.candidates.model.fit import SamplerSettings, sample_nuts
from iaa_desktop.core.kinds.candidates.model.summaries import diagnostics, kappa_tables
from iaa_desktop.core.progress import run_to_end

SHARED = Path(
    os.environ.get("IAA_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)


def simulate(seed: int, work: Path, generator: Path) -> Path:
    out = work / f"seed{seed:03d}"
    if not (out / "params.json").exists():
        out.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, str(generator), "--seed", str(seed), "--out", str(out)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return out


def one_study(folder: Path, model: str, settings: SamplerSettings) -> dict:
    # the sampler and the κ tables only: leave-one-out is not needed for coverage
    res = run_to_end(KIND.run([folder / "pairs.tsv", folder / "labels.tsv"], {"max_aligned": 0}))
    data = build_outcomes(res.pairs, res.annotators, res.categories, named_spec(model, res.factors))
    post = run_to_end(sample_nuts(data, settings))
    kappa = kappa_tables(post, data, settings.seed)
    fit = SimpleNamespace(
        kappa=kappa,
        info={"chance_eq8": data.chance_eq8},
        diagnostics={
            "cpu_seconds": post.cpu_seconds,
            "divergences": int(post.stats["diverging"].sum()),
            "rhat_max": diagnostics(post)["rhat_max"],
        },
    )
    params = load_params(folder)
    chance = fit.info["chance_eq8"]
    rows = []
    for r in fit.kappa["crossed"]:
        cond = r["condition"]
        truth = true_kappa(params, cond["method"], cond["known"] == "true", 0.0, chance)
        k = r["kappa"]
        rows.append(
            {
                "condition": cond,
                "truth": truth,
                "median": k["median"],
                "q95": k["q95"],
                "q89": k["q89"],
                "in95": bool(k["q95"][0] <= truth <= k["q95"][1]),
                "in89": bool(k["q89"][0] <= truth <= k["q89"][1]),
            }
        )
    return {
        "folder": str(folder),
        "cpu_seconds": fit.diagnostics.get("cpu_seconds"),
        "divergences": fit.diagnostics.get("divergences"),
        "rhat_max": fit.diagnostics.get("rhat_max"),
        "rows": rows,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20, help="number of simulated studies")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--work", type=Path, default=Path("/tmp/bayes_coverage"))
    ap.add_argument("--out", type=Path, default=None, help="JSON file of every figure")
    ap.add_argument("--model", default="m.klMB")
    ap.add_argument("--generator", type=Path, default=SHARED / "candidates" / "generate.py")
    a = ap.parse_args()
    if not a.generator.exists():
        print(f"generator not found: {a.generator}", file=sys.stderr)
        return 2
    settings = SamplerSettings()
    studies = []
    for seed in range(a.first_seed, a.first_seed + a.seeds):
        if seed == 2019:
            continue  # the committed data set; its recovery is a test of its own
        t = time.perf_counter()
        folder = simulate(seed, a.work, a.generator)
        st = one_study(folder, a.model, settings)
        st["seed"] = seed
        studies.append(st)
        cells = " ".join(
            f"{r['truth']:.2f}{'∈' if r['in95'] else '∉'}[{r['q95'][0]:.2f},{r['q95'][1]:.2f}]"
            for r in st["rows"]
        )
        print(
            f"seed {seed:3d}: {cells}  div={st['divergences']} rhat={st['rhat_max']:.3f} "
            f"fit {st['cpu_seconds']:.0f} s CPU, study {time.perf_counter() - t:.0f} s",
            flush=True,
        )
        if a.out:
            a.out.write_text(json.dumps({"studies": studies}, indent=1), encoding="utf-8")
    rows = [r for s in studies for r in s["rows"]]
    in95 = np.mean([r["in95"] for r in rows])
    in89 = np.mean([r["in89"] for r in rows])
    width = np.mean([r["q95"][1] - r["q95"][0] for r in rows])
    bias = np.mean([r["median"] - r["truth"] for r in rows])
    summary = {
        "studies": len(studies),
        "intervals": len(rows),
        "coverage95": float(in95),
        "coverage89": float(in89),
        "mean_width95": float(width),
        "mean_bias": float(bias),
        "divergent_studies": int(sum(1 for s in studies if s["divergences"])),
        "fit_cpu_seconds_mean": float(np.mean([s["cpu_seconds"] for s in studies])),
    }
    print(json.dumps(summary, indent=1))
    if a.out:
        a.out.write_text(
            json.dumps({"summary": summary, "studies": studies}, indent=1), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

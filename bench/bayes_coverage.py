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

from bayes_truth import load_params, realised_book_mean, true_kappa

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
    return {
        "folder": str(folder),
        "cpu_seconds": fit.diagnostics.get("cpu_seconds"),
        "divergences": fit.diagnostics.get("divergences"),
        "rhat_max": fit.diagnostics.get("rhat_max"),
        "chance": chance,
        "rows": score(params, fit.kappa["crossed"], chance),
    }


def score(params: dict, crossed: list[dict], chance: float) -> list[dict]:
    """Each condition's interval against the generator's κ: at the population's average book
    (book effect 0) and at the study's average book (the mean of the realised effects)."""
    u_bar = realised_book_mean(params)
    rows = []
    for r in crossed:
        cond = r["condition"]
        known = cond["known"] == "true"
        truth = true_kappa(params, cond["method"], known, 0.0, chance)
        truth_fp = true_kappa(params, cond["method"], known, 0.0, chance, u_bar)
        k = r["kappa"]
        rows.append(
            {
                "condition": cond,
                "kappa": k,
                "truth": truth,
                "truth_study_books": truth_fp,
                "in95_study_books": bool(k["q95"][0] <= truth_fp <= k["q95"][1]),
                "median": k["median"],
                "q95": k["q95"],
                "q89": k["q89"],
                "in95": bool(k["q95"][0] <= truth <= k["q95"][1]),
                "in89": bool(k["q89"][0] <= truth <= k["q89"][1]),
            }
        )
    return rows


def rescore(path: Path) -> list[dict]:
    """Recompute both truths for the studies of an earlier run (no refitting)."""
    studies = json.loads(path.read_text(encoding="utf-8"))["studies"]
    for st in studies:
        folder = Path(st["folder"])
        chance = st.get("chance")
        if chance is None:
            res = run_to_end(
                KIND.run([folder / "pairs.tsv", folder / "labels.tsv"], {"max_aligned": 0})
            )
            data = build_outcomes(
                res.pairs, res.annotators, res.categories, named_spec("m", res.factors)
            )
            chance = data.chance_eq8
        crossed = [
            {
                "condition": r["condition"],
                "kappa": r.get("kappa") or {k: r[k] for k in ("median", "q95", "q89")},
            }
            for r in st["rows"]
        ]
        st["chance"] = chance
        st["rows"] = score(load_params(folder), crossed, chance)
    return studies


def summarise(studies: list[dict]) -> dict:
    rows = [r for s in studies for r in s["rows"]]
    return {
        "studies": len(studies),
        "intervals": len(rows),
        "coverage95": float(np.mean([r["in95"] for r in rows])),
        "coverage89": float(np.mean([r["in89"] for r in rows])),
        "coverage95_study_books": float(np.mean([r["in95_study_books"] for r in rows])),
        "mean_width95": float(np.mean([r["q95"][1] - r["q95"][0] for r in rows])),
        "mean_bias": float(np.mean([r["median"] - r["truth"] for r in rows])),
        "divergent_studies": int(sum(1 for s in studies if s.get("divergences"))),
        "fit_cpu_seconds_mean": float(np.mean([s["cpu_seconds"] for s in studies])),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20, help="number of simulated studies")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--work", type=Path, default=Path("/tmp/bayes_coverage"))
    ap.add_argument("--out", type=Path, default=None, help="JSON file of every figure")
    ap.add_argument("--model", default="m.klMB")
    ap.add_argument("--generator", type=Path, default=SHARED / "candidates" / "generate.py")
    ap.add_argument("--rescore", type=Path, help="only rescore the studies of this JSON file")
    a = ap.parse_args()
    if a.rescore:
        studies = rescore(a.rescore)
        print(json.dumps(summarise(studies), indent=1))
        if a.out:
            a.out.write_text(
                json.dumps({"summary": summarise(studies), "studies": studies}, indent=1),
                encoding="utf-8",
            )
        return 0
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
    summary = summarise(studies)
    print(json.dumps(summary, indent=1))
    if a.out:
        a.out.write_text(
            json.dumps({"summary": summary, "studies": studies}, indent=1), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

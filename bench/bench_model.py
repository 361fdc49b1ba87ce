"""Benchmark of the agreement model: the full model (``m.klMB``) on the candidate-pairs data
(1,800 pairwise outcomes), default settings (4 chains × (1,000 warm-up + 1,000 draws)).

Times the project's sampler (NumPyro's NUTS, run in chunks) and, when installed, the same model in
PyMC sampled by nutpie (the other well-kept NUTS implementation considered; its JAX backend), in the same run with
the same chains, warm-up, draws and seed: process CPU time (all threads) and wall time, the
compile step, divergences, the worst R-hat, and the ELPD (PSIS-LOO) each posterior gives. Also
the import time of each stack in a fresh interpreter.

Run: ``python bench/bench_model.py [--repeats 1] [--no-reference]``; the reference needs
``pip install pymc nutpie "pyarrow<18"`` (pyarrow 18+ needs NumPy 2). nutpie's default numba
backend is not used: numba 0.68 broke the import of ``coverage`` 6 in the project's environment.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from iaa_desktop.core.kinds.candidates.compare import KIND
from iaa_desktop.core.kinds.candidates.model.data import build_outcomes, named_spec
from iaa_desktop.core.kinds.candidates.model.fit import (
    Posterior,
    SamplerSettings,
    pointwise_loglik,
    sample_nuts,
)
from iaa_desktop.core.kinds.candidates.model.summaries import diagnostics, loo
from iaa_desktop.core.progress import run_to_end

SHARED = Path(
    os.environ.get("IAA_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)


def import_seconds(stmt: str) -> float:
    code = f"import time; t = time.perf_counter(); {stmt}; print(time.perf_counter() - t)"
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    return float(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else float("nan")


def project(data, settings: SamplerSettings) -> dict:
    c, w = time.process_time(), time.perf_counter()
    post = run_to_end(sample_nuts(data, settings))
    cpu, wall = time.process_time() - c, time.perf_counter() - w
    d = diagnostics(post)
    elpd = loo(pointwise_loglik(post, data), data.item, post)["outcome"]
    return {
        "cpu": cpu,
        "wall": wall,
        "compile": float("nan"),
        "divergences": d["divergences"],
        "rhat_max": d["rhat_max"],
        "elpd": elpd["elpd"],
        "p_loo": elpd["p_loo"],
    }


def reference(data, settings: SamplerSettings) -> dict:
    """The same model in PyMC (same priors, non-centred), sampled by nutpie."""
    import nutpie
    import pymc as pm
    import pytensor.tensor as pt

    k1, n_pairs = data.n_logits, len(data.pair_names)
    c, w = time.process_time(), time.perf_counter()
    with pm.Model() as model:
        alpha = pm.StudentT("alpha", nu=3, mu=0, sigma=2.5, shape=(n_pairs, k1))
        beta = pm.Normal("beta", 0, 2.5, shape=(data.X.shape[1], k1))
        eta = alpha[data.pair] + pt.dot(data.X, beta)
        for g, levels in enumerate(data.group_levels):
            chol, _, _ = pm.LKJCholeskyCov(
                f"chol_{g}",
                n=k1,
                eta=1.0,
                sd_dist=pm.HalfStudentT.dist(nu=3, sigma=2.5, shape=k1),
                compute_corr=True,
            )
            z = pm.Normal(f"z_{g}", 0, 1, shape=(len(levels), k1))
            nu = pm.Deterministic(f"nu_{g}", pt.dot(z, chol.T))
            eta = eta + nu[data.group_idx[g]]
        logits = pt.concatenate([pt.zeros((len(data.y), 1)), eta], axis=1)
        pm.Categorical("y", logit_p=logits, observed=data.y)
    # nutpie compiles the log density with numba by default; the JAX backend needs no numba
    compiled = nutpie.compile_pymc_model(model, backend="jax", gradient_backend="jax")
    compile_cpu = time.process_time() - c
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trace = nutpie.sample(
            compiled,
            draws=settings.draws,
            tune=settings.warmup,
            chains=settings.chains,
            seed=settings.seed,
            progress_bar=False,
        )
    cpu, wall = time.process_time() - c, time.perf_counter() - w
    params = {k: np.asarray(trace.posterior[k]) for k in ("alpha", "beta")}
    for g in range(len(data.group_levels)):
        params[f"nu_{g}"] = np.asarray(trace.posterior[f"nu_{g}"])
    post = Posterior(params, settings=settings)
    elpd = loo(pointwise_loglik(post, data), data.item, post)["outcome"]
    import arviz as az

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rhat = az.rhat(trace.posterior[["alpha", "beta"]])
    return {
        "cpu": cpu,
        "wall": wall,
        "compile": compile_cpu,
        "divergences": int(np.asarray(trace.sample_stats["diverging"]).sum()),
        "rhat_max": float(max(float(rhat[v].max()) for v in rhat.data_vars)),
        "elpd": elpd["elpd"],
        "p_loo": elpd["p_loo"],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--model", default="m.klMB")
    ap.add_argument("--no-reference", action="store_true")
    a = ap.parse_args()
    folder = SHARED / "candidates"
    res = run_to_end(KIND.run([folder / "pairs.tsv", folder / "labels.tsv"], {"max_aligned": 0}))
    data = build_outcomes(
        res.pairs, res.annotators, res.categories, named_spec(a.model, res.factors)
    )
    settings = SamplerSettings()
    print(f"{a.model}: {len(data.y):,} outcomes; {settings}")
    print(
        f"import (fresh interpreter): numpyro+jax {import_seconds('import jax, numpyro'):.2f} s; "
        f"pymc+nutpie {import_seconds('import pymc, nutpie'):.2f} s"
    )
    rows = []
    for rep in range(a.repeats):
        rows.append(("NumPyro NUTS (project)", rep, project(data, settings)))
        if not a.no_reference:
            try:
                rows.append(("PyMC + nutpie", rep, reference(data, settings)))
            except ImportError as e:
                print(f"reference not run: {e}")
    print(
        f"{'sampler':<24} {'rep':>3} {'CPU s':>7} {'wall s':>7} {'compile':>8} {'div':>4} "
        f"{'R-hat':>6} {'ELPD':>9} {'p_loo':>6}"
    )
    for name, rep, r in rows:
        print(
            f"{name:<24} {rep:>3} {r['cpu']:>7.1f} {r['wall']:>7.1f} {r['compile']:>8.1f} "
            f"{r['divergences']:>4} {r['rhat_max']:>6.3f} {r['elpd']:>9.2f} {r['p_loo']:>6.1f}"
        )
    proj = [r for n, _, r in rows if n.startswith("NumPyro")]
    ref = [r for n, _, r in rows if n.startswith("PyMC")]
    if proj and ref:
        cpu_ratio = np.mean([r["cpu"] for r in ref]) / np.mean([r["cpu"] for r in proj])
        wall_ratio = np.mean([r["wall"] for r in ref]) / np.mean([r["wall"] for r in proj])
        print(f"reference / project: CPU {cpu_ratio:.2f}×, wall {wall_ratio:.2f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

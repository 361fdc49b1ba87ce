"""The hierarchical agreement model of candidate-pair studies: outcomes, κ per condition, the fit,
LOO, the cache, the CLI and the report section.

Tests that sample need the optional ``model`` packages (NumPyro, JAX, ArviZ) and skip without
them; the recovery and model-order tests on the shared candidate-pairs data are marked slow.
"""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.candidates.model import available
from iaa_desktop.core.kinds.candidates.model.data import (
    MODEL_NAMES,
    build_outcomes,
    chance_agreement_eq8,
    custom_spec,
    named_spec,
)
from iaa_desktop.core.kinds.candidates.model.fit import Posterior, SamplerSettings
from iaa_desktop.core.kinds.candidates.model.summaries import condition_draws
from iaa_desktop.core.metrics import multi_kappa

REPO = Path(__file__).resolve().parents[2]
needs_model = pytest.mark.skipif(not available(), reason="the optional model packages are absent")
FACTORS = ["method", "book", "known"]


def simulated_pairs(n: int = 120, seed: int = 1) -> pd.DataFrame:
    """A small candidates table: method, book, known, overlap, labels of A1–A3 (strings)."""
    rng = np.random.default_rng(seed)
    method = rng.choice(["smith-waterman", "soft-cosine"], n)
    book = rng.choice([f"B{k}" for k in range(6)], n)
    known = rng.choice(["false", "true"], n)
    overlap = rng.uniform(0, 0.8, n)
    z = (overlap - overlap.mean()) / overlap.std()
    logit = -0.8 * (method == "soft-cosine") + 1.2 * (known == "true") + 1.6 * z
    logit = logit + rng.normal(0, 0.8, n)
    df = pd.DataFrame({"pair_id": [f"P{i}" for i in range(n)], "method": method, "book": book})
    df["known"], df["overlap"] = known, overlap
    for a, d in (("A1", -0.6), ("A2", 0.0), ("A3", 0.7)):
        df[a] = (rng.random(n) < 1 / (1 + np.exp(-(logit + d)))).astype(int).astype(str)
    return df


# ----------------------------------------------------------------------------- outcomes


def test_outcomes_of_every_annotator_pair_and_item():
    df = simulated_pairs(40)
    df.loc[3, "A2"] = ""  # a missing label drops that item's pairs with A2 only
    data = build_outcomes(df, ["A1", "A2", "A3"], ["0", "1"], named_spec("m", FACTORS))
    assert data.pair_names == ("A1–A2", "A1–A3", "A2–A3")
    assert len(data.y) == 3 * 40 - 2
    for p, (x, y) in enumerate(combinations(["A1", "A2", "A3"], 2)):
        sel = data.pair == p
        expect = df[x].iloc[data.item[sel]].astype(int) * 2 + df[y].iloc[data.item[sel]].astype(int)
        assert (data.y[sel] == expect.to_numpy()).all()
    assert data.outcome_names() == ["00", "01", "10", "11"]
    assert not data.y.flags.writeable


def test_chance_agreement_eq8_is_multi_kappa_expected():
    df = simulated_pairs(80)
    codes = df[["A1", "A2", "A3"]].astype(int).to_numpy()
    a_e, share = chance_agreement_eq8(codes, 2)
    assert a_e == pytest.approx(multi_kappa(codes, 2).expected)
    # by hand: mean over pairs of Σ_k P(k|x) P(k|y)
    p1 = codes.mean(axis=0)
    by_hand = np.mean(
        [p1[x] * p1[y] + (1 - p1[x]) * (1 - p1[y]) for x, y in [(0, 1), (0, 2), (1, 2)]]
    )
    assert a_e == pytest.approx(by_hand)
    assert share.sum(axis=1) == pytest.approx(np.ones(3))


def test_named_models_follow_the_paper_and_custom_models_are_checked():
    specs = [named_spec(n, FACTORS) for n in MODEL_NAMES]
    assert [s.varying for s in specs] == [(), (), ("book",), ("book",), ("book",)]
    assert specs[-1].fixed == ("method", "known", "overlap")
    assert "(1 | book)" in specs[-1].formula()
    with pytest.raises(OptionError, match="book"):
        named_spec("m.MB", ["method", "known"])
    with pytest.raises(OptionError, match="not a factor"):
        custom_spec("genre", "", FACTORS)
    with pytest.raises(OptionError, match="either"):
        custom_spec("method", "method", FACTORS)
    with pytest.raises(OptionError, match="continuous"):
        custom_spec("", "overlap", FACTORS)
    assert custom_spec("known, overlap", "method,book", FACTORS).varying == ("method", "book")


def test_design_rows_encode_levels_against_the_first():
    df = simulated_pairs(60)
    data = build_outcomes(df, ["A1", "A2", "A3"], ["0", "1"], named_spec("m.klMB", FACTORS))
    assert data.x_names == ["method[soft-cosine]", "known[true]", "overlap"]
    row = data.design({"method": "soft-cosine", "known": "false", "overlap": 0.5})
    assert row.tolist() == [1.0, 0.0, 0.5]
    assert data.X[:, 2].mean() == pytest.approx(0.0, abs=0.1)  # z-scored over the items


# ----------------------------------------------------------------------------- κ per condition


def fake_posterior(theta: np.ndarray, n_pairs: int = 3, draws: int = 5) -> Posterior:
    """A posterior whose every draw gives each pair the outcome probabilities ``theta``."""
    eta = np.log(theta[1:] / theta[0])
    alpha = np.broadcast_to(eta, (1, draws, n_pairs, 3)).copy()
    return Posterior({"alpha": alpha}, settings=SamplerSettings(chains=1, draws=draws))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0.01, 1.0), min_size=4, max_size=4))
def test_condition_kappa_is_eq7_with_eq8_chance(weights):
    theta = np.array(weights) / np.sum(weights)
    df = simulated_pairs(30)
    data = build_outcomes(df, ["A1", "A2", "A3"], ["0", "1"], named_spec("m", FACTORS))
    d = condition_draws(fake_posterior(theta), data, {}, False, np.random.default_rng(0))
    a_o = theta[0] + theta[3]
    a_e = data.chance_eq8
    assert d["observed"] == pytest.approx(np.full(5, a_o))
    assert d["kappa"] == pytest.approx(np.full(5, (a_o - a_e) / (1 - a_e)))
    # per-condition chance agreement: Cohen's, from the margins of θ
    rows, cols = theta[0] + theta[1], theta[0] + theta[2]
    a_e_c = rows * cols + (1 - rows) * (1 - cols)
    assert d["kappa_cond"] == pytest.approx(np.full(5, (a_o - a_e_c) / (1 - a_e_c)))
    assert (d["kappa"] <= 1 + 1e-12).all() and (d["kappa_cond"] <= 1 + 1e-12).all()


def test_perfect_agreement_gives_kappa_one():
    theta = np.array([0.5 - 1e-9, 1e-9, 1e-9, 0.5 - 1e-9])
    df = simulated_pairs(30)
    data = build_outcomes(df, ["A1", "A2", "A3"], ["0", "1"], named_spec("m", FACTORS))
    d = condition_draws(fake_posterior(theta), data, {}, False, np.random.default_rng(0))
    assert d["kappa_cond"] == pytest.approx(np.ones(5), abs=1e-6)


# ----------------------------------------------------------------------------- fitting

FAST = SamplerSettings(chains=2, warmup=150, draws=150, chunk=50, seed=3)


@pytest.fixture(scope="module")
def small_fit(tmp_path_factory):
    if not available():
        pytest.skip("the optional model packages are absent")
    from iaa_desktop.core.kinds.candidates.model.results import fit_models, resolve_specs
    from iaa_desktop.core.progress import run_to_end

    df = simulated_pairs(150)
    cache = tmp_path_factory.mktemp("model-cache")
    specs = resolve_specs(["m", "m.klMB"], FACTORS)
    seen = []
    res = run_to_end(
        fit_models(df, ["A1", "A2", "A3"], ["0", "1"], specs, FAST, cache), seen.append
    )
    return df, cache, specs, res, seen


@needs_model
def test_fit_yields_progress_per_chunk_and_compares_models(small_fit):
    _df, _cache, _specs, res, seen = small_fit
    # every chunk of 50 iterations reports (the chains side by side: 300 iterations × 2 models)
    assert len(seen) >= 2 * 6
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    table = res.comparison()
    assert [r["model"] for r in table][0] == "m.klMB"  # the generating factors help
    assert table[0]["elpd_diff"] == 0.0 and table[1]["elpd_diff"] < 0
    assert all(r["se"] > 0 and r["p_loo"] > 0 for r in table)
    fit = res.fits["m.klMB"]
    assert fit.loo["item"]["se"] > 0 and len(fit.loo["item"]["loo_i"]) == 150
    # by item the log-likelihoods of an item's three outcomes add up
    assert fit.loo["item"]["loo_i"].sum() == pytest.approx(fit.loo["item"]["elpd"])
    slope = {(r["term"], r["logit"]): r for r in fit.coefficients}
    assert slope[("overlap", "11")]["median"] > 0.5  # the generator's overlap effect is +1.6


@needs_model
def test_results_are_json_and_tables(small_fit):
    res = small_fit[3]
    data = json.loads(json.dumps(res.to_json(), allow_nan=True))
    assert data["chance_agreement"]["eq8"] == pytest.approx(res.chance_eq8)
    m = data["models"]["m.klMB"]
    assert m["sampler"]["seed"] == 3 and m["sampler"]["chains"] == 2
    assert m["kappa"]["crossed_factors"] == ["method", "known"]
    assert len(m["kappa"]["crossed"]) == 4 and len(m["kappa_curves"]["curves"]) == 4
    tables = res.tables()
    assert {"model_elpd", "model_kappa", "model_kappa_curves", "model_coefficients"} <= set(tables)
    k = tables["model_kappa"]
    assert (k["low95"] <= k["median"]).all() and (k["median"] <= k["high95"]).all()
    # with a new book drawn per draw the intervals are wider
    crossed = k[k["table"] == "method × known"]
    assert (
        (crossed.with_varying_high95 - crossed.with_varying_low95)
        > (crossed.high95 - crossed.low95)
    ).all()
    # the short run fails the ESS check and says what to do
    assert any("draw more" in w or "longer chains" in w for w in res.warnings())


@needs_model
def test_cached_fit_is_reused(small_fit):
    from iaa_desktop.core.kinds.candidates.model.results import fit_models
    from iaa_desktop.core.progress import run_to_end

    df, cache, specs, res, _ = small_fit
    assert len(list(Path(cache).glob("*.npz"))) == 2
    again = run_to_end(fit_models(df, ["A1", "A2", "A3"], ["0", "1"], specs, FAST, cache))
    assert all(f.cached for f in again.fits.values())
    assert again.comparison() == res.comparison()
    assert again.fits["m.klMB"].kappa == res.fits["m.klMB"].kappa


@needs_model
def test_report_section_and_methods(small_fit):
    from iaa_desktop.core.kinds.candidates.model.report import methods, section

    res = small_fit[3]
    sec = section(res, charts=False)
    assert "Model comparison by PSIS-LOO" in sec.html and "Check before use" in sec.html
    paras, refs = methods(res)
    assert "Student-t(3, 0, 2.5)" in paras[0] and "LKJ" in paras[0] and "seed 3" in paras[0]
    assert "vehtari2017" in refs


@needs_model
def test_cross_check_against_statsmodels_multinomial_logit():
    """With 600 outcomes and weak priors, posterior medians are near the maximum likelihood of an
    independent implementation (statsmodels' MNLogit) of the same regression."""
    sm = pytest.importorskip("statsmodels.api")
    from iaa_desktop.core.kinds.candidates.model.fit import sample_nuts
    from iaa_desktop.core.progress import run_to_end

    df = simulated_pairs(200, seed=5)
    data = build_outcomes(
        df, ["A1", "A2", "A3"], ["0", "1"], custom_spec("known,overlap", "", FACTORS)
    )
    post = run_to_end(
        sample_nuts(data, SamplerSettings(chains=2, warmup=300, draws=300, chunk=100))
    )
    exog = np.column_stack([np.eye(3)[data.pair], data.X])
    mle = sm.MNLogit(data.y, exog).fit(disp=0).params  # (5 columns, 3 logits)
    med = np.median(post.flat("beta"), axis=0)
    assert med == pytest.approx(np.asarray(mle)[3:], abs=0.25)


@needs_model
def test_variational_preview_runs_and_says_it_is_a_preview():
    from iaa_desktop.core.kinds.candidates.model.results import fit_models, resolve_specs
    from iaa_desktop.core.progress import run_to_end

    df = simulated_pairs(100)
    vi = SamplerSettings(method="variational", vi_steps=1000, draws=200, chunk=20, seed=1)
    res = run_to_end(
        fit_models(df, ["A1", "A2", "A3"], ["0", "1"], resolve_specs("m.kMB", FACTORS), vi)
    )
    fit = res.fits["m.kMB"]
    assert fit.diagnostics["method"] == "variational"
    assert any("variational preview" in w for w in fit.warnings)
    k = fit.kappa["overall"]["kappa"]
    assert -1 <= k["q95"][0] <= k["median"] <= k["q95"][1] <= 1


# ----------------------------------------------------------------------------- CLI


def test_cli_names_the_missing_packages_or_runs(tmp_path):
    """Without the optional packages the CLI says how to install them; with them it fits."""
    df = simulated_pairs(60)
    df["target_text"], df["source_text"] = "a b c", "a b d"
    df.drop(columns=["A1", "A2", "A3"]).to_csv(tmp_path / "pairs.tsv", sep="\t", index=False)
    df[["pair_id", "A1", "A2", "A3"]].to_csv(tmp_path / "labels.csv", index=False)
    cmd = [sys.executable, "-m", "iaa_desktop", "report", "--kind", "candidates", "--model", "m"]
    cmd += ["--model-chains", "1", "--model-warmup", "60", "--model-draws", "60", "-q"]
    cmd += [str(tmp_path / "pairs.tsv"), str(tmp_path / "labels.csv")]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    if not available():
        assert r.returncode == 2 and "pip install" in r.stderr
        return
    assert r.returncode == 0, r.stderr
    assert "ELPD" in r.stdout and "p_loo" in r.stdout and "A_e =" in r.stdout


# ----------------------------------------------------------------------------- shared data, slow


@pytest.fixture(scope="module")
def candidates_all(tmp_path_factory):
    from tests.conftest import shared_path

    folder = shared_path("candidates")
    if not available():
        pytest.skip("the optional model packages are absent")
    from iaa_desktop.core.kinds.candidates.compare import KIND
    from iaa_desktop.core.progress import run_to_end

    res = run_to_end(
        KIND.run([folder / "pairs.tsv", folder / "labels.tsv"], {"max_aligned": 0, "model": "all"})
    )
    return folder, res


def _truth_module():
    spec = importlib.util.spec_from_file_location("bayes_truth", REPO / "bench" / "bayes_truth.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
@pytest.mark.shared
def test_five_models_rank_as_the_generator_implies(candidates_all):
    res = candidates_all[1].model
    order = [r["model"] for r in res.comparison()]
    # every factor of the generator adds information: each richer model predicts better
    assert order == ["m.klMB", "m.kMB", "m.MB", "m.M", "m"]
    p = {r["model"]: r["p_loo"] for r in res.comparison()}
    assert p["m"] < p["m.M"] < p["m.MB"]
    for f in res.fits.values():
        assert f.diagnostics["divergences"] == 0 and f.diagnostics["rhat_max"] < 1.05
        # R-hat above 1.01 (correlations of the book intercepts mix slowly) is flagged
        assert (f.diagnostics["rhat_max"] > 1.01) == any("R-hat" in w for w in f.warnings)


@pytest.mark.slow
@pytest.mark.shared
def test_recovery_of_the_generators_values(candidates_all):
    folder, result = candidates_all
    truth = _truth_module()
    params = truth.load_params(folder)
    fit = result.model.fits["m.klMB"]
    # κ by method × known (overlap at its mean, an average book) covers the generator's κ
    for r in fit.kappa["crossed"]:
        c = r["condition"]
        k = truth.true_kappa(params, c["method"], c["known"] == "true", 0.0, fit.info["chance_eq8"])
        assert r["kappa"]["q95"][0] <= k <= r["kappa"]["q95"][1], (c, k, r["kappa"])
    # fixed effects cover the generator's values projected onto the model (no item effect)
    pairs = result.pairs
    std = fit.info["overlap_standardisation"]["overlap"]
    z = (pairs["overlap"].to_numpy() - std["mean"]) / std["sd"]
    pt = truth.pseudo_true_coefficients(
        params,
        pairs["method"].to_numpy(),
        (pairs["known"] == "true").to_numpy(),
        z,
        pairs["book"].to_numpy(),
    )
    assert pt["converged"]
    coef = {(r["term"], r["logit"]): r for r in fit.coefficients}
    for j, term in enumerate(["method[soft-cosine]", "known[true]", "overlap"]):
        for o, logit in enumerate(["01", "10", "11"]):
            lo, hi = coef[(term, logit)]["q95"]
            assert lo <= pt["beta"][j, o] <= hi, (term, logit, pt["beta"][j, o], lo, hi)
    assert math.isfinite(result.model.chance_eq8)

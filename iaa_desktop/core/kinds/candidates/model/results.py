"""Fitting one or more agreement models with a cache, and their results (JSON, tables, text).

:func:`fit_models` is a generator (``yield Progress``, ``return ModelResults``): the CLI runs it
inside the candidates kind's ``run`` when ``--model`` asks for it, the GUI in a worker from the
Model tab. Each fit is cached under ``cache_dir`` (a folder the caller chooses; the GUI passes the
user's cache folder) by a hash of the outcomes, the model and the sampler settings, so reopening a
study shows the results without refitting.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
import warnings
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.candidates.model import INSTALL_HINT, missing_packages
from iaa_desktop.core.kinds.candidates.model.data import (
    MODEL_NAMES,
    ModelSpec,
    OutcomeData,
    build_outcomes,
    custom_spec,
    named_spec,
)
from iaa_desktop.core.kinds.candidates.model.fit import SamplerSettings, priors_text
from iaa_desktop.core.progress import Progress

#: bump when the model, the summaries or the cache layout change (old cache entries are ignored)
MODEL_VERSION = "2"
#: above this many outcomes, NUTS takes long: warn and offer the variational preview
LARGE_OUTCOMES = 20_000
RHAT_MAX = 1.01
ESS_PER_CHAIN = 100
#: bulk ESS every κ cell needs (the draws are chosen by it)
KAPPA_ESS_MIN = 400.0
#: a parameter's ESS below this makes its own R-hat and ESS estimates unreliable
ESS_PARAMS_MIN = 100
BFMI_MIN = 0.3


class ModelUnavailableError(OptionError):
    """The optional packages of the model are not installed."""


@dataclass(eq=False)
class ModelFit:
    """Everything reported about one fitted model (JSON-ready except the LOO arrays)."""

    spec: ModelSpec
    info: dict[str, Any]
    settings: SamplerSettings
    diagnostics: dict[str, Any]
    loo: dict[str, dict[str, Any]]
    kappa: dict[str, Any]
    curves: dict[str, Any]
    coefficients: list[dict[str, Any]]
    correlations: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)
    cached: bool = False

    def to_json(self) -> dict[str, Any]:
        loo = {
            k: {kk: vv for kk, vv in v.items() if kk not in ("loo_i", "pareto_k")}
            | {
                "pareto_k_bad": int((v["pareto_k"] > v["good_k"]).sum()),
                "pareto_k_max": float(np.max(v["pareto_k"])),
            }
            for k, v in self.loo.items()
        }
        return {
            "model": self.spec.to_json(),
            "data": self.info,
            "sampler": {"library": "NumPyro (NUTS)", **self.settings.to_json()},
            "priors": priors_text(),
            "diagnostics": self.diagnostics,
            "loo": loo,
            "kappa": self.kappa,
            "kappa_curves": self.curves,
            "coefficients": self.coefficients,
            "correlations": self.correlations,
            "warnings": self.warnings,
            "from_cache": self.cached,
        }


def check_diagnostics(diag: dict[str, Any], loo: dict[str, dict[str, Any]]) -> list[str]:
    """Sentences on every failed check, each with what to do about it."""
    out = []
    if diag.get("method") != "nuts":
        out.append(
            "This is a variational preview: its intervals are too narrow as a rule. Run the "
            "full sampler (NUTS) before reporting any figure."
        )
    else:
        chains = diag["n_chains"]
        if diag["divergences"]:
            out.append(
                f"{diag['divergences']} divergent transitions after warm-up: the posterior may be "
                "biased. Raise the target acceptance rate (e.g. 0.95) or reparametrise the model "
                "(a factor with few levels as a fixed effect rather than varying intercepts)."
            )
        if chains < 2:
            out.append(
                "One chain only: R-hat cannot check convergence. Run at least two chains "
                "(four by default) before reporting."
            )
        elif diag["rhat_max"] > RHAT_MAX:
            out.append(
                f"R-hat up to {diag['rhat_max']:.3f} ({diag['rhat_worst']}): the chains disagree "
                f"after {diag['n_draws']:,} draws each. Run longer chains (more warm-up and draws)."
            )
        if "kappa_ess_bulk_min" in diag:
            # what is reported are the κ cells: their bulk ESS (and R-hat) decide; the
            # parameters' own ESS is checked against the floor below which R-hat and ESS
            # estimates are themselves unreliable (Vehtari et al. 2021: 100 per chain)
            v = diag["kappa_ess_bulk_min"]
            if v < KAPPA_ESS_MIN:
                out.append(
                    f"Bulk effective sample size of a κ cell as low as {v:.0f} "
                    f"({diag['kappa_ess_bulk_worst']}; wanted ≥ {KAPPA_ESS_MIN:.0f}): draw more."
                )
            if diag.get("kappa_rhat_max", 0.0) > RHAT_MAX:
                out.append(
                    f"R-hat of a κ cell up to {diag['kappa_rhat_max']:.3f}: the chains disagree. "
                    "Run longer chains (more warm-up and draws)."
                )
        floor = ESS_PER_CHAIN * chains if "kappa_ess_bulk_min" not in diag else ESS_PARAMS_MIN
        for kind in ("bulk", "tail"):
            v = diag[f"ess_{kind}_min"]
            if v < floor:
                out.append(
                    f"{kind.capitalize()} effective sample size as low as {v:.0f} "
                    f"({diag[f'ess_{kind}_worst']}; wanted ≥ {floor}): draw more."
                )
        if diag["max_tree_depth_hits"]:
            out.append(
                f"{diag['max_tree_depth_hits']} iterations reached the maximum tree depth: "
                "raise it, or simplify the model."
            )
        if math.isfinite(diag.get("bfmi_min", math.nan)) and diag["bfmi_min"] < BFMI_MIN:
            out.append(
                f"Energy BFMI {diag['bfmi_min']:.2f} < {BFMI_MIN}: the sampler explores the tails "
                "poorly; reparametrise or run longer chains."
            )
    for level, what in (("outcome", "outcomes"), ("item", "items")):
        e = loo.get(level)
        if e is None:
            continue
        bad = int((e["pareto_k"] > e["good_k"]).sum())
        if bad:
            out.append(
                f"{bad} {what if bad > 1 else what[:-1]} with Pareto k > {e['good_k']:.2f}: leave-one-out by {level} is "
                "unreliable for them; compare the models by K-fold cross-validation, or trust "
                "the differences only when they are large against their SE."
            )
    return out


# ----------------------------------------------------------------------------- the cache


def cache_key(data: OutcomeData, settings: SamplerSettings) -> str:
    h = hashlib.sha256()
    h.update(data.digest().encode())
    h.update(json.dumps(settings.to_json(), sort_keys=True).encode())
    h.update(MODEL_VERSION.encode())
    return h.hexdigest()[:32]


def _load_cached(path: Path, spec: ModelSpec) -> ModelFit | None:
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            loo = {
                level: dict(meta["loo"][level], loo_i=z[f"{level}_loo_i"], pareto_k=z[f"{level}_k"])
                for level in meta["loo"]
            }
    except (OSError, KeyError, ValueError):
        return None  # a damaged or foreign cache file: refit
    return ModelFit(
        spec=spec,
        info=meta["info"],
        settings=SamplerSettings(**meta["settings"]),
        diagnostics=meta["diagnostics"],
        loo=loo,
        kappa=meta["kappa"],
        curves=meta["kappa_curves"],
        coefficients=meta["coefficients"],
        correlations=meta["correlations"],
        warnings=check_diagnostics(meta["diagnostics"], loo),  # in today's words
        cached=True,
    )


def _save_cached(path: Path, fit: ModelFit) -> None:
    meta = fit.to_json()
    meta["settings"] = fit.settings.to_json()
    meta["info"] = fit.info
    meta["loo"] = {
        level: {k: v for k, v in e.items() if k not in ("loo_i", "pareto_k")}
        for level, e in fit.loo.items()
    }
    arrays = {}
    for level, e in fit.loo.items():
        arrays[f"{level}_loo_i"] = e["loo_i"]
        arrays[f"{level}_k"] = e["pareto_k"]
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(meta, allow_nan=True)), **arrays)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ----------------------------------------------------------------------------- fitting


def resolve_specs(
    which: str | Sequence[str], factors: Sequence[str], fixed: str = "", varying: str = ""
) -> list[ModelSpec]:
    """``all``, one of the paper's names, ``custom`` (with ``fixed``/``varying``), or a list."""
    names = [which] if isinstance(which, str) else list(which)
    out: list[ModelSpec] = []
    for name in names:
        if name == "all":
            out += [named_spec(n, factors) for n in MODEL_NAMES]
        elif name == "custom":
            out.append(custom_spec(fixed, varying, factors))
        else:
            out.append(named_spec(name, factors))
    return out


def _summaries(post: Any, data: OutcomeData, settings: SamplerSettings) -> dict[str, Any]:
    """Leave-one-out, diagnostics and every summary of a posterior (the fit's last step)."""
    from iaa_desktop.core.kinds.candidates.model import fit as fit_mod
    from iaa_desktop.core.kinds.candidates.model import summaries as s

    loo = s.loo(fit_mod.pointwise_loglik(post, data), data.item, post)
    diag = s.diagnostics(post)
    if diag.get("method") == "nuts":
        diag.update(s.kappa_convergence(post, data))
        # the draws asked for, the most while the chains disagree, and why drawing stopped
        diag.update(draws_set=settings.draws, max_draws=settings.max_draws, stopped=post.stopped)
    return {
        "loo": loo,
        "diagnostics": diag,
        "kappa": s.kappa_tables(post, data, settings.seed),
        "curves": s.kappa_curves(post, data, settings.seed),
        "coefficients": s.coefficients(post, data),
        "correlations": s.correlations(post, data),
    }


def _fit_one(data: OutcomeData, settings: SamplerSettings) -> Generator[Progress, None, ModelFit]:
    import time

    from iaa_desktop.core.kinds.candidates.model import fit as fit_mod
    from iaa_desktop.core.kinds.candidates.model import summaries as s

    def check(post: Any) -> tuple[float, bool, bool]:
        c = s.kappa_convergence(post, data)
        agree = c["kappa_rhat_max"] <= RHAT_MAX and c["params_rhat_max"] <= RHAT_MAX
        enough = agree and c["kappa_ess_bulk_min"] >= settings.min_ess
        return float(c["kappa_ess_bulk_min"]), bool(agree), bool(enough)

    def summarise_cost(post: Any) -> float:
        with warnings.catch_warnings():  # imported once per process: not a cost of the draws
            warnings.simplefilter("ignore")
            import arviz  # noqa: F401
        _summaries(fit_mod.first_draws(post, 5), data, settings)  # first calls: not per draw
        w0 = time.perf_counter()
        _summaries(post, data, settings)
        return time.perf_counter() - w0

    if settings.method == "nuts":
        sampler = fit_mod.sample_nuts(data, settings, check, summarise_cost)
    else:
        sampler = fit_mod.sample_variational(data, settings)
    last = Progress(1, 1)
    while True:
        try:
            last = next(sampler)
        except StopIteration as stop:
            post = stop.value
            break
        yield last
    # the summaries were counted as work left when the sampler measured them on its first draws
    yield Progress(last.done, last.total, f"{data.spec.name}: leave-one-out and summaries")
    summary = _summaries(post, data, settings)
    info = {
        "n_outcomes": int(len(data.y)),
        "n_items": data.n_items,
        "annotator_pairs": list(data.pair_names),
        "outcomes": data.outcome_names(),
        "fixed_effect_columns": data.x_names,
        "varying_levels": {g: len(lv) for g, lv in zip(data.groups, data.group_levels)},
        "chance_eq8": data.chance_eq8,
        "label_share": {
            a: dict(zip(data.categories, map(float, row)))
            for a, row in zip(data.annotators, data.label_share)
        },
        "overlap_standardisation": {
            t.name: {"mean": t.center, "sd": t.scale} for t in data.terms if not t.levels
        },
    }
    return ModelFit(
        spec=data.spec,
        info=info,
        settings=post.settings,
        diagnostics=summary["diagnostics"],
        loo=summary["loo"],
        kappa=summary["kappa"],
        curves=summary["curves"],
        coefficients=summary["coefficients"],
        correlations=summary["correlations"],
        warnings=check_diagnostics(summary["diagnostics"], summary["loo"]),
    )


def fit_models(
    pairs: pd.DataFrame,
    annotators: Sequence[str],
    categories: Sequence[str],
    specs: Sequence[ModelSpec],
    settings: SamplerSettings,
    cache_dir: str | Path | None = None,
    cache_only: bool = False,
) -> Generator[Progress, None, ModelResults | None]:
    """Fit every model of ``specs`` (from the cache where possible) and compare them.

    With ``cache_only`` nothing is fitted: the result holds the cached fits (``None`` when there
    are none), so a view can show earlier results of a study at once.
    """
    missing = missing_packages()
    if missing:
        raise ModelUnavailableError(f"{INSTALL_HINT} (missing: {', '.join(missing)})")
    fits: dict[str, ModelFit] = {}
    notes: list[str] = []
    for k, spec in enumerate(specs):
        data = build_outcomes(pairs, annotators, categories, spec)
        if len(data.y) > LARGE_OUTCOMES and settings.method == "nuts":
            notes.append(
                f"{len(data.y):,} pairwise outcomes: the full sampler will take long. A quick "
                "variational preview (method 'variational') gives a first look in a fraction of "
                "the time; report only the full sampler's intervals."
            )
        key = cache_key(data, settings)
        path = Path(cache_dir) / f"candidates-model-{key}.npz" if cache_dir else None
        fit = _load_cached(path, spec) if path is not None and path.exists() else None
        if fit is None and cache_only:
            continue
        if fit is None:
            label = f"Model {spec.name} ({k + 1} of {len(specs)})"
            gen = _fit_one(data, settings)
            while True:
                try:
                    p = next(gen)
                except StopIteration as stop:
                    fit = stop.value
                    break
                yield Progress(k + p.fraction, len(specs), f"{label}: {p.message}")
            if path is not None:
                _save_cached(path, fit)
        fits[spec.name] = fit
        yield Progress(k + 1, len(specs), f"Model {spec.name} done")
    if not fits:
        return None
    return ModelResults(fits=fits, notes=list(dict.fromkeys(notes)))


@dataclass(eq=False)
class ModelResults:
    """The fitted models of one study and their comparison by PSIS-LOO."""

    fits: dict[str, ModelFit]
    notes: list[str] = field(default_factory=list)
    _comparison: dict[str, list[dict[str, Any]]] = field(default_factory=dict, repr=False)

    def comparison(self, level: str = "outcome") -> list[dict[str, Any]]:
        """The paper's Table 2 (``level`` ``outcome``) or its item-level version."""
        if level not in self._comparison:
            from iaa_desktop.core.kinds.candidates.model.summaries import compare

            self._comparison[level] = compare({k: f.loo[level] for k, f in self.fits.items()})
        return self._comparison[level]

    @property
    def main(self) -> ModelFit:
        """The fit the κ tables are shown for: the best by ELPD (the richest on a tie)."""
        table = self.comparison()
        return self.fits[table[0]["model"]] if table else next(iter(self.fits.values()))

    @property
    def chance_eq8(self) -> float:
        return float(self.main.info["chance_eq8"])

    def warnings(self) -> list[str]:
        out = list(self.notes)
        for name, f in self.fits.items():
            out += [f"{name}: {w}" for w in f.warnings]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "chance_agreement": {
                "eq8": self.chance_eq8,
                "definition": "A_e = mean over annotator pairs (x, y) of Σ_k P(k|x)·P(k|y), "
                "P(k|x) the share of x's labels that are k over the whole data set "
                "(Eq. 8 of the Bernard of Clairvaux agreement study); 'kappa_cond' uses instead the chance agreement "
                "of each condition, mean over pairs of Σ_k θ_k· θ_·k",
            },
            "comparison": self.comparison("outcome"),
            "comparison_by_item": self.comparison("item"),
            "best_model": self.main.spec.name,
            "models": {k: f.to_json() for k, f in self.fits.items()},
            "warnings": self.warnings(),
            "caveat_with_varying": CAVEAT_WITH_VARYING,
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        from iaa_desktop.core.kinds.candidates.model.tables import model_tables

        return model_tables(self)

    def elpd_text(self) -> str:
        """Table 2 as plain text (the CLI prints it)."""
        rows = self.comparison()
        lines = [
            f"{'model':<10} {'ELPD':>10} {'(SE)':>8} {'p_loo':>7} {'ΔELPD':>9} {'(SE)':>7}"
            f" {'ELPD by item':>13} {'(SE)':>7}"
        ]
        by_item = {r["model"]: r for r in self.comparison("item")}
        for r in rows:
            it = by_item.get(r["model"], {})
            se, dse = "({:.2f})".format(r["se"]), "({:.2f})".format(r["se_diff"])
            ise = "({:.2f})".format(it.get("se", math.nan))
            lines.append(
                f"{r['model']:<10} {r['elpd']:>10.2f} {se:>8} {r['p_loo']:>7.2f}"
                f" {r['elpd_diff']:>9.2f} {dse:>7} {it.get('elpd', math.nan):>13.2f} {ise:>7}"
            )
        return "\n".join(lines)


CAVEAT_WITH_VARYING = (
    "Intervals 'with varying intercepts' draw a new, unseen level of every factor with varying "
    "intercepts that the condition leaves open (e.g. a new source book) from its fitted "
    "distribution: they describe the agreement one could expect for any such level, are wide, "
    "and can reach below 0 (a new book's κ can come out negative)."
)

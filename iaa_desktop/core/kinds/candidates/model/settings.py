"""The agreement model's options of the candidates kind (command line; the GUI has its Model tab).

They are kept off the settings panel (``gui=False``): a fit takes tens of seconds and runs only
when asked, from the Model tab in the window or with ``--model`` on the command line.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from iaa_desktop.core.kinds.candidates.model.data import MODEL_NAMES
from iaa_desktop.core.kinds.candidates.model.fit import SamplerSettings
from iaa_desktop.core.kinds.spec import Setting
from iaa_desktop.core.progress import Progress, scaled

MODEL_CHOICES = ("none", "all", *MODEL_NAMES, "custom")

MODEL_SETTINGS = [
    Setting(
        "model",
        "Agreement model",
        "none",
        str,
        MODEL_CHOICES,
        "fit the hierarchical agreement model of the Bernard of Clairvaux agreement study: 'all' = the five "
        "nested models compared by PSIS-LOO, one of them by name, or 'custom' "
        "(--model-fixed, --model-varying); needs the optional 'model' packages",
        gui=False,
    ),
    Setting(
        "model_fixed",
        "Model: fixed effects",
        "",
        str,
        (),
        "custom model: comma-separated factor columns as fixed effects ('overlap' = lexical "
        "overlap, z-scored)",
        gui=False,
    ),
    Setting(
        "model_varying",
        "Model: varying intercepts",
        "",
        str,
        (),
        "custom model: comma-separated factor columns with varying intercepts",
        gui=False,
    ),
    Setting("model_chains", "Model: chains", 4, int, (), "NUTS chains", gui=False),
    Setting(
        "model_warmup",
        "Model: warm-up",
        1000,
        int,
        (),
        "warm-up iterations of the first chain (the others reuse its adaptation)",
        gui=False,
    ),
    Setting(
        "model_draws",
        "Model: draws",
        1000,
        int,
        (),
        "most draws per chain after warm-up: drawing stops earlier once every κ cell has a bulk "
        "effective sample size of 400 and R-hat ≤ 1.01",
        gui=False,
    ),
    Setting("model_seed", "Model: seed", 0, int, (), "random seed of the sampler", gui=False),
    Setting(
        "model_target_accept",
        "Model: target acceptance",
        0.8,
        float,
        (),
        "NUTS target acceptance rate (raise to 0.95 after divergent transitions)",
        gui=False,
    ),
    Setting(
        "model_method",
        "Model: method",
        "nuts",
        str,
        ("nuts", "variational"),
        "'nuts' (the full sampler) or 'variational' (a quick preview for large studies)",
        gui=False,
    ),
    Setting(
        "model_cache",
        "Model: cache folder",
        "",
        str,
        (),
        "folder where fitted models are kept, so a rerun does not refit (none when empty)",
        gui=False,
    ),
]


def sampler_settings(opts: Mapping[str, Any]) -> SamplerSettings:
    """The sampler settings given by the options (defaults where absent)."""
    d = SamplerSettings()
    return SamplerSettings(
        chains=int(opts.get("model_chains") or d.chains),
        warmup=int(opts.get("model_warmup") or d.warmup),
        draws=int(opts.get("model_draws") or d.draws),
        seed=int(opts.get("model_seed") or 0),
        target_accept=float(opts.get("model_target_accept") or d.target_accept),
        method=str(opts.get("model_method") or d.method),
    )


def model_generator(result: Any, opts: Mapping[str, Any]) -> Generator[Progress, None, Any] | None:
    """The fit the options ask for (``None`` for ``--model none``), on a candidates result."""
    which = str(opts.get("model") or "none")
    if which == "none":
        return None
    from iaa_desktop.core.kinds.candidates.model.results import fit_models, resolve_specs

    specs = resolve_specs(
        which,
        list(result.factors),
        str(opts.get("model_fixed") or ""),
        str(opts.get("model_varying") or ""),
    )
    return fit_models(
        result.pairs,
        result.annotators,
        result.categories,
        specs,
        sampler_settings(opts),
        str(opts.get("model_cache") or "") or None,
    )


def run_model(result: Any, opts: Mapping[str, Any]) -> Generator[Progress, None, Any]:
    """Fit what the options ask for on a finished candidates result (``None`` when nothing)."""
    gen = model_generator(result, opts)
    if gen is None:
        return None
    return (yield from scaled(gen, 0, 100))

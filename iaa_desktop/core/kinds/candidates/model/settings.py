"""The agreement model's options of the candidates kind as the fit takes them (declared in
:class:`~iaa_desktop.core.kinds.candidates.options.CandidatesOptions`; the GUI has its Model tab).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from iaa_desktop.core.kinds.candidates.model.data import MODEL_NAMES
from iaa_desktop.core.kinds.candidates.model.fit import SamplerSettings
from iaa_desktop.core.progress import Progress, scaled

MODEL_CHOICES = ("none", "all", *MODEL_NAMES, "custom")


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

"""Sampling the agreement model: NumPyro's NUTS run in chunks of draws, or a variational preview.

The model (the Bernard of Clairvaux agreement study, Eq. 3–6, with the priors of its appendix: weakly informative,
as brms sets them): for outcome n of annotator pair p with fixed-effect row x_n and levels l_g of
the varying-intercept factors g, the q²−1 logits against the pivot ``00`` are

    η_n = α_p + x_n·β + Σ_g ν_g[l_g],           θ_n = softmax(0, η_n),   y_n ~ Categorical(θ_n)
    α_p,o ~ Student-t(3, 0, 2.5)                 (an own intercept per annotator pair and logit)
    β_j,o ~ Normal(0, 2.5)
    ν_g[l] = diag(σ_g)·L_g·z_g[l],  z ~ Normal(0, 1)       (non-centred multivariate normal)
    σ_g,o ~ half-Student-t(3, 0, 2.5),  L_g ~ LKJ-Cholesky(η = 1)

NUTS (Hoffman & Gelman 2014) runs chain after chain, each in chunks of ``chunk`` iterations
compiled once with JAX; between chunks the generator yields :class:`Progress`, so a caller that
stops resuming it (the GUI's Cancel) stops the fit within one chunk. NumPyro, JAX are imported
only here, inside the functions.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.kinds.candidates.model.data import OutcomeData
from iaa_desktop.core.progress import Progress

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from jax import Array

#: the model function NumPyro samples: ``model(**ModelInputs)``
Model = Callable[..., None]

PRIORS = {
    "alpha": ("Student-t", 3.0, 0.0, 2.5),
    "beta": ("Normal", 0.0, 2.5),
    "sigma": ("half-Student-t", 3.0, 0.0, 2.5),
    "lkj": ("LKJ", 1.0),
}


def priors_text() -> str:
    """The priors, as a sentence for the methods paragraph and the output."""
    return (
        "annotator-pair intercepts Student-t(3, 0, 2.5); fixed-effect slopes Normal(0, 2.5); "
        "standard deviations of the varying intercepts half-Student-t(3, 0, 2.5); their "
        "correlations LKJ(1), non-centred multivariate normal"
    )


@dataclass(frozen=True, slots=True)
class SamplerSettings:
    """How to sample: NUTS chains, warm-up and draws per chain, seed; or a variational preview."""

    chains: int = 4
    warmup: int = 1000
    draws: int = 1000
    seed: int = 0
    target_accept: float = 0.8
    max_tree_depth: int = 10
    chunk: int = 100
    method: str = "nuts"  # or "variational"
    vi_steps: int = 5000
    #: "parallel": the first chain adapts the sampler, the others reuse its adaptation and all
    #: draw side by side (see :func:`sample_nuts`); "sequential": chain after chain
    chain_method: str = "parallel"
    #: > 0: the chains after the first start from its adaptation and only burn in over this
    #: many iterations. Off by default: on the candidates study a chain started so stayed
    #: stuck in one of the nested models (R-hat 1.53), where chains adapting on their own agree
    warmup_reuse: int = 0
    #: draws stop once every κ cell has a bulk ESS of at least this and R-hat ≤ 1.01 (checked
    #: after each chunk from two chunks on); ``draws`` is then the most per chain while the
    #: chains agree. 0: always ``draws``
    min_ess: float = 400.0
    #: while the chains still disagree at ``draws`` (R-hat > 1.01 on any parameter or κ cell),
    #: drawing goes on, checked after each chunk, up to this many times ``draws`` per chain
    #: (1: never past ``draws``). Used only when ``min_ess`` > 0 (the draws are checked)
    extend_draws: float = 3.0

    @property
    def max_draws(self) -> int:
        """The most draws per chain: ``draws``, or more while the chains disagree."""
        if self.min_ess > 0 and self.extend_draws > 1:
            return max(self.draws, math.ceil(self.draws * self.extend_draws))
        return self.draws

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(eq=False)
class Posterior:
    """Draws of the constrained parameters, shaped (chains, draws, ...), and sampler statistics."""

    params: dict[str, NDArray[Any]]
    stats: dict[str, NDArray[Any]] = field(default_factory=dict)
    settings: SamplerSettings = field(default_factory=SamplerSettings)
    cpu_seconds: float = math.nan
    wall_seconds: float = math.nan
    #: why drawing stopped (see :func:`stop_drawing`; empty for a variational preview)
    stopped: str = ""

    @property
    def n_chains(self) -> int:
        return int(self.params["alpha"].shape[0])

    @property
    def n_draws(self) -> int:
        return int(self.params["alpha"].shape[1])

    def flat(self, name: str) -> NDArray[Any]:
        """A parameter with chains and draws merged into the first axis."""
        a = self.params[name]
        return a.reshape((-1, *a.shape[2:]))


def configure_jax() -> None:
    """One CPU thread for XLA, set before JAX is first imported.

    The model's arrays are small: Eigen's thread pool only spins against the GUI thread and
    other processes (its idle threads count as CPU time too). A user's own ``XLA_FLAGS`` win.
    """
    if "jax" not in sys.modules:
        os.environ.setdefault(
            "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        )


def _make_model(n_pairs: int, n_fixed: int, n_levels: tuple[int, ...], n_logits: int) -> Model:
    configure_jax()
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist

    def model(pair: Array, X: Array, groups: tuple[Array, ...], y: Array | None = None) -> None:
        alpha = numpyro.sample(
            "alpha", dist.StudentT(3.0, 0.0, 2.5).expand([n_pairs, n_logits]).to_event(2)
        )
        eta = alpha[pair]
        if n_fixed:
            beta = numpyro.sample(
                "beta", dist.Normal(0.0, 2.5).expand([n_fixed, n_logits]).to_event(2)
            )
            eta = eta + X @ beta
        for g, n in enumerate(n_levels):
            sigma = numpyro.sample(
                f"sigma_{g}",
                dist.FoldedDistribution(dist.StudentT(3.0, 0.0, 2.5))
                .expand([n_logits])
                .to_event(1),
            )
            chol = numpyro.sample(f"L_{g}", dist.LKJCholesky(n_logits, 1.0))
            z = numpyro.sample(f"z_{g}", dist.Normal(0.0, 1.0).expand([n, n_logits]).to_event(2))
            eta = eta + ((z @ chol.T) * sigma)[groups[g]]
        logits = jnp.concatenate([jnp.zeros(eta.shape[:-1] + (1,)), eta], axis=-1)
        numpyro.sample("y", dist.Categorical(logits=logits), obs=y)

    return model


class ModelInputs(TypedDict):
    """The data the model is conditioned on, as JAX arrays (the model's keyword arguments)."""

    pair: Array
    X: Array
    groups: tuple[Array, ...]
    y: Array


def _model_and_kwargs(data: OutcomeData) -> tuple[Model, ModelInputs]:
    import jax.numpy as jnp

    model = _make_model(
        len(data.pair_names),
        data.X.shape[1],
        tuple(len(lv) for lv in data.group_levels),
        data.n_logits,
    )
    kwargs: ModelInputs = {
        "pair": jnp.asarray(data.pair, dtype=jnp.int32),
        "X": jnp.asarray(data.X, dtype=jnp.float32),
        "groups": tuple(jnp.asarray(g, dtype=jnp.int32) for g in data.group_idx),
        "y": jnp.asarray(data.y, dtype=jnp.int32),
    }
    return model, kwargs


def _constrained(draws: dict[str, NDArray[Any]], data: OutcomeData) -> dict[str, NDArray[Any]]:
    """Named parameters from NumPyro's sites: α, β, and per factor σ, Ω (correlations), ν."""
    out = {"alpha": np.asarray(draws["alpha"], dtype=np.float64)}
    if data.X.shape[1]:
        out["beta"] = np.asarray(draws["beta"], dtype=np.float64)
    for g in range(len(data.groups)):
        sigma = np.asarray(draws[f"sigma_{g}"], dtype=np.float64)
        chol = np.asarray(draws[f"L_{g}"], dtype=np.float64)
        z = np.asarray(draws[f"z_{g}"], dtype=np.float64)
        out[f"sigma_{g}"] = sigma
        out[f"corr_{g}"] = chol @ np.swapaxes(chol, -1, -2)
        out[f"nu_{g}"] = (z @ np.swapaxes(chol, -1, -2)) * sigma[..., None, :]
    return out


#: share of the most draws expected before the first check (on the candidates study the full
#: model's chains agree to R-hat ≤ 1.01 after about 800 of 1,000): the progress bar's first guess
PRIOR_DRAWS_SHARE = 0.8
#: the summaries' cost per draw (in sampler iterations) expected before it is measured
PRIOR_POST_PER_DRAW = 0.5


@dataclass
class DrawPlan:
    """How many draws per chain a fit is expected to need, and what its summaries will cost.

    ``expected`` starts from :data:`PRIOR_ESS_PER_DRAW` and is revised from the κ cells' ESS
    after each check (ESS grows in proportion to the draws); ``post_per_draw`` is the time the
    summaries (leave-one-out, κ tables and curves) take per draw per chain, measured on the
    first chunk of draws, in units of one sampler iteration (all chains), so that the progress
    counts them as work to do.
    """

    maximum: int
    expected: int
    #: the most draws once the chains agree (``maximum``: while they disagree)
    cap: int = 0
    post_per_draw: float = 0.0
    #: the last check's time per draw, in the same units (checks run after every round)
    check_per_draw: float = 0.0
    #: one-off work counted beside the draws (measuring the summaries' cost)
    extra: float = 0.0

    def revise(self, drawn: int, ess_min: float, target: float, chunk: int, agree: bool) -> None:
        """After a check at ``drawn`` draws: the κ cells' ESS grows in proportion to the
        draws; while the chains do not agree yet (R-hat), at least one more chunk, past
        ``cap`` only once ``cap`` is reached (see :func:`stop_drawing`)."""
        cap = self.cap or self.maximum
        if not math.isfinite(ess_min) or ess_min <= 0:
            want = cap
        else:
            want = math.ceil(drawn * target / ess_min / chunk) * chunk
        if not agree:
            want = max(want, self.expected)
        limit = cap if agree or drawn < cap else self.maximum
        self.expected = int(min(limit, max(drawn + chunk, want)))


#: why drawing stopped (``Posterior.stopped``, reported in the diagnostics)
STOP_ENOUGH = "κ cells: enough effective draws, chains agree"
STOP_AGREE_AT_DRAWS = "the draws set reached, chains agree (a κ cell short of effective draws)"
STOP_AGREE_PAST = "chains agree only past the draws set (drawn on while an R-hat exceeded 1.01)"
STOP_MOST = "the most draws reached while the chains disagree"
STOP_FIXED = "the draws set"


def stop_drawing(drawn: int, settings: SamplerSettings, agree: bool, enough: bool) -> str:
    """Whether to stop after ``drawn`` draws per chain (``""``: go on), and why.

    ``enough``: every κ cell has bulk ESS ≥ ``min_ess`` and R-hat ≤ 1.01, and so does every
    parameter (R-hat); ``agree``: the chains agree (R-hat ≤ 1.01 on every parameter and κ cell).
    Drawing stops once there are enough, or at ``draws`` if the chains agree by then, and goes
    on past ``draws`` while they do not, up to :attr:`SamplerSettings.max_draws`: a κ cell short
    of effective draws is a matter of precision (reported), chains that disagree make every
    figure unreliable.
    Past ``draws``, the first check at which the chains agree stops the draws whatever the κ
    cells' ESS.
    """
    if (enough or agree) and drawn > settings.draws:
        return STOP_AGREE_PAST
    if enough:
        return STOP_ENOUGH
    if agree and drawn >= settings.draws:
        return STOP_AGREE_AT_DRAWS
    if drawn >= settings.max_draws:
        return STOP_MOST
    return ""


def _kernel(model: Any, settings: SamplerSettings, **kw: Any) -> Any:
    from numpyro.infer import NUTS

    return NUTS(
        model,
        target_accept_prob=settings.target_accept,
        max_tree_depth=settings.max_tree_depth,
        **kw,
    )


def _chunk_runner(kernel: Any, kwargs: ModelInputs) -> Any:
    """``run(state, n) -> (state, per-iteration outputs)``: n NUTS iterations, compiled once."""
    import jax

    def step(state: Any, _: None) -> tuple[Any, tuple[Any, ...]]:
        state = kernel.sample(state, (), kwargs)
        return state, (
            state.z,
            state.diverging,
            state.num_steps,
            state.accept_prob,
            state.energy,
            state.adapt_state.step_size,
        )

    return jax.jit(lambda state, n: jax.lax.scan(step, state, None, length=n), static_argnums=1)


def sample_nuts(
    data: OutcomeData,
    settings: SamplerSettings,
    check: Any = None,
    summarise_cost: Any = None,
) -> Generator[Progress, None, Posterior]:
    """Run NUTS in chunks (see the module docstring); return the posterior.

    ``chain_method`` ``parallel`` (the default): the chains warm up and draw side by side,
    chunk by chunk (two at a time on two cores); with ``warmup_reuse`` > 0 the first chain warms
    up alone and the others start from its adapted step size and mass matrix (the same model on
    the same data) with a burn-in of ``warmup_reuse`` iterations at those settings.
    After each round of draws from the second on, ``check(posterior) -> (ess_min, agree,
    done)`` decides whether every κ cell has enough effective draws (``settings.min_ess``) and the
    chains agree; ``draws`` is the most per chain. ``sequential``: chain after chain, each
    adapting on its own, ``draws`` draws each.

    ``summarise_cost(posterior)`` is called once on the first round's draws and returns the
    seconds the summaries (leave-one-out, κ tables) took on them; the progress then counts the
    summaries of all draws as work left (see :class:`DrawPlan`).
    """
    configure_jax()
    import jax

    t_cpu, t_wall = time.process_time(), time.perf_counter()
    model, kwargs = _model_and_kwargs(data)
    kernel = _kernel(model, settings)
    run_chunk = _chunk_runner(kernel, kwargs)
    chains = settings.chains
    keys = jax.random.split(jax.random.PRNGKey(settings.seed), chains)
    parallel = settings.chain_method != "sequential" and chains > 1
    reuse = (
        min(settings.warmup_reuse, settings.warmup) if parallel and settings.warmup_reuse > 0 else 0
    )
    adaptive = parallel and settings.min_ess > 0 and check is not None
    plan = DrawPlan(
        settings.max_draws if adaptive else settings.draws,
        settings.draws,
        settings.draws,
        PRIOR_POST_PER_DRAW if summarise_cost else 0.0,
    )
    if adaptive:
        first_guess = (
            math.ceil(PRIOR_DRAWS_SHARE * settings.draws / settings.chunk) * settings.chunk
        )
        plan.expected = int(min(settings.draws, max(2 * settings.chunk, first_guess)))
    done = 0.0
    shown = 0.0

    def progress(message: str, advanced: float = 0.0) -> Progress:
        """The fraction done of the work expected now (never going back when the plan grows),
        after ``advanced`` more iterations of one chain."""
        nonlocal shown, done
        done += advanced
        work: float
        if parallel:
            work = settings.warmup + (chains - 1) * (reuse or settings.warmup)
        else:
            work = chains * settings.warmup
        work += chains * plan.expected * (1.0 + plan.post_per_draw + plan.check_per_draw)
        work += plan.extra
        shown = max(shown, min(done / work, 1.0))
        return Progress(shown, 1.0, message)

    if not parallel:
        return (yield from _sample_sequential(data, settings, kernel, run_chunk, kwargs, progress))

    # parallel: the chains warm up side by side (or the first adapts, the others reuse it)
    yield progress(f"{chains} chains: starting")
    states = [kernel.init(keys[0], settings.warmup, model_args=(), model_kwargs=kwargs)]
    post_fn = kernel.postprocess_fn((), kwargs)
    pool = _pool(chains)
    try:
        if reuse:
            states[0] = yield from _warm_first(states[0], run_chunk, settings, progress)
        states += _other_chains(settings, kernel, kwargs, states[0], keys, reuse)
        warming = list(range(1, chains)) if reuse else list(range(chains))
        left = reuse or settings.warmup
        first = True
        while left > 0:
            n = min(settings.chunk, left)

            # each chunk waited for (JAX dispatches asynchronously: the progress would run ahead
            # of the work); the first round one chain after the other (it compiles the sampler)
            warm = partial(_advance, run_chunk, states, n)
            outs = list((map if first else pool.map)(warm, warming))
            first = False
            for c, st in zip(warming, outs):
                states[c] = st
            left -= n
            what = "settling in (with the first chain's adaptation)" if reuse else "warm-up"
            yield progress(f"{chains} chains: {what}", n * len(warming))
        parts: list[list[Any]] = [[] for _ in range(chains)]
        drawn = 0
        stopped = ""
        while drawn < plan.maximum:
            # a round ends at ``draws``, where the chains may stop if they agree
            n = min(
                settings.chunk, (settings.draws if drawn < settings.draws else plan.maximum) - drawn
            )
            w0 = time.perf_counter()
            results = list(pool.map(lambda c, n=n: run_chunk(states[c], n), range(chains)))
            round_seconds = time.perf_counter() - w0
            for c, (st, out) in enumerate(results):
                states[c] = st
                parts[c].append(jax.device_get(out))
            drawn += n
            advanced: float = n * chains
            so_far = None
            unit_seconds = round_seconds / advanced if round_seconds > 0 else 0.0
            if drawn == n and summarise_cost is not None and round_seconds > 0:
                # the summaries' cost grows with the draws: measured on the first round's (the
                # measuring itself counted as work done)
                c0 = time.perf_counter()
                plan.post_per_draw = (
                    summarise_cost(_partial(parts, post_fn, data, settings)) / round_seconds
                )
                spent = (time.perf_counter() - c0) / unit_seconds
                plan.extra += spent
                advanced += spent
            stopped = STOP_FIXED if not adaptive and drawn >= settings.draws else ""
            if adaptive and (drawn >= 2 * settings.chunk or drawn >= plan.maximum):
                c0 = time.perf_counter()
                so_far = _partial(parts, post_fn, data, settings)
                ess_min, agree, enough = check(so_far)
                if round_seconds > 0:
                    plan.check_per_draw = (time.perf_counter() - c0) / round_seconds
                    advanced += plan.check_per_draw * n * chains  # this check, done
                plan.revise(drawn, ess_min, settings.min_ess, settings.chunk, agree)
                stopped = stop_drawing(drawn, settings, agree, enough)
                if stopped:
                    plan.expected = drawn
            yield progress(f"{chains} chains: sampling ({drawn} draws each)", advanced)
            if stopped:
                break
    finally:
        pool.shutdown(wait=True)
    per_chain = [_concat(p) for p in parts]
    post = _collect(per_chain, post_fn, data, replace(settings, draws=drawn), t_cpu, t_wall)
    post.stopped = stopped
    return post


def _warm_first(
    state: Any, run_chunk: Any, settings: SamplerSettings, progress: Any
) -> Generator[Progress, None, Any]:
    """The first chain's warm-up alone (its adaptation is then reused by the others)."""
    left = settings.warmup
    while left > 0:
        n = min(settings.chunk, left)
        state = _ready(run_chunk(state, n)[0])
        left -= n
        yield progress(f"Chain 1 of {settings.chains}: warm-up (adapting the sampler)", n)
    return state


def _other_chains(
    settings: SamplerSettings,
    kernel: Any,
    kwargs: ModelInputs,
    first: Any,
    keys: Any,
    reuse: int,
) -> list[Any]:
    """Initial states of chains 2..: from their own random starts, either with the first
    chain's adaptation (``reuse`` > 0: its step size and diagonal mass matrix, the warm-up
    over, so that the same compiled sampler runs them and their first ``reuse`` iterations are
    a burn-in at fixed settings) or adapting on their own."""
    import jax.numpy as jnp

    out = []
    for c in range(1, settings.chains):
        st = kernel.init(keys[c], settings.warmup, model_args=(), model_kwargs=kwargs)
        if reuse:
            st = st._replace(
                i=jnp.asarray(settings.warmup, dtype=st.i.dtype), adapt_state=first.adapt_state
            )
        out.append(st)
    return out


def _sample_sequential(
    data: OutcomeData,
    settings: SamplerSettings,
    kernel: Any,
    run_chunk: Any,
    kwargs: ModelInputs,
    progress: Any,
) -> Generator[Progress, None, Posterior]:
    """Chain after chain, each adapting on its own (``chain_method="sequential"``)."""
    import jax

    t_cpu, t_wall = time.process_time(), time.perf_counter()
    chains = settings.chains
    keys = jax.random.split(jax.random.PRNGKey(settings.seed), chains)
    per_chain = []
    post_fn = None
    for c in range(chains):
        yield progress(f"Chain {c + 1} of {chains}: starting")
        state = kernel.init(keys[c], settings.warmup, model_args=(), model_kwargs=kwargs)
        if post_fn is None:
            post_fn = kernel.postprocess_fn((), kwargs)
        left = settings.warmup
        while left > 0:
            n = min(settings.chunk, left)
            state = _ready(run_chunk(state, n)[0])
            left -= n
            yield progress(f"Chain {c + 1} of {chains}: warm-up", n)
        parts = []
        left = settings.draws
        while left > 0:
            n = min(settings.chunk, left)
            state, out = run_chunk(state, n)
            parts.append(jax.device_get(out))
            left -= n
            yield progress(f"Chain {c + 1} of {chains}: sampling", n)
        per_chain.append(_concat(parts))
    post = _collect(per_chain, post_fn, data, settings, t_cpu, t_wall)
    post.stopped = STOP_FIXED
    return post


def first_draws(post: Posterior, n: int) -> Posterior:
    """The first ``n`` draws of every chain of a posterior."""
    n = min(n, post.n_draws)
    return Posterior(
        {k: v[:, :n] for k, v in post.params.items()},
        {k: v[:, :n] for k, v in post.stats.items()},
        replace(post.settings, draws=n),
    )


def _ready(state: Any) -> Any:
    """``state`` once JAX has computed it (JAX dispatches asynchronously)."""
    import jax

    return jax.block_until_ready(state)  # type: ignore[no-untyped-call]  # untyped in JAX


def _advance(run_chunk: Any, states: list[Any], n: int, c: int) -> Any:
    """Chain ``c``'s state after ``n`` more iterations, once computed."""
    return _ready(run_chunk(states[c], n)[0])


def _pool(chains: int) -> ThreadPoolExecutor:
    """Threads running chains side by side: XLA releases the GIL while it computes, so two
    chains use two cores (one thread each: see :func:`configure_jax`)."""
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=max(1, min(chains, os.cpu_count() or 1, 2)))


def _concat(parts: list[Any]) -> Any:
    """The draws of one chain from its chunks."""
    import jax

    return jax.tree_util.tree_map(lambda *a: np.concatenate(a), *parts)


def _partial(
    parts: list[list[Any]], post_fn: Any, data: OutcomeData, settings: SamplerSettings
) -> Posterior:
    """The posterior of the draws so far, every chain."""
    per_chain = [_concat(p) for p in parts]
    drawn = len(np.asarray(per_chain[0][1]))
    return _collect(per_chain, post_fn, data, replace(settings, draws=drawn), 0.0, 0.0)


def _collect(
    per_chain: list[Any],
    post_fn: Any,
    data: OutcomeData,
    settings: SamplerSettings,
    t_cpu: float,
    t_wall: float,
) -> Posterior:
    """Stack the chains, map the draws to constrained parameters, keep the sampler statistics."""
    import jax
    import jax.numpy as jnp

    stacked = jax.tree_util.tree_map(lambda *a: np.stack(a), *per_chain)
    z, diverging, num_steps, accept, energy, step_size = stacked
    flat_z = jax.tree_util.tree_map(lambda a: jnp.asarray(a.reshape((-1, *a.shape[2:]))), z)
    constrained = jax.device_get(jax.vmap(post_fn)(flat_z))
    shape = (settings.chains, settings.draws)
    draws = {
        k: np.asarray(v).reshape(shape + np.asarray(v).shape[1:]) for k, v in constrained.items()
    }
    stats = {
        "diverging": np.asarray(diverging, dtype=bool),
        "n_steps": np.asarray(num_steps, dtype=np.int64),
        "tree_depth": np.ceil(np.log2(np.asarray(num_steps, dtype=np.float64) + 1)).astype(int),
        "acceptance_rate": np.asarray(accept, dtype=np.float64),
        "energy": np.asarray(energy, dtype=np.float64),
        "step_size": np.asarray(step_size, dtype=np.float64),
    }
    return Posterior(
        _constrained(draws, data),
        stats,
        settings,
        time.process_time() - t_cpu,
        time.perf_counter() - t_wall,
    )


def sample_variational(
    data: OutcomeData, settings: SamplerSettings
) -> Generator[Progress, None, Posterior]:
    """A quick preview: mean-field ADVI (NumPyro's ``AutoNormal``), then ``draws`` draws.

    Variational posteriors are too narrow as a rule; the preview is for a first look at large
    studies, never for the intervals one reports.
    """
    configure_jax()
    import jax
    from numpyro.infer import SVI, Trace_ELBO
    from numpyro.infer.autoguide import AutoNormal
    from numpyro.optim import Adam

    t_cpu, t_wall = time.process_time(), time.perf_counter()
    model, kwargs = _model_and_kwargs(data)
    guide = AutoNormal(model)
    svi = SVI(model, guide, Adam(0.02), Trace_ELBO())
    key_init, key_draw = jax.random.split(jax.random.PRNGKey(settings.seed))
    state = svi.init(key_init, **kwargs)
    chunk = max(1, settings.chunk * 5)

    @jax.jit
    def run(s: Any) -> tuple[Any, Any]:
        return jax.lax.scan(lambda s, _: svi.update(s, **kwargs), s, None, length=chunk)

    done = 0
    losses = []
    while done < settings.vi_steps:
        state, loss = run(state)
        losses.append(np.asarray(loss))
        done += chunk
        yield Progress(min(done, settings.vi_steps), settings.vi_steps, "Variational preview")
    params = svi.get_params(state)
    raw = guide.sample_posterior(key_draw, params, sample_shape=(settings.draws,))
    raw = {k: np.asarray(v)[None] for k, v in jax.device_get(raw).items() if k != "y"}
    loss = np.concatenate(losses)
    return Posterior(
        _constrained(raw, data),
        {"elbo_loss": loss},
        settings,
        time.process_time() - t_cpu,
        time.perf_counter() - t_wall,
    )


def linear_predictor(params: dict[str, NDArray[Any]], data: OutcomeData, sl: slice) -> NDArray[Any]:
    """η (draws in ``sl``, outcomes, logits) from flat draws (chains × draws merged)."""
    eta = params["alpha"][sl][:, data.pair, :]
    if "beta" in params:
        eta = eta + np.einsum("np,spo->sno", data.X, params["beta"][sl])
    for g, idx in enumerate(data.group_idx):
        eta = eta + params[f"nu_{g}"][sl][:, idx, :]
    return eta


def log_softmax0(eta: NDArray[Any]) -> NDArray[Any]:
    """log θ over all q² outcomes from the q²−1 logits against the pivot (last axis)."""
    full = np.concatenate([np.zeros((*eta.shape[:-1], 1)), eta], axis=-1)
    m = full.max(axis=-1, keepdims=True)
    out: NDArray[Any] = full - (m + np.log(np.exp(full - m).sum(axis=-1, keepdims=True)))
    return out


def pointwise_loglik(post: Posterior, data: OutcomeData, block: int = 200) -> NDArray[Any]:
    """log p(y_n | θ^(s)) for every draw and outcome, shaped (chains, draws, outcomes)."""
    flat = {k: post.flat(k) for k in post.params}
    s_total = flat["alpha"].shape[0]
    out = np.empty((s_total, len(data.y)))
    rows = np.arange(len(data.y))
    for start in range(0, s_total, block):
        sl = slice(start, min(start + block, s_total))
        lp = log_softmax0(linear_predictor(flat, data, sl))
        out[sl] = lp[:, rows, data.y]
    return out.reshape(post.n_chains, post.n_draws, len(data.y))

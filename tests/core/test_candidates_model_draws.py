"""When the agreement model's sampler stops drawing: once every κ cell has enough effective draws
and every parameter and κ cell has R-hat ≤ 1.01; at the draws set when the chains agree by then;
past them, up to ``extend_draws`` times as many, while they disagree.

The decision rule and the progress plan are checked on their own; the sampler on a tiny data set
(two chains, a model without varying intercepts) with the real convergence check and with checks
that say the chains never agree or agree at once. No wall-clock bounds.
"""

from __future__ import annotations

import math

import pytest

from iaa_desktop.core.kinds.candidates.model import available
from iaa_desktop.core.kinds.candidates.model.fit import (
    STOP_AGREE_AT_DRAWS,
    STOP_AGREE_PAST,
    STOP_ENOUGH,
    STOP_FIXED,
    STOP_MOST,
    DrawPlan,
    SamplerSettings,
    stop_drawing,
)
from tests.core.test_candidates_model import FACTORS, simulated_pairs

needs_model = pytest.mark.skipif(not available(), reason="the optional model packages are absent")

S = SamplerSettings(draws=1000, chunk=100)


def test_most_draws_is_draws_times_extend_only_when_draws_are_checked():
    assert S.max_draws == 3000
    assert SamplerSettings(draws=150, extend_draws=2.5).max_draws == 375
    assert SamplerSettings(draws=1000, extend_draws=1.0).max_draws == 1000
    assert SamplerSettings(draws=1000, min_ess=0).max_draws == 1000  # fixed draws: never more


@pytest.mark.parametrize(
    ("drawn", "agree", "enough", "why"),
    [
        (200, True, True, STOP_ENOUGH),
        (200, True, False, ""),  # agree, κ cells short, draws not reached: go on
        (200, False, False, ""),
        (1000, True, False, STOP_AGREE_AT_DRAWS),  # κ cells short: reported, not drawn for
        (1000, False, False, ""),  # a parameter's R-hat > 1.01 at the draws set: go on
        (1700, False, False, ""),
        (1000, True, True, STOP_ENOUGH),
        (1700, True, False, STOP_AGREE_PAST),  # drawn on while they disagreed: they agree now
        (1700, True, True, STOP_AGREE_PAST),
        (3000, False, False, STOP_MOST),
    ],
)
def test_stop_rule(drawn, agree, enough, why):
    assert stop_drawing(drawn, S, agree, enough) == why


def test_plan_expects_past_the_draws_set_only_once_there_and_disagreeing():
    plan = DrawPlan(maximum=3000, expected=800, cap=1000)
    # early, the chains disagreeing and the κ cells' ESS low: no more than the draws set
    plan.revise(200, ess_min=50.0, target=400.0, chunk=100, agree=False)
    assert plan.expected == 1000
    plan.revise(1000, ess_min=900.0, target=400.0, chunk=100, agree=False)
    assert plan.expected == 1100  # one more chunk at a time while they disagree
    plan = DrawPlan(maximum=3000, expected=800, cap=1000)
    plan.revise(300, ess_min=100.0, target=400.0, chunk=100, agree=True)
    assert plan.expected == 1000  # ESS ∝ draws would ask 1,200: the chains agree, so 1,000


# ----------------------------------------------------------------------------- the sampler

TINY = SamplerSettings(chains=2, warmup=100, draws=100, chunk=50, seed=4, extend_draws=3.0)


@pytest.fixture(scope="module")
def tiny_data():
    if not available():
        pytest.skip("the optional model packages are absent")
    from iaa_desktop.core.kinds.candidates.model.data import build_outcomes, custom_spec

    df = simulated_pairs(60, seed=2)
    return build_outcomes(df, ["A1", "A2", "A3"], ["0", "1"], custom_spec("known", "", FACTORS))


def _sample(data, settings, check):
    from iaa_desktop.core.kinds.candidates.model.fit import sample_nuts
    from iaa_desktop.core.progress import run_to_end

    seen = []
    post = run_to_end(sample_nuts(data, settings, check), seen.append)
    return post, seen


@needs_model
def test_draws_go_on_to_the_most_while_the_chains_disagree(tiny_data):
    calls = []

    def never_agree(post):
        calls.append(post.n_draws)
        return 1000.0, False, False

    post, seen = _sample(tiny_data, TINY, never_agree)
    assert post.n_draws == 300 and post.stopped == STOP_MOST
    assert calls == [100, 150, 200, 250, 300]  # checked after every chunk from two on
    assert post.params["alpha"].shape[:2] == (2, 300) and post.stats["diverging"].shape == (2, 300)
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions)
    sampling = [p.message for p in seen if "sampling" in p.message]
    assert sampling == [f"2 chains: sampling ({d} draws each)" for d in range(50, 301, 50)]


@needs_model
def test_draws_stop_at_the_draws_set_when_the_chains_agree(tiny_data):
    post, _ = _sample(tiny_data, TINY, lambda post: (10.0, True, False))
    assert post.n_draws == 100 and post.stopped == STOP_AGREE_AT_DRAWS
    # without checks the draws set is all there is
    fixed, _ = _sample(tiny_data, TINY, None)
    assert fixed.n_draws == 100 and fixed.stopped == STOP_FIXED


@needs_model
def test_real_check_decides_as_the_rule_says(tiny_data):
    """With the model's own check (every parameter's R-hat, the κ cells' R-hat and ESS) and a
    warm-up too short to settle, each check's verdict is what the rule makes of the diagnostics
    of the draws so far, and the draws stop exactly at the first check the rule says stop."""
    from iaa_desktop.core.kinds.candidates.model import summaries as s

    settings = SamplerSettings(
        chains=2, warmup=30, draws=100, chunk=50, seed=1, extend_draws=4.0, min_ess=400.0
    )
    verdicts = []

    def check(post):
        c = s.kappa_convergence(post, tiny_data)
        agree = c["kappa_rhat_max"] <= 1.01 and c["params_rhat_max"] <= 1.01
        enough = agree and c["kappa_ess_bulk_min"] >= settings.min_ess
        verdicts.append((post.n_draws, c, stop_drawing(post.n_draws, settings, agree, enough)))
        return float(c["kappa_ess_bulk_min"]), agree, enough

    post, _ = _sample(tiny_data, settings, check)
    # 30 warm-up iterations leave these chains disagreeing at the 100 draws set (seeded)
    assert post.n_draws > settings.draws
    assert [why for *_, why in verdicts[:-1]] == [""] * (len(verdicts) - 1)
    last_drawn, last, why = verdicts[-1]
    assert why and post.n_draws == last_drawn and post.stopped == why
    if why != STOP_MOST:  # stopped before the most: every R-hat ≤ 1.01 on the draws returned
        assert last["params_rhat_max"] <= 1.01 and last["kappa_rhat_max"] <= 1.01
        final = s.diagnostics(post)
        assert final["rhat_max"] == pytest.approx(last["params_rhat_max"])
    for drawn, c, _ in verdicts:
        if drawn >= settings.draws and max(c["params_rhat_max"], c["kappa_rhat_max"]) > 1.01:
            # disagreeing chains past the draws set: drawing went on (unless at the most)
            assert drawn == post.n_draws == settings.max_draws or drawn < post.n_draws
    assert math.isfinite(last["kappa_ess_bulk_min"])

"""Dawid–Skene and MACE (core/metrics/crowd.py).

Dawid–Skene reproduces the published estimates of Dawid & Skene (1979), Tables 2–4, on their
Table 1 data (45 patients, 5 anaesthetists, the first of them judging every patient three times,
classes 1–4), written below from the paper. MACE was checked (outside the suite) against its
authors' reference program (``mace.py`` of the MACE repository, NumPy's global seed set to the
same seed) on the four data sets it ships: competence and posteriors agree to 1.3e-15 and the
log marginal likelihood to 1e-6 for seeds 0 and 7. crowd-kit, when installed, cross-checks
Dawid–Skene (run to convergence).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.metrics.crowd import dawid_skene, mace

# Dawid & Skene (1979), Table 1: per patient observer 1's three responses, then observers 2–5
DS1979 = [
    "111 1 1 1 1",
    "333 4 3 3 4",
    "112 2 1 2 2",
    "222 3 1 2 1",
    "222 3 2 2 2",
    "222 3 3 2 2",
    "122 2 1 1 1",
    "333 3 4 3 3",
    "222 2 2 2 3",
    "232 2 2 2 3",
    "444 4 4 4 4",
    "222 3 3 4 3",
    "111 1 1 1 1",
    "222 3 2 1 2",
    "121 1 1 1 1",
    "111 2 1 1 1",
    "111 1 1 1 1",
    "111 1 1 1 1",
    "222 2 2 2 1",
    "222 1 3 2 2",
    "222 2 2 2 2",
    "222 2 2 2 1",
    "222 3 2 2 2",
    "221 2 2 2 2",
    "111 1 1 1 1",
    "111 1 1 1 1",
    "232 2 2 2 2",
    "111 1 1 1 1",
    "111 1 1 1 1",
    "112 1 1 2 1",
    "111 1 1 1 1",
    "333 3 2 3 3",
    "111 1 1 1 1",
    "222 2 2 2 2",
    "222 3 2 3 2",
    "433 4 3 4 3",
    "221 2 2 3 2",
    "232 3 2 3 3",
    "333 3 4 3 2",
    "111 1 1 1 1",
    "111 1 1 1 1",
    "121 2 1 1 1",
    "232 2 2 2 2",
    "121 1 1 1 1",
    "222 2 2 2 2",
]


def ds1979_responses():
    items, anns, labels = [], [], []
    for i, row in enumerate(DS1979):
        first, *others = row.split()
        for c in first:
            items.append(i), anns.append(0), labels.append(int(c) - 1)
        for k, c in enumerate(others, start=1):
            items.append(i), anns.append(k), labels.append(int(c) - 1)
    return np.array(items), np.array(anns), np.array(labels)


def test_dawid_skene_reproduces_the_1979_paper():
    r = dawid_skene(*ds1979_responses())
    # Table 2: estimated class prevalences
    assert r.prior.round(2).tolist() == [0.40, 0.42, 0.11, 0.07]
    # Table 3: observer 1's error rates (rows: true class, columns: response)
    assert r.confusion[0].round(2).tolist() == [
        [0.89, 0.11, 0.00, 0.00],
        [0.07, 0.88, 0.05, 0.00],
        [0.00, 0.34, 0.66, 0.00],
        [0.00, 0.00, 0.56, 0.44],
    ]
    # Table 4: the first six patients' estimated classes (posteriors 1.00 or 0.00 to 2 places)
    assert r.posterior[:6].round(2).tolist() == [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
    ]
    # the fixed point: one more iteration changes nothing by more than the tolerance
    assert r.iterations > 5


def test_repeats_count():
    it, an, lab = ds1979_responses()
    once = dawid_skene(*[x[(an != 0) | (np.arange(len(an)) % 7 == 0)] for x in (it, an, lab)])
    full = dawid_skene(it, an, lab)
    assert not np.allclose(once.confusion[0], full.confusion[0], equal_nan=True)


def test_dawid_skene_equals_crowd_kit():
    """crowd-kit's own ``fit`` stops when the evidence lower bound rises by less than ``tol``,
    which on these data happens after 4 iterations, short of the fixed point (a posterior then
    differs by 0.021); its E- and M-steps, iterated to the fixed point from its majority-vote
    start, give our figures."""
    ck = pytest.importorskip("crowdkit.aggregation")
    import pandas as pd

    it, an, lab = ds1979_responses()
    df = pd.DataFrame({"task": it, "worker": an, "label": lab})
    probas = ck.MajorityVote().fit_predict_proba(df)
    for _ in range(2000):
        errors = ck.DawidSkene._m_step(df, probas)
        new = ck.DawidSkene._e_step(df, probas.mean(), errors)
        change = float((new - probas).abs().to_numpy().max())
        probas = new
        if change <= 1e-12:
            break
    mine = dawid_skene(it, an, lab)
    p = probas.sort_index()[[0, 1, 2, 3]].to_numpy()
    np.testing.assert_allclose(mine.posterior, p, atol=1e-6)
    np.testing.assert_allclose(mine.prior, p.mean(axis=0), atol=1e-6)
    errors = ck.DawidSkene._m_step(df, probas)
    for k in range(5):
        err = errors.loc[k].reindex(index=[0, 1, 2, 3], columns=[0, 1, 2, 3]).to_numpy()
        # crowd-kit: rows = answer, columns = true class (ours the transpose); floored at 1e-10
        np.testing.assert_allclose(mine.confusion[k], np.nan_to_num(err.T), atol=1e-6)


def test_mace_on_the_1979_data_is_seeded_and_sensible():
    it, an, lab = ds1979_responses()
    a = mace(it, an, lab, seed=3)
    b = mace(it, an, lab, seed=3)
    np.testing.assert_array_equal(a.competence, b.competence)
    assert a.seed == 3 and 1 <= a.best_restart <= 10
    ds = dawid_skene(it, an, lab)
    assert (a.labels == ds.labels).mean() > 0.9
    np.testing.assert_allclose(a.posterior.sum(axis=1), 1.0)


def _random_responses(seed, n_items=30, n_ann=4, q=3):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, n_items)
    acc = rng.uniform(0.3, 0.95, n_ann)
    it, an, lab = [], [], []
    for i in range(n_items):
        for k in range(n_ann):
            if rng.random() < 0.8:
                it.append(i), an.append(k)
                lab.append(truth[i] if rng.random() < acc[k] else int(rng.integers(0, q)))
    return np.array(it), np.array(an), np.array(lab), n_items, n_ann, q


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.permutations(range(4)))
def test_invariants(seed, perm):
    it, an, lab, n, k, q = _random_responses(seed)
    for r in (dawid_skene(it, an, lab, n, k, q), mace(it, an, lab, n, k, q, restarts=2)):
        ok = ~np.isnan(r.posterior).all(axis=1)
        np.testing.assert_allclose(r.posterior[ok].sum(axis=1), 1.0, atol=1e-9)
        assert np.nanmin(r.posterior) >= 0 and np.nanmax(r.posterior) <= 1 + 1e-12
        c = r.competence[~np.isnan(r.competence)]
        assert ((c >= -1e-12) & (c <= 1 + 1e-12)).all()
    # renaming the annotators moves their figures with them (Dawid–Skene has no random start)
    ds = dawid_skene(it, an, lab, n, k, q)
    ds2 = dawid_skene(it, np.array(perm)[an], lab, n, k, q)
    np.testing.assert_allclose(ds2.competence[list(perm)], ds.competence, atol=1e-7)
    np.testing.assert_allclose(ds2.posterior, ds.posterior, atol=1e-7)


def test_unanimous_annotators_are_fully_competent():
    it = np.repeat(np.arange(10), 3)
    an = np.tile(np.arange(3), 10)
    lab = np.repeat(np.arange(10) % 2, 3)
    r = dawid_skene(it, an, lab)
    np.testing.assert_allclose(r.competence, 1.0)
    assert r.labels.tolist() == (np.arange(10) % 2).tolist()


def naive_mace(it, an, lab, n, k, q, seed, restarts, iterations, a=0.5, b=0.5):
    """MACE written again, response by response, from Hovy et al. (2013), §2–3: the E-step's
    expected counts and the variational M-step (exp digamma of counts + priors)."""
    from scipy.special import digamma

    rng = np.random.RandomState(seed)
    by_item = {
        i: [(int(an[r]), int(lab[r])) for r in range(len(it)) if it[r] == i] for i in range(n)
    }

    def e_step(spam, theta):
        ll, strat, know = 0.0, np.zeros((k, q)), np.zeros((k, 2))
        gold = np.zeros((n, q))
        for i, resp in by_item.items():
            if not resp:
                continue
            for t in range(q):
                g = 1.0 / q
                for w, ans in resp:
                    g *= spam[w, 0] * theta[w, ans] + (spam[w, 1] if ans == t else 0.0)
                gold[i, t] = g
            z = gold[i].sum()
            ll += np.log(z)
            for w, ans in resp:
                guess = spam[w, 0] * theta[w, ans]
                # P(guessing | data) = Σ_t P(t | data) · guess / P(answer | t)
                s = sum(gold[i, t] / (guess + (spam[w, 1] if ans == t else 0.0)) for t in range(q))
                strat[w, ans] += s * guess / z
                know[w, 0] += s * guess / z
                know[w, 1] += gold[i, ans] * spam[w, 1] / (guess + spam[w, 1]) / z
        return ll, gold, strat, know

    def vb(c):
        return np.exp(digamma(c)) / np.exp(digamma(c.sum(axis=1, keepdims=True)))

    best = None
    for _ in range(restarts):
        spam = 1 + 0.5 * rng.random_sample((k, 2))
        theta = 1 + 0.5 * rng.random_sample((k, q))
        spam /= spam.sum(1, keepdims=True)
        theta /= theta.sum(1, keepdims=True)
        ll, gold, strat, know = e_step(spam, theta)
        for _ in range(iterations):
            spam, theta = vb(know + np.array([a, b])), vb(strat + 10.0)
            ll, gold, strat, know = e_step(spam, theta)
        if best is None or ll > best[0]:
            best = (ll, spam[:, 1].copy(), gold / gold.sum(1, keepdims=True))
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mace_equals_the_paper_written_again(seed):
    it, an, lab, n, k, q = _random_responses(seed, n_items=25)
    ll, comp, post = naive_mace(it, an, lab, n, k, q, seed, restarts=3, iterations=10)
    r = mace(it, an, lab, n, k, q, seed=seed, restarts=3, iterations=10)
    assert r.log_likelihood == pytest.approx(ll, rel=1e-12)
    np.testing.assert_allclose(r.competence, comp, rtol=1e-10)
    np.testing.assert_allclose(r.posterior, post, atol=1e-12)

"""Invariants of every registered coefficient, driven by the metrics registry.

As scikit-learn's ``test_common``: each property a :class:`Metric` declares (symmetric, bounded,
chance-corrected) is checked on random reliability data for every metric that declares it, so a
new coefficient is tested by registering it.
"""

from __future__ import annotations

import doctest
import importlib
import math
import pkgutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import iaa_desktop.core.metrics as metrics_pkg
from iaa_desktop.core.measures import MEASURES
from iaa_desktop.core.metrics import registry
from iaa_desktop.core.metrics.registry import METRICS, coded_metrics, title

CODED = [m.name for m in coded_metrics()]
CODED_IDS = {m.name: m for m in coded_metrics()}


@st.composite
def reliability(draw, n_annotators=None, missing=True, min_items=2, max_items=30):
    n = draw(st.integers(min_items, max_items))
    c = n_annotators or draw(st.integers(2, 5))
    q = draw(st.integers(2, 5))
    codes = draw(arrays(np.int32, (n, c), elements=st.integers(-1 if missing else 0, q - 1)))
    return codes, q


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-9)


def _data_for(metric, draw_data):
    c = 2 if metric.scope == "pair" else None
    return draw_data(reliability(n_annotators=c))


def test_registry_names_unique_and_complete():
    names = [m.name for m in METRICS]
    assert len(names) == len(set(names))
    for m in METRICS:
        assert m.title and m.symbol, m.name
        if m.bounds is not None:
            assert m.bounds[0] < m.bounds[1]
    # every coefficient of coded items the package exposes is registered
    for name in ("percent_agreement", "cohen_kappa", "scott_pi", "fleiss_kappa", "multi_kappa"):
        assert name in CODED
    for name in ("gwet_ac1", "krippendorff_alpha", "weighted_kappa_linear"):
        assert name in CODED


def test_every_measure_takes_its_title_from_the_registry():
    for m in MEASURES:
        assert m.title == registry.get(m.key).title


@pytest.mark.parametrize(
    "name, expected",
    [
        ("cohen_kappa_mean", "Cohen's κ (mean over pairs)"),
        ("weighted_kappa_quadratic_mean", "Weighted κ, quadratic (mean over pairs)"),
        ("exact_set_agreement", "Exact set agreement"),
        ("spearman_vs_others_all", "Spearman ρ against the others (all)"),
        ("krippendorff_alpha_filtered", "Krippendorff's α (filtered)"),
        ("ceafe_f1", "CEAF-e F1"),
        ("bcub_recall", "B³ recall"),
        ("n_items_filtered", "Items (filtered)"),
        ("pi", "Fleiss' κ (π*)"),
        ("no_such_column", "no_such_column"),
    ],
)
def test_title_of_result_columns(name, expected):
    assert title(name) == expected


@pytest.mark.parametrize("name", CODED)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_symmetric_in_the_annotators(name, data):
    metric = CODED_IDS[name]
    codes, q = _data_for(metric, data.draw)
    perm = data.draw(st.permutations(range(codes.shape[1])))
    a = metric.function(codes, q).value
    b = metric.function(codes[:, list(perm)], q).value
    if metric.symmetric:
        assert _same(a, b)


@pytest.mark.parametrize("name", CODED)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_bounded(name, data):
    metric = CODED_IDS[name]
    codes, q = _data_for(metric, data.draw)
    v = metric.function(codes, q).value
    lo, hi = metric.bounds
    assert math.isnan(v) or lo - 1e-12 <= v <= hi + 1e-12


@pytest.mark.parametrize("name", CODED)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_invariant_under_item_permutation(name, data):
    metric = CODED_IDS[name]
    codes, q = _data_for(metric, data.draw)
    perm = data.draw(st.permutations(range(codes.shape[0])))
    assert _same(metric.function(codes, q).value, metric.function(codes[list(perm)], q).value)


@pytest.mark.parametrize("name", CODED)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_item_weights_equal_repeated_items(name, data):
    """Weights w_i count item i w_i times: the bootstrap resamples distinct rows with them."""
    metric = CODED_IDS[name]
    codes, q = _data_for(metric, data.draw)
    w = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(codes), max_size=len(codes))))
    repeated = np.repeat(codes, w, axis=0)
    if len(repeated) == 0:
        return
    assert _same(metric.function(codes, q, weights=w).value, metric.function(repeated, q).value)


@pytest.mark.parametrize("name", [m.name for m in coded_metrics() if m.chance_corrected])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_perfect_agreement_is_one(name, data):
    metric = CODED_IDS[name]
    codes, q = _data_for(metric, data.draw)
    perfect = np.repeat(codes[:, :1], codes.shape[1], axis=1)
    perfect[perfect < 0] = 0
    perfect[0, :] = (perfect[1, 0] + 1) % q  # two categories in use: chance agreement < 1
    assert metric.function(perfect, q).value == pytest.approx(1.0)


def test_doctests_of_the_metrics_package():
    """The docstrings' published values are part of the tests."""
    failures = 0
    for info in pkgutil.iter_modules(metrics_pkg.__path__):
        mod = importlib.import_module(f"{metrics_pkg.__name__}.{info.name}")
        failures += doctest.testmod(mod, optionflags=doctest.ELLIPSIS).failed
    assert failures == 0

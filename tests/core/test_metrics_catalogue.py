"""Invariants of every catalogue entry with a function, driven by the metrics catalogue.

As scikit-learn's ``test_common``: each property a :class:`Metric` declares (symmetric, bounded,
chance-corrected) is checked on random data of its kind of input (coded items, values,
coreference partitions, unitizing units) for every entry that declares it, so a new figure is
tested by entering it in the catalogue. The last test walks the report of every example study:
no figure reaches a report or a view without a catalogue entry.
"""

from __future__ import annotations

import doctest
import importlib
import json
import math
import pkgutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import iaa_desktop.core.metrics as metrics_pkg
from iaa_desktop.core.measures import MEASURES
from iaa_desktop.core.metrics import catalogue
from iaa_desktop.core.metrics.catalogue import CATALOGUE, coded_metrics, title

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


def test_catalogue_names_unique_and_complete():
    names = [m.name for m in CATALOGUE]
    assert len(names) == len(set(names))
    for m in CATALOGUE:
        assert m.title and m.symbol, m.name
        if m.bounds is not None:
            assert m.bounds[0] < m.bounds[1]
    # every coefficient of coded items the package exposes is registered
    for name in ("percent_agreement", "cohen_kappa", "scott_pi", "fleiss_kappa", "multi_kappa"):
        assert name in CODED
    for name in ("gwet_ac1", "krippendorff_alpha", "weighted_kappa_linear"):
        assert name in CODED


def test_every_entry_is_explained():
    """Each entry has help text of its own or shares an entry's; Help → Measures lists each
    text once."""
    for m in CATALOGUE:
        assert (m.help is None) != (m.help_from is None), m.name
        owner = catalogue.explained(m)
        assert owner.help is not None and owner in MEASURES, m.name
        assert catalogue.tooltip(m.name) == owner.text()
        for name in (m.title, *m.aliases):
            assert catalogue.find(name) is not None, (m.name, name)


def test_one_resolver_for_titles_and_tooltips():
    """A name and the figure behind it resolve alike for the title and the tooltip."""
    for m in CATALOGUE:
        assert catalogue.lookup(m.name) is m and catalogue.find(m.name) is m
        assert title(m.name) == m.title
    assert catalogue.find("muc_f1") is catalogue.get("muc")
    assert catalogue.find("spearman_vs_others_all") is catalogue.get("spearman_vs_others")
    assert catalogue.find("ci_low") is catalogue.get("interval") and title("ci_low") == "95% CI low"
    assert catalogue.find("pairs.unitizing_alpha_ci_low") is catalogue.get("unitizing_alpha")


def test_range_checks_come_from_the_catalogue():
    ranges, titles, terms = catalogue.range_checks()
    assert ranges["percent_agreement"] == (0.0, 1.0) and ranges["cohen_kappa_mean"] == (-1, 1)
    assert ranges["fleiss_kappa"][0] == -math.inf and titles["gwet_ac1"] == "Gwet's AC1"
    assert terms == {"cohen_kappa", "scott_pi", "fleiss_kappa", "multi_kappa", "gwet_ac1"}


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
        ("unitizing_alpha", "Unitizing α (αU)"),
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


# ------------------------------------------------------------------ values (graded judgments)

VALUES = [m.name for m in CATALOGUE if m.inputs == "values" and m.function is not None]
BY_NAME = {m.name: m for m in CATALOGUE}


def _value(result) -> float:
    return float(getattr(result, "value", result))


@st.composite
def graded(draw, n_annotators):
    n = draw(st.integers(3, 25))
    v = draw(
        arrays(np.float64, (n, n_annotators), elements=st.sampled_from([1.0, 2, 3, 4, np.nan]))
    )
    return v


@pytest.mark.parametrize("name", VALUES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_values_symmetric_bounded_and_item_order_free(name, data):
    metric = BY_NAME[name]
    v = data.draw(graded(2 if metric.scope == "pair" else data.draw(st.integers(2, 4))))
    value = _value(metric.function(v))
    lo, hi = metric.bounds
    assert math.isnan(value) or lo - 1e-12 <= value <= hi + 1e-12
    cols = data.draw(st.permutations(range(v.shape[1])))
    rows = data.draw(st.permutations(range(v.shape[0])))
    assert _same(value, _value(metric.function(v[:, list(cols)])))
    assert _same(value, _value(metric.function(v[list(rows)])))


@pytest.mark.parametrize("name", VALUES)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_values_perfect_agreement_is_one(name, data):
    metric = BY_NAME[name]
    n = data.draw(st.integers(3, 20))
    col = np.array(data.draw(st.lists(st.sampled_from([1.0, 2, 3, 4]), min_size=n, max_size=n)))
    col[:2] = [1.0, 4.0]  # two values in use: a correlation is defined
    c = 2 if metric.scope == "pair" else data.draw(st.integers(2, 4))
    assert _value(metric.function(np.repeat(col[:, None], c, axis=1))) == pytest.approx(1.0)


# ------------------------------------------------------------------ coreference partitions

PARTITIONS = [m.name for m in CATALOGUE if m.inputs == "partitions" and m.function is not None]


@st.composite
def partitions(draw):
    """Two labellings of one mention index: entity per mention, -1 absent on that side."""
    n = draw(st.integers(2, 14))
    key = np.array(draw(st.lists(st.integers(-1, 4), min_size=n, max_size=n)))
    resp = np.array(draw(st.lists(st.integers(-1, 4), min_size=n, max_size=n)))
    return key, resp


def test_every_coreference_score_has_a_function():
    for name in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions", "conll"):
        assert name in PARTITIONS
    # BLANC's special cases make it depend on which side is the key (Luo et al. 2014)
    assert BY_NAME["blanc"].function([0, 0, 0], [0, 0, 1]) == pytest.approx(0.5)
    assert BY_NAME["blanc"].function([0, 0, 1], [0, 0, 0]) == pytest.approx(0.25)


@pytest.mark.parametrize("name", PARTITIONS)
@settings(max_examples=40, deadline=None)
@given(pair=partitions(), data=st.data())
def test_partition_scores_symmetric_bounded_and_order_free(name, pair, data):
    metric = BY_NAME[name]
    key, resp = pair
    f1 = metric.function(key, resp)
    lo, hi = metric.bounds
    assert lo - 1e-12 <= f1 <= hi + 1e-12
    if metric.symmetric:  # F1 does not depend on which side is the key
        assert _same(f1, metric.function(resp, key))
    order = list(data.draw(st.permutations(range(len(key)))))
    assert _same(f1, metric.function(key[order], resp[order]))
    rename = np.array(data.draw(st.permutations(range(5))))  # entity numbers are names only
    assert _same(f1, metric.function(np.where(key >= 0, rename[key], -1), resp))


@pytest.mark.parametrize("name", PARTITIONS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_partition_scores_perfect_agreement_is_one(name, data):
    metric = BY_NAME[name]
    n = data.draw(st.integers(4, 14))
    key = np.array(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    key[:4] = [0, 0, 1, 1]  # two entities of two mentions: every score is defined
    assert metric.function(key, key.copy()) == pytest.approx(1.0)


# ------------------------------------------------------------------ unitizing

UNITS = [m.name for m in CATALOGUE if m.inputs == "units" and m.function is not None]


@st.composite
def unitizing(draw, n_raters=None):
    """Non-overlapping units of each rater on a continuum of length 100."""
    r = n_raters or draw(st.integers(2, 3))
    units = []
    for rater in range(r):
        cuts = sorted(draw(st.sets(st.integers(0, 100), min_size=2, max_size=8)))
        for b, e in zip(cuts[::2], cuts[1::2]):
            units.append((b, e - b, rater, draw(st.integers(0, 1))))
    return units, r


def test_unitizing_alpha_has_a_function():
    assert "unitizing_alpha" in UNITS


@pytest.mark.parametrize("name", UNITS)
@settings(max_examples=40, deadline=None)
@given(study=unitizing(), data=st.data())
def test_units_symmetric_bounded_and_order_free(name, study, data):
    metric = BY_NAME[name]
    units, r = study
    value = metric.function(units, r, 100)
    lo, hi = metric.bounds
    assert math.isnan(value) or lo - 1e-9 <= value <= hi + 1e-9
    perm = data.draw(st.permutations(range(r)))
    renamed = [(b, n, perm[k], c) for b, n, k, c in units]
    assert _same(value, metric.function(renamed, r, 100))
    shuffled = data.draw(st.permutations(units))
    assert _same(value, metric.function(shuffled, r, 100))


@pytest.mark.parametrize("name", UNITS)
@settings(max_examples=30, deadline=None)
@given(study=unitizing(n_raters=1), data=st.data())
def test_units_perfect_agreement_is_one(name, study, data):
    metric = BY_NAME[name]
    units, _ = study
    r = data.draw(st.integers(2, 3))
    same = [(b, n, rater, c) for b, n, _, c in units for rater in range(r)]
    value = metric.function(same, r, 100)
    assert math.isnan(value) or value == pytest.approx(1.0)


# ------------------------------------------------------------------ strings (normalization)

STRINGS = [m.name for m in CATALOGUE if m.inputs == "strings" and m.function is not None]
_WORDS = ["nehme", "nähme", "nahm", "", "x", "xy"]


@st.composite
def spellings(draw):
    n = draw(st.integers(2, 12))
    c = draw(st.integers(2, 4))
    cells = draw(st.lists(st.sampled_from([*_WORDS, None]), min_size=n * c, max_size=n * c))
    return np.array(cells, dtype=object).reshape(n, c)


def test_alpha_nld_has_a_function():
    assert "alpha_nld" in STRINGS


@pytest.mark.parametrize("name", STRINGS)
@settings(max_examples=40, deadline=None)
@given(labels=spellings(), data=st.data())
def test_strings_symmetric_bounded_and_order_free(name, labels, data):
    metric = BY_NAME[name]
    value = metric.function(labels).value
    lo, hi = metric.bounds
    assert math.isnan(value) or lo - 1e-9 <= value <= hi + 1e-9
    cols = list(data.draw(st.permutations(range(labels.shape[1]))))
    rows = list(data.draw(st.permutations(range(labels.shape[0]))))
    assert _same(value, metric.function(labels[:, cols]).value)
    assert _same(value, metric.function(labels[rows]).value)


@pytest.mark.parametrize("name", STRINGS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_strings_perfect_agreement_is_one(name, data):
    metric = BY_NAME[name]
    n = data.draw(st.integers(2, 10))
    col = data.draw(st.lists(st.sampled_from(_WORDS), min_size=n, max_size=n))
    col[:2] = ["nehme", "x"]  # two labels in use: the expected disagreement is not 0
    c = data.draw(st.integers(2, 4))
    labels = np.array([[w] * c for w in col], dtype=object)
    assert metric.function(labels).value == pytest.approx(1.0)


# ------------------------------------------------------------------ every figure shown


EXAMPLES = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples"


def _unlabelled(data, path, out):
    """Paths of the numbers in ``data`` none of whose keys the catalogue knows."""
    if isinstance(data, dict):
        for k, v in data.items():
            _unlabelled(v, (*path, str(k)), out)
    elif isinstance(data, list):
        for v in data:
            _unlabelled(v, path, out)
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        if not any(catalogue.known(k) for k in reversed(path)):
            out.add(".".join(path))


@pytest.mark.parametrize(
    "study", sorted(EXAMPLES.glob("*/*.iaa-study")), ids=lambda p: p.parent.name
)
def test_every_figure_of_an_example_report_has_a_catalogue_entry(study, tmp_path):
    out = tmp_path / "report.json"
    run = subprocess.run(
        [sys.executable, "-m", "iaa_desktop", "report", str(study), "--json", str(out), "-q"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    missing: set[str] = set()
    _unlabelled(json.loads(out.read_text(encoding="utf-8")), (), missing)
    assert not missing, sorted(missing)[:20]

"""The one registry of agreement measures: name, title, symbol, function and properties.

Every title shown for a measure (results, reports, CSV display names, the Measures help) comes
from here. A :class:`Metric` names the key used in result JSON (``cohen_kappa``,
``krippendorff_alpha`` ...), its human title and symbol, the function that computes it (for
coefficients of coded items: ``f(codes, n_categories=None, weights=None) -> AgreementResult``) and
the properties that the invariance tests check over the whole registry, as scikit-learn's
``test_common`` does: symmetry in the annotators, the range, perfect agreement = 1 for
chance-corrected coefficients, invariance under permutation of the items.

:func:`title` maps any column or key name in use (``cohen_kappa_mean``,
``spearman_vs_others_all``, ``muc_f1``, ``n_items`` ...) to a display title.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from iaa_desktop.core.metrics import alpha as _alpha
from iaa_desktop.core.metrics import coefficients as _co
from iaa_desktop.core.metrics.result import AgreementResult

__all__ = [
    "COLUMN_TITLES",
    "METRICS",
    "Metric",
    "coded_metrics",
    "find_metric",
    "get",
    "title",
]

Scope = Literal["pair", "multi", "other"]
Inputs = Literal["codes", "values", "other"]
CodedFunction = Callable[..., AgreementResult]

_INF = math.inf


@dataclass(frozen=True, slots=True)
class Metric:
    """One measure and what holds for it.

    Attributes
    ----------
    name : key in result JSON and CSV columns (``cohen_kappa``)
    title : human title ("Cohen's κ")
    symbol : short symbol ("κ")
    function : computes it; for ``inputs == "codes"`` the signature is
        ``f(codes, n_categories=None, weights=None) -> AgreementResult``; ``None`` for measures
        computed inside a kind of study (coreference scores, decompositions ...)
    inputs : ``codes`` (items × annotators category indices, -1 missing), ``values`` (items ×
        annotators floats, NaN missing) or ``other``
    scope : ``pair`` (exactly two annotators), ``multi`` (any number) or ``other``
    symmetric : unchanged when the annotators are swapped or permuted
    bounds : (lo, hi) that every defined value lies in; ``None`` when not a coefficient
    chance_corrected : 0 = chance level and perfect agreement = 1
    level : the lowest level of measurement it needs (``nominal``, ``ordinal``, ``interval``) or
        ``any`` when the level is a parameter
    group : heading in the Measures help
    aliases : other names under which results show it
    """

    name: str
    title: str
    symbol: str
    function: CodedFunction | None = None
    inputs: Inputs = "codes"
    scope: Scope = "multi"
    symmetric: bool = True
    bounds: tuple[float, float] | None = (-1.0, 1.0)
    chance_corrected: bool = True
    level: str = "nominal"
    group: str = "Coded items"
    aliases: tuple[str, ...] = ()


def _wk_linear(codes: Any, n_categories: int | None = None, weights: Any = None) -> AgreementResult:
    """Cohen's weighted κ with linear weights (see :func:`~.coefficients.weighted_kappa`)."""
    return _co.weighted_kappa(codes, "linear", n_categories, weights)


def _wk_quadratic(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    """Cohen's weighted κ with quadratic weights (see :func:`~.coefficients.weighted_kappa`)."""
    return _co.weighted_kappa(codes, "quadratic", n_categories, weights)


def _ac2_linear(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    """Gwet's AC2 with linear weights over the category ranks."""
    return _co.gwet_ac2(codes, "linear", None, n_categories, weights)


def _ac2_quadratic(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    """Gwet's AC2 with quadratic weights over the category ranks."""
    return _co.gwet_ac2(codes, "quadratic", None, n_categories, weights)


def _alpha_nominal(
    codes: Any, n_categories: int | None = None, weights: Any = None
) -> AgreementResult:
    """Krippendorff's α at the nominal level."""
    return _alpha.krippendorff_alpha(codes, "nominal", n_categories=n_categories, weights=weights)


def _spearman(values: Any) -> AgreementResult:
    from iaa_desktop.core.metrics.correlation import spearman_weighted

    return spearman_weighted(np.asarray(values, dtype=float))


_CODED = "Coded items"
_COREF = "Coreference"
_NORM = "Spelling normalization"
_CAND = "Candidate pairs"
_MULTI = "Multi-label"
_UNC = "Uncertainty"

METRICS: tuple[Metric, ...] = (
    # ---------------------------------------------------------------- coded items
    Metric(
        "percent_agreement",
        "Percent agreement",
        "A_o",
        _co.percent_agreement,
        bounds=(0.0, 1.0),
        chance_corrected=False,
        aliases=("agreement", "observed_agreement", "word_agreement", "character_agreement"),
    ),
    Metric(
        "cohen_kappa",
        "Cohen's κ",
        "κ",
        _co.cohen_kappa,
        scope="pair",
        aliases=("kappa", "cohens_kappa"),
    ),
    Metric("scott_pi", "Scott's π", "π", _co.scott_pi, scope="pair"),
    Metric(
        "fleiss_kappa",
        "Fleiss' κ (π*)",
        "π*",
        _co.fleiss_kappa,
        # with missing labels an item labelled once still shapes the chance term (Gwet 2014):
        # κ can fall below −1 when the pairable items disagree and the rest agree
        bounds=(-_INF, 1.0),
        aliases=("pi", "pi_star", "word_pi", "character_pi"),
    ),
    Metric(
        "multi_kappa",
        "multi-κ (Hubert)",
        "κ_H",
        _co.multi_kappa,
        bounds=(-_INF, 1.0),
        aliases=("multi-κ", "hubert_kappa"),
    ),
    Metric(
        "krippendorff_alpha",
        "Krippendorff's α",
        "α",
        _alpha_nominal,
        bounds=(-_INF, 1.0),
        level="any",
        aliases=("alpha",),
    ),
    Metric(
        "conger_kappa",
        "Conger's κ",
        "κ_C",
        _co.conger_kappa,
        bounds=(-_INF, 1.0),
        aliases=("conger",),
    ),
    Metric("gwet_ac1", "Gwet's AC1", "AC1", _co.gwet_ac1),
    Metric(
        "gwet_ac2",
        "Gwet's AC2",
        "AC2",
        inputs="other",
        scope="other",
        bounds=(-_INF, 1.0),
        level="ordinal",
        aliases=("ac2",),
    ),
    Metric(
        "gwet_ac2_linear",
        "Gwet's AC2, linear weights",
        "AC2",
        _ac2_linear,
        bounds=(-_INF, 1.0),
        level="ordinal",
    ),
    Metric(
        "gwet_ac2_quadratic",
        "Gwet's AC2, quadratic weights",
        "AC2²",
        _ac2_quadratic,
        bounds=(-_INF, 1.0),
        level="ordinal",
    ),
    Metric(
        "bennett_s",
        "Bennett's S (Randolph's κ)",
        "S",
        _co.bennett_s,
        aliases=("randolph_kappa", "free_marginal_kappa", "brennan_prediger"),
    ),
    Metric(
        "weighted_kappa_linear",
        "Weighted κ, linear",
        "κ_w",
        _wk_linear,
        scope="pair",
        bounds=(-_INF, 1.0),
        level="ordinal",
        aliases=("weighted_kappa", "linear_kappa"),
    ),
    Metric(
        "weighted_kappa_quadratic",
        "Weighted κ, quadratic",
        "κ_w²",
        _wk_quadratic,
        scope="pair",
        level="ordinal",
        aliases=("quadratic_kappa",),
    ),
    Metric(
        "spearman_weighted",
        "Spearman ρ (weighted mean of pairs)",
        "ρ̄",
        _spearman,
        inputs="values",
        chance_corrected=False,
        level="ordinal",
    ),
    Metric(
        "spearman",
        "Spearman ρ",
        "ρ",
        inputs="values",
        scope="pair",
        chance_corrected=False,
        level="ordinal",
    ),
    Metric(
        "spearman_vs_others",
        "Spearman ρ against the others",
        "ρ_x",
        inputs="values",
        scope="other",
        symmetric=False,
        chance_corrected=False,
        level="ordinal",
    ),
    Metric(
        "specific_agreement",
        "Specific agreement",
        "p_s",
        inputs="other",
        scope="other",
        bounds=(0.0, 1.0),
        chance_corrected=False,
    ),
    Metric(
        "alpha_one_vs_rest",
        "Krippendorff's α, this category vs the rest",
        "α_k",
        inputs="other",
        scope="other",
        bounds=(-_INF, 1.0),
        aliases=("category_alpha", "per_category_alpha"),
    ),
    Metric(
        "kappa_one_vs_rest",
        "Fleiss' κ, this category vs the rest",
        "κ_k",
        inputs="other",
        scope="other",
        bounds=(-_INF, 1.0),
    ),
    # ---------------------------------------------------------------- coreference
    Metric(
        "class_matching_d",
        "Class matching δ (d = D / (D + M))",
        "d",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("d", "delta", "δ", "class_d"),
    ),
    Metric(
        "muc",
        "MUC",
        "MUC",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
    ),
    Metric(
        "bcub",
        "B³",
        "B³",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("b3", "bcubed", "b_cubed"),
    ),
    Metric(
        "ceafm",
        "CEAF-m",
        "CEAF-m",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("ceaf_m",),
    ),
    Metric(
        "ceafe",
        "CEAF-e",
        "CEAF-e",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("ceaf_e",),
    ),
    Metric(
        "blanc",
        "BLANC",
        "BLANC",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
    ),
    Metric(
        "lea",
        "LEA",
        "LEA",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
    ),
    Metric(
        "mentions",
        "Mentions",
        "M",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("mention",),
    ),
    Metric(
        "conll",
        "CoNLL average",
        "CoNLL",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("conll_average",),
    ),
    # ---------------------------------------------------------------- normalization
    Metric(
        "normalization_word",
        "Word-based agreement (normalization)",
        "word",
        inputs="other",
        scope="other",
        bounds=None,
        group=_NORM,
        aliases=("word",),
    ),
    Metric(
        "normalization_character",
        "Character-based agreement (normalization)",
        "char",
        inputs="other",
        scope="other",
        bounds=None,
        group=_NORM,
        aliases=("character",),
    ),
    Metric(
        "alpha_nld",
        "α_NLD",
        "α_NLD",
        inputs="other",
        bounds=(-_INF, 1.0),
        level="nld",
        group=_NORM,
        aliases=("nld_alpha", "word_alpha", "character_alpha"),
    ),
    # ---------------------------------------------------------------- candidates
    Metric(
        "overlap",
        "Lexical overlap (weighted Jaccard)",
        "J",
        inputs="other",
        scope="other",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_CAND,
        aliases=("weighted_jaccard", "jaccard", "overlap_median"),
    ),
    # ---------------------------------------------------------------- multi-label
    Metric(
        "per_label_kappa",
        "Per-label κ (multi-label)",
        "κ_e",
        inputs="other",
        scope="pair",
        group=_MULTI,
        aliases=("mean_kappa", "label_kappa"),
    ),
    Metric(
        "exact_set_agreement",
        "Exact set agreement",
        "A_set",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_MULTI,
        aliases=("set_agreement",),
    ),
    Metric(
        "first_level",
        "First level (multi-label decomposition)",
        "κ₁",
        inputs="other",
        scope="pair",
        group=_MULTI,
        aliases=("level1",),
    ),
    Metric(
        "second_level",
        "Second level (multi-label decomposition)",
        "κ₂",
        inputs="other",
        scope="pair",
        group=_MULTI,
        aliases=("level2", "second_average"),
    ),
    # ---------------------------------------------------------------- uncertainty
    Metric(
        "interval",
        "Intervals (bootstrap and Bayesian)",
        "CI",
        inputs="other",
        scope="other",
        bounds=None,
        chance_corrected=False,
        group=_UNC,
    ),
)

#: display names of result columns that are not measures
COLUMN_TITLES: dict[str, str] = {
    "a": "Annotator A",
    "b": "Annotator B",
    "annotator": "Annotator",
    "item": "Item",
    "group": "Group",
    "group_n_items": "Items in the group",
    "subset": "Subset",
    "metric": "Measure",
    "title": "Title",
    "value": "Value",
    "level": "Level",
    "category": "Category",
    "n_items": "Items",
    "n_pairable": "Pairable items",
    "n_annotators": "Annotators",
    "n_labels": "Labels",
    "n_judgments": "Judgments",
    "n_valid": "Valid judgments",
    "n_cant_decide": "Can't decide",
    "n_tokens": "Tokens",
    "n_units": "Units",
    "n_agree_first_level": "Items agreeing at the first level",
    "observed": "Observed agreement",
    "expected": "Expected agreement",
    "ci_low": "95% CI low",
    "ci_high": "95% CI high",
    "bayes_median": "Bayesian median",
    "low89": "89% interval, low",
    "high89": "89% interval, high",
    "low95": "95% interval, low",
    "high95": "95% interval, high",
    "disagreement": "Disagreement",
    "disagreeing_pairs": "Disagreeing pairs",
    "character_disagreement": "Character disagreement",
    "mean": "Mean",
    "range": "Range",
    "mean_judgment": "Mean judgment",
    "mean_nld": "Mean NLD",
    "L": "L (classes of A)",
    "M": "M (matched)",
    "R": "R (classes of B)",
    "D": "D (cost)",
}

_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("_mean_defined", " (mean over defined values)"),
    ("_mean", " (mean over pairs)"),
    ("_all", " (all)"),
    ("_filtered", " (filtered)"),
    ("_f1", " F1"),
    ("_recall", " recall"),
    ("_precision", " precision"),
)

_BY_NAME: dict[str, Metric] = {}


def _norm(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


for _m in METRICS:
    _BY_NAME[_m.name] = _m
for _m in METRICS:
    for _n in (_m.title, *_m.aliases):
        _BY_NAME.setdefault(_norm(_n), _m)


def get(name: str) -> Metric:
    """The metric registered under ``name`` (its key); ``KeyError`` when there is none."""
    return _BY_NAME[name]


def find_metric(name: str) -> Metric | None:
    """The metric behind a key, alias or title as results show it, or ``None``."""
    return _BY_NAME.get(name) or _BY_NAME.get(_norm(name))


def coded_metrics(scope: Scope | None = None) -> Iterator[Metric]:
    """Registered coefficients of coded items (``inputs == "codes"``) with a function."""
    for m in METRICS:
        if m.inputs == "codes" and m.function is not None and scope in (None, m.scope):
            yield m


def title(name: str) -> str:
    """Display title of a metric or result column name; the name itself when unknown.

    >>> title("cohen_kappa_mean")
    "Cohen's κ (mean over pairs)"
    >>> title("spearman_vs_others_all")
    'Spearman ρ against the others (all)'
    >>> title("muc_f1"), title("n_items")
    ('MUC F1', 'Items')
    """
    if name in COLUMN_TITLES:
        return COLUMN_TITLES[name]
    m = find_metric(name)
    if m is not None:
        return m.title
    for suffix, text in _SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return title(name[: -len(suffix)]) + text
    for prefix, text in (("n_", "Number of "), ("kappa_", "κ ")):
        if name.startswith(prefix) and len(name) > len(prefix):
            return text + name[len(prefix) :].replace("_", " ")
    return name

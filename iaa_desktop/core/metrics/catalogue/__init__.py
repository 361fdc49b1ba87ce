"""The one metrics catalogue: every figure the program shows, with one resolver of its names.

One :class:`~.entry.Metric` per figure (name, title, symbol, function, range, properties,
references, help text): coefficients of coded items (:mod:`.coded`), coreference,
normalization, candidate-pair, multi-label and interval figures (:mod:`.figures`) and the
figures of labelled spans, unitizing α included (:mod:`.spans`). Results, the report, CSV
headers, Help → Measures and the window's titles and tooltips all read it.

Names are resolved in one place:

* :func:`lookup` — the entry of a key, an alias or a title exactly as written (case and
  spaces aside);
* :func:`find` — the same, also for the names results derive from a figure: aggregates and
  score parts (``cohen_kappa_mean``, ``muc_f1``, ``spearman_vs_others_all``), dotted JSON paths
  (``word.ALL.alpha_nld``) and the case-sensitive class-matching letters (L, M, R, D, d);
* :func:`title` — the display title of any figure or column name;
* :func:`tooltip` — the explanation of the figure behind a name;
* :func:`known` — whether a result column or JSON key is a figure or column it knows.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from iaa_desktop.core.metrics.catalogue.coded import CODED
from iaa_desktop.core.metrics.catalogue.columns import (
    COLUMN_TITLES,
    COUNT_PREFIXES,
    PREFIXES,
    SUFFIXES,
)
from iaa_desktop.core.metrics.catalogue.entry import Help, Metric, Scope
from iaa_desktop.core.metrics.catalogue.figures import KIND_FIGURES
from iaa_desktop.core.metrics.catalogue.spans import RELATION_FIGURES, SPAN_FIGURES
from iaa_desktop.core.metrics.result import install_range_checks

__all__ = [
    "CATALOGUE",
    "COLUMN_TITLES",
    "Help",
    "Metric",
    "coded_metrics",
    "explained",
    "find",
    "get",
    "known",
    "lookup",
    "range_checks",
    "title",
    "tooltip",
]

#: every figure, in the order of Help → Measures
CATALOGUE: tuple[Metric, ...] = CODED + KIND_FIGURES + SPAN_FIGURES + RELATION_FIGURES

_BY_NAME: dict[str, Metric] = {m.name: m for m in CATALOGUE}
_INDEX: dict[str, Metric] = {}


def _norm(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


_PARTS: dict[str, Metric] = {}
for _m in CATALOGUE:
    _INDEX.setdefault(_norm(_m.name), _m)
for _m in CATALOGUE:
    _INDEX.setdefault(_norm(_m.title), _m)
for _m in CATALOGUE:
    for _n in _m.aliases:
        _INDEX.setdefault(_norm(_n), _m)
    for _n in _m.parts:
        _PARTS.setdefault(_norm(_n), _m)

#: the class-matching letters are case-sensitive in results (L, M, R, D); "d" must not be lost
_CASE_SENSITIVE = {"L", "M", "R", "D", "d"}
#: parts of a dotted JSON path that name no figure
_PATH_PARTS = ("value", "ALL", "MEDIUM", "STRICT")
#: endings of names that results derive from a figure (aggregates, score parts)
_DERIVED = re.compile(
    r"_(mean_defined|mean|avg|average|all|filtered|f1|recall|precision|ci_low|ci_high|sd)$"
)


def get(name: str) -> Metric:
    """The entry registered under ``name`` (its key); ``KeyError`` when there is none."""
    return _BY_NAME[name]


def lookup(name: str) -> Metric | None:
    """The entry of a key, alias or title exactly as written (case and spaces aside), or None."""
    return _BY_NAME.get(name) or _INDEX.get(_norm(name))


def find(name: str) -> Metric | None:
    """The entry behind a figure's name as results show it, or ``None``.

    Accepts keys (``cohen_kappa``), aggregate names (``cohen_kappa_mean``), weighted-kappa and
    score variants (``weighted_kappa_linear_mean``, ``ceafe_f1``), dotted JSON paths
    (``overall.krippendorff_alpha.value``, ``word.ALL.pi``) and shown titles ("Cohen's κ").

    >>> find("scott_pi_mean").title
    "Scott's π"
    >>> find("word.ALL.alpha_nld").name
    'alpha_nld'
    """
    if not name:
        return None
    raw = str(name).strip()
    if raw in _CASE_SENSITIVE:
        return _BY_NAME["class_matching_d"]
    candidates = [raw]
    if "." in raw:  # a JSON path: try the most specific part first
        parts = [p for p in raw.split(".") if p and p not in _PATH_PARTS]
        candidates = list(reversed(parts)) + [raw]
    for cand in candidates:
        key = _norm(cand)
        for variant in (key, _DERIVED.sub("", key)):
            m = _INDEX.get(variant) or _PARTS.get(variant)
            if m is not None:
                return m
        if key.startswith("weighted_kappa"):
            return _BY_NAME[
                "weighted_kappa_quadratic" if "quadratic" in key else "weighted_kappa_linear"
            ]
    return None


def explained(metric: Metric) -> Metric:
    """The entry whose help text ``metric`` shows (itself, or the one it shares it with)."""
    return _BY_NAME[metric.help_from] if metric.help_from else metric


def tooltip(name: str) -> str:
    """The explanation of the figure behind ``name`` as plain text ("" when it is none)."""
    m = find(name)
    return explained(m).text() if m else ""


def title(name: str) -> str:
    """Display title of a figure or result column name; the name itself when unknown.

    >>> title("cohen_kappa_mean")
    "Cohen's κ (mean over pairs)"
    >>> title("spearman_vs_others_all")
    'Spearman ρ against the others (all)'
    >>> title("muc_f1"), title("n_items")
    ('MUC F1', 'Items')
    """
    if name in COLUMN_TITLES:
        return COLUMN_TITLES[name]
    m = lookup(name)
    if m is not None:
        return m.title
    for suffix, text in SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return title(name[: -len(suffix)]) + text
    for prefix, text in PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            return text + name[len(prefix) :].replace("_", " ")
    return name


def known(name: str) -> bool:
    """Whether the catalogue knows what a result column or JSON key called ``name`` holds: a
    figure (or a part or aggregate of one), a column of its own, or a count (``n_items``,
    ``n Lena``)."""
    if find(name) is not None or name in COLUMN_TITLES or name.startswith(COUNT_PREFIXES):
        return True
    # an aggregate or part of a known column (``n_items_filtered``, ``exact_f1_macro_sd``)
    return any(
        name.endswith(suffix) and len(name) > len(suffix) and known(name[: -len(suffix)])
        for suffix, _text in SUFFIXES
    )


def coded_metrics(scope: Scope | None = None) -> Iterator[Metric]:
    """Coefficients of coded items (``inputs == "codes"``) with a function."""
    for m in CATALOGUE:
        if m.inputs == "codes" and m.function is not None and scope in (None, m.scope):
            yield m


def range_checks() -> tuple[dict[str, tuple[float, float]], dict[str, str], frozenset[str]]:
    """What :class:`~iaa_desktop.core.metrics.result.AgreementResult` checks, by result name:
    the range every value lies in, the title used in messages, and the names whose observed and
    expected terms are agreements in [0, 1]."""
    ranges: dict[str, tuple[float, float]] = {}
    titles: dict[str, str] = {}
    terms: set[str] = set()
    for m in CATALOGUE:
        for name in m.checked_as:
            ranges[name] = m.bounds or (-math.inf, math.inf)
            titles[name] = m.title
            if m.agreement_terms and name == m.name:
                terms.add(name)
    return ranges, titles, frozenset(terms)


install_range_checks(range_checks())  # every result is checked against these ranges

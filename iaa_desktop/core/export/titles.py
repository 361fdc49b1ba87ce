"""Human titles and explanations of result columns, for the GUI's headers and the report's tables.

Titles of measures come from the metrics registry (:mod:`iaa_desktop.core.metrics.registry`,
``title(name)``) when it knows the name, else from the Measures text (:mod:`iaa_desktop.core.measures`),
so that a measure has one title everywhere; a column that is not a measure (``n_items``,
``ci_low``) is spelled out from its name. Explanations (header tooltips) are the Measures text.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: words written in capitals when a column name is spelled out
_ACRONYMS = {"ci", "pa", "id", "nld", "muc", "ceaf", "blanc", "lea", "sw", "trac", "iaa", "csv"}
#: short names that are symbols (coreference L, M, R, D, d; α, κ ...): shown as they are
_SYMBOL = re.compile(r"^[A-Za-z]$|^[^\x00-\x7f]{1,3}$")
_AGGREGATES = {"mean": "mean", "avg": "mean", "average": "mean", "median": "median"}


def _registry_title(name: str) -> str | None:
    try:
        from iaa_desktop.core.metrics import registry  # type: ignore[attr-defined]
    except ImportError:
        return None
    fn = getattr(registry, "title", None)
    if fn is None:
        return None
    try:
        t = fn(name)
    except (KeyError, ValueError, LookupError):
        return None
    return str(t) if t else None


@lru_cache(maxsize=4096)
def column_title(name: str) -> str:
    """The title to show for a column or metric called ``name``.

    >>> column_title("cohen_kappa_mean")
    "Cohen's κ (mean)"
    >>> column_title("n_items")
    'N items'
    """
    raw = str(name)
    if _SYMBOL.match(raw) or " " in raw or not raw:
        return raw  # a symbol, or already written for people
    t = _registry_title(raw)
    if t:
        return t
    from iaa_desktop.core.measures import find

    base, _, tail = raw.rpartition("_")
    if base and tail in _AGGREGATES:
        inner = _registry_title(base) or (find(base).title if find(base) else None)
        if inner:
            return f"{inner} ({_AGGREGATES[tail]})"
    m = find(raw)
    if m is not None and _same_measure(raw, m.key, m.aliases):
        return m.title
    return spell_out(raw)


def _same_measure(name: str, key: str, aliases: tuple[str, ...]) -> bool:
    n = name.lower()
    return n == key or n in (a.lower().replace(" ", "_") for a in aliases)


def spell_out(name: str) -> str:
    """``n_items`` → ``N items``, ``ci_low`` → ``CI low``, ``class_a`` → ``Class A``."""
    words = [w for w in re.split(r"[_\s]+", name) if w]
    out = []
    for k, w in enumerate(words):
        lw = w.lower()
        if lw in _ACRONYMS or (len(w) == 1 and k > 0):
            out.append(w.upper())
        elif k == 0:
            out.append(w[:1].upper() + w[1:])
        else:
            out.append(w)
    return " ".join(out)


@lru_cache(maxsize=4096)
def column_tooltip(name: str) -> str:
    """The explanation of a column: the Measures text of its measure ('' when it is none)."""
    from iaa_desktop.core.measures import tooltip

    return tooltip(str(name))

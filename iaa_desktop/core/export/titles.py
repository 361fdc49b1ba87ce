"""Human titles and explanations of result columns, for the GUI's headers and the report's tables.

Titles come from the metrics catalogue (:func:`iaa_desktop.core.metrics.catalogue.title`), so a
figure or column has one title everywhere; a name the catalogue does not know is spelled out
(``severity`` → ``Severity``). Explanations (header tooltips) are the catalogue's help text.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: words written in capitals when a column name is spelled out
_ACRONYMS = {"ci", "pa", "id", "nld", "muc", "ceaf", "blanc", "lea", "sw", "trac", "iaa", "csv"}
#: short names that are symbols (coreference L, M, R, D, d; α, κ ...): shown as they are
_SYMBOL = re.compile(r"^[A-Z]$|^d$|^[^\x00-\x7f]{1,3}$")


def _catalogue_title(name: str) -> str | None:
    from iaa_desktop.core.metrics.catalogue import title

    t = title(name)
    return t if t and t != name else None


@lru_cache(maxsize=4096)
def column_title(name: str) -> str:
    """The title to show for a column or metric called ``name``: the metrics catalogue's title,
    else the name spelled out (symbols and names already written for people stay as they are).

    >>> column_title("cohen_kappa_mean")
    "Cohen's κ (mean over pairs)"
    >>> column_title("n_items"), column_title("severity")
    ('Items', 'Severity')
    """
    raw = str(name)
    if not raw or _SYMBOL.match(raw):
        return raw  # a symbol (the matching's L, M, R, D, d; κ) stays a symbol in a header
    t = _catalogue_title(raw)
    if t:
        return t
    if " " in raw:
        return raw  # already written for people
    return spell_out(raw)


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
    """The explanation of a column: the catalogue's text of its figure ('' when it is none)."""
    from iaa_desktop.core.metrics.catalogue import tooltip

    return tooltip(str(name))

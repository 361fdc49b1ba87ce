"""What each figure means, in the app's own words: Help → Measures and the tooltips.

The text is the metrics catalogue's (:mod:`iaa_desktop.core.metrics.catalogue`): one entry per
figure with its explanation in four parts and its source. :data:`MEASURES` are the entries that
carry their own explanation, in the order of the help page; :func:`tooltip` maps any name used
in results (``cohen_kappa_mean``, ``weighted_kappa_linear``, ``ceafe``, ``alpha_nld``, a dotted
JSON path such as ``word.ALL.pi`` or a shown title such as "Cohen's κ") to the same text, so that
a figure's tooltip and its entry in Help → Measures never differ.

Qt-free: the GUI renders :func:`measures_html`; the report and the CLI may use the plain text.
"""

from __future__ import annotations

import html

from iaa_desktop.core.metrics.catalogue import CATALOGUE, Metric, explained, tooltip
from iaa_desktop.core.metrics.catalogue import find as _find

__all__ = ["MEASURES", "find", "measures_html", "tooltip"]

#: the entries of Help → Measures: every figure with an explanation of its own
MEASURES: tuple[Metric, ...] = tuple(m for m in CATALOGUE if m.help is not None)


def find(name: str) -> Metric | None:
    """The entry whose explanation the figure called ``name`` shows, or ``None``.

    >>> find("scott_pi_mean").title
    "Scott's π"
    >>> find("gwet_ac2_linear").key
    'gwet_ac2'
    """
    m = _find(name)
    return explained(m) if m is not None else None


def measures_html() -> str:
    """Every explained figure, grouped, as one rich-text page (Help → Measures)."""
    parts = [
        "<h2>Measures</h2><p>What each coefficient shown in the results means: what it corrects "
        "for, its range, when it misleads, and where it comes from. The same text is the tooltip "
        "of the measure in the results.</p>"
    ]
    group = None
    for m in MEASURES:
        if m.group != group:
            group = m.group
            parts.append(f"<h2>{html.escape(group)}</h2>")
        parts.append(m.html())
    return "\n".join(parts)

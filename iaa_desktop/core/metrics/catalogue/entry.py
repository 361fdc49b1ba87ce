"""One entry of the metrics catalogue: a figure the program shows and everything said about it.

A :class:`Metric` names the key used in result JSON and CSV columns (``cohen_kappa``,
``unitizing_alpha`` ...), its human title and symbol, the function that computes it (for
coefficients of coded items: ``f(codes, n_categories=None, weights=None) -> AgreementResult``),
its range, the properties the common tests check over the whole catalogue (as scikit-learn's
``test_common`` does: symmetry in the annotators, the range, perfect agreement = 1 for
chance-corrected coefficients, invariance under permutation of the items), its references and
the help text of Help → Measures and of the tooltips (:class:`Help`).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from iaa_desktop.core.metrics.result import AgreementResult

__all__ = ["CodedFunction", "FigureFunction", "Help", "Inputs", "Metric", "Scope"]

Scope = Literal["pair", "multi", "other"]
Inputs = Literal["codes", "values", "partitions", "units", "strings", "other"]
CodedFunction = Callable[..., AgreementResult]
#: the function of an entry; its signature is given by the entry's ``inputs`` (:mod:`.functions`)
FigureFunction = Callable[..., AgreementResult | float]

INF = math.inf


@dataclass(frozen=True, slots=True)
class Help:
    """What a figure means, in four parts and its source (Help → Measures and the tooltips)."""

    summary: str
    corrects_for: str
    range: str
    misleads: str
    reference: str


@dataclass(frozen=True, slots=True)
class Metric:
    """One figure and what holds for it.

    Attributes
    ----------
    name : key in result JSON and CSV columns (``cohen_kappa``)
    title : human title ("Cohen's κ")
    symbol : short symbol or table header ("κ", "αU")
    function : computes it; for ``inputs == "codes"`` the signature is
        ``f(codes, n_categories=None, weights=None) -> AgreementResult``; ``None`` for figures
        computed inside a kind of study (coreference scores, decompositions ...)
    inputs : ``codes`` (items × annotators category indices, -1 missing), ``values`` (items ×
        annotators floats, NaN missing), ``partitions`` (two entity labellings of one mention
        index), ``units`` (unitizing: begin, length, rater, category), ``strings`` (items ×
        annotators strings, ``None`` missing) or ``other``; the
        signature of ``function`` for each is given in :mod:`.functions`
    scope : ``pair`` (exactly two annotators), ``multi`` (any number) or ``other``
    symmetric : unchanged when the annotators are swapped or permuted
    bounds : (lo, hi) that every defined value lies in; ``None`` when not a coefficient
    chance_corrected : 0 = chance level and perfect agreement = 1
    level : the lowest level of measurement it needs (``nominal``, ``ordinal``, ``interval``) or
        ``any`` when the level is a parameter
    group : heading in the Measures help
    aliases : other names under which results show it
    parts : names of columns that are parts of it (an interval's bounds, a posterior's median):
        they show its explanation but keep titles of their own
    help : its explanation; ``None`` when it shares the one of ``help_from``
    help_from : the entry whose explanation it shows (several variants of one coefficient)
    checked_as : names of :class:`AgreementResult` values that must lie within ``bounds``
        (a value outside is a bug, never a result)
    agreement_terms : its ``observed`` and ``expected`` are agreements in [0, 1], so that
        (A_o − A_e)/(1 − A_e) is at least −A_e/(1 − A_e)
    """

    name: str
    title: str
    symbol: str
    function: FigureFunction | None = None
    inputs: Inputs = "codes"
    scope: Scope = "multi"
    symmetric: bool = True
    bounds: tuple[float, float] | None = (-1.0, 1.0)
    chance_corrected: bool = True
    level: str = "nominal"
    group: str = "Coded items"
    aliases: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    help: Help | None = None
    help_from: str | None = None
    checked_as: tuple[str, ...] = ()
    agreement_terms: bool = False

    @property
    def key(self) -> str:
        """The entry's name (the key of the Measures help's anchors)."""
        return self.name

    @property
    def summary(self) -> str:
        return self.help.summary if self.help else ""

    @property
    def reference(self) -> str:
        return self.help.reference if self.help else ""

    @property
    def corrects_for(self) -> str:
        return self.help.corrects_for if self.help else ""

    @property
    def range(self) -> str:
        """The range in words (``bounds`` holds it as numbers)."""
        return self.help.range if self.help else ""

    @property
    def misleads(self) -> str:
        return self.help.misleads if self.help else ""

    def text(self) -> str:
        """Plain text, a few short paragraphs: the tooltip of the figure ("" without help)."""
        h = self.help
        if h is None:
            return ""
        return (
            f"{self.title}: {h.summary}\n"
            f"Corrects for: {h.corrects_for}\n"
            f"Range: {h.range}\n"
            f"Misleads when: {h.misleads}\n"
            f"Source: {h.reference}"
        )

    def html(self) -> str:
        """The same text as rich text, for Help → Measures ("" without help)."""
        h = self.help
        if h is None:
            return ""
        e = html.escape
        return (
            f'<h3 id="{e(self.name)}">{e(self.title)}</h3>'
            f"<p>{e(h.summary)}</p>"
            f"<p><b>Corrects for:</b> {e(h.corrects_for)}<br/>"
            f"<b>Range:</b> {e(h.range)}<br/>"
            f"<b>Misleads when:</b> {e(h.misleads)}<br/>"
            f"<b>Source:</b> <i>{e(h.reference)}</i></p>"
        )

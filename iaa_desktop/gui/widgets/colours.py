"""Colours shared by every view: one colour per label value, and the disagreement severity ramp.

Label colours are light (text stays readable on them): a qualitative palette for unordered labels
(ColorBrewer Set3 and Pastel1, Harrower & Brewer 2003) and a sequential ramp for the values of an
ordered scale, so that 4 and 5 look alike and 1 and 5 do not. Severity runs from a pale yellow
(a slight disagreement) to a strong red (the largest disagreement the scale allows).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtGui import QColor

#: ColorBrewer Set3 (12) then Pastel1 (9): light qualitative colours
QUALITATIVE = (
    "#8dd3c7",
    "#ffffb3",
    "#bebada",
    "#fb8072",
    "#80b1d3",
    "#fdb462",
    "#b3de69",
    "#fccde5",
    "#d9d9d9",
    "#bc80bd",
    "#ccebc5",
    "#ffed6f",
    "#fbb4ae",
    "#b3cde3",
    "#decbe4",
    "#fed9a6",
    "#e5d8bd",
    "#fddaec",
    "#f2f2f2",
)
#: light backgrounds of labelled text (coreference classes, span labels): marks drawn on them (text
#: colour, underline) stay readable on every one
MARKABLE = (
    "#8dd3c7",
    "#ffffb3",
    "#bebada",
    "#fbb4ae",
    "#b3cde3",
    "#fed9a6",
    "#b3de69",
    "#fccde5",
    "#decbe4",
    "#ccebc5",
    "#ffed6f",
    "#a6cee3",
    "#b2df8a",
    "#fdbf6f",
    "#cab2d6",
    "#e5c494",
)
#: light end of ColorBrewer YlGnBu: the values of an ordered scale, lowest first
ORDERED_STOPS = ((0.0, 255, 255, 217), (0.5, 161, 218, 180), (1.0, 65, 182, 196))
#: severity 0 → 1: pale yellow, orange, red (ColorBrewer YlOrRd)
SEVERITY_STOPS = ((0.0, 255, 247, 188), (0.5, 254, 178, 76), (1.0, 227, 26, 28))
NO_VALUE = QColor("#ffffff")


def ramp(t: float, stops: Sequence[tuple[float, int, int, int]]) -> QColor:
    """Linear interpolation between colour stops ``(position, r, g, b)``."""
    t = min(1.0, max(0.0, float(t)))
    for (p0, *c0), (p1, *c1) in zip(stops, stops[1:]):
        if t <= p1:
            f = 0.0 if p1 == p0 else (t - p0) / (p1 - p0)
            return QColor(*(round(a + (b - a) * f) for a, b in zip(c0, c1)))
    return QColor(*stops[-1][1:])


def severity_colour(t: float) -> QColor:
    """Background of a row whose disagreement severity is ``t`` (0..1), light enough for text."""
    t = min(1.0, max(0.0, float(t)))
    c = ramp(t, SEVERITY_STOPS)
    c.setAlpha(int(40 + 110 * t))
    return c


class ValueColours:
    """One colour per label value. ``ordered`` values (a scale) get a ramp in their order."""

    def __init__(self, values: Iterable[object] = (), ordered: bool = False) -> None:
        seen: list[str] = []
        for v in values:
            s = _key(v)
            if s and s not in seen:
                seen.append(s)
        if ordered:
            seen.sort(key=_scale_key)
        self.ordered = ordered
        self.values = seen
        n = len(seen)
        self._map = {
            v: (
                ramp(k / max(1, n - 1), ORDERED_STOPS)
                if ordered
                else QColor(QUALITATIVE[k % len(QUALITATIVE)])
            )
            for k, v in enumerate(seen)
        }

    def colour(self, value: object) -> QColor | None:
        return self._map.get(_key(value))

    def hex(self, value: object) -> str:
        c = self.colour(value)
        return c.name() if c is not None else "#ffffff"

    def legend_html(self, limit: int = 12) -> str:
        """Swatches of the first ``limit`` values."""
        import html

        parts = [
            f"<span style='background:{self._map[v].name()}'>&nbsp;{html.escape(v)}&nbsp;</span>"
            for v in self.values[:limit]
        ]
        more = f" … {len(self.values) - limit} more" if len(self.values) > limit else ""
        return " ".join(parts) + more


def _key(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        if v != v:  # NaN: no value
            return ""
        if v.is_integer():
            return str(int(v))
    return str(v)


def _scale_key(s: str) -> tuple[int, float, str]:
    try:
        return (0, float(s), s)
    except ValueError:
        return (1, 0.0, s)

"""Mentions drawn in their text as nested rich-text spans (Qt's HTML subset; no Qt here).

A mention inside another (``her`` in ``her mother-in-law``) is drawn inside it: every mention
opens with a thin bracket in its colour and closes with a bracket and its label, so nested and
overlapping mentions all show, as brat and INCEpTION draw them. Offsets are code points;
overlapping (crossing) mentions are closed and reopened at the crossing, so the HTML stays
well-formed.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Mark:
    """One mention to draw: ``[start, end)`` in the text, its style and what it shows."""

    start: int
    end: int
    colour: str  # background
    label: str = ""  # small text after the closing bracket (class name, versions …)
    tip: str = ""  # tooltip
    href: str = ""  # link target (a click on the mention)
    style: str = ""  # extra CSS (text colour, underline …)
    anchor: str = ""  # name of an anchor placed at the start
    brackets: bool = True  # draw [ ] around it (needed where mentions nest or cross)


def render(text: str, marks: Sequence[Mark], lo: int = 0, hi: int | None = None) -> str:
    """HTML of ``text[lo:hi]`` with every mark inside it drawn (see the module docstring)."""
    hi = len(text) if hi is None else hi
    inside = [m for m in marks if lo <= m.start < hi and m.start < m.end <= len(text)]
    # events: at each position, close the marks ending there, then open the ones starting
    starts: dict[int, list[Mark]] = {}
    for m in inside:
        starts.setdefault(m.start, []).append(m)
    cuts = sorted({lo, hi, *(m.start for m in inside), *(min(m.end, hi) for m in inside)})
    out: list[str] = []
    stack: list[Mark] = []
    for a, b in zip(cuts, cuts[1:]):
        # close what ends at a (and reopen what must stay open above a closing inner mark)
        ending = [m for m in stack if m.end <= a]
        if ending:
            keep = [m for m in stack if m.end > a]
            for m in reversed(stack):
                out.append(_close(m, m in ending))
            stack = []
            for m in keep:
                out.append(_open(m, reopened=True))
                stack.append(m)
        for m in sorted(starts.get(a, []), key=lambda m: -m.end):
            out.append(_open(m))
            stack.append(m)
        out.append(html.escape(text[a:b]).replace("\n", "<br/>"))
    for m in reversed(stack):
        out.append(_close(m, m.end <= hi))
    return "".join(out)


def _open(m: Mark, reopened: bool = False) -> str:
    tip = f" title='{html.escape(m.tip, quote=True)}'" if m.tip else ""
    anchor = f"<a name='{m.anchor}'></a>" if m.anchor and not reopened else ""
    bracket = (
        "" if reopened or not m.brackets else "<span style='color:#555; font-size:small'>[</span>"
    )
    link = (
        f"<a href='{html.escape(m.href, quote=True)}' style='color:#000; text-decoration:none'>"
        if m.href
        else ""
    )
    return f"{anchor}<span style='background-color:{m.colour};{m.style}'{tip}>{bracket}{link}"


def _close(m: Mark, last: bool) -> str:
    link = "</a>" if m.href else ""
    if not last:
        return f"{link}</span>"
    # a subscript is small already; "small" on top of it left a 6-pixel name (unreadable on a
    # projector): the subscript's own size, which follows the zoom
    label = f"<sub style='color:#333'>{html.escape(m.label)}</sub>" if m.label else ""
    bracket = "<span style='color:#555; font-size:small'>]</span>" if m.brackets else ""
    return f"{link}{bracket}{label}</span>"


def nesting(spans: Sequence[tuple[int, int]]) -> list[bool]:
    """For each span, whether it contains, lies inside or crosses another one."""
    order = sorted(range(len(spans)), key=lambda k: (spans[k][0], -spans[k][1]))
    out = [False] * len(spans)
    end, owner = -1, -1
    for k in order:
        s, e = spans[k]
        if s < end:
            out[k] = True
            out[owner] = True
        if e > end:
            end, owner = e, k
    return out


def line_starts(text: str) -> list[int]:
    return [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]


def context_lines(
    text: str,
    marks: Sequence[Mark],
    focus: Sequence[tuple[int, int]],
    around: int = 1,
) -> str:
    """The lines holding ``focus`` spans (± ``around`` lines), each as a paragraph with the marks
    drawn; lines are numbered as in the file."""
    import bisect

    starts = line_starts(text)
    wanted: set[int] = set()
    for s, _e in focus:
        ln = bisect.bisect_right(starts, s) - 1
        wanted.update(range(ln - around, ln + around + 1))
    out = []
    last = -2
    for ln in sorted(x for x in wanted if 0 <= x < len(starts)):
        lo = starts[ln]
        hi = starts[ln + 1] - 1 if ln + 1 < len(starts) else len(text)
        if ln != last + 1 and out:
            out.append("<p style='color:#999; margin:0'>…</p>")
        body = f"<span style='color:#999; font-size:small'>{ln + 1}&nbsp;</span>" + render(
            text, marks, lo, hi
        )
        rtl = _rtl(text[lo:hi])
        out.append(
            f"<p dir='{'rtl' if rtl else 'ltr'}' align='{'right' if rtl else 'left'}' "
            f"style='margin:2px; line-height:160%'>{body}</p>"
        )
        last = ln
    return "".join(out)


def _rtl(text: str) -> bool:
    from iaa_desktop.core.adjudication.context_html import is_rtl

    return is_rtl(text)


def line_of(text: str, pos: int) -> int:
    """1-based line number of character ``pos``."""
    return text.count("\n", 0, max(0, pos)) + 1

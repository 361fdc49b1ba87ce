"""One annotator's document as rich text: every mention in its class colour, nested mentions drawn
inside their outer mention (brackets where mentions nest or cross), marks for disagreements."""

from __future__ import annotations

from typing import Any

from iaa_desktop.core.kinds.coref.marks import Mark, nesting, render
from iaa_desktop.core.kinds.coref.source_text import display_layout
from iaa_desktop.gui.widgets.text import direction

ONLY_ONE = "#c00000"  # a mention only this annotator has: red, italic, underlined
OTHER_CLASS = "#1f3fbf"  # in a class matched to a different one: blue, underlined
SINGLETON = "#e6e6e6"
UNMATCHED = "#d9d9d9"  # a class with no partner sharing a mention: grey on either side


def render_document(
    doc: Any,
    class_of: dict,
    colour_of: dict,
    marks: dict,
    selected: set,
    side: str,
    other_side: dict | None = None,
) -> str:
    """HTML of a document with every mention as a coloured span (offsets are code points).

    ``class_of`` mention → class name, ``colour_of`` class → colour, ``marks`` mention →
    ``"only"`` / ``"other"``, ``selected`` mentions drawn bold, ``other_side`` mention → its class
    on the other annotator's side (for the tooltip).
    """
    text, tokens = display_layout(doc)
    other_side = other_side or {}
    # CoNLL formats count tokens: each mention drawn over its tokens' characters
    at = {m: char_span(m, tokens) for m in doc.mentions}
    mentions = [m for m in doc.mentions if 0 <= at[m][0] < at[m][1] <= len(text)]
    nested = nesting([at[m] for m in mentions])
    out = []
    for m, is_nested in zip(mentions, nested):
        cls = class_of.get(m, "S")
        style = ""
        mark = marks.get(m)
        # Qt's rich text has no borders: colour and underline carry the marks
        if mark == "only":
            style += f"color:{ONLY_ONE}; text-decoration:underline; font-style:italic;"
        elif mark == "other":
            style += f"color:{OTHER_CLASS}; text-decoration:underline;"
        if m in selected:
            style += "font-weight:bold; text-decoration:underline;"
        tip = f"{side}: {cls}; other annotator: {other_side.get(m, '— (no such mention)')}" + (
            " — only this annotator has it" if mark == "only" else ""
        )
        out.append(
            Mark(
                at[m][0],
                at[m][1],
                colour_of.get(cls, SINGLETON),
                cls if is_nested else "",
                tip,
                "",
                style,
                anchor=f"m{m[1]}_{m[2]}",
                brackets=is_nested,
            )
        )
    body = render(text, out)
    return f"<div dir='{direction(text)}' style='font-size:large; line-height:150%'>{body}</div>"


def char_span(m: Any, tokens: list[tuple[int, int]] | None) -> tuple[int, int]:
    """A mention's characters: its offsets, or its first token's start to its last token's end."""
    if tokens is None:
        return m[1], m[2]
    if not 0 <= m[1] < m[2] <= len(tokens):
        return -1, -1
    return tokens[m[1]][0], tokens[m[2] - 1][1]

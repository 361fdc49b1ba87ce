"""The context of a coreference unit in the adjudication panel: the lines of the document that
hold its mentions, with every annotator's mentions drawn (nested ones inside their outer mention),
the unit's mentions coloured by how many versions hold them and clickable (a click adds the
mention to the decided chain or removes it: the choice per mention)."""

from __future__ import annotations

import html
from typing import Any

from iaa_desktop.core.kinds.coref.gold_values import KEEP, decode_class
from iaa_desktop.core.kinds.coref.marks import Mark, context_lines

ALL = "#b7e4b7"  # in every version
SOME = "#ffd3a6"  # in some versions
CHOSEN = "#7fc8f8"  # in the decided chain
LEFT_OUT = "#f4c2c2"  # a mention of the versions the decided chain leaves out (struck through)
OTHER = "#eeeeee"  # another mention on the line


def _mention_key(m: Any) -> str:
    return f"mention:{m[0]} {m[1]} {m[2]}"


def unit_html(model: Any, i: int, names: list[str], current: str | None = None) -> str:
    """See the module docstring; ``names`` are the shown names per annotator column."""
    u = model.units[i]
    doc = model.docs[u.doc]
    present = [x for x, a in enumerate(doc.annotations) if a is not None]
    if u.kind == "mention":
        focus = {u.mention}
        holders = {u.mention: [x for x in present if u.mention in doc.annotations[x].mentions]}
    else:
        focus = set(u.union)
        holders = {
            m: [x for x, c in enumerate(u.classes) if c is not None and m in c] for m in focus
        }
    chosen: frozenset[Any] = frozenset()
    decided = current is not None
    if current and u.kind == "group":
        chosen = decode_class(current)
    elif current == KEEP and u.kind != "group":
        chosen = frozenset(focus)
    marks = []
    everyone = set().union(*(doc.annotations[x].mentions for x in present))
    for m in everyone:
        s, e = doc.char_span(m)
        if m in focus:
            who = holders.get(m, [])
            left_out = decided and m not in chosen
            colour = (
                CHOSEN
                if m in chosen
                else LEFT_OUT
                if left_out
                else (ALL if len(who) == len(present) else SOME)
            )
            label = "" if len(who) == len(present) else ",".join(names[x] for x in who)
            tip = "in the versions of: " + (", ".join(names[x] for x in who) or "none")
            if left_out:
                tip += " — left out of the decided chain"
            if u.kind == "group":
                tip += " — click to add it to the chain or take it out"
            else:
                tip += " — click to keep it or drop it"
            marks.append(
                Mark(
                    s,
                    e,
                    colour,
                    label,
                    tip,
                    _mention_key(m),
                    "font-weight:bold;" + ("text-decoration:line-through;" if left_out else ""),
                    anchor=f"m{s}_{e}",
                )
            )
        else:
            marks.append(Mark(s, e, OTHER, "", "another mention"))
    spans = [doc.char_span(m) for m in focus]
    what = {
        "group": "chain",
        "class": "chain only one annotator has",
        "mention": "mention not every annotator has",
    }[u.kind]
    legend = (
        f"<p><b>{html.escape(doc.name)}</b> — {what} &nbsp; "
        f"<span style='background:{ALL}'>&nbsp;in every version&nbsp;</span> "
        f"<span style='background:{SOME}'>&nbsp;in some (names after ])&nbsp;</span> "
        f"<span style='background:{CHOSEN}'>&nbsp;in the decision&nbsp;</span> "
        f"<span style='background:{LEFT_OUT};text-decoration:line-through'>&nbsp;left out of "
        "the decision&nbsp;</span> "
        f"<span style='background:{OTHER}'>&nbsp;other mention&nbsp;</span><br/>[ ] bound a "
        "mention, a nested mention inside its outer one; the number before a line is its line in "
        "the file</p>"
    )
    body = context_lines(doc.text, marks, spans) if doc.text else _no_text(doc, focus)
    return legend + body + _membership(model, u, doc, names)


def _no_text(doc: Any, focus: set[Any]) -> str:
    items = ", ".join(html.escape(doc.label(m)) for m in sorted(focus, key=lambda m: m[1]))
    return f"<p>{items}</p>"


def _membership(model: Any, u: Any, doc: Any, names: list[str]) -> str:
    """For a mention unit: which chain each annotator put it in."""
    if u.kind != "mention":
        return ""
    rows = []
    for x, a in enumerate(doc.annotations):
        if a is None:
            continue
        if u.mention not in a.mentions:
            where = "<i>does not mark it</i>"
        else:
            chain = next((c for c in a.classes if u.mention in c), None)
            where = (
                "in no chain (a singleton)"
                if chain is None
                else "in the chain "
                + ", ".join(
                    html.escape(doc.surface(m)) for m in sorted(chain, key=lambda m: m[1])[:6]
                )
            )
        rows.append(f"<tr><td>{html.escape(names[x])}</td><td>{where}</td></tr>")
    return "<table cellpadding='2'>" + "".join(rows) + "</table>"

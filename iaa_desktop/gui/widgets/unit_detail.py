"""Rich text of one unit: what was annotated (text, metadata, notes) and every annotator's label
side by side, each label value in its colour (the same colours as in the lists)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from iaa_desktop.core.adjudication.context_html import context_block
from iaa_desktop.gui.widgets.colours import ValueColours
from iaa_desktop.gui.widgets.short_text import PASSAGE_CHARS, TEXT_CHARS
from iaa_desktop.gui.widgets.short_text import shown as short
from iaa_desktop.gui.widgets.text import direction

NO_LABEL = "—"


def labels_html(
    names: Sequence[str],
    values: Sequence[object],
    colours: ValueColours,
    links: Sequence[str] | None = None,
    caption: str = "",
) -> str:
    """A table: one row per annotator, the label in its value's colour (``—`` = no label).

    ``links`` (one per row, ``""`` = none) make the labels clickable (``href``).
    """
    rows = []
    for k, (name, value) in enumerate(zip(names, values)):
        shown = "" if value is None else short(str(value), TEXT_CHARS)
        if shown in ("", "nan"):
            cell = f"<td style='color:#888'>{NO_LABEL} <i>(not labelled)</i></td>"
        else:
            text = html.escape(shown)
            href = links[k] if links is not None and k < len(links) else ""
            if href:
                text = f"<a href='{html.escape(href)}' style='color:#000'>{text}</a>"
            cell = (
                f"<td dir='{direction(shown)}' style='background:{colours.hex(value)}'>"
                f"&nbsp;{text}&nbsp;</td>"
            )
        rows.append(f"<tr><td style='color:#333'>{html.escape(short(str(name)))}</td>{cell}</tr>")
    cap = f"<p style='color:#555'>{html.escape(caption)}</p>" if caption else ""
    return (
        cap
        + "<table cellspacing='0' cellpadding='3' border='0' style='margin-top:4px'>"
        + "".join(rows)
        + "</table>"
    )


def unit_html(
    heading: str,
    context: Sequence[tuple[str, str]],
    notes: Sequence[tuple[str, str, str]],
    names: Sequence[str],
    values: Sequence[object],
    colours: ValueColours,
    footer: str = "",
) -> str:
    """Heading, text and metadata, notes, then the labels side by side and a footer line."""
    # a name, a label or a text of a megabyte is shown shortened (the data keeps it whole)
    context = [(k, short(v, PASSAGE_CHARS)) for k, v in context]
    out = [context_block(short(heading), context, notes), labels_html(names, values, colours)]
    if footer:
        out.append(f"<p style='color:#444'>{html.escape(footer)}</p>")
    return "".join(out)

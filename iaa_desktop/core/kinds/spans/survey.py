"""What the import dialog shows of a spans study: annotators' documents and their spans."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from iaa_desktop.core.kinds.arrange import Arrangement, arrange_annotator_folders, is_mention_table
from iaa_desktop.core.kinds.spec import GivenOptions, unique_name
from iaa_desktop.core.kinds.survey import Survey, documents_survey, plural, source

TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".xlsx")


def survey(inputs: list[Path], opts: GivenOptions) -> Survey:
    """Each annotator's documents and their spans, read as the comparison will."""
    from iaa_desktop.core.kinds.spans.loading import inputs_read
    from iaa_desktop.core.kinds.spans.options import SpansOptions
    from iaa_desktop.core.kinds.spans.timed import tiers_survey

    chosen = SpansOptions.resolve(opts)
    errors: list[Any] = []
    by_annotator: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    for p, found in inputs_read([Path(p) for p in inputs], chosen, errors):
        for who, docs in found.items():
            name = unique_name(who, by_annotator)  # the kind's own rule
            by_annotator[name] = docs
            sources[name] = tiers_survey(docs) or source(Path(p))
    out = documents_survey(
        by_annotator,
        sources,
        lambda d: plural(len(d.spans), "span"),
        "labelled spans per document",
        errors,
    )
    from iaa_desktop.core.kinds.spans.timed import is_timed_input, tier_hints

    timed = [Path(p) for p in inputs if is_timed_input(Path(p))]
    notes = tuple(
        f"{h['file']}: tier ‘\u2068{h['tier']}\u2069’ ({h['units']} units"
        + (f", participant {h['participant']}" if h["participant"] else "")
        + (f", annotator {h['annotator']}" if h["annotator"] else "")
        + ")"
        for h in tier_hints(timed, chosen.encoding or None)[:60]
    )
    if notes:
        notes += (
            "Which tier is which annotator: the setting ‘Tiers → annotators’ "
            "(TIER=ANNOTATOR,…; unmapped tiers are ignored).",
        )
    return replace(
        out,
        annotators=tuple(a for a in out.annotators if by_annotator[a.name]),
        notes=out.notes + notes,
    )


def _is_span_input(f: Path) -> bool:
    """brat, a span table or a tool's export the spans kind reads."""
    if f.suffix == ".ann" or f.suffix.lower() in TABLE_SUFFIXES or is_mention_table(f):
        return True
    from iaa_desktop.core.kinds.spans.tools import file_format

    try:
        return file_format(f) is not None
    except (OSError, ValueError):
        return False


def arrange(paths: list[Path]) -> Arrangement:
    """brat: one folder per annotator; anything else as picked (a folder of annotators' folders,
    tables and tool exports name their annotators themselves)."""
    if any(p.suffix in (".ann", ".txt") for p in paths):
        return arrange_annotator_folders(
            paths, _is_span_input, "span", ".ann, a span table or a tool's export"
        )
    return list(paths), [], []

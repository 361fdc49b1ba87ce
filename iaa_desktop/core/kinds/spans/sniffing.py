"""How sure the spans kind is that some inputs are span annotations."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def _ann_files(p: Path) -> list[Path]:
    if p.is_file():
        return [p] if p.suffix == ".ann" else []
    found = sorted(p.glob("*.ann"))[:20]
    if not found:
        for sub in sorted(x for x in p.iterdir() if x.is_dir())[:10]:
            found.extend(sorted(sub.glob("*.ann"))[:5])
    return found


def _links_mentions(ann: Path) -> bool:
    """True when the file links mentions into chains (coreference), as the coref kind reads them."""
    from iaa_desktop.core.textio import read_head

    for line in read_head(ann, 200_000).splitlines():
        if line.startswith("*") or (line.startswith("R") and "Coreference" in line):
            return True
    return False


def _tool_score(f: Path) -> float | None:
    """0.96 for a tool's export of spans, ``None`` for one of coreference chains, else 0."""
    from iaa_desktop.core.kinds.spans.tools import export_kind, file_format

    fmt = file_format(f)
    if fmt is None:
        return 0.0
    kind = export_kind(f, fmt)
    return None if kind == "coref" else (0.96 if kind == "spans" else 0.0)


def _table_score(f: Path) -> float:
    from iaa_desktop.core.kinds.spans.readers import COLUMN_NAMES

    if f.suffix.lower() not in (".csv", ".tsv", ".tab"):
        return 0.0
    from iaa_desktop.core.textio import read_head

    lines = read_head(f, 65536).splitlines()
    if not lines:
        return 0.0
    header = lines[0].lower()
    cols = {c.strip().strip('"') for c in header.replace("\t", ",").replace(";", ",").split(",")}
    return 0.9 if all(cols & set(COLUMN_NAMES[r]) for r in ("start", "end", "label")) else 0.0


def _candidates(p: Path) -> list[Path]:
    if p.is_file():
        return [p]
    files = [f for f in sorted(p.iterdir()) if f.is_file() and not f.name.startswith(".")][:20]
    if not any(f.suffix.lower() not in (".txt", ".conf") for f in files):
        for sub in sorted(x for x in p.iterdir() if x.is_dir())[:10]:
            files.extend(sorted(f for f in sub.iterdir() if f.is_file())[:5])
    return [f for f in files if f.suffix.lower() not in (".txt", ".conf")]


def sniff(inputs: Sequence[Path]) -> float:
    """0.97 for ELAN and Praat files (time-aligned tiers) and for brat files without coreference links (the coref kind claims those at 0.95);
    0.96 for a tool's export of spans (WebAnno/INCEpTION TSV 3.x and INCEpTION exports without a
    chain layer, Label Studio/doccano/Prodigy exports with span results — the table kind takes
    those with choices or ratings); 0.9 for a table with start, end and label columns; else 0.
    """
    from iaa_desktop.core.kinds.spans.timed import is_timed_input

    score = 0.0
    for p in map(Path, inputs):
        if is_timed_input(p):  # ELAN or Praat tiers: units in time
            score = max(score, 0.97)
            continue
        anns = _ann_files(p)
        if anns:
            if any(_links_mentions(a) for a in anns):
                return 0.0
            score = max(score, 0.97)
            continue
        if not p.exists():
            continue
        for f in _candidates(p):
            tool = _tool_score(f)
            if tool is None:
                return 0.0  # coreference chains: a coreference study
            score = max(score, tool or _table_score(f))
    return score

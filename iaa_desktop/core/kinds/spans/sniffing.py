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
    try:
        head = ann.read_text(encoding="utf-8", errors="replace")[:200_000]
    except OSError:
        return False
    for line in head.splitlines():
        if line.startswith("*") or (line.startswith("R") and "Coreference" in line):
            return True
    return False


def sniff(inputs: Sequence[Path]) -> float:
    """0.97 for brat files without coreference links (the coref kind claims those at 0.95),
    0.9 for a table with start, end and label columns, else 0."""
    from iaa_desktop.core.kinds.spans.readers import COLUMN_NAMES

    score = 0.0
    for p in map(Path, inputs):
        anns = _ann_files(p)
        if anns:
            if any(_links_mentions(a) for a in anns):
                return 0.0
            score = max(score, 0.97)
            continue
        files = [p] if p.is_file() else sorted(p.glob("*"))[:20]
        for f in files:
            if f.suffix.lower() not in (".csv", ".tsv", ".tab"):
                continue
            try:
                header = f.read_text(encoding="utf-8", errors="replace").splitlines()[0].lower()
            except (OSError, IndexError):
                continue
            cols = {
                c.strip().strip('"') for c in header.replace("\t", ",").replace(";", ",").split(",")
            }
            if all(cols & set(COLUMN_NAMES[r]) for r in ("start", "end", "label")):
                score = max(score, 0.9)
    return score

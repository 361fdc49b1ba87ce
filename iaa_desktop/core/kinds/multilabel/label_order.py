"""The order of labels a multi-label table implies: as written in its cells, ids naturally."""

from __future__ import annotations

import re
from collections.abc import Sequence


def natural_key(s: str) -> list[object]:
    """``A2`` before ``A10``: digit runs compare by value (as their length, then their digits:
    no conversion to int, so an id of thousands of digits sorts like any other)."""
    parts: list[object] = []
    for k, t in enumerate(re.split(r"([0-9]+)", s)):
        if k % 2:
            digits = t.lstrip("0")
            parts.append((len(digits), digits, t))
        else:
            parts.append(t)
    return parts


def infer_label_order(label_lists: Sequence[Sequence[str]]) -> list[str]:
    """Label order implied by how the sets are written.

    Cells are usually written in a fixed order (``Complication;Resolution;Success``); a label
    that appears before another within a cell comes first. Ties and contradictions are broken by
    first appearance in the file.
    """
    first_seen: dict[str, int] = {}
    before: dict[str, set[str]] = {}
    for labs in label_lists:
        for i, a in enumerate(labs):
            first_seen.setdefault(a, len(first_seen))
            before.setdefault(a, set())
            for b in labs[i + 1 :]:
                before[a].add(b)
    order: list[str] = []
    remaining = set(first_seen)
    while remaining:
        # labels that no remaining label strictly precedes (contradicting pairs do not count)
        free = [
            a
            for a in remaining
            if not any(a in before[b] and b not in before[a] for b in remaining if b != a)
        ]
        pick = min(free or remaining, key=lambda a: first_seen[a])
        order.append(pick)
        remaining.discard(pick)
    return order

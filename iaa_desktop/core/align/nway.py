r"""Matching the coreference classes of N annotators into groups (one class per annotator at most).

Two annotators are matched by a minimum-cost assignment (:mod:`.class_matching`). For N, each
annotator in turn is matched against the groups built so far: the cost of putting class *c* into
group *g* is :math:`|c \triangle U_g|`, with :math:`U_g` the union of the group's classes (ties
broken by the larger overlap, as for two annotators); a class that overlaps no group, or loses the
assignment, starts a group of its own. This is the progressive ("star") alignment used for
multiple coreference annotations (e.g. the adjudication of several annotators' chains in
INCEpTION's curation), deterministic for a given annotator order. Groups are returned in the order
of their first mention.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

Group = tuple[int | None, ...]  # per annotator: the index of its class in the group, or None


def match_n_way(
    classes: Sequence[Sequence[frozenset[Hashable]]],
    pairs: Sequence[tuple[int, int]] | None = None,
    position: dict[Hashable, tuple[int, ...]] | None = None,
) -> list[Group]:
    """Groups of matched classes of every annotator (see the module docstring).

    Parameters
    ----------
    classes : per annotator, its classes (sets of mentions)
    pairs : for two annotators, the matched class pairs to use (e.g. the comparison's own rows)
    position : sort key of a mention (its offsets); groups are ordered by their first mention
    """
    n = len(classes)
    groups: list[list[int | None]] = []
    unions: list[set[Hashable]] = []
    if n == 2 and pairs is not None:
        for i, j in pairs:
            groups.append([i, j])
            unions.append(set(classes[0][i]) | set(classes[1][j]))
        for x in (0, 1):
            taken = {g[x] for g in groups}
            for k, c in enumerate(classes[x]):
                if k not in taken:
                    g: list[int | None] = [None, None]
                    g[x] = k
                    groups.append(g)
                    unions.append(set(c))
    else:
        for x, cls in enumerate(classes):
            assigned = _assign(cls, unions)
            for k, c in enumerate(cls):
                gi = assigned.get(k)
                if gi is None:
                    groups.append([None] * n)
                    unions.append(set())
                    gi = len(groups) - 1
                groups[gi][x] = k
                unions[gi] |= set(c)
    out = [tuple(g) for g in groups]
    if position is not None:
        order = sorted(
            range(len(out)),
            key=lambda k: min((position.get(m, (0,)) for m in unions[k]), default=(0,)),
        )
        out = [out[k] for k in order]
    return out


def _assign(cls: Sequence[frozenset[Hashable]], unions: list[set[Hashable]]) -> dict[int, int]:
    """Class index → group index of a minimum-|c △ U| assignment among overlapping pairs."""
    if not cls or not unions:
        return {}
    from scipy.optimize import linear_sum_assignment

    inter = np.array([[len(c & u) for u in unions] for c in cls], dtype=float)
    if not inter.any():
        return {}
    size_c = np.array([len(c) for c in cls], dtype=float)[:, None]
    size_u = np.array([len(u) for u in unions], dtype=float)[None, :]
    big = float(size_c.sum() + size_u.sum() + 1)
    cost = (size_c + size_u - 2 * inter) * big - inter
    rows, cols = linear_sum_assignment(cost)
    return {int(r): int(c) for r, c in zip(rows, cols) if inter[r, c] > 0}


def group_disagreement(members: Sequence[frozenset[Hashable]]) -> float:
    """1 − the mean Jaccard similarity of the group's classes over pairs of annotators (an
    annotator without a class in the group counts as the empty class); 0 when all agree."""
    k = len(members)
    if k < 2:
        return 0.0
    sims = []
    for a in range(k):
        for b in range(a + 1, k):
            union = members[a] | members[b]
            sims.append(len(members[a] & members[b]) / len(union) if union else 1.0)
    return float(1.0 - np.mean(sims))

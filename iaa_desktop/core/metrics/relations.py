r"""Agreement on relations between spans: relation F1 under two matching rules, and the kind of
each disagreement.

A relation is ``(label, source, target)``, its arguments given by their character fragments
(tuples of ``(start, end)``, end exclusive). Relations are directed: ``A → B`` and ``B → A`` are
different relations. Arguments are compared by their offsets only, whatever label their spans
carry.

Relation F1 of annotators :math:`a` and :math:`b` with relation sets :math:`R_a, R_b`:

.. math::
    F_1 = \frac{2\,|M|}{|R_a| + |R_b|}

where :math:`M` is a one-to-one matching of maximum size between :math:`R_a` and :math:`R_b` in
which a matched pair has the same label and both arguments match: by *exact* offsets (identical
fragments; then :math:`|M| = |R_a \cap R_b|`), or by *overlap* (each argument shares at least one
character with its counterpart). This is the pairwise F1 of Hripcsak & Rothschild (2005), the
"exact" and "lenient/overlap" relation criteria of the i2b2 2010 relation task (Uzuner et al.
2011) and of brat-based relation corpora (e.g. the SciERC and ChemProt evaluations); the maximum
matching (of maximum size: Hopcroft & Karp 1973; computed as an assignment, Crouse 2016) makes the
count independent of the order of the relations.

References
----------
Hripcsak, G., & Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
information retrieval. *JAMIA* 12(3), 296–298.
Uzuner, Ö., South, B. R., Shen, S., & DuVall, S. L. (2011). 2010 i2b2/VA challenge on concepts,
assertions, and relations in clinical text. *JAMIA* 18(5), 552–556.
Hopcroft, J. E., & Karp, R. M. (1973). An n^{5/2} algorithm for maximum matchings in bipartite
graphs. *SIAM J. Computing* 2(4), 225–231.
Crouse, D. F. (2016). On implementing 2D rectangular assignment algorithms. *IEEE Transactions
on Aerospace and Electronic Systems* 52(4), 1679–1696.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np

Fragments = tuple[tuple[int, int], ...]
Rel = tuple[str, Fragments, Fragments]
Rule = Literal["exact", "overlap"]

#: kinds of a relation one annotator drew and the other did not (same label and exact
#: arguments), in the order they are tested
CAUSES = (
    "argument not annotated by the other",
    "argument boundary differs",
    "different label",
    "link in the other direction",
    "no link",
)


def fragments_overlap(a: Fragments, b: Fragments) -> bool:
    """Whether two arguments share at least one character.

    >>> fragments_overlap(((0, 5),), ((4, 9),)), fragments_overlap(((0, 5),), ((5, 9),))
    (True, False)
    """
    return any(s1 < e2 and s2 < e1 for s1, e1 in a for s2, e2 in b)


def may_match(x: Rel, y: Rel, rule: Rule) -> bool:
    """Whether two relations may be matched: the same label and both arguments matching by
    ``rule`` (identical fragments, or sharing at least one character)."""
    if x[0] != y[0]:
        return False
    if rule == "exact":
        return x[1] == y[1] and x[2] == y[2]
    return fragments_overlap(x[1], y[1]) and fragments_overlap(x[2], y[2])


def max_matching(a: Sequence[Rel], b: Sequence[Rel], rule: Rule) -> list[tuple[int, int]]:
    r"""A one-to-one matching of maximum size between ``a`` and ``b`` (index pairs), a pair
    allowed when the relations have the same label and their arguments match by ``rule``
    (``"exact"``: identical fragments; ``"overlap"``: each argument shares a character with its
    counterpart). A maximum bipartite matching, as the maximum-weight assignment of the 0/1
    matrix of allowed pairs (SciPy's ``linear_sum_assignment``, Crouse 2016).

    >>> a = [("R", ((0, 2),), ((5, 7),)), ("R", ((0, 3),), ((5, 7),))]
    >>> b = [("R", ((1, 3),), ((6, 7),))]
    >>> len(max_matching(a, b, "overlap")), len(max_matching(a, b, "exact"))
    (1, 0)
    """
    from scipy.optimize import linear_sum_assignment

    if not a or not b:
        return []
    allowed = np.array([[may_match(x, y, rule) for y in b] for x in a], dtype=bool)
    if not allowed.any():
        return []
    # a maximum-weight assignment of the 0/1 matrix is a maximum matching of its allowed pairs
    rows, cols = linear_sum_assignment(allowed, maximize=True)
    return [(int(i), int(j)) for i, j in zip(rows, cols) if allowed[i, j]]


def relation_f1(a: Sequence[Rel], b: Sequence[Rel], rule: Rule = "exact") -> float:
    r"""Relation F1 :math:`2|M| / (|R_a| + |R_b|)` of two sets of relations (see the module);
    NaN when neither has a relation.

    >>> x = [("Employer", ((0, 5),), ((16, 20),)), ("Located", ((16, 20),), ((24, 29),))]
    >>> y = [("Employer", ((0, 5),), ((16, 20),)), ("Located", ((24, 29),), ((16, 20),))]
    >>> relation_f1(x, y)  # the second link is reversed: relations are directed
    0.5
    """
    total = len(a) + len(b)
    if total == 0:
        return float("nan")
    return 2.0 * len(max_matching(a, b, rule)) / total


def matched_by_label(a: Sequence[Rel], b: Sequence[Rel], rule: Rule) -> dict[str, int]:
    """Label → the number of matched pairs of that label in a maximum matching (a match needs
    the same label, so the matching is one per label and these counts sum to the total)."""
    out: dict[str, int] = {}
    for i, _j in max_matching(a, b, rule):
        out[a[i][0]] = out.get(a[i][0], 0) + 1
    return out


def unmatched_cause(rel: Rel, other: Iterable[Rel], other_spans: Iterable[Fragments]) -> str:
    """Why the other annotator has no relation equal to ``rel`` (same label, exact arguments):
    the first of :data:`CAUSES` that holds.

    * an argument overlaps none of the other's spans: *argument not annotated by the other*;
    * an argument has no span of identical offsets in the other's: *argument boundary differs*;
    * the other linked the same arguments in the same direction with another label:
      *different label*; in the other direction (any label): *link in the other direction*;
    * else *no link*.

    ``other_spans`` are the fragments of every span of the other annotator in the document
    (relation arguments included).

    >>> mine = ("Meets", ((31, 34),), ((39, 44),))
    >>> theirs = [("Knows", ((31, 34),), ((39, 44),))]
    >>> unmatched_cause(mine, theirs, [((31, 34),), ((39, 44),)])
    'different label'
    """
    other = list(other)
    spans = set(other_spans)
    for r in other:
        spans.add(r[1])
        spans.add(r[2])
    _label, src, tgt = rel
    for arg in (src, tgt):
        if not any(fragments_overlap(arg, s) for s in spans):
            return CAUSES[0]
    if src not in spans or tgt not in spans:
        return CAUSES[1]
    if any(r[1] == src and r[2] == tgt for r in other):
        return CAUSES[2]
    if any(r[1] == tgt and r[2] == src for r in other):
        return CAUSES[3]
    return CAUSES[4]

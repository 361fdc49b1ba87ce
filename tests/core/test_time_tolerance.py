"""Tolerance F1 of units in time: invariants (Hypothesis) and a cross-check of the matching
against networkx's Hopcroft–Karp on a brute-force candidate graph."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.kinds.spans.corpus import build_corpus
from iaa_desktop.core.kinds.spans.readers import Span, SpanDocument
from iaa_desktop.core.kinds.spans.tolerance import tolerance_counts

networkx = pytest.importorskip("networkx")

units = st.lists(
    st.tuples(st.integers(0, 200), st.integers(0, 40), st.sampled_from("ab")).map(
        lambda t: (t[0], t[0] + t[1], t[2])
    ),
    max_size=12,
)


def corpus_of(a, b):
    docs = {}
    for who, us in (("A", a), ("B", b)):
        d = SpanDocument("rec", "rec", None, meta={"time_unit": "ms", "duration": 300})
        for s, e, lab in us:
            d.add(Span(lab, ((s, e),)), None)
        docs[who] = d
    return build_corpus(("A", "B"), {"rec": docs})


def matched(corpus, tol) -> float:
    return float(tolerance_counts(corpus, tol).tp_exact.sum())


def brute(a, b, tol) -> int:
    a, b = sorted(set(a)), sorted(set(b))  # an annotator's repeated unit counts once
    g = networkx.Graph()
    left = [("a", i) for i in range(len(a))]
    g.add_nodes_from(left)
    g.add_nodes_from(("b", j) for j in range(len(b)))
    for i, (s1, e1, l1) in enumerate(a):
        for j, (s2, e2, l2) in enumerate(b):
            if l1 == l2 and abs(s1 - s2) <= tol and abs(e1 - e2) <= tol:
                g.add_edge(("a", i), ("b", j))
    return len(networkx.bipartite.hopcroft_karp_matching(g, top_nodes=left)) // 2


@settings(max_examples=80, deadline=None)
@given(units, units, st.integers(0, 30))
def test_matching_equals_networkx(a, b, tol):
    assert matched(corpus_of(a, b), tol) == brute(a, b, tol)


@settings(max_examples=60, deadline=None)
@given(units, units, st.integers(0, 20), st.integers(0, 20))
def test_tolerance_invariants(a, b, t1, t2):
    c = corpus_of(a, b)
    exact = {(s, e, lab) for s, e, lab in a} & {(s, e, lab) for s, e, lab in b}
    assert matched(c, 0) == len(exact)  # a tolerance of 0 is the exact match
    lo, hi = sorted((t1, t2))
    assert matched(c, lo) <= matched(c, hi)  # a wider tolerance never matches fewer
    assert matched(corpus_of(b, a), t1) == matched(c, t1)  # symmetric

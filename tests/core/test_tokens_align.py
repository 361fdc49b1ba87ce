"""Tokens, weighted Jaccard and Smith–Waterman over tokens (seed 000; METHODS.md §5)."""

from __future__ import annotations

import csv
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.align.tokens import (
    GAP_A,
    GAP_B,
    MATCH,
    MISMATCH,
    smith_waterman,
    tokenize,
    weighted_jaccard,
)
from tests.conftest import shared_path


def reference_jaccard(a, b):
    """The data set's own definition (``weighted_jaccard`` in candidates/generate.py)."""
    ca, cb = Counter(a), Counter(b)
    num = sum(min(ca[w], cb[w]) for w in set(ca) | set(cb))
    den = sum(max(ca[w], cb[w]) for w in set(ca) | set(cb))
    return num / den if den else 0.0


def reference_sw_score(a, b, match=2, mismatch=-1, gap=-1):
    """Plain O(nm) Smith–Waterman score, written independently of the vectorised one."""
    best = 0
    H = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            s = match if a[i - 1] == b[j - 1] else mismatch
            H[i][j] = max(0, H[i - 1][j - 1] + s, H[i - 1][j] + gap, H[i][j - 1] + gap)
            best = max(best, H[i][j])
    return best


def test_offsets_are_code_points_with_emoji_and_combining_marks():
    text = "🙏❤️ Love is patient, בְּרֵאשִׁית בָּרָא"
    t = tokenize(text)
    assert t.forms == ("Love", "is", "patient", "בְּרֵאשִׁית", "בָּרָא")
    for f, s, e in zip(t.forms, t.starts, t.ends):
        assert text[s:e] == f
    assert t.keys[0] == "love"


def test_lemmas_replace_keys_only_when_they_line_up():
    assert tokenize("Dominus regit me", "dominus rego ego").keys == ("dominus", "rego", "ego")
    assert tokenize("Dominus regit me", "dominus rego").keys == ("dominus", "regit", "me")


def test_published_overlap_of_every_candidate_pair():
    path = shared_path("candidates", "pairs.tsv")
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    got = [
        round(weighted_jaccard(tokenize(r["target_text"]).keys, tokenize(r["source_text"]).keys), 4)
        for r in rows
    ]
    assert got == [float(r["overlap"]) for r in rows]


words = st.lists(st.sampled_from(list("abcdefg")), max_size=25)


@settings(max_examples=200, deadline=None)
@given(words, words)
def test_jaccard_matches_reference_and_invariants(a, b):
    j = weighted_jaccard(a, b)
    assert abs(j - reference_jaccard(a, b)) < 1e-12
    assert 0.0 <= j <= 1.0
    assert j == weighted_jaccard(b, a)
    if a:
        assert weighted_jaccard(a, list(reversed(a))) == 1.0


@settings(max_examples=200, deadline=None)
@given(words, words)
def test_smith_waterman_score_and_traceback(a, b):
    al = smith_waterman(a, b)
    assert al.score == reference_sw_score(a, b)
    # the traceback re-scores to the optimum and walks both sequences in order
    score = 0.0
    last_i = last_j = -1
    for op, i, j in al.steps:
        if op == MATCH:
            assert a[i] == b[j]
            score += 2
        elif op == MISMATCH:
            assert a[i] != b[j]
            score -= 1
        else:
            score -= 1
        if op != GAP_A:
            assert i == last_i + 1 or last_i == -1
            last_i = i
        if op != GAP_B:
            assert j == last_j + 1 or last_j == -1
            last_j = j
    assert score == al.score
    if al.steps:
        assert al.steps[0][0] == MATCH and al.steps[-1][0] == MATCH


def test_seed_figure_1_alignment():
    top = "sede inquit a dextris meis donec ponam inimicos tuos scabellum pedum tuorum".split()
    bottom = "oportet autem illum regnare donec ponat omnes inimicos sub pedibus eius".split()
    # by lemma, as in the seed's figure: pono, pes
    lem_top = [{"ponam": "pono", "pedum": "pes"}.get(w, w) for w in top]
    lem_bot = [{"ponat": "pono", "pedibus": "pes"}.get(w, w) for w in bottom]
    al = smith_waterman(lem_top, lem_bot)
    ops_a = al.ops_a()
    assert ops_a[top.index("donec")] == "match"
    assert ops_a[top.index("ponam")] == "match"
    assert ops_a[top.index("inimicos")] == "match"
    assert ops_a[top.index("pedum")] == "match"
    assert "gap" in ops_a.values() or "mismatch" in ops_a.values()
    assert al.n_matches == 4


def test_empty_and_disjoint():
    assert smith_waterman([], ["a"]).steps == ()
    assert smith_waterman(["a"], ["b"]).score == 0.0
    assert weighted_jaccard([], []) == 0.0
    assert np.isclose(weighted_jaccard(["a", "a"], ["a"]), 0.5)

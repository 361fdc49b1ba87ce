"""The passage-pair kinds align a pair's texts when it is shown, not up front: the lexical
overlap of every pair is computed from each passage tokenised once and equals the pair's own
detail; a pair's detail is made once and cached."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from iaa_desktop.core.align.tokens import tokenize, weighted_jaccard
from iaa_desktop.core.kinds import use_pairs
from iaa_desktop.core.kinds.candidates.compare import KIND as CANDIDATES
from iaa_desktop.core.kinds.durel.compare import KIND as DUREL
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, shared_path


def _durel(inputs):
    return run_to_end(DUREL.run([Path(p) for p in inputs], {}))


def _candidates(inputs):
    return run_to_end(CANDIDATES.run([Path(p) for p in inputs], {"bayes_draws": 200}))


@pytest.fixture
def count_alignments(monkeypatch):
    calls = []
    original = use_pairs.smith_waterman

    def counting(a, b, *args, **kw):
        calls.append((tuple(a), tuple(b)))
        return original(a, b, *args, **kw)

    monkeypatch.setattr(use_pairs, "smith_waterman", counting)
    return calls


def test_durel_aligns_only_the_pairs_shown(count_alignments):
    r = _durel([FIXTURES / "durel" / "study"])
    assert count_alignments == []
    d = r.pair_detail(1)
    assert len(count_alignments) == 1
    assert r.pair_detail(1) is d
    assert len(count_alignments) == 1


def test_candidates_aligns_only_the_pairs_shown(count_alignments):
    r = _candidates([FIXTURES / "candidates" / "pairs.tsv", FIXTURES / "candidates" / "labels.tsv"])
    assert count_alignments == []
    d = r.pair_detail(0)
    assert r.pair_detail(0) is d
    assert len(count_alignments) == 1


def _old_judgments(r, i):
    """The judgments of item ``i`` as the pair view listed them, by filtering the long table."""
    js = r.judgments[r.judgments["item"] == i]
    return [
        (str(a), "can't decide" if np.isnan(v) else v, str(c or ""))
        for a, v, c in zip(js["annotator"], js["value"], js["comment"])
    ]


@pytest.mark.parametrize("folder", ["study", "bad"])
def test_durel_overlap_and_judgments_equal_each_pairs_detail(folder):
    r = _durel([FIXTURES / "durel" / folder])
    for i in range(len(r.items)):
        d = r.pair_detail(i)
        assert r.items["overlap"].iloc[i] == d.overlap
        assert d.overlap == weighted_jaccard(d.tokens_a.keys, d.tokens_b.keys)
        old = _old_judgments(r, i)
        assert [(a, c) for a, _v, c in d.judgments] == [(a, c) for a, _v, c in old]
        assert len(d.judgments) == len(old)


def test_trotr_overlap_equals_each_pairs_detail():
    r = _durel([shared_path("trotr")])
    rng = np.random.default_rng(0)
    for i in rng.choice(len(r.items), 60, replace=False):
        d = r.pair_detail(int(i))
        assert r.items["overlap"].iloc[int(i)] == d.overlap
        assert len(d.judgments) == int(r.items["n_judgments"].iloc[int(i)])


def test_candidates_overlap_equals_tokenising_each_pair():
    r = _candidates([FIXTURES / "candidates" / "pairs.tsv", FIXTURES / "candidates" / "labels.tsv"])
    p = r.pairs
    for i in range(len(p)):
        tl = p["target_lemma"].iloc[i] if "target_lemma" in p.columns else None
        sl = p["source_lemma"].iloc[i] if "source_lemma" in p.columns else None
        want = weighted_jaccard(
            tokenize(p["target_text"].iloc[i], tl).keys, tokenize(p["source_text"].iloc[i], sl).keys
        )
        assert p["overlap"].iloc[i] == want == r.pair_detail(i).overlap


def test_pair_overlaps_equal_weighted_jaccard_with_repeated_passages():
    texts = ["a a b c", "a b b d", "", "Love is patient, love is kind", "a a b c"]
    a = [texts[k % 5] for k in range(12)]
    b = [texts[(3 * k + 1) % 5] for k in range(12)]
    got = use_pairs.pair_overlaps(a, b)
    want = [weighted_jaccard(tokenize(x).keys, tokenize(y).keys) for x, y in zip(a, b)]
    assert got.tolist() == want

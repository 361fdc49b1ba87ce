"""Intervals of the spans kind's αU and macro span F1: the bootstrap over documents from the
per-document sums equals a direct recomputation on the resampled documents laid end to end; the
intervals hold their estimate, collapse under perfect agreement, follow the seed, and do not
depend on the order of annotators or documents."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.kinds.spans import measures as M
from iaa_desktop.core.kinds.spans.compare import compare_corpus
from iaa_desktop.core.kinds.spans.corpus import build_corpus
from iaa_desktop.core.kinds.spans.readers import Span, SpanDocument
from iaa_desktop.core.metrics.unitizing import (
    UnitizingStudy,
    alpha_from_disagreements,
    category_disagreements,
    pooled_alpha,
    pooled_disagreements,
    unitizing_alpha,
)
from iaa_desktop.core.progress import run_to_end

# ------------------------------------------------------------------ direct recomputation of αU


def direct_alpha(segments: list[tuple[int, list[tuple[int, int, int, int]]]], R: int, K: int):
    """αU of the segments laid end to end, every gap ending at its segment's end, written out
    unit by unit and gap by gap; D_o from DKPro's formula on the concatenation."""
    L = sum(length for length, _ in segments)
    flat, off = [], 0
    for length, units in segments:
        flat += [(b + off, e - b, r, k) for b, e, r, k in units]
        off += length
    study = UnitizingStudy.of(flat, R, L)
    per, d_os, d_es = {}, [], []
    for k in range(K):
        ells = [e - b for _, units in segments for b, e, _r, kk in units if kk == k]
        if not ells:
            continue
        gaps = []
        for length, units in segments:
            for r in range(R):
                pos = 0
                for b, e in sorted((b, e) for b, e, rr, kk in units if rr == r and kk == k):
                    gaps.append(b - pos)
                    pos = e
                gaps.append(length - pos)
        gaps = [g for g in gaps if g > 0]
        n = len(ells)
        num = sum(
            (n - 1) * (2 * x**3 - 3 * x**2 + x) / 3 + x * x * sum(g - x + 1 for g in gaps if g >= x)
            for x in ells
        )
        d_e = (2 / L) * num / (R * L * (R * L - 1) - sum(x * (x - 1) for x in ells))
        d_o = category_disagreements(study, k)[0]
        per[k] = 0.0 if d_o == d_e else 1 - d_o / d_e
        d_os.append(d_o)
        d_es.append(d_e)
    alpha = (
        alpha_from_disagreements(float(np.mean(d_os)), float(np.mean(d_es))) if per else math.nan
    )
    return alpha, per


@st.composite
def segment_studies(draw, max_segments=4):
    R, K = draw(st.integers(2, 3)), 2
    segments = []
    for _ in range(draw(st.integers(1, max_segments))):
        length = draw(st.integers(8, 40))
        units = []
        for r in range(R):
            for k in range(K):
                pos = 0
                for gap, ell in draw(
                    st.lists(st.tuples(st.integers(0, 8), st.integers(1, 8)), max_size=3)
                ):
                    b, e = pos + gap, min(pos + gap + ell, length)
                    if b >= e:
                        break
                    units.append((b, e, r, k))
                    pos = e
        segments.append((length, units))
    return R, K, segments


def pooled(R, K, segments, weights):
    rows = [(b, e, r, k, s) for s, (_, units) in enumerate(segments) for b, e, r, k in units]
    a = np.array(rows, dtype=np.int64).reshape(-1, 5)
    lengths = [length for length, _ in segments]
    d_o, d_e, n = pooled_disagreements(
        a[:, 0], a[:, 1], a[:, 2], a[:, 4], a[:, 3], lengths, K, R, weights
    )
    return pooled_alpha(d_o, d_e, n)


@settings(max_examples=60, deadline=None)
@given(segment_studies(), st.data())
def test_resampled_sums_equal_direct_recomputation_on_the_copies_end_to_end(study, data):
    R, K, segments = study
    w = data.draw(st.lists(st.integers(0, 3), min_size=len(segments), max_size=len(segments)))
    overall, per = pooled(R, K, segments, [w])
    copies = [seg for seg, times in zip(segments, w) for _ in range(times)]
    want, want_per = direct_alpha(copies, R, K) if copies else (math.nan, {})
    if math.isnan(want):
        assert math.isnan(overall[0])
    else:
        assert overall[0] == pytest.approx(want, abs=1e-9)
    for k in range(K):
        if k in want_per:
            assert per[0, k] == pytest.approx(want_per[k], abs=1e-9)
        else:
            assert math.isnan(per[0, k])


@settings(max_examples=40, deadline=None)
@given(segment_studies(max_segments=1))
def test_one_document_is_dkpro_unitizing_alpha(study):
    R, K, segments = study
    length, units = segments[0]
    want = unitizing_alpha(UnitizingStudy.of([(b, e - b, r, k) for b, e, r, k in units], R, length))
    got = pooled(R, K, segments, [[1.0]])[0][0]
    if math.isnan(want["alpha"]):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(want["alpha"], abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(segment_studies(), st.randoms(use_true_random=False))
def test_pooled_alpha_ignores_the_order_of_documents_and_raters(study, rnd):
    R, K, segments = study
    w = np.array([[1.0] * len(segments), [rnd.randint(0, 3) for _ in segments]])
    base = pooled(R, K, segments, w)
    order = list(range(len(segments)))
    rnd.shuffle(order)
    raters = list(range(R))
    rnd.shuffle(raters)
    moved = [
        (segments[s][0], [(b, e, raters[r], k) for b, e, r, k in segments[s][1]]) for s in order
    ]
    again = pooled(R, K, moved, w[:, order])
    np.testing.assert_allclose(again[0], base[0], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(again[1], base[1], rtol=1e-9, atol=1e-12)


# ------------------------------------------------------------------------- the kind's intervals


def simulated_docs(n_docs=30, annotators=("A", "B", "C"), seed=1, noise=True):
    """A reference of random spans per document (3 labels), each annotator copying it with
    boundary shifts, label changes and drops (none with ``noise=False``)."""
    rng = np.random.default_rng(seed)
    docs: dict[str, dict[str, SpanDocument]] = {}
    for d in range(n_docs):
        name, length = f"doc{d:03d}", 200
        ref, pos = [], 0
        while True:
            pos += int(rng.integers(2, 20))
            end = pos + int(rng.integers(1, 8))
            if end > length:
                break
            ref.append((pos, end, "LMN"[int(rng.integers(0, 3))]))
            pos = end
        by = {}
        for a in annotators:
            spans = []
            for s, e, lab in ref:
                if noise and rng.random() < 0.1:
                    continue
                if noise and rng.random() < 0.1:
                    e = max(s + 1, e - 1)
                if noise and rng.random() < 0.1:
                    lab = "LMN"[int(rng.integers(0, 3))]
                spans.append(Span(lab, ((s, e),)))
            by[a] = SpanDocument(name, f"{a}/{name}", "x" * length, spans)
        docs[name] = by
    return docs


def figures(docs, annotators=("A", "B", "C"), **opts):
    corpus = build_corpus(tuple(annotators), docs)
    opts = {"n_resamples": 200, "seed": 0, **opts}
    return run_to_end(compare_corpus(corpus, opts))


NEW = ("exact_f1_macro", "overlap_f1_macro", "unitizing_alpha")


def test_intervals_hold_their_estimates():
    r = figures(simulated_docs())
    for key in (*NEW, "exact_f1", "overlap_f1"):
        fig = r.overall[key]
        assert fig["ci_low"] < fig["value"] < fig["ci_high"], key
    pairs = r.frames["pairs"]
    for col in ("exact_f1_macro", "overlap_f1_macro", "unitizing_alpha"):
        assert (pairs[f"{col}_ci_low"] <= pairs[col]).all()
        assert (pairs[col] <= pairs[f"{col}_ci_high"]).all()
    labels = r.frames["labels"]
    assert (labels["unitizing_alpha_ci_low"] <= labels["unitizing_alpha"]).all()
    assert (labels["unitizing_alpha"] <= labels["unitizing_alpha_ci_high"]).all()
    j = r.to_json()
    assert j["overall"]["unitizing_alpha"]["ci_low"] is not None
    assert "exact_f1_macro_ci_low" in j["pairs"][0]
    assert "unitizing_alpha_ci_high" in r.tables()["labels"].columns


def test_intervals_collapse_under_perfect_agreement():
    r = figures(simulated_docs(noise=False))
    for key in (*NEW, "exact_f1", "overlap_f1"):
        assert r.overall[key] == {"value": 1.0, "ci_low": 1.0, "ci_high": 1.0}, key
    pairs = r.frames["pairs"]
    for col in ("exact_f1_macro", "unitizing_alpha"):
        assert (pairs[[col, f"{col}_ci_low", f"{col}_ci_high"]].to_numpy() == 1.0).all()


def test_intervals_follow_the_seed():
    docs = simulated_docs(n_docs=12)
    a, b, c = figures(docs, seed=3), figures(docs, seed=3), figures(docs, seed=4)
    for key in NEW:
        assert a.overall[key] == b.overall[key]
        assert a.overall[key]["value"] == c.overall[key]["value"]
    assert any(a.overall[k]["ci_low"] != c.overall[k]["ci_low"] for k in NEW)


def test_corpus_interval_is_the_direct_figure_of_a_resample():
    """Ten copies of one resample: the interval collapses on that resample's figure, which must
    be the pooled figure of a corpus made of the drawn documents (copies named apart), moved by
    the difference between the concatenated and the pooled figure of the data."""
    docs = simulated_docs(n_docs=8, seed=5)
    corpus = build_corpus(("A", "B", "C"), docs)
    w = M.doc_draws(len(corpus.names), 1, seed=7)[0]
    resampled = {
        f"{name}#{c}": docs[name] for name, times in zip(corpus.names, w) for c in range(int(times))
    }
    want = M.unitizing_figures(build_corpus(("A", "B", "C"), resampled))
    got = M.unitizing_figures(corpus, draws=np.repeat(w[None, :], 10, axis=0))
    shift = got["alpha"] - got["alpha_pooled"]
    assert got["alpha_ci"] == pytest.approx((want["alpha_pooled"] + shift,) * 2, abs=1e-9)
    for k in range(len(corpus.labels)):
        shift = got["per_label"][k] - got["per_label_pooled"][k]
        expected = min(want["per_label_pooled"][k] + shift, 1.0)
        assert got["per_label_ci"][k] == pytest.approx((expected,) * 2, abs=1e-9)


def test_corpus_figure_is_the_continuum_of_the_documents_in_input_order():
    """The corpus αU is DKPro's αU of one continuum: the documents laid end to end in input
    order (a gap at the end of one document runs into the next)."""
    from iaa_desktop.core.metrics.unitizing import alpha_from_disagreements, grouped_disagreements

    def continuum(corpus):
        b, e, a, d, lab = M.unitizing_units(corpus, np.arange(len(corpus.names)))
        offsets = np.concatenate([[0], np.cumsum(corpus.lengths)[:-1]])
        Q, total = len(corpus.labels), int(corpus.lengths.sum())
        d_o, d_e = grouped_disagreements(
            b + offsets[d], e + offsets[d], a, lab, np.full(Q, total), 3
        )
        present = np.bincount(lab, minlength=Q) > 0
        return alpha_from_disagreements(d_o[present].mean(), d_e[present].mean())

    docs = simulated_docs(n_docs=6, seed=11)
    corpus = build_corpus(("A", "B", "C"), docs)
    assert M.unitizing_figures(corpus)["alpha"] == pytest.approx(continuum(corpus), abs=1e-12)
    reordered = build_corpus(("A", "B", "C"), dict(reversed(docs.items())))
    assert reordered.names == tuple(reversed(corpus.names))
    got = M.unitizing_figures(reordered)["alpha"]
    assert got == pytest.approx(continuum(reordered), abs=1e-12)


@settings(max_examples=8, deadline=None)
@given(st.permutations(["A", "B", "C"]), st.permutations(list(range(10))))
def test_figures_ignore_the_order_of_annotators_and_documents(annotators, doc_order):
    docs = simulated_docs(n_docs=10, seed=2)
    base = figures(docs, n_resamples=50)
    names = list(docs)
    moved = {names[i]: {a: docs[names[i]][a] for a in annotators} for i in doc_order}
    again = figures(moved, annotators, n_resamples=50)
    for key in (*NEW, "exact_f1", "overlap_f1"):
        if key == "unitizing_alpha" and doc_order != sorted(doc_order):
            continue  # the pooled αU follows the input order of the documents (test above)
        for q in ("value", "ci_low", "ci_high"):
            assert again.overall[key][q] == pytest.approx(base.overall[key][q], abs=1e-12), key


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-3, 5), st.integers(0, 2**40), st.integers(-1, 1)), max_size=40),
    st.booleans(),
)
def test_unique_rows_equal_numpy_unique_along_rows(rows, huge):
    """The faster distinct rows (one mixed-radix key per row) are numpy's, in numpy's order."""
    arr = np.array(rows, dtype=np.int64).reshape(-1, 3)
    if huge and len(arr):
        arr[0, 1] = 2**61  # the radix product overflows: numpy's own way
    want, inverse = np.unique(arr, axis=0, return_inverse=True)
    got, got_inverse = M.unique_rows(list(arr.T))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_inverse, inverse.ravel())

"""Coreference: the seed's class matching on the Psalms, the reference scorer's cases, bad input."""

from __future__ import annotations

import json
import math
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.align.class_matching import format_d, match_sets
from iaa_desktop.core.kinds.coref.compare import KIND, entities_of, write_iaa_files
from iaa_desktop.core.kinds.coref.readers import read_brat, read_conll
from iaa_desktop.core.metrics.coref_scores import score_document
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, shared_path

FIX = FIXTURES / "coref"
VARIANTS = {"symdiff": "expected", "jaccard": "expected_jaccard", "opt": "expected_opt"}


def parse_iaa(path: Path) -> list[tuple]:
    rows = []
    for line in path.read_text().splitlines():
        a, b, L, M, R, D, d = line.split("\t")
        rows.append((a, b, int(L), int(M), int(R), int(D), d))
    return rows


@pytest.mark.parametrize("cost", list(VARIANTS))
def test_psalms_every_document_and_the_corpus_total(cost, tmp_path):
    root = shared_path("psalms-coref")
    result = run_to_end(KIND.run([root / "A", root / "B"], {"cost": cost}))
    assert not result.errors
    written = write_iaa_files(result, tmp_path)
    for doc in result.documents:
        expected = parse_iaa(root / VARIANTS[cost] / f"{doc.name}.iaa")
        ours = parse_iaa(tmp_path / f"{doc.name}.iaa")
        # per-document sums
        for k in (2, 3, 4, 5):
            assert sum(r[k] for r in ours) == sum(r[k] for r in expected), (doc.name, k)
        t = doc.pairs[0].total
        exp_t = (
            sum(r[2] for r in expected),
            sum(r[3] for r in expected),
            sum(r[4] for r in expected),
        )
        assert (t.L, t.M, t.R) == exp_t
        # rows: identical as sets here (these texts' optima agree with the files)
        assert sorted(ours) == sorted(expected), doc.name
        if cost == "opt":
            assert ours == expected  # also in the larger side's order
    total = result.pair_total("A", "B")
    assert (total.L, total.M, total.R, total.D, format_d(total.d)) == (61, 223, 62, 123, "0.3555")
    assert (tmp_path / "total.iaa").read_text().strip() == "A\tB\t61\t223\t62\t123\t0.3555"
    assert len(written) == len(result.documents) + 1


def test_psalms_json_layout(capsys):
    root = shared_path("psalms-coref")
    assert (
        cli_main(["report", "--kind", "coref", str(root / "A"), str(root / "B"), "--json", "-"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    doc = data["documents"][0]
    assert set(doc) >= {"name", "pairs"}
    assert set(doc["pairs"][0]) >= {"a", "b", "rows", "L", "M", "R", "D", "d"}
    assert set(doc["pairs"][0]["rows"][0]) == {"class_a", "class_b", "L", "M", "R", "D", "d"}
    assert data["total"]["pairs"][0]["d"] == 0.3555
    s = data["scores"][0]
    for m in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions"):
        assert set(s[m]) == {"recall", "precision", "f1"} and 0 <= s[m]["f1"] <= 1
    assert set(s["conll"]) == {"f1"}


def test_reference_scorer_cases():
    base = shared_path("coref-scorer-cases")
    cases = json.loads((base / "expected.json").read_text())
    checked = 0
    for case in cases:
        key = read_conll(base / case["key"])[0]
        resp = read_conll(base / case["response"])[0]
        ours = score_document(entities_of(key), entities_of(resp)).to_json()
        for metric, values in case["metrics"].items():
            if metric == "blanc" and case.get("blanc_convention") != "reference":
                continue
            for q, v in values.items():
                assert ours[metric][q] == pytest.approx(v, abs=1e-4), (case["id"], metric, q)
                checked += 1
    assert checked > 100


def test_report_on_scorer_case_files(capsys):
    base = shared_path("coref-scorer-cases", "cases")
    assert (
        cli_main(["report", str(base / "TC-A.key"), str(base / "TC-A-2.response"), "--json", "-"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "coref"
    assert data["scores"][0]["muc"]["recall"] == pytest.approx(1 / 3)


def test_right_to_left_text_offsets_are_code_points():
    doc = read_brat(FIX / "heb_A" / "genesis.ann")
    assert not doc.errors
    for (_type, s, e), covered in doc.mentions.items():
        assert doc.text[s:e] == covered
    assert len(doc.classes) == 2 and doc.notes


def test_hebrew_documents_compare():
    r = run_to_end(KIND.run([FIX / "heb_A", FIX / "heb_B"], {}))
    rows = r.documents[0].pairs[0].rows
    # A: C1 {אלהים, الله}, C2 {הארץ, והארץ}, S {השמים, نور}; B: C1 {אלהים, الله, نور}, C2 {והארץ, השמים}
    assert [(x.class_a, x.class_b) for x in rows] == [("C1", "C1"), ("C2", "S"), ("S", "C2")]
    assert r.pair_total("heb_A", "heb_B").M == 4


def test_bad_input_is_reported_and_the_rest_compared():
    r = run_to_end(KIND.run([FIX / "bad_A", FIX / "bad_B"], {}))
    messages = [str(e) for e in r.errors]
    assert any("line 4" in m and "beyond the text" in m for m in messages)
    assert any("line 5" in m and "T7" in m for m in messages)
    assert any("line 6" in m and "T8" in m for m in messages)
    assert any("only_b" in m and "missing for bad_A" in m for m in messages)
    doc = next(d for d in r.documents if d.name == "doc")
    assert doc.docs["bad_A"].classes[0] == [("Mention", 0, 3), ("Mention", 4, 7)]
    assert doc.docs["bad_B"].classes == [[("Mention", 0, 3), ("Mention", 4, 7)]]  # from the R line


def test_empty_s_on_both_sides_has_d_zero():
    rows = match_sets([[1, 2], []], [[1, 2], []], ["C1", "S"], ["C1", "S"])
    assert rows[1].class_a == "S" and rows[1].d == 0.0


def test_conll_unbalanced_brackets(tmp_path):
    p = tmp_path / "x_conll"
    p.write_text(
        "#begin document (d); part 000\nd 0 0 a (1\nd 0 1 b -\nd 0 2 c 2)\n#end document\n"
    )
    doc = read_conll(p)[0]
    msgs = [str(e) for e in doc.errors]
    assert any("line 4" in m and "never opened" in m for m in msgs)
    assert any("line 2" in m and "never closed" in m for m in msgs)


@st.composite
def partitions(draw):
    n = draw(st.integers(1, 12))
    labels_a = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    labels_b = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    sa = [[m for m in range(n) if labels_a[m] == k] for k in range(5)]
    sb = [[m for m in range(n) if labels_b[m] == k] for k in range(5)]
    return [s for s in sa if s], [s for s in sb if s]


@settings(max_examples=60, deadline=None)
@given(partitions())
def test_matching_is_optimal_and_conserves_mentions(data):
    sa, sb = data
    rows = match_sets(sa, sb, [f"C{i}" for i in range(len(sa))], [f"C{i}" for i in range(len(sb))])
    n_a = sum(len(s) for s in sa)
    n_b = sum(len(s) for s in sb)
    assert sum(r.L + r.M for r in rows) == n_a and sum(r.M + r.R for r in rows) == n_b
    matched = [r for r in rows if r.class_a != "-" and r.class_b != "-"]
    assert len(matched) == min(len(sa), len(sb))
    cost = sum(r.L + r.R for r in matched)
    if len(sa) <= 5 and len(sb) <= 5:  # brute force over all assignments
        small, large = (sa, sb) if len(sa) <= len(sb) else (sb, sa)
        best = math.inf
        for perm in permutations(range(len(large)), len(small)):
            best = min(best, sum(len(set(small[i]) ^ set(large[j])) for i, j in enumerate(perm)))
        assert cost == best


@settings(max_examples=40, deadline=None)
@given(partitions())
def test_perfect_response_scores_one_and_f1_symmetric(data):
    sa, sb = data
    s = score_document(sa, sa).to_json()
    for m in ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions"):
        if m == "muc" and all(len(e) == 1 for e in sa):
            continue  # MUC has no links to score
        assert s[m]["f1"] == pytest.approx(1.0)
    ab, ba = score_document(sa, sb).to_json(), score_document(sb, sa).to_json()
    for m in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        assert ab[m]["f1"] == pytest.approx(ba[m]["f1"])
        assert ab[m]["recall"] == pytest.approx(ba[m]["precision"])


def test_matching_scales_sparse():
    rng = np.random.default_rng(0)
    n = 20_000
    a = rng.integers(0, 2_000, n)
    b = np.where(rng.random(n) < 0.9, a, rng.integers(0, 2_000, n))
    sa = [list(np.flatnonzero(a == k)) for k in range(2_000)]
    sb = [list(np.flatnonzero(b == k)) for k in range(2_000)]
    rows = match_sets(
        [s for s in sa if s],
        [s for s in sb if s],
        [str(i) for i in range(len([s for s in sa if s]))],
        [str(i) for i in range(len([s for s in sb if s]))],
    )
    assert sum(r.M for r in rows) > 0.85 * n

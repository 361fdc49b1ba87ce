"""The contingency-table coreference scorer (``metrics/coref_scores.py``).

Checked against the reference scorer's published cases, the papers' worked examples, a
brute-force implementation written from the definitions with Python sets, and the project's
dense-matrix scorer kept as a test oracle (``tests/oracles/coref_dense.py``), written
independently.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.metrics import coref_scores as cs
from tests.conftest import shared_path

SYMMETRIC = ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions")


def _scores(key, response) -> dict[str, dict[str, float]]:
    return cs.score_document(key, response).to_json()


def _ents(groups: str) -> list[list[str]]:
    """``"12345 67 89ABC"`` → [['1', ..., '5'], ['6', '7'], ...]."""
    return [list(g) for g in groups.split()]


# ----------------------------------------------------------------------- published values


def test_bcubed_paper_example():
    # Bagga & Baldwin (1998) / reference scorer TC-D-1: {12345}{67}{89ABC} → {12345}{6789ABC}
    s = _scores(_ents("12345 67 89ABC"), _ents("12345 6789ABC"))
    assert s["bcub"]["recall"] == pytest.approx(1.0)
    assert s["bcub"]["precision"] == pytest.approx((5 + 2 * 2 / 7 + 5 * 5 / 7) / 12)
    assert s["muc"]["recall"] == pytest.approx(1.0)
    assert s["muc"]["precision"] == pytest.approx(9 / 10)


def test_muc_paper_example():
    # Vilain et al. (1995) / TC-K-1: {BCDEGHJ} → {ABC}{DEF}{GHI}; twinless A, F, I
    s = _scores(_ents("BCDEGHJ"), _ents("ABC DEF GHI"))
    assert s["muc"]["recall"] == pytest.approx(3 / 6)
    assert s["muc"]["precision"] == pytest.approx(3 / 6)


def test_blanc_key_with_one_entity_reports_the_coreference_half():
    # TC-M-3: {abcdef} → {ab}{cde}{f}; the key has no non-coreference links (reference convention)
    s = _scores(_ents("abcdef"), _ents("ab cde f"))
    assert s["blanc"]["recall"] == pytest.approx(4 / 15)
    assert s["blanc"]["precision"] == pytest.approx(1.0)


def test_reference_scorer_cases():
    base = shared_path("coref-scorer-cases")
    from iaa_desktop.core.kinds.coref.compare import entities_of
    from iaa_desktop.core.kinds.coref.readers import read_conll

    checked = 0
    for entry in json.loads((base / "expected.json").read_text()):
        (key,) = read_conll(base / entry["key"])
        (resp,) = read_conll(base / entry["response"])
        got = _scores(entities_of(key), entities_of(resp))
        for metric, want in entry["metrics"].items():
            if metric == "blanc" and entry.get("blanc_convention") != "reference":
                # the universal-anaphora convention differs only on TC-M-3: half the reference value
                if entry["case"] == "TC-M-3":
                    assert got["blanc"]["f1"] == pytest.approx(2 * want["f1"], abs=1e-4)
                continue
            for part in ("recall", "precision", "f1"):
                assert got[metric][part] == pytest.approx(want[part], abs=1e-4), (
                    entry["id"],
                    metric,
                    part,
                )
                checked += 1
    assert checked > 100


# ----------------------------------------------------------------------- brute force


def _brute(key: list[list[int]], resp: list[list[int]]) -> dict[str, dict[str, float]]:
    """The definitions, literally: sets, all permutations for CEAF, all mention pairs for BLANC."""
    K = [set(e) for e in key]
    R = [set(e) for e in resp]

    def prf(rn, rd, pn, pd):
        r = rn / rd if rd else 0.0
        p = pn / pd if pd else 0.0
        return {"recall": r, "precision": p, "f1": 2 * r * p / (r + p) if r + p else 0.0}

    def muc_side(A, B):
        num = den = 0
        for a in A:
            parts = {i for i, b in enumerate(B) for m in a if m in b}
            missing = sum(1 for m in a if not any(m in b for b in B))
            num += len(a) - (len(parts) + missing)
            den += len(a) - 1
        return num, den

    def best(sim):
        if not K or not R:
            return 0.0
        small, large = (K, R) if len(K) <= len(R) else (R, K)
        out = 0.0
        for perm in itertools.permutations(range(len(large)), len(small)):
            total = sum(sim(small[i], large[j]) for i, j in enumerate(perm))
            out = max(out, total)
        return out

    def lea_side(A, B):
        num = den = 0.0
        for a in A:
            if len(a) == 1:
                (m,) = a
                res = 1.0 if any(b == a for b in B) else 0.0
            else:
                links = list(itertools.combinations(sorted(a), 2))
                res = sum(1 for x, y in links if any(x in b and y in b for b in B)) / len(links)
            num += len(a) * res
            den += len(a)
        return num, den

    out = {
        "muc": prf(*muc_side(K, R), *muc_side(R, K)),
        "bcub": prf(
            sum(len(a & b) ** 2 / len(a) for a in K for b in R),
            sum(map(len, K)),
            sum(len(a & b) ** 2 / len(b) for a in K for b in R),
            sum(map(len, R)),
        ),
        "lea": prf(*lea_side(K, R), *lea_side(R, K)),
    }
    phi3 = best(lambda a, b: len(a & b))
    phi4 = best(lambda a, b: 2 * len(a & b) / (len(a) + len(b)))
    out["ceafm"] = prf(phi3, sum(map(len, K)), phi3, sum(map(len, R)))
    out["ceafe"] = prf(phi4, len(K), phi4, len(R))
    km, rm = set().union(*K) if K else set(), set().union(*R) if R else set()
    out["mentions"] = prf(len(km & rm), len(km), len(km & rm), len(rm))
    ent_k = {m: i for i, e in enumerate(K) for m in e}
    ent_r = {m: i for i, e in enumerate(R) for m in e}
    ck = {(x, y) for x, y in itertools.combinations(sorted(km), 2) if ent_k[x] == ent_k[y]}
    nk = {(x, y) for x, y in itertools.combinations(sorted(km), 2) if ent_k[x] != ent_k[y]}
    cr = {(x, y) for x, y in itertools.combinations(sorted(rm), 2) if ent_r[x] == ent_r[y]}
    nr = {(x, y) for x, y in itertools.combinations(sorted(rm), 2) if ent_r[x] != ent_r[y]}
    c, n = (
        prf(len(ck & cr), len(ck), len(ck & cr), len(cr)),
        prf(len(nk & nr), len(nk), len(nk & nr), len(nr)),
    )
    if not ck and not nk:
        out["blanc"] = {"recall": 0.0, "precision": 0.0, "f1": 0.0}
    elif not ck:
        out["blanc"] = n
    elif not nk:
        out["blanc"] = c
    else:
        out["blanc"] = {k: (c[k] + n[k]) / 2 for k in c}
    return out


@st.composite
def partitions(draw, max_mentions: int = 9):
    """Key and response entities over overlapping mention sets (twinless mentions both ways)."""
    n = draw(st.integers(0, max_mentions))
    key_lab = draw(st.lists(st.integers(-1, 4), min_size=n, max_size=n))
    resp_lab = draw(st.lists(st.integers(-1, 4), min_size=n, max_size=n))

    def ents(lab):
        groups: dict[int, list[int]] = {}
        for m, e in enumerate(lab):
            if e >= 0:
                groups.setdefault(e, []).append(m)
        return list(groups.values())

    return ents(key_lab), ents(resp_lab)


@settings(max_examples=150, deadline=None)
@given(partitions(max_mentions=8))
def test_equals_the_definitions(data):
    key, resp = data
    got = _scores(key, resp)
    want = _brute(key, resp)
    for metric, vals in want.items():
        for part, v in vals.items():
            assert got[metric][part] == pytest.approx(v, abs=1e-12), (metric, part)


@settings(max_examples=100, deadline=None)
@given(st.lists(partitions(max_mentions=30), min_size=1, max_size=4))
def test_equals_the_other_implementation_over_a_corpus(docs):
    # dense overlap matrices, written independently
    from tests.oracles.coref_dense import score_corpus

    want = score_corpus(docs).to_json()
    got = cs.score_corpus(docs).to_json()
    by_document = cs.DocumentScores()
    for key, resp in docs:
        by_document = by_document + cs.score_labels(*cs.labels_from_entities(key, resp))
    assert by_document.to_json() == got
    for metric, vals in want.items():
        for part, v in vals.items():
            assert got[metric][part] == pytest.approx(v, abs=1e-12), (metric, part)


@settings(max_examples=100, deadline=None)
@given(partitions(max_mentions=40))
def test_invariants(data):
    key, resp = data
    s = _scores(key, resp)
    swapped = _scores(resp, key)
    for metric in SYMMETRIC:
        # recall and precision trade places when key and response swap; F1 stays
        assert s[metric]["f1"] == pytest.approx(swapped[metric]["f1"], abs=1e-12)
        assert s[metric]["recall"] == pytest.approx(swapped[metric]["precision"], abs=1e-12)
        for part in ("recall", "precision", "f1"):
            assert 0.0 <= s[metric][part] <= 1.0 + 1e-12
    if any(key):
        perfect = _scores(key, key)
        # BLANC has no links to score in a one-mention document
        several = sum(map(len, key)) >= 2
        for metric in ("bcub", "ceafm", "ceafe", "lea", "mentions") + (
            ("blanc",) if several else ()
        ):
            assert perfect[metric]["f1"] == pytest.approx(1.0)


def test_empty_documents_score_zero_without_errors():
    s = _scores([], [])
    assert all(v == 0.0 for m in s.values() for v in m.values())
    s = _scores([[1, 2]], [])
    assert s["muc"]["recall"] == 0.0 and s["mentions"]["precision"] == 0.0


def test_one_large_document():
    # 30,000 entities in one document: the CEAF alignment is solved per connected component
    rng = np.random.default_rng(0)
    n_ent, n_m = 30_000, 90_000
    key = rng.integers(0, n_ent, n_m)
    resp = np.where(rng.random(n_m) < 0.9, key, rng.integers(0, n_ent, n_m))
    resp[rng.random(n_m) < 0.05] = -1
    s = cs.score_labels(key, resp).to_json()
    assert 0.5 < s["conll"]["f1"] < 1.0


# ----------------------------------------------------------------------- a repeated mention

# The reference scorer's test case TC-A-8 (Pradhan et al. 2014, test/CorefMetricTestConfig.pm):
# key {a}{bc}{def}, response {a}{bcx}{dy}{Bz} where B is the same span as b, listed in a later
# entity. The scorer keeps b in its first entity and drops it from {Bz}, so the response is
# scored as {a}{bcx}{dy}{z}. The fixture files follow the same layout with words of their own.
REPEATED = {
    "muc": (1 / 3, 1 / 3, 1 / 3),
    "bcub": ((10 / 3) / 6, (1 + 4 / 3 + 1 / 2) / 7, None),
    "ceafm": (0.66667, 0.57143, 0.61538),
    "ceafe": (0.73333, 0.55, 0.62857),
    "blanc": (0.35227, 0.27206, 0.30357),
}


def _assert_repeated_case(got: dict[str, dict[str, float]]) -> None:
    for metric, values in REPEATED.items():
        for part, want in zip(("recall", "precision", "f1"), values):
            if want is not None:
                assert got[metric][part] == pytest.approx(want, abs=1e-4), (metric, part)
    r, p = REPEATED["bcub"][:2]
    assert got["bcub"]["f1"] == pytest.approx(2 * r * p / (r + p))


def test_a_mention_in_two_response_entities_stays_in_the_first():
    key = [["a"], ["b", "c"], ["d", "e", "f"]]
    got = _scores(key, [["a"], ["b", "c", "x"], ["d", "y"], ["b", "z"]])
    _assert_repeated_case(got)
    # the same as the de-duplicated response, for every metric
    assert got == _scores(key, [["a"], ["b", "c", "x"], ["d", "y"], ["z"]])
    # the first entity in the order given keeps it: listed first in {bz}, b leaves {bcx}
    assert _scores(key, [["a"], ["b", "z"], ["b", "c", "x"], ["d", "y"]]) == _scores(
        key, [["a"], ["b", "z"], ["c", "x"], ["d", "y"]]
    )
    # an entity all of whose mentions were listed before disappears (CEAF-e counts entities)
    assert _scores(key, [["a"], ["b", "c"], ["b"]]) == _scores(key, [["a"], ["b", "c"]])


def test_a_repeated_mention_in_conll_files_as_the_reference_scorer():
    from iaa_desktop.core.kinds.coref.compare import entities_of
    from iaa_desktop.core.kinds.coref.readers import read_conll
    from tests.conftest import FIXTURES

    folder = FIXTURES / "coref" / "repeated_mention"
    (key,) = read_conll(folder / "key.conll")
    (resp,) = read_conll(folder / "response.conll")
    # entity 1 opens before entity 3 on the same token, so it keeps the repeated span
    assert [len(c) for c in resp.classes] == [1, 3, 1, 2]
    _assert_repeated_case(_scores(entities_of(key), entities_of(resp)))


def test_a_repeated_mention_through_the_command_line(capsys):
    from iaa_desktop.cli import main as cli_main
    from tests.conftest import FIXTURES

    folder = FIXTURES / "coref" / "repeated_mention"
    args = ["report", str(folder / "key.conll"), str(folder / "response.conll"), "--json", "-"]
    assert cli_main(args) == 0
    _assert_repeated_case(json.loads(capsys.readouterr().out)["scores"][0])

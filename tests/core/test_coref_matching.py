"""Partial, head and dependency matching of mentions, scored as the CorefUD scorer scores them.

The files are made here, in the shapes of the CorefUD scorer's documented cases
(``ufal/corefud-scorer``, ``tests/tests-corefud``: head match TC-HMA, non-contiguous mentions
TC-NCMA/TC-NCMB and overlapping mentions TC-OLMA/B/C under ``partial-corefud-match``, zeros
TC-ZD … TC-ZG) on a shorter document of our own; the expected figures are the values its unit
tests (``tests/unittests-corefud.py``) assert, to 1e-4. A mention is written ``"4-7^5"``: the
tokens 4 to 7 in file order (empty nodes between them included), head 5 (the first token when
no ``^`` is given); parts of a discontinuous mention are joined by commas.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.kinds.coref.conllu import read_corefud, read_ua
from iaa_desktop.core.kinds.coref.mention_match import MATCHING, matched_entities
from iaa_desktop.core.kinds.coref.readers import CorefDocument
from iaa_desktop.core.metrics.coref_scores import score_document


def _order(ident: str) -> tuple[int, int]:
    w, _, z = ident.partition(".")
    return int(w), int(z or 0)


def _tokens_of(spec: str, ids: list[str]) -> tuple[list[list[str]], str]:
    """The runs of tokens (each a contiguous stretch of the file) and the head of a mention."""
    words, _, head = spec.partition("^")
    chosen: list[str] = []
    for part in words.split(","):
        a, _, b = part.partition("-")
        lo, hi = _order(a), _order(b or a)
        chosen += [i for i in ids if lo <= _order(i) <= hi]
    at = sorted({ids.index(i) for i in chosen})
    runs: list[list[str]] = []
    for k in at:
        if runs and ids.index(runs[-1][-1]) == k - 1:
            runs[-1].append(ids[k])
        else:
            runs.append([ids[k]])
    return runs, head or ids[at[0]]


def corefud(words: int, entities: dict[str, str], empties: dict[str, str] | None = None) -> str:
    """A one-sentence CorefUD document of ``words`` words and the given empty nodes (ID → DEPS);
    ``entities``: entity → its mentions, separated by spaces."""
    empties = empties or {}
    ids = sorted([str(w) for w in range(1, words + 1)] + list(empties), key=_order)
    events: dict[str, list[tuple[int, int, str]]] = {i: [] for i in ids}
    for ent, mentions in entities.items():
        for spec in mentions.split():
            runs, head = _tokens_of(spec, ids)
            flat = [t for run in runs for t in run]
            h = flat.index(head) + 1
            for k, run in enumerate(runs, 1):
                name = ent if len(runs) == 1 else f"{ent}[{k}/{len(runs)}]"
                first, last = ids.index(run[0]), ids.index(run[-1])
                if first == last:
                    events[run[0]].append((2, 0, f"({name}-x-{h}-)"))
                else:
                    events[run[0]].append((1, -last, f"({name}-x-{h}-"))
                    events[run[-1]].append((0, -first, f"{name})"))
    lines = ["# newdoc id = shapes", "# global.Entity = eid-etype-head-other"]
    lines += ["# sent_id = shapes-1", "# text = some words"]
    for i in ids:
        cell = "".join(text for *_, text in sorted(events[i]))
        misc = f"Entity={cell}" if cell else "_"
        if i in empties:
            row = [i, f"z{i}", "_", "_", "_", "_", "_", "_", empties[i] or "_", misc]
        else:
            row = [i, f"w{i}", "_", "X", "_", "_", "0", "dep", "_", misc]
        lines.append("\t".join(row))
    return "\n".join(lines) + "\n\n"


UA_COLUMNS = (
    "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS "
    "REFERENCE NOM_SEM"
)


def ua(words: int, entities: dict[str, str], key: bool, named: bool) -> str:
    """The same document in Universal Anaphora CoNLL-U Plus, space-aligned: a key markable
    carries its head as ``Min`` (the response's none, as in the scorer's files); a closing names
    its markable (``markable_3)``) when ``named`` (crossing boundaries), else is a bare ``)``."""
    ids = [str(w) for w in range(1, words + 1)]
    events: dict[str, list[tuple[int, int, str]]] = {i: [] for i in ids}
    n = 0
    for k, (_ent, mentions) in enumerate(entities.items(), 1):
        for spec in mentions.split():
            runs, head = _tokens_of(spec, ids)
            n += 1
            attrs = f"EntityID={k}|MarkableID=markable_{n}" + (f"|Min={head}" if key else "")
            for run in runs:
                first, last = ids.index(run[0]), ids.index(run[-1])
                if first == last:
                    events[run[0]].append((2, 0, f"({attrs})"))
                else:
                    events[run[0]].append((1, -last, f"({attrs}"))
                    events[run[-1]].append((0, -first, f"markable_{n})" if named else ")"))
    lines = [f"# global.columns = {UA_COLUMNS}", "# newdoc id = shapes", "# sent_id = shapes-1"]
    for i in ids:
        cell = "".join(text for *_, text in sorted(events[i]))
        lines.append("   ".join([i, f"w{i}", *["_"] * 8, cell or "_", *["_"] * 4]))
    return "\n".join(lines) + "\n\n"


# -- the shapes (30 words; entity 2's last mentions are the same in every file) ---------------

T = "19-21 25-26 28"
HMA = {"e1": "2-13^10 23", "e2": "2-5^3 " + T}
HMA_RESPONSES = {
    "TC-HMA-1": HMA,
    "TC-HMA-2": {"e2": "3 " + T, "e1": "10 23"},
    "TC-HMA-3": {"e1": "2-11^10 23", "e2": "3-9 18-21^19 25-26 28"},
    "TC-HMA-4": {"e2": "4-5 " + T, "e1": "9-11^10 23"},
    "TC-HMA-5": {"e2": "3-5^4 " + T, "e1": "9-11^10 23"},
}
NCMA = {"e1": "2-13^10 23", "e2": T}
NCMB = {"e1": "2-7,10-11,13^10 23", "e2": T}
OLMA = {"e1": "2-13^10 23", "e2": "2-5^3 " + T}
OLMB = {"e1": "2-13 23", "e2": "2-5^3 " + T}
OLMC = {"e1": "2-13^4 23", "e2": "2-5^4 " + T}


def _e1(mention: str) -> dict[str, str]:
    return {"e1": f"{mention} 23", "e2": T}


ALL = (1.0, 1.0, 1.0)
THREE_QUARTERS = {"muc": (3 / 4,) * 3, "bcub": (17 / 24,) * 3}
TWO_THIRDS = {"muc": (2 / 3,) * 3, "bcub": (7 / 10,) * 3}
PERFECT = {"muc": ALL, "bcub": ALL}
MISSING_ONE = {"muc": (3 / 4, 1, 6 / 7), "bcub": (17 / 24, 1, 34 / 41)}
HALF = {"muc": (1 / 2, 2 / 3, 4 / 7), "bcub": (11 / 24, 7 / 10, 77 / 139)}

#: case → (key, response, matching, zero matching, expected (R, P, F) per metric)
CASES = {
    **{
        name: (HMA, resp, "head", "linear", PERFECT if name < "TC-HMA-4" else THREE_QUARTERS)
        for name, resp in HMA_RESPONSES.items()
    },
    **{
        f"TC-NCMA-{k}": (
            NCMA,
            _e1(m),
            "partial",
            "linear",
            PERFECT if k in (1, 2, 5) else TWO_THIRDS,
        )
        for k, m in enumerate(
            ["2-13", "5-12", "5-15", "11-13", "4-10,12", "1-5,10-11", "4-6,11-13"], 1
        )
    },
    **{
        f"TC-NCMB-{k}": (NCMB, _e1(m), "partial", "linear", PERFECT if k < 3 else TWO_THIRDS)
        for k, m in enumerate(
            ["2-7,10-11,13", "10", "11-13", "13", "5-10", "2-4,6-10", "2-4,10-17", "2-4,13"], 1
        )
    },
    "TC-OLMA-1": (OLMA, {"e1": "2-13 23", "e2": "2-5 " + T}, "partial", "linear", PERFECT),
    "TC-OLMA-2": (OLMA, {"e2": "3 " + T, "e1": "10 23"}, "partial", "linear", PERFECT),
    "TC-OLMA-3": (OLMA, {"e2": "3-5 " + T, "e1": "4-11 23"}, "partial", "linear", PERFECT),
    "TC-OLMA-4": (OLMA, {"e2": "4-5 " + T, "e1": "9-11 23"}, "partial", "linear", THREE_QUARTERS),
    "TC-OLMA-5": (OLMA, _e1("4-11"), "partial", "linear", MISSING_ONE),
    "TC-OLMA-6": (OLMA, _e1("4-5"), "partial", "linear", HALF),
    "TC-OLMB-1": (OLMB, {"e1": "2-13 23", "e2": "2-5 " + T}, "partial", "linear", PERFECT),
    "TC-OLMB-2": (OLMB, {"e1": "2 23", "e2": "3 " + T}, "partial", "linear", PERFECT),
    "TC-OLMB-3": (OLMB, {"e1": "2-4 23", "e2": "3-5 " + T}, "partial", "linear", PERFECT),
    "TC-OLMB-4": (OLMB, {"e1": "2 23", "e2": "3-7 " + T}, "partial", "linear", THREE_QUARTERS),
    "TC-OLMB-5": (OLMB, _e1("2-11"), "partial", "linear", MISSING_ONE),
    "TC-OLMB-6": (OLMB, _e1("4-5"), "partial", "linear", HALF),
    "TC-OLMC-1": (OLMC, {"e1": "2-13 23", "e2": "2-5 " + T}, "partial", "linear", PERFECT),
    "TC-OLMC-2": (
        OLMC,
        _e1("4"),
        "partial",
        "linear",
        {"muc": (2 / 4, 2 / 3, 4 / 7), "bcub": (3 / 6, 4 / 5, 8 / 13)},
    ),
    "TC-OLMC-3": (OLMC, _e1("4-6"), "partial", "linear", MISSING_ONE),
    "TC-OLMC-4": (OLMC, {"e2": "2-4 " + T, "e1": "4-9 23"}, "partial", "linear", PERFECT),
}

# zeros: 20 words; entity e1's last mention holds the empty node 15.1
ZD = {"e0": "1-2", "e1": "4-7 11 15-17^15.1", "e2": "13-14 19"}
ZE = {"e0": "1-2", "e1": "4-7 11 15-17^15", "e2": "13-14 19"}
ONE_WRONG = {"muc": (2 / 3,) * 3, "bcub": (26 / 36,) * 3}
ZERO_ALL = {"muc": ALL, "bcub": ALL}
E15 = {"15.1": ""}
ZF = {"e1": "1-2 12 15.1", "e2": "4-7 19"}
ZF_MOVED = {"e1": "1-2 12 17.1", "e2": "4-7 19"}
ZF_TWO = {"e1": "1-2 12 15.1", "e2": "4-7 13.1 19"}
ZG_TWO = {"e1": "1-2 12 15.2", "e2": "4-7 15.1 19"}
COMPETING = {"bcub": (11 / 15, 1 / 2, 22 / 37), "muc": (2 / 3, 1 / 2, 4 / 7)}
COMPETING_LINEAR = {"bcub": (1, 13 / 18, 26 / 31), "muc": (1, 3 / 4, 6 / 7)}
MOVED_LINEAR = {"bcub": (2 / 3,) * 3, "muc": (2 / 3,) * 3}
ZG_DEPS = {"15.1": "13:a|14:b|15:c"}

#: case → (key, key empties, response, response empties, matching, zero matching, expected)
ZERO_CASES = {
    "TC-ZD-2": (ZD, E15, {**ZD, "e1": "4-7 11 15-17^15"}, E15, "partial", "linear", ZERO_ALL),
    "TC-ZD-2 head": (ZD, E15, {**ZD, "e1": "4-7 11 15-17^15"}, E15, "head", "linear", ONE_WRONG),
    "TC-ZD-3": (ZD, E15, {**ZD, "e1": "4-7 11 15-15.1^15"}, E15, "partial", "linear", ZERO_ALL),
    "TC-ZD-3 head": (ZD, E15, {**ZD, "e1": "4-7 11 15-15.1^15"}, E15, "head", "linear", ONE_WRONG),
    "TC-ZE-1": (ZE, E15, ZD, E15, "partial", "linear", ZERO_ALL),
    "TC-ZE-1 head": (ZE, E15, ZD, E15, "head", "linear", ONE_WRONG),
    "TC-ZE-2": (ZE, E15, {**ZE, "e1": "4-7 11 15-15.1^15.1"}, E15, "partial", "linear", ZERO_ALL),
    "TC-ZE-2 exact": (ZE, E15, {**ZE, "e1": "4-7 11 15-15.1^15.1"}, E15, "exact", "linear", ONE_WRONG),
    "TC-ZE-2 head": (ZE, E15, {**ZE, "e1": "4-7 11 15-15.1^15.1"}, E15, "head", "linear", ONE_WRONG),
    "TC-ZF-1": (ZF, {"15.1": "15:nsubj"}, ZF, {"15.1": "15:nsubj"}, "head", "dependent", ZERO_ALL),
    "TC-ZF-2": (ZF, {"15.1": "15:nsubj"}, ZF_MOVED, {"17.1": "15:nsubj"}, "head", "dependent", ZERO_ALL),
    "TC-ZF-2 linear": (ZF, {"15.1": "15:nsubj"}, ZF_MOVED, {"17.1": "15:nsubj"}, "head", "linear", MOVED_LINEAR),
    "TC-ZF-3": (ZF, {"15.1": "15:nsubj"}, ZF_MOVED, {"17.1": "15:dep"}, "head", "dependent", ZERO_ALL),
    "TC-ZF-3 linear": (ZF, {"15.1": "15:nsubj"}, ZF_MOVED, {"17.1": "15:dep"}, "head", "linear", MOVED_LINEAR),
    "TC-ZF-4": (ZF, {"15.1": "15:nsubj"}, ZF_TWO, {"13.1": "15:nsubj", "15.1": "15:dep"}, "head", "dependent", COMPETING),
    "TC-ZF-4 linear": (ZF, {"15.1": "15:nsubj"}, ZF_TWO, {"13.1": "15:nsubj", "15.1": "15:dep"}, "head", "linear", COMPETING_LINEAR),
    "TC-ZF-5": (ZF, {"15.1": "15:nsubj"}, ZF_TWO, {"13.1": "15:nsubj", "15.1": "15:nsubj"}, "head", "dependent", COMPETING),
    "TC-ZF-5 linear": (ZF, {"15.1": "15:nsubj"}, ZF_TWO, {"13.1": "15:nsubj", "15.1": "15:nsubj"}, "head", "linear", COMPETING_LINEAR),
    "TC-ZG-1": (ZF, ZG_DEPS, ZF, {"15.1": "15:c"}, "head", "dependent", ZERO_ALL),
    "TC-ZG-2": (ZF, ZG_DEPS, ZG_TWO, {"15.1": "13:a|18:x", "15.2": "13:a|15:x"}, "head", "dependent", COMPETING_LINEAR),
    "TC-ZG-3": (ZF, ZG_DEPS, ZG_TWO, {"15.1": "13:x|14:y|15:z", "15.2": "13:a"}, "head", "dependent", COMPETING_LINEAR),
}  # fmt: skip


def _scores(tmp_path: Path, key: str, response: str, options: list[str], capsys) -> dict:
    (tmp_path / "key.conllu").write_text(key, encoding="utf-8")
    (tmp_path / "response.conllu").write_text(response, encoding="utf-8")
    args = ["report", "--kind", "coref", str(tmp_path / "key.conllu")]
    code = cli_main([*args, str(tmp_path / "response.conllu"), *options, "--json", "-"])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    data = json.loads(cap.out)
    assert data["errors"] == []
    return data


def _check(scores: dict, expected: dict) -> None:
    for metric, (r, p, f) in expected.items():
        got = scores[metric]
        assert (got["recall"], got["precision"], got["f1"]) == pytest.approx((r, p, f), abs=1e-4), (
            metric
        )


def _options(matching: str, zeros: str) -> list[str]:
    return ["--mention-matching", matching, "--zero-matching", zeros]


@pytest.mark.parametrize("case", sorted(CASES))
def test_partial_and_head_matching_give_the_reference_scores(case, tmp_path, capsys):
    key, resp, matching, zeros, expected = CASES[case]
    data = _scores(tmp_path, corefud(30, key), corefud(30, resp), _options(matching, zeros), capsys)
    _check(data["scores"][0], expected)
    assert data["scores_matching"] == {
        "mentions": matching,
        "zeros": zeros,
        "split_antecedents": False,
    }


@pytest.mark.parametrize("case", sorted(ZERO_CASES))
def test_zero_cases_with_head_partial_and_dependency_matching(case, tmp_path, capsys):
    key, key_empty, resp, resp_empty, matching, zeros, expected = ZERO_CASES[case]
    data = _scores(
        tmp_path,
        corefud(20, key, key_empty),
        corefud(20, resp, resp_empty),
        _options(matching, zeros),
        capsys,
    )
    _check(data["scores"][0], expected)


@pytest.mark.parametrize("case", sorted(c for c in CASES if c[3] in "NO"))
def test_partial_matching_in_universal_anaphora_files(case, tmp_path, capsys):
    """The scorer's Universal Anaphora versions of the same cases (``tests/tests-ua/
    partial-match-corefud``): the key's ``Min`` is the minimum span; overlapping markables
    close by name."""
    key, resp, matching, zeros, expected = CASES[case]
    named = case.startswith("TC-OLM")
    data = _scores(
        tmp_path,
        ua(30, key, key=True, named=named),
        ua(30, resp, key=False, named=named),
        _options(matching, zeros),
        capsys,
    )
    _check(data["scores"][0], expected)


def test_exact_matching_is_the_default_and_leaves_the_layout_as_it_was(tmp_path, capsys):
    key, resp = corefud(30, OLMA), corefud(30, {"e2": "3 " + T, "e1": "10 23"})  # TC-OLMA-2
    data = _scores(tmp_path, key, resp, [], capsys)
    assert "scores_matching" not in data
    # matched exactly, the shortened mentions are other mentions: MUC R 2/4, P 2/4
    muc = data["scores"][0]["muc"]
    assert (muc["recall"], muc["precision"]) == pytest.approx((2 / 4, 2 / 4))


def test_heads_and_dependencies_are_read(tmp_path):
    text = corefud(20, {"e1": "1-2 12 15.1", "e2": "4-7^6 19"}, {"15.1": "15:nsubj:pass|3:obj"})
    (tmp_path / "k.conllu").write_text(text, encoding="utf-8")
    doc = read_corefud(tmp_path / "k.conllu")[0]
    ids = [t for t, _form in doc.tokens]
    heads = {doc.mentions[k]: ids[h] for k, h in doc.heads.items()}
    assert heads["w4 w5 w6 w7"] == (0, 6, 0) and heads["z15.1"] == (0, 15, 1)
    assert doc.deps[(0, 15, 1)] == (((0, 15, 0), "nsubj:pass"), ((0, 3, 0), "obj"))


def test_a_closing_naming_no_open_markable_is_an_error_at_its_line(tmp_path):
    text = ua(30, OLMA, key=True, named=True).replace("markable_1)", "markable_9)")
    (tmp_path / "k.conllu").write_text(text, encoding="utf-8")
    doc = read_ua(tmp_path / "k.conllu")[0]
    line = next(k for k, s in enumerate(text.splitlines(), 1) if "markable_9)" in s)
    assert [(e.line, "'markable_9)' closes no open markable" in e.message) for e in doc.errors][
        0
    ] == (line, True)
    assert {doc.mentions[k]: v for k, v in doc.mins.items()}["w19 w20 w21"] == (18,)


# -- invariants ---------------------------------------------------------------------------


@st.composite
def documents(draw):
    """A one-sentence document of 12 words with mentions (a head each) in a few entities."""
    spans = draw(
        st.lists(
            st.tuples(st.integers(0, 11), st.integers(1, 4)).map(
                lambda t: (t[0], min(12, t[0] + t[1]))
            ),
            min_size=1,
            max_size=7,
            unique=True,
        )
    )
    heads = {("", a, b): draw(st.integers(a, b - 1)) for a, b in spans}
    groups = draw(st.lists(st.integers(0, 2), min_size=len(spans), max_size=len(spans)))
    classes = [[("", a, b) for (a, b), g in zip(spans, groups) if g == k] for k in range(3)]
    return CorefDocument(
        "d",
        "d.conllu",
        " ".join(f"w{i}" for i in range(12)),
        mentions={("", a, b): "" for a, b in spans},
        classes=[c for c in classes if c],
        tokens=[((0, i + 1, 0), f"w{i}") for i in range(12)],
        heads=heads,
    )


def _entities(doc):
    return [list(c) for c in doc.classes]


@settings(max_examples=80, deadline=None)
@given(documents(), documents())
def test_matching_invariants(key, resp):
    for mode in MATCHING:
        # a document against itself: every score 1, whatever the matching
        same = score_document(*matched_entities(key, key, _entities(key), _entities(key), mode))
        for metric in ("mentions", "bcub", "ceafm", "ceafe", "lea"):
            assert same.to_json()[metric]["f1"] == pytest.approx(1.0), (mode, metric)
    exact = score_document(_entities(key), _entities(resp)).to_json()
    assert (
        score_document(
            *matched_entities(key, resp, _entities(key), _entities(resp), "exact")
        ).to_json()
        == exact
    )
    # partial matching pairs every exact pair and maybe more: mention recall never falls
    partial = score_document(
        *matched_entities(key, resp, _entities(key), _entities(resp), "partial")
    ).to_json()
    assert partial["mentions"]["recall"] >= exact["mentions"]["recall"] - 1e-12
    assert partial["mentions"]["precision"] >= exact["mentions"]["precision"] - 1e-12

"""Zero mentions (empty nodes) and space-aligned Universal Anaphora files, scored as the reference
scorers score them.

The files are made here, in the shapes of the CorefUD scorer's documented zero test cases
(``ufal/corefud-scorer``, ``tests/tests-corefud/zeros/ZeroTestCases.README``: TC-ZA … TC-ZF) and
of the Universal Anaphora scorer's (``tests/tests-ua/zeros``, columns aligned with spaces and word
IDs running on over sentences); the expected figures are the values its unit tests
(``unittests-corefud.py``, ``unittests-ua.py``) assert for exact mention matching with linear
zero matching — a word is identified by (sentence, ID), an empty node by its decimal ID.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.kinds.coref.conllu import read_corefud, read_ua

Mention = tuple[str, str, str]  # (entity, "sentence:first id", "sentence:last id")


def _tokens(sentences: list[tuple[int, tuple[str, ...]]]) -> list[list[str]]:
    out = []
    for words, empties in sentences:
        ids = [str(w) for w in range(1, words + 1)] + list(empties)
        out.append(sorted(ids, key=lambda i: tuple(int(x) for x in i.split("."))))
    return out


def _marks(sents: list[list[str]], mentions: list[Mention]) -> dict[tuple[int, str], list[str]]:
    """Per token, the bracket events: closings, then openings, then one-token mentions."""
    order = {(s, i): k for s, ids in enumerate(sents) for k, i in enumerate(ids)}
    opens, singles, closes = {}, {}, {}
    for ent, first, last, *_part_of in mentions:
        a = (int(first.split(":")[0]), first.split(":")[1])
        b = (int(last.split(":")[0]), last.split(":")[1])
        if a == b:
            singles.setdefault(a, []).append(ent)
        else:
            opens.setdefault(a, []).append((order[b], ent))
            closes.setdefault(b, []).append((order[a], ent))
    out: dict[tuple[int, str], list[str]] = {}
    for tok in order:
        ev = [("close", e) for _, e in sorted(closes.get(tok, []), reverse=True)]
        ev += [("open", e) for _, e in sorted(opens.get(tok, []), reverse=True)]
        ev += [("single", e) for e in singles.get(tok, [])]
        out[tok] = ev
    return out


def corefud(sentences, mentions: list[Mention]) -> str:
    """A CorefUD CoNLL-U document: ``sentences`` are (words, empty node IDs)."""
    sents = _tokens(sentences)
    marks = _marks(sents, mentions)
    lines = ["# newdoc id = zeros", "# global.Entity = eid-etype-head-other"]
    for s, ids in enumerate(sents):
        lines += [f"# sent_id = zeros-{s + 1}", "# text = a sentence"]
        for i in ids:
            cell = "".join(
                {"open": f"({e}-x-1-", "close": f"{e})", "single": f"({e}-x-1-)"}[k]
                for k, e in marks[(s, i)]
            )
            misc = f"Entity={cell}" if cell else "_"
            lines.append("\t".join([i, f"w{i}", "_", "_", "_", "_", "0", "_", "_", misc]))
        lines.append("")
    return "\n".join(lines) + "\n"


UA_COLUMNS = (
    "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS "
    "REFERENCE NOM_SEM"
)


def ua(sentences, mentions: list) -> str:
    """The same in Universal Anaphora CoNLL-U Plus as its scorer's test files write it: columns
    aligned with runs of spaces, word IDs running on over the sentences. A mention given a
    fourth element, a markable name, shares its MarkableID with the other parts of that name
    (a discontinuous markable)."""
    sents = _tokens(sentences)
    named = {(m[0], m[1]): m[3] for m in mentions if len(m) > 3}
    marks = _marks(sents, [m[:3] for m in mentions])
    ent_no = {e: str(k) for k, e in enumerate(dict.fromkeys(m[0] for m in mentions))}
    lines = [f"# global.columns = {UA_COLUMNS}", "# newdoc id = zeros"]
    offset, markable = 0, 0
    for s, ids in enumerate(sents):
        lines += [f"# sent_id = zeros-{s + 1}", "# text = a sentence"]
        for i in ids:
            cell = ""
            for k, e in marks[(s, i)]:
                if k == "close":
                    cell += ")"
                    continue
                markable += 1
                mid = named.get((e, f"{s}:{i}"), f"markable_{markable}")
                cell += f"(EntityID={ent_no[e]}|MarkableID={mid}"
                cell += ")" if k == "single" else ""
            w, _, z = i.partition(".")
            ident = str(int(w) + offset) + (f".{z}" if z else "")
            row = [ident, f"w{i}"] + ["_"] * 8 + [cell or "_"] + ["_"] * 4
            lines.append("     ".join(row))
        offset += sum(1 for i in ids if "." not in i)
        lines.append("")
    return "\n".join(lines) + "\n"


# -- the shapes of the reference test files -------------------------------------------------

ZA_KEY = [
    ("e0", "0:1", "0:2"),
    ("e1", "0:4", "0:7"),
    ("e1", "1:1", "1:1"),
    ("e2", "1:3", "1:4"),
    ("e2", "1:5.1", "1:5.1"),
    ("e2", "1:7", "1:9"),
]
ZA = [(9, ()), (10, ("5.1",))]
ZB_KEY = ZA_KEY[:5] + [("e2", "1:5.2", "1:5.2")]
ZB = [(9, ()), (8, ("5.1", "5.2"))]
ZC_KEY = [*ZA_KEY[:2], ("e2", "1:1", "1:1"), *ZA_KEY[3:5], ("e1", "1:5.2", "1:5.2")]
ZD_KEY = [
    ("e0", "0:1", "0:2"),
    ("e1", "0:4", "0:7"),
    ("e1", "0:11", "0:11"),
    ("e2", "0:13", "0:14"),
    ("e1", "0:15", "0:17"),
    ("e2", "0:19", "0:19"),
]
ZD = [(20, ("15.1",))]
ZF_KEY = [
    ("e1", "0:1", "0:2"),
    ("e2", "0:4", "0:7"),
    ("e1", "0:12", "0:12"),
    ("e1", "0:15.1", "0:15.1"),
    ("e2", "0:19", "0:19"),
]

PERFECT = {m: (1.0, 1.0, 1.0) for m in ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc")}
MISSING = {  # TC-ZA-2, TC-ZB-2, TC-ZC-2
    "muc": (1 / 3, 1, 1 / 2),
    "bcub": ((7 / 3) / 6, 1, 14 / 25),
    "ceafe": (0.6, 0.9, 0.72),
    "ceafm": (0.5, 1, 0.66667),
    "lea": ((1 + 3 * (1 / 3)) / 6, 1, 0.5),
    "blanc": (0.21591, 1, 0.35385),
}
_LEA_P = (1 + 3 * (1 / 3) + 4 * (3 / 6)) / 9
FALSE_ALARM = {  # TC-ZA-3
    "muc": (1, 3 / 5, 0.75),
    "bcub": (1, (4 + 7 / 12) / 9, 110 / 163),
    "ceafe": (0.88571, 0.66429, 0.75918),
    "ceafm": (1, 0.66667, 0.8),
    "lea": (1, _LEA_P, 2 * _LEA_P / (1 + _LEA_P)),
    "blanc": (1, 0.42593, 0.59717),
}
BOTH = {  # TC-ZA-4, TC-ZA-5
    "muc": (1 / 3, 1 / 3, 1 / 3),
    "bcub": ((3 + 1 / 3) / 6, (1 + 4 / 3 + 1 / 2) / 7, 2 * (5 / 9) * (17 / 42) / (5 / 9 + 17 / 42)),
    "ceafe": (0.73333, 0.55, 0.62857),
    "ceafm": (0.66667, 0.57143, 0.61538),
    "lea": (0.5, 2 / 7, 2 * 0.5 * 2 / 7 / (0.5 + 2 / 7)),
    "blanc": (0.35227, 0.27206, 0.30357),
}
ONE_WRONG = {"bcub": (26 / 36,) * 3, "muc": (2 / 3,) * 3}  # TC-ZD-3/TC-ZE-2 exact
LINEAR_COMPETING = {"bcub": (1, 13 / 18, 26 / 31), "muc": (1, 3 / 4, 6 / 7)}  # TC-ZF-4/5 linear
LINEAR_MOVED = {"bcub": (2 / 3,) * 3, "muc": (2 / 3,) * 3}  # TC-ZF-2/3 linear

ZA_RESPONSES = {
    "TC-ZA-1": (ZA, ZA_KEY, PERFECT),
    "TC-ZA-2": (
        [(9, ()), (10, ())],
        [ZA_KEY[0], ZA_KEY[3], ZA_KEY[5]],
        MISSING,
    ),
    "TC-ZA-3": (
        [(9, ()), (10, ("2.1", "5.1"))],
        [
            *ZA_KEY[:3],
            ("e1", "1:2.1", "1:2.1"),
            ZA_KEY[3],
            ("e2", "1:5", "1:5"),
            ZA_KEY[4],
            ("e3", "1:6", "1:6"),
            ZA_KEY[5],
        ],
        FALSE_ALARM,
    ),
    "TC-ZA-4": (
        [(9, ()), (10, ("2.1",))],
        [
            *ZA_KEY[:3],
            ("e1", "1:2.1", "1:2.1"),
            ZA_KEY[3],
            ("e3", "1:5", "1:5"),
            ("e2", "1:6", "1:6"),
        ],
        BOTH,
    ),
    "TC-ZA-5": (
        [(9, ()), (10, ("6.1",))],
        [
            *ZA_KEY[:3],
            ("e1", "1:2", "1:2"),
            ZA_KEY[3],
            ("e3", "1:5", "1:5"),
            ("e2", "1:6.1", "1:6.1"),
        ],
        BOTH,
    ),
}

CASES = {
    **{name: (ZA, ZA_KEY, *rest) for name, rest in ZA_RESPONSES.items()},
    "TC-ZB-1": (ZB, ZB_KEY, ZB, ZB_KEY, PERFECT),
    "TC-ZB-2": (ZB, ZB_KEY, [(9, ()), (8, ("5.1",))], [ZA_KEY[0], *ZA_KEY[3:5]], MISSING),
    "TC-ZC-1": (ZB, ZC_KEY, ZB, ZC_KEY, PERFECT),
    "TC-ZC-2": (ZB, ZC_KEY, [(9, ()), (8, ("5.1",))], [ZA_KEY[0], *ZA_KEY[3:5]], MISSING),
    "TC-ZD-1": (ZD, ZD_KEY, ZD, ZD_KEY, PERFECT),
    "TC-ZD-3 exact": (
        ZD,
        ZD_KEY,
        ZD,
        [*ZD_KEY[:4], ("e1", "0:15", "0:15.1"), ZD_KEY[5]],
        ONE_WRONG,
    ),
    "TC-ZF-1": (ZD, ZF_KEY, ZD, ZF_KEY, PERFECT),
    "TC-ZF-2 linear": (
        ZD,
        ZF_KEY,
        [(20, ("17.1",))],
        [*ZF_KEY[:3], ("e1", "0:17.1", "0:17.1"), ZF_KEY[4]],
        LINEAR_MOVED,
    ),
    "TC-ZF-4 linear": (
        ZD,
        ZF_KEY,
        [(20, ("13.1", "15.1"))],
        [*ZF_KEY[:3], ("e2", "0:13.1", "0:13.1"), ("e1", "0:15.1", "0:15.1"), ZF_KEY[4]],
        LINEAR_COMPETING,
    ),
}


def _scores(tmp_path: Path, key: str, response: str, suffix: str, capsys) -> dict:
    (tmp_path / f"key{suffix}").write_text(key, encoding="utf-8")
    (tmp_path / f"response{suffix}").write_text(response, encoding="utf-8")
    args = ["report", "--kind", "coref", str(tmp_path / f"key{suffix}")]
    code = cli_main([*args, str(tmp_path / f"response{suffix}"), "--json", "-"])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    data = json.loads(cap.out)
    assert data["errors"] == []
    return data["scores"][0]


def _check(scores: dict, expected: dict) -> None:
    for metric, (r, p, f) in expected.items():
        got = scores[metric]
        assert (got["recall"], got["precision"], got["f1"]) == pytest.approx((r, p, f), abs=1e-4), (
            metric
        )


@pytest.mark.parametrize("case", sorted(CASES))
def test_corefud_zero_cases_give_the_reference_scores(case, tmp_path, capsys):
    key_sents, key, resp_sents, resp, expected = CASES[case]
    scores = _scores(
        tmp_path, corefud(key_sents, key), corefud(resp_sents, resp), ".conllu", capsys
    )
    _check(scores, expected)


@pytest.mark.parametrize(
    "case", [c for c in sorted(CASES) if c.startswith(("TC-ZA", "TC-ZB", "TC-ZC"))]
)
def test_space_aligned_universal_anaphora_zero_cases(case, tmp_path, capsys):
    key_sents, key, resp_sents, resp, expected = CASES[case]
    scores = _scores(tmp_path, ua(key_sents, key), ua(resp_sents, resp), ".conllu", capsys)
    _check(scores, expected)


def test_space_aligned_file_reads_as_the_tab_separated_one(tmp_path):
    text = ua(ZA, ZA_KEY)
    (tmp_path / "spaces.conllu").write_text(text, encoding="utf-8")
    tabs = "\n".join(
        "\t".join(line.split()) if line and not line.startswith("#") else line
        for line in text.splitlines()
    )
    (tmp_path / "tabs.conllu").write_text(tabs + "\n", encoding="utf-8")
    spaced, tabbed = read_ua(tmp_path / "spaces.conllu")[0], read_ua(tmp_path / "tabs.conllu")[0]
    assert spaced.errors == [] and len(spaced.mentions) == 6
    assert spaced.mentions == tabbed.mentions and spaced.classes == tabbed.classes


def test_a_line_of_another_column_count_is_an_error_at_its_line(tmp_path):
    lines = ua(ZA, ZA_KEY).splitlines()
    n = next(k for k, line in enumerate(lines) if line.startswith("3 "))
    lines[n] = lines[n].rsplit("     ", 2)[0]  # two columns short
    (tmp_path / "short.conllu").write_text("\n".join(lines) + "\n", encoding="utf-8")
    doc = read_ua(tmp_path / "short.conllu")[0]
    assert [(e.line, "13 columns" in e.message) for e in doc.errors] == [(n + 1, True)]


def test_empty_nodes_keep_their_identity_in_the_reader(tmp_path):
    (tmp_path / "k.conllu").write_text(corefud(ZA, ZA_KEY), encoding="utf-8")
    doc = read_corefud(tmp_path / "k.conllu")[0]
    ids = [t for t, _form in doc.tokens]
    assert (1, 5, 1) in ids and ids.index((1, 5, 1)) == ids.index((1, 5, 0)) + 1
    assert ids[9] == (1, 1, 0)  # the second sentence starts again at word 1


def test_adjudication_shows_the_words_of_mentions_after_a_zero_only_one_annotator_has(tmp_path):
    from iaa_desktop.core.kinds.coref.adjudication import load_documents

    # the second annotator's file comes first: the text is rebuilt from the file without 5.1
    (tmp_path / "a.conllu").write_text(corefud([(9, ()), (10, ())], ZA_KEY[:4]), encoding="utf-8")
    (tmp_path / "b.conllu").write_text(corefud(ZA, ZA_KEY), encoding="utf-8")
    _names, docs, _fmt, errors = load_documents([tmp_path / "a.conllu", tmp_path / "b.conllu"])
    assert errors == []
    doc = docs[0]
    assert doc.text.startswith("w1 w2") and doc.token_spans is not None
    mentions = set().union(*(a.mentions for a in doc.annotations))
    # '1:7 … 1:9' of the second annotator is the words w7 w8 w9 for both
    surfaces = {doc.surface(m) for m in mentions}
    assert "w7 w8 w9" in surfaces and "w3 w4" in surfaces
    zero = [m for m in mentions if doc.char_span(m)[0] == doc.char_span(m)[1]]
    assert len(zero) == 1  # the empty node: a zero-width span where the file has none


def _report(paths, capsys):
    code = cli_main(["report", "--kind", "coref", *map(str, paths), "--json", "-"])
    return code, capsys.readouterr()


def test_an_annotator_without_mentions_is_reported_and_all_empty_stops(tmp_path, capsys):
    a, b, c = (tmp_path / f"{x}.conllu" for x in "abc")
    a.write_text(corefud(ZA, ZA_KEY), encoding="utf-8")
    c.write_text(corefud(ZA, ZA_KEY[:4]), encoding="utf-8")
    # '# global.columns' names the columns in another order: no mention is found in IDENTITY
    swapped = ua(ZA, ZA_KEY).replace("IDENTITY BRIDGING", "BRIDGING IDENTITY")
    b.write_text(swapped, encoding="utf-8")
    code, cap = _report([a, b, c], capsys)
    assert code == 1, cap.err  # figures written, with problems
    data = json.loads(cap.out)
    assert data["annotators"] == ["a", "c"]  # b is not scored 0: it is left out
    errors = data["errors"]
    assert [Path(e["file"]).name for e in errors] == ["b.conllu"]
    assert "no mentions were found" in errors[0]["message"]
    for other in (a, c):
        other.write_text(swapped, encoding="utf-8")
    code, cap = _report([a, b, c], capsys)
    assert code == 2 and "no mentions were found" in cap.err
    assert all(f"{x}.conllu" in cap.err for x in "abc")


# the Universal Anaphora scorer's discontinuous-markable cases (tests/tests-ua/discontinuous-craft,
# TC-O): markable 2 is two one-word parts; unittests-ua.py test_O1 / test_O2 (exact matching)
O_SENTENCES = [(9, ()), (11, ())]
O_KEY = [
    ("e0", "0:1", "0:2"),
    ("e1", "0:4", "0:4", "markable_b"),
    ("e1", "0:7", "0:7", "markable_b"),
    ("e1", "1:1", "1:1"),
    ("e2", "1:3", "1:4"),
    ("e2", "1:6", "1:6"),
    ("e2", "1:8", "1:10"),
]


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        (O_KEY, {**PERFECT}),
        ([m for m in O_KEY if m[1] != "0:7"], {"muc": (2 / 3, 2 / 3, 2 / 3)}),
    ],
    ids=["TC-O-1", "TC-O-2"],
)
def test_discontinuous_markables_in_space_aligned_files(tmp_path, capsys, response, expected):
    expected = {k: v for k, v in expected.items() if k != "lea"}  # LEA: not asserted there
    scores = _scores(tmp_path, ua(O_SENTENCES, O_KEY), ua(O_SENTENCES, response), ".conllu", capsys)
    _check(scores, expected)

"""Coreference adjudication: units, consistent gold chains, brat and CoNLL gold round trips."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.adjudication import (
    AdjudicationSession,
    AdjudicationStore,
    Strategy,
    auto_merge,
)
from iaa_desktop.core.kinds.coref.adjudication import (
    DROP,
    KEEP,
    AnnotatedDoc,
    CorefDocument,
    build_model,
    decode_class,
    load_documents,
    match_classes,
    model_from_inputs,
)
from tests.conftest import shared_path


def _doc() -> CorefDocument:
    text = "Anna met Bob . She told him that he and Carl left ."

    def m(s, e):
        return ("Mention", s, e)

    anna, bob, she, him, he, carl = m(0, 4), m(9, 12), m(15, 18), m(24, 27), m(33, 35), m(40, 44)
    a = AnnotatedDoc(
        frozenset({anna, bob, she, him, he}), (frozenset({anna, she}), frozenset({bob, him, he}))
    )
    b = AnnotatedDoc(
        frozenset({anna, bob, she, him, carl}),
        (frozenset({anna, she}), frozenset({bob, him}), frozenset({carl, she})),
    )
    return CorefDocument("d1", text, (a, b))


def test_units_of_a_small_document() -> None:
    model = build_model(("A", "B"), [_doc()], "brat")
    kinds = [u.kind for u in model.units]
    assert kinds.count("group") == 2 and kinds.count("mention") == 2 and kinds.count("class") == 1
    auto = auto_merge(model, Strategy("unanimous"))
    # only the identical pair {Anna, She} merges automatically
    assert [model.units[i].kind for i in range(model.n_units) if auto[i] is not None] == ["group"]
    choices = {
        c.choice
        for c in model.choices(
            next(i for i, u in enumerate(model.units) if u.kind == "group" and auto[i] is None)
        )
    }
    assert {"annotator:A", "annotator:B", "union", "intersection"} <= choices


def test_gold_chains_follow_the_decisions() -> None:
    model = build_model(("A", "B"), [_doc()], "brat")
    gold = auto_merge(model, Strategy("unanimous"))
    for i, u in enumerate(model.units):
        if u.kind == "group" and gold[i] is None:
            gold[i] = model.versions[i, 0]  # A's {Bob, him, he}
        elif u.kind == "mention":
            gold[i] = KEEP if u.mention[1] == 33 else DROP  # keep "he", drop "Carl"
        elif u.kind == "class":
            gold[i] = KEEP  # B's {Carl, She}: Carl dropped, She already used → dissolves
    ((mentions, chains),) = model.gold_chains(gold)
    texts = sorted(sorted(model.docs[0].surface(m) for m in c) for c in chains)
    assert texts == [["Anna", "She"], ["Bob", "he", "him"]]
    assert all(m[1] != 40 for m in mentions)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_gold_chains_are_always_consistent(data) -> None:
    model = build_model(("A", "B"), [_doc()], "brat")
    gold = np.empty(model.n_units, dtype=object)
    for i in range(model.n_units):
        opts = [None] + [c.value for c in model.choices(i) if c.value is not None]
        gold[i] = data.draw(st.sampled_from(opts))
    ((mentions, chains),) = model.gold_chains(gold)
    seen: set = set()
    for c in chains:
        assert len(c) >= 2 and c <= mentions and not (c & seen)
        seen |= c


def test_matching_prefers_larger_overlap_on_ties() -> None:
    a = [frozenset({1, 2, 3, 4})]
    b = [frozenset({1, 2}), frozenset({3, 4, 5, 6})]
    # |a△b0| = 2, |a△b1| = 4: the smaller difference wins
    assert match_classes(a, b) == [(0, 0)]
    assert match_classes([frozenset({1})], [frozenset({2})]) == []


def _decide_by_keys(s: AdjudicationSession, n: int) -> None:
    for i in list(s.queue())[:n]:
        choices = [c for c in s.choices(int(i)) if c.value is not None]
        pick = next((c for c in choices if c.choice == "union"), choices[0])
        s.apply(s.choose(int(i), pick))


def _chains_as_sets(model, gold):
    return [(m, {c for c in chains}) for m, chains in model.gold_chains(gold)]


def test_brat_gold_round_trip(tmp_path: Path) -> None:
    d = shared_path("psalms-coref")
    model = model_from_inputs([d / "A", d / "B"])
    s = AdjudicationSession(model, AdjudicationStore.open(tmp_path / "s.sqlite"))
    _decide_by_keys(s, 25)
    files = s.write_gold(tmp_path / "out")
    gold_dir = tmp_path / "out" / "gold"
    assert (gold_dir / "Psalms_011.ann").exists() and (gold_dir / "Psalms_011.txt").read_text() == (
        d / "A" / "Psalms_011.txt"
    ).read_text()
    assert any(f.name == "undecided.csv" for f in files)
    names, docs, fmt, errors = load_documents([gold_dir, d / "A"])
    assert fmt == "brat" and not errors and names[0] == "gold"
    expected = model.gold_chains(s.gold)
    for doc, (mentions, chains) in zip(docs, expected):
        got = doc.annotations[0]
        assert got.mentions == mentions
        assert set(got.classes) == set(chains)  # full agreement with the gold
    s.store.close()


def test_conll_gold_round_trip(tmp_path: Path) -> None:
    c = shared_path("coref-scorer-cases", "cases")
    model = model_from_inputs([c / "TC-M.key", c / "TC-M-3.response"])
    s = AdjudicationSession(model, AdjudicationStore.open(tmp_path / "s.sqlite"))
    _decide_by_keys(s, 50)
    files = s.write_gold(tmp_path / "out")
    gold_file = files[0]
    assert gold_file.name == "gold.key"
    key_lines = (c / "TC-M.key").read_text().splitlines()
    gold_lines = gold_file.read_text().splitlines()
    assert len(key_lines) == len(gold_lines)
    assert [ln.split()[:4] for ln in key_lines if ln and not ln.startswith("#")] == [
        ln.split()[:4] for ln in gold_lines if ln and not ln.startswith("#")
    ]
    names, docs, fmt, _ = load_documents([gold_file, c / "TC-M.key"])
    expected = model.gold_chains(s.gold)
    for doc, (mentions, chains) in zip(docs, expected):
        # mentions in no chain are written as one-mention entities (read back as such)
        assert {c for c in doc.annotations[0].classes if len(c) >= 2} == set(chains)
        assert doc.annotations[0].mentions == mentions
    s.store.close()


def test_gold_cli_on_brat_and_conll(tmp_path: Path) -> None:
    from iaa_desktop.cli import main

    d = shared_path("psalms-coref")
    assert main(["gold", str(d / "A"), str(d / "B"), "--out", str(tmp_path / "b"), "-q"]) == 0
    assert (tmp_path / "b" / "gold" / "Psalms_138.ann").exists()
    names, docs, _, _ = load_documents([tmp_path / "b" / "gold", d / "A"])
    model = model_from_inputs([d / "A", d / "B"])
    chains = model.gold_chains(auto_merge(model, Strategy("unanimous")))
    assert [set(doc.annotations[0].classes) for doc in docs] == [set(c) for _, c in chains]
    c = shared_path("coref-scorer-cases", "cases")
    assert (
        main(
            [
                "gold",
                "--strategy",
                "annotator:TC-A",
                str(c / "TC-A.key"),
                str(c / "TC-A-1.response"),
                "--out",
                str(tmp_path / "c"),
                "-q",
            ]
        )
        == 0
    )
    assert (tmp_path / "c" / "gold.key").exists()


def test_decode_encode() -> None:
    v = "Mention 1 3;Mention 5 9"
    assert decode_class(v) == {("Mention", 1, 3), ("Mention", 5, 9)}


def test_mention_table_gold_round_trip(tmp_path: Path) -> None:
    a, b = tmp_path / "A", tmp_path / "B"
    a.mkdir()
    b.mkdir()
    (a / "doc1.tsv").write_text(
        "begin\tend\tentityNum\tsurface\n0\t4\t1\tAnna\n9\t12\t2\tBob\n15\t18\t1\tShe\n24\t27\t2\thim\n"
    )
    (b / "doc1.tsv").write_text(
        "begin\tend\tentityNum\tsurface\n0\t4\t1\tAnna\n9\t12\t1\tBob\n15\t18\t1\tShe\n30\t33\t\tit\n"
    )
    model = model_from_inputs([a, b])
    assert model.fmt == "table"
    s = AdjudicationSession(model, AdjudicationStore.open(tmp_path / "s.sqlite"))
    _decide_by_keys(s, 20)
    s.write_gold(tmp_path / "out")
    names, docs, fmt, errors = load_documents([tmp_path / "out" / "gold", a])
    assert names[0] == "gold" and fmt == "table" and not errors
    ((mentions, chains),) = model.gold_chains(s.gold)
    assert docs[0].annotations[0].mentions == mentions
    assert {c for c in docs[0].annotations[0].classes if len(c) >= 2} == set(chains)
    s.store.close()


def test_unreadable_coref_inputs_give_a_clear_message(tmp_path: Path) -> None:
    from iaa_desktop.core.errors import IaaError

    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    for p in (a, b):
        p.write_text("doc\tstart\tstop\tchain\nd\t0\t3\t1\n")
    with pytest.raises(IaaError, match="mention table needs the columns"):
        model_from_inputs([a, b])


def _three() -> CorefDocument:
    text = "Anna met Bob . She told him that he and Carl left ."

    def m(s, e):
        return ("Mention", s, e)

    anna, bob, she, him, he, carl = m(0, 4), m(9, 12), m(15, 18), m(24, 27), m(33, 35), m(40, 44)
    everyone = frozenset({anna, bob, she, him, he})
    a = AnnotatedDoc(everyone, (frozenset({anna, she}), frozenset({bob, him, he})))
    b = AnnotatedDoc(everyone, (frozenset({anna, she}), frozenset({bob, him})))
    c = AnnotatedDoc(everyone | {carl}, (frozenset({anna, she, he}), frozenset({bob, him, carl})))
    return CorefDocument("d1", text, (a, b, c))


def test_three_annotators_are_matched_n_way() -> None:
    model = build_model(("A", "B", "C"), [_three()], "brat")
    groups = [u for u in model.units if u.kind == "group"]
    # every annotator's two chains fall into two groups, one class of each annotator per group
    assert len(groups) == 2 and all(all(c is not None for c in u.classes) for u in groups)
    mentions = [u for u in model.units if u.kind == "mention"]
    assert [u.mention[1] for u in mentions] == [40]  # only C marks "Carl"
    i = model.units.index(mentions[0])
    assert list(model.versions[i]) == [DROP, DROP, KEEP] and "only C" in model.titles[i]
    bob = next(
        k for k, u in enumerate(model.units) if u.kind == "group" and ("Mention", 9, 12) in u.union
    )
    keys = {c.key: c for c in model.choices(bob)}
    # A {Bob, him, he}, B {Bob, him}, C {Bob, him, Carl}: what most versions hold is here the
    # intersection, offered once
    assert decode_class(keys["i"].value) == {("Mention", 9, 12), ("Mention", 24, 27)}
    assert "j" not in keys and len(decode_class(keys["u"].value)) == 4
    assert "Carl" in keys["3"].label and "line 1" in keys["3"].label  # the difference, by words
    # the filter finds a chain by any of its mentions, case-insensitive
    s_text = " ".join(model.search_texts)
    assert "him" in s_text


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_three_annotator_gold_chains_are_consistent(data) -> None:
    model = build_model(("A", "B", "C"), [_three()], "brat")
    gold = np.empty(model.n_units, dtype=object)
    for i in range(model.n_units):
        opts = [None] + [c.value for c in model.choices(i) if c.value is not None]
        gold[i] = data.draw(st.sampled_from(opts))
    ((mentions, chains),) = model.gold_chains(gold)
    seen: set = set()
    for c in chains:
        assert len(c) >= 2 and c <= mentions and not (c & seen)
        seen |= c


def _third_annotator(src: Path, dst: Path) -> None:
    """A third annotator made from A: its first two chains merged, the last mention of its third
    chain taken out of every chain, and one mention dropped altogether."""
    dst.mkdir()
    for ann in sorted(src.glob("*.ann")):
        lines = ann.read_text(encoding="utf-8").splitlines()
        stars = [k for k, ln in enumerate(lines) if ln.startswith("*")]
        if len(stars) >= 3:
            first, second, third = stars[:3]
            lines[first] = lines[first] + " " + lines[second].split(" ", 1)[1]
            t3 = lines[third].split()
            lines[third] = " ".join(t3[:-1]) if len(t3) > 4 else lines[third]
            lines[second] = ""
        t_lines = [k for k, ln in enumerate(lines) if ln.startswith("T")]
        dropped = lines[t_lines[-1]].split("\t")[0]
        lines = [ln for k, ln in enumerate(lines) if ln and k != t_lines[-1]]
        lines = [
            " ".join(p for p in ln.split(" ") if p != dropped) if ln.startswith("*") else ln
            for ln in lines
        ]
        (dst / ann.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        (dst / ann.with_suffix(".txt").name).write_text(
            ann.with_suffix(".txt").read_text(encoding="utf-8"), encoding="utf-8"
        )


def test_three_annotators_on_real_data_give_gold_chains_that_load_back(tmp_path: Path) -> None:
    d = shared_path("psalms-coref")
    _third_annotator(d / "A", tmp_path / "C")
    model = model_from_inputs([d / "A", d / "B", tmp_path / "C"])
    assert model.annotators == ("A", "B", "C")
    three = [u for u in model.units if u.kind == "group" and all(c for c in u.classes)]
    assert three, "some chains are matched across all three annotators"
    s = AdjudicationSession(model, AdjudicationStore.open(tmp_path / "s.sqlite"))
    # decide everything: the majority where there is one, else the union
    for i in s.queue():
        choices = {c.choice: c for c in s.choices(int(i)) if c.value is not None}
        pick = choices.get("majority") or choices.get("union") or next(iter(choices.values()))
        s.apply(s.choose(int(i), pick))
    assert s.progress()[0] == model.n_units
    s.write_gold(tmp_path / "out")
    names, docs, fmt, errors = load_documents([tmp_path / "out" / "gold", d / "A"])
    assert fmt == "brat" and not errors
    expected = model.gold_chains(s.gold)
    assert len(docs) == len(expected) == 5
    for doc, (mentions, chains) in zip(docs, expected):
        got = doc.annotations[0]
        assert got.mentions == mentions and set(got.classes) == set(chains)
        seen: set = set()
        for c in chains:  # consistent: chains of gold mentions, no mention twice
            assert len(c) >= 2 and c <= mentions and not (c & seen)
            seen |= c
    s.store.close()


def test_nested_mentions_are_all_drawn() -> None:
    from iaa_desktop.core.kinds.coref.marks import Mark, render

    text = "a kinsman of her mother-in-law ."
    outer, inner = Mark(13, 30, "#aaa", "C1"), Mark(13, 16, "#bbb", "C2")
    crossing = Mark(2, 16, "#ccc", "C3")  # crosses the outer mention
    out = render(text, [outer, inner, crossing])
    assert out.count(">[<") == 3 and out.count(">]<") == 3  # every mention opens and closes
    assert "C1" in out and "C2" in out and "C3" in out
    assert out.count("<span") == out.count("</span>")  # well-formed after the crossing
    plain = __import__("re").sub("<[^>]+>", "", out)
    assert plain.replace("[", "").replace("]", "").replace("C1", "").replace("C2", "").replace(
        "C3", ""
    ) == text.replace(" ", " ")


def test_the_queue_filter_finds_a_chain_by_any_of_its_mentions(tmp_path: Path) -> None:
    ex = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples" / "coref"
    model = model_from_inputs([ex / "A", ex / "B"])
    s = AdjudicationSession(model, AdjudicationStore.open(tmp_path / "s.sqlite"))
    hits = s.queue("all", "boaz")  # lower case, as typed
    assert len(hits) and any(model.units[int(i)].kind == "group" for i in hits)
    for i in hits:
        u = model.units[int(i)]
        ms = [u.mention] if u.mention is not None else list(u.union)
        assert any(model.docs[u.doc].surface(m).casefold() == "boaz" for m in ms)
    # a version is described by its words and lines, not by offsets
    g = next(int(i) for i in hits if model.units[int(i)].kind == "group")
    label = next(c.label for c in s.choices(g) if c.choice.startswith("annotator:"))
    assert "Boaz" in label and "@" not in label
    s.store.close()

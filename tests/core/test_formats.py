"""Format parsers (core/formats) on small files made from each format's documentation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats import (
    doccano,
    identify,
    inception,
    label_studio,
    prodigy,
    webanno_tsv,
)
from iaa_desktop.core.formats.escapes import split_unescaped, strip_suffix, unescape

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "formats"


def _chains(doc):
    ids = doc.span_by_id()
    return sorted(sorted((ids[m].start, ids[m].end) for m in c.mentions) for c in doc.chains)


# -- WebAnno TSV 3.x ----------------------------------------------------------------------------


def test_tsv3_chains_multi_token_stacked_and_utf16_offsets():
    p = webanno_tsv.parse(HERE / "webanno" / "chains.tsv")
    assert p.errors == ()
    doc = p.documents[0]
    # the emoji counts two UTF-16 units in the file, one code point here
    assert doc.text.endswith("it 😊 .")
    by = {(s.start, s.end, s.label) for s in doc.spans}
    i = doc.text.index("Ms. Haag")
    assert (i, i + 8, "PER") in by  # PER[2] on two tokens is one span
    assert (i, i + 3, "PERpart") in by  # stacked PERpart[3]
    e = doc.text.index("😊")
    assert (e, e + 1, "OBJ") in by
    assert doc.text[e : e + 1] == "😊"
    chains = _chains(doc)
    assert [(0, 2), (8, 15), (21, 24)] in chains
    it = doc.text.index(" it ") + 1
    assert [(i, i + 8), (it, it + 2)] in chains  # the stacked 'pr[3]|pr[2]' cell
    assert [(it, it + 2), (e, e + 1)] in chains


def test_tsv3_relations_disambiguation_and_escapes():
    doc = webanno_tsv.parse(HERE / "webanno" / "relations.tsv").documents[0]
    spans = doc.span_by_id()
    rel = [r for r in doc.relations if r.label is None][0]
    assert spans[rel.source].text == "This"
    assert spans[rel.target].id.endswith(":1")  # the first of '*[1]|*[2]'
    nxt = [r for r in doc.relations if r.label == "next"][0]
    assert spans[nxt.target].label == "A_B" and spans[nxt.target].text == "a_b ."
    assert spans[nxt.source].label == "LOC|X[1]"  # escaped '|' and brackets are one value
    assert "Escaped [x] and a_b ." in doc.text


def test_tsv3_escape_helpers():
    assert split_unescaped(r"A\|B|C", "|") == [r"A\|B", "C"]
    assert strip_suffix("PER[3]") == ("PER", "3")
    assert strip_suffix(r"X\[1\]") == (r"X\[1\]", None)
    assert unescape(r"a\_b\->c\\d") == "a_b->c\\d"


def test_tsv3_bad_rows_are_reported_and_the_rest_loads(tmp_path):
    src = (HERE / "webanno" / "alice.tsv").read_text(encoding="utf-8").splitlines()
    src[7] = src[7] + "\textra"  # a row with one column too many
    src.insert(9, "garbage line")
    f = tmp_path / "bad.tsv"
    f.write_text("\n".join(src) + "\n", encoding="utf-8")
    p = webanno_tsv.parse(f)
    lines = sorted(e.line for e in p.errors)
    assert lines == [8, 10]
    assert p.documents[0].spans  # the other rows still load


def test_tsv3_not_tsv_is_a_clear_error(tmp_path):
    f = tmp_path / "x.tsv"
    f.write_text("a\tb\n", encoding="utf-8")
    with pytest.raises(ReaderError, match="WebAnno TSV"):
        webanno_tsv.parse(f)


# -- INCEpTION project export ---------------------------------------------------------------------


def test_inception_zip_same_annotations_as_tsv3():
    parsed = inception.parse(HERE / "inception" / "project.zip")
    docs = {d.annotator: d for d in parsed.documents}
    assert set(docs) == {"alice", "bob"}  # curation is not an annotator unless asked for
    for user in ("alice", "bob"):
        tsv = webanno_tsv.parse(HERE / "webanno" / f"{user}.tsv").documents[0]
        assert _chains(docs[user]) == _chains(tsv)
        ne = lambda d: sorted((s.start, s.end, s.label) for s in d.spans if "Named" in s.layer)  # noqa: E731
        assert ne(docs[user]) == ne(tsv)
    assert "😊" in docs["bob"].text
    e = docs["bob"].text.index("😊")
    assert (e, e + 1) in [(s.start, s.end) for s in docs["bob"].spans]


def test_inception_zip_curation_on_request():
    parsed = inception.parse(HERE / "inception" / "project.zip", include_curation=True)
    assert "curation" in parsed.annotators
    assert inception.curation_available(HERE / "inception" / "project.zip")


def test_inception_broken_member_is_an_error_others_load(tmp_path):
    import zipfile

    src = HERE / "inception" / "project.zip"
    dst = tmp_path / "p.zip"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for n in zin.namelist():
            data = zin.read(n)
            if n.endswith("bob.zip"):
                data = b"not a zip"
            zout.writestr(n, data)
    parsed = inception.parse(dst)
    assert parsed.annotators == ("alice",)
    assert len(parsed.errors) == 1 and "bob.zip" in str(parsed.errors[0])


# -- Label Studio -------------------------------------------------------------------------------


def test_label_studio_choices_ratings_and_cancelled():
    p = label_studio.parse(HERE / "label_studio" / "sentiment.json")
    choices = {(j.item, j.annotator): j.choices for j in p.judgments if j.question == "sentiment"}
    assert choices[("3", "1")] == ("Positive",) and choices[("3", "2")] == ("Neutral",)
    ratings = {(j.item, j.annotator): j.rating for j in p.judgments if j.question == "stars"}
    assert ratings[("1", "1")] == 5.0 and ratings[("1", "2")] == 4.0
    assert "3" not in {j.annotator for j in p.judgments}  # a cancelled annotation is no answer
    j = next(j for j in p.judgments if j.item == "2")
    assert j.item_text == "Cold soup, rude waiter 😞" and ("source", "review-18") in j.metadata


def test_label_studio_spans_utf16_offsets_become_code_points():
    p = label_studio.parse(HERE / "label_studio" / "ner.json")
    docs = {d.annotator: d for d in p.documents}
    alice = docs["alice@example.org"]
    assert [alice.text[s.start : s.end] for s in alice.spans] == [
        "Ada Lovelace",
        "Charles Babbage",
        "London",
    ]
    assert p.errors == ()


def test_label_studio_not_a_list(tmp_path):
    f = tmp_path / "x.json"
    f.write_text(json.dumps("hello"), encoding="utf-8")
    with pytest.raises(ReaderError, match="list of tasks"):
        label_studio.parse(f)
    f.write_text("[{", encoding="utf-8")
    with pytest.raises(ReaderError, match="line 1"):
        label_studio.parse(f)


# -- doccano ------------------------------------------------------------------------------------


def test_doccano_classification_one_file_per_annotator():
    a = doccano.parse(HERE / "doccano" / "alice.jsonl")
    assert a.annotators == ("alice",)
    assert [(j.item, j.choices) for j in a.judgments][2] == ("3", ("Positive",))


def test_doccano_spans_both_layouts_and_empty_records():
    a = doccano.parse(HERE / "doccano" / "ner" / "alice.jsonl")
    b = doccano.parse(HERE / "doccano" / "ner" / "bob.jsonl")
    da, db = a.documents[0], b.documents[0]
    assert [da.text[s.start : s.end] for s in da.spans] == [
        "Ada Lovelace",
        "Charles Babbage",
        "London",
    ]
    assert [(s.start, s.end, s.label) for s in db.spans] == [(0, 3, "PER"), (38, 44, "ORG")]
    # the record with no span is a text without spans, not a missing category
    assert {d.name for d in a.documents} == {"7", "8"} == {d.name for d in b.documents}


def test_doccano_bad_lines(tmp_path):
    f = tmp_path / "carol.jsonl"
    f.write_text(
        '{"id": 1, "text": "abc", "label": [[0, 9, "X"]]}\nnot json\n'
        '{"id": 2, "text": "abc", "label": [[0, 1, "X"]]}\n',
        encoding="utf-8",
    )
    p = doccano.parse(f)
    assert sorted(e.line for e in p.errors) == [1, 2]
    assert len(p.documents) == 2


# -- Prodigy ------------------------------------------------------------------------------------


def test_prodigy_choice_sessions_and_ignore():
    p = prodigy.parse(HERE / "prodigy" / "sentiment.jsonl")
    assert set(p.annotators) == {"alice", "bob"}  # 'reviews-' prefix dropped; carol only ignored
    got = {(j.item, j.annotator): j.choices for j in p.judgments}
    assert got[("1003", "bob")] == ("Neutral",)


def test_prodigy_spans():
    p = prodigy.parse(HERE / "prodigy" / "ner.jsonl")
    docs = {d.annotator: d for d in p.documents}
    assert [(s.start, s.end, s.label) for s in docs["bob"].spans] == [
        (0, 3, "PER"),
        (38, 44, "ORG"),
    ]


def test_prodigy_binary_answers(tmp_path):
    f = tmp_path / "x.jsonl"
    rows = [
        {
            "text": "a",
            "label": "SPORTS",
            "answer": "accept",
            "_input_hash": 1,
            "_session_id": "s-x",
        },
        {
            "text": "a",
            "label": "SPORTS",
            "answer": "reject",
            "_input_hash": 1,
            "_session_id": "s-y",
        },
        {"text": "b", "label": "SPORTS", "answer": "maybe", "_input_hash": 2, "_session_id": "s-y"},
    ]
    f.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    p = prodigy.parse(f)
    assert {(j.annotator, j.choices) for j in p.judgments} == {
        ("x", ("accept",)),
        ("y", ("reject",)),
    }
    assert p.errors[0].line == 3


# -- identification ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        ("webanno/chains.tsv", "webanno-tsv3"),
        ("inception/project.zip", "inception-zip"),
        ("label_studio/sentiment.json", "label-studio"),
        ("doccano/alice.jsonl", "doccano"),
        ("doccano/ner/bob.jsonl", "doccano"),
        ("prodigy/sentiment.jsonl", "prodigy"),
    ],
)
def test_identify_exactly_one_format(path, fmt):
    result = identify(HERE / path)
    assert [k for k, why in result.items() if why is None] == [fmt]
    assert all(isinstance(why, str) and why for k, why in result.items() if k != fmt)

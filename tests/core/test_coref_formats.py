"""Coreference from CorefUD, Universal Anaphora, WebAnno TSV 3.x and INCEpTION exports.

The same two annotators' chains in every format (``formats/coref``, ``formats/webanno``,
``formats/inception``) give the figures of the CoNLL-2012 files, a format that always opened.
"""

from __future__ import annotations

import json

import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.kinds import detect_kind
from iaa_desktop.core.kinds.coref.conllu import read_corefud, read_ua
from tests.conftest import FIXTURES

F = FIXTURES / "formats"
C = F / "coref"


def report(args, capsys):
    code = cli_main(["report", "--kind", "coref", *map(str, args), "--json", "-"])
    cap = capsys.readouterr()
    return code, (json.loads(cap.out) if cap.out.strip() else {}), cap.err


def figures(data):
    return json.dumps([data["scores"], data["total"]], sort_keys=True)


@pytest.mark.parametrize(
    "inputs",
    [
        [C / "corefud" / "alice.conllu", C / "corefud" / "bob.conllu"],
        [C / "ua" / "alice.conllu", C / "ua" / "bob.conllu"],
        [F / "webanno" / "alice.tsv", F / "webanno" / "bob.tsv"],
        [F / "inception" / "project.zip"],
    ],
    ids=["corefud", "universal-anaphora", "webanno-tsv3", "inception-zip"],
)
def test_same_figures_as_conll2012(inputs, capsys):
    code, ref, err = report(
        [C / "conll2012" / "alice.conll", C / "conll2012" / "bob.conll"], capsys
    )
    assert code == 0, err
    code, data, err = report(inputs, capsys)
    assert code == 0, err
    assert data["annotators"] == ["alice", "bob"]
    assert data["errors"] == []
    assert figures(data) == figures(ref)


@pytest.mark.parametrize(
    "inputs",
    [
        [C / "corefud" / "alice.conllu", C / "corefud" / "bob.conllu"],
        [C / "ua" / "alice.conllu", C / "ua" / "bob.conllu"],
        [F / "webanno" / "alice.tsv", F / "webanno" / "bob.tsv"],
        [F / "inception" / "project.zip"],
    ],
)
def test_detected_as_coreference(inputs):
    assert detect_kind(inputs) == "coref"


def test_inception_curation_is_one_more_annotator_when_asked(capsys):
    code, data, err = report([F / "inception" / "project.zip", "--curation"], capsys)
    assert code == 0, err
    assert data["annotators"] == ["alice", "bob", "curation"]


COREFUD_DISC = """# newdoc id = d
# sent_id = 1
# text = the man I saw with a fancy jacket
1\tthe\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1[1/2]-person
2\tman\t_\t_\t_\t_\t_\t_\t_\tEntity=e1[1/2])
3\tI\t_\t_\t_\t_\t_\t_\t_\tEntity=(e2-person)
4\tsaw\t_\t_\t_\t_\t_\t_\t_\t_
5\twith\t_\t_\t_\t_\t_\t_\t_\t_
6\ta\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1[2/2]-person(e3-object
7\tfancy\t_\t_\t_\t_\t_\t_\t_\t_
8\tjacket\t_\t_\t_\t_\t_\t_\t_\tEntity=e3)e1[2/2])
9\tthey\t_\t_\t_\t_\t_\t_\t_\tEntity=(e4-person)|SplitAnte=e1<e4,e2<e4
"""

UA_DISC = """# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY SPLIT
# newdoc id = d
# sent_id = 1
# text = the man I saw with a fancy jacket
1\tthe\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=markable_1|Min=2|SemType=dn\t_
2\tman\t_\t_\t_\t_\t_\t_\t_\t_\t)\t_
3\tI\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=2|MarkableID=markable_2|Min=3|SemType=dn)\tEntityID=2|ElementOf=4
4\tsaw\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_
5\twith\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_
6\ta\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=markable_1|Min=2|SemType=dn@(EntityID=3|MarkableID=markable_3|Min=8|SemType=dn\tEntityID=1|ElementOf=4
7\tfancy\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_
8\tjacket\t_\t_\t_\t_\t_\t_\t_\t_\t))\t_
9\tthey\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=4|MarkableID=markable_4)\t_
"""


def test_discontinuous_mentions_and_split_antecedents(tmp_path):
    (tmp_path / "a.conllu").write_text(COREFUD_DISC, encoding="utf-8")
    (tmp_path / "b.conllu").write_text(UA_DISC, encoding="utf-8")
    a, b = read_corefud(tmp_path / "a.conllu")[0], read_ua(tmp_path / "b.conllu")[0]
    for doc in (a, b):
        assert doc.errors == []
        disc = [m for m in doc.mentions if m[0]]
        # 'the man ... a fancy jacket' is one mention of two parts, not its hull
        assert disc == [("parts 0-2+5-8", 0, 8)]
        assert doc.mentions[disc[0]] == "the man a fancy jacket"
        assert sorted(len(c) for c in doc.classes) == [1, 1, 1, 1]
        assert any("split antecedent" in n and "4" in n for n in doc.notes)
    assert sorted(a.mentions) == sorted(b.mentions)


def test_discontinuous_files_give_the_same_figures(tmp_path, capsys):
    for who in ("x", "y"):
        (tmp_path / f"ud_{who}.conllu").write_text(COREFUD_DISC, encoding="utf-8")
        (tmp_path / f"ua_{who}.conllu").write_text(UA_DISC, encoding="utf-8")
    code, ud, err = report([tmp_path / "ud_x.conllu", tmp_path / "ua_y.conllu"], capsys)
    assert code == 0, err
    # the same mentions and chains in both formats: perfect agreement
    assert ud["scores"][0]["bcub"]["f1"] == 1.0 and ud["scores"][0]["ceafe"]["f1"] == 1.0


def test_unclosed_mention_is_reported_and_the_rest_loads(tmp_path):
    text = COREFUD_DISC.replace("Entity=e3)e1[2/2])", "Entity=e1[2/2])")
    (tmp_path / "a.conllu").write_text(text, encoding="utf-8")
    doc = read_corefud(tmp_path / "a.conllu")[0]
    assert any("never closed" in e.message and e.line for e in doc.errors)
    assert ("parts 0-2+5-8", 0, 8) in doc.mentions


def test_a_file_of_no_format_lists_the_formats_tried(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "x.json").write_text("{}", encoding="utf-8")
    (tmp_path / "b" / "y.json").write_text("{}", encoding="utf-8")
    code, _, err = report([tmp_path / "a", tmp_path / "b"], capsys)
    assert code != 0
    assert "CorefUD" in err and "Universal Anaphora" in err and "INCEpTION" in err

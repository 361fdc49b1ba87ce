"""Coreference readers: brat relation closure, notes, ignored line types, bad lines; mention tables."""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.core.kinds.coref.compare import KIND
from iaa_desktop.core.kinds.coref.readers import read_brat, read_mention_table
from iaa_desktop.core.progress import run_to_end

TEXT = "Anna saw Ben. She told him that he and Anna were late.\n"
#       0123456789012345678901234567890123456789012345678901234


def _write(folder: Path, name: str, ann: str, text: str = TEXT) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    path = folder / f"{name}.ann"
    path.write_text(ann, encoding="utf-8")
    return path


RELATIONS = (
    "T1\tMention 0 4\tAnna\n"
    "T2\tMention 9 12\tBen\n"
    "T3\tMention 14 17\tShe\n"
    "T4\tMention 23 26\thim\n"
    "T5\tMention 32 34\the\n"
    "T6\tMention 39 43\tAnna\n"
    "R1\tSameAs Arg1:T3 Arg2:T1\n"
    "R2\tSameAs Arg1:T6 Arg2:T3\n"  # chain T1-T3-T6: one class by transitive closure
    "R3\tSameAs Arg1:T4 Arg2:T2\n"
    "R4\tBridging Arg1:T5 Arg2:T2\n"  # a type not named: ignored
    "A1\tNegated T5\n"  # attribute: kept out of agreement, no error
    "E1\tEvent:T5\n"
    "#1\tAnnotatorNotes T5\tambiguous antecedent\n"
)


def test_relation_lines_are_closed_transitively(tmp_path):
    doc = read_brat(_write(tmp_path, "doc", RELATIONS), relation_types=("SameAs",))
    assert not doc.errors
    classes = sorted(sorted(s for _t, s, _e in c) for c in doc.classes)
    assert classes == [[0, 14, 39], [9, 23]]
    assert [s for _t, s, _e in doc.singletons] == [32]
    assert any("ambiguous antecedent" in n for n in doc.notes)


def test_missing_t_id_names_file_and_line_and_the_rest_is_read(tmp_path):
    ann = "T1\tMention 0 4\tAnna\nT2\tMention 14 17\tShe\n*\tCoreference T1 T9\n*\tCoreference T1 T2\n"
    doc = read_brat(_write(tmp_path, "doc", ann))
    assert doc.errors and doc.errors[0].line == 3 and doc.errors[0].path.endswith("doc.ann")
    assert "T9" in doc.errors[0].message
    # only the missing member is left out; a mention in two classes stays in the first (line 4 reported)
    assert [[s for _t, s, _e in c] for c in doc.classes] == [[0], [14]]
    assert doc.errors[1].line == 4


def test_relation_study_compares_both_annotators(tmp_path):
    _write(tmp_path / "A", "doc", RELATIONS)
    _write(tmp_path / "B", "doc", RELATIONS.replace("R2\tSameAs Arg1:T6 Arg2:T3\n", ""))
    result = run_to_end(KIND.run([tmp_path / "A", tmp_path / "B"], {"relation_types": "SameAs"}))
    assert not result.errors
    total = result.pair_total("A", "B")
    # B's T6 is a singleton: one mention moves from a class to S
    assert (total.L, total.M, total.R) == (1, 5, 1)


def test_mention_table_like_corefannotator(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text(
        "begin,end,leftContext,surface,rightContext,entityNum,entityLabel\n"
        "0,4,,Anna,saw,1,Anna\n"
        "14,17,.,She,told,1,Anna\n"
        "9,12,saw,Ben,.,2,Ben\n"
        "23,26,told,him,that,2,Ben\n"
        "32,34,that,he,and,,\n"
        "x,5,,bad,,3,\n",
        encoding="utf-8",
    )
    [doc] = read_mention_table(path)
    assert sorted(sorted(s for _t, s, _e in c) for c in doc.classes) == [[0, 14], [9, 23]]
    assert [s for _t, s, _e in doc.singletons] == [32]
    assert len(doc.errors) == 1 and doc.errors[0].line is not None

"""Names that differ only in Unicode normalization (NFC "café" U+00E9, NFD "café" e + U+0301)
are one name in the coreference, spans and multi-label kinds, with a warning naming the file and
line of the first raw form merged (the table kind: tests/core/test_names_hostile.py)."""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.cli import main as cli_main

NFC, NFD = "caf\u00e9", "cafe\u0301"


def run(args: list[object], capsys) -> tuple[int, str, str]:
    code = cli_main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _brat(folder: Path, label: str, name: str = "d") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_text("Abcd efgh\n", encoding="utf-8")
    (folder / f"{name}.ann").write_text(
        f"T1\t{label} 0 4\tAbcd\nT2\t{label} 5 9\tefgh\n*\tCoreference T1 T2\n", encoding="utf-8"
    )
    return folder


def test_coref_mention_types_differing_only_in_normalization_are_one(
    tmp_path: Path, capsys
) -> None:
    a, b = _brat(tmp_path / "A", NFC), _brat(tmp_path / "B", NFD)
    code, out, err = run(["report", "--kind", "coref", a, b], capsys)
    assert code == 0 and "CoNLL F1: 1.000" in out
    assert f"{b / 'd.ann'}, line 1: mention types that differ only in Unicode" in err
    assert "2 raw forms" in err


def test_coref_document_names_differing_only_in_normalization_pair_up(
    tmp_path: Path, capsys
) -> None:
    a, b = _brat(tmp_path / "A", "E", NFC), _brat(tmp_path / "B", "E", NFD)
    code, out, err = run(["report", "--kind", "coref", a, b], capsys)
    assert code == 0 and "documents: 1" in out and "CoNLL F1: 1.000" in out
    assert "document names that differ only in Unicode normalization" in err


def test_coref_annotators_named_alike_after_normalization_stay_two(tmp_path: Path, capsys) -> None:
    a, b = _brat(tmp_path / "1" / "Zo\u00eb", "E"), _brat(tmp_path / "2" / "Zoe\u0308", "E")
    code, out, err = run(["report", "--kind", "coref", a, b], capsys)
    assert code == 0 and "annotators: 2" in out
    assert "annotator names that differ only in Unicode normalization" in err


def test_spans_labels_differing_only_in_normalization_agree(tmp_path: Path, capsys) -> None:
    t = tmp_path / "s.csv"
    t.write_text(
        f"document,start,end,label,annotator\nd,0,4,{NFC},A\nd,5,9,x,A\nd,0,4,{NFD},B\nd,5,9,x,B\n",
        encoding="utf-8",
    )
    code, out, err = run(["report", "--kind", "spans", t], capsys)
    assert code == 0 and "span F1: 1.000" in out
    assert f"{t}, line 4: labels that differ only in Unicode normalization" in err


def test_spans_annotator_and_document_names_after_normalization(tmp_path: Path, capsys) -> None:
    t = tmp_path / "s.csv"
    t.write_text(
        "document,start,end,label,annotator\n"
        f"{NFC},0,4,x,A\n{NFC},0,4,x,Zo\u00eb\n{NFD},0,4,x,B\n{NFD},0,4,x,Zoe\u0308\n",
        encoding="utf-8",
    )
    code, out, err = run(["report", "--kind", "spans", t], capsys)
    # one table: Zoë in either form is one annotator, café in either form one document
    assert code == 0 and "documents: 1" in out and "annotators: 3" in out
    assert "span F1: 1.000" in out
    assert "document names that differ only in Unicode normalization" in err
    assert "annotator names that differ only in Unicode normalization" in err


def test_multilabel_labels_items_and_annotators_after_normalization(tmp_path: Path, capsys) -> None:
    t = tmp_path / "m.csv"
    t.write_text(
        "item,annotator,labels\n"
        f"{NFC},A,{NFC};x\n2,A,y\n3,Zo\u00eb,x\n"
        f"{NFD},B,{NFD};x\n2,B,y\n2,Zoe\u0308,y\n3,A,x\n3,B,x\n",
        encoding="utf-8",
    )
    code, out, err = run(["report", "--kind", "multilabel", t], capsys)
    assert code == 0 and "Exact set agreement: 100.0%" in out
    assert f"Labels: {NFC}, x, y" in out
    assert f"{t}, line 5: labels that differ only in Unicode normalization" in err
    assert f"{t}, line 5: item ids that differ" in err
    assert f"{t}, line 7: annotator names that differ" in err


def test_multilabel_wide_label_columns_after_normalization(tmp_path: Path, capsys) -> None:
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text(f"item,annotator,{NFC},x\n1,A,1,0\n2,A,0,1\n3,A,1,1\n", encoding="utf-8")
    b.write_text(f"item,annotator,{NFD},x\n1,B,1,0\n2,B,0,1\n3,B,1,1\n", encoding="utf-8")
    code, out, err = run(["report", "--kind", "multilabel", a, b], capsys)
    assert code == 0 and "Exact set agreement: 100.0%" in out
    assert f"{b}, line 1: labels that differ only in Unicode normalization" in err

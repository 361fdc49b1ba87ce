"""No silent zero: an annotator (or file) of whom not one unit was read — no mention, span,
judgment, label or token — is a problem naming the file and is left out, never scored 0; when
every annotator reads empty the study stops with exit status 2.

One test per kind (coreference: ``test_coref_zeros.py``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from iaa_desktop.cli import main as cli_main
from tests.conftest import FIXTURES


def _report(kind, inputs, capsys):
    code = cli_main(["report", "--kind", kind, *map(str, inputs), "--json", "-"])
    cap = capsys.readouterr()
    return code, (json.loads(cap.out) if cap.out.strip() else {}), cap.err


def _reported(data, name):
    return [e for e in data["errors"] if Path(e["file"]).name == name]


def test_spans(tmp_path, capsys):
    src = FIXTURES / "spans" / "brat"
    for who in ("A", "B", "C"):
        shutil.copytree(src / ("A" if who == "C" else who), tmp_path / who)
    (tmp_path / "C" / "doc1.ann").write_text("", encoding="utf-8")  # C: no span at all
    code, data, err = _report("spans", [tmp_path / w for w in "ABC"], capsys)
    assert code == 1, err
    assert data["annotators"] == ["A", "B"]
    assert "no spans were found" in _reported(data, "doc1.ann")[0]["message"]
    for who in ("A", "B"):
        (tmp_path / who / "doc1.ann").write_text("", encoding="utf-8")
    code, _data, err = _report("spans", [tmp_path / w for w in "ABC"], capsys)
    assert code == 2 and err.count("no spans were found") == 3


def test_table(tmp_path, capsys):
    (tmp_path / "ann.csv").write_text(
        "item,a,b,c\n1,x,x,\n2,y,x,\n3,x,x,\n4,y,y,\n", encoding="utf-8"
    )
    code, data, err = _report("table", [tmp_path / "ann.csv"], capsys)
    assert code == 1, err
    assert data["annotators"] == ["a", "b"]
    assert "annotator c" in _reported(data, "ann.csv")[0]["message"]
    for who in ("x", "y"):
        (tmp_path / f"{who}.csv").write_text("item,label\n1,\n2,\n", encoding="utf-8")
    code, _data, err = _report("table", [tmp_path / "x.csv", tmp_path / "y.csv"], capsys)
    assert code == 2 and "x.csv" in err and "y.csv" in err and "no judgments" in err


def test_durel(tmp_path, capsys):
    study = FIXTURES / "durel" / "study"
    for target in study.iterdir():
        shutil.copytree(target, tmp_path / target.name)
    empty = next(iter(sorted(tmp_path.iterdir()))) / "judgments.tsv"
    header = empty.read_text(encoding="utf-8").splitlines()[0]
    empty.write_text(header + "\n", encoding="utf-8")
    code, data, err = _report("durel", [tmp_path], capsys)
    assert code == 1, err
    assert any("no judgments were read" in e["message"] for e in _reported(data, "judgments.tsv"))
    for target in tmp_path.iterdir():
        (target / "judgments.tsv").write_text(header + "\n", encoding="utf-8")
    code, _data, err = _report("durel", [tmp_path], capsys)
    assert code == 2 and "no judgments" in err


def _long(path, rows):
    path.write_text("item\tannotator\tlabels\n" + "".join(f"{r}\n" for r in rows), "utf-8")


def test_multilabel(tmp_path, capsys):
    rows = [
        f"T{i}\t{a}\t{lab}"
        for i in range(1, 5)
        for a, lab in (("A1", "Complication"), ("A2", "Complication;Success"))
    ]
    _long(tmp_path / "a.tsv", rows)
    _long(tmp_path / "b.tsv", [f"T{i}\tA3\t" for i in range(1, 5)])
    code, data, err = _report("multilabel", [tmp_path / "a.tsv", tmp_path / "b.tsv"], capsys)
    assert code == 1, err
    assert "A3" not in json.dumps(data.get("annotators", []))
    assert "no labels were read for annotator 'A3'" in _reported(data, "b.tsv")[0]["message"]
    _long(tmp_path / "a.tsv", [f"T{i}\t{a}\t" for i in range(1, 5) for a in ("A1", "A2")])
    code, _data, err = _report("multilabel", [tmp_path / "a.tsv", tmp_path / "b.tsv"], capsys)
    assert code == 2 and "a.tsv" in err and "b.tsv" in err and "No label was found" in err


def test_candidates(tmp_path, capsys):
    src = FIXTURES / "candidates"
    lines = (src / "labels.tsv").read_text(encoding="utf-8").splitlines()
    head, rows = lines[0], [ln.split("\t") for ln in lines[1:]]
    blank = [r[:2] + [""] + r[3:] if r[1] == "A3" else r for r in rows]
    (tmp_path / "labels.tsv").write_text(
        "\n".join([head, *("\t".join(r) for r in blank)]) + "\n", encoding="utf-8"
    )
    inputs = [src / "pairs.tsv", tmp_path / "labels.tsv"]
    code, data, err = _report("candidates", inputs, capsys)
    assert code == 1, err
    assert "A3" not in data["annotators"]
    assert "annotator 'A3'" in _reported(data, "labels.tsv")[0]["message"]
    every = [r[:2] + [""] + r[3:] for r in rows]
    (tmp_path / "labels.tsv").write_text(
        "\n".join([head, *("\t".join(r) for r in every)]) + "\n", encoding="utf-8"
    )
    code, _data, err = _report("candidates", inputs, capsys)
    assert code == 2 and "no labels were read" in err


def test_normalization(tmp_path, capsys):
    src = FIXTURES / "normalization" / "tiny"
    for f in src.iterdir():
        shutil.copy(f, tmp_path / f.name)
    header = (src / "annotator_B.tsv").read_text(encoding="utf-8").splitlines()[0]
    (tmp_path / "annotator_C.tsv").write_text(header + "\n", encoding="utf-8")
    files = sorted(tmp_path.iterdir())
    code, data, err = _report("normalization", files, capsys)
    assert code == 1, err
    assert len(data["annotators"]) == 2
    assert "no tokens were read" in _reported(data, "annotator_C.tsv")[0]["message"]
    for f in files:
        f.write_text(header + "\n", encoding="utf-8")
    code, _data, err = _report("normalization", files, capsys)
    assert code == 2 and err.count("no tokens were read") == 3

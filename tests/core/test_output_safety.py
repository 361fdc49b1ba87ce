"""Nothing is written outside the folder chosen, no CSV cell can start a formula, and study files
read and write only where their user allows."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pandas as pd
import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.io import (
    NameAllocator,
    csv_text,
    neutralise_cell,
    path_inside,
    safe_output_name,
    unneutralise_cell,
    write_csv,
)
from iaa_desktop.core.tabular import read_table


@pytest.fixture(autouse=True)
def _debug(monkeypatch):
    monkeypatch.setenv("IAA_DEBUG", "1")


def run(args: list[object], capsys) -> tuple[int, str, str]:
    code = cli_main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


# ------------------------------------------------------------------------------ names


@pytest.mark.parametrize(
    "name",
    [
        "../../../x",
        "/etc/passwd",
        "..",
        ".",
        "",
        "CON",
        "nul.txt",
        "com1",
        "a\\b",
        "a\x00b",
        "x" * 500,
        "LPT9.iaa",
        "  . ",
    ],
)
def test_safe_output_name_stays_one_harmless_name(name, tmp_path):
    s = safe_output_name(name)
    assert s and "/" not in s and "\\" not in s and "\x00" not in s
    assert not s.startswith(".") and len(s.encode()) <= 120
    assert s.split(".")[0].upper() not in ("CON", "NUL", "COM1", "LPT9")
    assert path_inside(tmp_path, s).parent == tmp_path


def test_names_are_made_unique_case_insensitively():
    names = NameAllocator(reserved=["total.iaa"])
    got = [names.take(n, ".iaa") for n in ("a", "A", "a", "total", "x" * 300, "x" * 300 + "y")]
    assert got[:4] == ["a.iaa", "A-2.iaa", "a-3.iaa", "total-2.iaa"]
    assert got[4] != got[5] and all(len(g.encode()) <= 120 for g in got)


def _conll(name: str) -> str:
    return (
        f"#begin document {name}\nd\t0\t0\tDavid\t(1)\nd\t0\t1\the\t(1)\nd\t0\t2\tsang\t-\n"
        "#end document\n"
    )


def test_conll_document_names_cannot_write_outside_the_iaa_folder(tmp_path, capsys):
    for who in ("a", "b"):
        (tmp_path / f"{who}.conll").write_text(
            _conll("(../../../escape)") + _conll(str(tmp_path / "abs")) + _conll("(CON)"),
            encoding="utf-8",
        )
    iaa = tmp_path / "out" / "iaa"
    code, _, _ = run(
        ["report", "--kind", "coref", tmp_path / "a.conll", tmp_path / "b.conll", "--iaa-dir", iaa],
        capsys,
    )
    assert code == 0
    written = files_under(tmp_path)
    assert {p for p in written if p.suffix == ".iaa"} == files_under(iaa)
    assert len(files_under(iaa)) == 4  # three documents and total.iaa
    assert not (tmp_path / "abs.iaa").exists() and not list(tmp_path.parent.glob("escape*"))


def test_mention_table_document_names_in_iaa_files_and_gold(tmp_path, capsys):
    head = "document,begin,end,entityNum\n"
    docs = ["../../evil", "/tmp/evil", "a/b", "a_b", "nul"]
    body = "".join(f"{d},0,4,1\n{d},5,9,1\n{d},10,12,2\n" for d in docs)
    (tmp_path / "a.csv").write_text(head + body, encoding="utf-8")
    (tmp_path / "b.csv").write_text(head + body.replace(",2\n", ",1\n"), encoding="utf-8")
    out = tmp_path / "out"
    args = ["--kind", "coref", "--doc-column", "document", tmp_path / "a.csv", tmp_path / "b.csv"]
    code, _, _ = run(["report", *args, "--iaa-dir", out / "iaa"], capsys)
    assert code == 0 and len(files_under(out / "iaa")) == len(docs) + 1
    code, _, err = run(["gold", *args, "--strategy", "annotator:a", "--out", out / "gold"], capsys)
    assert code == 0, err
    assert files_under(tmp_path) - files_under(out) == {tmp_path / "a.csv", tmp_path / "b.csv"}


# ------------------------------------------------------------------------------ CSV


def test_every_dangerous_cell_is_neutralised_or_quoted():
    df = pd.DataFrame(
        {
            "text": [
                "=cmd|' /C calc'!A0",
                "a\r=1+1",
                "x\ny",
                "+SUM(1)",
                "@A1",
                "\t=1",
                '"=1"',
                "-ere",
            ],
            "number": [-1, 2, -3, 4, 5, 6, 7, 8],
            "as_text": ["-1", "+2.5", "-3e-4", "1", "-inf", "--1", "-", "'=x"],
        }
    )
    for sep in (",", ";", "\t"):
        text = csv_text(df, sep)
        rows = list(csv.reader(io.StringIO(text), delimiter=sep))
        assert len(rows) == 9 and all(len(r) == 3 for r in rows)  # no cell started a row
        cells = [c for r in rows[1:] for c in r]
        numbers = {"-1", "-3", "+2.5", "-3e-4"}
        for c in cells:
            assert c in numbers or not c.startswith(("=", "+", "-", "@", "\t", "\r")), c
        assert [r[2] for r in rows[1:]][:3] == ["-1", "+2.5", "-3e-4"]  # numbers stay numbers
        assert '"a\r=1+1"' in text  # a bare carriage return is quoted


def test_neutralising_round_trips_through_the_readers(tmp_path):
    values = ["-ere", "=x", "'=x", "''-y", "-1", "+2", "plain", "@home", "'quoted"]
    for v in values:
        assert unneutralise_cell(neutralise_cell(v)) == v
    df = pd.DataFrame({"item": [f"i{k}" for k in range(len(values))], "label": values})
    for name, sep in (("g.csv", ","), ("g.tsv", "\t")):
        write_csv(df, tmp_path / name, sep=sep)
        back = read_table(tmp_path / name)
        assert back["label"].tolist() == values


def test_gold_command_csv_is_neutralised_and_reloads(tmp_path, capsys):
    p = tmp_path / "judgments.csv"
    p.write_text(
        "item,annotator,label\ni1,A,=cmd\ni1,B,=cmd\ni2,A,-1\ni2,B,-1\ni3,A,-ere\ni3,B,-ere\n",
        encoding="utf-8",
    )
    code, _, err = run(["gold", "--kind", "table", p, "--out", tmp_path / "gold"], capsys)
    assert code == 0, err
    gold = next(
        f for f in (tmp_path / "gold").iterdir() if f.name.startswith("gold") and f.suffix == ".csv"
    )
    raw = gold.read_text(encoding="utf-8")
    assert "'=cmd" in raw and "\n=cmd" not in raw and ",=cmd" not in raw
    assert ",-1" in raw  # a number stays a number
    back = read_table(gold)
    assert sorted(back["label"]) == ["-1", "-ere", "=cmd"]


# ------------------------------------------------------------------------------ study files


def _study(folder: Path, inputs: list[str], **options) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / "s.iaa-study"
    p.write_text(
        json.dumps(
            {
                "format": "iaa-study",
                "version": 1,
                "kind": "table",
                "inputs": inputs,
                "options": options,
            }
        ),
        encoding="utf-8",
    )
    return p


def _table(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("item,annotator,label\ni1,A,x\ni1,B,x\ni2,A,y\ni2,B,y\n", encoding="utf-8")
    return path


def test_study_inputs_outside_its_folder_need_the_flag(tmp_path, capsys):
    _table(tmp_path / "private" / "data.csv")
    for inputs in (["../private/data.csv"], [str(tmp_path / "private" / "data.csv")]):
        s = _study(tmp_path / "study", inputs, interval="none")
        code, out, err = run(["report", s], capsys)
        assert (
            code == 2
            and "reads files outside its folder" in err
            and "--allow-outside-inputs" in err
        )
        assert "Percent agreement" not in out
        code, out, _ = run(["report", s, "--allow-outside-inputs"], capsys)
        assert code == 0 and "Percent agreement: 1.000" in out


def test_study_naming_a_device_is_refused_even_with_the_flag(tmp_path, capsys):
    s = _study(tmp_path, ["/dev/zero"])
    code, _, err = run(["report", s, "--allow-outside-inputs"], capsys)
    assert code == 2 and "/dev/zero" in err and "device, pipe or socket" in err


def test_study_output_folder_is_not_used_without_consent(tmp_path, capsys):
    (tmp_path / "A").mkdir()
    (tmp_path / "B").mkdir()
    for who in ("A", "B"):
        (tmp_path / who / "d.txt").write_text("David came.", encoding="utf-8")
        (tmp_path / who / "d.ann").write_text("T1\tMention 0 5\tDavid\n", encoding="utf-8")
    s = tmp_path / "s.iaa-study"
    s.write_text(
        json.dumps(
            {
                "format": "iaa-study",
                "version": 1,
                "kind": "coref",
                "inputs": ["A", "B"],
                "options": {"iaa_dir": str(tmp_path.parent / "elsewhere")},
            }
        ),
        encoding="utf-8",
    )
    code, _, err = run(["report", s], capsys)
    assert code == 0 and "asks to write into" in err and "--allow-study-outputs" in err
    assert not (tmp_path.parent / "elsewhere").exists()


def test_study_file_itself_is_bounded(tmp_path, capsys):
    s = tmp_path / "s.iaa-study"
    s.write_text('{"format": "iaa-study", "version": ' + "9" * 5000 + "}", encoding="utf-8")
    code, _, err = run(["report", s], capsys)
    assert code == 2 and "s.iaa-study, line 1: a number in the study file is far too long" in err
    os.truncate(s, 0)
    with open(s, "wb") as f:
        f.write(b"\xff\xfe\x00")
    code, _, err = run(["report", s], capsys)
    assert code == 2 and "s.iaa-study" in err


def test_a_report_is_never_written_over_an_input(tmp_path, capsys):
    """An output path that is one of the inputs (by its name or a link to it) is refused before
    anything is computed or written; the input stays as it was."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("item,label\n1,x\n2,y\n", encoding="utf-8")
    b.write_text("item,label\n1,x\n2,x\n", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(a)
    for option, target in (("--json", a), ("--json", link), ("--html", b)):
        before = a.read_bytes(), b.read_bytes()
        code = cli_main(["report", "--kind", "table", option, str(target), str(a), str(b)])
        err = capsys.readouterr().err
        assert code == 2 and "is one of the study's inputs" in err and str(target) in err
        assert (a.read_bytes(), b.read_bytes()) == before
    assert (
        cli_main(["report", "--kind", "table", "--json", str(tmp_path / "r.json"), str(a), str(b)])
        == 0
    )

"""Names from the inputs that mislead: Unicode normalization forms, bidirectional controls, a
header row repeated inside the data, an annotator named like a column; and a decoding problem
named even when a later problem stops the study."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.io import neutralise_cell, unneutralise_cell
from iaa_desktop.core.tabular import read_table

RLO = "\u202e"


def run(args: list[object], capsys) -> tuple[int, str, str]:
    code = cli_main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_labels_differing_only_in_normalization_are_one_label_with_a_warning(
    tmp_path: Path, capsys
) -> None:
    t = tmp_path / "t.csv"
    t.write_text("item,A,B\n1,caf\u00e9,cafe\u0301\n2,x,x\n", encoding="utf-8")
    code, out, err = run(["report", "--kind", "table", "--interval", "none", t], capsys)
    assert code == 0 and "Percent agreement: 1.000" in out
    assert "labels that differ only in Unicode normalization" in err and "2 raw forms" in err


def test_annotator_names_differing_only_in_normalization_are_one_annotator(
    tmp_path: Path, capsys
) -> None:
    t = tmp_path / "t.csv"
    t.write_text(
        "item,annotator,label\n1,Zo\u00eb,x\n2,Zoe\u0308,y\n1,B,x\n2,B,y\n", encoding="utf-8"
    )
    code, out, err = run(["report", "--kind", "table", "--interval", "none", t], capsys)
    assert code == 0 and "annotators: 2" in out
    assert "annotator names that differ only in Unicode normalization" in err


def test_a_right_to_left_override_in_a_name_is_escaped_in_html_and_isolated_in_csv(
    tmp_path: Path, capsys
) -> None:
    t = tmp_path / "t.csv"
    t.write_text(f"item,A{RLO}X,B\n1,x,x\n2,x{RLO}y,y\n3,y,y\n", encoding="utf-8")
    html, csv_dir = tmp_path / "r.html", tmp_path / "csv"
    code, _, _ = run(
        ["report", "--kind", "table", "--interval", "none", t, "--html", html, "--csv", csv_dir],
        capsys,
    )
    assert code == 0
    text = html.read_text(encoding="utf-8")
    assert RLO not in text and "A&lt;U+202E&gt;X" in text
    for f in csv_dir.glob("*.csv"):
        for line in f.read_text(encoding="utf-8").splitlines():
            # every override is closed inside its own cell
            assert line.count(RLO) == line.count("\u2068"), (f.name, line)
    from iaa_desktop.core.bidi import escape_bidi, isolate_bidi

    assert escape_bidi(f"A{RLO}X") == "A<U+202E>X"
    assert unneutralise_cell(neutralise_cell(f"={RLO}x")) == f"={RLO}x"
    assert neutralise_cell(f"A{RLO}X") == isolate_bidi(f"A{RLO}X")


def test_isolated_cells_read_back_as_written(tmp_path: Path) -> None:
    from iaa_desktop.core.io import write_csv
    from iaa_desktop.core.tabular import restore_neutralised

    p = tmp_path / "g.csv"
    write_csv(pd.DataFrame({"item": ["1", "2"], "label": [f"a{RLO}b", "plain"]}), p)
    back = restore_neutralised(read_table(p), ["label"])
    assert back["label"].tolist() == [f"a{RLO}b", "plain"]


def test_a_decoding_problem_is_named_when_a_later_problem_stops_the_study(
    tmp_path: Path, capsys
) -> None:
    a, b = tmp_path / "A.csv", tmp_path / "B.csv"
    a.write_text("item,label\n1,x\n2,y\n", encoding="utf-8")
    b.write_bytes(b"item,label\n1,caf\xe9\n2,y\n")  # Latin-1
    code, _, err = run(["report", "--kind", "table", "--interval", "none", a, b], capsys)
    assert code == 2 and "only one annotator" in err
    assert "B.csv, line 2" in err and "not valid UTF-8" in err


def test_a_header_row_repeated_inside_the_data_is_an_error_at_its_line(
    tmp_path: Path, capsys
) -> None:
    wide = tmp_path / "joined.csv"
    wide.write_text("item,A,B\n1,x,x\nitem,A,B\n2,x,y\n", encoding="utf-8")
    code, _, err = run(["report", "--kind", "table", "--interval", "none", wide], capsys)
    assert code == 2 and "joined.csv, line 3" in err and "repeats the header row" in err
    long = tmp_path / "long.csv"
    long.write_text(
        "item,annotator,label\n1,A,x\n1,B,x\nitem,annotator,label\n2,A,y\n2,B,y\n",
        encoding="utf-8",
    )
    code, _, err = run(["report", "--kind", "table", "--interval", "none", long], capsys)
    assert code == 2 and "long.csv, line 4" in err and "internal error" not in err


def test_an_annotator_named_annotator_is_a_clear_error(tmp_path: Path, capsys) -> None:
    wide = tmp_path / "w.csv"
    wide.write_text("id,annotator,B\n1,x,x\n2,x,y\n3,y,y\n", encoding="utf-8")
    for layout, name in (("wide", "annotator"), ("wide", "label")):
        wide.write_text(f"id,{name},B\n1,x,x\n2,x,y\n3,y,y\n", encoding="utf-8")
        code, _, err = run(
            ["report", "--kind", "table", "--interval", "none", "--layout", layout, wide]
            + ["--csv", tmp_path / "out"],
            capsys,
        )
        assert code == 2 and "internal error" not in err
        assert f"an annotator column is named '{name}'" in err
    long = tmp_path / "l.csv"
    long.write_text("item,annotator,label\n1,annotator,x\n1,B,x\n", encoding="utf-8")
    code, _, err = run(["report", "--kind", "table", "--interval", "none", long], capsys)
    assert code == 2 and "l.csv, line 2" in err and "named 'annotator'" in err


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ('"seed": -1', "Random seed (seed): -1 is outside the range 0 to 4,294,967,295"),
        ('"n_resamples": 1000000000', "(n_resamples): 1000000000 is outside the range"),
        ('"bins": 10000000', "(bins): 10000000 is outside the range 1 to 1,000"),
        ('"scale": "1,\\u0000"', "Scale bounds (scale): contains a NUL character"),
        ('"seed": "abc"', "(seed): 'abc' is not a number"),
    ],
)
def test_study_file_options_are_validated_naming_the_option_and_the_file(
    tmp_path: Path, capsys, option: str, message: str
) -> None:
    (tmp_path / "t.csv").write_text("item,A,B\n1,x,x\n2,x,y\n", encoding="utf-8")
    kind = "candidates" if "bins" in option else "table"
    s = tmp_path / "o.iaa-study"
    s.write_text(
        '{"format": "iaa-study", "version": 1, "kind": "' + kind + '", "inputs": ["t.csv"], '
        '"options": {' + option + "}}",
        encoding="utf-8",
    )
    code, _, err = run(["report", s], capsys)
    assert code == 2 and "o.iaa-study: in its options" in err and message in err
    assert "internal error" not in err


def test_a_nul_character_in_an_input_path_of_a_study_file(tmp_path: Path, capsys) -> None:
    s = tmp_path / "n.iaa-study"
    s.write_text(
        '{"format": "iaa-study", "version": 1, "kind": "table", "inputs": ["t\\u0000.csv"]}',
        encoding="utf-8",
    )
    code, _, err = run(["report", s], capsys)
    assert code == 2 and "n.iaa-study, line 1: an input path holds a NUL character" in err

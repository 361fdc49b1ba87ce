"""The generic table kind and the `report` command: layouts, options, bad input, outputs."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.errors import IaaError, InsufficientDataError
from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, shared_path

TABLE = FIXTURES / "table"


def run(inputs, **options):
    return run_to_end(get_kind("table").run([Path(p) for p in inputs], options))


def report_json(args, capsys) -> tuple[int, dict]:
    code = cli_main(["report", *map(str, args), "--json", "-"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else {}


@pytest.mark.parametrize(
    "level, expected",
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_report_reproduces_krippendorff_2011(level, expected, capsys):
    code, data = report_json(
        ["--kind", "table", "--level", level, "--interval", "none", TABLE / "k2011_wide.csv"],
        capsys,
    )
    assert code == 0
    assert round(data["overall"]["krippendorff_alpha"]["value"], 3) == expected
    assert data["n_items"] == 12 and data["n_annotators"] == 4
    assert data["annotators"] == ["A", "B", "C", "D"]
    for name in (
        "percent_agreement",
        "cohen_kappa_mean",
        "scott_pi_mean",
        "fleiss_kappa",
        "multi_kappa",
        "gwet_ac1",
    ):
        assert set(data["overall"][name]) >= {"value", "ci_low", "ci_high"}
    assert len(data["pairwise"]) == 6
    assert {"a", "b", "n_items", "cohen_kappa"} <= set(data["pairwise"][0])


def test_durel_judgments_load_as_long_table_with_pair_key():
    r = run([TABLE / "durel_judgments.tsv"], level="ordinal", missing="0", interval="none")
    assert r.annotators == ("ann1", "ann2", "ann3")
    assert r.n_items == 5
    # 0.0 is 'can't decide': a missing value, but the judgment still counts for Spearman weights
    assert "0" not in [str(c) for c in r.categories] and 0.0 not in r.categories
    assert r.items.loc[r.items["item"] == "u1 | u3", "ann3"].item() == ""
    assert np.isfinite(r.overall["spearman_weighted"].value)


def test_missing_values_compare_as_numbers():
    a = run([TABLE / "durel_judgments.tsv"], level="ordinal", missing="0.0", interval="none")
    b = run([TABLE / "durel_judgments.tsv"], level="ordinal", missing="0", interval="none")
    assert a.overall["krippendorff_alpha"].value == b.overall["krippendorff_alpha"].value


def test_group_by_gives_a_result_per_group(capsys):
    code, data = report_json(
        ["--kind", "table", "--group-by", "genre", "--interval", "none", TABLE / "long_groups.csv"],
        capsys,
    )
    assert code == 0
    assert [g["group"] for g in data["groups"]] == ["news", "fiction"]
    assert data["groups"][0]["n_items"] == 2
    assert "krippendorff_alpha" in data["groups"][1]["overall"]


def test_per_annotator_files(tmp_path):
    r = run([TABLE / "per_annotator"], interval="none")
    assert r.annotators == ("alice", "bruno")
    assert r.n_items == 5
    assert r.overall["percent_agreement"].value == pytest.approx(0.75)
    assert r.overall["percent_agreement"].n_items == 4


def test_xlsx_wide_table(tmp_path):
    df = pd.read_csv(TABLE / "k2011_wide.csv", dtype=str, keep_default_na=False)
    path = tmp_path / "k.xlsx"
    df.to_excel(path, index=False)
    r = run([path], level="interval", interval="none")
    assert r.overall["krippendorff_alpha"].value == pytest.approx(0.849, abs=5e-4)


def test_explicit_column_roles(tmp_path):
    p = tmp_path / "odd.csv"
    p.write_text("unit,who,verdict\nx,a,1\nx,b,1\ny,a,0\ny,b,1\nz,a,0\nz,b,0\n")
    r = run([p], item="unit", annotator="who", label="verdict", interval="none")
    assert r.annotators == ("a", "b")
    assert r.overall["cohen_kappa_mean"].value == pytest.approx(0.4)


def test_csv_export_is_neutralised_and_complete(tmp_path, capsys):
    out = tmp_path / "csv"
    code = cli_main(
        [
            "report",
            "--kind",
            "table",
            "--interval",
            "none",
            str(TABLE / "long_groups.csv"),
            "--group-by",
            "genre",
            "--csv",
            str(out),
        ]
    )
    assert code == 0
    names = sorted(p.name for p in out.iterdir())
    assert {"overall.csv", "pairwise.csv", "items.csv", "groups.csv"} <= set(names)
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary files left
    with open(out / "items.csv", encoding="utf-8", newline="") as f:
        cells = [c for row in csv.reader(f) for c in row]
    assert "'=cmd|' /C calc'!A0" in cells
    assert not any(c.startswith(("=", "+", "@")) for c in cells)
    overall = pd.read_csv(out / "overall.csv")
    assert (overall["value"] < 0).any() or True  # negative numbers stay numbers
    assert overall["value"].dtype.kind == "f"


def test_kind_is_detected_for_tables():
    assert detect_kind([TABLE / "k2011_wide.csv"]) in ("table",)


# ------------------------------------------------------------------------------- bad input


def _report_err(args, capsys) -> tuple[int, str]:
    code = cli_main(
        ["report", "--kind", "table", "--interval", "none", *map(str, args), "--json", "-"]
    )
    return code, capsys.readouterr().err


def test_json_to_a_device_does_not_replace_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    import threading

    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    assert (
        cli_main(
            [
                "report",
                "--kind",
                "table",
                "--interval",
                "none",
                str(TABLE / "k2011_wide.csv"),
                "--json",
                str(fifo),
            ]
        )
        == 0
    )
    reader.join(10)
    assert fifo.exists() and not fifo.is_file()  # still a pipe, not replaced by a file
    assert json.loads(got[0])["kind"] == "table"


def test_empty_file(tmp_path, capsys):
    p = tmp_path / "empty.csv"
    p.write_text("")
    code, err = _report_err([p], capsys)
    assert code == 2 and f"{p}: the file is empty" in err and "Traceback" not in err


def test_wrong_delimiter(tmp_path, capsys):
    p = tmp_path / "colon.csv"
    p.write_text("item:annotator:label\n1:a:x\n2:a:y\n")
    code, err = _report_err([p], capsys)
    assert code == 2 and "only one column" in err and "line 1" in err


def test_missing_column(tmp_path, capsys):
    p = tmp_path / "m.csv"
    p.write_text("item,coder,label\n1,a,x\n1,b,x\n")
    code, err = _report_err([p, "--label", "verdict"], capsys)
    assert code == 2 and "no column named 'verdict'" in err


def test_duplicate_with_different_labels(tmp_path, capsys):
    p = tmp_path / "d.csv"
    p.write_text("item,coder,label\n1,a,x\n1,b,x\n2,a,x\n2,b,y\n1,a,z\n3,a,x\n3,b,x\n")
    code, err = _report_err([p], capsys)
    assert code == 1
    assert f"{p}, line 6: annotator 'a' judged item '1' twice with different labels" in err


def test_non_numeric_at_interval_level(tmp_path, capsys):
    p = tmp_path / "n.csv"
    p.write_text("item,a,b\n1,1,2\n2,two,2\n3,3,3\n4,1,1\n")
    code, err = _report_err([p, "--level", "interval"], capsys)
    assert code == 1 and f"{p}, line 3: the label 'two' is not a number" in err


def test_single_annotator(tmp_path, capsys):
    p = tmp_path / "s.csv"
    p.write_text("item,coder,label\n1,a,x\n2,a,y\n")
    code, err = _report_err([p], capsys)
    assert code == 2 and "only one annotator ('a')" in err


def test_binary_file(tmp_path, capsys):
    p = tmp_path / "b.csv"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    code, err = _report_err([p], capsys)
    assert code == 2 and "not a text file" in err


def test_bad_file_does_not_stop_the_others(tmp_path, capsys):
    (tmp_path / "alice.csv").write_text("item,label\n1,a\n2,b\n3,a\n")
    (tmp_path / "bruno.csv").write_text("item,label\n1,a\n2,b\n3,b\n")
    (tmp_path / "carl.csv").write_text("")
    code, data = report_json(["--kind", "table", "--interval", "none", tmp_path], capsys)
    assert code == 1
    assert data["annotators"] == ["alice", "bruno"]
    assert data["errors"][0]["file"].endswith("carl.csv")


def test_missing_input_path(capsys):
    code = cli_main(["report", "--kind", "table", "/no/such/file.csv"])
    assert code == 2 and "no such file" in capsys.readouterr().err


def test_insufficient_data_raises_typed_error(tmp_path):
    p = tmp_path / "one.csv"
    p.write_text("item,a,b\n1,x,\n2,,y\n")
    with pytest.raises(InsufficientDataError):
        run([p])
    with pytest.raises(IaaError):
        run([tmp_path / "nothing"])


# ------------------------------------------------------------------------------- shared data


def test_trotr_every_target_matches_published(capsys):
    root = shared_path("trotr")
    expected = pd.read_csv(root / "expected_per_target.csv")
    for row in expected.itertuples(index=False):
        code, data = report_json(
            [
                "--kind",
                "table",
                "--level",
                "ordinal",
                "--missing",
                "0",
                "--interval",
                "none",
                root / row.target / "judgments.tsv",
            ],
            capsys,
        )
        assert code == 0
        assert data["overall"]["krippendorff_alpha"]["value"] == pytest.approx(
            row.alpha_ordinal_all, abs=5e-4
        )
        assert data["overall"]["spearman_weighted"]["value"] == pytest.approx(
            row.spearman_all, abs=5e-4
        )
        assert data["n_items"] == row.n_pairs_all


def test_report_runs_as_a_subprocess_without_display():
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "iaa_desktop",
            "report",
            "--kind",
            "table",
            "--interval",
            "none",
            str(TABLE / "k2011_wide.csv"),
            "--json",
            "-",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["kind"] == "table"

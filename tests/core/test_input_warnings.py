"""A library's warning about an input file is a problem of that file (in ``--json``, the report
and the window), never a Python ``UserWarning`` line on the terminal."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.input_warnings import collected, reported_as


def _workbook_without_default_style(path: Path) -> Path:
    """A table workbook whose stylesheet names no cell style, as some exporters write it:
    openpyxl warns "Workbook contains no default style"."""
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (["item", "annotator", "label"], ["i1", "a", "x"], ["i1", "b", "x"]):
        ws.append(row)
    for row in (["i2", "a", "y"], ["i2", "b", "x"], ["i3", "a", "y"], ["i3", "b", "y"]):
        ws.append(row)
    plain = path.with_suffix(".plain.xlsx")
    wb.save(plain)
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w") as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/styles.xml":
                data = re.sub(rb"<cellStyles.*?</cellStyles>", b"", data, flags=re.S)
            out.writestr(item, data)
    plain.unlink()
    return path


def test_openpyxl_warning_is_a_problem_of_the_file(tmp_path, capsys):
    book = _workbook_without_default_style(tmp_path / "labels.xlsx")
    code = cli_main(["report", "--kind", "table", str(book), "--json", "-"])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    assert "UserWarning" not in cap.err and "stylesheet.py" not in cap.err
    found = json.loads(cap.out)["warnings"]
    assert [(Path(w["file"]).name, w["message"]) for w in found] == [
        ("labels.xlsx", "openpyxl: Workbook contains no default style, apply openpyxl's default")
    ]


def test_other_warnings_pass_through_a_collected_run():
    class Result:
        def __init__(self) -> None:
            self.warnings: list = []

    def steps():
        with reported_as("f.xlsx", "lib"):
            warnings.warn("about the file", UserWarning, stacklevel=1)
            warnings.warn("about the code", DeprecationWarning, stacklevel=1)
        yield 1
        return Result()

    with warnings.catch_warnings(record=True) as outer:
        warnings.simplefilter("always")
        run = collected(steps())
        assert next(run) == 1
        with pytest.raises(StopIteration) as stop:
            next(run)
    result = stop.value.value
    assert [str(p) for p in result.warnings] == ["f.xlsx: lib: about the file"]
    assert [(w.category, str(w.message)) for w in outer] == [(DeprecationWarning, "about the code")]


def test_a_workbook_read_outside_a_run_prints_nothing(tmp_path):
    """Reading outside a computation (the import dialog's survey): no warning line either."""
    book = _workbook_without_default_style(tmp_path / "labels.xlsx")
    code = "import sys; from iaa_desktop.core.tabular import read_table; read_table(sys.argv[1])"
    done = subprocess.run(
        [sys.executable, "-c", code, str(book)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""

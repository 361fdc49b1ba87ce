"""Inputs the reader fuzzer found that once ended in a traceback: each a small file of our own,
each now answered by a message naming the file and the line."""

from __future__ import annotations

import pytest

from iaa_desktop.cli import main as cli_main


@pytest.fixture(autouse=True)
def _debug(monkeypatch):
    # a bug raises (and fails the test) instead of becoming one "internal error" line
    monkeypatch.setenv("IAA_DEBUG", "1")


def report(args: list[str], capsys) -> tuple[int, str]:
    code = cli_main(["report", *map(str, args), "--quiet"])
    return code, capsys.readouterr().err


def test_bare_carriage_return_in_a_table_field(tmp_path, capsys):
    f = tmp_path / "long.csv"
    f.write_bytes(b"item,annotator,label\ni1,ann1,pos\ni1,ann2,p\ros\ni2,ann1,neg\ni2,ann2,neg\n")
    code, err = report(["--kind", "table", f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2
    assert f"{f}, line 3: the table is malformed" in err

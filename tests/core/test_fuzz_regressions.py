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


# --------------------------------------------------- format recognition reads through the policy


def test_recognition_reads_nothing_from_a_pipe(tmp_path):
    import os

    from iaa_desktop.core.formats import identify
    from iaa_desktop.core.textio import is_zip, read_head_bytes

    fifo = tmp_path / "export.zip"
    os.mkfifo(fifo)
    assert read_head_bytes(fifo) == b"" and not is_zip(fifo)
    assert all(reason is not None for reason in identify(fifo).values())


def test_span_table_in_utf16_is_recognised_by_its_byte_order_mark(tmp_path):
    from iaa_desktop.core.kinds.spans.sniffing import sniff

    f = tmp_path / "spans.tsv"
    f.write_text("document\tstart\tend\tlabel\tannotator\nd1\t0\t4\tPER\tA\n", encoding="utf-16")
    assert sniff([f]) == 0.9


def test_study_import_shows_the_columns_of_a_utf16_table(tmp_path):
    from iaa_desktop.core.study_import import _header

    f = tmp_path / "t.tsv"
    f.write_text("item\tcoder\tlabel\r\ni1\tA\tx\r\n", encoding="utf-16")
    assert _header(f) == "item, coder, label"

"""Inputs crafted to exhaust memory or time while staying under the per-file limits: archives
inside archives, XML entities, workbooks of millions of strings, documents of millions of spans.
Each is small on disk and answered by a message naming the file and the limit (the CPU each
takes is measured in bench/bench_hostile_resources.py)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core import tabular
from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats import inception
from tests import hostile_files as H


@pytest.fixture(autouse=True)
def _debug(monkeypatch):
    monkeypatch.setenv("IAA_DEBUG", "1")  # a bug raises instead of becoming "internal error"


def report(args: list[object], capsys) -> tuple[int, str, str]:
    code = cli_main(["report", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------------- nested archives


def test_a_nested_export_stops_at_the_total_unpacked_limit(tmp_path: Path, monkeypatch) -> None:
    bomb = H.nested_bomb(tmp_path / "project.zip", users=16, text_bytes=2**20)
    assert bomb.stat().st_size < 50_000  # 16 MiB unpacked
    monkeypatch.setattr(inception, "MAX_UNPACKED_TOTAL", 5 * 2**19)
    parsed = inception.parse(bomb)
    assert len(parsed.documents) == 2  # 2 × 1 MiB read, the third would pass 2.5 MiB
    assert len(parsed.errors) == 1
    e = parsed.errors[0]
    assert e.path == str(bomb) and "unpack to more than 2 MiB" in e.message


def test_a_nested_export_over_the_limit_is_a_message_in_a_study(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    bomb = H.nested_bomb(tmp_path / "project.zip", users=16, text_bytes=2**19)
    monkeypatch.setattr(inception, "MAX_UNPACKED_TOTAL", 3 * 2**20)
    code, _, err = report(["--kind", "spans", bomb], capsys)
    assert code in (0, 1, 2) and "internal error" not in err
    assert f"{bomb}: the archive and the archives inside it unpack to more than 3 MiB" in err


def test_a_member_over_its_limit_names_its_size(tmp_path: Path, monkeypatch) -> None:
    bomb = H.nested_bomb(tmp_path / "project.zip", users=2, text_bytes=2 * 2**20)
    monkeypatch.setattr(inception, "MAX_XMI_BYTES", 2**20)
    parsed = inception.parse(bomb)
    assert not parsed.documents and len(parsed.errors) == 2
    assert all(
        "2 MiB, more than the 1 MiB read from one XMI file" in e.message for e in parsed.errors
    )


# ------------------------------------------------------------------------------ XML entities


def _xmi_folders(tmp_path: Path, a: bytes, b: bytes) -> list[Path]:
    out = []
    for who, raw in (("A", a), ("B", b)):
        (tmp_path / who).mkdir()
        (tmp_path / who / "d.xmi").write_bytes(raw)
        (tmp_path / who / "TypeSystem.xml").write_bytes(H.TYPESYSTEM)
        out.append(tmp_path / who)
    return out


GOOD = H.xmi("Abcd efgh", [(0, 4, "X"), (5, 9, "Y")])


def test_billion_laughs_in_an_xmi_is_refused_unexpanded(tmp_path: Path, capsys) -> None:
    bad = H.xmi("Abcd efgh", [(0, 4, "X")], doctype=H.BILLION_LAUGHS, value_entity="lol9")
    a, b = _xmi_folders(tmp_path, bad, GOOD)
    code, _, err = report(["--kind", "spans", a, b], capsys)
    assert code != 0 and "internal error" not in err
    assert f"{a / 'd.xmi'}, line 2: the XML declares a document type" in err


def test_an_external_entity_is_refused_and_never_read(tmp_path: Path, capsys) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    bad = H.xmi(
        "Abcd efgh",
        [(0, 4, "X")],
        doctype=H.external_entity(secret.as_uri()),
        value_entity="x",
    )
    a, b = _xmi_folders(tmp_path, bad, GOOD)
    js = tmp_path / "r.json"
    code, out, err = report(["--kind", "spans", a, b, "--json", js], capsys)
    assert "the XML declares a document type" in err
    assert "TOP-SECRET" not in out + err
    assert not js.exists() or "TOP-SECRET" not in js.read_text(encoding="utf-8")


def test_entities_in_an_export_member_and_its_type_system(tmp_path: Path) -> None:
    bad = H.xmi("Abcd", [(0, 4, "X")], doctype=H.BILLION_LAUGHS, value_entity="lol9")
    ok = H.user_zip("d.txt", [GOOD])
    export = H.inception_export(
        tmp_path / "p.zip", {"A": {"d.txt": H.user_zip("d.txt", [bad])}, "B": {"d.txt": ok}}
    )
    parsed = inception.parse(export)
    assert [d.annotator for d in parsed.documents] == ["B"]
    assert "the XML declares a document type" in str(parsed.errors[0])
    assert "annotation/d.txt/A.zip!d.txt.xmi" in str(parsed.errors[0])


def test_entities_in_a_workbook_part_are_refused(tmp_path: Path) -> None:
    for doctype, name in ((H.BILLION_LAUGHS, "lol9"), (H.external_entity("/etc/passwd"), "x")):
        book = H.xlsx(tmp_path / "t.xlsx", [("1", "A", "x")], doctype=doctype, label_entity=name)
        with pytest.raises(ReaderError, match=r"sharedStrings.xml, line 1: the XML declares"):
            tabular.read_table(book)


# ------------------------------------------------------------------------------- workbooks


def test_a_workbook_of_millions_of_shared_strings_is_refused(tmp_path: Path) -> None:
    n = tabular.MAX_XLSX_SHARED_STRINGS + 1
    book = H.xlsx(tmp_path / "t.xlsx", [("1", "A", "x")], extra_strings=n, declared=3)
    assert book.stat().st_size < 1_000_000  # the count declared is 3: counted, not believed
    with pytest.raises(ReaderError, match=r"more than 2,000,000 shared strings"):
        tabular.read_table(book)


def test_a_sheet_of_too_many_cells_is_refused_before_it_is_parsed(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(tabular, "MAX_XLSX_CELLS", 300)
    book = H.xlsx(tmp_path / "t.xlsx", [(str(k), "A", "x") for k in range(101)])
    import openpyxl

    def never(*_a, **_k):
        raise AssertionError("parsed although the cells were over the limit")

    monkeypatch.setattr(openpyxl, "load_workbook", never)
    with pytest.raises(ReaderError, match=r"more than 300 cells in one sheet"):
        tabular.read_table(book)


def test_a_crafted_workbook_within_the_limits_still_reads(tmp_path: Path) -> None:
    book = H.xlsx(tmp_path / "t.xlsx", [("1", "A", "x"), ("1", "B", "x")], extra_strings=10)
    df = tabular.read_table(book)
    assert df["label"].tolist() == ["x", "x"]


# ------------------------------------------------------------------- annotations per document


def test_an_xmi_of_too_many_spans_is_refused_before_it_is_parsed(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    from iaa_desktop.core import xml_guard

    monkeypatch.setattr(xml_guard, "MAX_XMI_ELEMENTS", 1000)
    import cassis

    def never(*_a, **_k):
        raise AssertionError("parsed although its elements were over the limit")

    big = b"".join(H.many_spans_xmi(1001))
    a, b = _xmi_folders(tmp_path, big, GOOD)
    monkeypatch.setattr(cassis, "load_cas_from_xmi", never)
    code, _, err = report(["--kind", "spans", a, b], capsys)
    assert "internal error" not in err
    assert f"{a / 'd.xmi'}: the XML holds 1,00" in err and "more than the 1,000 read" in err


def test_an_xmi_text_longer_than_a_document_may_have_is_refused_before_parsing(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    from iaa_desktop.core import xml_guard

    monkeypatch.setattr(xml_guard, "MAX_SOFA_BYTES", 1000)
    a, b = _xmi_folders(tmp_path, H.xmi("A" * 1001, [(0, 4, "X")]), GOOD)
    code, _, err = report(["--kind", "spans", a, b], capsys)
    assert "internal error" not in err
    assert f"{a / 'd.xmi'}: the document's text is 0.0 MiB, more than the 0 MiB" in err


def _span_table(path: Path, per_annotator: dict[str, int]) -> Path:
    rows = ["document,start,end,label,annotator"]
    for who, n in per_annotator.items():
        rows += [f"d,{k},{k + 1},x,{who}" for k in range(n)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_document_of_too_many_spans_is_left_out_with_its_file_and_limit(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    from iaa_desktop.core.kinds import annotation_limits

    monkeypatch.setattr(annotation_limits, "MAX_PER_DOCUMENT", 4)
    t = _span_table(tmp_path / "s.csv", {"A": 3, "B": 3, "C": 5})
    code, out, err = report(["--kind", "spans", t], capsys)
    assert "annotators: 2" in out
    assert f"{t}: document d of C holds 5 annotations, more than the 4 one document" in err


def test_a_study_of_too_many_annotations_stops_with_the_limit(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    from iaa_desktop.core.kinds import annotation_limits

    monkeypatch.setattr(annotation_limits, "MAX_PER_STUDY", 10)
    t = _span_table(tmp_path / "s.csv", {"A": 6, "B": 6})
    code, _, err = report(["--kind", "spans", t], capsys)
    assert code != 0 and "internal error" not in err
    assert "The inputs hold 12 annotations, more than the 10 one study may have" in err
    assert str(t) in err


def test_coref_mentions_count_against_the_limits(tmp_path: Path, monkeypatch, capsys) -> None:
    from iaa_desktop.core.kinds import annotation_limits

    monkeypatch.setattr(annotation_limits, "MAX_PER_DOCUMENT", 2)
    for who, n in (("A", 2), ("B", 2), ("C", 3)):
        (tmp_path / who).mkdir()
        (tmp_path / who / "d.txt").write_text("ab cd ef\n", encoding="utf-8")
        ann = "".join(
            f"T{k + 1}\tE {3 * k} {3 * k + 2}\t{'abcdef'[2 * k : 2 * k + 2]}\n" for k in range(n)
        )
        (tmp_path / who / "d.ann").write_text(ann + "*\tCoreference T1 T2\n", encoding="utf-8")
    code, out, err = report(["--kind", "coref", *(tmp_path / w for w in "ABC")], capsys)
    assert "holds 3 annotations, more than the 2 one document may have" in err
    assert str(tmp_path / "C" / "d.ann") in err


def test_the_export_fixtures_unpack_far_below_the_limits() -> None:
    root = Path(__file__).parents[1] / "fixtures"
    for z in root.rglob("project.zip"):
        with zipfile.ZipFile(z) as zf:
            assert sum(i.file_size for i in zf.infolist()) < inception.MAX_UNPACKED_TOTAL
        assert inception.parse(z).documents

"""Inputs the reader fuzzer found that once ended in a traceback: each a small file of our own,
each now answered by a message naming the file and the line."""

from __future__ import annotations

import io
import zipfile

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
    assert code == 2, err  # not a silent row "os" without annotator and label
    assert f"{f}, line 3: a carriage return alone splits this line" in err


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
    from iaa_desktop.core.kinds.arrange import header

    f = tmp_path / "t.tsv"
    f.write_text("item\tcoder\tlabel\r\ni1\tA\tx\r\n", encoding="utf-16")
    assert header(f) == "item, coder, label"


# ------------------------------------------------------------------------ numbers of many digits
BIG = "9" * 5000


def test_jsonl_line_with_a_number_of_thousands_of_digits(tmp_path, capsys):
    text = "Marie Curie worked in Paris."
    ok = f'{{"id": 1, "text": "{text}", "label": [[0, 11, "PER"]]}}\n'
    (tmp_path / "A.jsonl").write_text(ok, encoding="utf-8")
    bad = f'{{"id": {BIG}, "text": "{text}", "label": [[0, 11, "PER"]]}}\n'
    (tmp_path / "B.jsonl").write_text(ok + bad, encoding="utf-8")
    code, err = report(["--kind", "spans", tmp_path / "A.jsonl", tmp_path / "B.jsonl"], capsys)
    assert code in (0, 1, 2) and "internal error" not in err
    assert f"{tmp_path / 'B.jsonl'}, line 2: a number of 5,000 digits: far too long" in err


def test_json_document_with_a_number_of_thousands_of_digits(tmp_path):
    from iaa_desktop.core.errors import ReaderError
    from iaa_desktop.core.formats.jsonio import load_json

    with pytest.raises(ReaderError, match=r"x\.json, line 3: a number of 5,000 digits"):
        load_json('[\n {"id": 1},\n {"id": ' + BIG + "}\n]", "x.json")


def _tsv3(offsets: str) -> str:
    return (
        "#FORMAT=WebAnno TSV 3.3\n"
        "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n\n\n"
        "#Text=Marie Curie\n1-1\t0-5\tMarie\t*[1]\tPER[1]\n1-2\t6-11\tCurie\t*[1]\tPER[1]\n\n"
        f"#Text=Paris\n2-1\t{offsets}\tParis\t*\tLOC\n"
    )


@pytest.mark.parametrize(
    ("offsets", "message"),
    [
        (f"{BIG}-{BIG}", "line 10: not a token row"),
        ("900000000000-900000000005", "line 10: the sentence begins at offset 900,000,000,000"),
    ],
)
def test_webanno_offsets_far_too_large(tmp_path, capsys, offsets, message):
    for who, cell in (("A", "12-17"), ("B", offsets)):
        (tmp_path / who).mkdir()
        (tmp_path / who / "doc1.tsv").write_text(_tsv3(cell), encoding="utf-8")
    code, err = report(["--kind", "spans", tmp_path / "A", tmp_path / "B"], capsys)
    assert code in (1, 2) and "internal error" not in err
    assert f"{tmp_path / 'B' / 'doc1.tsv'}, {message}" in err


def test_brat_offset_of_thousands_of_digits_in_a_span_study(tmp_path, capsys):
    for who, start in (("A", "0"), ("B", BIG)):
        (tmp_path / who).mkdir()
        (tmp_path / who / "d.txt").write_text("Marie Curie", encoding="utf-8")
        (tmp_path / who / "d.ann").write_text(f"T1\tPER {start} 5\tMarie\n", encoding="utf-8")
    code, err = report(["--kind", "spans", tmp_path / "A", tmp_path / "B"], capsys)
    assert code in (1, 2) and "internal error" not in err
    assert f"{tmp_path / 'B' / 'd.ann'}, line 1: span T1 has an offset far too long" in err


def test_wide_table_with_a_number_of_thousands_of_digits(tmp_path, capsys):
    f = tmp_path / "wide.tsv"
    rows = ["item\tA\tB\tC"] + [f"w{i}\t{i % 4 + 1}\t{i % 3 + 1}\t{i % 4 + 1}" for i in range(8)]
    rows[3] = f"w2\t{BIG}\t3\t3"
    f.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, err = report(["--kind", "table", "--interval", "none", f], capsys)
    assert code in (0, 1, 2) and "internal error" not in err


def test_contingency_counts_that_add_up_to_billions_are_refused(tmp_path, capsys):
    f = tmp_path / "c.csv"
    f.write_text("x,yes,no\nyes,4000000000,1\nno,2,7\n", encoding="utf-8")
    code, err = report(["--kind", "table", "--layout", "contingency", f], capsys)
    assert code == 2 and f"{f}, line 2: the counts add up to more than 5,000,000" in err


# -------------------------------------------------------------------------- damaged ZIP members


def test_inception_export_with_a_damaged_member(tmp_path, capsys):
    import zipfile

    from tests.fuzz.seeds import spans_inception

    argv = spans_inception(tmp_path)
    zpath = tmp_path / "project.zip"
    with zipfile.ZipFile(zpath) as z:
        info = z.getinfo("annotation/doc1.txt/A.zip")
    data = bytearray(zpath.read_bytes())
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + 5 : start + 40] = b"\x55" * 35  # the deflate stream, not the headers
    zpath.write_bytes(bytes(data))
    code, err = report([*argv, "--json", tmp_path / "r.json"], capsys)
    assert code in (1, 2) and "internal error" not in err
    assert f"{zpath}!annotation/doc1.txt/A.zip: the archive member is damaged" in err


# ------------------------------------------------------------- edge cases that warned (numpy)


def test_annotators_sharing_no_document_give_no_warning(tmp_path, capsys):
    import json
    import warnings

    rows = [
        {
            "text": t,
            "_input_hash": h,
            "spans": [{"start": 0, "end": 3, "label": "PER"}],
            "answer": "accept",
            "_annotator_id": f"ner-{who}",
            "_session_id": f"ner-{who}",
        }
        for t, h, who in (("Ada met Charles.", 1, "A"), ("Bob met Marie.", 2, "B"))
    ]
    f = tmp_path / "ner.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, err = report(["--kind", "spans", f, "--json", tmp_path / "r.json"], capsys)
    assert code in (0, 1, 2) and "internal error" not in err


def test_a_table_of_300_annotators_gives_no_warning(tmp_path, capsys):
    import warnings

    f = tmp_path / "wide.csv"
    names = [f"a{j}" for j in range(300)]
    rows = [",".join(["item", *names])]
    rows += [",".join([f"i{i}", *(str((i + j) % 3) for j in range(300))]) for i in range(5)]
    f.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", DeprecationWarning)
        code, err = report(["--kind", "table", "--interval", "none", f, "--json", out], capsys)
    assert code == 0, err


def test_durel_judgments_with_a_header_only_name_the_input(tmp_path, capsys):
    d = tmp_path / "(Ps 23 1)"
    d.mkdir()
    (d / "uses.tsv").write_text(
        "lemma\tidentifier\tcontext\tindexes_target_token\nlord\tu1\tthe lord\t4:8\n"
    )
    (d / "judgments.tsv").write_text("identifier1\tidentifier2\tannotator\tjudgment\n")
    code, err = report(["--kind", "durel", d, "--json", tmp_path / "r.json"], capsys)
    assert code in (1, 2), err
    assert f"error: {d}" in err and "no judgments were found" in err.lower(), err


def test_candidates_with_a_hundred_annotators_give_no_fragmentation_warning(tmp_path, capsys):
    import warnings

    (tmp_path / "pairs.tsv").write_text(
        "pair_id\ttarget_text\tsource_text\n"
        + "".join(f"P{k}\tin principio {k}\tin principio erat {k}\n" for k in range(6))
    )
    rows = "".join(f"P{k}\tA{a}\t{(k + a) % 2}\n" for k in range(6) for a in range(120))
    (tmp_path / "labels.tsv").write_text("pair_id\tannotator\tlabel\n" + rows)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pandas' PerformanceWarning about a fragmented frame
        code, err = report(
            [
                "--kind",
                "candidates",
                "--bayes-draws",
                "50",
                tmp_path,
                "--json",
                tmp_path / "r.json",
            ],
            capsys,
        )
    assert code == 0, err


def test_long_table_with_thousands_of_metadata_columns(tmp_path, capsys):
    """Item context is gathered over all columns at once (once a column-by-column loop on a
    fragmented frame: over 30 s for a 30 kB file)."""
    import warnings

    extra = [f"c{k}" for k in range(2000)]
    rows = [",".join(["item", "annotator", "label", *extra])]
    for i in range(6):
        for a in ("A", "B"):
            rows.append(",".join([f"i{i}", a, str((i + (a == "B")) % 2), *("v" * 2000)]))
    f = tmp_path / "long.csv"
    f.write_text("\n".join(rows) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pandas' PerformanceWarning about a fragmented frame
        code, err = report(["--kind", "table", f, "--json", tmp_path / "r.json"], capsys)
    assert code == 0, err


def test_multilabel_label_column_name_too_long_for_a_label(tmp_path, capsys):
    """A label name is repeated in every combination and partition listed: one of 2 MB once
    took over 2 GB; now it is refused with its file and line."""
    f = tmp_path / "wide.csv"
    name = "Resolution" + "x" * 490  # a header name, but too long for a label
    rows = ["item,annotator,Complication," + name]
    rows += [f"i{i},{a},{i % 2},{(i + (a == 'B')) % 2}" for i in range(8) for a in "AB"]
    f.write_text("\n".join(rows) + "\n")
    code, err = report(["--kind", "multilabel", f, "--json", tmp_path / "r.json"], capsys)
    assert code in (1, 2), err
    assert f"{f}, line 1: a label column named with 500 characters" in err


def test_multilabel_long_table_with_a_label_of_a_million_characters(tmp_path, capsys):
    f = tmp_path / "long.csv"
    rows = ["item,annotator,labels"]
    rows += [f"i{i},{a},Complication;Resolution" for i in range(8) for a in "AB"]
    rows[5] = "i2,A,Complication;" + "R" * 1_000_000
    f.write_text("\n".join(rows) + "\n")
    code, err = report(["--kind", "multilabel", f, "--json", tmp_path / "r.json"], capsys)
    assert f"{f}, line 6: a label of 1,000,000 characters" in err, err


def test_json_nested_too_deeply_names_file_and_line(tmp_path, capsys):
    f = tmp_path / "spans.jsonl"
    f.write_text("[" * 100_000 + '\n{"text": "a b", "spans": []}\n')  # read when recognising it
    code, err = report(["--kind", "spans", f, "--json", tmp_path / "r.json"], capsys)
    assert "internal error" not in err and code in (1, 2), err


def test_jsonio_reports_where_the_nesting_gets_too_deep():
    import json

    from iaa_desktop.core.formats.jsonio import load_json

    text = '{"a": "[[[[",\n "b": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(Exception) as e:
        load_json(text, "x.json")
    assert str(e.value).startswith("x.json, line 2: not valid JSON (nested too deeply")
    assert json.loads('{"a": [[1]]}') == {"a": [[1]]}


def test_study_file_nested_too_deeply(tmp_path, capsys):
    f = tmp_path / "s.iaa-study"
    f.write_text('{"format": "iaa-study", "inputs": ' + "[" * 100_000 + "}")
    code, err = report([f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2 and f"{f}: the study file is nested too deeply" in err, err


def _study(tmp_path, kind: str, options: dict) -> object:
    import json

    (tmp_path / "long.csv").write_text("item,annotator,label\ni1,A,x\ni1,B,x\ni2,A,y\ni2,B,x\n")
    f = tmp_path / "s.iaa-study"
    study = {"format": "iaa-study", "version": 1, "kind": kind, "inputs": ["long.csv"]}
    f.write_text(json.dumps({**study, "options": options}))
    return f


def test_study_file_option_out_of_its_choices_names_the_study(tmp_path, capsys):
    f = _study(tmp_path, "table", {"interval": "non\ufeffe"})
    code, err = report([f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2 and f"{f}: in its options: Interval method:" in err, err


def test_study_file_of_an_unknown_kind_names_the_study_and_cuts_the_name(tmp_path, capsys):
    f = _study(tmp_path, "table" + "x" * 100_000, {})
    code, err = report([f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2 and f"{f}: Unknown kind of study 'tablexxx" in err, err
    assert len(err) < 1000


def test_row_longer_than_the_header_with_the_python_engine(tmp_path, capsys):
    f = tmp_path / "mentions.csv"  # '|' as delimiter: pandas' python engine
    f.write_text("item|annotator|label\ni1|A|x\ni1|B|x\ni2|A|y|extra|more\ni2|B|x\n")
    code, err = report(["--kind", "table", f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2 and f"{f}, line 4: this row has more fields than the header's 3" in err, err


def test_zip_of_an_unsupported_version(tmp_path, capsys):
    """zipfile raises NotImplementedError (not BadZipFile) for a version it cannot extract."""
    import zipfile

    f = tmp_path / "project.zip"
    with zipfile.ZipFile(f, "w") as z:
        z.writestr("annotation/doc1.txt/A.tsv", "#FORMAT=WebAnno TSV 3.3\n")
    raw = bytearray(f.read_bytes())
    cd = raw.rindex(b"PK\x01\x02")
    raw[cd + 6 : cd + 8] = (132).to_bytes(2, "little")  # version needed to extract: 13.2
    f.write_bytes(bytes(raw))
    with pytest.raises(NotImplementedError):
        zipfile.ZipFile(f)
    code, err = report(["--kind", "spans", f, "--json", tmp_path / "r.json"], capsys)
    assert "internal error" not in err and code in (1, 2), err


def test_wide_table_of_thousands_of_annotators_is_refused_with_a_reason(tmp_path, capsys):
    """Every pair of annotators is tallied: 5,000 columns once took over 1.8 GB and 30 s."""
    f = tmp_path / "wide.tsv"
    names = [f"c{k}" for k in range(1200)]
    f.write_text("item\t" + "\t".join(names) + "\n" + "i1\t" + "\t".join("1" * 1200) + "\n")
    code, err = report(["--kind", "table", f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2 and "1,200 annotators: agreement of every pair" in err, err


def test_study_input_path_longer_than_a_file_system_allows(tmp_path, capsys):
    f = _study(tmp_path, "table", {})
    import json

    data = json.loads(f.read_text())
    data["inputs"] = ["x" * 5000 + "long.csv"]
    f.write_text(json.dumps(data, indent=2))
    code, err = report([f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2 and f"{f}, line 6: an input path of 5,008 characters" in err, err


def test_an_os_error_names_its_file(tmp_path, capsys):
    d = tmp_path / "out"
    d.write_text("a file where a folder is expected")
    (tmp_path / "long.csv").write_text("item,annotator,label\ni1,A,x\ni1,B,x\ni2,A,y\ni2,B,x\n")
    code, err = report(["--kind", "table", tmp_path / "long.csv", "--json", d / "r.json"], capsys)
    assert code == 2 and f"error: {d}" in err and "cannot write" not in err, err


def test_header_name_of_two_megabytes(tmp_path, capsys):
    """NumPy once made the header one fixed-width array as wide as its longest name (37 GiB)."""
    f = tmp_path / "long.csv"
    f.write_text("item,annotator,label," + "x" * 2_000_000 + "\ni1,A,x,1\ni1,B,x,1\n")
    code, err = report(["--kind", "table", f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2 and f"{f}, line 1: column 4's name has 2,000,000 characters" in err, err


def test_multilabel_cell_of_a_million_labels(tmp_path, capsys):
    """Inferring the label order compared every label of a cell with every later one: a cell
    "1;1;1;…" of a million labels ran for hours."""
    f = tmp_path / "long.tsv"
    rows = ["item\tannotator\tlabels"]
    rows += [f"T{i}\t{a}\tComplication;Success" for i in range(4) for a in ("A1", "A2")]
    rows.append("T9\tA1\t" + ";".join(["1"] * 1_000_000))
    rows.append("T9\tA2\t" + ";".join(str(k) for k in range(40)))
    f.write_text("\n".join(rows) + "\n")
    code, err = report(["--kind", "multilabel", f, "--json", tmp_path / "r.json"], capsys)
    assert code in (0, 1), err
    assert f"{f}, line 11: a set of 40 labels, more than the 16" in err, err


def test_multilabel_more_distinct_labels_than_supported(tmp_path, capsys):
    f = tmp_path / "long.tsv"
    rows = ["item\tannotator\tlabels"]
    rows += [f"T{i}\t{a}\tL{i};L{i + 1}" for i in range(30) for a in ("A1", "A2")]
    f.write_text("\n".join(rows) + "\n")
    code, err = report(["--kind", "multilabel", f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2 and "31 labels is more than this analysis supports (16)" in err, err


def test_a_path_with_a_line_separator_stays_on_one_line(tmp_path, capsys):
    import json

    f = _study(tmp_path, "table", {})
    data = json.loads(f.read_text())
    data["inputs"] = ["long.csv\u2028"]
    f.write_text(json.dumps(data))
    code, err = report([f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "long.csv\\u2028: no such file or folder" in err, err


def test_shown_path_escapes_control_characters_and_keeps_scripts():
    from iaa_desktop.core.errors import ReaderError, shown_path

    assert shown_path("a\nb\x00c") == "a\\nb\\x00c"
    assert shown_path("שלום/مرحبا/é🙂.csv") == "שלום/مرحبا/é🙂.csv"
    assert str(ReaderError("x\ry.csv", 3, "bad.")) == "x\\ry.csv, line 3: bad."


# ---------------------------------------------------------------- links inside a study's folder


def test_a_link_to_a_device_inside_a_study_folder_is_named_by_the_link(tmp_path, capsys):
    import json

    data = tmp_path / "data"
    data.mkdir()
    (data / "long.csv").write_text("item,annotator,label\n1,A,x\n1,B,x\n", encoding="utf-8")
    (data / "zero.csv").symlink_to("/dev/zero")
    (data / "loop").symlink_to(data, target_is_directory=True)
    study = tmp_path / "s.iaa-study"
    study.write_text(
        json.dumps({"format": "iaa-study", "version": 1, "kind": "table", "inputs": ["data"]}),
        encoding="utf-8",
    )
    code, err = report([study, "--allow-outside-inputs"], capsys)
    assert code == 2
    assert (
        f"{data / 'zero.csv'}: the study names a device, pipe or socket (or a link to one)" in err
    )


def test_a_sheet_of_hundreds_of_thousands_of_rows_is_refused_before_openpyxl(
    tmp_path, capsys, monkeypatch
):
    # the fuzzer's many_rows: 300,000 repeated rows took openpyxl over 30 s of a loaded machine
    import openpyxl

    from tests import hostile_files as H

    book = H.xlsx(tmp_path / "t.xlsx", [("1", "A", "x")] * 300_000)

    def never(*_a, **_k):
        raise AssertionError("parsed although the cells were over the limit")

    monkeypatch.setattr(openpyxl, "load_workbook", never)
    code, err = report(["--kind", "table", book], capsys)
    assert code == 2
    assert f"{book}: the workbook holds more than 600,000 cells in one sheet" in err


def test_a_type_system_of_a_million_elements_is_refused_before_parsing(tmp_path, monkeypatch):
    # the fuzzer's many_elements on an export's TypeSystem.xml: read again for every document,
    # it took dkpro-cassis over 30 s
    import cassis

    from iaa_desktop.core.formats import inception
    from tests import hostile_files as H

    ts = H.TYPESYSTEM.replace(b"<description/>", b"<description/>" * 60_000, 1)
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("d.xmi", H.xmi("Abcd", [(0, 4, "X")]))
        z.writestr("TypeSystem.xml", ts)
    export = H.inception_export(tmp_path / "p.zip", {"A": {"d.txt": inner.getvalue()}})

    def never(*_a, **_k):
        raise AssertionError("parsed although it was over the limit")

    monkeypatch.setattr(cassis, "load_typesystem", never)
    parsed = inception.parse(export)
    assert not parsed.documents
    assert "(TypeSystem.xml): the type system holds more than 50,000 elements" in str(
        parsed.errors[0]
    )


def test_a_column_named_like_the_line_numbers_is_refused(tmp_path, capsys):
    # the fuzzer's reserved_names and control_bytes: '__line__' + U+2028, stripped to the name
    # of the column of line numbers, which replaced it
    for name in ("__line__", "__line__\u2028"):
        f = tmp_path / "b.csv"
        f.write_text(f"document,begin,end,entityNum,{name}\nd1,0,4,1,m0\n", encoding="utf-8")
        a = tmp_path / "a.csv"
        a.write_text("document,begin,end,entityNum\nd1,0,4,1\n", encoding="utf-8")
        code, err = report(["--kind", "coref", "--doc-column", "document", a, f], capsys)
        assert f"{f}, line 1: column 5 is named '__line__'" in err, err


def test_a_study_listing_one_input_thousands_of_times_is_refused_at_its_line(tmp_path, capsys):
    # the fuzzer's hostile study: 5,000 times the same file, read 5,000 times (minutes)
    import json

    (tmp_path / "long.csv").write_text("item,annotator,label\n1,A,x\n1,B,x\n", encoding="utf-8")
    study = tmp_path / "s.iaa-study"
    body = {"format": "iaa-study", "version": 1, "kind": "table", "inputs": ["long.csv"] * 5000}
    study.write_text(json.dumps(body, indent=2), encoding="utf-8")
    code, err = report([study], capsys)
    assert code == 2
    assert f"{study}, line 7: the input 'long.csv' is listed twice" in err


def test_eleven_labels_of_four_annotators_are_not_decomposed_in_gigabytes(tmp_path, capsys):
    # the fuzzer's texts table read as annotations: 11 labels, 6 pairs; the joint counts fit
    # (25 million), but the decomposition held them 12 times at once (2.25 GiB)
    from iaa_desktop.core.kinds.multilabel import explore

    assert not explore.joints_fit(6, 11) and explore.joints_fit(6, 8)
    rows = ["item\tannotator\tlabels"]
    labels = [f"L{j}" for j in range(11)]
    for i in range(12):
        for a in range(4):
            rows.append(f"i{i}\tA{a}\t{';'.join(labels[(i + a + j) % 11] for j in range(3))}")
    f = tmp_path / "m.tsv"
    f.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, err = report(["--kind", "multilabel", f, "--json", tmp_path / "r.json"], capsys)
    assert code == 0, err
    assert "11 labels and 6 annotator pairs: the decomposition would hold" in err
    assert "per-label agreement only" in err


def test_a_device_named_by_a_study_option_is_refused_naming_the_study(tmp_path, capsys):
    import json

    (tmp_path / "long.csv").write_text("item,annotator,label\n1,A,x\n1,B,x\n", encoding="utf-8")
    study = tmp_path / "s.iaa-study"
    body = {
        "format": "iaa-study",
        "version": 1,
        "kind": "table",
        "inputs": ["long.csv"],
        "options": {"texts": "/dev/zero"},
    }
    study.write_text(json.dumps(body), encoding="utf-8")
    code, err = report([study, "--allow-outside-inputs"], capsys)
    assert code == 2
    assert f"{study}: the study names a device, pipe or socket as an input (/dev/zero)" in err


@pytest.mark.parametrize("name", ["annotator", "label"])
def test_wide_table_whose_item_column_is_named_like_the_comparisons_own(tmp_path, capsys, name):
    """A wide table (one column per annotator) whose first column is called "annotator" or
    "label": melting it made two columns of that name (a TypeError)."""
    f = tmp_path / "wide.tsv"
    f.write_text(f"{name}\tA\tB\tC\nw0\t1\t2\t1\nw1\t2\t2\t2\nw2\t3\t3\t3\n", encoding="utf-8")
    code, err = report(["--kind", "table", f, "--json", tmp_path / "r.json"], capsys)
    assert code == 2, err
    assert f"{f}, line 1: the column '{name}' is read as an item column" in err

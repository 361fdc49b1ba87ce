"""Hostile and broken inputs: each case a small file of our own, each answered by a message
naming the file (and line), never a traceback, a silent misreading or a blow-up."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.progress import run_to_end


@pytest.fixture(autouse=True)
def _debug(monkeypatch):
    # a bug raises (and fails the test) instead of becoming one "internal error" line
    monkeypatch.setenv("IAA_DEBUG", "1")


def report(args: list[str], capsys) -> tuple[int, str, str]:
    code = cli_main(["report", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def _brat(folder: Path, name: str, text: str | bytes, ann: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_bytes(text if isinstance(text, bytes) else text.encode())
    (folder / f"{name}.ann").write_text(ann, encoding="utf-8")


ANN = (
    "T1\tMention 0 5\tDavid\nT2\tMention 12 14\tHe\nT3\tMention 19 22\this\n*\tCoreference T1 T2\n"
)
TEXT = "David came. He saw his son."


# ------------------------------------------------------------------------------ decoding policy


def test_invalid_utf8_in_a_brat_text_names_file_line_and_offset(tmp_path, capsys):
    _brat(tmp_path / "A", "d", TEXT.encode() + b"\n\xffmore", ANN)
    _brat(tmp_path / "B", "d", TEXT, ANN)
    code, _, err = report(["--kind", "coref", tmp_path / "A", tmp_path / "B"], capsys)
    assert code == 2
    assert "d.txt, line 2: byte 0xFF at byte offset 28" in err


def test_invalid_utf8_in_a_conll_file(tmp_path, capsys):
    doc = (
        "#begin document (d); part 000\nd\t0\t0\tDavid\t(1)\nd\t0\t1\tcaf\xe9\t(1)\n#end document\n"
    )
    (tmp_path / "a.conll").write_bytes(doc.encode("latin-1"))
    (tmp_path / "b.conll").write_text(doc.replace("\xe9", "e"), encoding="utf-8")
    code, _, err = report(["--kind", "coref", tmp_path / "a.conll", tmp_path / "b.conll"], capsys)
    assert code == 2 and "a.conll, line 3: byte 0xE9 at byte offset" in err


def test_one_bad_byte_is_an_error_not_cp1252(tmp_path, capsys):
    rows = ["item,annotator,label"] + [f"i{k},{a},caf\xe9" for k in range(4) for a in "AB"]
    p = tmp_path / "t.csv"
    p.write_bytes("\n".join(rows).encode("utf-8") + b"\n" + "i9,A,caf\xe9\n".encode("cp1252"))
    code, _, err = report(["--kind", "table", "--interval", "none", p], capsys)
    assert code == 2 and "t.csv, line 10: byte 0xE9" in err and "choose its encoding" in err
    # the user may name the encoding: then the whole file is read with it, and agrees fully
    p.write_bytes("\n".join(rows).encode("cp1252") + b"\n")
    code, out, _ = report(
        ["--kind", "table", "--interval", "none", "--encoding", "cp1252", p], capsys
    )
    assert code == 0 and "Percent agreement: 1.000" in out


def test_utf16_with_bom_is_read(tmp_path, capsys):
    p = tmp_path / "t.tsv"
    p.write_text("item\tA\tB\ni1\tא\tא\ni2\tب\tب\n", encoding="utf-16")
    code, out, _ = report(["--kind", "table", "--interval", "none", p], capsys)
    assert code == 0 and "Percent agreement: 1.000" in out


# ------------------------------------------------------------------------------ numbers and ids


def test_brat_offset_with_thousands_of_digits(tmp_path, capsys):
    _brat(tmp_path / "A", "d", TEXT, ANN.replace("0 5", "0 " + "9" * 5000))
    _brat(tmp_path / "B", "d", TEXT, ANN)
    code, _, err = report(["--kind", "coref", tmp_path / "A", tmp_path / "B"], capsys)
    assert code == 1
    assert re.search(r"A/d\.ann, line 1: mention T1 has an offset with more than \d+ digits", err)


def test_conll_entity_id_with_thousands_of_digits(tmp_path, capsys):
    doc = "#begin document (d); part 000\nd\t0\t0\tDavid\t({n})\nd\t0\t1\the\t(1)\n#end document\n"
    (tmp_path / "a.conll").write_text(doc.replace("{n}", "7" * 6000), encoding="utf-8")
    (tmp_path / "b.conll").write_text(doc.replace("{n}", "1"), encoding="utf-8")
    code, _, err = report(["--kind", "coref", tmp_path / "a.conll", tmp_path / "b.conll"], capsys)
    assert code == 1 and "a.conll, line 2: an entity number with more than" in err


def test_duplicated_brat_id_is_an_error_and_changes_nothing(tmp_path, capsys):
    dup = ANN + "T1\tMention 19 22\this\n"  # a second T1: taken, it would move T1 into the class
    _brat(tmp_path / "A", "d", TEXT, dup)
    _brat(tmp_path / "B", "d", TEXT, ANN)
    code, _, err = report(["--kind", "coref", tmp_path / "A", tmp_path / "B"], capsys)
    assert code == 1 and "A/d.ann, line 5: the id T1 is used twice (first on line 1)" in err
    r = run_to_end(get_kind("coref").run([tmp_path / "A", tmp_path / "B"], {}))
    doc = r.documents[0].docs["A"]
    assert doc.classes == [[("Mention", 0, 5), ("Mention", 12, 14)]]


def test_durel_span_with_a_huge_number(tmp_path, capsys):
    t = tmp_path / "(T 1 1)"
    t.mkdir()
    (t / "uses.tsv").write_text(
        "lemma\tidentifier\tcontext\tindexes_target_token\n"
        f"w\tu1\tthe word\t4:{'9' * 5000}\nw\tu2\tthe word\t4:8\n",
        encoding="utf-8",
    )
    (t / "judgments.tsv").write_text(
        "identifier1\tidentifier2\tannotator\tjudgment\tcomment\tlemma\ttimestamp\n"
        "u1\tu2\ta\t4.0\t\tw\t\nu1\tu2\tb\t3.0\t\tw\t\n",
        encoding="utf-8",
    )
    code, _, err = report(["--kind", "durel", tmp_path], capsys)
    assert code == 1 and "uses.tsv, line 2: the span '4:999" in err and "outside its text" in err


def test_mention_table_offsets_are_bounded(tmp_path, capsys):
    head = "document,begin,end,entityNum\n"
    (tmp_path / "a.csv").write_text(head + f"d,0,{'9' * 30},1\nd,5,9,1\n", encoding="utf-8")
    (tmp_path / "b.csv").write_text(head + "d,0,4,1\nd,5,9,1\n", encoding="utf-8")
    args = ["--kind", "coref", "--doc-column", "document", tmp_path / "a.csv", tmp_path / "b.csv"]
    code, _, err = report(args, capsys)
    assert code == 1 and "a.csv, line 2: begin and end must be whole numbers from 0" in err


def test_multilabel_annotator_ids_made_of_digits(tmp_path, capsys):
    big = "1" * 5000
    p = tmp_path / "m.tsv"
    p.write_text(
        "item\tannotator\tlabels\n"
        + "".join(
            f"i{k}\t{a}\t{'A;B' if (k + len(a)) % 2 else 'A'}\n"
            for k in range(4)
            for a in ("2", "10", big)
        ),
        encoding="utf-8",
    )
    r = run_to_end(get_kind("multilabel").run([p], {}))
    assert r.data.annotators == ("2", "10", big)  # natural order, no int() of 5,000 digits


# ------------------------------------------------------------------------------ tables


def test_header_of_pipe_joined_names(tmp_path, capsys):
    p = tmp_path / "t.csv"
    p.write_text("item|annotator|label\n1,a,x\n1,b,y\n", encoding="utf-8")
    code, _, err = report(["--kind", "table", p], capsys)
    assert code == 2 and "t.csv" in err


def test_100000_repeated_header_names_are_refused_at_once(tmp_path, capsys):
    # pandas renames repeated names x.1, x.2 ... in quadratic time; the header is checked first
    p = tmp_path / "t.csv"
    p.write_text(",".join(["item"] + ["x"] * 100_000) + "\n1," + ",".join("1" * 100_000) + "\n")
    code, _, err = report(["--kind", "table", p], capsys)
    assert code == 2 and "t.csv, line 1: the header has 100,001 columns, more than 10,000" in err
    p.write_text(",".join(["item"] + ["x"] * 9_000) + "\n1," + ",".join("1" * 9_000) + "\n")
    code, _, err = report(["--kind", "table", p], capsys)
    assert code == 2 and "t.csv, line 1: the column name 'x' appears twice" in err


def test_first_row_with_extra_fields(tmp_path, capsys):
    p = tmp_path / "t.csv"
    rows = ["item,annotator,label", "1,a,x" + ",e" * 300_000]
    rows += [f"{k},a{k % 3},l{k % 5}" for k in range(2, 60_000)]
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, _, err = report(["--kind", "table", p], capsys)
    assert code == 2 and "t.csv, line 2: the row has 300,003 fields, the header 3" in err


def _xlsx(path: Path, rows: list[list[object]], pad: int = 0) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    for r in rows:
        wb.active.append(r)
    wb.save(path)
    if pad:  # whitespace inside the sheet's XML: tiny compressed, huge unpacked
        with zipfile.ZipFile(path) as z:
            parts = {n: z.read(n) for n in z.namelist()}
        name = "xl/worksheets/sheet1.xml"
        parts[name] = parts[name].replace(b"<sheetData>", b"<sheetData>" + b" " * pad)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for n, b in parts.items():
                z.writestr(n, b)


def test_xlsx_that_unpacks_to_much_more_is_refused(tmp_path, capsys, monkeypatch):
    from iaa_desktop.core import tabular

    monkeypatch.setattr(tabular, "MAX_XLSX_UNPACKED", 4 * 2**20)
    p = tmp_path / "bomb.xlsx"
    _xlsx(p, [["item", "A", "B"], ["i1", 1, 1]], pad=8 * 2**20)
    assert p.stat().st_size < 100_000
    code, _, err = report(["--kind", "table", p], capsys)
    assert code == 2 and "bomb.xlsx: the workbook unpacks to 8 MiB, more than the 4 MiB" in err


def test_xlsx_with_too_many_cells_is_refused(tmp_path, capsys, monkeypatch):
    from iaa_desktop.core import tabular

    monkeypatch.setattr(tabular, "MAX_XLSX_CELLS", 1000)
    p = tmp_path / "big.xlsx"
    _xlsx(p, [["item", "A", "B"]] + [[f"i{k}", k % 3, k % 2] for k in range(500)])
    code, _, err = report(["--kind", "table", p], capsys)
    # counted in the sheet's part before openpyxl parses it
    assert code == 2 and "big.xlsx: the workbook holds more than 1,000 cells in one sheet" in err


def test_xlsx_still_reads(tmp_path, capsys):
    p = tmp_path / "ok.xlsx"
    _xlsx(
        p, [["item", "A", "B"], ["i1", 1, 1], [None, None, None], ["i2", 2.0, 2], ["i3", "x", "x"]]
    )
    code, out, _ = report(["--kind", "table", "--interval", "none", p], capsys)
    assert code == 0 and "Percent agreement: 1.000" in out


# ------------------------------------------------------------------------------ normalization


def _tokens(path: Path, rows: list[tuple[str, str]]) -> None:
    body = "".join(f"T\t{k}\t{o}\t{n}\n" for k, (o, n) in enumerate(rows, 1))
    path.write_text("text_id\ttoken_id\torig\tnorm\n" + body, encoding="utf-8")


def test_malformed_normalization_row_is_reported_and_left_out(tmp_path, capsys):
    _tokens(tmp_path / "a.tsv", [("vnd", "und"), ("ſo", "so"), ("dan", "dann")])
    (tmp_path / "b.tsv").write_text(
        "text_id\ttoken_id\torig\tnorm\nT\t1\tvnd\tund\nT\t2\tſo\nT\t3\tdan\tdann\textra\n",
        encoding="utf-8",
    )
    code, _, err = report(["--kind", "normalization", tmp_path], capsys)
    assert code == 1
    assert "b.tsv, line 4: the row has 5 fields, the header 4; it is left out." in err


def test_historical_form_with_a_hyphen_keeps_its_units(tmp_path, capsys):
    # the hyphen is also the alignment's gap symbol: it must stay a unit of its own
    from iaa_desktop.core.align.characters import CharacterAligner
    from iaa_desktop.core.kinds.normalization.compare import build_character_data

    forms = np.array([["und", "und"], ["-ere", "ere"], ["und", "und"]], dtype=object)
    chars = build_character_data(["vnd", "-ere", "vnd"], forms, CharacterAligner())
    assert chars.codes.shape == (3 + 4 + 3, 2)
    labels = [[chars.labels[c] for c in row] for row in chars.codes[3:7]]
    assert labels == [["_", ""], ["_", "_"], ["_", "_"], ["_", "_"]]
    # and end to end, the hyphenated token last (where the lost unit used to overflow)
    _tokens(tmp_path / "a.tsv", [("vnd", "und"), ("-ere", "-ere")])
    _tokens(tmp_path / "b.tsv", [("vnd", "und"), ("-ere", "ere")])
    code, _, _ = report(["--kind", "normalization", "--no-drop-punctuation", tmp_path], capsys)
    assert code == 0


def test_overlong_token_is_left_out_not_aligned(tmp_path, capsys):
    _tokens(tmp_path / "a.tsv", [("vnd", "und"), ("x" * 100_000, "y" * 100_000)])
    _tokens(tmp_path / "b.tsv", [("vnd", "und"), ("x" * 100_000, "y")])
    code, _, err = report(["--kind", "normalization", tmp_path], capsys)
    assert code == 1 and "a.tsv, line 3: a cell of 100,000 characters" in err


# ------------------------------------------------------------------------------ coreference


def test_coref_annotators_sharing_no_document(tmp_path, capsys):
    _brat(tmp_path / "A", "one", TEXT, ANN)
    _brat(tmp_path / "A", "two", TEXT, ANN)
    _brat(tmp_path / "B", "three", TEXT, ANN)
    _brat(tmp_path / "B", "four", TEXT, ANN)
    code, _, err = report(["--kind", "coref", tmp_path / "A", tmp_path / "B"], capsys)
    assert code == 2 and "No document is annotated by two or more annotators" in err
    assert "KeyError" not in err


# ------------------------------------------------------------------------------ multi-label limits


def _multilabel(path: Path, n_items: int, labels: list[str], annotators: list[str]) -> None:
    rng = np.random.default_rng(0)
    rows = ["item\tannotator\tlabels"]
    for i in range(n_items):
        for a in annotators:
            rows.append(f"i{i}\t{a}\t" + ";".join(lab for lab in labels if rng.random() < 0.4))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_four_labels_list_the_best_partitions_by_default(tmp_path, capsys):
    p = tmp_path / "m.tsv"
    _multilabel(p, 8, ["A", "B", "C", "D"], ["x", "y"])
    code, _, _ = report(["--kind", "multilabel", p, "--json", tmp_path / "r.json"], capsys)
    js = json.loads((tmp_path / "r.json").read_text())
    info = js["exploration_info"]
    assert code == 0 and info["n_explored"] == 32_767 and info["top"] == 100
    assert len(js["exploration"]) == info["n_listed"] <= 200
    assert all(
        e["rank_first_level"] <= 100 or e["rank_second_level"] <= 100 for e in js["exploration"]
    )


def test_exhaustive_exploration_is_refused_above_its_size(tmp_path, capsys):
    p = tmp_path / "m.tsv"
    _multilabel(p, 10, list("ABCDE"), ["x", "y"])
    code, _, err = report(["--kind", "multilabel", "--exploration", "exhaustive", p], capsys)
    assert code == 2 and "Exhaustive exploration is refused" in err and "'auto' or 'bounded'" in err


def test_sixteen_labels_do_not_ask_for_gigabytes(tmp_path):
    p = tmp_path / "m.tsv"
    _multilabel(p, 30, [f"L{j}" for j in range(16)], ["x", "y", "z"])
    r = run_to_end(get_kind("multilabel").run([p], {}))
    assert r.s1_decomposition is None and r.joints.size == 0
    assert any("per-label agreement only" in w.message for w in r.warnings)
    assert len(r.per_label) == 3 and len(r.per_label[0]["kappa"]) == 16


def test_many_annotator_pairs_stay_within_the_joint_budget(tmp_path, monkeypatch):
    from iaa_desktop.core.kinds.multilabel import explore

    monkeypatch.setattr(explore, "JOINT_CELLS_MAX", 10_000)
    p = tmp_path / "m.tsv"
    _multilabel(p, 6, list("ABCDEF"), [f"a{k}" for k in range(12)])  # 66 pairs × 4,096 cells
    r = run_to_end(get_kind("multilabel").run([p], {}))
    assert r.joints.size == 0 and len(r.per_label) == 66
    # the same per-label figures as from the joint matrices
    monkeypatch.setattr(explore, "JOINT_CELLS_MAX", 2**25)
    full = run_to_end(get_kind("multilabel").run([p], {}))
    for a, b in zip(r.per_label, full.per_label):
        np.testing.assert_allclose(a["kappa"], b["kappa"])
        assert a["exact_set_agreement"] == pytest.approx(b["exact_set_agreement"])


# ------------------------------------------------------------------------------ candidates


def test_very_long_passage_is_not_aligned(tmp_path, monkeypatch):
    from iaa_desktop.core.kinds import use_pairs

    monkeypatch.setattr(use_pairs, "MAX_ALIGNED_CELLS", 10_000)
    long = " ".join(["in principio"] * 5000)
    (tmp_path / "pairs.tsv").write_text(
        f"pair_id\ttarget_text\tsource_text\nP1\t{long}\tin principio erat\nP2\ta b\ta c\n",
        encoding="utf-8",
    )
    (tmp_path / "labels.tsv").write_text(
        "pair_id\tannotator\tlabel\nP1\tA\t1\nP1\tB\t1\nP2\tA\t0\nP2\tB\t1\n", encoding="utf-8"
    )
    r = run_to_end(get_kind("candidates").run([tmp_path], {"bayes_draws": 100}))
    d = r.pair_detail(0)
    assert d.alignment.steps == () and "not computed" in dict(d.summary)["alignment"]
    assert r.pair_detail(1).alignment.steps


# ------------------------------------------------------------------------------ coefficients


def test_fleiss_kappa_below_minus_one_is_explained(tmp_path, capsys):
    p = tmp_path / "t.csv"
    p.write_text("item,annotator,label\ni1,A,x\ni1,B,y\ni2,A,x\ni2,B,y\ni3,A,x\n")
    code, out, err = report(["--kind", "table", "--interval", "none", p], capsys)
    # Gwet's π_k: x = (1/2 + 1/2 + 1)/3, y = 1/3 → A_e = 5/9, A_o = 0 → κ = −5/4
    assert "Fleiss' κ (π*): -1.250" in out
    assert "is below −1: with missing labels its chance agreement (0.556)" in err


def test_a_coefficient_outside_its_range_is_a_bug_not_a_result(tmp_path, capsys, monkeypatch):
    from types import SimpleNamespace

    import numpy as np

    from iaa_desktop.core.kinds.table import agreement
    from iaa_desktop.core.metrics import AgreementResult
    from iaa_desktop.core.metrics.result import CoefficientRangeError

    with pytest.raises(CoefficientRangeError, match="outside its range"):
        AgreementResult("cohen_kappa", -1.2)
    with pytest.raises(CoefficientRangeError):
        AgreementResult("fleiss_kappa", -1.2, observed=0.0, expected=0.5)  # bound: −1
    AgreementResult("fleiss_kappa", -1.0833, observed=0.0, expected=0.52)  # within its bound

    real = agreement.evaluate

    def broken(*args, **kwargs):
        points = real(*args, **kwargs)
        b = points["percent_agreement"]
        points["percent_agreement"] = SimpleNamespace(
            value=np.array([1.5]), observed=b.observed, expected=b.expected
        )
        return points

    monkeypatch.setattr(agreement, "evaluate", broken)
    monkeypatch.delenv("IAA_DEBUG")
    p = tmp_path / "t.csv"
    p.write_text("item,annotator,label\ni1,A,x\ni1,B,x\ni2,A,y\ni2,B,x\n")
    code, out, err = report(["--kind", "table", "--interval", "none", p], capsys)
    assert code == 2 and "percent agreement = 1.5 is outside its range" in err.lower()
    assert "1.5" not in out


# ------------------------------------------------------------------------------ special files


def test_device_as_input_is_refused(capsys):
    code, _, err = report(["--kind", "table", "/dev/zero"], capsys)
    assert code == 2 and "/dev/zero: this is not a regular file" in err


def test_fifo_as_input_is_refused_without_blocking(tmp_path, capsys):
    import os

    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    code, _, err = report([fifo], capsys)
    assert code == 2 and "not a regular file" in err


def test_reader_errors_keep_a_readable_length():
    e = ReaderError("f", 1, "x" * 100_000)
    assert len(str(e)) < 2100


# ------------------------------------------------------------------ a document given twice


def test_a_document_given_twice_is_reported_where_the_second_begins(tmp_path, capsys):
    """A CoNLL-2012 file that repeats a document: the message names the line of the second
    ``#begin document``; the first is compared, the second left out."""
    doc = "#begin document (d); part 000\nd\t0\t0\tDavid\t(1)\nd\t0\t1\the\t(1)\n#end document\n"
    other = doc.replace("\the\t(1)", "\the\t(2)")
    (tmp_path / "a.conll").write_text(doc + other, encoding="utf-8")
    (tmp_path / "b.conll").write_text(doc, encoding="utf-8")
    code, out, err = report(
        ["--kind", "coref", "--json", "-", tmp_path / "a.conll", tmp_path / "b.conll"], capsys
    )
    assert "a.conll, line 5: document (d); part 000 appears twice for this annotator" in err
    assert code == 1 and json.loads(out)["scores"][0]["muc"]["f1"] == 1.0  # the first kept


def test_a_span_document_given_twice_is_reported_at_its_record(tmp_path, capsys):
    """doccano JSONL with one record twice: the message names the line of the second record."""
    first = {"id": 1, "text": "David came.", "label": [[0, 5, "PER"]]}
    second = {"id": 2, "text": "He saw.", "label": [[0, 2, "PER"]]}
    records = [first, second, {**first, "label": [[6, 10, "PER"]]}]
    (tmp_path / "alice.jsonl").write_text("\n".join(map(json.dumps, records)) + "\n")
    (tmp_path / "bob.jsonl").write_text("\n".join(map(json.dumps, records[:2])) + "\n")
    code, _, err = report(
        ["--kind", "spans", tmp_path / "alice.jsonl", tmp_path / "bob.jsonl"], capsys
    )
    assert code == 1
    assert "alice.jsonl, line 3: alice annotated document 1 twice; the second is left out" in err

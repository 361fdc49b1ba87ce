"""Files of a format recognised but not compared are refused with what they are and what to do,
and a library's warnings become problems of the file instead of lines on the terminal."""

from __future__ import annotations

import io
import json
import warnings
import zipfile

import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.formats import inception
from tests.conftest import FIXTURES

EAF = """<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="" FORMAT="3.0" VERSION="3.0">
 <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>
 <TIME_ORDER><TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/>
 <TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="500"/></TIME_ORDER>
 <TIER LINGUISTIC_TYPE_REF="default" TIER_ID="words"><ANNOTATION><ALIGNABLE_ANNOTATION
  ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2"><ANNOTATION_VALUE>hello
  </ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION></TIER>
</ANNOTATION_DOCUMENT>
"""
TEXTGRID = """File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 1
tiers? <exists>
size = 1
item []:
    item [1]:
        class = "IntervalTier"
        name = "words"
        xmin = 0
        xmax = 1
        intervals: size = 1
        intervals [1]:
            xmin = 0
            xmax = 1
            text = "hello"
"""


def _report(args, capsys):
    code = cli_main(["report", *map(str, args), "--json", "-"])
    return code, capsys.readouterr()


@pytest.mark.parametrize(
    ("suffix", "text", "what"),
    [(".eaf", EAF, "ELAN annotation document"), (".TextGrid", TEXTGRID, "Praat TextGrid")],
)
def test_time_aligned_files_are_named_by_the_table_kind(tmp_path, capsys, suffix, text, what):
    for who in ("a", "b"):
        (tmp_path / f"{who}{suffix}").write_text(text, encoding="utf-8")
    code, cap = _report(
        ["--kind", "table", tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"], capsys
    )
    assert code == 2
    assert what in cap.err and "time-aligned" in cap.err and "--kind spans" in cap.err
    assert "only one column" not in cap.err


@pytest.mark.parametrize(("suffix", "text"), [(".eaf", EAF), (".TextGrid", TEXTGRID)])
@pytest.mark.parametrize("kind", [[], ["--kind", "spans"]])
def test_time_aligned_files_are_compared_as_spans(tmp_path, capsys, suffix, text, kind):
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        (tmp_path / who / f"talk{suffix}").write_text(text, encoding="utf-8")
    code, cap = _report([*kind, tmp_path / "a", tmp_path / "b"], capsys)
    assert code == 0, cap.err
    out = json.loads(cap.out)
    assert out["kind"] == "spans" and out["overall"]["exact_f1"]["value"] == 1.0


def test_coreference_says_what_the_file_is(tmp_path, capsys):
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        (tmp_path / who / "x.eaf").write_text(EAF, encoding="utf-8")
    code, cap = _report(["--kind", "coref", tmp_path / "a", tmp_path / "b"], capsys)
    assert code == 2 and "ELAN annotation document" in cap.err


def _conllu_export(path):
    """An INCEpTION project export whose annotations are CoNLL-U (INCEpTION's export formats)."""
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("story.conllu", "1\tOnce\t_\t_\t_\t_\t_\t_\t_\t_\n")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("exportedproject.json", json.dumps({"name": "p"}))
        z.writestr("source/story.txt", "Once")
        for user in ("alice", "bob"):
            z.writestr(f"annotation/story.txt/{user}.zip", inner.getvalue())


def test_inception_export_in_another_format_names_it(tmp_path, capsys):
    _conllu_export(tmp_path / "project.zip")
    for kind in ([], ["--kind", "table"]):
        code, cap = _report([*kind, tmp_path / "project.zip"], capsys)
        assert code == 2
        assert "INCEpTION project export" in cap.err and "CoNLL-U" in cap.err
        assert "UIMA CAS XMI" in cap.err and "Excel" not in cap.err


def test_inception_xmi_export_given_to_the_table_kind(capsys):
    code, cap = _report(
        ["--kind", "table", FIXTURES / "formats" / "inception" / "project.zip"], capsys
    )
    assert code == 2 and "compare it as labelled spans or as coreference" in cap.err


def test_label_studio_polygons_are_named(tmp_path, capsys):
    poly = {"points": [[1, 1], [5, 1], [5, 5]], "polygonlabels": ["Cat"]}
    tasks = [
        {
            "id": 1,
            "data": {"image": "/data/cat.png"},
            "annotations": [
                {
                    "id": w,
                    "completed_by": w,
                    "result": [
                        {
                            "id": "p",
                            "from_name": "label",
                            "to_name": "image",
                            "type": "polygonlabels",
                            "value": poly,
                        }
                    ],
                }
                for w in (1, 2)
            ],
        }
    ]
    (tmp_path / "export.json").write_text(json.dumps(tasks), encoding="utf-8")
    code, cap = _report(["--kind", "table", tmp_path / "export.json"], capsys)
    assert code == 2
    assert "polygonlabels are not compared" in cap.err
    assert "holds no completed annotation" not in cap.err


def test_cassis_warnings_become_problems_of_the_member(tmp_path):
    src = FIXTURES / "formats" / "inception" / "project.zip"
    out = tmp_path / "project.zip"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w") as zout:
        for name in zin.namelist():
            data = zin.read(name)
            if name == "annotation/story.txt/alice.zip":
                inner_in = zipfile.ZipFile(io.BytesIO(data))
                buf = io.BytesIO()
                with zipfile.ZipFile(buf, "w") as inner_out:
                    for n in inner_in.namelist():
                        d = inner_in.read(n)
                        if n.endswith(".xmi"):  # a type the type system does not declare
                            d = d.replace(
                                b'<cas:NULL xmi:id="0"/>',
                                b'<cas:NULL xmi:id="0"/><type:Unknown xmi:id="999" sofa="1" '
                                b'begin="0" end="2"/>',
                            )
                        inner_out.writestr(n, d)
                data = buf.getvalue()
            zout.writestr(name, data)
    with warnings.catch_warnings(record=True) as leaked:
        warnings.simplefilter("always")
        parsed = inception.parse(out)
    assert [w for w in leaked if "cassis" in str(w.filename)] == []
    problems = [str(p) for p in parsed.warnings]
    assert any("alice.zip" in p and "dkpro-cassis" in p and "Unknown" in p for p in problems)
    assert {d.annotator for d in parsed.documents} == {"alice", "bob"}

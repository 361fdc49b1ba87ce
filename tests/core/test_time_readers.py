"""ELAN and Praat readers: tiers and their units in whole milliseconds, problems at their line."""

from __future__ import annotations

import pytest

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats.elan import read_eaf
from iaa_desktop.core.formats.textgrid import ms, read_textgrid, tokens
from tests.conftest import FIXTURES

TIME = FIXTURES / "time"


def units(tier):
    return [(u.start, u.end, u.value) for u in tier.units]


def test_eaf_tiers_references_and_subdivisions():
    f = read_eaf(TIME / "structures.eaf")
    assert f.format == "elan" and (f.start, f.end) == (0, 5000)
    assert f.media == ("./talk.wav",)
    utt = f.tier("utterances")
    assert utt.participant == "Speaker A" and utt.annotator == "Dana"
    # the empty annotation a3 is no unit; Hebrew text kept as written
    assert units(utt) == [(0, 1200, "hello there"), (2000, 3500, "שלום")]
    assert utt.units[0].line == 18
    # a symbolic association has its parent's time; one without a parent is not compared
    tr = f.tier("translation")
    assert units(tr) == [(2000, 3500, "peace")] and tr.untimed == 1
    # a symbolic subdivision divides its parent's time evenly, in PREVIOUS_ANNOTATION order
    assert units(f.tier("words")) == [(0, 600, "hello"), (600, 1200, "there")]
    # unaligned slots of a time subdivision: the aligned times on either side divided evenly
    assert units(f.tier("phases")) == [
        (3500, 4000, "prep"),
        (4000, 4500, "stroke"),
        (4500, 5000, "retract"),
    ]
    [p] = f.problems
    assert p.line == 40 and "translation" in str(p) and "not compared" in str(p)


def test_textgrid_long_short_utf16_and_points():
    long = read_textgrid(TIME / "two_coders.TextGrid")
    short = read_textgrid(TIME / "two_coders_short_utf16.TextGrid")
    assert (long.start, long.end) == (short.start, short.end) == (0, 10000)
    for name in ("gesture-Dana", "gesture-Eli"):
        assert units(long.tier(name)) == units(short.tier(name))
    assert units(long.tier("gesture-Eli")) == [
        (520, 1480, "point"),
        (2000, 3000, "iconic"),
        (6500, 7000, "iconic"),
        (8000, 10000, "beat"),
    ]
    bell = short.tier('bell "ding" ✓')
    assert bell.points and units(bell) == [(901, 901, "ding"), (4250, 4250, "dong")]
    assert long.tier("gesture-Dana").units[0].line == 20


def test_eaf_and_textgrid_of_the_same_annotations_agree():
    e, t = read_eaf(TIME / "two_coders.eaf"), read_textgrid(TIME / "two_coders.TextGrid")
    assert [(x.name, units(x)) for x in e.tiers] == [(x.name, units(x)) for x in t.tiers]
    assert e.end == t.end == 10000


def test_seconds_to_whole_milliseconds():
    assert [ms(x) for x in (0.0005, 1.0014999, 1.0015, 6.058412698412698, 2.3)] == [
        1,
        1001,
        1002,
        6058,
        2300,
    ]


def test_praat_comments_and_bracketed_numbers_are_ignored():
    text = 'item [3]: ! a comment "not a string" 5\n"x" <exists> 1.5e3 [ 2 ]'
    assert [(t.kind, t.value, t.line) for t in tokens(text)] == [
        ("string", "x", 2),
        ("flag", "exists", 2),
        ("number", "1.5e3", 2),
    ]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (
            'File type = "ooTextFile"\nObject class = "TextGrid"\n0\n1\n<exists>\n1\n"Tier"\n',
            7,
            "neither",
        ),
        (
            'File type = "ooTextFile"\nObject class = "TextGrid"\n0\n1\n<exists>\n1\n"IntervalTier"\n"a"\n0\n1\n2\n0\n',
            12,
            "ends where",
        ),
        ('File type = "ooTextFile"\nObject class = "TextGrid"\n0\n"x"\n', 4, "xmax was expected"),
        ('File type = "ooTextFile"\nObject class = "Pitch"\n', 2, 'not "TextGrid"'),
    ],
)
def test_broken_textgrids_name_their_line(tmp_path, text, line, words):
    p = tmp_path / "bad.TextGrid"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ReaderError) as e:
        read_textgrid(p)
    assert e.value.line == line and words in str(e.value)


def test_textgrid_interval_ending_before_it_starts(tmp_path):
    p = tmp_path / "x.TextGrid"
    p.write_text(
        'File type = "ooTextFile"\nObject class = "TextGrid"\n0\n3\n<exists>\n1\n"IntervalTier"\n'
        '"a"\n0\n3\n2\n0\n1\n"ok"\n2.5\n2\n"back"\n',
        encoding="utf-8",
    )
    f = read_textgrid(p)
    assert units(f.tier("a")) == [(0, 1000, "ok")]
    [pr] = f.problems
    assert pr.line == 15 and "ends before it starts" in str(pr)


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<ANNOTATION_DOCUMENT>&lol2;</ANNOTATION_DOCUMENT>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE x SYSTEM "http://example.org/x.dtd">
<ANNOTATION_DOCUMENT/>
"""


@pytest.mark.parametrize("text", [BOMB, EXTERNAL])
def test_eaf_with_a_dtd_or_entities_is_refused(tmp_path, text):
    p = tmp_path / "x.eaf"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ReaderError) as e:
        read_eaf(p)
    assert e.value.line == 2 and "DTD" in str(e.value)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("<ANNOTATION_DOCUMENT>\n<TIER>\n</ANNOTATION_DOCUMENT>", 3, "not well-formed"),
        ("<?xml version='1.0'?>\n<TEI/>", 2, "not an ELAN document"),
        (
            '<ANNOTATION_DOCUMENT>\n<HEADER TIME_UNITS="NTSC-frames"/></ANNOTATION_DOCUMENT>',
            2,
            "not milliseconds",
        ),
    ],
)
def test_broken_eaf_names_its_line(tmp_path, text, line, words):
    p = tmp_path / "x.eaf"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ReaderError) as e:
        read_eaf(p)
    assert e.value.line == line and words in str(e.value)


def test_eaf_slot_problems_are_reported_and_the_rest_read(tmp_path):
    p = tmp_path / "x.eaf"
    p.write_text(
        '<ANNOTATION_DOCUMENT><TIME_ORDER>\n<TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="0"/>\n'
        '<TIME_SLOT TIME_SLOT_ID="t2" TIME_VALUE="-5"/>\n<TIME_SLOT TIME_SLOT_ID="t3" TIME_VALUE="900"/>\n'
        '</TIME_ORDER><TIER TIER_ID="a">\n'
        '<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="x1" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t3">'
        "<ANNOTATION_VALUE>v</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>\n"
        '<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="x2" TIME_SLOT_REF1="t3" TIME_SLOT_REF2="t9">'
        "<ANNOTATION_VALUE>w</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>\n"
        "</TIER></ANNOTATION_DOCUMENT>",
        encoding="utf-8",
    )
    f = read_eaf(p)
    assert units(f.tier("a")) == [(0, 900, "v")]
    lines = sorted((e.line, str(e)) for e in f.problems)
    assert [ln for ln, _ in lines] == [3, 7]
    assert "not a time in ms" in lines[0][1] and "t9" in lines[1][1]

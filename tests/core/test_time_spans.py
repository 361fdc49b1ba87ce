"""Time-aligned inputs (ELAN, Praat) compared as spans: tiers mapped to annotators, figures in
milliseconds, the same figures from an .eaf and a .TextGrid, αU as for texts, tolerance F1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.errors import IaaError, OptionError
from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.kinds.spans.timed import parse_tier_map
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

TIME = FIXTURES / "time"


def run(inputs, **opts):
    opts.setdefault("n_resamples", 50)
    return run_to_end(get_kind("spans").run([Path(p) for p in inputs], opts))


def figures(result):
    out = result.to_json()
    return {k: out[k] for k in ("overall", "pairs", "per_label", "documents", "pair_disagreements")}


def test_time_aligned_files_are_recognised_as_spans():
    assert detect_kind([TIME / "two_coders.eaf"]) == "spans"
    assert detect_kind([TIME / "two_coders.TextGrid"]) == "spans"


def test_eaf_and_textgrid_of_the_same_annotations_give_the_same_figures(tmp_path):
    # the same annotations: one file each, named alike so that the recording has one name
    for suffix in (".eaf", ".TextGrid"):
        (tmp_path / suffix[1:]).mkdir()
        (tmp_path / suffix[1:] / f"talk{suffix}").write_bytes(
            (TIME / f"two_coders{suffix}").read_bytes()
        )
    e = run([tmp_path / "eaf" / "talk.eaf"], tolerance=30)
    t = run([tmp_path / "TextGrid" / "talk.TextGrid"], tolerance=30)
    assert figures(e) == figures(t)
    out = e.to_json()
    assert out["time_unit"] == "ms" and out["tolerance_ms"] == 30
    assert out["annotators"] == ["gesture-Dana", "gesture-Eli"]
    o = out["overall"]
    # point 500–1500 / 520–1480 (boundaries 20 ms apart), beat / iconic 2000–3000 (label),
    # iconic 6000–7000 / 6500–7000 (boundary), Eli's beat 8000–10000 alone
    assert o["exact_f1"]["value"] == 0.0
    assert o["tolerance_f1"]["value"] == pytest.approx(2 * 1 / 7)
    assert o["overlap_f1"]["value"] == pytest.approx(2 * 2 / 7)
    [pd] = out["pair_disagreements"]
    assert (pd["boundary only"], pd["label only"]) == (2, 1)
    assert set(o) >= {"unitizing_alpha", "gamma", "exact_f1", "overlap_f1", "tolerance_f1"}
    assert "tolerance_f1" in out["pairs"][0] and "tolerance_f1" in out["documents"][0]
    assert "tolerance_f1" in out["per_label"][0]


def test_short_utf16_textgrid_with_a_point_tier_mapped():
    r = run(
        [TIME / "two_coders_short_utf16.TextGrid"],
        tiers="gesture-Dana=Dana,gesture-Eli=Eli",
    )
    assert r.annotators == ("Dana", "Eli")  # the point tier is not mapped: ignored
    assert r.to_json()["time_unit"] == "ms"


def test_tolerance_zero_is_exact_and_a_wide_one_matches_every_boundary():
    exact = run([TIME / "two_coders.eaf"], tolerance=0).overall
    assert exact["tolerance_f1"]["value"] == exact["exact_f1"]["value"]
    wide = run([TIME / "two_coders.eaf"], tolerance=600).overall
    assert wide["tolerance_f1"]["value"] == pytest.approx(4 / 7)
    with pytest.raises(OptionError):
        run([TIME / "two_coders.eaf"], tolerance=-1)


def test_tier_map_parsing():
    assert parse_tier_map(" a = x, b=x,c=y ") == {"a": "x", "b": "x", "c": "y"}
    assert parse_tier_map("") == {}
    for bad in ("a", "=x", "a=", "a=x,a=y"):
        with pytest.raises(OptionError):
            parse_tier_map(bad)


def test_a_folder_per_annotator(tmp_path):
    for who, tier in (("dana", "gesture-Dana"), ("eli", "gesture-Eli")):
        (tmp_path / who).mkdir()
        text = (TIME / "two_coders.TextGrid").read_text(encoding="utf-8")
        # keep one tier per annotator's file: the other annotator's tier removed
        head, _, rest = text.partition("item [1]:")
        tiers = rest.split("item [2]:")
        body = tiers[0] if tier == "gesture-Dana" else tiers[1]
        (tmp_path / who / "talk.TextGrid").write_text(
            head.replace("size = 2", "size = 1") + "item [1]:" + body, encoding="utf-8"
        )
        (tmp_path / who / "other.TextGrid").write_text(
            head.replace("size = 2", "size = 1") + "item [1]:" + body, encoding="utf-8"
        )
    r = run([tmp_path / "dana", tmp_path / "eli"], tolerance=30)
    assert r.annotators == ("dana", "eli") and r.corpus.names == ("other", "talk")
    assert r.overall["tolerance_f1"]["value"] == pytest.approx(2 / 7)
    # one folder holding both: the same
    assert run([tmp_path], tolerance=30).overall == r.overall


def test_unmapped_files_and_no_second_annotator_are_said(tmp_path):
    with pytest.raises(IaaError) as e:
        run([TIME / "two_coders.eaf"], tiers="nothing=x")
    assert "none of its tiers" in str(e.value) and "two or more annotators" in str(e.value)


# Krippendorff (2004, Content analysis, 2nd ed., p. 251–256)'s unitizing example as DKPro
# Statistics' test builds it: (begin, length, rater, category) on a continuum 150–450
K2004 = [
    (225, 70, 0, "c"), (370, 30, 0, "c"), (220, 80, 1, "c"), (355, 20, 1, "c"), (400, 20, 1, "c"),
    (180, 60, 0, "k"), (300, 50, 0, "k"), (180, 60, 1, "k"), (300, 50, 1, "k"),
]  # fmt: skip


def _eaf(units) -> str:
    """Each rater's categories as two ELAN tiers (a rater's units of two categories overlap)."""
    slots, tiers = [], {}
    for k, (b, n, r, c) in enumerate(units):
        slots.append(f'<TIME_SLOT TIME_SLOT_ID="s{k}a" TIME_VALUE="{b}"/>')
        slots.append(f'<TIME_SLOT TIME_SLOT_ID="s{k}b" TIME_VALUE="{b + n}"/>')
        tiers.setdefault(f"r{r}-{c}", []).append(
            f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a{k}" TIME_SLOT_REF1="s{k}a" '
            f'TIME_SLOT_REF2="s{k}b"><ANNOTATION_VALUE>{c}</ANNOTATION_VALUE>'
            "</ALIGNABLE_ANNOTATION></ANNOTATION>"
        )
    body = "".join(
        f'<TIER TIER_ID="{t}" LINGUISTIC_TYPE_REF="lt">{"".join(a)}</TIER>'
        for t, a in tiers.items()
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT FORMAT="3.0" VERSION="3.0">'
        '<HEADER TIME_UNITS="milliseconds"/><TIME_ORDER>'
        + "".join(slots)
        + "</TIME_ORDER>"
        + body
        + '<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="lt" TIME_ALIGNABLE="true"/></ANNOTATION_DOCUMENT>'
    )


def _textgrid(units, xmin, xmax) -> str:
    lines = [
        'File type = "ooTextFile"',
        'Object class = "TextGrid"',
        str(xmin),
        str(xmax),
        "<exists>",
    ]
    tiers: dict[str, list[tuple[int, int, str]]] = {}
    for b, n, r, c in units:
        tiers.setdefault(f"r{r}-{c}", []).append((b, b + n, c))
    lines.append(str(len(tiers)))
    for name, items in tiers.items():
        lines += ['"IntervalTier"', f'"{name}"', str(xmin), str(xmax), str(len(items))]
        for a, b, c in sorted(items):
            lines += [str(a / 1000), str(b / 1000), f'"{c}"']
    return "\n".join(lines) + "\n"


def test_krippendorff_2004_unitizing_in_time_equals_text_and_published(tmp_path):
    mapping = "r0-c=r0,r0-k=r0,r1-c=r1,r1-k=r1"
    # in time: a TextGrid from 0.150 to 0.450 s (the published continuum), and an ELAN file
    # whose recording runs from 0 to its largest time (450 ms): the units shifted by 150 ms
    (tmp_path / "k.TextGrid").write_text(_textgrid(K2004, 0.15, 0.45), encoding="utf-8")
    shifted = [(b - 150, n, r, c) for b, n, r, c in K2004]
    end_slot = [(300, 0, 9, "end")]  # a point at 300 ms: the ELAN recording's end
    (tmp_path / "k.eaf").write_text(_eaf(shifted + end_slot), encoding="utf-8")
    tg = run([tmp_path / "k.TextGrid"], tiers=mapping, gamma=False)
    el = run([tmp_path / "k.eaf"], tiers=mapping, gamma=False)
    # the same units as characters of a 300-character text (a span table beside it)
    (tmp_path / "text").mkdir()
    (tmp_path / "text" / "k.txt").write_text("x" * 300, encoding="utf-8")
    rows = ["document,start,end,label,annotator"] + [
        f"k,{b},{b + n},{c},r{r}" for b, n, r, c in shifted
    ]
    (tmp_path / "text" / "k.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    tx = run([tmp_path / "text" / "k.csv"], gamma=False)
    alpha = tx.overall["unitizing_alpha"]["value"]
    assert alpha == pytest.approx(0.8591, abs=0.0005)  # DKPro's value of the example
    assert tg.overall["unitizing_alpha"]["value"] == pytest.approx(alpha, abs=1e-12)
    assert el.overall["unitizing_alpha"]["value"] == pytest.approx(alpha, abs=1e-12)
    assert tg.corpus.lengths.tolist() == el.corpus.lengths.tolist() == [300]


def test_cli_report_json_states_the_time_unit(tmp_path, capsys):
    code = cli_main(["report", str(TIME / "two_coders.eaf"), "--tolerance", "30", "--json", "-"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["time_unit"] == "ms" and out["tolerance_ms"] == 30


# -- gold -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "suffix"), [("two_coders.eaf", ".eaf"), ("two_coders.TextGrid", ".TextGrid")]
)
def test_gold_written_back_loads_as_an_annotator_with_f1_one(tmp_path, source, suffix):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for
    from iaa_desktop.core.kinds.spans.timed import read_timed

    r = run([TIME / source], gamma=False)
    model = units_for(r)
    assert model.fmt == suffix[1:].lower().replace("eaf", "elan")
    assert "s — " in model.titles[0]  # a recording's units are shown by their time
    gold = auto_merge(model, Strategy("annotator", annotator="gesture-Eli"))
    files = model.write_gold(gold, tmp_path)
    assert [f.name for f in files] == [f"two_coders{suffix}"]
    assert files[0].is_relative_to(tmp_path / "gold")
    back = run(files, gamma=False, tiers="gesture-Eli=Eli,gold=gold")
    assert back.errors == []
    assert back.overall["exact_f1"]["value"] == 1.0
    assert back.overall["unitizing_alpha"]["value"] == 1.0
    f = read_timed(files[0])
    # the copy keeps the annotators' tiers (and ELAN's linked media)
    assert [t.name for t in f.tiers] == ["gesture-Dana", "gesture-Eli", "gold"]
    assert (f.start, f.end) == (0, 10000)
    if suffix == ".eaf":
        assert f.media == ("./talk.wav",)
        assert files[0].read_text(encoding="utf-8").count("<MEDIA_DESCRIPTOR") == 1


def test_overlapping_gold_units_and_points_go_to_further_tiers(tmp_path):
    from iaa_desktop.core.formats.timed import TimedUnit
    from iaa_desktop.core.kinds.spans.timed_writers import layers

    units = [TimedUnit(0, 10, "a"), TimedUnit(5, 15, "b"), TimedUnit(10, 20, "c")]
    assert [[u.value for u in layer] for layer in layers(units)] == [["a", "c"], ["b"]]


def test_report_of_a_recording_states_the_time_methods(tmp_path):
    from iaa_desktop.core.kinds.spans.report import methods

    r = run([TIME / "two_coders.eaf"], tolerance=40, gamma=False)
    paragraphs, _refs = methods(r)
    assert "milliseconds" in paragraphs[0] and "40 ms" in paragraphs[0]
    text = run([FIXTURES / "spans" / "brat" / "A", FIXTURES / "spans" / "brat" / "B"], gamma=False)
    assert "milliseconds" not in methods(text)[0][0]
    code = cli_main(["report", str(TIME / "two_coders.eaf"), "--html", str(tmp_path / "r.html")])
    assert code == 0 and "whole milliseconds" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_import_survey_names_each_annotators_tier_and_elan_hints():
    from iaa_desktop.core.kinds.spans.survey import survey

    s = survey([TIME / "two_coders.eaf"], {})
    assert [a.name for a in s.annotators] == ["gesture-Dana", "gesture-Eli"]
    assert s.annotators[0].source == "tier gesture-Dana of two_coders.eaf"
    assert any("participant Speaker A, annotator Eli" in n for n in s.notes)
    mapped = survey([TIME / "two_coders.eaf"], {"tiers": "gesture-Dana=D,gesture-Eli=E"})
    assert [a.name for a in mapped.annotators] == ["D", "E"]

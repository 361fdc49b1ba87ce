"""The report of a time-aligned study: the timelines of the recordings with most disagreement."""

from __future__ import annotations

import base64
import re
from pathlib import Path

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.kinds.spans import timeline_report
from iaa_desktop.core.progress import run_to_end


def eaf(tiers: dict[str, list[tuple[int, int, str]]]) -> str:
    """An ELAN file whose tiers (one per annotator) hold ``(start ms, end ms, value)`` units."""
    slots, body, k = [], [], 0
    for name, units in tiers.items():
        anns = []
        for a, b, v in units:
            slots.append(f'<TIME_SLOT TIME_SLOT_ID="t{k}" TIME_VALUE="{a}"/>')
            slots.append(f'<TIME_SLOT TIME_SLOT_ID="t{k + 1}" TIME_VALUE="{b}"/>')
            anns.append(
                f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a{k}" TIME_SLOT_REF1="t{k}" '
                f'TIME_SLOT_REF2="t{k + 1}"><ANNOTATION_VALUE>{v}</ANNOTATION_VALUE>'
                "</ALIGNABLE_ANNOTATION></ANNOTATION>"
            )
            k += 2
        body.append(f'<TIER TIER_ID="{name}" LINGUISTIC_TYPE_REF="lt">{"".join(anns)}</TIER>')
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT FORMAT="3.0" VERSION="3.0">'
        '<HEADER TIME_UNITS="milliseconds"/><TIME_ORDER>'
        + "".join(slots)
        + "</TIME_ORDER>"
        + "".join(body)
        + '<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="lt" TIME_ALIGNABLE="true"/></ANNOTATION_DOCUMENT>'
    )


def study(folder: Path) -> list[Path]:
    """Five recordings coded by Ana and Ben: agreeing (calm), one, two and three disagreements,
    and a long one (ten minutes) whose disagreements all lie in its ninth minute."""
    agree = [(1000, 2000, "nod"), (3000, 4500, "shake")]
    recs = {
        "calm": ({"Ana": agree, "Ben": agree}),
        "one": ({"Ana": agree, "Ben": [(1000, 2000, "nod"), (3000, 4500, "tilt")]}),
        "two": ({"Ana": agree, "Ben": [(1100, 2000, "nod")]}),
        "three": (
            {
                "Ana": [(0, 1000, "nod"), (2000, 3000, "shake"), (4000, 4000, "blink")],
                "Ben": [(0, 1500, "nod"), (2000, 3000, "tilt"), (6000, 7000, "nod")],
            }
        ),
        "long": (
            {
                "Ana": [(10_000, 12_000, "nod"), (481_000, 482_000, "nod"), (490_000, 491_000, "shake"), (500_000, 501_000, "nod"), (599_000, 600_000, "nod")],
                "Ben": [(10_000, 12_000, "nod"), (481_000, 482_000, "tilt"), (490_500, 491_000, "shake"), (599_000, 600_000, "nod")],
            }
        ),
    }  # fmt: skip
    paths = []
    for name, tiers in recs.items():
        p = folder / f"{name}.eaf"
        p.write_text(eaf(tiers), encoding="utf-8")
        paths.append(p)
    return paths


def test_the_worst_recordings_and_the_stretch_drawn(tmp_path):
    r = run_to_end(get_kind("spans").run(study(tmp_path), {"n_resamples": 20, "gamma": False}))
    assert r.corpus.time_unit == "ms"
    names = [r.corpus.names[d] for d in timeline_report.worst_recordings(r)]
    assert names == ["three", "long", "two", "one"]  # calm has no disagreement
    d = r.corpus.names.index("long")
    fig, caption = timeline_report.timeline_figure(r, d)
    # ten minutes: the minute that holds its three disagreements, not the whole recording
    assert fig.axes[0].get_xlim() == (478.0, 538.0)
    assert "seconds 478–538 of 600" in caption
    # one lane per annotator; a block per unit in the stretch, disagreeing ones bordered thick
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Ana", "Ben"]
    bars = [p for p in ax.patches if p.get_width() > 0]
    assert len(bars) == 5
    assert sorted(round(p.get_linewidth(), 1) for p in bars) == [1.6] * 5
    short, cap = timeline_report.timeline_figure(r, r.corpus.names.index("three"))
    assert "all 7.0 s" in cap and short.axes[0].get_xlim() == (0.0, 7.0)
    texts = {t.get_text() for t in short.axes[0].texts}
    assert {"nod", "shake", "tilt"} <= texts


def test_the_report_holds_the_timelines_of_the_worst_recordings(tmp_path):
    (tmp_path / "in").mkdir()
    inputs = study(tmp_path / "in")
    out = tmp_path / "r.html"
    code = cli_main(["report", *map(str, inputs), "--no-gamma", "--html", str(out)])
    assert code == 0
    html = out.read_text(encoding="utf-8")
    # disagreements of a recording by their time, not by a (missing) text
    docs = html[html.index('id="documents"') : html.index('id="timelines"')]
    assert "tilt 2.000–3.000 s" in docs and "[]" not in docs
    sec = html[html.index('id="timelines"') :]
    figures = re.findall(
        r'<figure class="chart"><img[^>]*src="data:image/svg\+xml;base64,([^"]+)"', sec
    )
    assert len(figures) == timeline_report.N_RECORDINGS
    caps = re.findall(r"<figcaption>([^<]*)</figcaption>", sec)[: len(figures)]
    assert [c.split(":")[0] for c in caps] == ["three", "long", "two"]
    assert "Shown: the 3 of 5 recordings with most disagreement" in sec
    svg = base64.b64decode(figures[0]).decode("utf-8")
    assert "Ana" in svg and "time (s)" in svg


def test_a_text_study_has_no_timelines(tmp_path):
    from tests.conftest import FIXTURES

    out = tmp_path / "r.html"
    brat = FIXTURES / "spans" / "brat"
    assert cli_main(["report", str(brat / "A"), str(brat / "B"), "--html", str(out)]) == 0
    assert 'id="timelines"' not in out.read_text(encoding="utf-8")


def test_a_dense_recording_is_drawn_by_a_shorter_stretch(tmp_path):
    # ten minutes, a unit every second (200 ms) per annotator, Ben's labels all different
    units = [(k * 1000, k * 1000 + 200, "nod") for k in range(600)]
    other = [(a, b, "tilt") for a, b, _ in units]
    (tmp_path / "dense.eaf").write_text(eaf({"Ana": units, "Ben": other}), encoding="utf-8")
    r = run_to_end(
        get_kind("spans").run([tmp_path / "dense.eaf"], {"n_resamples": 20, "gamma": False})
    )
    fig, caption = timeline_report.timeline_figure(r, 0)
    lo, hi = fig.axes[0].get_xlim()
    assert hi - lo == 25.0  # 25 units per lane
    assert len([p for p in fig.axes[0].patches if p.get_width() > 0]) <= 2 * 27

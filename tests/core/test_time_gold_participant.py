"""Gold written into an ELAN file: the gold tier names the participant the compared tiers share."""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.kinds.spans.timed import read_timed
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

TIME = FIXTURES / "time"


def gold_tier(src: Path, tmp_path: Path):
    r = run_to_end(get_kind("spans").run([src], {"n_resamples": 20, "gamma": False}))
    model = units_for(r)
    gold = auto_merge(model, Strategy("annotator", annotator="gesture-Eli"))
    [path] = model.write_gold(gold, tmp_path / "out")
    return read_timed(path).tiers[-1]


def test_the_gold_tier_has_the_participant_of_the_compared_tiers(tmp_path):
    tier = gold_tier(TIME / "two_coders.eaf", tmp_path)  # both tiers: PARTICIPANT="Speaker A"
    assert tier.name == "gold" and tier.participant == "Speaker A"


def test_no_participant_when_the_compared_tiers_name_different_ones(tmp_path):
    xml = (TIME / "two_coders.eaf").read_text(encoding="utf-8")
    at = xml.index('PARTICIPANT="Speaker A"', xml.index('TIER_ID="gesture-Dana"') - 200)
    xml = xml[:at] + 'PARTICIPANT="Speaker &amp; B"' + xml[at + len('PARTICIPANT="Speaker A"') :]
    src = tmp_path / "two.eaf"
    src.write_text(xml, encoding="utf-8")
    assert [t.participant for t in read_timed(src).tiers] == ["Speaker & B", "Speaker A"]
    tier = gold_tier(src, tmp_path)
    assert tier.name == "gold" and tier.participant == ""

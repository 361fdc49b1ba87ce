"""ELAN files parsed in chunks with their tree set apart from the garbage collector: the same
tiers whatever the chunk size (a character or a line split between chunks), nothing left frozen."""

from __future__ import annotations

import gc

import pytest

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats import xml_safe
from iaa_desktop.core.formats.elan import read_eaf
from tests.conftest import FIXTURES

TIME = FIXTURES / "time"


@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_chunks_of_any_size_read_the_same_tiers(monkeypatch, tmp_path, chunk):
    # a value of several bytes in UTF-8 (Hebrew, a combining mark, an emoji) split across chunks
    raw = (TIME / "two_coders.eaf").read_text(encoding="utf-8")
    path = tmp_path / "talk.eaf"
    path.write_text(raw.replace(">beat<", ">שָׁלוֹם 👋<"), encoding="utf-8")
    whole = read_eaf(path)
    monkeypatch.setattr(xml_safe, "CHUNK", chunk)
    calls = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(1))
    small = read_eaf(path)
    assert small.tiers == whole.tiers and (small.start, small.end) == (whole.start, whole.end)
    assert "שָׁלוֹם 👋" in {u.value for t in small.tiers for u in t.units}
    assert len(calls) == -(-path.stat().st_size // chunk)  # after every chunk


def test_nothing_stays_frozen_after_a_file_or_a_refused_one(tmp_path):
    before = gc.get_freeze_count()
    read_eaf(TIME / "two_coders.eaf")
    assert gc.get_freeze_count() == before == 0
    bad = tmp_path / "bad.eaf"
    bad.write_text('<?xml version="1.0"?>\n<ANNOTATION_DOCUMENT>\n<TIER>\n', encoding="utf-8")
    with pytest.raises(ReaderError) as e:
        read_eaf(bad)
    assert e.value.line == 4 and gc.get_freeze_count() == 0

"""ELAN files parsed in chunks with the garbage collector paused while their tree is built, read
and freed: the same tiers whatever the chunk size (a character or a line split between chunks),
the collector as it was afterwards (also after a refused file, and with readers nested)."""

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
    small = read_eaf(path)
    assert small.tiers == whole.tiers and (small.start, small.end) == (whole.start, whole.end)
    assert "שָׁלוֹם 👋" in {u.value for t in small.tiers for u in t.units}


def test_the_collector_is_paused_inside_and_as_before_after(tmp_path):
    assert gc.isenabled()
    with xml_safe.set_apart():
        assert not gc.isenabled()
        with xml_safe.set_apart():  # another reader at the same time
            assert not gc.isenabled()
        assert not gc.isenabled()  # until the last one leaves
    assert gc.isenabled()
    gc.disable()
    try:  # paused before: stays paused
        with xml_safe.set_apart():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    read_eaf(TIME / "two_coders.eaf")
    assert gc.isenabled()
    bad = tmp_path / "bad.eaf"
    bad.write_text('<?xml version="1.0"?>\n<ANNOTATION_DOCUMENT>\n<TIER>\n', encoding="utf-8")
    with pytest.raises(ReaderError) as e:
        read_eaf(bad)
    assert e.value.line == 4 and gc.isenabled()


def test_a_released_tree_is_empty():
    root = xml_safe.parse(b"<a><b><c/><c/></b><b/></a>", "x.xml")
    assert [len(b.children) for b in root.children] == [2, 0]
    xml_safe.release(root, batch=1)
    assert not root.children

"""The PDF engine's library lookup: the linker cache answers what ``find_library`` would."""

from __future__ import annotations

import ctypes.util
import sys

import pytest

from iaa_desktop.core.export import pdf


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the linker cache is Linux's")
def test_linker_cache_lookup_agrees_with_find_library(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "weasyprint.text.ffi", raising=False)
    original = ctypes.util.find_library
    names = ["c", "m", "pango-1.0", "harfbuzz", "libpango-1.0-0", "no-such-library-here"]
    expected = [original(n) for n in names]
    with pdf.linker_cache_lookup():
        got = [ctypes.util.find_library(n) for n in names]
        assert ctypes.util.find_library is not original
    assert got == expected
    assert got[0] is not None  # the C library is in every cache
    assert ctypes.util.find_library is original


def test_lookup_left_alone_once_the_engine_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint.text.ffi", object())
    original = ctypes.util.find_library
    with pdf.linker_cache_lookup():
        assert ctypes.util.find_library is original


def test_geometric_shapes_in_a_chart_stay_text_emoji_do_not() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from iaa_desktop.core.export import html_blocks as B

    assert all(B._plain_char(c) for c in "○●■□▲▼◆│─")
    assert not any(B._plain_char(c) for c in "⚡🙂\u0304")
    fig = Figure(figsize=(3, 2), layout="constrained")
    ax = fig.add_subplot(111)
    ax.plot([0, 1], [0, 1], "o")
    ax.set_xlabel("multi-κ  (○ posterior median, | point estimate)")
    assert B._plain_text_only(fig)


def test_fewer_collections_restores_the_interpreters_setting() -> None:
    import gc

    from iaa_desktop.core.export.gc_pause import YOUNG_THRESHOLD, fewer_collections

    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold()[0] >= YOUNG_THRESHOLD
        assert gc.get_freeze_count() > 0
        with fewer_collections():  # nested: the outer one restores
            pass
        assert gc.get_threshold()[0] >= YOUNG_THRESHOLD
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    try:
        with fewer_collections():
            raise ValueError
    except ValueError:
        pass
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0

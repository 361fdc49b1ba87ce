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


def test_a_passage_is_one_highlighted_span_with_its_shared_words_boxed() -> None:
    import html
    import re

    from iaa_desktop.core.export.worst_pairs import _use_html

    text = "He said: I can do all things <now> & then."
    s0 = text.index("I can")
    s1 = text.index(" <now>")
    shared = {text.index(w): text.index(w) + len(w) for w in ("He", "can", "all", "then")}
    shared[text.index("things")] = text.index("things") + 9  # crosses the span's end: not boxed
    out = _use_html("u1", text, (s0, s1), shared)
    assert out.count('class="target"') == 1
    assert re.findall(r'<span class="shared">(.*?)</span>', out) == ["He", "can", "all", "then"]
    assert (
        '<span class="target">I <span class="shared">can</span> do '
        '<span class="shared">all</span> things</span> &lt;now&gt; &amp; <span class="shared">'
    ) in out
    body = re.search(r"<bdi>(.*)</bdi>", out).group(1)
    assert html.unescape(re.sub(r"<[^>]+>", "", body)) == text
    # no span, or one outside the text: nothing highlighted, every whole token boxed
    for span in (None, (5, 500)):
        plain = _use_html("u1", text, span, shared)
        assert 'class="target"' not in plain and plain.count('class="shared"') == 5


def test_a_command_leaves_its_objects_to_the_system_at_exit_with_its_output_whole(
    tmp_path,
) -> None:
    import json
    import os
    import subprocess
    from pathlib import Path

    import iaa_desktop

    example = Path(iaa_desktop.__file__).parent / "resources" / "examples" / "judgments"
    env = {**os.environ, "PYTHONPATH": str(Path(iaa_desktop.__file__).parents[1])}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "iaa_desktop",
            "report",
            str(example / "ratings.csv"),
            "--json",
            "-",
            "--csv",
            str(tmp_path),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["kind"] == "table"
    assert sorted(p.name for p in tmp_path.glob("*.csv"))

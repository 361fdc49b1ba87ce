"""The side-by-side coreference view draws each mention over its own words in CoNLL formats,
whose mentions count tokens, not characters."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from iaa_desktop.cli import compute
from iaa_desktop.gui.kinds.coref.render import render_document

FORMATS = Path(__file__).resolve().parents[1] / "fixtures" / "formats" / "coref"
ANCHOR = re.compile(r"<a name='m(\d+)_(\d+)'></a><span[^>]*>(.*?)</span>", re.S)


@pytest.mark.parametrize(
    "folder, names",
    [("conll2012", ("alice.conll", "bob.conll"))],
)
def test_conll_mentions_are_drawn_over_their_words(folder, names):
    result = compute("coref", [FORMATS / folder / n for n in names], {})
    doc = result.documents[0].docs[result.annotators[0]]
    html = render_document(doc, {}, {}, {}, set(), "A")
    words = doc.text.split(" ")
    drawn = {}
    for s, e, inner in ANCHOR.findall(html):
        drawn[(int(s), int(e))] = re.sub(r"<[^>]+>", "", inner)
    assert drawn, html[:500]
    for (s, e), shown in drawn.items():
        assert shown.strip().startswith(" ".join(words[s:e]).strip()), (s, e, shown)
    # "Ms. Haag" is tokens 7–9 of the document: drawn as those words, not characters 7–9
    assert any(v.startswith("Ms. Haag") for v in drawn.values())

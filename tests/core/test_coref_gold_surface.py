"""The surface column of a coreference gold mention table is the mention's text as the source
spells it: CoNLL-U words joined with ``SpaceAfter=No`` honoured and multi-word tokens shown by
their form (CorefUD, Universal Anaphora), WebAnno TSV 3 character spans of the document text."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from iaa_desktop.cli import main
from iaa_desktop.core.kinds.coref.adjudication import load_documents
from iaa_desktop.core.kinds.coref.source_text import conllu_layout
from tests.conftest import FIXTURES

SURFACE = FIXTURES / "coref" / "surface"


def _gold(tmp_path: Path, folder: str, annotator: str) -> pd.DataFrame:
    inputs = sorted((SURFACE / folder).iterdir())
    out = tmp_path / "out"
    rc = main(
        [
            "gold",
            "--kind",
            "coref",
            "--strategy",
            f"annotator:{annotator}",
            *map(str, inputs),
            "--out",
            str(out),
            "-q",
        ]
    )
    assert rc == 0
    (table,) = sorted((out / "gold").glob("*.tsv"))
    return pd.read_csv(table, sep="\t", dtype=str, keep_default_na=False, quoting=3)


@pytest.mark.parametrize(
    ("folder", "annotator", "rows"),
    [
        (
            "corefud",
            "bob",
            [
                ("0", "1", "Haag"),
                ("0", "3", "Haag's dog"),
                ("4", "5", "him"),
                ("6", "7", "Él"),
                ("9", "11", "del mercado"),
                ("12", "13", "דנה"),
                ("15", "17", "לבית"),
            ],
        ),
        (
            "ua",
            "alice",
            [
                ("0", "1", "Haag"),
                ("0", "3", "Haag's dog"),
                ("4", "5", "him"),
                ("6", "7", "דנה"),
                ("9", "11", "לבית"),
            ],
        ),
        (
            "webanno",
            "alice",
            [("0", "6", "Haag's"), ("15", "18", "him"), ("20", "23", "דנה"), ("29", "32", "היא")],
        ),
    ],
)
def test_gold_mention_table_surfaces_are_the_source_text(tmp_path, folder, annotator, rows):
    gold = _gold(tmp_path, folder, annotator)
    assert list(zip(gold["begin"], gold["end"], gold["surface"])) == rows


def test_conllu_text_follows_space_after_and_multiword_tokens():
    text, spans = conllu_layout(SURFACE / "corefud" / "alice.conllu", strict_columns=True)["market"]
    assert text.splitlines() == ["Haag's dog bit him.", "Él volvió del mercado.", "דנה אמרה לבית."]
    # 6 words a sentence (a multi-word token range is no word; its words share its span)
    assert len(spans) == 18
    assert [text[s:e] for s, e in spans[8:11]] == ["del", "del", "mercado"]


def test_adjudication_labels_name_the_words_and_the_sentence_line():
    _names, docs, fmt, errors = load_documents(sorted((SURFACE / "corefud").iterdir()))
    assert fmt == "table" and not errors
    (doc,) = docs
    ms = {doc.surface(m): m for a in doc.present for m in a.mentions}
    assert "Haag's dog" in ms and "לבית" in ms
    assert doc.line(ms["לבית"]) == 3 and doc.line(ms["Haag's dog"]) == 1

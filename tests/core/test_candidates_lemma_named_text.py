"""A lemma column that is a text column (the passage's words used as its lemmas) is read as
such, not an internal error."""

from __future__ import annotations

from pathlib import Path

import pytest

from iaa_desktop.cli import compute


def _study(tmp_path: Path) -> list[Path]:
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(
        "pair_id\ttarget_text\tsource_text\n"
        "P1\tin principio erat verbum\tin principio creavit deus\n"
        "P2\tet verbum erat apud deum\tet deus erat verbum\n"
        "P3\tfiat lux\tet facta est lux\n",
        encoding="utf-8",
    )
    labels = tmp_path / "labels.tsv"
    labels.write_text(
        "pair_id\tannotator\tlabel\nP1\tA\t1\nP1\tB\t1\nP2\tA\t0\nP2\tB\t1\nP3\tA\t0\nP3\tB\t0\n",
        encoding="utf-8",
    )
    return [pairs, labels]


@pytest.mark.parametrize(
    "options",
    [
        {"target_lemma": "target_text"},
        {"target_lemma": "target_text", "source_lemma": "source_text"},
        {"source_lemma": "target_text"},
    ],
)
def test_a_text_column_named_as_lemmas_reads_its_words_as_lemmas(tmp_path, options) -> None:
    inputs = _study(tmp_path)
    plain = compute("candidates", inputs, {})
    named = compute("candidates", inputs, options)
    assert list(named.pairs["target_text"]) == list(plain.pairs["target_text"])
    assert list(named.pairs["source_text"]) == list(plain.pairs["source_text"])
    for side in ("target", "source"):
        if f"{side}_lemma" in options:
            text = options[f"{side}_lemma"]
            assert list(named.pairs[f"{side}_lemma"]) == list(plain.pairs[text])
    # the words as lemmas: the same overlap as reading the words themselves
    if set(options) == {"target_lemma", "source_lemma"}:
        assert list(named.pairs["overlap"]) == pytest.approx(list(plain.pairs["overlap"]))

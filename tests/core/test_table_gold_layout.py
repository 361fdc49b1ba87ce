"""The table kind's gold table is written from what the comparison read, in the inputs' shape,
without reading the inputs again."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.cli import compute
from iaa_desktop.core.adjudication import units_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RATINGS = (
    Path(__file__).resolve().parents[2]
    / "iaa_desktop"
    / "resources"
    / "examples"
    / "judgments"
    / "ratings.csv"
)


def _ratings(folder: Path, how: str) -> list[Path]:
    """The example ratings written as ``how`` (a file or files in ``folder``)."""
    df = pd.read_csv(RATINGS, dtype=str, keep_default_na=False)
    if how == "semicolon":
        p = folder / "ratings.csv"
        df.to_csv(p, sep=";", index=False)
        return [p]
    if how == "xlsx":
        p = folder / "ratings.xlsx"
        df.to_excel(p, index=False)
        return [p]
    if how == "wide":
        p = folder / "wide.tsv"
        df.pivot(index="item", columns="annotator", values="rating").reset_index().to_csv(
            p, sep="\t", index=False
        )
        return [p]
    out = []
    for a, g in df.groupby("annotator"):
        p = folder / f"{a}.csv"
        g[["item", "rating"]].to_csv(p, index=False)
        out.append(p)
    return out


CASES = {
    "long": lambda d: [shutil.copy(RATINGS, d / "ratings.csv")],
    "semicolon": lambda d: _ratings(d, "semicolon"),
    "xlsx": lambda d: _ratings(d, "xlsx"),
    "wide": lambda d: _ratings(d, "wide"),
    "per-annotator": lambda d: _ratings(d, "per-annotator"),
    "wide-no-item": lambda d: [shutil.copy(FIXTURES / "formats/tables/sentiment_no_item.csv", d)],
    "triples": lambda d: [shutil.copy(FIXTURES / "formats/tables/sentiment_triples.txt", d)],
    "counts": lambda d: [shutil.copy(FIXTURES / "formats/tables/sentiment_counts.csv", d)],
    "label-studio": lambda d: [shutil.copy(FIXTURES / "formats/label_studio/sentiment.json", d)],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_gold_is_written_without_the_inputs(tmp_path: Path, case: str) -> None:
    src = tmp_path / "in"
    src.mkdir()
    inputs = [Path(p) for p in CASES[case](src)]
    model = units_for(compute("table", inputs, {}))
    gold = _decided(model)
    first = model.write_gold(gold, _made(tmp_path / "with"))
    shutil.rmtree(src)  # the writer has all it needs from the comparison
    again = model.write_gold(gold, _made(tmp_path / "without"))
    assert [p.name for p in again] == [p.name for p in first]
    for a, b in zip(first, again):
        assert a.read_bytes() == b.read_bytes()
    assert first[0].read_bytes().strip()


def test_gold_keeps_the_delimiter_header_and_suffix(tmp_path: Path) -> None:
    [src] = _ratings(tmp_path, "semicolon")
    model = units_for(compute("table", [src], {}))
    [written] = model.write_gold(_decided(model), _made(tmp_path / "g"))
    assert written.name == "gold.csv"
    lines = written.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "item;annotator;rating;topic;text"
    assert all(line.split(";")[1] == "gold" for line in lines[1:])
    assert lines[1].split(";")[2] == ""  # undecided: empty
    [xlsx] = _ratings(tmp_path, "xlsx")
    model = units_for(compute("table", [xlsx], {}))
    [written] = model.write_gold(_decided(model), _made(tmp_path / "x"))
    assert written.name == "gold.tsv"
    assert written.read_text(encoding="utf-8").splitlines()[0].split("\t")[:3] == [
        "item",
        "annotator",
        "rating",
    ]


def _decided(model: Any) -> np.ndarray:
    """Each unit's first annotator's value, the first unit left undecided."""
    gold = np.array(
        [next((v for v in row if v is not None), None) for row in model.versions], dtype=object
    )
    gold[0] = None
    return gold


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True)
    return folder

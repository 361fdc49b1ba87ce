"""Headless ``gold`` command: automatic merge in the inputs' format plus the units to decide."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from iaa_desktop.cli import main
from iaa_desktop.core.kinds.normalization.reader import read_normalization
from tests.conftest import shared_path


def _read_tokens(p: Path) -> pd.DataFrame:
    return pd.read_csv(p, sep="\t", dtype=str, keep_default_na=False, quoting=3)


def test_gold_majority_on_the_five_normalization_annotators(tmp_path: Path, capsys) -> None:
    d = shared_path("normalization")
    files = sorted(d.glob("annotator_*.tsv"))
    assert len(files) == 5
    out = tmp_path / "gold"
    rc = main(["gold", "--strategy", "majority", *map(str, files), "--out", str(out), "-q"])
    assert rc == 0
    gold = _read_tokens(out / "gold.tsv")
    first = _read_tokens(files[0])
    assert list(gold.columns) == list(first.columns)
    assert len(gold) == len(first)  # every token present
    # independent count: the majority is taken on the normalization itself (3 of 5 at least)
    frames = [_read_tokens(f) for f in files]
    norms = pd.DataFrame({k: f["norm"] for k, f in enumerate(frames)})
    mods = pd.DataFrame({k: f["mod"] for k, f in enumerate(frames)})
    top = norms.apply(lambda r: r.value_counts().iloc[0], axis=1)
    n_without_majority = int((top < 3).sum())
    undecided = pd.read_csv(out / "undecided.csv", dtype=str, keep_default_na=False)
    assert len(undecided) == n_without_majority
    assert int((gold["norm"] == "").sum()) == n_without_majority
    decided = gold["norm"] != ""
    majority_norm = norms.apply(lambda r: r.value_counts().index[0], axis=1)
    assert (gold.loc[decided, "norm"] == majority_norm[decided]).all()
    # the modernization has its own majority (none when no form has 3 of 5)
    mod_top = mods.apply(lambda r: r.value_counts().iloc[0], axis=1)
    mod_major = mods.apply(lambda r: r.value_counts().index[0], axis=1).where(mod_top >= 3, "")
    assert (gold.loc[decided, "mod"] == mod_major[decided]).all()
    assert ((gold["mod"] == "") == (gold["mod_type"] == "")).all()
    summary = json.loads((out / "gold_summary.json").read_text())
    assert summary["n_undecided"] == n_without_majority and summary["n_units"] == len(first)
    # loads back: the undecided tokens are missing values (warnings, not errors)
    data = read_normalization([out / "gold.tsv", files[0]])
    assert data.n_tokens == len(first) - n_without_majority
    assert list(data.norm[:, 0]) == list(gold.loc[decided, "norm"])
    assert data.errors == []
    assert n_without_majority == 0 or any("missing value" in w.message for w in data.warnings)
    rc = main(
        [
            "report",
            "--kind",
            "normalization",
            str(out / "gold.tsv"),
            str(files[0]),
            "--json",
            str(tmp_path / "r.json"),
        ]
    )
    assert rc == 0


def test_gold_annotator_strategy_and_table_layout(tmp_path: Path) -> None:
    src = tmp_path / "j.csv"
    pd.DataFrame(
        {
            "item": ["a", "a", "b", "b", "c"],
            "coder": ["X", "Y", "X", "Y", "Y"],
            "label": ["1", "1", "1", "2", "2"],
        }
    ).to_csv(src, index=False)
    out = tmp_path / "g1"
    assert main(["gold", "--kind", "table", str(src), "--out", str(out), "-q"]) == 0
    g = pd.read_csv(out / "gold.csv", dtype=str, keep_default_na=False)
    assert list(g.columns) == ["item", "coder", "label"]
    assert dict(zip(g["item"], g["label"])) == {"a": "1", "b": "", "c": "2"}
    assert list(pd.read_csv(out / "undecided.csv")["unit"]) == ["b"]
    out2 = tmp_path / "g2"
    assert main(["gold", "--strategy", "annotator:X", str(src), "--out", str(out2), "-q"]) == 0
    g2 = pd.read_csv(out2 / "gold.csv", dtype=str, keep_default_na=False)
    assert dict(zip(g2["item"], g2["label"])) == {"a": "1", "b": "1", "c": ""}


@pytest.mark.parametrize(
    "argv, msg",
    [
        (["--strategy", "best"], "Unknown strategy"),
        (["--strategy", "annotator:Nobody"], "No annotator named"),
        (["--strategy", "majority", "--min-share", "2"], "between 0 and 1"),
    ],
)
def test_gold_bad_options_fail_cleanly(tmp_path: Path, capsys, argv, msg) -> None:
    src = tmp_path / "j.csv"
    pd.DataFrame({"item": ["a", "a"], "annotator": ["X", "Y"], "label": ["1", "2"]}).to_csv(
        src, index=False
    )
    assert main(["gold", *argv, str(src), "--out", str(tmp_path / "o")]) == 2
    assert msg in capsys.readouterr().err


def test_gold_durel_majority_loads_back(tmp_path: Path) -> None:
    t = shared_path("trotr", "(Genesis 1 1)")
    out = tmp_path / "g"
    assert main(["gold", "--strategy", "majority", str(t), "--out", str(out), "-q"]) == 0
    j = pd.read_csv(
        out / "(Genesis 1 1)" / "judgments.tsv",
        sep="\t",
        dtype=str,
        keep_default_na=False,
        quoting=3,
    )
    gold = j[j["annotator"] == "gold"]
    orig = pd.read_csv(t / "judgments.tsv", sep="\t", dtype=str, keep_default_na=False, quoting=3)
    assert len(gold) == len(orig.drop_duplicates(["identifier1", "identifier2"]))
    und = pd.read_csv(out / "undecided.csv")
    assert int((gold["comment"] == "undecided").sum()) == len(und)
    assert main(["report", str(out / "(Genesis 1 1)"), "-q"]) == 0

"""A kind's options as one frozen, typed value: the flags and the panel come from its fields."""

from __future__ import annotations

import dataclasses
import json
from typing import Literal

import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.options import LEVELS, N_RESAMPLES, IntervalProvenance, Options, option
from iaa_desktop.core.kinds.spans.options import SpansOptions
from tests.conftest import FIXTURES


@dataclasses.dataclass(frozen=True)
class Made(Options):
    level: Literal["nominal", "ordinal"] = option("nominal", "Level", "the level")
    n_resamples: int = option(N_RESAMPLES, "Resamples")
    share: float = option(0.5, "Share", gui=False)
    gamma: bool = option(False, "γ")


def test_settings_come_from_the_fields() -> None:
    s = {x.name: x for x in Made.settings()}
    assert list(s) == ["level", "n_resamples", "share", "gamma"]  # not annotator_names
    assert s["level"].choices == ("nominal", "ordinal") and s["level"].type is str
    assert s["level"].help == "the level" and s["level"].default == "nominal"
    assert s["n_resamples"].type is int and s["n_resamples"].default == 1000
    assert s["share"].gui is False and s["gamma"].type is bool


def test_resolve_gives_defaults_and_refuses_what_is_not_offered() -> None:
    o = Made.resolve({"n_resamples": 250, "gamma": True, "other": 1, "share": None})
    assert (o.level, o.n_resamples, o.gamma, o.share) == ("nominal", 250, True, 0.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.level = "ordinal"  # type: ignore[misc]
    with pytest.raises(OptionError, match="Level: 'ratio' is not one of nominal, ordinal"):
        Made.resolve({"level": "ratio"})
    with pytest.raises(OptionError, match="Resamples.*'many' is not a number"):
        Made.resolve({"n_resamples": "many"})
    with pytest.raises(OptionError, match="cannot be empty"):
        Made.resolve({"annotator_names": {"A": " "}})
    assert Made.resolve({"annotator_names": {"A": "Ann"}}).annotator_names == {"A": "Ann"}


def test_the_level_of_measurement_is_one_type() -> None:
    assert LEVELS == ("nominal", "ordinal", "interval", "ratio")


def test_a_spans_result_carries_its_options_and_the_provenance_of_its_intervals(capsys) -> None:
    from iaa_desktop.cli import main
    from iaa_desktop.core.kinds import KINDS
    from iaa_desktop.core.progress import run_to_end

    inputs = sorted((FIXTURES / "spans" / "brat").iterdir())
    if not inputs:
        pytest.skip("no brat fixtures")
    result = run_to_end(KINDS["spans"].run(inputs, {"n_resamples": 200, "seed": 7}))
    assert result.chosen == SpansOptions(n_resamples=200, seed=7)
    assert result.interval == IntervalProvenance("bootstrap", 200, 7)
    paragraphs, _refs = KINDS["spans"].methods_text(result)
    assert any("200" in p for p in paragraphs)
    assert main(["report", "--kind", "spans", *map(str, inputs), "--json", "-", "-q"]) in (0, 1)
    assert json.loads(capsys.readouterr().out)["kind"] == "spans"


def test_a_table_result_carries_its_options_and_the_provenance_of_its_intervals() -> None:
    from iaa_desktop.core.kinds import KINDS
    from iaa_desktop.core.kinds.table.options import TableOptions
    from iaa_desktop.core.progress import run_to_end

    ratings = FIXTURES.parent.parent / "iaa_desktop" / "resources" / "examples" / "judgments"
    given = {"level": "ordinal", "n_resamples": 300, "seed": 11, "group_by": "topic"}
    result = run_to_end(KINDS["table"].run([ratings / "ratings.csv"], given))
    assert result.chosen == TableOptions(
        level="ordinal", n_resamples=300, seed=11, group_by="topic"
    )
    assert result.interval == IntervalProvenance("bootstrap", 300, 11)
    paragraphs, _refs = KINDS["table"].methods_text(result)
    text = " ".join(paragraphs)
    assert "over 300 resamples of the items (seed 11)" in text and "‘topic’" in text
    assert result.options["n_resamples"] == 300  # the study's record, as given

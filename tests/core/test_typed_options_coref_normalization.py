"""The coreference and normalization kinds' options as frozen, typed values: the flags and the
panel come from their fields, the results carry them, reports read them from the result."""

from __future__ import annotations

import dataclasses
import json
from typing import get_args

import pytest

from iaa_desktop.core.align.class_matching import COSTS
from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds import KINDS
from iaa_desktop.core.kinds.coref.options import CorefOptions, Cost
from iaa_desktop.core.kinds.normalization.options import NormalizationOptions
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

EXAMPLES = FIXTURES.parent.parent / "iaa_desktop" / "resources" / "examples"


def test_the_coref_settings_come_from_the_fields() -> None:
    s = {x.name: x for x in KINDS["coref"].settings}
    assert [n for n in s if n != "encoding"] == [x.name for x in CorefOptions.settings()]
    assert s["mention_matching"].choices == ("exact", "partial", "head")
    assert s["cost"].choices == get_args(Cost) == COSTS and s["cost"].default == "symdiff"
    assert s["study_threshold"].type is float and s["study_threshold"].default == 1 / 3
    assert s["iaa_dir"].gui is False and s["curation"].type is bool
    assert s["begin_column"].flag == "--begin-column"


def test_the_normalization_settings_come_from_the_fields() -> None:
    s = {x.name: x for x in KINDS["normalization"].settings}
    assert [n for n in s if n != "encoding"] == [
        "lowercase",
        "drop_punctuation",
        "raw_compare",
        "occurrence_match",
        "tokens",
        "model_annotators",
        "epsilon",
        "competence",
        "planning",
    ]
    assert s["lowercase"].default is True and s["raw_compare"].default is False
    assert s["tokens"].gui is False


def test_coref_options_resolve_once_and_refuse_what_is_not_offered() -> None:
    o = CorefOptions.resolve({"cost": "jaccard", "study_threshold": 1, "other": 3})
    assert (o.cost, o.study_threshold) == ("jaccard", 1.0)
    assert isinstance(o.study_threshold, float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.cost = "opt"  # type: ignore[misc]
    with pytest.raises(OptionError, match="Matching cost: 'best' is not one of symdiff, jaccard"):
        CorefOptions.resolve({"cost": "best"})
    assert CorefOptions(relation_types=" Coref , Bridge ,").relations == ("Coref", "Bridge")
    assert CorefOptions(relation_types="").relations == ("Coreference",)
    assert CorefOptions(begin_column="", entity_column="").mention_columns == (
        "",
        "begin",
        "end",
        "entityNum",
    )


def test_a_coref_result_carries_its_options() -> None:
    inputs = sorted(p for p in (EXAMPLES / "coref").iterdir() if p.is_dir())
    result = run_to_end(KINDS["coref"].run(inputs, {"cost": "jaccard", "study_threshold": 0.5}))
    assert result.chosen == CorefOptions(cost="jaccard", study_threshold=0.5)
    assert result.study_threshold == 0.5
    paragraphs, _refs = KINDS["coref"].methods_text(result)
    assert "Jaccard distance" in paragraphs[0]
    summary = KINDS["coref"].summary
    assert summary is not None
    _rows, caption = summary(result)
    assert "δ ≥ 0.5 are flagged" in caption
    assert result.options["cost"] == "jaccard"  # the study's record, as given


def test_a_normalization_result_carries_its_options() -> None:
    folder = EXAMPLES / "normalization"
    inputs = sorted(p for p in folder.iterdir() if p.suffix in (".tsv", ".csv", ".txt"))
    given = {"lowercase": False, "raw_compare": True, "tokens": True}
    result = run_to_end(KINDS["normalization"].run(inputs, given))
    assert result.chosen == NormalizationOptions(lowercase=False, raw_compare=True, tokens=True)
    assert "tokens" in json.loads(json.dumps(result.to_json()))
    assert "tokens" in result.tables()
    paragraphs, _refs = KINDS["normalization"].methods_text(result)
    assert "compared with their case" in paragraphs[0] and "as written" in paragraphs[0]
    plain = run_to_end(KINDS["normalization"].run(inputs, {}))
    assert plain.chosen == NormalizationOptions() and "tokens" not in plain.to_json()

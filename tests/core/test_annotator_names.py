"""The user's names for annotators (study option ``annotator_names``), honoured by every kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.kinds.spec import rename_annotators, result_json
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.core.study_file import load_study

EXAMPLES = sorted(
    (Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples").glob(
        "*/*.iaa-study"
    )
)


def _annotators(result):
    names = getattr(result, "annotators", None)
    return tuple(names if names is not None else result.data.annotators)


def _run(study, options):
    return run_to_end(get_kind(study.kind).run(list(study.inputs), options))


@pytest.mark.parametrize("study_path", EXAMPLES, ids=lambda p: p.parent.name)
def test_every_kind_shows_the_users_names_and_the_same_figures(study_path):
    study = load_study(study_path)
    options = {**study.options, "interval": "none"} if study.kind == "table" else study.options
    before = _run(study, options)
    first = _annotators(before)[0]
    after = _run(study, {**options, "annotator_names": {first: "Renamed Person"}})
    assert _annotators(after)[0] == "Renamed Person"
    assert first not in _annotators(after)
    assert [v for _k, v in after.headline()] == [v for _k, v in before.headline()]
    text = json.dumps(result_json(after), ensure_ascii=False)
    assert "Renamed Person" in text


def test_two_annotators_cannot_get_one_name():
    with pytest.raises(OptionError, match="both be called 'X'"):
        rename_annotators(["A", "B"], {"annotator_names": {"A": "X", "B": "X"}})
    with pytest.raises(OptionError, match="both be called 'B'"):
        rename_annotators(["A", "B"], {"annotator_names": {"A": "B"}})
    with pytest.raises(OptionError, match="cannot be empty"):
        rename_annotators(["A", "B"], {"annotator_names": {"A": " "}})
    assert rename_annotators(["A", "B"], {"annotator_names": {"A": "B", "B": "A"}}) == ("B", "A")
    assert rename_annotators(["A", "B"], {}) == ("A", "B")

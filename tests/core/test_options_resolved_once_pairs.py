"""The graded-pairs, candidate-pairs and multi-label kinds resolve their options in one place, their
typed ``Options.resolve``: the command line hands the resolved value to the run, which computes
with it as it is and records what was given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from iaa_desktop.cli import main
from iaa_desktop.core.kinds import KINDS
from iaa_desktop.core.kinds import options as options_module
from iaa_desktop.core.kinds import spec as spec_module
from iaa_desktop.core.kinds.candidates.options import CandidatesOptions
from iaa_desktop.core.kinds.durel.options import DurelOptions
from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions
from iaa_desktop.core.kinds.spec import TypedKind
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.study_command import parse_kind_args

EXAMPLES = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples"

#: kind, its inputs, an option only it has (flag, value as typed, value resolved), its Options
CASES = [
    ("durel", ["durel/targets"], ("filter_range", "3", 3.0), DurelOptions),
    (
        "candidates",
        ["candidates/pairs.tsv", "candidates/labels.tsv"],
        ("bayes_draws", "500", 500),
        CandidatesOptions,
    ),
    (
        "multilabel",
        ["multilabel/annotations.tsv", "multilabel/sentences.tsv"],
        ("max_s1_size", "1", 1),
        MultiLabelOptions,
    ),
]


def _resolutions(monkeypatch: pytest.MonkeyPatch, option: str) -> list[dict[str, Any]]:
    """Every resolution of a list of settings holding ``option`` (what it was given)."""
    seen: list[dict[str, Any]] = []
    real = spec_module.resolve_options

    def spy(settings: Any, given: Any) -> dict[str, Any]:
        if any(s.name == option for s in settings):
            seen.append(dict(given or {}))
        return real(settings, given)

    for module in (spec_module, options_module):
        monkeypatch.setattr(module, "resolve_options", spy)
    return seen


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


@pytest.mark.parametrize(("kind", "inputs", "given", "typed"), CASES, ids=[c[0] for c in CASES])
def test_the_command_line_resolves_the_options_once(
    monkeypatch, tmp_path, kind, inputs, given, typed
) -> None:
    name, text, value = given
    seen = _resolutions(monkeypatch, name)
    out = tmp_path / "r.json"
    args = ["report", "--kind", kind, _flag(name), text, *(str(EXAMPLES / p) for p in inputs)]
    assert main([*args, "--json", str(out), "-q"]) == 0
    assert len(seen) == 1 and seen[0][name] == value
    assert out.stat().st_size > 0


@pytest.mark.parametrize(("kind", "inputs", "given", "typed"), CASES, ids=[c[0] for c in CASES])
def test_the_command_line_hands_the_run_typed_options(kind, inputs, given, typed) -> None:
    name, text, value = given
    assert isinstance(KINDS[kind].kind, TypedKind) and KINDS[kind].kind.options is typed
    _ns, chosen_kind, chosen = parse_kind_args(_parser, ["--kind", kind, _flag(name), text, "x"])
    assert chosen_kind == kind and isinstance(chosen, typed)
    assert getattr(chosen, name) == value and chosen.record()[name] == value


@pytest.mark.parametrize(("kind", "inputs", "given", "typed"), CASES, ids=[c[0] for c in CASES])
def test_the_run_computes_with_resolved_options_as_they_are(kind, inputs, given, typed) -> None:
    name, _text, value = given
    chosen = typed.resolve({name: value, "extra": "kept"})
    result = run_to_end(KINDS[kind].run([EXAMPLES / p for p in inputs], chosen))
    assert result.options[name] == value and result.options["extra"] == "kept"
    assert result.options == {**chosen.record(), **_applied(kind)}
    assert getattr(result.chosen, name) == value


def test_a_choice_not_offered_is_refused_in_the_run_not_at_the_call() -> None:
    from iaa_desktop.core.errors import OptionError

    steps = KINDS["durel"].kind.run([EXAMPLES / "durel/targets"], {"level": "ratio"})
    with pytest.raises(OptionError, match="Level of measurement"):
        next(steps)


def _applied(kind: str) -> dict[str, Any]:
    """What a kind records as applied rather than given (the graded pairs' Spearman weights)."""
    return {"spearman_weights": "judged"} if kind == "durel" else {}


def _parser(add_help: bool) -> Any:
    import argparse

    p = argparse.ArgumentParser(add_help=add_help)
    p.add_argument("inputs", nargs="*")
    p.add_argument("--kind")
    return p


@pytest.mark.parametrize(
    ("kind", "inputs", "given", "option"),
    [
        ("table", ["judgments/ratings.csv"], {"level": "ordinal"}, "level"),
        ("durel", ["durel/targets"], {"scale_high": 4}, "scale_high"),
        ("multilabel", ["multilabel/annotations.tsv"], {"label_delimiter": ";"}, "label_delimiter"),
    ],
)
def test_the_import_dialog_surveys_with_the_options_the_kind_resolves(
    monkeypatch, kind, inputs, given, option
) -> None:
    from iaa_desktop.core import study_import

    seen = _resolutions(monkeypatch, option)
    if hasattr(study_import, "resolve_options"):  # the dialog resolving the options itself
        monkeypatch.setattr(study_import, "resolve_options", spec_module.resolve_options)
    plan = study_import.plan_import([EXAMPLES / p for p in inputs], kind=kind, options=given)
    assert plan.kind == kind and plan.annotators and not plan.problems
    assert len(seen) == 1 and seen[0][option] == given[option]


def test_an_option_the_kind_refuses_is_a_problem_of_the_plan() -> None:
    from iaa_desktop.core.study_import import plan_import

    plan = plan_import([EXAMPLES / "durel/targets"], kind="durel", options={"level": "ratio"})
    assert any("Level of measurement" in p for p in plan.problems)

"""The graded-pairs, candidate-pairs and multi-label kinds compute with one typed, frozen value of
their options, and their results carry it (with the provenance of their intervals)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import get_args

import pytest

from iaa_desktop.core.kinds import KINDS
from iaa_desktop.core.kinds.candidates.model.settings import MODEL_CHOICES
from iaa_desktop.core.kinds.candidates.options import CandidatesOptions, ModelChoice
from iaa_desktop.core.kinds.durel.options import DurelOptions
from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions
from iaa_desktop.core.kinds.options import IntervalProvenance
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[2]


def _run(kind: str, inputs: list[Path], **options: object) -> object:
    return run_to_end(KINDS[kind].run(inputs, options))


@pytest.mark.parametrize(
    ("kind", "cls"),
    [("durel", DurelOptions), ("candidates", CandidatesOptions), ("multilabel", MultiLabelOptions)],
)
def test_the_settings_are_the_fields_of_the_options(kind: str, cls: type) -> None:
    own = [s for s in KINDS[kind].settings if s.name != "encoding"]
    assert tuple(own) == cls.settings()
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen


def test_a_durel_result_carries_its_options_with_the_weighting_applied() -> None:
    r = _run("durel", [FIXTURES / "durel" / "study"], label_threshold=3, level="interval")
    o = r.chosen
    assert isinstance(o, DurelOptions)
    assert o.label_threshold == 3.0 and isinstance(o.label_threshold, float)
    assert o.level == "interval" and r.level == "interval"
    assert o.spearman_weights in ("judged", "valid")  # "auto" is resolved before computing
    # the record of the study keeps the options as given (a study file stores a dict)
    assert r.options["label_threshold"] == 3
    paragraphs, _refs = KINDS["durel"].methods_text(r)
    assert "label 1 when their mean is at least 3." in paragraphs[1]


def test_a_candidates_result_carries_its_options_and_the_provenance_of_its_intervals() -> None:
    cand = FIXTURES / "candidates"
    r = _run("candidates", [cand / "pairs.tsv", cand / "labels.tsv"], bayes_draws=500, seed=9)
    assert isinstance(r.chosen, CandidatesOptions) and r.chosen.bins == 5
    assert r.interval == IntervalProvenance("bayes", 500, 9)
    paragraphs, _refs = KINDS["candidates"].methods_text(r)
    assert "each of 500 draws (seed 9)" in paragraphs[0]


def test_the_model_choices_are_the_model_names() -> None:
    assert get_args(ModelChoice) == MODEL_CHOICES


def test_a_multilabel_result_carries_its_options() -> None:
    r = _run("multilabel", [FIXTURES / "multilabel" / "long.tsv"], top=5, s1="000,111")
    o = r.chosen
    assert isinstance(o, MultiLabelOptions) and (o.top, o.s1, o.search) == (5, "000,111", True)
    paragraphs, _refs = KINDS["multilabel"].methods_text(r)
    assert "S1 = 000,111" in paragraphs[1]


def _dict_reads(path: Path) -> list[str]:
    """``x.get("…")`` and ``x["…"]`` on a name or attribute called ``options``/``opts``/``o``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "get":
                target = node.func.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            target = node.value
        name = getattr(target, "id", None) or getattr(target, "attr", None)
        if name in ("options", "opts", "o"):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_these_kinds_never_read_an_option_from_a_dict() -> None:
    base = ROOT / "iaa_desktop" / "core" / "kinds"
    files = [
        p
        for kind in ("durel", "candidates", "multilabel")
        for p in sorted((base / kind).glob("*.py"))  # not the candidates model's own package
    ]
    files.append(ROOT / "iaa_desktop" / "gui" / "kinds" / "pairs" / "pair_panel.py")
    assert [r for p in files for r in _dict_reads(p)] == []

"""Helpers the kinds share: StepsKind (typed options resolved once), result_fields and the pair-measure heatmap of the report."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pandas as pd
import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.export.html_blocks import (
    MATRIX_TABLE_MAX,
    diverging_colour,
    matrix_html,
    pair_heatmap_html,
    pair_matrix,
)
from iaa_desktop.core.kinds.options import Options, option
from iaa_desktop.core.kinds.spec import StepsKind, TypedKind, result_fields
from iaa_desktop.core.progress import Progress, run_to_end


@dataclass(frozen=True)
class ToyOptions(Options):
    level: Literal["a", "b"] = option("a", "Level", "a level")


def _steps(inputs, opts):
    yield Progress(0, 1, "start")
    return (tuple(inputs), opts)


KIND = StepsKind(
    "toy",
    ToyOptions,
    lambda paths: 0.5 if all(isinstance(p, Path) for p in paths) else 0.0,
    _steps,
)


def test_steps_kind_is_a_typed_kind_with_resolved_options():
    assert isinstance(KIND, TypedKind) and KIND.settings == ToyOptions.settings()
    assert KIND.sniff(["x.tsv", Path("y.tsv")]) == 0.5  # the paths reach recognise as Paths
    inputs, opts = run_to_end(KIND.run([Path("x.tsv")], {"extra": 1}))
    assert inputs == (Path("x.tsv"),)
    assert opts == ToyOptions(level="a") and opts.record() == {"level": "a", "extra": 1}
    resolved = ToyOptions.resolve({"level": "b"})
    assert run_to_end(KIND.run([], resolved))[1] is resolved  # computed with as it is


def test_steps_kind_checks_the_options_in_the_run_not_at_the_call():
    steps = KIND.run([], {"level": "z"})  # a worker thread starts the run: nothing raised here
    with pytest.raises(OptionError, match="Level"):
        next(steps)


def test_result_fields_keep_the_error_lists():
    errors, warnings = [], []
    f = result_fields("toy", [Path("a"), "b"], {"k": 1}, errors, warnings)
    assert f["inputs"] == ("a", "b") and f["options"] == {"k": 1} and f["kind"] == "toy"
    assert f["errors"] is errors and f["warnings"] is warnings  # later problems still reach them
    assert "warnings" not in result_fields("toy", [], {}, errors)


def test_pair_matrix_is_symmetric_with_a_unit_diagonal():
    pairs = pd.DataFrame({"a": ["A", "A"], "b": ["B", "C"], "kappa": [0.5, -0.25]})
    m = pair_matrix(["A", "B", "C"], pairs, "kappa")
    assert m.loc["A", "B"] == m.loc["B", "A"] == 0.5
    assert m.loc["C", "A"] == -0.25
    assert math.isnan(m.loc["B", "C"])  # no row for the pair
    assert [m.loc[x, x] for x in "ABC"] == [1.0, 1.0, 1.0]


def test_pair_heatmap_keeps_the_table_behind_the_chart():
    pairs = pd.DataFrame({"a": ["A"], "b": ["B"], "rho": [0.8]})
    tables: dict[str, pd.DataFrame] = {}
    html = pair_heatmap_html(tables, "pair_matrix_rho", ["A", "B"], pairs, "rho", "ρ", "Caption")
    assert '<table class="grid heat">' in html and "Caption" in html
    t = tables["pair_matrix_rho"]
    assert list(t.columns) == ["annotator", "A", "B"]
    assert t.loc[t["annotator"] == "B", "A"].item() == 0.8


def test_a_small_pair_matrix_is_a_coloured_table_a_large_one_a_chart():
    names = ["A", "B", "C"]
    pairs = pd.DataFrame({"a": ["A", "A"], "b": ["B", "C"], "k": [0.53, -1.0]})
    html = matrix_html(pair_matrix(names, pairs, "k"), "Pairwise κ", "Cohen's κ per pair.")
    cells = re.findall(
        r'<td class="c"(?: style="background:(#\w+); color:(#\w+)")?>([^<]*)</td>', html
    )
    assert [c[2] for c in cells] == [
        "1.00",
        "0.53",
        "-1.00",
        "0.53",
        "1.00",
        "–",
        "-1.00",
        "–",
        "1.00",
    ]
    # the heatmap's colours: green at 1, red at −1 (white ink on both ends), yellowish between
    assert cells[0][:2] == (diverging_colour(1.0), "#ffffff") == ("#006837", "#ffffff")
    assert cells[2][:2] == (diverging_colour(0.0), "#ffffff") == ("#a50026", "#ffffff")
    assert cells[1][1] == "#000000" and diverging_colour(0.5) == "#ffffbf"
    many = [f"R{i}" for i in range(MATRIX_TABLE_MAX + 1)]
    big = pd.DataFrame(0.5, index=many, columns=many)
    assert matrix_html(big, "t", "c").startswith('<figure class="chart">')


def test_an_annotator_called_annotator_keeps_the_matrix_behind_the_chart():
    pairs = pd.DataFrame({"a": ["annotator"], "b": ["B"], "k": [0.4]})
    tables: dict[str, pd.DataFrame] = {}
    pair_heatmap_html(tables, "m", ["annotator", "B"], pairs, "k", "κ", "Caption")
    t = tables["m"]
    assert list(t.columns) == ["annotator", "annotator", "B"]
    assert t.iloc[:, 0].tolist() == ["annotator", "B"] and t["B"].tolist() == [0.4, 1.0]

"""The table kind's figures: irrCAC's published values through the command line, the new
coefficients in JSON and CSV, declared scale and category order, and one code path for the
GUI (the kind run in process) and the command line."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.metrics import encode
from iaa_desktop.core.metrics.alpha import alpha_strings_from_codes
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

RAW4 = FIXTURES / "table" / "gwet2014_raw4raters.csv"


def report(args, capsys) -> dict:
    assert cli_main(["report", "--kind", "table", *map(str, args), "--json", "-", "-q"]) == 0
    return json.loads(capsys.readouterr().out)


def run(inputs, **options):
    return run_to_end(get_kind("table").run([Path(p) for p in inputs], options))


def write(path: Path, rows: list[list[object]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return path


def test_irrcac_figures_through_the_command_line(capsys):
    """Gwet (2014) / irrCAC on cac.raw4raters: Fleiss 0.76117, Conger 0.76282, Brennan–Prediger
    0.77273, AC1 0.77544, Krippendorff's α 0.74342."""
    d = report(["--interval", "none", RAW4], capsys)
    got = {k: round(v["value"], 5) for k, v in d["overall"].items()}
    assert got["fleiss_kappa"] == 0.76117
    assert got["conger_kappa"] == got["multi_kappa"] == 0.76282
    assert got["bennett_s"] == 0.77273
    assert got["gwet_ac1"] == 0.77544
    assert got["krippendorff_alpha"] == 0.74342
    cats = {r["category"]: r for r in d["per_category"]}
    assert set(cats["1.0"]) >= {"kappa_one_vs_rest", "alpha_one_vs_rest", "specific_agreement"}


def test_ordered_levels_add_weighted_coefficients_and_csv_columns(tmp_path, capsys):
    d = report(["--level", "ordinal", "--n-resamples", "200", RAW4], capsys)
    for name in ("gwet_ac2_linear", "gwet_ac2_quadratic", "weighted_kappa_linear_mean"):
        r = d["overall"][name]
        assert math.isfinite(r["value"]) and r["ci_low"] <= r["value"] <= r["ci_high"], name
    assert cli_main(["report", "--kind", "table", str(RAW4), "--csv", str(tmp_path), "-q"]) == 0
    header = (tmp_path / "per_category.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "alpha_one_vs_rest" in header
    overall = (tmp_path / "overall.csv").read_text(encoding="utf-8")
    assert "Conger's κ" in overall and "Bennett's S" in overall


def test_a_pairs_weighted_kappa_ignores_a_third_annotators_scale_point(tmp_path):
    """Cohen (1968) weights from the values: C's use of 3 must not move the A–B figure."""
    a = [1, 2, 4, 4, 1, 2, 4, 1, 2]
    b = [1, 4, 4, 2, 1, 2, 2, 1, 4]
    c = [3, 3, 4, 3, 1, 2, 3, 1, 3]
    two = write(
        tmp_path / "two.csv",
        [["item", "A", "B"], *[[i, x, y] for i, (x, y) in enumerate(zip(a, b))]],
    )
    three = write(
        tmp_path / "three.csv",
        [["item", "A", "B", "C"], *[[i, x, y, z] for i, (x, y, z) in enumerate(zip(a, b, c))]],
    )
    for level in ("ordinal", "interval"):
        r2 = run([two], level=level, interval="none").pairwise.iloc[0]
        r3 = run([three], level=level, interval="none").pairwise.iloc[0]
        assert (r3.a, r3.b) == ("A", "B")
        for col in ("weighted_kappa_linear", "weighted_kappa_quadratic", "cohen_kappa"):
            assert r3[col] == pytest.approx(r2[col], abs=1e-12), (level, col)


def test_declared_scale_changes_ac2_only(tmp_path):
    rows = [
        ["item", "A", "B"],
        *[[i, x, y] for i, (x, y) in enumerate([(2, 2), (3, 2), (4, 4), (3, 3), (2, 4)])],
    ]
    path = write(tmp_path / "scale.csv", rows)
    plain = run([path], level="interval", interval="none").overall
    wide = run([path], level="interval", interval="none", scale="1,7").overall
    assert wide["weighted_kappa_linear_mean"].value == pytest.approx(
        plain["weighted_kappa_linear_mean"].value
    )
    assert wide["gwet_ac2_linear"].value != pytest.approx(plain["gwet_ac2_linear"].value)
    with pytest.raises(OptionError, match="outside the declared scale"):
        run([path], level="interval", interval="none", scale="3,5")


def test_declared_category_order_ranks_ordered_text_labels(tmp_path):
    rows = [["item", "A", "B", "C"]]
    data = [
        ("low", "low", "mid"),
        ("mid", "high", "high"),
        ("high", "high", "high"),
        ("low", "mid", "low"),
    ]
    rows += [[i, *r] for i, r in enumerate(data)]
    path = write(tmp_path / "ordered.csv", rows)
    alphabetical = run([path], level="ordinal", interval="none")  # high < low < mid
    declared = run([path], level="ordinal", interval="none", categories="low, mid, high")
    assert [str(c) for c in declared.categories] == ["low", "mid", "high"]
    assert declared.overall["krippendorff_alpha"].value != pytest.approx(
        alphabetical.overall["krippendorff_alpha"].value
    )
    codes, _ = encode([[{"low": 0, "mid": 1, "high": 2}[v] for v in r] for r in data])
    from iaa_desktop.core.metrics import krippendorff_alpha

    assert declared.overall["krippendorff_alpha"].value == pytest.approx(
        krippendorff_alpha(codes, "ordinal").value
    )
    with pytest.raises(OptionError, match="not declared"):
        run([path], level="ordinal", interval="none", categories="low,high")


def test_gui_and_command_line_give_the_same_figures(capsys):
    """The GUI runs the kind's generator in a worker; the command line runs the same one."""
    d = report(["--n-resamples", "300", "--seed", "4", RAW4], capsys)
    r = run([RAW4], n_resamples=300, seed=4)
    for name, v in r.overall.items():
        assert d["overall"][name]["value"] == pytest.approx(v.value, nan_ok=True)
        assert d["overall"][name]["ci_low"] == pytest.approx(v.ci_low, nan_ok=True)


def test_alpha_nld_in_the_table_kind(tmp_path):
    words = ["haus", "hauß", "huse", "hus", "maus", "mus", "ſtadt", "stadt"]
    rng = np.random.default_rng(3)
    table = rng.choice(words, size=(30, 3))
    rows = [["item", "A", "B", "C"], *[[i, *r] for i, r in enumerate(table.tolist())]]
    path = write(tmp_path / "words.csv", rows)
    r = run([path], distance="nld", n_resamples=200)
    codes, cats = encode(table.tolist())
    ref = alpha_strings_from_codes(codes, [str(c) for c in cats]).value
    alpha = r.overall["krippendorff_alpha"]
    assert alpha.value == pytest.approx(ref, abs=1e-12) and alpha.extra["level"] == "nld"
    assert alpha.ci_low <= alpha.value <= alpha.ci_high
    first = r.pairwise.iloc[0]
    assert first.krippendorff_alpha == pytest.approx(
        alpha_strings_from_codes(codes[:, :2], [str(c) for c in cats]).value, abs=1e-12
    )

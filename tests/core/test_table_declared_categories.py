"""A count table's header declares its categories: an all-zero column is a category too.

The table is statsmodels' Randolph case (``statsmodels/stats/tests/test_inter_rater.py``,
``test_fleis_randolph``: two subjects, seven raters, three categories, the third chosen by nobody),
whose values come from Randolph's online calculator: free-marginal κ (Bennett's S) 0.785714,
fixed-marginal (Fleiss') κ 0.708333.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from statsmodels.stats.inter_rater import fleiss_kappa

from iaa_desktop.cli import main as cli_main

TABLE = [[6, 1, 0], [0, 7, 0]]


def _report(path, capsys, *flags):
    code = cli_main(
        ["report", "--kind", "table", "--layout", "counts", str(path), *flags, "--json", "-"]
    )
    cap = capsys.readouterr()
    return code, json.loads(cap.out), cap.err


def test_unused_category_counts_and_is_named(tmp_path, capsys):
    path = tmp_path / "counts.csv"
    path.write_text("item,yes,no,unsure\na,6,1,0\nb,0,7,0\n", encoding="utf-8")
    code, data, err = _report(path, capsys)
    assert code == 0, err
    assert data["categories"] == ["yes", "no", "unsure"]
    values = {k: v["value"] for k, v in data["overall"].items()}
    assert values["bennett_s"] == pytest.approx(0.785714, abs=6e-6)  # Randolph's calculator
    assert values["bennett_s"] == pytest.approx(fleiss_kappa(np.array(TABLE), method="randolph"))
    assert values["fleiss_kappa"] == pytest.approx(fleiss_kappa(np.array(TABLE)))  # unchanged
    # Gwet (2008) AC1, q = 3: pa = 6/7, pe = Σ π_k(1 - π_k)/(q - 1) with π = (6, 8, 0)/14
    assert values["gwet_ac1"] == pytest.approx(30 / 37)
    [warning] = data["warnings"]
    assert "unsure" in warning["message"] and "nobody chose" in warning["message"]
    assert "warning" in err and "unsure" in err


def test_declared_category_option_still_wins(tmp_path, capsys):
    path = tmp_path / "counts.csv"
    path.write_text("item,yes,no,unsure\na,6,1,0\nb,0,7,0\n", encoding="utf-8")
    code, data, err = _report(path, capsys, "--categories", "no,yes,unsure,other")
    assert code == 0, err
    assert data["categories"] == ["no", "yes", "unsure", "other"]
    assert data["warnings"] == []

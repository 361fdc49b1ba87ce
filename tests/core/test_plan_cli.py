"""Planning before any data: the assumed study and the ``plan`` command."""

from __future__ import annotations

import json

import numpy as np
import pytest

from iaa_desktop.cli import main
from iaa_desktop.core.kinds.table.annotator_time import assumed_study
from iaa_desktop.core.metrics import krippendorff_alpha

sm = pytest.importorskip("statsmodels.stats.inter_rater")


@pytest.mark.parametrize("kappa", [0.3, 0.6, 0.85])
def test_the_assumed_study_has_the_assumed_kappa(kappa):
    data = assumed_study(kappa, [0.5, 0.3, 0.2], 2, n_items=40_000, seed=1)
    table = np.zeros((3, 3))
    np.add.at(table, (data.codes[:, 0], data.codes[:, 1]), 1)
    assert sm.cohens_kappa(table).kappa == pytest.approx(kappa, abs=0.015)


def test_plan_command_curve_equals_a_direct_simulation(capsys):
    assert main(["plan", "--kappa", "0.6", "--prevalence", "0.5,0.3,0.2", "--json", "-"]) == 0
    out = json.loads(capsys.readouterr().out)
    curve = {c["n_items"]: c for c in out["planning"] if c["metric"] == "krippendorff_alpha"}
    # independently: 600 fresh studies of 100 items from the same generative model
    rng = np.random.default_rng(5)
    p = np.array([0.5, 0.3, 0.2])
    vals = []
    for _ in range(600):
        truth = rng.choice(3, 100, p=p)
        knows = rng.random((100, 2)) < np.sqrt(0.6)
        codes = np.where(knows, truth[:, None], rng.choice(3, (100, 2), p=p))
        vals.append(krippendorff_alpha(codes, "nominal").value)
    lo, hi = np.quantile(vals, [0.025, 0.975])
    assert curve[100]["half_width"] == pytest.approx((hi - lo) / 2, rel=0.15)
    assert out["assumed"] == {"kappa": 0.6, "prevalence": [0.5, 0.3, 0.2], "annotators": 2}


def test_plan_command_refuses_bad_assumptions(capsys):
    assert main(["plan", "--kappa", "1.5", "--prevalence", "0.5,0.5"]) == 2
    assert "κ = 1.5 must lie between 0 and 1" in capsys.readouterr().err
    assert main(["plan", "--kappa", "0.5", "--prevalence", "x"]) == 2
    assert main(["plan", "--kappa", "0.5", "--prevalence", "1"]) == 2

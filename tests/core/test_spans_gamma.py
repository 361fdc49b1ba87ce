"""γ (Mathet, Widlöcher & Métivier 2015) of the spans kind equals pygamma-agreement's own
computation on the same continuum with the same seed.

pygamma-agreement is an optional extra (``pip install 'iaa-desktop[gamma]'``): it brings cvxpy,
numba and pyannote, and a newer NumPy; without it these tests skip. The continuum is built here
straight from the input files (every span fragment a unit, documents laid end to end in name
order), not from the app's corpus, and γ computed by a direct call of the library.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

pa = pytest.importorskip("pygamma_agreement")
SPANS = FIXTURES / "spans"


def _direct_gamma(units: list[tuple[str, int, int, str]], seed: int) -> float:
    from pyannote.core import Segment

    continuum = pa.Continuum()
    for who, start, end, label in units:
        continuum.add(who, Segment(start, end), label)
    np.random.seed(seed)  # noqa: NPY002  (the library samples from NumPy's global generator)
    gamma = continuum.compute_gamma(pa.CombinedCategoricalDissimilarity(), precision_level=0.02)
    return float(gamma.gamma)


def _brat_units(folders: list[Path]) -> list[tuple[str, int, int, str]]:
    units = []
    for folder in folders:
        for line in (folder / "doc1.ann").read_text(encoding="utf-8").splitlines():
            if line.startswith("T"):
                label, offsets = line.split("\t")[1].split(" ", 1)
                for piece in offsets.split(";"):
                    s, e = map(int, piece.split())
                    units.append((folder.name, s, e, label))
    return units


def _table_units(folder: Path) -> list[tuple[str, int, int, str]]:
    lengths = {p.stem: len(p.read_text(encoding="utf-8")) for p in folder.glob("*.txt")}
    offset, start = {}, 0
    for name in sorted(lengths):
        offset[name] = start
        start += lengths[name]
    with open(folder / "spans.tsv", encoding="utf-8") as f:
        return [
            (
                r["annotator"],
                int(r["start"]) + offset[r["document"]],
                int(r["end"]) + offset[r["document"]],
                r["label"],
            )
            for r in csv.DictReader(f, delimiter="\t")
        ]


@pytest.mark.parametrize("seed", [0, 7])
def test_gamma_equals_pygamma_on_a_brat_study(seed):
    folders = [SPANS / "brat" / "A", SPANS / "brat" / "B"]
    r = run_to_end(get_kind("spans").run(folders, {"gamma": True, "seed": seed, "n_resamples": 50}))
    assert r.overall["gamma"]["value"] == pytest.approx(_direct_gamma(_brat_units(folders), seed))
    assert "pygamma-agreement" in r.gamma_note


def test_gamma_equals_pygamma_on_two_documents_laid_end_to_end():
    folder = SPANS / "tools" / "table"
    r = run_to_end(
        get_kind("spans").run([folder / "spans.tsv"], {"gamma": True, "n_resamples": 50})
    )
    ours = r.overall["gamma"]["value"]
    assert ours == pytest.approx(_direct_gamma(_table_units(folder), 0))
    assert -1.0 < ours < 1.0


def test_report_json_on_standard_output_stays_valid_with_gamma():
    """The solvers' chatter (GLPK prints from C, pygamma-agreement logs a warning per alignment)
    never reaches standard output, where the JSON report goes."""
    import json
    import subprocess
    import sys

    from tests.conftest import REPO

    folders = [str(SPANS / "brat" / "A"), str(SPANS / "brat" / "B")]
    cmd = [sys.executable, "-m", "iaa_desktop", "report", "--kind", "spans", *folders]
    out = subprocess.run(
        [*cmd, "--gamma", "--n-resamples", "20", "--json", "-"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode in (0, 1), out.stderr
    report = json.loads(out.stdout)
    assert report["overall"]["gamma"]["value"] == pytest.approx(
        _direct_gamma(_brat_units([Path(f) for f in folders]), 0)
    )
    assert "CBC solver" not in out.stderr

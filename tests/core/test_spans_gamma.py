"""γ (Mathet, Widlöcher & Métivier 2015) of the spans kind: the continuum it builds and the γ it
reports, against pygamma-agreement's recorded run on the bundled example and against the core's
metric on a continuum built here straight from the input files (every span fragment a unit,
documents laid end to end in name order), not from the app's corpus.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.metrics.gamma import gamma, make_continuum
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, REPO

SPANS = FIXTURES / "spans"
EXAMPLE = REPO / "iaa_desktop" / "resources" / "examples" / "spans"


def _direct_gamma(units: list[tuple[str, int, int, str]], seed: int) -> float:
    return gamma(make_continuum(units), seed=seed, precision_level=0.02, processes=1).gamma


def test_bundled_example_equals_pygamma_recorded_run():
    """pygamma-agreement's γ of the example's continuum, same seed and settings (recorded by
    tests/fixtures/gamma/make_reference.py): the same best alignment, the same γ."""
    ref = json.loads((FIXTURES / "gamma" / "spans_example.json").read_text(encoding="utf-8"))
    r = run_to_end(
        get_kind("spans").run([EXAMPLE / a for a in ("Lena", "Noa", "Omar")], {"n_resamples": 50})
    )
    fig = r.overall["gamma"]
    assert abs(fig["value"] - ref["gamma"]) < 1e-6
    assert (fig["ci_low"], fig["ci_high"]) == pytest.approx(ref["gamma_range"], abs=1e-6)
    assert r.overall["gamma_cat"]["value"] == pytest.approx(ref["gamma_cat"], abs=1e-6)
    gk = dict(zip(r.frames["labels"]["label"], r.frames["labels"]["gamma_k"]))
    assert gk == pytest.approx(ref["gamma_k"], abs=1e-6)


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
    r = run_to_end(get_kind("spans").run(folders, {"seed": seed, "n_resamples": 50}))
    assert r.overall["gamma"]["value"] == _direct_gamma(_brat_units(folders), seed)
    assert f"seed {seed}" in r.gamma_note


def test_gamma_equals_pygamma_on_two_documents_laid_end_to_end():
    folder = SPANS / "tools" / "table"
    r = run_to_end(
        get_kind("spans").run([folder / "spans.tsv"], {"gamma": True, "n_resamples": 50})
    )
    ours = r.overall["gamma"]["value"]
    assert ours == pytest.approx(_direct_gamma(_table_units(folder), 0))
    assert -1.0 < ours < 1.0


def test_report_json_on_standard_output_stays_valid_with_gamma():
    """Nothing but the report reaches standard output, where the JSON report goes; γ is in it with
    its interval."""
    import subprocess
    import sys

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
    fig = report["overall"]["gamma"]
    assert fig["value"] == pytest.approx(_direct_gamma(_brat_units([Path(f) for f in folders]), 0))
    assert fig["ci_low"] < fig["value"] < fig["ci_high"]

"""DURel-kind inputs: PhiTag's ``judgements.tsv``, DWUG/WUGs folders, unordered use pairs."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, REPO

DUREL = FIXTURES / "durel"
F = FIXTURES / "formats" / "durel"
HEADER = "identifier1\tidentifier2\tannotator\tjudgment\tcomment\tlemma\ttimestamp\n"


def run(inputs, **options):
    return run_to_end(get_kind("durel").run([Path(p) for p in inputs], options))


def _same(a, b):
    for part in ("all", "filtered"):
        for key, value in a.overall[part].items():
            assert value == pytest.approx(b.overall[part][key], nan_ok=True), (part, key)


def test_phitag_judgements_spelling_gives_the_same_figures():
    assert detect_kind([F / "phitag_judgements"]) == "durel"
    _same(run([F / "phitag_judgements"]), run([DUREL / "study"]))


def test_dwug_folder_tab_separated_csv_without_spurious_span_warnings(tmp_path):
    r = run([F / "dwug"])
    assert set(r.items["target"]) == {"Abgesang", "Donnerwetter", "attack_nn"}
    assert not [w for w in r.warnings if "not the quoted" in w.message]
    assert r.errors == []
    # the same files as DURel's judgments.tsv/uses.tsv give the same figures
    for target in ("Abgesang", "Donnerwetter", "attack_nn"):
        (tmp_path / target).mkdir()
        for name in ("judgments", "uses"):
            shutil.copy(F / "dwug" / target / f"{name}.csv", tmp_path / target / f"{name}.tsv")
    _same(r, run([tmp_path]))
    assert detect_kind([F / "dwug"]) == "durel"


def test_dwug_and_phitag_leave_no_runtime_warning_on_stderr():
    for folder in (F / "dwug", F / "phitag_judgements", DUREL / "study"):
        proc = subprocess.run(
            [sys.executable, "-m", "iaa_desktop", "report", str(folder), "--json", "-"],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert "RuntimeWarning" not in proc.stderr


def _write(folder: Path, rows: list[str]) -> Path:
    target = folder / "(T 1 1)"
    target.mkdir(parents=True)
    (target / "judgments.tsv").write_text(HEADER + "".join(r + "\t\tX\t\n" for r in rows))
    uses = "lemma\tpos\tdate\tgrouping\tidentifier\tdescription\tcontext\tindexes_target_token\tindexes_target_sentence\n"
    for u in ("a", "b", "c", "d"):
        uses += f"X\t\t\t\t{u}\t\tcontext of use {u}\t0:7\t0:16\n"
    (target / "uses.tsv").write_text(uses)
    return folder


def test_reversed_pairs_are_one_item_and_repeats_take_the_median(tmp_path):
    rows = [
        "a\tb\tann1\t3.0",
        "b\ta\tann2\t3.0",  # (b, a) is the pair (a, b)
        "a\tc\tann1\t1.0",
        "c\ta\tann1\t2.0",  # repeated, reversed: median of 1, 2, 3 = 2
        "a\tc\tann1\t3.0",
        "a\tc\tann2\t2.0",
        "b\tc\tann1\t0.0",  # can't decide is left out of the median
        "c\tb\tann1\t4.0",
        "b\tc\tann2\t4.0",
        "c\td\tann1\t1.0",
        "c\td\tann1\t2.0",  # median 1.5: off the scale → missing
        "d\tc\tann2\t2.0",
    ]
    r = run([_write(tmp_path / "x", rows)])
    pairs = {(a, b) for a, b in zip(r.items["id1"], r.items["id2"], strict=True)}
    assert pairs == {("a", "b"), ("a", "c"), ("b", "c"), ("c", "d")}
    by = {
        (a, b): (x, y)
        for a, b, x, y in zip(
            r.items["id1"], r.items["id2"], r.items["ann1"], r.items["ann2"], strict=True
        )
    }
    assert by[("a", "b")] == (3.0, 3.0)
    assert by[("a", "c")] == (2.0, 2.0)
    assert by[("b", "c")] == (4.0, 4.0)
    assert math.isnan(by[("c", "d")][0]) and by[("c", "d")][1] == 2.0
    notes = [w.message for w in r.warnings if "judged the pair" in w.message]
    assert len(notes) == 3
    assert any("(lines 4, 5, 6)" in n and "2, is used" in n for n in notes)
    assert any("1.5" in n and "missing value" in n for n in notes)
    # the same judgments written once per pair give the same figures
    once = [
        "a\tb\tann1\t3.0",
        "a\tb\tann2\t3.0",
        "a\tc\tann1\t2.0",
        "a\tc\tann2\t2.0",
        "b\tc\tann1\t4.0",
        "b\tc\tann2\t4.0",
        "c\td\tann1\t0.0",
        "c\td\tann2\t2.0",
    ]
    r2 = run([_write(tmp_path / "y", once)])
    assert r.overall["all"]["krippendorff_alpha"] == pytest.approx(
        r2.overall["all"]["krippendorff_alpha"]
    )
    assert np.isfinite(r.overall["all"]["krippendorff_alpha"])

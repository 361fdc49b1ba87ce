"""Opening a study: what becomes which annotator, the kind detected and why, files left out."""

from __future__ import annotations

import shutil

import pytest

from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, shared_path


def test_a_renamed_durel_judgments_file_is_a_durel_study(tmp_path):
    """A DURel export is recognised by its columns, not only by its file name: opened alone under
    another name it is a DURel study (ordinal α), not a nominal table."""
    source = shared_path("trotr", "(Genesis 1 1)", "judgments.tsv")
    copy = tmp_path / "genesis.tsv"
    shutil.copyfile(source, copy)
    assert detect_kind([copy]) == "durel"
    result = run_to_end(get_kind("durel").run([copy], {}))
    # the published figure of this target (Periti et al., TRoTR)
    assert result.overall["all"]["krippendorff_alpha"] == pytest.approx(0.15052176, abs=1e-6)


def test_a_table_that_is_not_durel_stays_a_table():
    assert detect_kind([FIXTURES / "table" / "k2011_wide.csv"]) == "table"

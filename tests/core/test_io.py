"""Safe file output: permissions of atomically written files, formula-injection guard."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pandas as pd
import pytest

from iaa_desktop.core.io import current_umask, write_csv, write_json, write_text_atomic

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@posix_only
@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077, 0o002])
def test_new_files_get_the_users_umask(tmp_path, umask):
    """A new export is created as ``open`` would create it (0644 under the usual umask 022), not
    0600 as the temporary file of an atomic write is."""
    code = (
        "import os, sys, pandas as pd\n"
        f"os.umask({umask})\n"
        "from iaa_desktop.core.io import write_csv, write_json, write_text_atomic\n"
        "d = sys.argv[1]\n"
        "write_csv(pd.DataFrame({'a': [1]}), d + '/t.csv')\n"
        "write_json({'a': 1}, d + '/r.json')\n"
        "write_text_atomic(d + '/x.txt', 'x')\n"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True)
    for name in ("t.csv", "r.json", "x.txt"):
        assert _mode(tmp_path / name) == 0o666 & ~umask, name


@posix_only
def test_default_umask_gives_0644(tmp_path):
    old = os.umask(0o022)
    try:
        assert current_umask() == 0o022
        write_csv(pd.DataFrame({"a": ["=1+1"]}), tmp_path / "t.csv")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "t.csv") == 0o644
    assert "'=1+1" in (tmp_path / "t.csv").read_text(encoding="utf-8")


@posix_only
def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "results.json"
    target.write_text("{}")
    target.chmod(0o640)
    write_json({"a": 1}, target)
    assert _mode(target) == 0o640
    assert target.read_text(encoding="utf-8").strip().startswith("{")


def test_no_temporary_file_is_left_behind(tmp_path):
    write_text_atomic(tmp_path / "a.txt", "x")
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]

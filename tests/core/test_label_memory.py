"""Labels are kept as Python strings or integer codes, never as a fixed-width NumPy string array
sized by the longest label: one label of 60,000 characters among 10,000 must not ask for
gigabytes (checked in a child process whose address space is limited)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

_CHILD = r"""
import resource, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import pandas as pd
from iaa_desktop.core.kinds.candidates.reader import encode_labels
from iaa_desktop.core.kinds.table import reliability as R

n = 10_000
a = [str(k % 2) for k in range(n)]
b = [str(k % 3) for k in range(n)]
b[5] = "x" * 60_000
texts = pd.Series([f"l{k}" for k in range(n)] + ["z" * 60_000], dtype=object)
used = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
# the fixed-width arrays took 4.8 GB and 2.4 GB here; a few hundred megabytes are plenty
limit = used + 1_500_000_000
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
codes, cats = encode_labels(pd.DataFrame({"A": a, "B": b}))
assert codes.shape == (n, 2) and cats[-1] == "x" * 60_000 and codes[5, 1] == len(cats) - 1
m = len(texts)
labels = R._Labels(
    np.arange(m), texts, np.full(m, np.nan), np.ones(m, bool), np.zeros(m, bool), False
)
cats2, cat_of_u = R._categories(labels)
assert cats2[cat_of_u[m - 1]] == "z" * 60_000 and len(cats2) == m
print("ok")
"""


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as on Linux")
def test_a_very_long_label_does_not_size_every_label() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(REPO)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]

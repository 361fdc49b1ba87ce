"""The commands run numpy's OpenBLAS in the calling thread unless the user chose a number."""

from __future__ import annotations

import os
import subprocess
import sys

from iaa_desktop import __main__ as entry


def test_one_blas_thread_unless_the_user_chose(monkeypatch):
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    entry._one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    entry._one_blas_thread()
    assert "OPENBLAS_NUM_THREADS" not in os.environ
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    entry._one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"


def test_the_setting_reaches_numpy_before_it_loads():
    """A command's process: numpy's BLAS reports one thread (threadpoolctl, when installed)."""
    code = (
        "import os, sys\n"
        "from iaa_desktop import __main__ as m\n"
        "m._one_blas_thread()\n"
        "import numpy\n"
        "try:\n"
        "    from threadpoolctl import threadpool_info\n"
        "except ImportError:\n"
        "    print('skip'); sys.exit(0)\n"
        "print(max(i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas'))\n"
    )
    env = {
        k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
    }
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() in ("1", "skip"), out.stderr

"""Start the app under a fresh X server, again and again, and count the starts that fail.

Each start is ``xvfb-run -a python -m iaa_desktop --example NAME`` with ``IAA_QUIT_AFTER_SHOW=1``:
a new Xvfb (no other client), the example study opening as the window shows, the program quitting
at its first paint. A start fails when it exits non-zero or never paints; Qt's abort when the X
server resets under it (its only client closed a connection just before Qt connected) is such a
failure, exit 134. Prints one line per start and the count; exit status 1 if any start failed.

    python bench/bench_xvfb_starts.py [--starts 20] [--example judgments]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start_once(example: str, data: Path) -> tuple[int, float, str]:
    """(exit status, seconds, last stderr line) of one start under a fresh Xvfb."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env.update(
        PYTHONPATH=str(ROOT),
        IAA_QUIT_AFTER_SHOW="1",
        IAA_STARTUP_TIMING="1",
        XDG_DATA_HOME=str(data),
        XDG_RUNTIME_DIR=str(data),
    )
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24"]
    cmd += [sys.executable, "-m", "iaa_desktop", "--example", example]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - t0
    painted = "first paint at monotonic" in r.stderr
    code = r.returncode if r.returncode or painted else -1
    last = (r.stderr.strip().splitlines() or [""])[-1]
    return code, seconds, last


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--starts", type=int, default=20)
    p.add_argument("--example", default="judgments")
    ns = p.parse_args(argv)
    if shutil.which("xvfb-run") is None:
        print("xvfb-run is not installed (Debian/Ubuntu: apt-get install xvfb xauth)")
        return 2
    failures = 0
    with tempfile.TemporaryDirectory(prefix="iaa-xvfb-") as tmp:
        for i in range(1, ns.starts + 1):
            code, seconds, last = start_once(ns.example, Path(tmp) / str(i))
            failures += code != 0
            status = "ok" if code == 0 else f"FAILED (exit {code}): {last}"
            print(f"start {i:2d}: {seconds:5.2f} s  {status}", flush=True)
    print(f"{failures} of {ns.starts} starts failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

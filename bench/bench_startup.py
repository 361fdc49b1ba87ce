"""How long until the main window is on screen (target: under 2 s), in a fresh process.

    python bench/bench_startup.py [--runs 5]

Runs ``iaa-desktop`` with IAA_STARTUP_TIMING=1 (the app prints when the window is shown and
quits at once with IAA_QUIT_AFTER_SHOW=1), offscreen, and prints the median; for comparison it
also times a bare ``import lingpy`` in a fresh process, the one import the app avoids at start-up.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return time.perf_counter() - t, r.stderr


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "IAA_STARTUP_TIMING": "1",
        "IAA_QUIT_AFTER_SHOW": "1",
    }
    shown, total = [], []
    for _ in range(args.runs):
        wall, err = run([sys.executable, "-m", "iaa_desktop"], env)
        for line in err.splitlines():
            if line.startswith("window shown after"):
                shown.append(float(line.split()[3]))
        total.append(wall)
    lingpy = [
        run([sys.executable, "-c", "import lingpy"], env)[0] for _ in range(max(1, args.runs // 2))
    ]
    interp = [run([sys.executable, "-c", "pass"], env)[0] for _ in range(max(1, args.runs // 2))]
    print(
        f"window shown (in process, from main()): median {statistics.median(shown):.2f} s over {len(shown)} runs (target < 2 s)"
    )
    print(
        f"whole process incl. interpreter start and exit: median {statistics.median(total):.2f} s "
        f"(bare interpreter {statistics.median(interp):.2f} s)"
    )
    print(f"for comparison, 'import lingpy' alone: {statistics.median(lingpy):.2f} s")


if __name__ == "__main__":
    main()

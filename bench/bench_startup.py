"""From launching ``iaa-desktop`` to its first paint, in fresh processes, cold and warm.

    python bench/bench_startup.py [--runs 5] [--repo PATH]

The clock starts before the process is launched (so the interpreter's start and every import
count) and stops when the app paints its start page: with IAA_STARTUP_TIMING=1 the app prints
that moment on the system-wide monotonic clock, and IAA_QUIT_AFTER_SHOW=1 makes it quit right
after (without the warm-up imports). CPU time is the child process's, launch to exit.

* warm: the files are in the page cache (the runs after a first, untimed one);
* cold: before each run the page cache is dropped for the files a start reads (the Python
  standard library, PySide6, shiboken6, superqt, numpy, pandas, pyarrow and the checkout) with
  ``posix_fadvise(DONTNEED)`` — other processes keep their own mapped pages, so this is a
  lower bound of a cold start after a reboot.

Reference, same runs: the floor of any PySide6 app, a bare window with one label, launch to
first paint. Target: the window shown within 1 s of launch. ``--repo`` times another checkout
(e.g. an older commit, for a before/after figure).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing

ROOT = Path(__file__).resolve().parents[1]

FLOOR = r"""
import sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication(sys.argv)
label = QLabel("iaa_desktop")
class Watch(QObject):
    def eventFilter(self, obj, ev):
        if ev.type() == QEvent.Type.Paint and obj is label:
            print(f"first paint at monotonic {time.monotonic():.6f}", file=sys.stderr, flush=True)
            QTimer.singleShot(0, app.quit)
        return False
watch = Watch()
label.installEventFilter(watch)
label.resize(1400, 900)
label.show()
app.exec()
"""


def _evict(paths: list[Path]) -> int:
    """Drop the page cache of every file under ``paths`` (best effort); returns the file count."""
    n = 0
    for base in paths:
        for dirpath, _dirs, files in os.walk(base):
            for name in files:
                try:
                    fd = os.open(os.path.join(dirpath, name), os.O_RDONLY)
                except OSError:
                    continue
                try:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                    n += 1
                finally:
                    os.close(fd)
    return n


def _cold_paths(repo: Path) -> list[Path]:
    """What a start may read: the standard library, Qt, and what older versions imported too."""
    import importlib.util

    out = [Path(sysconfig.get_paths()["stdlib"]), repo / "iaa_desktop"]
    for name in ("PySide6", "shiboken6", "superqt", "numpy", "pandas", "pyarrow"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            out.append(Path(spec.origin).parent)
    return out


def run_once(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float]:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    t_exit = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    painted = [
        float(line.split("first paint at monotonic")[1].split()[0].rstrip(";"))
        for line in r.stderr.splitlines()
        if "first paint at monotonic" in line
    ]
    if r.returncode != 0 or not painted:
        raise RuntimeError(f"{' '.join(cmd)} did not paint:\n{r.stderr[-2000:]}")
    return painted[0] - t0, cpu, t_exit


def series(cmd: list[str], env, cwd, runs: int, cold: list[Path] | None) -> list[tuple]:
    out = []
    for _ in range(runs):
        if cold is not None:
            _evict(cold)
        out.append(run_once(cmd, env, cwd))
    return out


def describe(label: str, rows: list[tuple]) -> dict[str, float]:
    paint = [r[0] for r in rows]
    cpu = [r[1] for r in rows]
    exit_ = [r[2] for r in rows]
    fig = {
        "paint": statistics.median(paint),
        "cpu": statistics.median(cpu),
        "exit": statistics.median(exit_),
    }
    print(
        f"  {label:<26} launch → first paint median {fig['paint']:.3f} s "
        f"(min {min(paint):.3f}, max {max(paint):.3f}); child CPU {fig['cpu']:.3f} s; "
        f"launch → exit {fig['exit']:.3f} s  [{len(rows)} runs]"
    )
    return fig


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--repo", type=Path, default=ROOT, help="checkout to time (default: this one)")
    args = ap.parse_args()
    repo = args.repo.resolve()
    timing.machine()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(QT_QPA_PLATFORM="offscreen", IAA_STARTUP_TIMING="1", IAA_QUIT_AFTER_SHOW="1")
    env["PYTHONPATH"] = str(repo)
    app = [sys.executable, "-m", "iaa_desktop"]
    floor = [sys.executable, "-c", FLOOR]
    cold = _cold_paths(repo)
    run_once(app, env, repo)  # writes the byte-code caches, untimed
    run_once(floor, env, repo)
    print(f"iaa-desktop start-up ({repo}), target: window shown ≤ 1 s after launch")
    figs = {}
    # alternate the two sides run by run, so that a change of load hits both alike
    rows: dict[str, list[tuple]] = {k: [] for k in ("warm", "floor warm", "cold", "floor cold")}
    for _ in range(args.runs):
        rows["warm"] += series(app, env, repo, 1, None)
        rows["floor warm"] += series(floor, env, repo, 1, None)
    for _ in range(args.runs):
        rows["cold"] += series(app, env, repo, 1, cold)
        rows["floor cold"] += series(floor, env, repo, 1, cold)
    for label, r in rows.items():
        figs[label] = describe(label if "floor" not in label else f"{label} (bare Qt window)", r)
    for state in ("warm", "cold"):
        ours, ref = figs[state], figs[f"floor {state}"]
        print(
            f"  {state}: iaa-desktop / bare window = {ours['paint'] / ref['paint']:.2f}× "
            f"(launch → paint), {ours['cpu'] / ref['cpu']:.2f}× (CPU)"
        )
        timing.record(
            "startup",
            f"launch → first paint, {state} (wall)",
            ours["paint"],
            ref["paint"],
            reference="bare PySide6 window",
            target="≤ 1 s",
            unit="s wall",
        )
        timing.record(
            "startup",
            f"launch → exit after first paint, {state} (child CPU)",
            ours["cpu"],
            ref["cpu"],
            reference="bare PySide6 window",
            unit="s CPU",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

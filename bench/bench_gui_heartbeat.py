"""How long the GUI thread is held up while a large study computes in the worker.

    python bench/bench_gui_heartbeat.py [--items 200000] [--annotators 5] [--runs 3]

A 10 ms timer beats on the GUI thread while the main window computes a simulated study of
``--items`` × ``--annotators`` ordinal judgments (bootstrap intervals included). The longest gap
between two beats is how long the window could not repaint or react; a gap under 100 ms is not
noticed. The figure depends on the machine's load, so it is measured here and not asserted in a
test (a test only checks that the computation runs off the GUI thread). CPU and wall time of the
whole computation are printed beside it; QT_QPA_PLATFORM defaults to offscreen.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def simulated_study(folder: Path, n_items: int, n_annotators: int) -> Path:
    rng = np.random.default_rng(0)
    truth = rng.integers(1, 6, n_items)
    labels = np.where(
        rng.random((n_items, n_annotators)) < 0.7,
        truth[:, None],
        rng.integers(1, 6, (n_items, n_annotators)),
    )
    path = folder / f"big_{n_items}.csv"
    header = "item," + ",".join(f"a{j}" for j in range(n_annotators))
    body = np.column_stack([np.arange(n_items), labels])
    np.savetxt(path, body, fmt="%d", delimiter=",", header=header, comments="")
    return path


def one_run(app, window, study: Path) -> tuple[float, float, float, int]:
    """(longest gap s, 99th percentile gap s, wall s, beats) of one computation."""
    from PySide6.QtCore import QTimer

    beats: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: beats.append(time.perf_counter()))
    done: list[object] = []
    window.session.results_ready.connect(done.append)
    timer.start()
    t0 = time.perf_counter()
    window.open_inputs([study], "table", {"level": "ordinal"})
    while not done:
        app.processEvents()
        time.sleep(0.001)
    wall = time.perf_counter() - t0
    timer.stop()
    window.session.results_ready.disconnect(done.append)
    gaps = np.diff(beats) if len(beats) > 1 else np.array([wall])
    return float(gaps.max()), float(np.percentile(gaps, 99)), wall, len(beats)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=200_000)
    ap.add_argument("--annotators", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    from PySide6.QtCore import QSettings

    from iaa_desktop.gui.app import create_main_window, make_app

    app = make_app()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        study = simulated_study(folder, args.items, args.annotators)
        settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
        window = create_main_window(settings=settings, data_dir=folder / "data")
        window.show()
        while not window.session.is_warm:  # start-up imports are not part of the measurement
            app.processEvents()
            time.sleep(0.01)
        rows = []
        for _ in range(args.runs):
            cpu0 = time.process_time()
            rows.append((*one_run(app, window, study), time.process_time() - cpu0))
        window.close()
    print(f"{args.items:,} items × {args.annotators} annotators, ordinal, bootstrap intervals")
    print("run  longest GUI gap  99th pct gap  beats  wall s   CPU s (process)")
    for i, (gap, p99, wall, n, cpu) in enumerate(rows, 1):
        print(
            f"{i:>3}  {gap * 1000:>12.0f} ms  {p99 * 1000:>9.0f} ms  {n:>5}  {wall:>6.2f}  {cpu:>6.2f}"
        )
    print(
        f"median longest gap {statistics.median(r[0] for r in rows) * 1000:.0f} ms "
        "(under 100 ms is not noticed)"
    )


if __name__ == "__main__":
    main()

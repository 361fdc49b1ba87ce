"""Benchmark of time-aligned studies (ELAN, Praat): a 2-hour recording, 20,000 units per annotator.

    PYTHONPATH=. python bench/bench_time_aligned.py [--units 20000 --hours 2 --repeats 3 --gamma]

Data, simulated: a reference of ``--units`` units (4 labels, 100–250 ms long, gaps between) over
``--hours`` hours that a second annotator copies with boundary shifts (±40 ms, 40% of units),
label changes (15%), drops (5%) and additions (5%); written as one ELAN ``.eaf`` (a tier per
annotator, 80,000 time slots), the same as a Praat TextGrid, and the same units as a span table
(the simpler run: the same figures of text spans, no time-aligned reader).

Timed, CPU and wall (median of ``--repeats``):

* reading the ``.eaf`` and the ``.TextGrid`` (the readers alone);
* the whole comparison from the ``.eaf`` and from the table (``kind.run``: exact, overlap and
  tolerance F1, groups, character coefficients, αU, the bootstrap over recordings; γ with
  ``--gamma``);
* the ``.eaf`` read in a thread while the main thread beats every 10 ms, with the garbage
  collector paused while the reader's tree is built and read (as it is) and, for comparison,
  running: the longest gap, and the full collections (each visits every tracked object
  holding the interpreter lock);
* in the window: the study computed in the window's worker while a 10 ms timer beats on the GUI
  thread (the longest gap between two beats is how long the window could not react), then the
  timeline of the recording built and shown.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing

LABELS = ("point", "beat", "iconic", "deictic")


def simulate(n: int, hours: float, seed: int = 0) -> dict[str, list[tuple[int, int, str]]]:
    rng = np.random.default_rng(seed)
    total = int(hours * 3_600_000)
    slot = total // n
    starts = np.arange(n) * slot + rng.integers(0, max(slot - 260, 1), n)
    ends = starts + rng.integers(100, 251, n)
    labels = rng.integers(0, len(LABELS), n)
    a = [(int(s), int(e), LABELS[k]) for s, e, k in zip(starts, ends, labels)]
    b = []
    for s, e, k in zip(starts.tolist(), ends.tolist(), labels.tolist()):
        r = rng.random()
        if r < 0.05:
            continue
        if rng.random() < 0.4:
            s, e = s + int(rng.integers(-40, 41)), e + int(rng.integers(-40, 41))
        if rng.random() < 0.15:
            k = int(rng.integers(0, len(LABELS)))
        b.append((max(s, 0), min(max(e, s + 1), total), LABELS[k]))
    extra = rng.choice(n, n // 20, replace=False)
    for i in extra.tolist():  # additions: between two reference units
        s = int(starts[i]) + slot // 2 + 130
        if s + 60 < total and (i + 1 >= n or s + 60 < starts[i + 1]):
            b.append((s, s + 60, LABELS[int(rng.integers(0, len(LABELS)))]))
    b = sorted(set(b))
    # overlapping units of one tier are not possible in a TextGrid: drop them
    clean, last = [], -1
    for s, e, k in b:
        if s >= last:
            clean.append((s, e, k))
            last = e
    return {"A": a, "B": clean}


def write_eaf(path: Path, tiers: dict[str, list[tuple[int, int, str]]], total: int) -> None:
    slots, body, k = [], [], 0
    for name, units in tiers.items():
        anns = []
        for s, e, lab in units:
            k += 1
            slots.append(f'<TIME_SLOT TIME_SLOT_ID="ts{2 * k}" TIME_VALUE="{s}"/>')
            slots.append(f'<TIME_SLOT TIME_SLOT_ID="ts{2 * k + 1}" TIME_VALUE="{e}"/>')
            anns.append(
                f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a{k}" TIME_SLOT_REF1="ts{2 * k}" '
                f'TIME_SLOT_REF2="ts{2 * k + 1}"><ANNOTATION_VALUE>{lab}</ANNOTATION_VALUE>'
                "</ALIGNABLE_ANNOTATION></ANNOTATION>"
            )
        body.append(
            f'<TIER LINGUISTIC_TYPE_REF="lt" TIER_ID="{name}">' + "\n".join(anns) + "</TIER>"
        )
    slots.append(f'<TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="{total}"/>')
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT FORMAT="3.0" VERSION="3.0">'
        '<HEADER TIME_UNITS="milliseconds"/><TIME_ORDER>\n'
        + "\n".join(slots)
        + "\n</TIME_ORDER>\n"
        + "\n".join(body)
        + '\n<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="lt" TIME_ALIGNABLE="true"/></ANNOTATION_DOCUMENT>\n',
        encoding="utf-8",
    )


def write_textgrid(path: Path, tiers: dict[str, list[tuple[int, int, str]]], total: int) -> None:
    from iaa_desktop.core.formats.timed import TimedFile, TimedTier, TimedUnit
    from iaa_desktop.core.kinds.spans.timed_writers import textgrid_text

    f = TimedFile(
        str(path),
        "textgrid",
        tuple(TimedTier(n, tuple(TimedUnit(s, e, v) for s, e, v in u)) for n, u in tiers.items()),
        0,
        total,
    )
    path.write_text(textgrid_text(f), encoding="utf-8")


def write_table(folder: Path, tiers: dict[str, list[tuple[int, int, str]]], total: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rows = ["document,start,end,label,annotator"]
    rows += [f"rec,{s},{e},{lab},{who}" for who, units in tiers.items() for s, e, lab in units]
    (folder / "rec.txt").write_text("x" * total, encoding="utf-8")
    path = folder / "rec.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def reader_pauses(eaf: Path, paused: bool) -> tuple[float, int, float, float]:
    """The ``.eaf`` read in a thread while this one beats every 10 ms: (longest gap s, full
    collections, longest full collection s, wall s), with the collector paused while the
    tree is built and read (as the reader does) or, for comparison, not."""
    import contextlib
    import gc
    import threading

    from iaa_desktop.core.formats import elan

    full: list[float] = []
    began: list[float] = []

    def watch(phase: str, info: dict) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            began.append(time.perf_counter())
        elif began:
            full.append(time.perf_counter() - began.pop())

    saved = elan.set_apart
    if not paused:
        elan.set_apart = contextlib.nullcontext  # type: ignore[assignment]
    gc.callbacks.append(watch)
    try:
        th = threading.Thread(target=lambda: elan.read_eaf(eaf))
        beats = [time.perf_counter()]
        th.start()
        while th.is_alive():
            time.sleep(0.01)
            beats.append(time.perf_counter())
    finally:
        gc.callbacks.remove(watch)
        elan.set_apart = saved
    gaps = np.diff(beats)
    return float(gaps.max()), len(full), max(full, default=0.0), beats[-1] - beats[0]


def in_the_window(eaf: Path, options: dict, runs: int = 2) -> list[tuple[float, float, float]]:
    """Per run: (longest GUI gap s, wall s of the computation, s to build and show the
    timeline). The first run also imports the kind's modules on first use; the later ones show
    the steady state."""
    from PySide6.QtCore import QSettings, QTimer

    from iaa_desktop.gui.app import create_main_window, make_app
    from iaa_desktop.gui.kinds.spans import timeline_data
    from iaa_desktop.gui.widgets.timeline import TimelineView

    app = make_app()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
        window = create_main_window(settings=settings, data_dir=folder / "data")
        window.show()
        while not window.session.is_warm:
            app.processEvents()
            time.sleep(0.01)
        for _ in range(runs):
            beats: list[float] = []
            timer = QTimer()
            timer.setInterval(10)
            timer.timeout.connect(lambda beats=beats: beats.append(time.perf_counter()))
            done: list[object] = []
            window.session.results_ready.connect(done.append)
            timer.start()
            t0 = time.perf_counter()
            window.open_inputs([eaf], "spans", options)
            while not done:
                app.processEvents()
                time.sleep(0.001)
            wall = time.perf_counter() - t0
            timer.stop()
            window.session.results_ready.disconnect(done.append)
            result = window.session.result
            t1 = time.perf_counter()
            view = TimelineView()
            view.resize(1000, 300)
            view.set_data(timeline_data(result, 0))
            view.show()
            view.zoom(200.0)
            app.processEvents()
            shown = time.perf_counter() - t1
            view.close()
            gaps = np.diff(beats) if len(beats) > 1 else np.array([wall])
            out.append((float(gaps.max()), wall, shown))
        window.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=20_000)
    ap.add_argument("--hours", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--gamma", action="store_true", help="compute γ too")
    ap.add_argument("--no-window", action="store_true", help="leave out the window's run")
    args = ap.parse_args()
    timing.machine()
    from iaa_desktop.core.formats.elan import read_eaf
    from iaa_desktop.core.formats.textgrid import read_textgrid
    from iaa_desktop.core.kinds import get_kind
    from iaa_desktop.core.progress import run_to_end

    total = int(args.hours * 3_600_000)
    tiers = simulate(args.units, args.hours)
    options = {"gamma": args.gamma, "tolerance": 50}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        eaf, tg = folder / "rec.eaf", folder / "rec.TextGrid"
        write_eaf(eaf, tiers, total)
        write_textgrid(tg, tiers, total)
        table = write_table(folder / "table", tiers, total)
        n = {k: len(v) for k, v in tiers.items()}
        print(f"{args.hours:g} h recording, units per annotator {n}; .eaf {eaf.stat().st_size:,} B")
        kind = get_kind("spans")
        rows = [
            ("read .eaf", timing.measure(lambda: read_eaf(eaf), args.repeats)),
            ("read .TextGrid", timing.measure(lambda: read_textgrid(tg), args.repeats)),
            (
                "comparison from the .eaf",
                timing.measure(lambda: run_to_end(kind.run([eaf], options)), args.repeats),
            ),
            (
                "same units as text spans (table)",
                timing.measure(lambda: run_to_end(kind.run([table], options)), args.repeats),
            ),
        ]
        print(f"{'':40s} {'CPU s':>8s} {'wall s':>8s}")
        for name, t in rows:
            print(f"{name:40s} {t.cpu_median:8.3f} {t.wall_median:8.3f}")
        timed, text = rows[2][1], rows[3][1]
        print(f"time-aligned / text spans, CPU: {timed.cpu_median / text.cpu_median:.2f}")
        r = rows[2][1].result
        o = r.overall
        print(
            "figures: "
            + ", ".join(
                f"{k} {o[k]['value']:.4f}"
                for k in ("exact_f1", "tolerance_f1", "overlap_f1", "unitizing_alpha", "gamma")
                if k in o and o[k]["value"] is not None
            )
        )
        label = f"{args.hours:g} h, {args.units:,} units per annotator"
        timing.record(
            "time",
            f"{label}: comparison from .eaf",
            timed,
            text,
            reference="the same as text spans",
        )
        for k in range(args.repeats):
            for paused in (False, True):
                gap, n_full, longest, wall = reader_pauses(eaf, paused)
                print(
                    f"read .eaf in a thread, collector {'paused' if paused else 'running'} "
                    f"while the tree is built (run {k + 1}): longest gap of this thread "
                    f"{gap * 1000:.0f} ms, {n_full} full collections (longest "
                    f"{longest * 1000:.0f} ms), {wall:.2f} s wall"
                )
        if not args.no_window:
            runs = in_the_window(eaf, options)
            for k, (gap, wall, shown) in enumerate(runs, 1):
                print(
                    f"in the window, run {k}: computed in the worker in {wall:.2f} s wall, "
                    f"longest GUI gap {gap * 1000:.0f} ms (under 100 ms is not noticed); "
                    f"timeline built and shown in {shown:.2f} s"
                )
            gap = runs[-1][0]
            timing.record(
                "time", f"{label}: longest GUI gap", gap * 1000, unit="ms", target="< 100 ms"
            )


if __name__ == "__main__":
    main()

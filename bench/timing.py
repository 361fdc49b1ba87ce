"""Shared timing helper of every benchmark script in ``bench/``.

One way of timing for the project and for the reference it is compared with:

- :func:`measure` runs a callable ``repeat`` times (the same ``repeat`` for both sides of a
  comparison: :func:`compare` enforces it) and records CPU time (``time.process_time``, all
  threads of this process) and wall time (``time.perf_counter``) of every run; the figure reported
  is the median, the best run is kept beside it.
- :func:`measure_process` does the same for a whole child process (wall time from launch to
  exit, CPU time of the child from ``resource.getrusage(RUSAGE_CHILDREN)``).
- :func:`machine` prints the load of the machine (``os.getloadavg``) and the CPU count, so a
  figure taken on a busy machine can be read as such: on a shared machine CPU time is the figure
  to compare, wall time says what a user waits.
- :func:`record` appends a row (benchmark, figure, ours, reference, ratio, target) to the JSON
  lines file named by the environment variable ``IAA_BENCH_RECORD``; ``bench/run_all.py`` sets it
  and writes the markdown table of every row.

No figure is extrapolated: a reference that cannot run on the whole input is reported as such
(``ref=None``), never scaled up from a subset.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

RECORD_ENV = "IAA_BENCH_RECORD"


@dataclass
class Timing:
    """CPU and wall seconds of each run of one callable (or process)."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    result: Any = None

    @property
    def repeat(self) -> int:
        return len(self.cpu)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)

    @property
    def wall_median(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_best(self) -> float:
        return min(self.cpu)

    @property
    def wall_best(self) -> float:
        return min(self.wall)

    def __str__(self) -> str:
        return fmt(self)


def measure(fn: Callable[[], Any], repeat: int = 3, warmup: int = 0) -> Timing:
    """Run ``fn`` ``warmup`` times untimed, then ``repeat`` times timed; keep the last result."""
    for _ in range(warmup):
        fn()
    t = Timing()
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        t.result = fn()
        t.wall.append(time.perf_counter() - w0)
        t.cpu.append(time.process_time() - c0)
    return t


def measure_process(
    cmd: Sequence[str],
    repeat: int = 3,
    env: dict[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    timeout: float = 300,
) -> Timing:
    """Run a whole process ``repeat`` times: wall time launch → exit, the child's CPU time.

    ``result`` holds the last run's ``subprocess.CompletedProcess`` (text output captured).
    """
    t = Timing()
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        t.result = subprocess.run(
            list(cmd), capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout
        )
        t.wall.append(time.perf_counter() - w0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        t.cpu.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return t


def fmt(t: Timing) -> str:
    """``cpu 0.123 s, wall 0.130 s (median of 3)``."""
    return (
        f"cpu {t.cpu_median:.3f} s, wall {t.wall_median:.3f} s "
        f"(median of {t.repeat}; best cpu {t.cpu_best:.3f} s)"
    )


def ratio(ref: Timing | float, ours: Timing | float) -> float:
    """How many times faster ours is, on CPU time (the figure to trust on a loaded machine)."""
    r = ref.cpu_median if isinstance(ref, Timing) else ref
    o = ours.cpu_median if isinstance(ours, Timing) else ours
    return r / o if o > 0 else float("inf")


def compare(
    label: str,
    ours: Callable[[], Any],
    ref: Callable[[], Any],
    repeat: int = 3,
    warmup: int = 0,
) -> tuple[Timing, Timing]:
    """Time ours and the reference with the same repeats, alternately, and print both and ratios.

    Runs alternate (ours, ref, ours, ref, …) so a change of machine load hits both sides alike.
    """
    for _ in range(warmup):
        ours()
        ref()
    t_ours, t_ref = Timing(), Timing()
    for _ in range(repeat):
        for fn, t in ((ours, t_ours), (ref, t_ref)):
            c0, w0 = time.process_time(), time.perf_counter()
            t.result = fn()
            t.wall.append(time.perf_counter() - w0)
            t.cpu.append(time.process_time() - c0)
    print(f"  {label}")
    print(f"    ours      {fmt(t_ours)}")
    print(f"    reference {fmt(t_ref)}")
    print(
        f"    ratio reference/ours: cpu {ratio(t_ref, t_ours):.1f}x, "
        f"wall {t_ref.wall_median / max(t_ours.wall_median, 1e-12):.1f}x"
    )
    return t_ours, t_ref


def machine() -> str:
    """Print and return the machine's load (1, 5, 15 min) and CPU count."""
    try:
        load = os.getloadavg()
        text = f"machine: {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    except OSError:
        text = f"machine: {os.cpu_count()} CPUs, load average unavailable"
    print(text, flush=True)
    return text


def record(
    bench: str,
    figure: str,
    ours: Timing | float | None,
    ref: Timing | float | None = None,
    *,
    reference: str = "",
    target: str = "",
    unit: str = "s CPU",
    note: str = "",
) -> None:
    """Append one figure to the run_all table (when ``IAA_BENCH_RECORD`` names a file).

    ``ours``/``ref`` are Timings (their CPU medians are reported, wall beside) or plain numbers
    in ``unit``. ``reference`` names what ``ref`` is (a library, a floor).
    """
    path = os.environ.get(RECORD_ENV)
    if not path:
        return

    def num(t: Timing | float | None) -> float | None:
        if t is None:
            return None
        return t.cpu_median if isinstance(t, Timing) else float(t)

    def wall(t: Timing | float | None) -> float | None:
        return t.wall_median if isinstance(t, Timing) else None

    o, r = num(ours), num(ref)
    row = {
        "bench": bench,
        "figure": figure,
        "ours": o,
        "ours_wall": wall(ours),
        "ref": r,
        "ref_wall": wall(ref),
        "reference": reference,
        "ratio": (r / o) if (o and r is not None) else None,
        "target": target,
        "unit": unit,
        "note": note,
    }
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(row, ensure_ascii=False) + "\n")

"""Run every benchmark of ``bench/`` and write one markdown table of their figures.

    python bench/run_all.py [--out DIR] [--only NAME ...] [--skip NAME ...] [--timeout S]

Each ``bench/bench_*.py`` runs in its own process, one after the other (two at once would time
each other), with ``IAA_BENCH_RECORD`` naming a file where its figures are recorded
(``timing.record``); its output goes to ``DIR/<name>.log``. The table (``DIR/benchmarks.md``,
also printed) lists every figure: ours and the reference in CPU seconds (medians, wall time
beside), their ratio, the target, and the machine's load when the run began and ended. A script
that fails or runs out of time gets a row saying so and the last line it printed. The default
``DIR`` is a new folder under the system's temporary folder: nothing is written in the checkout.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import timing  # noqa: E402


def _num(v: float | None, unit: str = "") -> str:
    if v is None:
        return "–"
    if unit.startswith("ms"):
        return f"{v:.0f}"
    return f"{v:.3f}" if v < 10 else f"{v:.1f}"


def _commit() -> str:
    r = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return r.stdout.strip() or "?"


def table(rows: list[dict], header: list[str]) -> str:
    out = [*header, ""]
    out.append(
        "| benchmark | figure | ours | ours wall | reference | ref. | ratio ref./ours | target | unit |"
    )
    out.append("|---|---|---:|---:|---|---:|---:|---|---|")
    for r in rows:
        ratio = "–" if r.get("ratio") is None else f"{r['ratio']:.1f}×"
        unit = r.get("unit", "s CPU")
        note = f" ({r['note']})" if r.get("note") else ""
        out.append(
            f"| {r['bench']} | {r['figure']}{note} | {_num(r.get('ours'), unit)} | "
            f"{_num(r.get('ours_wall'), unit)} | {r.get('reference') or '–'} | "
            f"{_num(r.get('ref'), unit)} | {ratio} | {r.get('target') or ''} | {unit} |"
        )
    return "\n".join(out) + "\n"


def run_one(script: Path, out: Path, record: Path, timeout: float) -> dict | None:
    """Run one benchmark; a row describing a failure, or None when it ran through."""
    log = out / f"{script.stem}.log"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(
        {
            timing.RECORD_ENV: str(record),
            "QT_QPA_PLATFORM": env.get("QT_QPA_PLATFORM", "offscreen"),
            "MPLBACKEND": env.get("MPLBACKEND", "Agg"),
        }
    )
    print(f"== {script.name} (log: {log})", flush=True)
    t0 = time.perf_counter()
    try:
        with open(log, "w", encoding="utf-8") as f:
            r = subprocess.run(
                [sys.executable, str(script)],
                cwd=ROOT,
                env=env,
                stdout=f,
                stderr=subprocess.STDOUT,
                timeout=timeout,
            )
        status = "ok" if r.returncode == 0 else f"failed (exit {r.returncode})"
    except subprocess.TimeoutExpired:
        status = f"stopped after {timeout:.0f} s"
    took = time.perf_counter() - t0
    print(f"   {status}, {took:.0f} s", flush=True)
    if status == "ok":
        return None
    lines = [ln for ln in log.read_text(encoding="utf-8", errors="replace").splitlines() if ln]
    last = lines[-1][:120].replace("|", "/") if lines else ""
    return {"bench": script.stem.removeprefix("bench_"), "figure": status, "note": last}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="folder for the logs and the table")
    ap.add_argument("--only", nargs="*", default=None, help="run these (e.g. coref report)")
    ap.add_argument("--skip", nargs="*", default=[], help="leave these out")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds per benchmark")
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="iaa_bench_"))
    out.mkdir(parents=True, exist_ok=True)
    scripts = sorted(HERE.glob("bench_*.py"))
    names = {s.stem.removeprefix("bench_"): s for s in scripts}
    chosen = [n for n in names if (args.only is None or n in args.only) and n not in args.skip]
    unknown = sorted(set(args.only or []) - set(names))
    if unknown:
        print(f"no such benchmark: {', '.join(unknown)} (have: {', '.join(names)})")
        return 2
    record = out / "figures.jsonl"
    record.write_text("", encoding="utf-8")
    start = dt.datetime.now().astimezone()
    load_before = timing.machine()
    failures = [row for n in chosen if (row := run_one(names[n], out, record, args.timeout))]
    load_after = timing.machine()
    rows = [json.loads(ln) for ln in record.read_text(encoding="utf-8").splitlines() if ln]
    header = [
        "# iaa_desktop benchmarks",
        "",
        f"Run {start:%Y-%m-%d %H:%M %Z} on commit {_commit()}, Python {platform.python_version()}, "
        f"{platform.machine()}; {load_before} at the start, {load_after.split(', ', 1)[1]} at the end.",
        "CPU time is the figure to compare on a shared machine (medians; both sides of a "
        "comparison ran the same number of times, alternately); wall time beside it. "
        "Ratio = reference / ours (above 1: ours is faster).",
    ]
    text = table(rows + failures, header)
    (out / "benchmarks.md").write_text(text, encoding="utf-8")
    print()
    print(text)
    print(f"table written: {out / 'benchmarks.md'}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())

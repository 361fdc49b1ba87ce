"""The long fuzzing run: ``python -m tests.fuzz.run --per-kind 10000 --jobs 2``.

For every kind of study, ``--per-kind`` cases (seed files of that kind, one mutated, see
:mod:`tests.fuzz.mutate`) each run in a forked child under RLIMIT_AS = 2 GB and a 30 s limit
(:mod:`tests.fuzz.forked`), ``--jobs`` children at once. The figures printed (and written to
``--out`` as JSON): cases and exit statuses per kind, tracebacks, hangs over 30 s, runs over
2 GB, problems naming no file, problems about a whole file (no line), the children's peak
resident memory, the slowest cases, elapsed and CPU time, and the seed that replays each
failure (``--replay KIND:SEED``).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.fuzz import forked
from tests.fuzz.harness import KINDS, Case, make_case, run_case
from tests.fuzz.seeds import SEEDS

COUNTED = ("cases", "traceback", "hang", "memory", "unlocated", "whole_file_problem")


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        return ""


class Tally:
    """The figures of a run, updated as the children finish."""

    def __init__(self, kinds: list[str]) -> None:
        self.stats = {k: collections.Counter() for k in kinds}
        self.failures: list[dict] = []
        self.whole_file: collections.Counter = collections.Counter()
        self.study_level: collections.Counter = collections.Counter()
        self.slowest: list[tuple[float, str, list[str]]] = []
        self.max_rss = 0.0
        self.rss: dict[str, float] = {k: 0.0 for k in kinds}
        self.child_cpu = 0.0

    def add(self, f: forked.Finished) -> None:
        o, case = f.outcome, f.outcome.case
        st = self.stats[case.kind]
        st["cases"] += 1
        st[f"status {o.status}"] += 1
        st["traceback"] += bool(o.traceback)
        st["hang"] += o.hang
        st["memory"] += o.memory
        st["unlocated"] += bool(o.unlocated)
        st["whole_file_problem"] += bool(o.whole_file)
        self.whole_file.update(_shape(m) for m in o.whole_file)
        self.study_level.update(_shape(m) for m in o.study_level)
        self.max_rss = max(self.max_rss, f.max_rss_mb)
        self.rss[case.kind] = max(self.rss[case.kind], f.max_rss_mb)
        self.child_cpu += f.cpu
        entry = (round(o.elapsed, 2), f"{case.kind}:{case.seed}", case.ops)
        self.slowest = sorted([*self.slowest, entry], reverse=True)[:10]
        if o.failed:
            self.failures.append(
                {
                    "replay": f"{case.kind}:{case.seed}",
                    "file": case.mutated,
                    "ops": case.ops,
                    "status": o.status,
                    "elapsed": round(o.elapsed, 2),
                    "traceback": o.traceback[-1500:],
                    "hang": o.hang,
                    "memory": o.memory,
                    "unlocated": o.unlocated[:3],
                }
            )
            what = (
                "hang" if o.hang else "memory" if o.memory else "traceback" if o.traceback else ""
            )
            last = (o.traceback.strip().splitlines() or o.unlocated or [""])[-1][:200]
            # at once, so a long run can be acted on before it ends
            print(f"FAILED {case.kind}:{case.seed} {what} {case.ops} {last}", file=sys.stderr)


def _warm_cases(kinds: list[str], root: Path) -> list[Case]:
    """The unmutated seeds of every variant of ``kinds`` (to import what the readers use)."""
    from tests.fuzz.seeds import write_seeds

    cases = []
    for kind in kinds:
        for v in range(len(SEEDS[kind])):
            folder = root / f"warm-{kind}-{v}"
            folder.mkdir(parents=True)
            argv = ["report", *write_seeds(kind, v, folder), "--json", str(folder / "r.json")]
            cases.append(Case(kind, -1, folder, [*argv, "--quiet"]))
    return cases


def run(
    kinds: list[str],
    per_kind: int,
    seed0: int,
    jobs: int,
    out: Path | None,
    stop_after: float | None = None,
) -> int:
    commit = _commit()  # the code the children run (imported now, before the first fork)
    root = Path(tempfile.mkdtemp(prefix="iaa-fuzz-"))
    forked.warm_up(_warm_cases(kinds, root))
    tally = Tally(kinds)
    t_start, cpu0 = time.time(), time.process_time()
    # the kinds in turn, so a run stopped by --stop-after has covered every kind alike
    todo = [(kind, seed0 * 1_000_000 + n) for n in range(per_kind) for kind in kinds]
    stopped = False
    running: list[forked.Child] = []
    n_done = 0
    while todo or running:
        if stop_after is not None and time.time() - t_start > stop_after and todo:
            stopped, todo = True, []
        while todo and len(running) < jobs:
            running.append(forked.start(make_case(*todo.pop(0), root)))
        for f in forked.wait_some(running):
            tally.add(f)
            shutil.rmtree(f.outcome.case.folder, ignore_errors=True)
            n_done += 1
            if n_done % 500 == 0:
                print(
                    f"{n_done}/{per_kind * len(kinds)}  ({f.outcome.case.kind})  failures so "
                    f"far {len(tally.failures)}  {time.time() - t_start:,.0f} s  "
                    f"children's max RSS {tally.max_rss:,.0f} MB",
                    file=sys.stderr,
                    flush=True,
                )
    shutil.rmtree(root, ignore_errors=True)
    report = _report(tally, kinds, per_kind, jobs, time.time() - t_start, cpu0)
    report["stopped_by_time_limit"] = stopped
    report["commit"] = commit
    text = json.dumps(report, ensure_ascii=False, indent=2)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
    print(json.dumps(report["totals"]), file=sys.stderr)
    for k, v in tally.stats.items():
        print(k, dict(v), file=sys.stderr)
    print(
        f"elapsed {report['elapsed_s']} s, CPU {report['cpu_s']} s, children's max RSS "
        f"{report['max_rss_child_mb']} MB, slowest {report['slowest'][:3]}",
        file=sys.stderr,
    )
    return 1 if tally.failures else 0


def _report(tally: Tally, kinds, per_kind: int, jobs: int, elapsed: float, cpu0: float) -> dict:
    return {
        "commit": _commit(),
        "per_kind_requested": per_kind,
        "jobs": jobs,
        "kinds": kinds,
        "per_kind": {k: dict(v) for k, v in tally.stats.items()},
        "totals": {key: sum(v[key] for v in tally.stats.values()) for key in COUNTED},
        "max_rss_child_mb": round(tally.max_rss),
        "max_rss_child_mb_per_kind": {k: round(v) for k, v in tally.rss.items()},
        "max_rss_parent_mb": round(_rss_mb()),
        "slowest": tally.slowest,
        "whole_file_messages": tally.whole_file.most_common(),
        "study_level_messages": tally.study_level.most_common(),
        "failures": tally.failures[:200],
        "n_failures": len(tally.failures),
        "elapsed_s": round(elapsed),
        "cpu_s": round(time.process_time() - cpu0 + tally.child_cpu),
        "cpu_children_s": round(tally.child_cpu),
    }


def _shape(msg: str) -> str:
    """A message with its numbers and quoted parts blanked, so the distinct kinds can be counted."""
    import re

    msg = re.sub(r"'[^']*'", "'…'", msg)
    return re.sub(r"\d+", "N", msg)[:160]


def replay(spec: str) -> int:
    kind, seed = spec.split(":")
    root = Path(tempfile.mkdtemp(prefix="iaa-fuzz-"))
    # forked first: a child forked after this process ran the PDF typesetter would inherit its
    # thread pool's state without its threads, and wait for them for ever
    f = forked.run_forked(make_case(kind, int(seed), root))
    case = make_case(kind, int(seed), root)
    o = run_case(case)
    print(f"{case.folder}  file={case.mutated}  ops={case.ops}  argv={case.argv}")
    print(f"status={o.status} elapsed={o.elapsed:.2f}s hang={o.hang} memory={o.memory}")
    print(o.stderr[-3000:])
    print(o.traceback)
    print(
        f"forked under the limits: status={f.outcome.status} hang={f.outcome.hang} "
        f"memory={f.outcome.memory} max RSS {f.max_rss_mb:,.0f} MB"
    )
    return 1 if o.failed or f.outcome.failed else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--per-kind", type=int, default=100)
    p.add_argument("--kinds", default=",".join(KINDS))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="children running at once")
    p.add_argument("--out", type=Path)
    p.add_argument("--stop-after", type=float, help="start no case after this many seconds")
    p.add_argument("--replay", metavar="KIND:SEED")
    p.add_argument(
        "--time-limit", type=float, default=30.0, help="seconds after which a case is a hang"
    )
    ns = p.parse_args(argv)
    from tests.fuzz import forked, harness

    harness.TIME_LIMIT, forked.KILL_AFTER = ns.time_limit, ns.time_limit + 10.0
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    if ns.replay:
        return replay(ns.replay)
    return run(ns.kinds.split(","), ns.per_kind, ns.seed, ns.jobs, ns.out, ns.stop_after)


if __name__ == "__main__":
    sys.exit(main())

"""The long fuzzing run: ``python -m tests.fuzz.run --per-kind 10000``.

For every kind of study, ``--per-kind`` cases (seed files of that kind, one mutated, see
:mod:`tests.fuzz.mutate`) are run in this process for speed; every case that took long, that
used an expensive mutation, or that a random draw picks (``--sample``) is run again as its own
process under RLIMIT_AS = 2 GB and a 30 s timeout. The figures printed (and written to
``--out`` as JSON): cases, tracebacks, hangs over 30 s, runs over 2 GB, problems naming no file,
problems about a whole file (no line), and the distinct messages of each, with the seed that
replays a failure (``--replay KIND:SEED``).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from tests.fuzz.harness import KINDS, Outcome, make_case, run_case, run_case_subprocess

EXPENSIVE = ("long_line", "long_cell", "many_fields", "huge_number")


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(kinds: list[str], per_kind: int, seed0: int, sample: float, out: Path | None) -> int:
    root = Path(tempfile.mkdtemp(prefix="iaa-fuzz-"))
    rng = random.Random(seed0)
    stats: dict[str, collections.Counter] = {k: collections.Counter() for k in kinds}
    failures: list[dict] = []
    whole_file: collections.Counter = collections.Counter()
    study_level: collections.Counter = collections.Counter()
    slowest: list[tuple[float, str]] = []
    t_start = time.time()
    for kind in kinds:
        for n in range(per_kind):
            seed = seed0 * 1_000_000 + n
            case = make_case(kind, seed, root)
            o = run_case(case)
            risky = o.elapsed > 5 or any(op.split(":")[-1] in EXPENSIVE for op in case.ops)
            sub: Outcome | None = None
            if risky or rng.random() < sample:
                sub = run_case_subprocess(make_case(kind, seed, root))
                stats[kind]["subprocess"] += 1
            st = stats[kind]
            st["cases"] += 1
            st[f"status {o.status}"] += 1
            st["traceback"] += bool(o.traceback) or bool(sub and sub.traceback)
            st["hang"] += o.hang or bool(sub and sub.hang)
            st["memory"] += o.memory or bool(sub and sub.memory)
            st["unlocated"] += bool(o.unlocated)
            whole_file.update(_shape(m) for m in o.whole_file)
            study_level.update(_shape(m) for m in o.study_level)
            slowest = sorted([*slowest, (o.elapsed, f"{kind}:{seed}")], reverse=True)[:5]
            for which in (o, sub):
                if which is not None and which.failed:
                    failures.append(
                        {
                            "replay": f"{kind}:{seed}",
                            "in_process": which is o,
                            "file": case.mutated,
                            "ops": case.ops,
                            "status": which.status,
                            "elapsed": round(which.elapsed, 2),
                            "traceback": which.traceback[-1500:],
                            "hang": which.hang,
                            "memory": which.memory,
                            "unlocated": which.unlocated[:3],
                        }
                    )
            shutil.rmtree(case.folder, ignore_errors=True)
            if (n + 1) % 200 == 0:
                print(
                    f"{kind}: {n + 1}/{per_kind}  failures so far {len(failures)}  "
                    f"{time.time() - t_start:,.0f} s  max RSS {_rss_mb():,.0f} MB",
                    file=sys.stderr,
                    flush=True,
                )
    shutil.rmtree(root, ignore_errors=True)
    report = {
        "per_kind": {k: dict(v) for k, v in stats.items()},
        "totals": {
            key: sum(v[key] for v in stats.values())
            for key in ("cases", "subprocess", "traceback", "hang", "memory", "unlocated")
        },
        "max_rss_in_process_mb": round(_rss_mb()),
        "slowest": slowest,
        "whole_file_messages": whole_file.most_common(),
        "study_level_messages": study_level.most_common(),
        "failures": failures[:200],
        "seconds": round(time.time() - t_start),
    }
    text = json.dumps(report, ensure_ascii=False, indent=2)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
    print(json.dumps(report["totals"]), file=sys.stderr)
    for k, v in stats.items():
        print(k, dict(v), file=sys.stderr)
    return 1 if failures else 0


def _shape(msg: str) -> str:
    """A message with its numbers and quoted parts blanked, so the distinct kinds can be counted."""
    import re

    msg = re.sub(r"'[^']*'", "'…'", msg)
    return re.sub(r"\d+", "N", msg)[:160]


def replay(spec: str) -> int:
    kind, seed = spec.split(":")
    root = Path(tempfile.mkdtemp(prefix="iaa-fuzz-"))
    case = make_case(kind, int(seed), root)
    o = run_case(case)
    print(f"{case.folder}  file={case.mutated}  ops={case.ops}  argv={case.argv}")
    print(f"status={o.status} elapsed={o.elapsed:.2f}s hang={o.hang} memory={o.memory}")
    print(o.stderr[-3000:])
    print(o.traceback)
    return 1 if o.failed else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--per-kind", type=int, default=100)
    p.add_argument("--kinds", default=",".join(KINDS))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sample", type=float, default=0.01, help="share also run as a subprocess")
    p.add_argument("--out", type=Path)
    p.add_argument("--replay", metavar="KIND:SEED")
    ns = p.parse_args(argv)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if ns.replay:
        return replay(ns.replay)
    return run(ns.kinds.split(","), ns.per_kind, ns.seed, ns.sample, ns.out)


if __name__ == "__main__":
    sys.exit(main())

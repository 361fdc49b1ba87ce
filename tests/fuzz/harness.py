"""Run the command-line report on mutated inputs and judge what happened.

A case passes when the command ends with status 0, 1 or 2, no Python traceback escapes (no
"internal error"), every problem it reports names its file (and its line, unless the problem
concerns the whole file), and it stays within 30 s and 2 GB. :func:`run_case` runs in-process
(fast); :func:`run_case_subprocess` runs the same case as a separate process under
``RLIMIT_AS`` = 2 GB and a 30 s timeout, for the limits themselves.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from tests.fuzz.mutate import mutate, mutate_archive, mutate_xlsx, mutate_xml
from tests.fuzz.seeds import SEEDS, write_seeds

TIME_LIMIT = 30.0
MEMORY_LIMIT = 2 * 1024**3
KINDS = tuple(SEEDS)
_LOCATED = re.compile(r"^(?P<path>.+?)(?:, line (?P<line>\d+))?: ")
_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


class Hang(BaseException):
    """Raised by the alarm when a case runs longer than :data:`TIME_LIMIT` (not an Exception,
    so no ``except Exception`` in the application swallows it)."""


@dataclass
class Case:
    kind: str
    seed: int
    folder: Path
    argv: list[str]
    mutated: str = ""
    ops: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    case: Case
    status: int | None = None
    elapsed: float = 0.0
    traceback: str = ""
    hang: bool = False
    memory: bool = False
    unlocated: list[str] = field(default_factory=list)  # problems that name no file
    whole_file: list[str] = field(default_factory=list)  # problems about a whole file (no line)
    study_level: list[str] = field(default_factory=list)  # errors about the study, not a file
    stderr: str = ""

    @property
    def failed(self) -> bool:
        return bool(
            self.traceback
            or self.hang
            or self.memory
            or self.unlocated
            or self.status not in (0, 1, 2)
        )


def make_case(kind: str, seed: int, root: Path) -> Case:
    """Seed files of ``kind`` in a fresh folder, one of them mutated by ``seed``."""
    rng = random.Random(seed)
    folder = root / f"{kind}-{seed}"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    argv = write_seeds(kind, rng.randrange(1000), folder)
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    target = rng.choice(files)
    data = target.read_bytes()
    if rng.random() < 0.08:  # a file missing, or renamed (documents no longer pair by name)
        if rng.random() < 0.5:
            target.unlink()
            return _case(kind, seed, folder, argv, target, ["delete_file"], rng)
        target.rename(target.with_name("renamed_" + target.name))
        return _case(kind, seed, folder, argv, target, ["rename_file"], rng)
    if target.suffix == ".xlsx":
        new, ops = mutate_xlsx(data, rng)
    elif target.suffix == ".zip":
        new, ops = mutate_archive(data, rng)
    elif target.suffix in (".xmi", ".xml"):
        new, ops = mutate_xml(data, rng)
    else:
        new, ops = mutate(data, rng)
    target.write_bytes(new)
    return _case(kind, seed, folder, argv, target, ops, rng)


def _case(
    kind: str, seed: int, folder: Path, argv: list[str], target: Path, ops: list[str], rng
) -> Case:
    out = folder / "out"
    argv = ["report", *argv, "--json", str(out / "result.json"), "--quiet"]
    if rng.random() < 0.3:
        argv += ["--csv", str(out / "csv")]
    # IAA_FUZZ_PDF=share: that share of the cases also write the PDF report (the typesetter
    # sees the mutated names and labels); unset, the cases (and their seeds) are as before
    pdf_share = float(os.environ.get("IAA_FUZZ_PDF", "0") or 0)
    if pdf_share and rng.random() < pdf_share:
        argv += ["--pdf", str(out / "report.pdf")]
    return Case(kind, seed, folder, argv, str(target.relative_to(folder)), ops)


def judge_messages(outcome: Outcome, stderr: str) -> None:
    """Sort the reported problems: located (file and line), whole-file, study-level, unlocated."""
    folder = str(outcome.case.folder)
    for line in stderr.splitlines():
        m = re.match(r"iaa-desktop: (error|warning): (.*)$", line)
        if m is None:
            if folder in line and not line.startswith(" "):
                continue  # a further line of a multi-line message naming a file
            continue
        level, msg = m.groups()
        loc = _LOCATED.match(msg)
        names_file = loc is not None and folder in loc.group("path")
        if "internal error" in msg or "could not be typeset" in msg:
            outcome.traceback = outcome.traceback or msg
        elif names_file and loc is not None and loc.group("line") is None:
            outcome.whole_file.append(msg[len(loc.group(0)) :])
        elif names_file:
            continue
        elif level == "error" and _is_study_level(msg):
            outcome.study_level.append(msg)
        elif level == "error":
            outcome.unlocated.append(msg)


def _is_study_level(msg: str) -> bool:
    """Errors about the study as a whole (too few annotators, nothing in common): they name no
    file because no single file is wrong."""
    text = msg.lower()
    return any(
        k in text
        for k in (
            "agreement cannot be computed",
            "annotator",
            "no token",
            "no item",
            "no valid annotation",
            "no annotation",
            "no label",
            "none of the inputs could be read",
            "no pairs table",
            "no labels were given",
            "no coreference documents",
            "labels is more than",
            "the label order",
            "two or more",
            "no table files",
            "kappa",
            "κ",
            "needs numeric labels",
        )
    )


def _on_alarm(signum, frame):
    raise Hang()


def run_case(case: Case) -> Outcome:
    """The case in this process (``IAA_DEBUG=1``: a bug raises instead of printing one line)."""
    from iaa_desktop.cli import main as cli_main

    outcome = Outcome(case)
    err, out = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _on_alarm)
    os.environ["IAA_DEBUG"] = "1"
    t0 = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        with (
            contextlib.redirect_stderr(err),
            contextlib.redirect_stdout(out),
            warnings.catch_warnings(),
        ):
            # a warning from numpy or pandas marks an edge case the code did not handle; the
            # user would see it printed: it counts as a failure, like a traceback
            warnings.simplefilter("error")
            warnings.simplefilter("ignore", DeprecationWarning)  # libraries' own, at import
            warnings.simplefilter("ignore", PendingDeprecationWarning)
            outcome.status = cli_main(case.argv)
    except Hang:
        outcome.hang = True
    except MemoryError:
        outcome.memory = True
    except SystemExit as e:  # argparse: a wrong command line is status 2
        outcome.status = e.code if isinstance(e.code, int) else 2
    except BaseException:  # noqa: BLE001  (every escape is what the fuzzer looks for)
        outcome.traceback = traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        os.environ.pop("IAA_DEBUG", None)
    outcome.elapsed = time.perf_counter() - t0
    outcome.hang = outcome.hang or outcome.elapsed > TIME_LIMIT
    outcome.stderr = err.getvalue()
    judge_messages(outcome, outcome.stderr)
    return outcome


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_case_subprocess(case: Case, cwd: Path | None = None) -> Outcome:
    """The case as its own process under RLIMIT_AS = 2 GB and a 30 s timeout."""
    outcome = Outcome(case)
    env = {**os.environ, **_ENV}
    env.pop("IAA_DEBUG", None)
    t0 = time.perf_counter()
    try:
        r = subprocess.run(
            [sys.executable, "-m", "iaa_desktop", *case.argv],
            capture_output=True,
            text=True,
            timeout=TIME_LIMIT,
            preexec_fn=_limit,
            env=env,
            cwd=cwd,
        )
    except subprocess.TimeoutExpired:
        outcome.hang = True
        outcome.elapsed = time.perf_counter() - t0
        return outcome
    outcome.elapsed = time.perf_counter() - t0
    outcome.status = r.returncode
    outcome.stderr = r.stderr
    if "MemoryError" in r.stderr or r.returncode in (-9, 137) or "Cannot allocate" in r.stderr:
        outcome.memory = True
    if "Traceback" in r.stderr:
        outcome.traceback = r.stderr[-2000:]
    judge_messages(outcome, r.stderr)
    return outcome

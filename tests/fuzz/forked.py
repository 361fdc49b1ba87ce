"""Every fuzz case in a forked child under the resource limits, for a few milliseconds of fork.

The parent imports the application once (:func:`warm_up`); each case then runs in a child made
by ``os.fork``, which sets ``RLIMIT_AS`` = 2 GB, runs :func:`tests.fuzz.harness.run_case` (its
own 30 s alarm included) and sends the outcome back through a pipe as JSON. The parent waits on
the pipes of up to ``jobs`` children at once and kills a child that outlives the time limit
(a hang in C code, where the alarm cannot interrupt). ``os.wait4`` gives each child's peak
resident memory and CPU time.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import sys
import time
from dataclasses import dataclass, field

from tests.fuzz.harness import MEMORY_LIMIT, TIME_LIMIT, Case, Outcome, run_case

#: the parent's grace beyond the child's own alarm before it kills the child
KILL_AFTER = TIME_LIMIT + 10.0
_FIELDS = ("status", "elapsed", "traceback", "hang", "memory", "unlocated", "whole_file")
_FIELDS += ("study_level", "stderr")


@dataclass
class Child:
    case: Case
    pid: int
    fd: int
    t0: float
    data: bytearray = field(default_factory=bytearray)
    eof: bool = False


@dataclass
class Finished:
    outcome: Outcome
    max_rss_mb: float
    cpu: float


def warm_up(cases: list[Case]) -> None:
    """Run ``cases`` in this process so the children start with every module imported."""
    for case in cases:
        run_case(case)


def start(case: Case) -> Child:
    """Fork a child that runs ``case`` under the limits and writes its outcome to a pipe."""
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 0
        try:
            os.close(r)
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
            o = run_case(case)
            payload = {k: getattr(o, k) for k in _FIELDS}
            payload["stderr"] = payload["stderr"][-20_000:]
            payload["traceback"] = payload["traceback"][-20_000:]
            data = json.dumps(payload).encode()
            view = memoryview(data)
            while view:
                view = view[os.write(w, view) :]
        except BaseException:  # noqa: BLE001  (the parent reports a child that sent nothing)
            code = 70
        finally:
            os._exit(code)
    os.close(w)
    return Child(case, pid, r, time.perf_counter())


def _finish(child: Child, killed: bool) -> Finished:
    os.close(child.fd)
    _, status, usage = os.wait4(child.pid, 0)
    o = Outcome(child.case)
    o.elapsed = time.perf_counter() - child.t0
    if killed:
        o.hang = True
    elif child.data:
        for k, v in json.loads(child.data.decode()).items():
            setattr(o, k, v)
    elif os.WIFSIGNALED(status):
        o.traceback = f"the child died of signal {os.WTERMSIG(status)}"
        o.memory = os.WTERMSIG(status) == signal.SIGKILL  # the kernel's out-of-memory killer
    else:
        o.traceback = f"the child ended with status {os.WEXITSTATUS(status)} and no outcome"
    return Finished(o, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)


def wait_some(children: list[Child], timeout: float = 1.0) -> list[Finished]:
    """Read from the running children; those that ended (or overran, killed) leave the list."""
    done: list[Finished] = []
    if not children:
        return done
    ready, _, _ = select.select([c.fd for c in children], [], [], timeout)
    for c in list(children):
        if c.fd in ready:
            chunk = os.read(c.fd, 1 << 16)
            if chunk:
                c.data += chunk
            else:
                c.eof = True
        overran = time.perf_counter() - c.t0 > KILL_AFTER
        if c.eof or overran:
            if overran and not c.eof:
                os.kill(c.pid, signal.SIGKILL)
            children.remove(c)
            done.append(_finish(c, killed=overran and not c.eof))
    return done


def run_forked(case: Case) -> Finished:
    """One case in a child, waited for (the brief test and ``--replay --forked``)."""
    children = [start(case)]
    while True:
        done = wait_some(children)
        if done:
            return done[0]

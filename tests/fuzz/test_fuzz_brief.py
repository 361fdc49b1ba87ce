"""A brief run of the reader fuzzer (the long run: ``python -m tests.fuzz.run --per-kind 10000``).

Every kind's seed inputs, mutated by a fixed set of seeds, must end with status 0, 1 or 2, with
no traceback, no problem that names no file, and within the limits (a few cases also as their
own process under RLIMIT_AS = 2 GB and a 30 s timeout).
"""

from __future__ import annotations

import pytest

from tests.fuzz.harness import KINDS, make_case, run_case, run_case_subprocess

N_PER_KIND = 12


@pytest.mark.parametrize("kind", KINDS)
def test_mutated_inputs_end_cleanly(kind, tmp_path):
    bad = []
    for seed in range(N_PER_KIND):
        o = run_case(make_case(kind, 7_000 + seed, tmp_path))
        if o.failed:
            bad.append((seed, o.case.ops, o.status, o.traceback[-600:], o.unlocated[:2], o.hang))
    assert not bad, bad


@pytest.mark.parametrize("kind", ["table", "coref", "multilabel"])
def test_a_case_under_the_resource_limits(kind, tmp_path):
    o = run_case_subprocess(make_case(kind, 9_000, tmp_path))
    assert not o.failed, (o.status, o.stderr[-2000:])

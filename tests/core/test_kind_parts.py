"""A kind's code is reached through its spec: one function of its package imports its modules when
a part is first needed, once; the registry itself imports none of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from iaa_desktop.core.kinds import KINDS
from iaa_desktop.core.kinds.spec import KindParts

ROOT = Path(__file__).resolve().parents[2]


def test_the_registry_imports_no_module_of_a_kind() -> None:
    code = (
        "import sys\n"
        "import iaa_desktop.core.kinds as k\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('iaa_desktop.core.kinds.')"
        " and m.count('.') > 3)\n"
        "print(loaded)\n"
        "k.KINDS['durel'].report\n"
        "print('iaa_desktop.core.kinds.durel.compare' in sys.modules)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    before, after = r.stdout.splitlines()
    assert before == "[]"  # no kind's compare, report, reader, … at registry time
    assert after == "True"  # the first part asked for brings the kind's code


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_parts_are_made_once_and_are_the_specs(name: str) -> None:
    spec = KINDS[name]
    parts = spec.loaded
    assert isinstance(parts, KindParts) and spec.loaded is parts
    assert spec.kind is parts.comparison and spec.report is parts.report
    assert (spec.methods, spec.summary, spec.adjudication) == (
        parts.methods,
        parts.summary,
        parts.adjudication,
    )
    assert (spec.gold_units, spec.survey, spec.arrange) == (
        parts.gold_units,
        parts.survey,
        parts.arrange,
    )

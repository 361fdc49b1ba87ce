"""Child process of the kill test: record decisions in a loop, acknowledge each after its commit.

Usage: ``python tests/adjudication_kill_child.py STORE N``. Prints ``ready`` once the store is
open, then ``ack K`` after decision K is committed (the way the window acknowledges a decision
only after :meth:`AdjudicationStore.apply` returned). Runs until killed or N decisions are made.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from iaa_desktop.core.adjudication.changes import Decide, Decision, now_iso  # noqa: E402
from iaa_desktop.core.adjudication.store import AdjudicationStore  # noqa: E402


def main() -> int:
    path, n = sys.argv[1], int(sys.argv[2])
    store = AdjudicationStore.open(path)
    print("ready", flush=True)
    current: dict[str, Decision] = {}
    for k in range(n):
        unit = f"u{k % 997}"
        new = Decision("typed", f"value {k}", f"note {k}", now_iso())
        store.apply(Decide(unit, current.get(unit), new), {"A": str(k)})
        current[unit] = new
        sys.stdout.write(f"ack {k} {unit}\n")
        sys.stdout.flush()
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

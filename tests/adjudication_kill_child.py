"""Child process of the kill tests: record decisions in a loop, acknowledge each after its commit.

Usage: ``python tests/adjudication_kill_child.py STORE N [gui]``. Prints ``ready`` once the store
is open, then ``ack K UNIT`` after decision K is committed. Without ``gui`` it calls
:meth:`AdjudicationStore.apply` directly; with ``gui`` it drives the real adjudication panel
(offscreen) by pressing ``1`` and acknowledges when the panel signals the decision, i.e. what the
window shows as done. Runs until killed or N decisions are made.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from iaa_desktop.core.adjudication.changes import Decide, Decision, now_iso
from iaa_desktop.core.adjudication.store import AdjudicationStore


def main_gui(path: str, n: int) -> int:
    import os

    import numpy as np

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from iaa_desktop.core.adjudication import AdjudicationModel, AdjudicationSession
    from iaa_desktop.gui.adjudication import AdjudicationPanel

    app = QApplication([])
    m = 5000
    versions = np.array([[f"a{k}", f"b{k}"] for k in range(m)], dtype=object)
    model = AdjudicationModel(("A", "B"), [f"u{k}" for k in range(m)], versions)
    session = AdjudicationSession(model, AdjudicationStore.open(path), seed=0)
    panel = AdjudicationPanel(session)
    count = [0]

    def ack(i: int) -> None:
        sys.stdout.write(f"ack {count[0]} {model.keys[i]} {session.gold[i]}\n")
        sys.stdout.flush()
        count[0] += 1

    panel.decided.connect(ack)
    panel.show()
    print("ready", flush=True)
    for _ in range(min(n, m)):
        QTest.keyClick(panel.queue_view, Qt.Key.Key_1)
        app.processEvents()
    panel.close_store()
    return 0


def main() -> int:
    path, n = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3 and sys.argv[3] == "gui":
        return main_gui(path, n)
    store = AdjudicationStore.open(path)
    print("ready", flush=True)
    current: dict[str, Decision] = store.decisions()  # a store reopened after an earlier kill
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

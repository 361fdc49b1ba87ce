"""The adjudication panel's *Bulk* menu: decisions on many units at once, each action one step
to undo (see :mod:`iaa_desktop.core.adjudication.bulk`)."""

from __future__ import annotations

from functools import partial
from typing import Any

from PySide6.QtWidgets import QMenu, QMessageBox

from iaa_desktop.core.adjudication import bulk


class BulkMenu(QMenu):
    """Rebuilt when it opens, for the unit shown."""

    def __init__(self, panel: Any) -> None:
        super().__init__(panel)
        self.panel = panel
        self.confirm = True  # tests switch the question off
        self.aboutToShow.connect(self._rebuild)

    def _rebuild(self) -> None:
        self.clear()
        p = self.panel
        s = p.session
        self.addAction("Accept every unit the annotators agree on", self.accept_unanimous)
        i = p.current
        if i is None:
            return
        names = s.display_names()
        group = s.model.groups[i]
        for pos, x in enumerate(s.annotator_order):
            a = s.model.annotators[x]
            if group:
                self.addAction(
                    f"Take {names[pos]}'s version for every open unit of {group}",
                    partial(self.take, a, "group"),
                )
            self.addAction(
                f"Take {names[pos]}'s version for every open unit disagreeing like this one",
                partial(self.take, a, "same"),
            )

    def _ask(self, n: int, what: str) -> bool:
        if not self.confirm:
            return True
        if n == 0:
            QMessageBox.information(self.panel, "Bulk decision", "No open unit is concerned.")
            return False
        answer = QMessageBox.question(
            self.panel,
            "Bulk decision",
            f"{what}: decide {n:,} unit(s)? (One step to undo.)",
        )
        return answer == QMessageBox.StandardButton.Yes

    def accept_unanimous(self) -> bool:
        s = self.panel.session
        changes = bulk.accept_unanimous(s, note=self.panel.note_edit.text().strip())
        if not self._ask(len(changes), "Accept the agreed version"):
            return False
        return self.panel.push_bulk(changes, f"accept {len(changes)} unanimous units")

    def take(self, annotator: str, scope: str) -> bool:
        """Take ``annotator``'s version for the open units of the current unit's group
        (``scope='group'``) or disagreeing the same way (``'same'``)."""
        p = self.panel
        s = p.session
        if p.current is None:
            return False
        units = (
            bulk.same_group(s, p.current)
            if scope == "group"
            else bulk.same_disagreement(s, p.current)
        )
        changes = bulk.take_version(s, annotator, units, note=p.note_edit.text().strip())
        shown = s.names_by_column()[s.model.annotators.index(annotator)]
        if not self._ask(len(changes), f"Take {shown}'s version"):
            return False
        return p.push_bulk(changes, f"{shown}'s version for {len(changes)} units")

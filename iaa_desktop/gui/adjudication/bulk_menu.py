"""The adjudication panel's *Bulk* menu: decisions on many units at once, each action one step
to undo (see :mod:`iaa_desktop.core.adjudication.bulk`)."""

from __future__ import annotations

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
                    lambda a=a: self.take(a, "group"),
                )
            self.addAction(
                f"Take {names[pos]}'s version for every open unit disagreeing like this one",
                lambda a=a: self.take(a, "same"),
            )

    def _split(self, changes: list) -> tuple[int, int, int]:
        """(units still to decide, units merged automatically already, of which with the same
        value) among the units ``changes`` decide."""
        s = self.panel.session
        index = s.model.index
        autos = [s.auto_value(int(index[c.unit])) for c in changes]
        merged = sum(a is not None for a in autos)
        same = sum(a is not None and a == c.new.value for a, c in zip(autos, changes))
        return len(changes) - merged, merged, same

    def _what(self, changes: list) -> str:
        open_, merged, same = self._split(changes)
        text = f"{len(changes):,} unit(s): {open_:,} still to decide"
        if merged:
            text += f", {merged:,} merged automatically already" + (
                f" ({same:,} with this same value, which is only recorded as a decision)"
            ) * bool(same)
        return text

    def _ask(self, changes: list, what: str) -> bool:
        """Say what the action will do (units already merged automatically included) and ask."""
        if not changes:
            QMessageBox.information(
                self.panel,
                "Bulk decision",
                f"{what}: no unit is concerned (units decided by hand are left alone).",
            )
            return False
        if not self.confirm:
            return True
        answer = QMessageBox.question(
            self.panel,
            "Bulk decision",
            f"{what}: {self._what(changes)}.\n\nDecide them? (One step to undo.)",
        )
        return answer == QMessageBox.StandardButton.Yes

    def _push(self, changes: list, what: str, step: str) -> bool:
        """Commit ``changes`` as one step and say what was done."""
        open_before = int((~self.panel.session.resolved_mask()).sum())
        summary = self._what(changes)
        ok = self.panel.push_bulk(changes, step)
        if ok:
            newly = open_before - int((~self.panel.session.resolved_mask()).sum())
            self.panel.toolbar.set_notice(
                f"{what}: decided {summary}; {newly:,} unit(s) newly resolved. Ctrl+Z undoes it."
            )
        return ok

    def accept_unanimous(self) -> bool:
        s = self.panel.session
        changes = bulk.accept_unanimous(s, note=self.panel.note_edit.text().strip())
        what = "Accept every unit the annotators agree on"
        if not self._ask(changes, what):
            return False
        return self._push(changes, what, f"accept {len(changes)} unanimous units")

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
        what = f"Take {shown}'s version"
        if not self._ask(changes, what):
            return False
        return self._push(changes, what, f"{shown}'s version for {len(changes)} units")

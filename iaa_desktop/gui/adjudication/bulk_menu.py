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
        self._add_form_actions(i)

    #: treatments of a form offered at most (the most frequent first)
    MAX_FORM_TREATMENTS = 9

    def _add_form_actions(self, i: int) -> None:
        """One action per treatment the current unit's form received anywhere: every occurrence
        of the form decided that way at once."""
        m = self.panel.session.model
        form = m.form(i)
        if not form:
            return
        n = len(m.units_of_form(m.form_key(i)))
        self.addSeparator()
        for t in m.form_treatments(i)[: self.MAX_FORM_TREATMENTS]:
            self.addAction(
                f"Treat every occurrence of ‘\u2068{form}\u2069’ ({n:,}) as \u2068{t}\u2069",
                partial(self.decide_form, t),
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

    def decide_form(self, treatment: str) -> bool:
        """Every occurrence of the current unit's form decided as ``treatment`` in one step; the
        occurrences decided one by one are left as they are unless the user includes them."""
        p = self.panel
        s = p.session
        i = p.current
        if i is None:
            return False
        note = p.note_edit.text().strip()
        form = s.model.form(i)
        changes, kept = bulk.decide_form(s, i, treatment, note=note)
        what = f"Treat every occurrence of ‘\u2068{form}\u2069’ as \u2068{treatment}\u2069"
        if kept:
            include = self._ask_include(changes, kept, what)
            if include is None:
                return False
            if include:
                changes, _ = bulk.decide_form(s, i, treatment, include_decided=True, note=note)
        elif not self._ask(changes, what):
            return False
        return self._push(changes, what, f"‘{form}’ as {treatment}: {len(changes)} units")

    def _ask_include(self, changes: list, kept: int, what: str) -> bool | None:
        """Whether to include the occurrences decided one by one (None: cancelled)."""
        if not self.confirm:
            return False
        box = QMessageBox(self.panel)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Decide a form once")
        box.setText(
            f"{what}: {self._what(changes) if changes else 'no open unit'}.\n\n"
            f"{kept:,} occurrence(s) already decided one by one stay as they are, unless you "
            "include them. (One step to undo.)"
        )
        open_only = box.addButton(
            f"Decide the {len(changes):,} open", QMessageBox.ButtonRole.AcceptRole
        )
        everything = box.addButton(
            f"Include the {kept:,} decided too", QMessageBox.ButtonRole.AcceptRole
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(open_only)
        box.exec()
        clicked = box.clickedButton()
        if clicked is everything:
            return True
        if clicked is open_only and changes:
            return False
        return None

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

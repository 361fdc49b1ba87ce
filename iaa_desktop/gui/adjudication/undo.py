"""Qt's undo stack as a thin adapter over the core's invertible changes.

A :class:`DecisionCommand` holds the :class:`~iaa_desktop.core.adjudication.changes.Decide`
changes of one step (one decision, or a bulk action); redo applies them, undo applies their
inverses in reverse order, both through the same ``apply`` callable (which commits to the store
and refreshes the panel), then ``reveal`` shows the unit changed. A step enters the stack only
after it was committed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand, QUndoStack

from iaa_desktop.core.adjudication import Decide

Apply = Callable[[Sequence[Decide]], bool]
Reveal = Callable[[Sequence[Decide]], None]


def _no_reveal(_changes: Sequence[Decide]) -> None:
    return None


class DecisionCommand(QUndoCommand):
    """One undo step over core changes (redo = apply, undo = apply the inverses)."""

    def __init__(
        self, apply: Apply, changes: Sequence[Decide], text: str, reveal: Reveal = _no_reveal
    ) -> None:
        super().__init__(text)
        self._apply = apply
        self._reveal = reveal
        self.changes = list(changes)
        self._first = True  # applied already when pushed (a failure never enters the stack)

    @property
    def change(self) -> Decide:
        return self.changes[0]

    def redo(self) -> None:
        if self._first:
            self._first = False
            return
        if self._apply(self.changes):
            self._reveal(self.changes)

    def undo(self) -> None:
        if self._apply([c.inverse() for c in reversed(self.changes)]):
            self._reveal(self.changes)


class UndoAdapter(QObject):
    """The panel's undo stack: :meth:`push` commits the changes, then records the step."""

    def __init__(
        self, apply: Apply, parent: QObject | None = None, reveal: Reveal = _no_reveal
    ) -> None:
        super().__init__(parent)
        self.stack = QUndoStack(self)
        self._apply = apply
        self._reveal = reveal

    def push(self, changes: Sequence[Decide], text: str) -> bool:
        """Commit ``changes``; on success make them one undoable step."""
        changes = [c for c in changes if not c.is_noop]
        if not changes or not self._apply(changes):
            return False
        self.stack.push(DecisionCommand(self._apply, changes, text, self._reveal))
        return True

"""Asking before a study file reads outside its folder or writes where it says — without blocking.

A study file may come from anyone; :func:`confirm_study` looks at what it asks for beyond its own
folder (:func:`iaa_desktop.core.study_file.check_study_paths`). A study whose inputs all lie below
its folder opens at once. One that reaches outside, or names folders to write into, is shown in
the window's :class:`~iaa_desktop.gui.widgets.message_bar.MessageBar` with what it reaches, and
opens only when the user presses "Open anyway" (nothing waits meanwhile: no modal dialog, no
nested event loop). Devices, pipes and sockets among its inputs are refused without asking.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path

from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.study_file import Study, StudyPaths, check_study_paths, confine_study
from iaa_desktop.gui.trust import StudyTrust
from iaa_desktop.gui.widgets.message_bar import MessageBar

OPEN = "Open anyway"
OPEN_NO_OUTPUTS = "Open, but write nothing there"
CANCEL = "Cancel"

#: what is done with the study as allowed and the notes on what was left out
Opener = Callable[[Study, list[str]], None]


class Outcome(Enum):
    OPENED = "opened"
    ASKED = "asked"
    REFUSED = "refused"


def confirm_study(
    bar: MessageBar,
    path: str | Path,
    study: Study,
    open_study: Opener,
    trust: StudyTrust | None = None,
) -> Outcome:
    """Open ``study`` (read from ``path``) through ``open_study`` as the user allows.

    ``trust`` remembers the answer for this file (by path and content): a file the user already
    allowed, unchanged since, opens as allowed then without asking again.

    Returns at once: :attr:`Outcome.OPENED` when nothing needed asking (``open_study`` has run),
    :attr:`Outcome.ASKED` when the question is on ``bar`` (``open_study`` runs if the user says
    so), :attr:`Outcome.REFUSED` when the study cannot be opened (the reason is on ``bar``).
    """
    path = Path(path)
    paths = check_study_paths(study, path)
    if paths.special:
        shown = "\n".join(f"  {p}" for p in paths.special[:10])
        bar.refuse(
            f"The study {path.name} was not opened: it names a device, pipe or socket as an input.",
            f"{shown}\nOnly regular files and folders are read as annotations.",
        )
        return Outcome.REFUSED
    if not paths.needs_confirmation:
        return _open(bar, path, study, paths, open_study, allow_outside=False, allow_outputs=False)
    given = trust.allowed(path) if trust is not None else None
    if given is not None:
        return _open(bar, path, study, paths, open_study, True, given)

    def allow(outputs: bool) -> Callable[[], None]:
        def opened() -> None:
            if _open(bar, path, study, paths, open_study, True, outputs) is Outcome.OPENED:
                if trust is not None:
                    trust.allow(path, outputs)

        return opened

    choices = [(OPEN, allow(True))]
    if paths.outputs:
        choices.append((OPEN_NO_OUTPUTS, allow(False)))
    choices.append((CANCEL, lambda: None))
    bar.ask(
        f"The study {path.name} reaches beyond its own folder. Open it only if you trust where "
        "it comes from.",
        paths.describe(),
        choices,
        subject=paths,
    )
    return Outcome.ASKED


def _open(
    bar: MessageBar,
    path: Path,
    study: Study,
    paths: StudyPaths,
    open_study: Opener,
    allow_outside: bool,
    allow_outputs: bool,
) -> Outcome:
    try:
        confined, notes = confine_study(study, paths, allow_outside, allow_outputs)
    except IaaError as e:
        bar.refuse(f"The study {path.name} was not opened.", str(e))
        return Outcome.REFUSED
    open_study(confined, notes)
    return Outcome.OPENED


__all__ = ["CANCEL", "OPEN", "OPEN_NO_OUTPUTS", "Outcome", "confirm_study"]

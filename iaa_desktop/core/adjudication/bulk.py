"""Decisions on many units at once, as INCEpTION's curation offers them: take one annotator's
version for a document (a group) or for every unit disagreeing the same way, accept every unit
on which the annotators agree.

Each function returns the :class:`~iaa_desktop.core.adjudication.changes.Decide` changes (not
applied): the caller commits them in one transaction
(:meth:`~iaa_desktop.core.adjudication.session.AdjudicationSession.apply_many`) and undoes them
as one step. Units decided by hand are left alone; so are units the chosen annotator has no
version of.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.changes import Decide

if TYPE_CHECKING:
    from iaa_desktop.core.adjudication.session import AdjudicationSession


def _open(session: AdjudicationSession, indices: Iterable[int]) -> list[int]:
    return [int(i) for i in indices if not session.is_decided(int(i))]


def same_group(session: AdjudicationSession, i: int) -> NDArray[Any]:
    """Units of the same group as unit ``i`` (its document, target or text)."""
    g = session.model.groups[i]
    return np.flatnonzero(np.array([x == g for x in session.model.groups], dtype=bool))


def same_disagreement(session: AdjudicationSession, i: int) -> NDArray[Any]:
    """Units whose annotators gave exactly the versions of unit ``i`` (the same class of
    disagreement: 4 against 5 by the same annotators, the mentions only annotator B marks …)."""
    codes = session.model.codes
    return np.flatnonzero((codes == codes[i]).all(axis=1))


def take_version(
    session: AdjudicationSession,
    annotator: str,
    indices: Iterable[int],
    note: str = "",
    choice: str = "",
) -> list[Decide]:
    """Changes taking ``annotator``'s version for the undecided units among ``indices``."""
    x = session.model.annotators.index(annotator)
    out = []
    for i in _open(session, indices):
        v = session.model.versions[i, x]
        if v is not None:
            out.append(session.make_change(i, choice or f"annotator:{annotator}", v, note))
    return out


def accept_unanimous(
    session: AdjudicationSession, indices: Iterable[int] | None = None, note: str = ""
) -> list[Decide]:
    """Changes recording the shared version of every undecided unit on which all of its
    annotators agree (the automatic merge made explicit)."""
    from iaa_desktop.core.adjudication.model import unanimous_values

    m = session.model
    values = unanimous_values(m.codes, m.code_values)
    idx = range(m.n_units) if indices is None else indices
    return [
        session.make_change(i, "unanimous", values[i], note)
        for i in _open(session, idx)
        if values[i] is not None
    ]

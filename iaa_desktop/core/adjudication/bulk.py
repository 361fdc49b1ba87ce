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


def same_form(session: AdjudicationSession, i: int) -> NDArray[Any]:
    """Units whose form (the historical token, the covered text: :meth:`AdjudicationModel.form`)
    is unit ``i``'s, matched as the study's ``occurrence_match`` option says (empty when the kind
    has no forms)."""
    key = session.model.form_key(i)
    return np.array(session.model.units_of_form(key) if key else [], dtype=np.int64)


def decide_form(
    session: AdjudicationSession,
    i: int,
    treatment: str,
    include_decided: bool = False,
    note: str = "",
) -> tuple[list[Decide], int]:
    """Changes treating every occurrence of unit ``i``'s form as ``treatment`` (a normalization,
    a label: :meth:`AdjudicationModel.form_value`), and how many occurrences decided one by one
    were left as they are (all of them are included when ``include_decided``). The caller
    commits the changes in one transaction and undoes them as one step."""
    m = session.model
    out, kept = [], 0
    for j in same_form(session, i).tolist():
        if session.is_decided(j) and not include_decided:
            kept += 1
            continue
        value = m.form_value(j, treatment)
        if value is not None:
            out.append(session.make_change(j, f"form:{treatment}", value, note))
    return out, kept

"""Character alignment of a historical token with its normalization (Bollmann, Dipper & Petran 2016).

Bollmann, Dipper & Petran (2016) turn word-level normalizations into a character-level
annotation task: every *unit* (character) of the historical token gets a label, found by a
Needleman–Wunsch alignment of the historical form with the normalization (LingPy's
``nw_align`` with its default scoring: +1 for identical segments, −1 otherwise, gap −1).

* A unit aligned to a gap gets the empty label ∅ (stored as ``""``).
* Inserted segments (gap on the historical side) merge into the nearest non-insertion unit to
  the left; insertions before the first unit (word-initial) merge to the right.
* *Full* labels are the aligned strings; *Diff* labels replace an unchanged unit by the
  identity label ``_`` and keep the merged insertions (``n`` → ``nt`` is ``_t``; ``u`` →
  ``du`` is ``d_``).

Units are user-perceived characters
-----------------------------------
Historical texts write abbreviation marks and superscript vowels as combining marks
(``vn̄``, ``zuͦ``). A unit is therefore a *grapheme*: a base character with every combining
mark, variation selector, emoji modifier and zero-width-joiner sequence that follows it
(:func:`graphemes`). Both strings are NFC-normalised and cut into graphemes, and the two
*lists of graphemes* are what is aligned (LingPy accepts lists of segments). So ``uͦ``
aligned with ``u`` is a substitution (the mark was dropped, which is a change), never a
match of ``u`` plus a deleted mark; and a unit's label is always a whole number of
graphemes, so a mark can never be split from its base. For text without combining marks
this is exactly LingPy's character alignment (the *gewain* example of Bollmann et al. 2016, Table 4).

Speed
-----
LingPy's ``nw_align`` is pure Python here and its import alone takes seconds, so the analysis
uses :func:`~iaa_desktop.core.align.needleman_wunsch.nw_align_many`, the same algorithm with
the same tie-breaking solved for many pairs at once in numpy (tests compare it with LingPy on
every pair of the normalization test corpora), and each distinct (historical, normalized) pair
is aligned once (:meth:`CharacterAligner.prepare` aligns all new pairs in one batch).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from iaa_desktop.core.align.needleman_wunsch import GAP, nw_align, nw_align_many

__all__ = [
    "EMPTY_LABEL",
    "IDENTITY_LABEL",
    "GAP",
    "AlignedToken",
    "CharacterAligner",
    "align_units",
    "graphemes",
    "lingpy_nw_align",
    "nw_align",
]

#: shown for a unit aligned to a gap (the label itself is the empty string)
EMPTY_LABEL = "∅"
#: Diff label of a unit left unchanged
IDENTITY_LABEL = "_"

_ZWJ = "\u200d"


def _extends(ch: str) -> bool:
    """Whether ``ch`` belongs to the grapheme before it (marks, joiners, selectors, modifiers)."""
    if unicodedata.category(ch) in ("Mn", "Mc", "Me"):
        return True
    o = ord(ch)
    return (
        ch == _ZWJ
        or 0xFE00 <= o <= 0xFE0F  # variation selectors
        or 0xE0100 <= o <= 0xE01EF
        or 0x1F3FB <= o <= 0x1F3FF  # emoji skin-tone modifiers
        or 0xE0020 <= o <= 0xE007F  # emoji tag sequences
    )


def _is_regional_indicator(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def graphemes(text: str) -> tuple[str, ...]:
    """Cut ``text`` (NFC-normalised first) into user-perceived characters.

    A simplified version of Unicode's extended grapheme clusters (UAX #29) that needs only the
    standard library: a base character keeps the combining marks (Mn/Mc/Me), variation
    selectors, emoji modifiers and tags that follow it; a zero-width joiner glues the next
    character on; two regional indicators form one flag. Hangul syllables are precomposed by
    NFC. A combining mark at the very start forms a unit of its own.

    >>> graphemes("vn\\u0304")
    ('v', 'n̄')
    >>> graphemes("gewain")
    ('g', 'e', 'w', 'a', 'i', 'n')
    """
    text = unicodedata.normalize("NFC", text)
    if text.isascii():
        return tuple(text)
    out: list[str] = []
    join_next = False
    for ch in text:
        if out and (join_next or _extends(ch)):
            out[-1] += ch
        elif (
            out
            and _is_regional_indicator(ch)
            and len(out[-1]) == 1
            and _is_regional_indicator(out[-1])
        ):
            out[-1] += ch
        else:
            out.append(ch)
        join_next = ch == _ZWJ
    return tuple(out)


def lingpy_nw_align(seq_a: Sequence[str], seq_b: Sequence[str]) -> tuple[list[str], list[str]]:
    """LingPy's own ``nw_align`` (the reference; imports LingPy, which takes seconds)."""
    import logging

    # LingPy logs its model compilation at INFO on first use; keep that off the user's console
    logging.getLogger("lingpy").setLevel(logging.WARNING)
    from lingpy.align.pairwise import nw_align as _lp

    alm_a, alm_b, _score = _lp(list(seq_a), list(seq_b))
    return list(alm_a), list(alm_b)


def align_units(
    alm_a: Sequence[str], alm_b: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Full and Diff labels of the historical units from one alignment.

    Parameters
    ----------
    alm_a : aligned historical segments (``"-"`` where the normalization inserts)
    alm_b : aligned normalization segments (``"-"`` where a unit is deleted)

    Returns
    -------
    (full, diff) : one label per historical unit; ``""`` is the empty label ∅.

    >>> align_units(*nw_align("gewain", "weinte"))
    (('', '', 'w', 'e', 'i', 'nte'), ('', '', '_', 'e', '_', '_te'))
    >>> align_units(*nw_align("u", "du"))
    (('du',), ('d_',))
    """
    full: list[str] = []
    diff: list[str] = []
    prefix = ""  # word-initial insertions, merged to the right
    for a, b in zip(alm_a, alm_b):
        if a == GAP:
            if full:
                full[-1] += b
                diff[-1] += b
            else:
                prefix += b
            continue
        if b == GAP:
            f, d = "", ""
        else:
            f, d = b, (IDENTITY_LABEL if a == b else b)
        if prefix:
            f, d, prefix = prefix + f, prefix + d, ""
        full.append(f)
        diff.append(d)
    return tuple(full), tuple(diff)


def _stand_in(units: Sequence[str], segs: Sequence[str]) -> str:
    """A noncharacter found in neither sequence, to stand for the gap character while aligning."""
    return next(
        c for c in ("\ufdd0", "\ufdd1", "\ufdd2", "\ufdd3") if c not in units and c not in segs
    )


def _hide(xs: Sequence[str], stand_in: str | None) -> list[str]:
    return list(xs) if stand_in is None else [stand_in if x == GAP else x for x in xs]


@dataclass(frozen=True, slots=True)
class AlignedToken:
    """The units of one historical token and one annotator's labels for them."""

    units: tuple[str, ...]
    full: tuple[str, ...]
    diff: tuple[str, ...]


class CharacterAligner:
    """Aligns (historical, normalized) pairs once each and hands out label ids.

    Labels are interned: ``label_id(s)`` is stable for the life of the aligner, so the
    character-level reliability data of a whole study is built by gathering integer ids.
    Each distinct pair is aligned once (:func:`nw_align`, or LingPy's when ``use_lingpy``);
    :meth:`prepare` aligns all pairs not seen yet in one batch (:func:`nw_align_many`).

    Attributes
    ----------
    labels : list of the interned label strings, in id order
    """

    def __init__(self, use_lingpy: bool = False) -> None:
        self._align = lingpy_nw_align if use_lingpy else nw_align
        self.labels: list[str] = []
        self._ids: dict[str, int] = {}
        self._pairs: dict[tuple[str, str], AlignedToken] = {}
        self._diff_ids: dict[tuple[str, str], npt.NDArray[np.int32]] = {}
        self._full_ids: dict[tuple[str, str], npt.NDArray[np.int32]] = {}
        self._units: dict[str, tuple[str, ...]] = {}

    def units(self, orig: str) -> tuple[str, ...]:
        u = self._units.get(orig)
        if u is None:
            u = self._units[orig] = graphemes(orig)
        return u

    def label_id(self, label: str) -> int:
        k = self._ids.get(label)
        if k is None:
            k = self._ids[label] = len(self.labels)
            self.labels.append(label)
        return k

    def prepare(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Align every (historical, normalized) pair not aligned yet, all in one batch."""
        todo = [p for p in dict.fromkeys(pairs) if p not in self._pairs]
        if not todo:
            return
        units = [self.units(o) for o, _ in todo]
        forms = [self.units(f) for _, f in todo]
        # a form holding the character the alignment uses for gaps (``-ere``) would lose a unit:
        # it is aligned as a stand-in found in neither form and turned back in the labels
        stand_ins: list[str | None] = [
            _stand_in(u, f) if GAP in u or GAP in f else None for u, f in zip(units, forms)
        ]
        hidden_u = [_hide(u, c) for u, c in zip(units, stand_ins)]
        hidden_f = [_hide(f, c) for f, c in zip(forms, stand_ins)]
        if self._align is nw_align:
            alignments = nw_align_many(hidden_u, hidden_f)
            aligned = (alignments.pair(k) for k in range(len(todo)))
        else:
            aligned = (self._align(u, f) for u, f in zip(hidden_u, hidden_f))
        for key, u, c, (alm_a, alm_b) in zip(todo, units, stand_ins, aligned):
            full, diff = align_units(alm_a, alm_b)
            if c is not None:
                full = tuple(x.replace(c, GAP) for x in full)
                diff = tuple(x.replace(c, GAP) for x in diff)
            self._pairs[key] = AlignedToken(u, full, diff)

    def align(self, orig: str, norm: str) -> AlignedToken:
        """Units and Full/Diff labels of ``norm`` against ``orig`` (cached)."""
        key = (orig, norm)
        hit = self._pairs.get(key)
        if hit is None:
            self.prepare([key])
            hit = self._pairs[key]
        return hit

    def diff_ids(self, orig: str, norm: str) -> npt.NDArray[np.int32]:
        """Interned ids of the Diff labels (one per unit of ``orig``)."""
        key = (orig, norm)
        ids = self._diff_ids.get(key)
        if ids is None:
            ids = np.fromiter(
                (self.label_id(x) for x in self.align(orig, norm).diff), dtype=np.int32
            )
            self._diff_ids[key] = ids
        return ids

    def full_ids(self, orig: str, norm: str) -> npt.NDArray[np.int32]:
        """Interned ids of the Full labels (one per unit of ``orig``)."""
        key = (orig, norm)
        ids = self._full_ids.get(key)
        if ids is None:
            ids = np.fromiter(
                (self.label_id(x) for x in self.align(orig, norm).full), dtype=np.int32
            )
            self._full_ids[key] = ids
        return ids

    @property
    def n_pairs(self) -> int:
        return len(self._pairs)

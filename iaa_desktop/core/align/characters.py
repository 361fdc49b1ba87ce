"""Character alignment of a historical token with its normalization (METHODS.md §4).

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
this is exactly LingPy's character alignment (the *gewain* example of the seed's Table 4).

Speed
-----
LingPy's ``nw_align`` is pure Python here and its import alone takes about 3 s, so the
analysis uses :func:`nw_align`, a port of the same algorithm with the same tie-breaking
(tests compare both on every distinct pair of the five-annotator data), and caches the labels
of each distinct (historical, normalized) pair (:class:`CharacterAligner`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

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
#: gap symbol in alignments (LingPy's)
GAP = "-"

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


def nw_align(
    seq_a: Sequence[str], seq_b: Sequence[str], gap: int = -1
) -> tuple[list[str], list[str]]:
    """Needleman–Wunsch global alignment, identical to LingPy's ``nw_align`` default scoring.

    Score +1 for identical segments, −1 for different ones, ``gap`` for a gap; ties in the
    dynamic programme are broken exactly as in ``lingpy.algorithm.cython._malign.nw_align``
    (gap in ``seq_a`` first, then match/mismatch, then gap in ``seq_b``), and the traceback
    starts at the bottom-right cell, so the output equals LingPy's segment for segment.

    Parameters
    ----------
    seq_a, seq_b : sequences of segments (strings or lists of graphemes)
    gap : gap penalty

    Returns
    -------
    (alm_a, alm_b) : the aligned segment lists, with ``"-"`` for gaps.

    References
    ----------
    Needleman & Wunsch (1970), J. Mol. Biol. 48: 443–453; List & Forkel (2016), LingPy 2.5.

    >>> nw_align("gewain", "weinte")
    (['g', 'e', 'w', 'a', 'i', 'n', '-', '-'], ['-', '-', 'w', 'e', 'i', 'n', 't', 'e'])
    """
    m, n = len(seq_a), len(seq_b)
    # rows over seq_b (i), columns over seq_a (j), as in LingPy
    prev = [j * gap for j in range(m + 1)]
    tb: list[list[int]] = [[2] * (m + 1)]
    for i in range(1, n + 1):
        b = seq_b[i - 1]
        cur = [i * gap] + [0] * m
        row = [3] + [0] * m
        for j in range(1, m + 1):
            g_a = prev[j] + gap
            g_b = cur[j - 1] + gap
            mt = prev[j - 1] + (1 if seq_a[j - 1] == b else -1)
            if g_a >= mt and g_a >= g_b:
                cur[j] = g_a
                row[j] = 3
            elif mt >= g_b:
                cur[j] = mt
                row[j] = 1
            else:
                cur[j] = g_b
                row[j] = 2
        tb.append(row)
        prev = cur
    alm_a: list[str] = []
    alm_b: list[str] = []
    i, j = n, m
    while i > 0 or j > 0:
        t = tb[i][j] if (i > 0 and j > 0) else (3 if j == 0 else 2)
        if t == 3:
            alm_a.append(GAP)
            alm_b.append(seq_b[i - 1])
            i -= 1
        elif t == 1:
            alm_a.append(seq_a[j - 1])
            alm_b.append(seq_b[i - 1])
            i -= 1
            j -= 1
        else:
            alm_a.append(seq_a[j - 1])
            alm_b.append(GAP)
            j -= 1
    return alm_a[::-1], alm_b[::-1]


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


def _align_with_hyphens(align, units, segs) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Full and Diff labels when a form holds the character used for gaps (``-ere``).

    The alignment would take that hyphen for a gap and lose a unit; it is aligned as another
    symbol (one found in neither form) and turned back into a hyphen in the labels.
    """
    stand_in = next(
        c for c in ("\ufdd0", "\ufdd1", "\ufdd2", "\ufdd3") if c not in units and c not in segs
    )

    def hide(xs):
        return [stand_in if x == GAP else x for x in xs]

    full, diff = align_units(*align(hide(units), hide(segs)))
    return tuple(x.replace(stand_in, GAP) for x in full), tuple(
        x.replace(stand_in, GAP) for x in diff
    )


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
    Each distinct pair is aligned once (:func:`nw_align`, or LingPy's when ``use_lingpy``).

    Attributes
    ----------
    labels : list of the interned label strings, in id order
    """

    def __init__(self, use_lingpy: bool = False) -> None:
        self._align = lingpy_nw_align if use_lingpy else nw_align
        self.labels: list[str] = []
        self._ids: dict[str, int] = {}
        self._pairs: dict[tuple[str, str], AlignedToken] = {}
        self._diff_ids: dict[tuple[str, str], np.ndarray] = {}
        self._full_ids: dict[tuple[str, str], np.ndarray] = {}
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

    def align(self, orig: str, norm: str) -> AlignedToken:
        """Units and Full/Diff labels of ``norm`` against ``orig`` (cached)."""
        key = (orig, norm)
        hit = self._pairs.get(key)
        if hit is None:
            units = self.units(orig)
            segs = graphemes(norm)
            if GAP in units or GAP in segs:
                full, diff = _align_with_hyphens(self._align, units, segs)
            else:
                full, diff = align_units(*self._align(units, segs))
            hit = self._pairs[key] = AlignedToken(units, full, diff)
        return hit

    def diff_ids(self, orig: str, norm: str) -> np.ndarray:
        """Interned ids of the Diff labels (one per unit of ``orig``)."""
        key = (orig, norm)
        ids = self._diff_ids.get(key)
        if ids is None:
            ids = np.fromiter(
                (self.label_id(x) for x in self.align(orig, norm).diff), dtype=np.int32
            )
            self._diff_ids[key] = ids
        return ids

    def full_ids(self, orig: str, norm: str) -> np.ndarray:
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

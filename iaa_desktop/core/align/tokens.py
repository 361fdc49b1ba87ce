r"""Tokens of a passage, weighted Jaccard overlap and Smith–Waterman local alignment over tokens.

Used by the passage-pair kinds (``durel``, ``candidates``) to measure and show how much two
passages share (the Bernard of Clairvaux intertextuality study).

Tokens are runs of word characters (letters, digits, combining marks, with an inner apostrophe
allowed: ``don't``); punctuation, spaces and emoji separate them. Offsets are **code-point**
offsets into the Python string (``text[start:end]``), as in DURel's ``indexes_target_token``.
A token's *key* — what is compared — is its lemma where lemmas are given, else the lower-cased
form.

Weighted Jaccard (the Bernard of Clairvaux intertextuality study, footnote 8):

.. math:: J(D_i, D_j) = \frac{\sum_w \min(c(w, D_i), c(w, D_j))}{\sum_w \max(c(w, D_i), c(w, D_j))}

over the word types w of both passages (c = count of w's key in the passage).

Smith–Waterman (Smith & Waterman 1981) local alignment over token keys with a linear gap
penalty; defaults match +2, mismatch −1, gap −1 (the scoring of the candidates data set).
Each row of the dynamic programme is computed with numpy: the horizontal gap dependency
:math:`H_{i,j} = \max_k (E_{i,k} - g (j - k))` is a running maximum of :math:`E_{i,k} + g k`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# combining marks of the common scripts: Python's \w does not include them, and splitting a
# Hebrew or Arabic word at its vowel points would break it into pieces
_MARKS = (
    "\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a"
    "\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u0900-\u0903"
    "\u093a-\u094f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
)
_WORD = rf"[\w{_MARKS}]+(?:['’][\w{_MARKS}]+)*"
TOKEN_RE = re.compile(_WORD)


@dataclass(frozen=True, slots=True)
class Tokens:
    """The tokens of one passage.

    Attributes
    ----------
    forms : surface forms, in order
    starts, ends : code-point offsets of each token in the text (end exclusive)
    keys : what is compared: lemmas when given, else lower-cased forms
    """

    forms: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    keys: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.forms)


def tokenize(text: str, lemmas: str | Sequence[str] | None = None) -> Tokens:
    """Split ``text`` into word tokens with code-point offsets.

    ``lemmas`` (a space-separated string or a list) gives one lemma per token; when their number
    does not match the tokens, the lower-cased forms are used instead (a lemma column that does
    not line up with the text must not silently pair the wrong words).

    >>> t = tokenize("In the beginning 🙏 God's word")
    >>> t.forms, t.starts
    (('In', 'the', 'beginning', "God's", 'word'), (0, 3, 7, 19, 25))
    >>> t.keys[:2]
    ('in', 'the')
    """
    forms, starts, ends = [], [], []
    for m in TOKEN_RE.finditer(text or ""):
        forms.append(m.group())
        starts.append(m.start())
        ends.append(m.end())
    keys: list[str] = [f.lower() for f in forms]
    if lemmas is not None:
        lem = lemmas.split() if isinstance(lemmas, str) else [str(x) for x in lemmas]
        if len(lem) == len(forms) and lem:
            keys = [x.lower() for x in lem]
    return Tokens(tuple(forms), tuple(starts), tuple(ends), tuple(keys))


def weighted_jaccard(a: Sequence[str], b: Sequence[str]) -> float:
    """Weighted Jaccard overlap of two token-key sequences (see the module docstring).

    Two empty passages have overlap 0.

    >>> weighted_jaccard("a a b c".split(), "a b b d".split())  # (1+1)/(2+2+1+1)
    0.3333333333333333
    """
    ca, cb = Counter(a), Counter(b)
    num = sum(min(n, cb[w]) for w, n in ca.items() if w in cb)
    den = sum(ca.values()) + sum(cb.values()) - num  # Σ max = Σ a + Σ b − Σ min
    return num / den if den else 0.0


def shared_keys(a: Sequence[str], b: Sequence[str]) -> frozenset[str]:
    """Token keys that occur in both passages."""
    return frozenset(a) & frozenset(b)


# ---------------------------------------------------------------------------------------------
# Smith–Waterman


MATCH, MISMATCH, GAP_A, GAP_B = "match", "mismatch", "gap_a", "gap_b"


@dataclass(frozen=True, slots=True)
class Alignment:
    """A local alignment of two token sequences.

    ``steps`` lists ``(op, i, j)`` in order: ``match``/``mismatch`` pair token i of A with
    token j of B; ``gap_b`` means token i of A is aligned to a gap in B (j = -1); ``gap_a``
    means token j of B is aligned to a gap in A (i = -1). ``score`` is the local alignment
    score; an empty ``steps`` means nothing aligned (no shared token).
    """

    steps: tuple[tuple[str, int, int], ...]
    score: float

    def ops_a(self) -> dict[int, str]:
        """Token index of A → ``match``, ``mismatch`` or ``gap`` (tokens inside the alignment)."""
        return {i: ("gap" if op == GAP_B else op) for op, i, _j in self.steps if i >= 0}

    def ops_b(self) -> dict[int, str]:
        """Token index of B → ``match``, ``mismatch`` or ``gap``."""
        return {j: ("gap" if op == GAP_A else op) for op, _i, j in self.steps if j >= 0}

    @property
    def n_matches(self) -> int:
        return sum(1 for op, _i, _j in self.steps if op == MATCH)


def smith_waterman(
    a: Sequence[str],
    b: Sequence[str],
    match: float = 2.0,
    mismatch: float = -1.0,
    gap: float = -1.0,
) -> Alignment:
    """Best local alignment of token-key sequences ``a`` and ``b`` (linear gap penalty).

    Parameters
    ----------
    a, b : token keys
    match, mismatch, gap : scores (``gap`` is negative)

    Returns
    -------
    Alignment
        Of equally good end cells the last (largest i, then j) is taken; ties in the
        traceback prefer a diagonal step, then a gap in B, then a gap in A.

    >>> al = smith_waterman("sede a dextris meis donec ponam".split(),
    ...                     "oportet regnare donec ponat inimicos".split())
    >>> al.score, [op for op, _, _ in al.steps]
    (2.0, ['match'])
    >>> al = smith_waterman("x a b c y".split(), "a c z".split())
    >>> al.score, [(op, i, j) for op, i, j in al.steps]
    (3.0, [('match', 1, 0), ('gap_b', 2, -1), ('match', 3, 1)])
    """
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return Alignment((), 0.0)
    # integer codes for the keys so the substitution matrix is one vectorised comparison
    vocab: dict[str, int] = {}
    ca = np.array([vocab.setdefault(k, len(vocab)) for k in a])
    cb = np.array([vocab.setdefault(k, len(vocab)) for k in b])
    sub = np.where(ca[:, None] == cb[None, :], match, mismatch)
    g = -float(gap)  # positive penalty
    H = np.zeros((n + 1, m + 1))
    ramp = g * np.arange(1, m + 1)
    for i in range(1, n + 1):
        prev = H[i - 1]
        e = np.maximum(0.0, np.maximum(prev[:-1] + sub[i - 1], prev[1:] - g))
        # horizontal gaps: H[i, j] = max_k≤j (e_k − g (j − k)) = max_k≤j (e_k + g k) − g j
        H[i, 1:] = np.maximum.accumulate(e + ramp) - ramp
    best = float(H.max())
    if best <= 0:
        return Alignment((), 0.0)
    # of equally good end cells take the last one: the alignment then extends as far as it
    # can at no cost (the intertextuality study's Figure 1 alignment runs on through 'tuos scabellum' to 'pedum')
    flat = H.ravel()
    end = np.unravel_index(len(flat) - 1 - int(np.argmax(flat[::-1])), H.shape)
    i, j = int(end[0]), int(end[1])
    steps: list[tuple[str, int, int]] = []
    eps = 1e-9
    while i > 0 and j > 0 and H[i, j] > eps:
        s = sub[i - 1, j - 1]
        if abs(H[i, j] - (H[i - 1, j - 1] + s)) < eps:
            steps.append((MATCH if s == match else MISMATCH, int(i - 1), int(j - 1)))
            i, j = i - 1, j - 1
        elif abs(H[i, j] - (H[i - 1, j] - g)) < eps:
            steps.append((GAP_B, int(i - 1), -1))
            i -= 1
        else:
            steps.append((GAP_A, -1, int(j - 1)))
            j -= 1
    steps.reverse()
    return Alignment(tuple(steps), best)

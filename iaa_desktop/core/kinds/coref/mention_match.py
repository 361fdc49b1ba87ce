"""Key and response mentions paired before scoring: exact, partial or head matching, and zeros
paired by their dependencies — as the CorefUD scorer pairs them.

The CorefUD scorer (``ufal/corefud-scorer``, ``scorer/base/reader.py`` and
``scorer/corefud/mention.py``; Popel et al. 2022, "CorefUD scorer", and the CRAC 2022/2023
shared-task findings, Žabokrtský et al.) pairs the mentions of the key *K* and of the response
*R* in up to three steps, then scores every metric (MUC, B³, CEAF, BLANC, LEA; Pradhan et al.
2014) as if each paired response mention were its key mention:

1. *zeros by dependencies* (``zero_match="dependent"``): the zeros (mentions whose head is an
   empty node) of both sides are paired one to one (Hungarian algorithm, the most total score)
   on ``score(k, r) = 10 · F(D_k, D_r) + F(P_k, P_r)`` where ``D`` is the set of (parent,
   relation) pairs of the head's enhanced dependencies (the DEPS column), ``P`` the set of its
   parents and ``F(A, B) = 2|A∩B| / (|A| + |B|)``; only heads in the same sentence score, and a
   pair scoring 0 is not paired. With ``"linear"`` (the default) an empty node is only itself.
2. *exactly* the same mention: the same set of words (and, for head matching, the same head).
3. for ``matching="partial"`` or ``"head"``, the mentions left are paired one to one by the
   Hungarian algorithm on a similarity (ties broken by the order of the mentions by first word,
   last word, length, as the reference sorts them), pairs of similarity 0 left unpaired:

   - *partial* (CorefUD's ``partial-corefud``): ``sim(k, r) = |r| / |k|`` when the response lies
     within the key mention and covers its minimum span (``min(k) ⊆ r ⊆ k``; the head in CorefUD,
     the ``Min`` words in Universal Anaphora), else 0;
   - *head* (CRAC 2023 head match): ``sim(k, r) = |k ∩ r| / |k|`` when the heads are the same
     word, else 0.

A mention's head is the ``head`` index of its CorefUD ``Entity`` chunk (its first word when
none is given, as udapi reads it); a Universal Anaphora markable's minimum span is its ``Min``
attribute. Mentions without either (other formats) match only exactly. The first annotator of
a pair plays the key.

References
----------
Pradhan et al. (2014) "Scoring Coreference Partitions of Predicted Mentions: A Reference
Implementation", ACL. Nedoluzhko et al. (2022) "CorefUD 1.0: Coreference Meets Universal
Dependencies", LREC. Žabokrtský et al. (2023) "Findings of the Second Shared Task on
Multilingual Coreference Resolution", CRAC (head match; zeros matched by dependencies).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence, Set
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from iaa_desktop.core.kinds.coref.readers import CorefDocument, MentionKey, TokenId
from iaa_desktop.core.kinds.coref.token_ids import mention_positions

#: how key and response mentions are paired (see the module docstring)
MATCHING = ("exact", "partial", "head")
#: how zeros (mentions headed by an empty node) are paired
ZERO_MATCHING = ("linear", "dependent")


@dataclass(frozen=True, slots=True)
class _Mention:
    key: MentionKey
    words: frozenset[int]
    head: int | None
    identity: Hashable
    minimum: frozenset[int]  # the minimum span: UA's Min, else the head

    @property
    def order(self) -> tuple[int, int, int, tuple[int, ...], int]:
        """The reference scorer's mention order: first word, last word, number of words (then
        the words and the head, so that ties are broken the same way in every run)."""
        head = -1 if self.head is None else self.head
        return (min(self.words), max(self.words), len(self.words), tuple(sorted(self.words)), head)


def _mentions(
    doc: CorefDocument, entities: Sequence[Sequence[MentionKey]], heads: bool
) -> dict[Hashable, _Mention]:
    out: dict[Hashable, _Mention] = {}
    for entity in entities:
        for key in entity:
            head = doc.heads.get(key)
            identity: Hashable = (key, head) if heads else key
            least = doc.mins.get(key) or (() if head is None else (head,))
            words = frozenset(mention_positions(key))
            out.setdefault(identity, _Mention(key, words, head, identity, frozenset(least)))
    return out


def _f(a: Set[Hashable], b: Set[Hashable]) -> float:
    """F1 of two sets: 2|A∩B| / (|A| + |B|) (0 when either is empty)."""
    common = len(a & b)
    return 2 * common / (len(a) + len(b)) if common else 0.0


def _token(doc: CorefDocument, position: int | None) -> TokenId | None:
    if position is None or doc.tokens is None or not 0 <= position < len(doc.tokens):
        return None
    return doc.tokens[position][0]


def _is_zero(doc: CorefDocument, m: _Mention) -> bool:
    tid = _token(doc, m.head if m.head is not None else min(m.words))
    return tid is not None and tid[2] != 0


def _zero_score(key_doc: CorefDocument, resp_doc: CorefDocument, k: _Mention, r: _Mention) -> float:
    """10 · F(dependencies) + F(parents) of the two zeros' heads (same sentence only)."""
    kt = _token(key_doc, k.head if k.head is not None else min(k.words))
    rt = _token(resp_doc, r.head if r.head is not None else min(r.words))
    if kt is None or rt is None or kt[0] != rt[0]:
        return 0.0
    kd, rd = set(key_doc.deps.get(kt, ())), set(resp_doc.deps.get(rt, ()))
    return 10 * _f(kd, rd) + _f({p for p, _ in kd}, {p for p, _ in rd})


def _partial(k: _Mention, r: _Mention) -> float:
    if k.minimum and k.minimum <= r.words and r.words <= k.words:
        return len(r.words) / len(k.words)
    return 0.0


def _head(k: _Mention, r: _Mention) -> float:
    if k.head is not None and k.head == r.head:
        return len(k.words & r.words) / len(k.words)
    return 0.0


def _assign(
    keys: list[_Mention], resps: list[_Mention], score: Callable[[_Mention, _Mention], float]
) -> list[tuple[_Mention, _Mention]]:
    """One-to-one pairs of most total score (Hungarian algorithm), pairs scoring 0 left out."""
    if not keys or not resps:
        return []
    keys = sorted(keys, key=lambda m: m.order)
    resps = sorted(resps, key=lambda m: m.order)
    sim = np.array([[score(k, r) for r in resps] for k in keys], dtype=np.float64)
    rows, cols = linear_sum_assignment(-sim)
    return [(keys[i], resps[j]) for i, j in zip(rows, cols, strict=True) if sim[i, j] > 0]


def matched_entities(
    key_doc: CorefDocument,
    resp_doc: CorefDocument,
    key_entities: Sequence[Sequence[MentionKey]],
    resp_entities: Sequence[Sequence[MentionKey]],
    matching: str = "exact",
    zero_matching: str = "linear",
) -> tuple[list[list[Hashable]], list[list[Hashable]]]:
    """The two sides' entities over shared mention identities: a response mention paired with a
    key mention (module docstring) takes that key mention's identity. With ``"exact"`` and
    ``"linear"`` the entities are returned as they are."""
    if matching not in MATCHING or zero_matching not in ZERO_MATCHING:
        raise ValueError(f"unknown mention matching {matching!r} / {zero_matching!r}")
    if matching == "exact" and zero_matching == "linear":
        return [list(e) for e in key_entities], [list(e) for e in resp_entities]
    heads = matching == "head"
    key_m = _mentions(key_doc, key_entities, heads)
    resp_m = _mentions(resp_doc, resp_entities, heads)
    free_k, free_r = set(key_m), set(resp_m)
    pairs: list[tuple[_Mention, _Mention]] = []
    if zero_matching == "dependent":
        zk = [key_m[i] for i in key_m if _is_zero(key_doc, key_m[i])]
        zr = [resp_m[i] for i in resp_m if _is_zero(resp_doc, resp_m[i])]
        found = _assign(zk, zr, lambda k, r: _zero_score(key_doc, resp_doc, k, r))
        pairs += found
        free_k -= {k.identity for k, _ in found}
        free_r -= {r.identity for _, r in found}
    exact = free_k & free_r
    free_k -= exact
    free_r -= exact
    if matching != "exact":
        score = _partial if matching == "partial" else _head
        pairs += _assign([key_m[i] for i in free_k], [resp_m[i] for i in free_r], score)
    renamed = {r.identity: k.identity for k, r in pairs if k.identity != r.identity}
    taken = set(renamed.values())

    def resp_identity(i: Hashable) -> Hashable:
        if i in renamed:
            return renamed[i]
        return ("unpaired", i) if i in taken else i

    keys = [[_identity(key_doc, m, heads) for m in e] for e in key_entities]
    resps = [[resp_identity(_identity(resp_doc, m, heads)) for m in e] for e in resp_entities]
    return keys, resps


def _identity(doc: CorefDocument, key: MentionKey, heads: bool) -> Hashable:
    """A mention's identity: its words, with its head for head matching."""
    return (key, doc.heads.get(key)) if heads else key


__all__ = ["MATCHING", "ZERO_MATCHING", "matched_entities"]

"""Coreference scores with split antecedents (plural mentions), as the Universal Anaphora scorer
computes them.

A plural entity *P* whose antecedents are the entities *A₁ … Aₙ* (``they`` = ``John`` +
``Mary``; CorefUD ``SplitAnte``, Universal Anaphora ``ElementOf``) gets one more, virtual,
mention: the *split antecedent* ``S(P) = {A₁, …, Aₙ}`` (an antecedent that is itself plural is
replaced by its own antecedents, recursively). Entities holding the same split antecedent are
merged. Key and response split antecedents are then paired one to one (Hungarian algorithm) on
the F1 of the metric being computed, evaluated on their antecedent entities alone (the key's
``{A₁ … Aₙ}`` against the response's, MUC counting singletons there). In the metric itself a
paired split antecedent counts as its partner with a *fractional* credit — its recall for the
recall side, its precision for the precision side, its F1 for CEAF and BLANC — and an unpaired
one counts as a missing mention:

- B³: ``Σ_e Σ_{e'} (Σ credit of e's mentions in e')² / |e|`` over ``Σ |e|``;
- MUC: ``|e| − |p(e)|`` correct links of an entity, where the split antecedent lowers the count
  by ``1 − credit`` when its partner lies in a part already linked, else by 1;
- CEAF-m / CEAF-e: φ₃ = Σ credits of the common mentions, φ₄ = 2φ₃ / (|k| + |r|), best
  one-to-one entity alignment; CEAF-m divides by the mentions, CEAF-e by the entities;
- LEA: each link of an entity weighs the product of its two mentions' credits (the reference
  scorer's running product, equal to it when the split antecedent comes last in its entity, as
  the reference reads it);
- BLANC: a coreference link weighs its first mention's credit, a non-coreference link the
  product of both (F1 credits).

Documents without split antecedents on either side score as in
:mod:`~iaa_desktop.core.metrics.coref_scores`.

References
----------
Yu, J., Khosla, S., Moosavi, N. S., Paun, S., Pradhan, S. & Poesio, M. (2022). "The Universal
Anaphora Scorer", LREC 2022 (split antecedents; ``juntaoy/universal-anaphora-scorer``,
``coval/eval/evaluator.py`` and ``coval/ua/reader.py``). Paun, Yu, Moosavi & Poesio (2023)
"Scoring Coreference Chains with Split-Antecedent Anaphors", Dialogue & Discourse. Pradhan et al.
(2014); Moosavi & Strube (2016).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from iaa_desktop.core.metrics.coref_scores import (
    BlancCounts,
    Counts,
    DocumentScores,
    score_document,
)

Cluster = list[Hashable]
Credit = dict[Hashable, tuple[Hashable, float]]  # split antecedent → (its partner, credit)
Quad = tuple[float, float, float, float]  # p_num, p_den, r_num, r_den


@dataclass(frozen=True, slots=True)
class SplitAntecedent:
    """The virtual mention of a plural entity: the mentions of each of its antecedent entities."""

    members: frozenset[tuple[Hashable, ...]]


def _split(m: Hashable) -> bool:
    return isinstance(m, SplitAntecedent)


def clusters_with_splits(
    entities: Sequence[Sequence[Hashable]], plurals: Mapping[int, Sequence[int]]
) -> list[Cluster]:
    """The entities with a split antecedent added to each plural one (``plurals``: entity index
    → the indices of its antecedent entities), entities sharing a split antecedent merged."""
    clusters: list[Cluster] = [list(e) for e in entities]
    for i, antecedents in plurals.items():
        members: set[tuple[Hashable, ...]] = set()
        queue, seen = deque(antecedents), {i}
        while queue:
            j = queue.popleft()
            if j in seen or not 0 <= j < len(entities):
                continue
            seen.add(j)
            if plurals.get(j):
                queue.extend(plurals[j])
            else:
                members.add(tuple(entities[j]))
        if members and 0 <= i < len(clusters):
            clusters[i].append(SplitAntecedent(frozenset(members)))
    merged: list[Cluster] = []
    for cl in clusters:
        splits = [m for m in cl if _split(m)]
        home = next((c for c in merged for s in splits if s in c), None)
        if home is None:
            merged.append(cl)
            continue
        for m in cl:  # its split antecedent kept last, as the reference appends it
            if m not in home:
                home.insert(len(home) - 1 if _split(home[-1]) and not _split(m) else len(home), m)
    return merged


def _index(clusters: Sequence[Cluster]) -> dict[Hashable, int]:
    return {m: k for k, cl in enumerate(clusters) for m in cl}


def _bcub(
    clusters: Sequence[Cluster], to_gold: Mapping[Hashable, int], credit: Credit
) -> tuple[float, float]:
    num, den = 0.0, 0.0
    for c in clusters:
        counts: dict[int, float] = defaultdict(float)
        for m in c:
            if _split(m):
                if m in credit:
                    partner, score = credit[m]
                    counts[to_gold[partner]] += score
            elif m in to_gold:
                counts[to_gold[m]] += 1
        num += sum(v * v for v in counts.values()) / len(c)
        den += len(c)
    return num, den


def _muc(
    clusters: Sequence[Cluster],
    out: Sequence[Cluster],
    to_gold: Mapping[Hashable, int],
    credit: Credit,
    singletons: bool = False,
) -> tuple[float, float]:
    tp, p = 0.0, 0.0
    for c in clusters:
        if len(c) == 1 and singletons:
            p += 1
            if c[0] in to_gold and len(out[to_gold[c[0]]]) == 1:
                tp += 1
            continue
        p += len(c) - 1
        tp += len(c)
        linked: set[int] = set()
        split = None
        for m in c:
            if _split(m):
                split = m
            elif m in to_gold:
                linked.add(to_gold[m])
            else:
                tp -= 1
        if split is not None:
            if split in credit and to_gold[credit[split][0]] in linked:
                tp -= 1 - credit[split][1]
            else:
                tp -= 1
        tp -= len(linked)
    return tp, p


def _phi3(c1: Cluster, c2: Cluster, credit: Credit) -> float:
    overlap = 0.0
    for m in c1:
        if _split(m):
            if m in credit and credit[m][0] in c2:
                overlap += credit[m][1]
        elif m in c2:
            overlap += 1
    return overlap


def _ceaf(resp: Sequence[Cluster], key: Sequence[Cluster], credit: Credit, entity: bool) -> Quad:
    scores = np.zeros((len(key), len(resp)))
    for i, k in enumerate(key):
        for j, r in enumerate(resp):
            phi = _phi3(k, r, credit)
            scores[i, j] = 2 * phi / (len(k) + len(r)) if entity else phi
    rows, cols = linear_sum_assignment(-scores)
    sim = float(scores[rows, cols].sum())
    if entity:
        return sim, len(resp), sim, len(key)
    return sim, sum(map(len, resp)), sim, sum(map(len, key))


def _lea(
    clusters: Sequence[Cluster],
    out: Sequence[Cluster],
    to_gold: Mapping[Hashable, int],
    credit: Credit,
) -> tuple[float, float]:
    num, den = 0.0, 0.0
    for c in clusters:
        if len(c) == 1:
            all_links = 1.0
            common = 1.0 if c[0] in to_gold and len(out[to_gold[c[0]]]) == 1 else 0.0
        else:
            common, all_links = 0.0, len(c) * (len(c) - 1) / 2.0
            for i, m in enumerate(c):
                score = 1.0
                if _split(m) and m in credit:
                    m, score = credit[m]
                if m not in to_gold:
                    continue
                for m2 in c[i + 1 :]:
                    score2 = 1.0
                    if _split(m2) and m2 in credit:
                        m2, score2 = credit[m2]
                    if m2 in to_gold and to_gold[m] == to_gold[m2]:
                        common += score * score2
        num += len(c) * common / all_links
        den += len(c)
    return num, den


def _blanc(
    resp: Sequence[Cluster],
    key: Sequence[Cluster],
    to_resp: Mapping[Hashable, int],
    credit: Credit,
) -> BlancCounts:
    c_num, n_num = 0.0, 0.0
    resolved = [[credit.get(m, (m, 1.0)) if _split(m) else (m, 1.0) for m in c] for c in key]
    for cid, c in enumerate(resolved):
        for i, (m, score) in enumerate(c):
            if m not in to_resp:
                continue
            for m2 in key[cid][i + 1 :]:  # coreference links: the later mention as it is
                if m2 in to_resp and to_resp[m] == to_resp[m2]:
                    c_num += score
            for c2 in resolved[cid + 1 :]:
                for m2, score2 in c2:
                    if m2 in to_resp and to_resp[m] != to_resp[m2]:
                        n_num += score * score2

    def links(cs: Sequence[Cluster]) -> tuple[float, float]:
        n = sum(map(len, cs))
        same = sum(len(c) * (len(c) - 1) / 2 for c in cs)
        return same, n * (n - 1) / 2 - same

    (ck, nk), (cr, nr) = links(key), links(resp)
    return BlancCounts(c_num, ck, cr, n_num, nk, nr)


def _counts(
    name: str,
    key: Sequence[Cluster],
    resp: Sequence[Cluster],
    credits: tuple[Credit, Credit, Credit],
    singletons: bool = False,
) -> Quad:
    """(p_num, p_den, r_num, r_den) of one metric; ``credits``: key split → recall credit,
    response split → precision credit, key split → F1 credit."""
    key_to_resp, resp_to_key = _index(resp), _index(key)
    r_credit, p_credit, f_credit = credits
    if name == "bcub":
        return (*_bcub(resp, resp_to_key, p_credit), *_bcub(key, key_to_resp, r_credit))
    if name == "muc":
        return (
            *_muc(resp, key, resp_to_key, p_credit, singletons),
            *_muc(key, resp, key_to_resp, r_credit, singletons),
        )
    if name in ("ceafm", "ceafe"):
        return _ceaf(resp, key, f_credit, name == "ceafe")
    if name == "lea":
        return (*_lea(resp, key, resp_to_key, p_credit), *_lea(key, resp, key_to_resp, r_credit))
    b = _blanc(resp, key, key_to_resp, f_credit)
    return (
        (b.c_both, b.c_resp, b.c_both, b.c_key)
        if name == "blancc"
        else (
            b.n_both,
            b.n_resp,
            b.n_both,
            b.n_key,
        )
    )


def _f1(pn: float, pd: float, rn: float, rd: float) -> float:
    p = pn / pd if pd and pn else 0.0
    r = rn / rd if rd and rn else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def _align(
    name: str, key: Sequence[Cluster], resp: Sequence[Cluster]
) -> tuple[Credit, Credit, Credit]:
    """The split antecedents paired on ``name``'s F1 over their antecedent entities."""
    ks = [m for c in key for m in c if _split(m)] or [SplitAntecedent(frozenset())]
    rs = [m for c in resp for m in c if _split(m)] or [SplitAntecedent(frozenset())]
    shape = (len(ks), len(rs))
    rec, prec, f = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    for i, k in enumerate(ks):
        kc = [list(x) for x in k.members]  # type: ignore[attr-defined]
        for j, r in enumerate(rs):
            rc = [list(x) for x in r.members]  # type: ignore[attr-defined]
            pn, pd, rn, rd = _counts(name, kc, rc, ({}, {}, {}), singletons=True)
            prec[i, j] = pn / pd if pn else 0.0
            rec[i, j] = rn / rd if rn else 0.0
            f[i, j] = _f1(pn, pd, rn, rd)
    rows, cols = linear_sum_assignment(-f)
    pairs = list(zip(rows.tolist(), cols.tolist(), strict=True))
    r_credit = {ks[i]: (rs[j], float(rec[i, j])) for i, j in pairs if rec[i, j] > 0}
    p_credit = {rs[j]: (ks[i], float(prec[i, j])) for i, j in pairs if prec[i, j] > 0}
    f_credit = {ks[i]: (rs[j], float(f[i, j])) for i, j in pairs if f[i, j] > 0}
    return r_credit, p_credit, f_credit


def score_document_with_splits(
    key_entities: Sequence[Sequence[Hashable]],
    response_entities: Sequence[Sequence[Hashable]],
    key_plurals: Mapping[int, Sequence[int]],
    response_plurals: Mapping[int, Sequence[int]],
) -> DocumentScores:
    """Every score of one document with split antecedents (module docstring): ``*_plurals``
    map an entity's index to the indices of its antecedent entities. Mention F1 is over the
    real mentions only; without split antecedents on either side the scores are those of
    :func:`~iaa_desktop.core.metrics.coref_scores.score_document`.

    >>> key = [["a", "b"], ["c", "d"], ["e"], ["f", "g"]]  # the UA scorer's case TC-PA-4
    >>> s = score_document_with_splits(key, key[:3] + [["f", "g"]], {3: [0, 1]}, {})
    >>> round(s.to_json()["muc"]["recall"], 4), s.to_json()["muc"]["precision"]
    (0.75, 1.0)
    """
    plain = score_document(key_entities, response_entities)
    if not any(key_plurals.values()) and not any(response_plurals.values()):
        return plain
    key = clusters_with_splits(key_entities, key_plurals)
    resp = clusters_with_splits(response_entities, response_plurals)
    counts = dict(plain.counts)
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        pn, pd, rn, rd = _counts(name, key, resp, _align(name, key, resp))
        counts[name] = Counts(rn, rd, pn, pd)
    c = _counts("blancc", key, resp, _align("blancc", key, resp))
    n = _counts("blancn", key, resp, _align("blancn", key, resp))
    blanc = BlancCounts(c[0], c[3], c[1], n[0], n[3], n[1])
    return DocumentScores(counts, blanc)


__all__ = ["SplitAntecedent", "clusters_with_splits", "score_document_with_splits"]

r"""Test oracle: coreference scores from dense overlap matrices, written independently of
``iaa_desktop.core.metrics.coref_scores`` (the project's scorer, built on a sparse contingency
table); the tests compare the two on random corpora.

Standard coreference scores between a key and a response partition of mentions.

MUC (Vilain et al. 1995), B³ (Bagga & Baldwin 1998), CEAF-m and CEAF-e (Luo 2005), BLANC
(Recasens & Hovy 2011, with predicted mentions as in Luo et al. 2014), LEA (Moosavi & Strube 2016),
the CoNLL average (MUC, B³, CEAF-e F1) and mention-level F1, as implemented by the reference scorer
(Pradhan et al. 2014, "Scoring Coreference Partitions of Predicted Mentions: A Reference
Implementation"). Entities are sets of exact-span mentions; a mention repeated in one entity counts
once. Each score is kept as numerator/denominator counts per document, so a corpus is scored as the
reference scorer does: sum the counts over documents, then divide.

BLANC follows the reference scorer: which half is reported is decided by the key alone — no key
coreference links → the non-coreference half; no key non-coreference links → the coreference half;
otherwise the mean of both; F1 is (F_c + F_n) / 2.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np

Entity = Sequence[Hashable]
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions")


def _f1(r: float, p: float) -> float:
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def _div(a: float, b: float) -> float:
    return a / b if b else 0.0


@dataclass
class Counts:
    """Recall and precision as numerator/denominator pairs (summed over documents)."""

    r_num: float = 0.0
    r_den: float = 0.0
    p_num: float = 0.0
    p_den: float = 0.0

    def __iadd__(self, other: Counts) -> Counts:
        self.r_num += other.r_num
        self.r_den += other.r_den
        self.p_num += other.p_num
        self.p_den += other.p_den
        return self

    def prf(self) -> dict[str, float]:
        r, p = _div(self.r_num, self.r_den), _div(self.p_num, self.p_den)
        return {"recall": r, "precision": p, "f1": _f1(r, p)}


@dataclass
class BlancCounts:
    """Link counts of BLANC: coreference (c) and non-coreference (n) links."""

    c_key: float = 0.0
    c_resp: float = 0.0
    c_both: float = 0.0
    n_key: float = 0.0
    n_resp: float = 0.0
    n_both: float = 0.0

    def __iadd__(self, o: BlancCounts) -> BlancCounts:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(o, k))
        return self

    def prf(self) -> dict[str, float]:
        rc, pc = _div(self.c_both, self.c_key), _div(self.c_both, self.c_resp)
        rn, pn = _div(self.n_both, self.n_key), _div(self.n_both, self.n_resp)
        fc, fn = _f1(rc, pc), _f1(rn, pn)
        if self.c_key == 0 and self.n_key == 0:
            return {"recall": 0.0, "precision": 0.0, "f1": 0.0}
        if self.c_key == 0:
            return {"recall": rn, "precision": pn, "f1": fn}
        if self.n_key == 0:
            return {"recall": rc, "precision": pc, "f1": fc}
        return {"recall": (rc + rn) / 2, "precision": (pc + pn) / 2, "f1": (fc + fn) / 2}


@dataclass
class DocumentScores:
    counts: dict[str, Counts] = field(default_factory=dict)
    blanc: BlancCounts = field(default_factory=BlancCounts)

    def __iadd__(self, other: DocumentScores) -> DocumentScores:
        for k, c in other.counts.items():
            self.counts.setdefault(k, Counts())
            self.counts[k] += c
        self.blanc += other.blanc
        return self

    def to_json(self) -> dict[str, dict[str, float]]:
        out = {
            k: self.counts[k].prf()
            for k in ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions")
            if k in self.counts
        }
        out["blanc"] = self.blanc.prf()
        out["conll"] = {"f1": (out["muc"]["f1"] + out["bcub"]["f1"] + out["ceafe"]["f1"]) / 3}
        return out


def _clean(entities: Sequence[Entity]) -> list[list[Hashable]]:
    out, seen = [], set()
    for e in entities:
        ent = []
        for m in e:
            if m not in seen:
                seen.add(m)
                ent.append(m)
        if ent:
            out.append(ent)
    return out


def _overlap(key: list[list[Hashable]], resp: list[list[Hashable]]) -> np.ndarray:
    """|k ∩ r| for every key entity k and response entity r (sparse incidence product)."""
    from scipy.sparse import csr_matrix

    index: dict[Hashable, int] = {}
    for e in key + resp:
        for m in e:
            index.setdefault(m, len(index))

    def inc(ents):
        rows = [i for i, e in enumerate(ents) for _ in e]
        cols = [index[m] for e in ents for m in e]
        return csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(ents), len(index)))

    if not key or not resp:
        return np.zeros((len(key), len(resp)))
    return (inc(key) @ inc(resp).T).toarray()


def _muc(key, resp) -> tuple[float, float]:
    """Σ_k (|k| − |p(k)|) and Σ_k (|k| − 1), p(k) = parts of k cut by the response (missing
    mentions are parts of their own)."""
    where = {m: j for j, e in enumerate(resp) for m in e}
    num = den = 0.0
    for e in key:
        parts = {where.get(m, ("missing", m)) for m in e}
        num += len(e) - len(parts)
        den += len(e) - 1
    return num, den


def _lea(key, resp) -> tuple[float, float]:
    where = {m: j for j, e in enumerate(resp) for m in e}
    resp_size = [len(e) for e in resp]
    num = den = 0.0
    for e in key:
        if len(e) == 1:
            j = where.get(e[0])
            common = 1.0 if j is not None and resp_size[j] == 1 else 0.0
            links = 1.0
        else:
            links = len(e) * (len(e) - 1) / 2
            groups: dict[int, int] = {}
            for m in e:
                j = where.get(m)
                if j is not None:
                    groups[j] = groups.get(j, 0) + 1
            common = sum(c * (c - 1) / 2 for c in groups.values())
        num += len(e) * common / links
        den += len(e)
    return num, den


def score_document(
    key_entities: Sequence[Entity], response_entities: Sequence[Entity]
) -> DocumentScores:
    """All scores of one document (key = the first annotator)."""
    from scipy.optimize import linear_sum_assignment

    key, resp = _clean(key_entities), _clean(response_entities)
    ov = _overlap(key, resp)
    ks = np.array([len(e) for e in key], dtype=float)
    rs = np.array([len(e) for e in resp], dtype=float)
    out = DocumentScores()
    m_num, m_den = _muc(key, resp)
    p_num, p_den = _muc(resp, key)
    out.counts["muc"] = Counts(m_num, m_den, p_num, p_den)
    sq = ov**2
    out.counts["bcub"] = Counts(
        float((sq / ks[:, None]).sum()) if len(ks) and len(rs) else 0.0,
        float(ks.sum()),
        float((sq / rs[None, :]).sum()) if len(ks) and len(rs) else 0.0,
        float(rs.sum()),
    )
    if ov.size:
        r, c = linear_sum_assignment(-ov)
        phi_m = float(ov[r, c].sum())
        phi4 = 2 * ov / (ks[:, None] + rs[None, :])
        r, c = linear_sum_assignment(-phi4)
        phi_e = float(phi4[r, c].sum())
    else:
        phi_m = phi_e = 0.0
    out.counts["ceafm"] = Counts(phi_m, float(ks.sum()), phi_m, float(rs.sum()))
    out.counts["ceafe"] = Counts(phi_e, float(len(key)), phi_e, float(len(resp)))
    l_num, l_den = _lea(key, resp)
    lp_num, lp_den = _lea(resp, key)
    out.counts["lea"] = Counts(l_num, l_den, lp_num, lp_den)
    key_m = {m for e in key for m in e}
    resp_m = {m for e in resp for m in e}
    common = key_m & resp_m
    out.counts["mentions"] = Counts(len(common), len(key_m), len(common), len(resp_m))

    # BLANC link counts
    def pairs(n):
        return n * (n - 1) / 2

    c_key = float(sum(pairs(len(e)) for e in key))
    c_resp = float(sum(pairs(len(e)) for e in resp))
    c_both = float(pairs(ov).sum()) if ov.size else 0.0
    n_key = pairs(len(key_m)) - c_key
    n_resp = pairs(len(resp_m)) - c_resp
    key_common = float(sum(pairs(sum(1 for m in e if m in common)) for e in key))
    resp_common = float(sum(pairs(sum(1 for m in e if m in common)) for e in resp))
    n_both = pairs(len(common)) - key_common - resp_common + c_both
    out.blanc = BlancCounts(c_key, c_resp, c_both, n_key, n_resp, n_both)
    return out


def score_corpus(documents: Sequence[tuple[Sequence[Entity], Sequence[Entity]]]) -> DocumentScores:
    """Scores over several documents: counts summed, then divided (micro), as the reference scorer."""
    total = DocumentScores()
    for key, resp in documents:
        total += score_document(key, resp)
    return total

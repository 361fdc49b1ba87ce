"""Coreference scores: MUC, B³, CEAF-m, CEAF-e, BLANC, LEA, the CoNLL average and mention F1.

The project's one coreference scorer. Pure numpy/scipy. A partition is given as one integer
array of *entity labels* per side over a shared mention index: ``key[i]`` is the key entity of
mention ``i`` (``-1`` when the key lacks that mention), ``response[i]`` likewise
(:func:`labels_from_entities` builds them from lists of entities). Every score is derived from
the sparse contingency table ``n_ij = |K_i ∩ R_j|`` (key entity × response entity), so a
document with hundreds of thousands of mentions costs a sort, not a Python loop.

Each metric returns :class:`Counts` (recall numerator/denominator, precision numerator/
denominator; BLANC its link counts, :class:`BlancCounts`); a corpus is scored as the reference
scorer does (Pradhan et al. 2014): the counts of the documents are added, then divided
(:class:`DocumentScores`).

A mention listed in two entities of one side (the same span twice) is kept in the first of them
only, in the order the entities are given, and an entity left empty is dropped: the reference
scorer's handling of a repeated response mention (its test case TC-A-8, where a key mention
repeated in a later response entity is removed from that entity before scoring).

References
----------
Vilain et al. (1995) MUC; Bagga & Baldwin (1998) B³; Luo (2005) CEAF; Recasens & Hovy (2011) and
Luo et al. (2014) BLANC; Pradhan et al. (2014) "Scoring Coreference Partitions of Predicted
Mentions: A Reference Implementation", ACL; Moosavi & Strube (2016) LEA, ACL.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

Entity = Sequence[Hashable]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions")


def _div(a: float, b: float) -> float:
    return float(a) / float(b) if b else 0.0


def _f1(recall: float, precision: float) -> float:
    """Harmonic mean 2RP / (R + P); 0 when both are 0."""
    return 2 * recall * precision / (recall + precision) if recall + precision > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Counts:
    """Recall = ``r_num / r_den``, precision = ``p_num / p_den`` (0 when a denominator is 0)."""

    r_num: float = 0.0
    r_den: float = 0.0
    p_num: float = 0.0
    p_den: float = 0.0

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.r_num + other.r_num,
            self.r_den + other.r_den,
            self.p_num + other.p_num,
            self.p_den + other.p_den,
        )

    def prf(self) -> dict[str, float]:
        """Recall, precision and F1 = 2RP / (R + P)."""
        r, p = _div(self.r_num, self.r_den), _div(self.p_num, self.p_den)
        return {"recall": r, "precision": p, "f1": _f1(r, p)}


@dataclass(frozen=True, slots=True)
class BlancCounts:
    """BLANC's link counts: coreference (``c_*``) and non-coreference (``n_*``) links of the key,
    of the response and common to both (see :func:`blanc`)."""

    c_both: float = 0.0
    c_key: float = 0.0
    c_resp: float = 0.0
    n_both: float = 0.0
    n_key: float = 0.0
    n_resp: float = 0.0

    def __add__(self, o: BlancCounts) -> BlancCounts:
        return BlancCounts(
            self.c_both + o.c_both,
            self.c_key + o.c_key,
            self.c_resp + o.c_resp,
            self.n_both + o.n_both,
            self.n_key + o.n_key,
            self.n_resp + o.n_resp,
        )

    def prf(self) -> dict[str, float]:
        """R = (R_c + R_n) / 2, P likewise, F1 = (F_c + F_n) / 2, or one half (see :func:`blanc`)."""
        rc, pc = _div(self.c_both, self.c_key), _div(self.c_both, self.c_resp)
        rn, pn = _div(self.n_both, self.n_key), _div(self.n_both, self.n_resp)
        fc, fn = _f1(rc, pc), _f1(rn, pn)
        if self.c_key == 0 and self.n_key == 0:
            return {"recall": 0.0, "precision": 0.0, "f1": 0.0}
        if self.c_key == 0:  # key has no coreference links: the non-coreference half only
            return {"recall": rn, "precision": pn, "f1": fn}
        if self.n_key == 0:  # key has no non-coreference links: the coreference half only
            return {"recall": rc, "precision": pc, "f1": fc}
        return {"recall": (rc + rn) / 2, "precision": (pc + pn) / 2, "f1": (fc + fn) / 2}


# --------------------------------------------------------------------------- contingency table


@dataclass(frozen=True, slots=True)
class Contingency:
    """Sparse key × response overlap table and the entity sizes on each side."""

    key_sizes: IntArray  # |K_i|
    resp_sizes: IntArray  # |R_j|
    rows: IntArray  # i of each nonzero cell
    cols: IntArray  # j of each nonzero cell
    n: IntArray  # |K_i ∩ R_j| of each nonzero cell
    #: mentions that are a singleton entity on both sides (LEA's resolved singletons)
    singletons_both: int


def _relabel(labels: IntArray) -> tuple[IntArray, IntArray]:
    """Dense 0..k-1 entity ids for present mentions (``-1`` kept) and the entity sizes."""
    out = np.full(labels.shape, -1, dtype=np.int64)
    present = labels >= 0
    if not present.any():
        return out, np.zeros(0, dtype=np.int64)
    uniq, inv = np.unique(labels[present], return_inverse=True)
    out[present] = inv
    return out, np.bincount(inv, minlength=len(uniq)).astype(np.int64)


def contingency(key: npt.ArrayLike, response: npt.ArrayLike) -> Contingency:
    """Build the overlap table of two labellings of the same mention index."""
    k, ks = _relabel(np.asarray(key, dtype=np.int64))
    r, rs = _relabel(np.asarray(response, dtype=np.int64))
    both = (k >= 0) & (r >= 0)
    if both.any():
        code = k[both] * max(len(rs), 1) + r[both]
        cells, n = np.unique(code, return_counts=True)
        rows, cols = cells // max(len(rs), 1), cells % max(len(rs), 1)
    else:
        rows = cols = n = np.zeros(0, dtype=np.int64)
    # sizes of each present mention's entity on either side (0 when absent)
    ksize = (
        np.where(k >= 0, ks[np.maximum(k, 0)], 0) if len(ks) else np.zeros(len(k), dtype=np.int64)
    )
    rsize = (
        np.where(r >= 0, rs[np.maximum(r, 0)], 0) if len(rs) else np.zeros(len(r), dtype=np.int64)
    )
    return Contingency(
        ks,
        rs,
        rows.astype(np.int64),
        cols.astype(np.int64),
        n.astype(np.int64),
        int(((ksize == 1) & (rsize == 1)).sum()),
    )


# ------------------------------------------------------------------------------------- metrics


def _muc_side(sizes: IntArray, part_rows: IntArray, part_n: IntArray) -> tuple[float, float]:
    # |p(K)| = number of other-side entities meeting K + number of K's mentions absent there
    covered = np.bincount(part_rows, weights=part_n, minlength=len(sizes))
    parts = np.bincount(part_rows, minlength=len(sizes)) + (sizes - covered)
    return float((sizes - parts).sum()), float((sizes - 1).sum())


def muc(c: Contingency) -> Counts:
    """MUC (Vilain et al. 1995): link-based.

    Recall = Σ_K (|K| − |p(K)|) / Σ_K (|K| − 1), where p(K) partitions K by the response
    entities (a mention missing from the response is its own part); precision swaps the sides.
    """
    rn, rd = _muc_side(c.key_sizes, c.rows, c.n)
    pn, pd = _muc_side(c.resp_sizes, c.cols, c.n)
    return Counts(rn, rd, pn, pd)


def bcub(c: Contingency) -> Counts:
    """B³ (Bagga & Baldwin 1998) as in the reference scorer.

    Recall = Σ_{K,R} |K ∩ R|² / |K| / Σ_K |K|; precision = Σ_{K,R} |K ∩ R|² / |R| / Σ_R |R|
    (mentions missing on the other side count in the denominators: Pradhan et al. 2014).
    """
    n2 = c.n.astype(float) ** 2
    rn = float((n2 / c.key_sizes[c.rows]).sum()) if len(n2) else 0.0
    pn = float((n2 / c.resp_sizes[c.cols]).sum()) if len(n2) else 0.0
    return Counts(rn, float(c.key_sizes.sum()), pn, float(c.resp_sizes.sum()))


def _best_alignment(c: Contingency, sim: FloatArray) -> float:
    """Maximum total similarity of a one-to-one entity alignment (Kuhn–Munkres per component).

    Entities that share no mention have similarity 0, so the bipartite graph splits into
    connected components that are solved independently.
    """
    if len(sim) == 0:
        return 0.0
    from scipy.optimize import linear_sum_assignment
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    nk, nr = len(c.key_sizes), len(c.resp_sizes)
    adj = coo_matrix((np.ones(len(c.rows)), (c.rows, nk + c.cols)), shape=(nk + nr, nk + nr))
    _, comp = connected_components(adj, directed=False)
    cell_comp = comp[c.rows]
    order = np.argsort(cell_comp, kind="stable")
    bounds = np.flatnonzero(np.diff(cell_comp[order])) + 1
    total = 0.0
    for idx in np.split(order, bounds):
        if len(idx) == 1:
            total += float(sim[idx[0]])
            continue
        ur, ir = np.unique(c.rows[idx], return_inverse=True)
        uc, ic = np.unique(c.cols[idx], return_inverse=True)
        m = np.zeros((len(ur), len(uc)))
        m[ir, ic] = sim[idx]
        a, b = linear_sum_assignment(m, maximize=True)
        total += float(m[a, b].sum())
    return total


def ceafm(c: Contingency) -> Counts:
    """Mention-based CEAF (Luo 2005): φ₃(K, R) = |K ∩ R|.

    Recall = max_g Σ φ₃(K, g(K)) / Σ|K|, precision = the same / Σ|R|, g a one-to-one alignment.
    """
    s = _best_alignment(c, c.n.astype(float))
    return Counts(s, float(c.key_sizes.sum()), s, float(c.resp_sizes.sum()))


def ceafe(c: Contingency) -> Counts:
    """Entity-based CEAF (Luo 2005): φ₄(K, R) = 2|K ∩ R| / (|K| + |R|).

    Recall = max_g Σ φ₄ / #key entities, precision = the same / #response entities.
    """
    sim = (
        2.0 * c.n / (c.key_sizes[c.rows] + c.resp_sizes[c.cols]) if len(c.n) else c.n.astype(float)
    )
    s = _best_alignment(c, sim)
    return Counts(s, float(len(c.key_sizes)), s, float(len(c.resp_sizes)))


def lea(c: Contingency) -> Counts:
    """LEA, link-based entity-aware (Moosavi & Strube 2016).

    Recall = Σ_K |K| · (Σ_R link(K ∩ R) / link(K)) / Σ_K |K| with link(n) = n(n − 1)/2; a key
    singleton counts as resolved (1/1) when the response has it as a singleton too. Precision
    swaps the sides.
    """

    def side(sizes: IntArray, own: IntArray, single_hits: int) -> tuple[float, float]:
        links = sizes * (sizes - 1) / 2.0
        common = np.bincount(own, weights=c.n * (c.n - 1) / 2.0, minlength=len(sizes))
        multi = sizes > 1
        num = float((sizes[multi] * common[multi] / links[multi]).sum()) + float(single_hits)
        return num, float(sizes.sum())

    rn, rd = side(c.key_sizes, c.rows, c.singletons_both)
    pn, pd = side(c.resp_sizes, c.cols, c.singletons_both)
    return Counts(rn, rd, pn, pd)


def blanc(c: Contingency) -> BlancCounts:
    """BLANC for predicted mentions (Luo et al. 2014), the reference scorer's convention.

    Coreference links C = mention pairs in one entity, non-coreference links N = pairs of
    mentions of the same side in different entities. R_c = |C_k ∩ C_r| / |C_k|,
    P_c = |C_k ∩ C_r| / |C_r|, likewise R_n, P_n; F1 = (F_c + F_n) / 2, R = (R_c + R_n) / 2,
    P = (P_c + P_n) / 2. The half to report is decided from the **key** alone: no coreference
    links in the key → the non-coreference half only; no non-coreference links → the
    coreference half only (the universal-anaphora scorer's rule differs: see the cases' README).
    Over documents the link counts are added before dividing.
    """

    def pairs(x: npt.ArrayLike) -> float:
        x = np.asarray(x, dtype=float)
        return float((x * (x - 1) / 2.0).sum())

    ck, cr = pairs(c.key_sizes), pairs(c.resp_sizes)
    common_c = pairs(c.n)
    nk_m, nr_m = float(c.key_sizes.sum()), float(c.resp_sizes.sum())
    nk = nk_m * (nk_m - 1) / 2.0 - ck
    nr = nr_m * (nr_m - 1) / 2.0 - cr
    # common non-coreference links: among mentions present on both sides, pairs split by both
    n_common = float(c.n.sum())
    same_k = pairs(np.bincount(c.rows, weights=c.n, minlength=len(c.key_sizes)))
    same_r = pairs(np.bincount(c.cols, weights=c.n, minlength=len(c.resp_sizes)))
    common_n = n_common * (n_common - 1) / 2.0 - same_k - same_r + common_c
    return BlancCounts(common_c, ck, cr, common_n, nk, nr)


def mentions(c: Contingency) -> Counts:
    """Mention identification (exact spans): recall = |K ∩ R| / |K|, precision = |K ∩ R| / |R|."""
    common = float(c.n.sum())
    return Counts(common, float(c.key_sizes.sum()), common, float(c.resp_sizes.sum()))


_COUNTS = {
    "muc": muc,
    "bcub": bcub,
    "ceafm": ceafm,
    "ceafe": ceafe,
    "lea": lea,
    "mentions": mentions,
}


@dataclass(frozen=True)
class DocumentScores:
    """The counts of every metric for one document, or summed over a corpus (``+``)."""

    counts: Mapping[str, Counts] = field(default_factory=dict)
    blanc: BlancCounts = field(default_factory=BlancCounts)

    def __add__(self, other: DocumentScores) -> DocumentScores:
        names = list(dict.fromkeys([*self.counts, *other.counts]))
        return DocumentScores(
            {k: self.counts.get(k, Counts()) + other.counts.get(k, Counts()) for k in names},
            self.blanc + other.blanc,
        )

    def to_json(self) -> dict[str, dict[str, float]]:
        """Recall/precision/F1 of every metric and ``conll`` = mean F1 of MUC, B³ and CEAF-e."""
        out = {k: self.counts[k].prf() for k in _COUNTS if k in self.counts}
        out["blanc"] = self.blanc.prf()
        if all(k in out for k in ("muc", "bcub", "ceafe")):
            f1 = (out["muc"]["f1"] + out["bcub"]["f1"] + out["ceafe"]["f1"]) / 3.0
            out["conll"] = {"f1": f1}
        return out


def score_labels(key: npt.ArrayLike, response: npt.ArrayLike) -> DocumentScores:
    """Every score of one document given as entity labels over a shared mention index."""
    c = contingency(np.asarray(key), np.asarray(response))
    return DocumentScores({name: f(c) for name, f in _COUNTS.items()}, blanc(c))


def labels_from_entities(
    key_entities: Sequence[Entity], response_entities: Sequence[Entity]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Entity label arrays over a shared mention index from two lists of entities.

    Mentions are any hashable values (e.g. ``(type, start, end)``). A mention listed twice on one
    side keeps its first entity (in the order given), as the reference scorer keeps a repeated
    response mention in its first entity; an entity whose every mention was listed before is
    dropped, so entity numbers count the entities left.
    """
    index: dict[Hashable, int] = {}
    for ents in (key_entities, response_entities):
        for e in ents:
            for m in e:
                index.setdefault(m, len(index))
    out = []
    for ents in (key_entities, response_entities):
        lab = np.full(len(index), -1, dtype=np.int64)
        j = 0
        for e in ents:
            fresh = [index[m] for m in e if lab[index[m]] < 0]
            if fresh:
                lab[fresh] = j
                j += 1
        out.append(lab)
    return out[0], out[1]


def score_document(
    key_entities: Sequence[Entity], response_entities: Sequence[Entity]
) -> DocumentScores:
    """Every score of one document given as two lists of entities (key = the first annotator).

    >>> s = score_document([["a"], ["b", "c"], ["d", "e", "f"]], [["a"], ["d", "e"]])
    >>> s.to_json()["muc"]  # the reference scorer's test case TC-A-2: R = 1/3, P = 1/1
    {'recall': 0.3333333333333333, 'precision': 1.0, 'f1': 0.5}
    """
    return score_labels(*labels_from_entities(key_entities, response_entities))


def score_corpus(
    documents: Iterable[tuple[Sequence[Entity], Sequence[Entity]]],
) -> DocumentScores:
    """Scores over several documents: counts summed, then divided (micro), as the reference
    scorer does."""
    total = DocumentScores()
    for key, resp in documents:
        total = total + score_document(key, resp)
    return total

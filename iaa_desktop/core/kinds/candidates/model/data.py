"""Pairwise outcomes and design matrices of the agreement model (numpy and pandas only).

For every item and every pair of annotators (x, y), x before y in the study's annotator order,
who both labelled it, the outcome is ``o = k_x·q + k_y`` (labels coded 0..q−1 in the study's
category order), one of q² outcomes; outcome 0 (both gave the first category, ``00``) is the pivot
of the baseline-category logits (the Bernard of Clairvaux agreement study, Eq. 3–6).

Models are named as in the paper's Table 2: ``m`` (annotator-pair intercepts only), ``m.M``
(+ retrieval method), ``m.MB`` (+ source book), ``m.kMB`` (+ the "known" flag), ``m.klMB``
(+ lexical overlap). The source book gets varying intercepts; retrieval method, "known" and
overlap are fixed effects. The paper's §3.1 describes ``m.M`` as adding the method "as binary
predictor" but also lists it among the varying intercepts: with two levels the standard deviation
of a varying intercept is hardly identified, and on the candidate-pairs data such a model sampled
with divergent transitions in three times the time of the one with a fixed effect (a user-chosen
model may still give the method varying intercepts). Every annotator pair gets its own
intercepts: with three pairs, partial pooling over pairs is not identified either. A
user-chosen model names its fixed effects and varying intercepts among the study's factor
columns; ``overlap`` is the lexical overlap, z-scored with the population standard deviation.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import InsufficientDataError, OptionError

OVERLAP = "overlap"

#: the paper's five nested models: name → (fixed effects, varying intercepts), as roles
NAMED_MODELS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "m": ((), ()),
    "m.M": (("method",), ()),
    "m.MB": (("method",), ("book",)),
    "m.kMB": (("method", "known"), ("book",)),
    "m.klMB": (("method", "known", OVERLAP), ("book",)),
}
MODEL_NAMES = tuple(NAMED_MODELS)
#: what the letters of the names stand for
ROLE_LETTERS = {"method": "M", "book": "B", "known": "k", OVERLAP: "l"}


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """Which factors enter one model: fixed effects and varying intercepts (by column name)."""

    name: str
    fixed: tuple[str, ...] = ()
    varying: tuple[str, ...] = ()

    def formula(self) -> str:
        """The linear predictor of each of the q²−1 logits, in lme4/brms notation."""
        terms = ["0 + annotator_pair", *self.fixed, *(f"(1 | {v})" for v in self.varying)]
        return "log(θ_o / θ_00) ~ " + " + ".join(terms)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "fixed": list(self.fixed),
            "varying": list(self.varying),
            "formula": self.formula(),
        }


def _role_column(role: str, factors: Sequence[str]) -> str | None:
    """The factor column standing for a role (``method``, ``book``, ``known``)."""
    if role == OVERLAP:
        return OVERLAP
    low = {f.lower(): f for f in factors}
    if role in low:
        return low[role]
    hits = [f for f in factors if role in f.lower()]
    return hits[0] if len(hits) == 1 else None


def named_spec(name: str, factors: Sequence[str]) -> ModelSpec:
    """The paper's model ``name`` for a study with these factor columns."""
    if name not in NAMED_MODELS:
        raise OptionError(f"Unknown model '{name}'; choose one of {', '.join(MODEL_NAMES)}.")
    fixed_roles, varying_roles = NAMED_MODELS[name]
    cols: dict[str, str] = {}
    for role in fixed_roles + varying_roles:
        col = _role_column(role, factors)
        if col is None:
            raise OptionError(
                f"Model {name} needs a '{role}' factor column; this study's factors are "
                f"{', '.join(factors) or 'none'}. Choose a custom model (fixed effects and "
                "varying intercepts among the study's factors) instead."
            )
        cols[role] = col
    return ModelSpec(
        name, tuple(cols[r] for r in fixed_roles), tuple(cols[r] for r in varying_roles)
    )


def _names(text: str | Sequence[str]) -> tuple[str, ...]:
    if isinstance(text, str):
        return tuple(t.strip() for t in text.split(",") if t.strip())
    return tuple(text)


def custom_spec(
    fixed: str | Sequence[str], varying: str | Sequence[str], factors: Sequence[str]
) -> ModelSpec:
    """A user-chosen model: fixed effects and varying intercepts among ``factors`` (+ overlap)."""
    f, v = _names(fixed), _names(varying)
    known = set(factors) | {OVERLAP}
    for name in f + v:
        if name not in known:
            raise OptionError(
                f"'{name}' is not a factor of this study; choose among {', '.join(sorted(known))}."
            )
    both = set(f) & set(v)
    if both:
        raise OptionError(
            f"{', '.join(sorted(both))}: a factor is either a fixed effect or has varying "
            "intercepts, not both."
        )
    if OVERLAP in v:
        raise OptionError("Lexical overlap is continuous: it can only be a fixed effect.")
    return ModelSpec("custom", f, v)


@dataclass(frozen=True, slots=True)
class FixedTerm:
    """One fixed effect: continuous (z-scored) or categorical (dummy columns, first level the
    reference)."""

    name: str
    levels: tuple[str, ...] = ()  # empty for a continuous term
    center: float = 0.0
    scale: float = 1.0

    @property
    def columns(self) -> list[str]:
        if not self.levels:
            return [self.name]
        return [f"{self.name}[{lv}]" for lv in self.levels[1:]]

    def encode(self, value: Any) -> NDArray[Any]:
        """The design columns of one value (a level, or a z-score for a continuous term)."""
        if not self.levels:
            return np.array([float(value)])
        out = np.zeros(len(self.levels) - 1)
        k = self.levels.index(str(value))
        if k > 0:
            out[k - 1] = 1.0
        return out


def level_order(values: Sequence[str]) -> list[str]:
    """Levels sorted as numbers where they are numbers, else as text (as the kind's tables)."""

    def key(s: str) -> tuple[float, str]:
        try:
            return (float(s), s)
        except ValueError:
            return (math.inf, s)

    return sorted(set(values), key=key)


@dataclass(frozen=True, eq=False)
class OutcomeData:
    """The pairwise outcomes of a study and the design of one model (read-only arrays)."""

    spec: ModelSpec
    y: NDArray[Any]  # (n,) outcome code k_x·q + k_y
    item: NDArray[Any]  # (n,) row of the item in the study's pairs table
    pair: NDArray[Any]  # (n,) annotator pair index
    pair_names: tuple[str, ...]
    X: NDArray[Any]  # (n, p) fixed-effect design (no intercept)
    terms: tuple[FixedTerm, ...]
    groups: tuple[str, ...]
    group_idx: tuple[NDArray[Any], ...]
    group_levels: tuple[tuple[str, ...], ...]
    categories: tuple[str, ...]
    annotators: tuple[str, ...]
    #: P(k | x): share of annotator x's labels that are category k, over the whole data set
    label_share: NDArray[Any]
    #: chance agreement of the paper's Eq. 8 from ``label_share``
    chance_eq8: float
    #: share of items at each level of each categorical factor of the model
    level_weights: dict[str, dict[str, float]] = field(default_factory=dict)
    z_range: tuple[float, float] = (math.nan, math.nan)
    n_items: int = 0
    #: per item of the model, the level of each categorical fixed effect (to average over)
    item_values: dict[str, NDArray[Any]] = field(default_factory=dict)

    @property
    def q(self) -> int:
        return len(self.categories)

    @property
    def n_logits(self) -> int:
        return self.q * self.q - 1

    @property
    def x_names(self) -> list[str]:
        return [c for t in self.terms for c in t.columns]

    def outcome_names(self) -> list[str]:
        q = self.q
        if q <= 10 and all(len(c) == 1 for c in self.categories):
            return [f"{self.categories[a]}{self.categories[b]}" for a in range(q) for b in range(q)]
        return [f"{self.categories[a]}|{self.categories[b]}" for a in range(q) for b in range(q)]

    def design(self, values: dict[str, Any]) -> NDArray[Any]:
        """The fixed-effect row of one condition (``values``: term name → level or z-score)."""
        parts = [t.encode(values[t.name]) for t in self.terms]
        return np.concatenate(parts) if parts else np.zeros(0)

    def digest(self) -> str:
        """A hash of the outcomes, the design and the names (the cache key's data part)."""
        h = hashlib.sha256()
        for a in (self.y, self.item, self.pair, self.X, *self.group_idx):
            h.update(np.ascontiguousarray(a).tobytes())
            h.update(str(a.shape).encode())
        meta = (
            self.spec.to_json(),
            self.pair_names,
            [(t.name, t.levels, t.center, t.scale) for t in self.terms],
            self.group_levels,
            self.categories,
            self.annotators,
        )
        h.update(repr(meta).encode("utf-8"))
        return h.hexdigest()


def label_codes(
    pairs: pd.DataFrame, annotators: Sequence[str], categories: Sequence[str]
) -> NDArray[np.int64]:
    """Items × annotators codes (−1 = no label) from the label columns of the pairs table."""
    index = {c: k for k, c in enumerate(categories)}
    codes = np.full((len(pairs), len(annotators)), -1, dtype=np.int64)
    for j, a in enumerate(annotators):
        col = pairs[a].astype(str).to_numpy()
        codes[:, j] = [index.get(v, -1) for v in col]
    return codes


def chance_agreement_eq8(codes: NDArray[Any], q: int) -> tuple[float, NDArray[Any]]:
    """Eq. 8 of the paper: A_e = mean over annotator pairs of Σ_k P(k|x)·P(k|y).

    P(k|x) is the share of annotator x's labels that are k, over every item x labelled.
    """
    c = codes.shape[1]
    share = np.zeros((c, q))
    for x in range(c):
        v = codes[:, x][codes[:, x] >= 0]
        if len(v):
            share[x] = np.bincount(v, minlength=q) / len(v)
    terms = [float(share[x] @ share[y]) for x, y in combinations(range(c), 2)]
    return (float(np.mean(terms)) if terms else math.nan), share


def _fixed_term(name: str, column: pd.Series) -> tuple[FixedTerm, NDArray[Any]]:
    if name == OVERLAP:
        v = column.to_numpy(dtype=float)
        mu, sd = float(np.mean(v)), float(np.std(v))
        if not sd > 0:
            raise InsufficientDataError("Lexical overlap does not vary; it cannot be a predictor.")
        return FixedTerm(name, (), mu, sd), ((v - mu) / sd)[:, None]
    values = column.astype(str)
    levels = tuple(level_order(values.tolist()))
    term = FixedTerm(name, levels)
    cols = np.stack([(values == lv).to_numpy(float) for lv in levels[1:]], axis=1)
    return term, cols.reshape(len(values), len(levels) - 1)


def build_outcomes(
    pairs: pd.DataFrame,
    annotators: Sequence[str],
    categories: Sequence[str],
    spec: ModelSpec,
) -> OutcomeData:
    """Outcomes of every annotator pair of every item, with the design of ``spec``.

    ``pairs`` is the kind's table of pairs (factor columns, ``overlap``, one label column per
    annotator). Items without a lexical overlap are left out when overlap is a predictor.
    """
    q = len(categories)
    if q < 2:
        raise InsufficientDataError("The model needs at least two label categories.")
    if len(annotators) < 2:
        raise InsufficientDataError("The model needs the labels of at least two annotators.")
    codes_all = label_codes(pairs, annotators, categories)
    chance, share = chance_agreement_eq8(codes_all, q)
    keep = np.ones(len(pairs), bool)
    if OVERLAP in spec.fixed:
        keep &= np.isfinite(pd.to_numeric(pairs[OVERLAP], errors="coerce").to_numpy(float))
    rows = np.flatnonzero(keep)
    sub = pairs.iloc[rows].reset_index(drop=True)
    codes = codes_all[rows]
    terms, blocks = [], []
    for name in spec.fixed:
        t, b = _fixed_term(name, sub[name])
        terms.append(t)
        blocks.append(b)
    x_item = np.concatenate(blocks, axis=1) if blocks else np.zeros((len(sub), 0))
    g_levels, g_item = [], []
    for g in spec.varying:
        vals = sub[g].astype(str)
        lv = tuple(level_order(vals.tolist()))
        g_levels.append(lv)
        g_item.append(vals.map({v: k for k, v in enumerate(lv)}).to_numpy(np.int64))
    ys, items, prs, names = [], [], [], []
    for p, (x, yy) in enumerate(combinations(range(len(annotators)), 2)):
        both = np.flatnonzero((codes[:, x] >= 0) & (codes[:, yy] >= 0))
        ys.append(codes[both, x] * q + codes[both, yy])
        items.append(both)
        prs.append(np.full(len(both), p))
        names.append(f"{annotators[x]}–{annotators[yy]}")
    item = np.concatenate(items)
    if len(item) == 0:
        raise InsufficientDataError("No item was labelled by two annotators; nothing to model.")
    weights = {
        name: (sub[name].astype(str).value_counts(normalize=True)).to_dict()
        for name in list(spec.fixed) + list(spec.varying)
        if name != OVERLAP
    }
    z = x_item[:, [t.name for t in terms].index(OVERLAP)] if OVERLAP in spec.fixed else None
    data = OutcomeData(
        spec=spec,
        y=np.concatenate(ys).astype(np.int64),
        item=rows[item],
        pair=np.concatenate(prs).astype(np.int64),
        pair_names=tuple(names),
        X=_ro(x_item[item]) if x_item.shape[1] else np.zeros((len(item), 0)),
        terms=tuple(terms),
        groups=tuple(spec.varying),
        group_idx=tuple(_ro(g[item]) for g in g_item),
        group_levels=tuple(g_levels),
        categories=tuple(categories),
        annotators=tuple(annotators),
        label_share=_ro(share),
        chance_eq8=chance,
        level_weights={k: {str(a): float(b) for a, b in v.items()} for k, v in weights.items()},
        z_range=(float(z.min()), float(z.max())) if z is not None else (math.nan, math.nan),
        n_items=int(len(np.unique(item))),
        item_values={
            t.name: sub[t.name].astype(str).to_numpy()[np.unique(item)] for t in terms if t.levels
        },
    )
    for a in (data.y, data.item, data.pair, data.X):
        a.setflags(write=False)
    return data


def _ro(a: NDArray[Any]) -> NDArray[Any]:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a

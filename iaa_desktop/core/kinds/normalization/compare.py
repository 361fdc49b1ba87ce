"""Historical spelling normalization (kind ``normalization``, Bollmann, Dipper & Petran 2016).

Each annotator gives every historical token a normalized form and, optionally, a modernized
form with a type (INFL, SEM, EXT). Agreement is reported

* word-based: the label of a token is its normalization;
* character-based: each unit (user-perceived character) of the historical token is labelled
  with its Diff label from a Needleman–Wunsch alignment (:mod:`iaa_desktop.core.align.characters`);

each as percent agreement, π* (Fleiss) and Krippendorff's α with the normalized Levenshtein
distance, for ALL tokens, MEDIUM (≥ 1 annotator changed the token) and STRICT (all did), overall
and per text; plus agreement on the modernization type (ORIG, NORM, INFL, SEM, EXT), the type
confusion matrix and character-based agreement of the modernized forms per type.

All coefficients over the many subsets (3 subsets × overall and every text × word and
character) come from :class:`~iaa_desktop.core.metrics.subsets.SubsetReliability`, which
computes the per-item parts once and then each subset from sums over a mask.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.align.characters import EMPTY_LABEL, CharacterAligner
from iaa_desktop.core.kinds.normalization import SPEC
from iaa_desktop.core.kinds.normalization.reader import (
    NormalizationData,
    expand_inputs,
    looks_like_normalization,
    read_normalization,
)
from iaa_desktop.core.kinds.spec import Setting, TaskResult, rename_annotators
from iaa_desktop.core.metrics.subsets import SubsetAgreement, SubsetReliability
from iaa_desktop.core.progress import Progress

__all__ = [
    "KIND",
    "SUBSETS",
    "TYPES",
    "NormalizationResult",
    "simplify",
]

SUBSETS = ("ALL", "MEDIUM", "STRICT")
#: modernization types in report order; ORIG and NORM are implied when no type is given
TYPES = ("ORIG", "NORM", "INFL", "SEM", "EXT")
MOD_TYPES = ("INFL", "SEM", "EXT")

SETTINGS = [
    Setting(
        "lowercase",
        "Lower-case everything",
        True,
        bool,
        (),
        "lower-case historical forms, normalizations and modernizations before comparing (as Bollmann et al. 2016 do)",
    ),
    Setting(
        "drop_punctuation",
        "Drop punctuation tokens",
        True,
        bool,
        (),
        "leave out tokens whose historical form is punctuation only (as Bollmann et al. 2016 do)",
    ),
    Setting(
        "raw_compare",
        "Compare raw strings only",
        False,
        bool,
        (),
        "a token counts as unchanged only when the normalization equals the (lower-cased) historical "
        "form; by default also when it equals the simplified form (ſ→s, abbreviation marks removed)",
    ),
    Setting(
        "tokens",
        "Include per-token units in JSON",
        False,
        bool,
        (),
        "add every token's Full and Diff units per annotator to the JSON output",
        gui=False,
    ),
]


# ---------------------------------------------------------------------------------------------
# unchanged / simplified forms


def simplify(s: str) -> str:
    """The simplified form of a historical spelling (Bollmann, Dipper & Petran 2016).

    ``ſ`` → ``s``, ``ꝰ`` → ``us``, ``ꝫ`` → ``et``, lower case, NFKD, drop combining marks and
    characters of the categories Co (private use), Mn, Lm and Sk, then NFC.

    >>> simplify("ſpricht"), simplify("vn\\u0304"), simplify("anſhelmꝰ")
    ('spricht', 'vn', 'anshelmus')
    """
    s = s.replace("ſ", "s").replace("ꝰ", "us").replace("ꝫ", "et").lower()
    s = unicodedata.normalize("NFKD", s)
    kept = [
        ch
        for ch in s
        if not unicodedata.combining(ch)
        and unicodedata.category(ch) not in ("Co", "Mn", "Lm", "Sk")
    ]
    return unicodedata.normalize("NFC", "".join(kept))


def is_unchanged(orig: str, norm: str, raw_compare: bool = False) -> bool:
    """Whether a normalization leaves the historical token unchanged (Bollmann, Dipper & Petran 2016).

    >>> is_unchanged("für", "für"), is_unchanged("ſpricht", "spricht"), is_unchanged("ſpricht", "spricht", True)
    (True, True, False)
    """
    low = orig.lower()
    if norm == low:
        return True
    return (not raw_compare) and norm == simplify(orig)


def _is_punctuation(s: str) -> bool:
    return bool(s) and all(unicodedata.category(ch)[0] == "P" for ch in s)


# ---------------------------------------------------------------------------------------------
# agreement over many subsets


@dataclass(frozen=True)
class Agreement:
    """Percent agreement, π* and α_NLD of one subset."""

    n_tokens: int
    percent_agreement: float
    pi: float
    alpha_nld: float | None = None
    n_units: int | None = None
    expected_pi: float = math.nan

    @classmethod
    def of(cls, a: SubsetAgreement, n_tokens: int | None = None, n_units: int | None = None):
        """The kind's record of a subset's coefficients (tokens, and units at character level)."""
        return cls(
            a.n_items if n_tokens is None else n_tokens,
            a.percent_agreement,
            a.pi,
            a.alpha_nld,
            n_units,
            a.expected_pi,
        )

    def to_json(self, alpha: bool = True) -> dict[str, Any]:
        def f(x: float | None) -> float | None:
            return None if x is None or not math.isfinite(x) else float(x)

        out: dict[str, Any] = {"n_tokens": self.n_tokens}
        if self.n_units is not None:
            out["n_units"] = self.n_units
        out["percent_agreement"] = f(self.percent_agreement)
        out["pi"] = f(self.pi)
        if alpha:
            out["alpha_nld"] = f(self.alpha_nld)
        return out


# ---------------------------------------------------------------------------------------------
# the comparison


@dataclass(frozen=True)
class CharacterData:
    """Character units of all tokens: ``codes`` (U × c) index ``labels`` (Diff labels)."""

    codes: np.ndarray
    labels: list[str]
    token_of_unit: np.ndarray  # (U,) token index of each unit
    n_units: np.ndarray  # (N,) units per token
    unit_start: np.ndarray  # (N,) first unit of each token


def _factorize_2d(values: np.ndarray) -> tuple[np.ndarray, list[str]]:
    codes, uniq = pd.factorize(values.ravel())
    return codes.reshape(values.shape).astype(np.int64), [str(u) for u in uniq]


def build_character_data(
    orig: Sequence[str], forms: np.ndarray, aligner: CharacterAligner
) -> CharacterData:
    """Diff-label codes of every unit for every annotator (aligning each distinct pair once)."""
    n, c = forms.shape
    # distinct (orig, form) pairs → one flat store of their label ids; a pair is the integer
    # key (orig code, form code), so finding the distinct ones is one hash pass over integers
    ocodes, ouniq = pd.factorize(np.asarray(orig, dtype=object))
    fcodes, funiq = pd.factorize(forms.ravel())
    n_forms = max(1, len(funiq))
    unit_len = np.fromiter((len(aligner.units(o)) for o in ouniq), dtype=np.int64, count=len(ouniq))
    n_units = unit_len[ocodes] if n else np.zeros(0, np.int64)
    unit_start = np.concatenate([[0], np.cumsum(n_units)[:-1]]) if n else np.zeros(0, np.int64)
    total = int(n_units.sum())
    keys = np.repeat(ocodes.astype(np.int64), c) * n_forms + fcodes
    pcodes, uniq = pd.factorize(keys)
    pidx = pcodes.reshape(n, c).astype(np.int64)
    pairs = [(ouniq[k // n_forms], funiq[k % n_forms]) for k in uniq.tolist()]
    aligner.prepare(pairs)
    store = [aligner.diff_ids(o, f) for o, f in pairs]
    lens = np.fromiter(map(len, store), dtype=np.int64, count=len(store))
    offs = np.concatenate(([0], np.cumsum(lens)[:-1])).astype(np.int64)
    flat = np.concatenate(store) if store else np.zeros(0, np.int32)
    token_of_unit = np.repeat(np.arange(n), n_units)
    within = np.arange(total) - np.repeat(unit_start, n_units)
    codes = np.empty((total, c), dtype=np.int64)
    for x in range(c):
        codes[:, x] = flat[np.repeat(offs[pidx[:, x]], n_units) + within]
    # compact the label ids to those used here (the aligner's vocabulary may hold more)
    used = np.zeros(len(aligner.labels), dtype=bool)
    used[flat] = True
    remap = np.cumsum(used) - 1
    labels = [aligner.labels[k] for k in np.flatnonzero(used)]
    return CharacterData(remap[codes], labels, token_of_unit, n_units, unit_start)


@dataclass
class NormalizationResult(TaskResult):
    """Everything the ``normalization`` kind computes (see the module docstring)."""

    spec = SPEC  # the kind's spec: report section, methods, adjudication

    annotators: tuple[str, ...] = ()
    text_ids: tuple[str, ...] = ()
    token_ids: tuple[str, ...] = ()
    orig: tuple[str, ...] = ()
    norm: np.ndarray = field(default_factory=lambda: np.empty((0, 0), object))
    mod: np.ndarray = field(default_factory=lambda: np.empty((0, 0), object))
    types: np.ndarray = field(default_factory=lambda: np.empty((0, 0), object))
    changed: np.ndarray = field(default_factory=lambda: np.empty((0, 0), bool))
    texts: tuple[str, ...] = ()
    word: dict[str, Agreement] = field(default_factory=dict)
    character: dict[str, Agreement] = field(default_factory=dict)
    per_text: list[dict[str, Any]] = field(default_factory=list)
    pairwise: dict[str, pd.DataFrame] = field(default_factory=dict)
    modernization: dict[str, Agreement] = field(default_factory=dict)
    confusion: pd.DataFrame = field(default_factory=pd.DataFrame)
    by_type: dict[str, Agreement] = field(default_factory=dict)
    disagreements: pd.DataFrame = field(default_factory=pd.DataFrame)
    token_agreement: np.ndarray = field(default_factory=lambda: np.empty(0))
    n_dropped_punctuation: int = 0
    aligner: CharacterAligner | None = None

    # -- per-token access (the view's character grid) -------------------------------------

    @property
    def n_tokens(self) -> int:
        return len(self.orig)

    def token_units(self, i: int) -> dict[str, Any]:
        """Units of token ``i`` and each annotator's Full/Diff labels (∅ for the empty label),
        plus the modernization layer (units against the modernized form, when one is given)."""
        aligner = self.aligner or CharacterAligner()
        o = self.orig[i]
        ann: dict[str, Any] = {}
        for x, name in enumerate(self.annotators):
            t = aligner.align(o, self.norm[i, x])
            mod = self.mod[i, x]
            m = aligner.align(o, mod) if mod else None
            ann[name] = {
                "norm": self.norm[i, x],
                "type": self.types[i, x],
                "full": [f or EMPTY_LABEL for f in t.full],
                "diff": [d or EMPTY_LABEL for d in t.diff],
                "mod": mod,
                "mod_full": [f or EMPTY_LABEL for f in m.full] if m else None,
                "mod_diff": [d or EMPTY_LABEL for d in m.diff] if m else None,
            }
        return {
            "text": self.text_ids[i],
            "token_id": self.token_ids[i],
            "orig": o,
            "units": list(aligner.units(o)),
            "annotators": ann,
        }

    # -- output ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "annotators": list(self.annotators),
            "n_tokens": self.n_tokens,
            "n_dropped_punctuation": self.n_dropped_punctuation,
            "word": {s: a.to_json() for s, a in self.word.items()},
            "character": {s: a.to_json() for s, a in self.character.items()},
            "per_text": [
                {
                    "text": t["text"],
                    "word": {s: a.to_json() for s, a in t["word"].items()},
                    "character": {s: a.to_json() for s, a in t["character"].items()},
                }
                for t in self.per_text
            ],
            "pairwise": {
                name: {
                    r: {k: _num(v) for k, v in row.items()}
                    for r, row in df.to_dict("index").items()
                }
                for name, df in self.pairwise.items()
            },
            "modernization": {
                **{s: a.to_json(alpha=False) for s, a in self.modernization.items()},
                "confusion": {
                    r: {k: int(v) for k, v in row.items() if TYPES_ORDER(k) >= TYPES_ORDER(r)}
                    for r, row in self.confusion.to_dict("index").items()
                },
                "by_type": {t: a.to_json() for t, a in self.by_type.items()},
            },
            "n_disagreements": int(len(self.disagreements)),
        }
        if self.options.get("tokens"):
            out["tokens"] = [self.token_units(i) for i in range(self.n_tokens)]
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        def subset_table(d: Mapping[str, Agreement], alpha: bool = True) -> pd.DataFrame:
            return pd.DataFrame([{"subset": s, **a.to_json(alpha)} for s, a in d.items()])

        rows = []
        for t in self.per_text:
            for level in ("word", "character"):
                for s, a in t[level].items():
                    rows.append({"text": t["text"], "level": level, "subset": s, **a.to_json()})
        out = {
            "word": subset_table(self.word),
            "character": subset_table(self.character),
            "per_text": pd.DataFrame(rows),
        }
        for name, df in self.pairwise.items():
            out[f"pairwise_{name}"] = df.reset_index(names="annotator")
        out["modernization"] = subset_table(self.modernization, alpha=False)
        out["modernization_confusion"] = self.confusion.reset_index(names="type")
        out["modernization_by_type"] = pd.DataFrame(
            [{"type": t, **a.to_json()} for t, a in self.by_type.items()]
        )
        out["disagreements"] = self.disagreements
        if self.options.get("tokens"):
            out["tokens"] = self.tokens_table()
        return out

    def tokens_table(self) -> pd.DataFrame:
        """Long table: one row per token × unit × annotator with Full and Diff labels."""
        rows = []
        for i in range(self.n_tokens):
            t = self.token_units(i)
            for name, a in t["annotators"].items():
                for u, (unit, f, d) in enumerate(zip(t["units"], a["full"], a["diff"])):
                    rows.append(
                        {
                            "text": t["text"],
                            "token_id": t["token_id"],
                            "orig": t["orig"],
                            "unit_index": u + 1,
                            "unit": unit,
                            "annotator": name,
                            "norm": a["norm"],
                            "full": f,
                            "diff": d,
                        }
                    )
        return pd.DataFrame(rows)

    def headline(self) -> list[tuple[str, str]]:
        def pct(x: float) -> str:
            return "–" if not math.isfinite(x) else f"{100 * x:.2f}%"

        def num(x: float | None) -> str:
            return "–" if x is None or not math.isfinite(x) else f"{x:.4f}"

        w, ch = self.word.get("ALL"), self.character.get("ALL")
        m = self.modernization.get("ALL")
        out = [("Tokens", f"{self.n_tokens:,} × {len(self.annotators)} annotators")]
        if w:
            out.append(
                (
                    "Word agreement",
                    f"{pct(w.percent_agreement)} (π* {num(w.pi)}, α_NLD {num(w.alpha_nld)})",
                )
            )
        if ch:
            out.append(
                (
                    "Character agreement",
                    f"{pct(ch.percent_agreement)} (π* {num(ch.pi)}, α_NLD {num(ch.alpha_nld)})",
                )
            )
        if m:
            out.append(("Modernization type π*", num(m.pi)))
        return out


def TYPES_ORDER(t: str) -> int:
    return TYPES.index(t) if t in TYPES else len(TYPES)


def _num(v: Any) -> Any:
    if isinstance(v, float | np.floating):
        return None if not math.isfinite(v) else float(v)
    if isinstance(v, np.integer):
        return int(v)
    return v


def _map_unique(values: np.ndarray, fn) -> np.ndarray:
    """Apply ``fn`` once per distinct value of an object array."""
    codes, uniq = pd.factorize(values.ravel())
    mapped = np.array([fn(u) for u in uniq], dtype=object)
    return (mapped[codes] if len(uniq) else values.ravel().copy()).reshape(values.shape)


def _compute_types(
    orig: np.ndarray, norm: np.ndarray, mod_type: np.ndarray, raw: bool
) -> tuple[np.ndarray, np.ndarray]:
    """(changed, types): whether each annotator changed each token, and the annotation type."""
    n, c = norm.shape
    # distinct (orig, norm) pairs as integer keys (one hash pass, no string concatenation)
    ocodes, ouniq = pd.factorize(np.asarray(orig, dtype=object))
    fcodes, funiq = pd.factorize(norm.ravel())
    n_forms = max(1, len(funiq))
    codes, uniq = pd.factorize(np.repeat(ocodes.astype(np.int64), c) * n_forms + fcodes)
    unchanged_u = np.array(
        [is_unchanged(ouniq[k // n_forms], funiq[k % n_forms], raw_compare=raw) for k in uniq],
        dtype=bool,
    )
    changed = ~unchanged_u[codes].reshape(n, c) if len(uniq) else np.zeros((n, c), bool)
    types = np.where(mod_type != "", mod_type, np.where(changed, "NORM", "ORIG")).astype(object)
    return changed, types


def _disagreement_table(
    res: NormalizationResult, word: SubsetReliability, char: SubsetReliability, chars: CharacterData
) -> pd.DataFrame:
    """Tokens where annotators disagree on the normalization or the type, most disagreeing first."""
    norm, types, changed = res.norm, res.types, res.changed
    norm_dis = 1.0 - word.item_agreement
    type_dis = (types != types[:, :1]).any(axis=1)
    idx = np.flatnonzero((norm_dis > 0) | type_dis)
    if not len(idx):
        return pd.DataFrame(
            columns=[
                "index",
                "text",
                "token_id",
                "orig",
                "kind",
                "subset",
                "modernization",
                "disagreeing_pairs",
                "mean_nld",
                "character_disagreement",
            ]
        )
    # share of disagreeing unit pairs per token
    unit_dis = np.bincount(
        chars.token_of_unit, weights=1.0 - char.item_agreement, minlength=len(norm)
    )
    unit_dis = unit_dis / np.maximum(chars.n_units, 1)
    ch = changed[idx]
    kind = np.where(
        norm_dis[idx] == 0,
        "type only",
        np.where(
            ch.any(axis=1) & ~ch.all(axis=1),
            "change vs no change",
            np.where(ch.all(axis=1), "different changes", "different unchanged forms"),
        ),
    )
    subset = np.where(ch.all(axis=1), "STRICT", np.where(ch.any(axis=1), "MEDIUM", "ALL"))
    modern = np.isin(types[idx], MOD_TYPES).any(axis=1)
    df = pd.DataFrame(
        {
            "index": idx,
            "text": np.asarray(res.text_ids, dtype=object)[idx],
            "token_id": np.asarray(res.token_ids, dtype=object)[idx],
            "orig": np.asarray(res.orig, dtype=object)[idx],
            "kind": kind,
            "subset": subset,
            "modernization": modern,
            "disagreeing_pairs": norm_dis[idx],
            "mean_nld": word.item_distance[idx],
            "character_disagreement": unit_dis[idx],
        }
    )
    for x, name in enumerate(res.annotators):
        df[name] = norm[idx, x]
    for x, name in enumerate(res.annotators):
        df[f"type {name}"] = types[idx, x]
    order = np.lexsort(
        (df["index"].to_numpy(), -df["mean_nld"].to_numpy(), -df["disagreeing_pairs"].to_numpy())
    )
    return df.iloc[order].reset_index(drop=True)


class NormalizationKind:
    """Kind ``normalization``: see the module docstring."""

    name = "normalization"
    title = SPEC.title
    settings = SETTINGS

    def sniff(self, inputs: Sequence[Path]) -> float:
        try:
            files = expand_inputs([Path(p) for p in inputs])
        except OSError:
            return 0.0
        if not files:
            return 0.0
        return min(looks_like_normalization(f) for f in files)

    def run(
        self, inputs: Sequence[Path], options: Mapping[str, Any]
    ) -> Generator[Progress, None, NormalizationResult]:
        from iaa_desktop.core.kinds.spec import resolve_options

        opts = resolve_options(self.settings, options)
        yield Progress(0, 100, "Reading the token files")
        data = read_normalization([Path(p) for p in inputs])
        data = replace(data, annotators=rename_annotators(data.annotators, opts))
        return (
            yield from analyse(data, opts, inputs=tuple(str(p) for p in inputs), kind=self.name)
        )


def analyse(
    data: NormalizationData,
    opts: Mapping[str, Any],
    inputs: tuple[str, ...] = (),
    kind: str = "normalization",
    aligner: CharacterAligner | None = None,
) -> Generator[Progress, None, NormalizationResult]:
    """Every figure of a normalization study from matched tokens (see the module docstring)."""
    yield Progress(10, 100, "Preparing the tokens")
    orig = np.asarray(data.orig, dtype=object)
    norm, mod, mod_type = data.norm, data.mod, data.mod_type
    if opts.get("lowercase", True):
        orig = _map_unique(orig, str.lower)
        norm = _map_unique(norm, str.lower)
        mod = _map_unique(mod, str.lower)
    keep = np.ones(len(orig), dtype=bool)
    if opts.get("drop_punctuation", True):
        keep = ~_map_unique(orig, _is_punctuation).astype(bool)
    n_punct = int((~keep).sum())
    orig, norm, mod, mod_type = orig[keep], norm[keep], mod[keep], mod_type[keep]
    text_ids = tuple(np.asarray(data.text_ids, dtype=object)[keep].tolist())
    token_ids = tuple(np.asarray(data.token_ids, dtype=object)[keep].tolist())
    n, c = norm.shape

    changed, types = _compute_types(orig, norm, mod_type, bool(opts.get("raw_compare", False)))
    masks = {"ALL": np.ones(n, bool), "MEDIUM": changed.any(axis=1), "STRICT": changed.all(axis=1)}

    yield Progress(20, 100, "Aligning characters")
    aligner = aligner or CharacterAligner()
    chars = build_character_data(orig.tolist(), norm, aligner)

    yield Progress(45, 100, "Word-based agreement")
    wcodes, wlabels = _factorize_2d(norm)
    word = SubsetReliability(wcodes, wlabels)
    yield Progress(55, 100, "Character-based agreement")
    char = SubsetReliability(chars.codes, chars.labels)

    # every (text or overall) × subset mask, so D_e of all of them comes from one matrix product
    text_arr = np.asarray(text_ids, dtype=object)
    text_codes, texts = pd.factorize(text_arr)
    groups = [np.ones(n, bool)] + [text_codes == k for k in range(len(texts))]
    token_masks = [g & masks[s] for g in groups for s in SUBSETS]
    unit_masks = [m[chars.token_of_unit] for m in token_masks]
    n_tok = [int(m.sum()) for m in token_masks]
    word_all = [Agreement.of(a) for a in word.agreements(token_masks)]
    char_all = [
        Agreement.of(a, nt, int(um.sum()))
        for nt, um, a in zip(n_tok, unit_masks, char.agreements(unit_masks))
    ]
    k3 = len(SUBSETS)
    word_overall = dict(zip(SUBSETS, word_all[:k3]))
    char_overall = dict(zip(SUBSETS, char_all[:k3]))
    yield Progress(65, 100, "Per text")
    per_text = [
        {
            "text": str(t),
            "word": dict(zip(SUBSETS, word_all[k3 * (k + 1) : k3 * (k + 2)])),
            "character": dict(zip(SUBSETS, char_all[k3 * (k + 1) : k3 * (k + 2)])),
        }
        for k, t in enumerate(texts)
    ]

    yield Progress(75, 100, "Pairwise agreement")
    names = list(data.annotators)
    pairwise: dict[str, pd.DataFrame] = {}
    for level, rel in (("word", word), ("character", char)):
        agr, pi = rel.pairwise()
        pairwise[f"{level}_agreement"] = pd.DataFrame(agr, index=names, columns=names)
        pairwise[f"{level}_pi"] = pd.DataFrame(pi, index=names, columns=names)

    yield Progress(82, 100, "Modernization")
    extra = sorted({t for t in pd.unique(types.ravel()) if t not in TYPES})
    type_cats = list(TYPES) + extra
    tindex = {t: k for k, t in enumerate(type_cats)}
    type_codes = _map_unique(types, lambda t: tindex[t]).astype(np.int64)
    trel = SubsetReliability(type_codes, type_cats, with_alpha=False)
    is_mod = type_codes >= TYPES.index("INFL")  # INFL, SEM, EXT and any further given type
    tmasks = {"ALL": np.ones(n, bool), "MEDIUM": is_mod.any(axis=1), "STRICT": is_mod.all(axis=1)}
    modernization = {s: Agreement.of(trel.agreement(tmasks[s])) for s in SUBSETS}
    q = len(type_cats)
    conf = np.zeros((q, q), dtype=np.int64)
    for x, y in combinations(range(c), 2):
        a, b = type_codes[:, x], type_codes[:, y]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        conf += np.bincount(lo * q + hi, minlength=q * q).reshape(q, q)
    confusion = pd.DataFrame(conf, index=type_cats, columns=type_cats)
    # modernized form: the modernization when given, else the normalization
    modern = np.where(mod != "", mod, norm).astype(object)
    agree_type = (type_codes == type_codes[:, :1]).all(axis=1)
    by_type: dict[str, Agreement] = {}
    for k, t in enumerate(type_cats):
        m = agree_type & (type_codes[:, 0] == k)
        nt = int(m.sum())
        if nt == 0:
            by_type[t] = Agreement(0, math.nan, math.nan, math.nan, 0)
            continue
        sel = np.flatnonzero(m)
        cd = build_character_data(orig[sel].tolist(), modern[sel], aligner)
        a = SubsetReliability(cd.codes, cd.labels).agreement()
        by_type[t] = Agreement.of(a, nt, int(cd.codes.shape[0]))

    yield Progress(92, 100, "Disagreement list")
    res = NormalizationResult(
        kind=kind,
        inputs=inputs,
        options=dict(opts),
        errors=list(data.errors),
        warnings=list(data.warnings),
        annotators=tuple(names),
        text_ids=text_ids,
        token_ids=token_ids,
        orig=tuple(orig.tolist()),
        norm=norm,
        mod=mod,
        types=types,
        changed=changed,
        texts=tuple(str(t) for t in texts),
        word=word_overall,
        character=char_overall,
        per_text=per_text,
        pairwise=pairwise,
        modernization=modernization,
        confusion=confusion,
        by_type=by_type,
        token_agreement=word.item_agreement,
        n_dropped_punctuation=n_punct,
        aligner=aligner,
    )
    res.disagreements = _disagreement_table(res, word, char, chars)
    for arr in (res.norm, res.mod, res.types, res.changed):
        if isinstance(arr, np.ndarray):
            arr.setflags(write=False)
    yield Progress(100, 100, "Done")
    return res


KIND = NormalizationKind()

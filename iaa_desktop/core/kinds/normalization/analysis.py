"""The figures of a normalization study (Bollmann, Dipper & Petran 2016): unchanged forms,
character units, agreement over the subsets and texts, modernization, the disagreement list.

The kind (:mod:`.compare`) reads the token files and hands the matched tokens to :func:`analyse`.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.align.characters import CharacterAligner
from iaa_desktop.core.kinds.normalization.options import NormalizationOptions
from iaa_desktop.core.kinds.normalization.reader import NormalizationData
from iaa_desktop.core.kinds.normalization.result import (
    MOD_TYPES,
    SUBSETS,
    TYPES,
    Agreement,
    NormalizationResult,
)
from iaa_desktop.core.metrics.subsets import SubsetReliability
from iaa_desktop.core.progress import Progress

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
# the comparison


@dataclass(frozen=True)
class CharacterData:
    """Character units of all tokens: ``codes`` (U × c) index ``labels`` (Diff labels)."""

    codes: NDArray[Any]
    labels: list[str]
    token_of_unit: NDArray[Any]  # (U,) token index of each unit
    n_units: NDArray[Any]  # (N,) units per token
    unit_start: NDArray[Any]  # (N,) first unit of each token


def _factorize_2d(values: NDArray[Any]) -> tuple[NDArray[Any], list[str]]:
    codes, uniq = pd.factorize(values.ravel())
    return codes.reshape(values.shape).astype(np.int64), [str(u) for u in uniq]


def build_character_data(
    orig: Sequence[str], forms: NDArray[Any], aligner: CharacterAligner
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


def _map_unique(values: NDArray[Any], fn: Callable[[Any], Any]) -> NDArray[Any]:
    """Apply ``fn`` once per distinct value of an object array."""
    codes, uniq = pd.factorize(values.ravel())
    mapped = np.array([fn(u) for u in uniq], dtype=object)
    return (mapped[codes] if len(uniq) else values.ravel().copy()).reshape(values.shape)


def _compute_types(
    orig: NDArray[Any], norm: NDArray[Any], mod_type: NDArray[Any], raw: bool
) -> tuple[NDArray[Any], NDArray[Any]]:
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


@dataclass(frozen=True)
class _Tokens:
    """The tokens compared (lower-cased and without punctuation as the options say)."""

    orig: NDArray[Any]  # (N,) historical forms
    norm: NDArray[Any]  # (N, c) normalizations
    mod: NDArray[Any]  # (N, c) modernizations ("" when none)
    mod_type: NDArray[Any]  # (N, c) modernization types given ("" when none)
    text_ids: tuple[str, ...]
    token_ids: tuple[str, ...]
    n_punct: int  # punctuation tokens left out


def _prepare_tokens(data: NormalizationData, opts: NormalizationOptions) -> _Tokens:
    orig = np.asarray(data.orig, dtype=object)
    norm, mod, mod_type = data.norm, data.mod, data.mod_type
    if opts.lowercase:
        orig = _map_unique(orig, str.lower)
        norm = _map_unique(norm, str.lower)
        mod = _map_unique(mod, str.lower)
    keep = np.ones(len(orig), dtype=bool)
    if opts.drop_punctuation:
        keep = ~_map_unique(orig, _is_punctuation).astype(bool)
    return _Tokens(
        orig[keep],
        norm[keep],
        mod[keep],
        mod_type[keep],
        tuple(np.asarray(data.text_ids, dtype=object)[keep].tolist()),
        tuple(np.asarray(data.token_ids, dtype=object)[keep].tolist()),
        int((~keep).sum()),
    )


def prepared_normalizations(data: NormalizationData, opts: NormalizationOptions) -> NDArray[Any]:
    """The normalizations (tokens × annotators) as the figures compare them: lower-cased and
    without punctuation tokens when the options say so."""
    return _prepare_tokens(data, opts).norm


def prepared_token_keys(data: NormalizationData, opts: NormalizationOptions) -> list[str]:
    """Each token of :func:`prepared_normalizations` named as ``text | token | form``."""
    tok = _prepare_tokens(data, opts)
    return [
        f"{t} | {k} | {o}" for t, k, o in zip(tok.text_ids, tok.token_ids, tok.orig, strict=True)
    ]


def analyse(
    data: NormalizationData,
    given: NormalizationOptions | Mapping[str, Any],
    inputs: tuple[str, ...] = (),
    kind: str = "normalization",
    aligner: CharacterAligner | None = None,
) -> Generator[Progress, None, NormalizationResult]:
    """Every figure of a normalization study from matched tokens (see the module docstring)."""
    opts = given if isinstance(given, NormalizationOptions) else NormalizationOptions.resolve(given)
    yield Progress(10, 100, "Preparing the tokens")
    tok = _prepare_tokens(data, opts)
    n = len(tok.orig)
    changed, types = _compute_types(tok.orig, tok.norm, tok.mod_type, opts.raw_compare)
    masks = {"ALL": np.ones(n, bool), "MEDIUM": changed.any(axis=1), "STRICT": changed.all(axis=1)}

    yield Progress(20, 100, "Aligning characters")
    aligner = aligner or CharacterAligner()
    chars = build_character_data(tok.orig.tolist(), tok.norm, aligner)

    yield Progress(45, 100, "Word-based agreement")
    wcodes, wlabels = _factorize_2d(tok.norm)
    word = SubsetReliability(wcodes, wlabels)
    yield Progress(55, 100, "Character-based agreement")
    char = SubsetReliability(chars.codes, chars.labels)
    texts, word_all, char_all = _subset_agreements(word, char, chars, tok.text_ids, masks)
    k3 = len(SUBSETS)
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
    pairwise = _pairwise(names, word, char)

    yield Progress(82, 100, "Modernization")
    modernization, confusion, by_type = _modernization(tok, types, aligner)

    yield Progress(92, 100, "Disagreement list")
    res = NormalizationResult(
        kind=kind,
        inputs=inputs,
        options=opts.record(),
        chosen=opts,
        errors=list(data.errors),
        warnings=list(data.warnings),
        annotators=tuple(names),
        text_ids=tok.text_ids,
        token_ids=tok.token_ids,
        orig=tuple(tok.orig.tolist()),
        norm=tok.norm,
        mod=tok.mod,
        types=types,
        changed=changed,
        texts=tuple(str(t) for t in texts),
        word=dict(zip(SUBSETS, word_all[:k3])),
        character=dict(zip(SUBSETS, char_all[:k3])),
        per_text=per_text,
        pairwise=pairwise,
        modernization=modernization,
        confusion=confusion,
        by_type=by_type,
        token_agreement=word.item_agreement,
        n_dropped_punctuation=tok.n_punct,
        aligner=aligner,
    )
    res.disagreements = _disagreement_table(res, word, char, chars)
    for arr in (res.norm, res.mod, res.types, res.changed):
        if isinstance(arr, np.ndarray):
            arr.setflags(write=False)
    yield Progress(100, 100, "Done")
    return res


def _subset_agreements(
    word: SubsetReliability,
    char: SubsetReliability,
    chars: CharacterData,
    text_ids: tuple[str, ...],
    masks: dict[str, NDArray[Any]],
) -> tuple[Any, list[Agreement], list[Agreement]]:
    """The texts, and word and character agreement of every (overall, then each text) × subset
    mask, so D_e of all of them comes from one matrix product."""
    n = len(text_ids)
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
    return texts, word_all, char_all


def _pairwise(
    names: list[str], word: SubsetReliability, char: SubsetReliability
) -> dict[str, pd.DataFrame]:
    """Annotator × annotator percent agreement and π*, word- and character-based."""
    pairwise: dict[str, pd.DataFrame] = {}
    for level, rel in (("word", word), ("character", char)):
        agr, pi = rel.pairwise()
        pairwise[f"{level}_agreement"] = pd.DataFrame(agr, index=names, columns=names)
        pairwise[f"{level}_pi"] = pd.DataFrame(pi, index=names, columns=names)
    return pairwise


def _modernization(
    tok: _Tokens, types: NDArray[Any], aligner: CharacterAligner
) -> tuple[dict[str, Agreement], pd.DataFrame, dict[str, Agreement]]:
    """Agreement on the modernization type per subset, the type confusion matrix, and the
    character-based agreement of the modernized forms per type."""
    n, c = tok.norm.shape
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
    modern = np.where(tok.mod != "", tok.mod, tok.norm).astype(object)
    agree_type = (type_codes == type_codes[:, :1]).all(axis=1)
    by_type: dict[str, Agreement] = {}
    for k, t in enumerate(type_cats):
        m = agree_type & (type_codes[:, 0] == k)
        nt = int(m.sum())
        if nt == 0:
            by_type[t] = Agreement(0, math.nan, math.nan, math.nan, 0)
            continue
        sel = np.flatnonzero(m)
        cd = build_character_data(tok.orig[sel].tolist(), modern[sel], aligner)
        found = SubsetReliability(cd.codes, cd.labels).agreement()
        by_type[t] = Agreement.of(found, nt, int(cd.codes.shape[0]))
    return modernization, confusion, by_type

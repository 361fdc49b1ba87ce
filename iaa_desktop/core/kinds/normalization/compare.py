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
The figures are computed in :mod:`.analysis`; the result class is in :mod:`.result`.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import replace
from pathlib import Path

from iaa_desktop.core.kinds.normalization.analysis import (
    CharacterData,
    analyse,
    build_character_data,
    is_unchanged,
    prepared_token_keys,
    simplify,
)
from iaa_desktop.core.kinds.normalization.annotators import split_models, token_annotators
from iaa_desktop.core.kinds.normalization.occurrences import occurrences
from iaa_desktop.core.kinds.normalization.options import NormalizationOptions
from iaa_desktop.core.kinds.normalization.reader import (
    expand_inputs,
    looks_like_normalization,
    read_normalization,
)
from iaa_desktop.core.kinds.normalization.result import (
    MOD_TYPES,
    SUBSETS,
    TYPES,
    Agreement,
    NormalizationResult,
)
from iaa_desktop.core.kinds.spec import GivenOptions, rename_annotators
from iaa_desktop.core.progress import Progress

__all__ = [
    "KIND",
    "MOD_TYPES",
    "SUBSETS",
    "TYPES",
    "Agreement",
    "CharacterData",
    "NormalizationResult",
    "analyse",
    "build_character_data",
    "is_unchanged",
    "simplify",
]

SETTINGS = NormalizationOptions.settings()


class NormalizationKind:
    """Kind ``normalization``: see the module docstring."""

    name = "normalization"
    settings = SETTINGS
    #: the kind's options: resolved once (:meth:`NormalizationOptions.resolve`), computed with as
    #: they are
    options = NormalizationOptions

    def sniff(self, inputs: Sequence[Path]) -> float:
        try:
            files = expand_inputs([Path(p) for p in inputs])
        except OSError:
            return 0.0
        if not files:
            return 0.0
        return min(looks_like_normalization(f) for f in files)

    def run(
        self, inputs: Sequence[Path], options: GivenOptions
    ) -> Generator[Progress, None, NormalizationResult]:
        opts = NormalizationOptions.resolve(options)
        yield Progress(0, 100, "Reading the token files")
        data = read_normalization([Path(p) for p in inputs])
        data = replace(data, annotators=rename_annotators(data.annotators, opts.as_dict()))
        everyone_names = data.annotators
        whole = data
        data, everyone = split_models(data, opts)
        result = yield from analyse(
            data, opts, inputs=tuple(str(p) for p in inputs), kind=self.name
        )
        if everyone is not None:
            yield Progress(96, 100, "Model annotators and planning")
            keys = prepared_token_keys(whole, opts) if opts.competence else ()
            result.annotator_figures = token_annotators(everyone_names, everyone, opts, keys)
        yield Progress(98, 100, "Occurrences of each form")
        result.occurrences = occurrences(result, opts.occurrence_match)
        result.options = opts.record()  # as given, for the study's record
        return result


KIND = NormalizationKind()

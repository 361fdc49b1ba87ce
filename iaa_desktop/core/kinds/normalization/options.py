"""The options of a normalization study (one frozen value; the flags and the settings panel come
from it)."""

from __future__ import annotations

from dataclasses import dataclass

from iaa_desktop.core.kinds.annotators.fields import (
    competence_option,
    epsilon_option,
    model_annotators_option,
    model_names,
    planning_option,
)
from iaa_desktop.core.kinds.options import Options, option
from iaa_desktop.core.nfc import FormMatch


@dataclass(frozen=True)
class NormalizationOptions(Options):
    lowercase: bool = option(
        True,
        "Lower-case everything",
        "lower-case historical forms, normalizations and modernizations before comparing (as "
        "Bollmann et al. 2016 do)",
    )
    drop_punctuation: bool = option(
        True,
        "Drop punctuation tokens",
        "leave out tokens whose historical form is punctuation only (as Bollmann et al. 2016 do)",
    )
    raw_compare: bool = option(
        False,
        "Compare raw strings only",
        "a token counts as unchanged only when the normalization equals the (lower-cased) "
        "historical form; by default also when it equals the simplified form (ſ→s, abbreviation "
        "marks removed)",
    )
    occurrence_match: FormMatch = option(
        "exact",
        "Occurrences: match forms",
        "how the Occurrences view groups historical forms: exact (as written, after Unicode NFC), "
        "case (ignoring case) or case_diacritics (ignoring case and diacritics)",
    )
    tokens: bool = option(
        False,
        "Include per-token units in JSON",
        "add every token's Full and Diff units per annotator to the JSON output",
        gui=False,
    )
    model_annotators: str = model_annotators_option("per token")
    epsilon: float = epsilon_option()
    competence: bool = competence_option("per token")
    planning: bool = planning_option(
        "the word-level interval's half-width against the number of doubly annotated tokens, "
        "by resampling"
    )

    @property
    def model_names(self) -> tuple[str, ...]:
        """The model annotators' names, each once, in the order given."""
        return model_names(self.model_annotators)

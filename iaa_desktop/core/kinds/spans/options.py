"""The options of a spans study (one frozen value; the flags and the settings panel come from it)."""

from __future__ import annotations

from dataclasses import dataclass

from iaa_desktop.core.kinds.annotators.fields import (
    batch_column_option,
    batch_size_option,
    competence_option,
    epsilon_option,
    model_annotators_option,
    model_names,
    planning_option,
    retest_option,
)
from iaa_desktop.core.kinds.occurrences import FormMatch
from iaa_desktop.core.kinds.options import N_RESAMPLES, SEED, Options, option
from iaa_desktop.core.kinds.spans.relations import RelationsFrom

#: the span layer and label feature of WebAnno TSV 3.x files and INCEpTION exports: named entities
DEFAULT_LAYER = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
DEFAULT_FEATURE = "value"


@dataclass(frozen=True)
class SpansOptions(Options):
    n_resamples: int = option(N_RESAMPLES, "Bootstrap resamples", "resamples of the documents")
    seed: int = option(SEED, "Random seed", "seed of the bootstrap and of γ")
    gamma: bool = option(
        True,
        "γ (Mathet et al.)",
        "compute Mathet et al.'s γ, γ-cat and γ-k (exact alignment, sampled expected disorder)",
    )
    layer: str = option(
        DEFAULT_LAYER,
        "Span layer (WebAnno TSV, INCEpTION)",
        "the span layer compared in TSV 3.x files and INCEpTION exports (full or short type name)",
    )
    feature: str = option(
        DEFAULT_FEATURE,
        "Label feature (WebAnno TSV, INCEpTION)",
        "the feature of that layer whose value is the span's label",
    )
    relation_layer: str = option(
        "",
        "Relation layer (WebAnno TSV, INCEpTION)",
        "the relation layer compared in TSV 3.x files and INCEpTION exports (full or short type "
        "name); empty: every relation layer between spans of the span layer",
    )
    relation_feature: str = option(
        "",
        "Relation label feature (WebAnno TSV, INCEpTION)",
        "the feature of the relation layer whose value is the relation's label; empty: its first "
        "feature with a value",
    )
    curation: bool = option(
        False,
        "INCEpTION export: compare the curated version too",
        "add the curated documents of an INCEpTION project export as the annotator 'curation'",
    )
    document_column: str = option("", "Span table: document column")
    start_column: str = option("", "Span table: start column")
    end_column: str = option("", "Span table: end column")
    label_column: str = option("", "Span table: label column")
    annotator_column: str = option("", "Span table: annotator column")
    encoding: str = option("", "Text encoding", "encoding of the files (empty: UTF-8)")
    occurrence_match: FormMatch = option(
        "exact",
        "Occurrences: match forms",
        "how the Occurrences view groups covered texts: exact (as written, after Unicode NFC), "
        "case (ignoring case) or case_diacritics (ignoring case and diacritics)",
    )
    tiers: str = option(
        "",
        "Tiers → annotators (ELAN, Praat)",
        "TIER=ANNOTATOR,… : the annotator of each tier compared (several tiers may go to one "
        "annotator, other tiers are ignored, every file is one recording); empty: one annotator "
        "per tier, or per folder of files",
    )
    tolerance: int = option(
        0,
        "Boundary tolerance (ms, ELAN, Praat)",
        "tolerance F1 of time-aligned units: same label and both boundaries within this many "
        "milliseconds",
    )
    relations_from: RelationsFrom = option(
        "R",
        "brat: relations from",
        "which brat lines give the relations compared: R lines; also event arguments (E, a link "
        "from the trigger to each argument, labelled by its role); also equivalences (*)",
    )
    model_annotators: str = model_annotators_option("per token")
    epsilon: float = epsilon_option()
    competence: bool = competence_option("per token")
    batch_column: str = batch_column_option(
        "when each annotator's annotation of a document was made: created_at or updated_at of "
        "a Label Studio JSON export, or any column of a span table (its first row per "
        "annotator and document): agreement per batch, per token, with intervals"
    )
    batch_size: str = batch_size_option()
    retest: bool = retest_option(
        "per token, each annotator's agreement with themself on the tasks of a Label Studio "
        "export they annotated more than once (occasions in the order of created_at); every "
        "other figure keeps their first annotation of a task in the file"
    )
    planning: bool = planning_option(
        "per token (its label, or none), the interval's half-width against the number of "
        "doubly annotated tokens, by resampling"
    )

    @property
    def model_names(self) -> tuple[str, ...]:
        """The model annotators' names, each once, in the order given."""
        return model_names(self.model_annotators)

    def tier_map(self) -> dict[str, str]:
        """Tier → annotator of :attr:`tiers` (empty: no mapping)."""
        from iaa_desktop.core.kinds.spans.timed import parse_tier_map

        return parse_tier_map(self.tiers)

    def column(self, role: str) -> str:
        """The column given for ``role`` (document, start, end, label, annotator) of span tables."""
        return str(getattr(self, f"{role}_column") or "")

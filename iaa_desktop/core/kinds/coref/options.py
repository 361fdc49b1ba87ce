"""The options of a coreference study (one frozen value; the flags and the settings panel come from it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from iaa_desktop.core.kinds.options import Options, option
from iaa_desktop.core.nfc import FormMatch

#: the cost of matching two classes (:mod:`iaa_desktop.core.align.class_matching`)
Cost = Literal["symdiff", "jaccard", "opt"]
#: how the standard scores pair key and response mentions (the CorefUD scorer's modes)
MentionMatching = Literal["exact", "partial", "head"]
#: how zeros (mentions headed by an empty node) are paired
ZeroMatching = Literal["linear", "dependent"]


@dataclass(frozen=True)
class CorefOptions(Options):
    cost: Cost = option(
        "symdiff",
        "Matching cost",
        "symdiff: |a △ b| (Erwich's Psalms study); jaccard: d; opt: square assignment where an "
        "unmatched set costs its size",
    )
    study_threshold: float = option(
        1 / 3, "Flag texts with d ≥", "texts whose d reaches this are flagged for study"
    )
    relation_types: str = option(
        "Coreference",
        "Relation types",
        "brat relation (and * line) types that link coreferent mentions, comma-separated",
    )
    doc_column: str = option(
        "",
        "Mention table: document column",
        "column naming the document (empty: one document per file)",
    )
    begin_column: str = option("begin", "Mention table: begin column")
    end_column: str = option("end", "Mention table: end column")
    entity_column: str = option("entityNum", "Mention table: entity column")
    curation: bool = option(
        False,
        "INCEpTION export: compare the curated version too",
        "read the curation folder of an INCEpTION project export as one more annotator",
    )
    # how the standard scores pair key and response mentions (CorefUD scorer; mention_match.py)
    mention_matching: MentionMatching = option(
        "exact",
        "Scores: mention matching",
        "exact: the same words; partial: the response lies within the key mention and covers its "
        "head (CorefUD scorer; Universal Anaphora: its Min); head: the same head word (CRAC 2023, "
        "the CorefUD scorer's default). Mentions without a head or Min match exactly",
    )
    zero_matching: ZeroMatching = option(
        "linear",
        "Scores: zero matching",
        "linear: an empty node is matched by its position; dependent: zeros (mentions headed by "
        "an empty node) are paired by their heads' enhanced dependencies (the CorefUD scorer's "
        "default)",
    )
    split_antecedents: bool = option(
        False,
        "Scores: split antecedents (plurals)",
        "score a plural mention's split antecedents (CorefUD SplitAnte, Universal Anaphora "
        "ElementOf) as the Universal Anaphora scorer does (Yu et al. 2022); off: identity chains "
        "only, as the CoNLL scorers",
    )
    occurrence_match: FormMatch = option(
        "exact",
        "Occurrences: match forms",
        "how the Occurrences view groups mention texts: exact (as written, after Unicode NFC), "
        "case (ignoring case) or case_diacritics (ignoring case and diacritics)",
    )
    iaa_dir: str = option(
        "",
        "Write .iaa files into",
        "write the Psalms study's per-document .iaa files and a totals file",
        gui=False,
    )

    @property
    def relations(self) -> tuple[str, ...]:
        """The brat relation types that link coreferent mentions (the default when empty)."""
        given = self.relation_types or "Coreference"
        return tuple(t.strip() for t in given.split(",") if t.strip())

    @property
    def mention_columns(self) -> tuple[str, str, str, str]:
        """A mention table's document, begin, end and entity columns (the defaults for empty
        ones; an empty document column means one document per file)."""
        return (
            self.doc_column,
            self.begin_column or "begin",
            self.end_column or "end",
            self.entity_column or "entityNum",
        )

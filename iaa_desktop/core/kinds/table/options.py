"""The options of a judgment-table study (one frozen value; the flags and the panel come from it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from iaa_desktop.core.kinds.annotators.fields import epsilon_option, model_annotators_option
from iaa_desktop.core.kinds.options import (
    N_RESAMPLES,
    SEED,
    IntervalMethod,
    IntervalProvenance,
    Level,
    Options,
    option,
)
from iaa_desktop.core.nfc import FormMatch

#: how the table is laid out (see :mod:`iaa_desktop.core.kinds.table.layouts`)
Layout = Literal["auto", "long", "wide", "wide-no-item", "contingency", "counts", "triples"]
LAYOUTS: tuple[Layout, ...] = get_args(Layout)
#: α's distance: the level of measurement's, or normalized Levenshtein between text labels
Distance = Literal["level", "nld"]
#: the alternative annotator test's alignment score
AltScore = Literal["auto", "accuracy", "neg_rmse"]


def _columns(text: str) -> tuple[str, ...]:
    return tuple(c.strip() for c in str(text or "").split(",") if c.strip())


@dataclass(frozen=True)
class TableOptions(Options):
    level: Level = option(
        "nominal",
        "Level of measurement",
        "nominal, ordinal, interval or ratio: decides α's distance and which coefficients apply",
    )
    distance: Distance = option(
        "level",
        "Distance for α",
        "'level' = the distance of the level of measurement; 'nld' = normalized Levenshtein "
        "between text labels",
    )
    scale: str = option(
        "",
        "Scale bounds",
        "lowest and highest point of a numeric scale, e.g. 1,5 (default: the lowest and highest "
        "label used); the weights of AC2 are fractions of this width",
    )
    categories: str = option(
        "",
        "Category order",
        "the labels in their order, comma-separated (ordered labels that are not numbers: "
        "ordinal α and the weighted coefficients use these ranks)",
    )
    missing: str = option(
        "",
        "Values meaning missing",
        "comma-separated values that mean 'no judgment' (e.g. 0,-); compared as numbers in a "
        "numeric column",
    )
    interval: IntervalMethod = option(
        "bootstrap",
        "Interval method",
        "bootstrap: 95% percentile interval over resampled items; bayes: conjugate posterior of "
        "multi-κ",
    )
    n_resamples: int = option(N_RESAMPLES, "Bootstrap resamples", "number of bootstrap resamples")
    seed: int = option(SEED, "Random seed", "seed of the bootstrap and the posterior draws")
    group_by: str = option("", "Group by column", "a column whose values each get their own result")
    item: str = option(
        "",
        "Item column(s)",
        "item key column(s), comma-separated (recognised from the header when empty)",
    )
    annotator: str = option("", "Annotator column", "annotator column of a long table")
    label: str = option("", "Label column", "label column of a long table")
    layout: Layout = option(
        "auto",
        "Table layout",
        "auto: from the content; long (item, annotator, label); wide (one column per "
        "annotator); wide-no-item (row number = item); contingency (two annotators' "
        "categories × categories counts); counts (subjects × categories counts, Fleiss 1971); "
        "triples (coder item label, no header)",
    )
    question: str = option(
        "",
        "Question",
        "the question compared when a tool's export asks several (Label Studio from_name, "
        "Prodigy label)",
    )
    metadata: str = option(
        "", "Metadata columns", "columns of a wide table that are not annotators"
    )
    occurrence_column: str = option(
        "",
        "Occurrences: form column",
        "the column holding each item's form (a token, a word, a term) for the Occurrences tab; "
        "empty: a column named form, token, word or term, when there is one",
    )
    occurrence_match: FormMatch = option(
        "exact",
        "Occurrences: match forms",
        "how the Occurrences view groups the items' forms: exact (as written, after Unicode NFC), "
        "case (ignoring case) or case_diacritics (ignoring case and diacritics)",
    )

    model_annotators: str = model_annotators_option("")
    epsilon: float = epsilon_option()
    alt_test_score: AltScore = option(
        "auto",
        "Alt-test alignment",
        "accuracy (categories) or neg_rmse (numbers); auto: neg_rmse for numeric labels at an "
        "ordinal, interval or ratio level, else accuracy",
    )
    competence: bool = option(
        False,
        "Annotator competence",
        "Dawid–Skene (1979) and MACE (Hovy et al. 2013): each annotator's competence and an "
        "inferred label per item with its posterior (a suggestion in adjudication)",
    )
    batch_column: str = option(
        "",
        "Batch column",
        "a column naming each judgment's batch or date: agreement per batch, with intervals",
    )
    batch_size: str = option(
        "",
        "Batch size",
        "dates: week (default), day, month or a number of days; numbers: the width of a bin; "
        "empty: each value its own batch",
    )
    retest: bool = option(
        False,
        "Test–retest",
        "agreement of each annotator with themself on items judged more than once",
    )
    occasion_column: str = option(
        "",
        "Occasion column",
        "the column telling an annotator's repeated judgments apart (default: file order)",
    )
    planning: bool = option(
        False,
        "Planning curve",
        "the interval's half-width against the number of doubly annotated items, by resampling",
    )

    @property
    def extra_columns(self) -> tuple[str, ...]:
        """Columns the annotator figures read besides item, annotator and label."""
        return tuple(c for c in (self.batch_column, self.occasion_column) if c)

    @property
    def model_names(self) -> tuple[str, ...]:
        """The model annotators' names, each once, in the order given."""
        return tuple(dict.fromkeys(_columns(self.model_annotators)))

    @property
    def item_columns(self) -> tuple[str, ...]:
        return _columns(self.item)

    @property
    def metadata_columns(self) -> tuple[str, ...]:
        return _columns(self.metadata)

    @property
    def provenance(self) -> IntervalProvenance:
        """How the intervals computed with these options are made."""
        return IntervalProvenance(self.interval, self.n_resamples, self.seed)

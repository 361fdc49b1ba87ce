"""The options of a multi-label study (one frozen value; the flags and the panel come from it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from iaa_desktop.core.kinds.annotators.fields import (
    batch_column_option,
    batch_size_option,
    competence_option,
    epsilon_option,
    model_annotators_option,
    model_names,
    occasion_column_option,
    planning_option,
    retest_option,
)
from iaa_desktop.core.kinds.multilabel.explore import (
    BOUNDED_BUDGET,
    DEFAULT_TOP,
    EXHAUSTIVE_MAX_PARTITIONS,
)
from iaa_desktop.core.kinds.options import Options, option
from iaa_desktop.core.metrics import decomposition as dec

#: which partitions of the codes are explored (see :mod:`.explore`)
Exploration = Literal["auto", "exhaustive", "bounded"]


@dataclass(frozen=True)
class MultiLabelOptions(Options):
    labels: str = option(
        "",
        "Label order (bit order)",
        "comma-separated label names; the first is the leftmost bit of every code (default: column order / order in the data)",
    )
    s1: str = option(
        "",
        "Decomposition S1",
        "comma-separated codes of S1 (e.g. 000 or 101,010; label names joined by + also work); default 000…0 = 'any label at all?'",
    )
    label_delimiter: str = option(
        ";", "Label delimiter", "separator of the labels in a long-format cell"
    )
    texts: str = option(
        "", "Texts table", "optional table of item id + text, shown beside the items"
    )
    exploration: Exploration = option(
        "auto",
        "Partitions explored",
        f"auto: every partition when there are at most "
        f"{EXHAUSTIVE_MAX_PARTITIONS:,} (4 labels), else those with a small S1 "
        "plus a beam search; exhaustive: every partition (refused above that size); "
        "bounded: a small S1 plus the search, whatever the number of labels",
    )
    max_s1_size: int = option(
        0,
        "Largest |S1| explored (bounded)",
        f"explore partitions with at most this many codes in S1 (0 = the largest bound "
        f"within {BOUNDED_BUDGET:,} partitions); k = 5: ≤ 3 → "
        f"{dec.n_bounded_partitions(5, 3):,}, ≤ 4 → {dec.n_bounded_partitions(5, 4):,}, "
        f"≤ 5 → {dec.n_bounded_partitions(5, 5):,} partitions",
    )
    search: bool = option(
        True,
        "Beam search for the best partitions (bounded)",
        "also search the best partitions under each criterion without enumerating them all",
    )
    top: int = option(
        DEFAULT_TOP,
        "Partitions listed: best N (0 = all)",
        "list (JSON, CSV, window) only the partitions ranked in the best N under either "
        "criterion; 0 lists every partition explored",
    )
    model_annotators: str = model_annotators_option("per label")
    epsilon: float = epsilon_option()
    competence: bool = competence_option("per label")
    batch_column: str = batch_column_option(
        "a column of the annotation files naming each annotation's batch or date (a long "
        "table's other columns, e.g. timestamp or round; in a wide table a column that is no "
        "label): agreement per batch and label, with intervals"
    )
    batch_size: str = batch_size_option()
    retest: bool = retest_option(
        "agreement of each annotator with themself, per label, on items they labelled more "
        "than once (every other figure keeps their first annotation in the files)"
    )
    occasion_column: str = occasion_column_option(
        "a column of the annotation files telling an annotator's repeated annotations of an "
        "item apart (default: their order in the files)"
    )
    planning: bool = planning_option(
        "per label, the interval's half-width against the number of doubly annotated items, by "
        "resampling"
    )

    @property
    def model_names(self) -> tuple[str, ...]:
        """The model annotators' names, each once, in the order given."""
        return model_names(self.model_annotators)

    @property
    def label_order(self) -> list[str]:
        """The labels in the order given (empty: the order of the data)."""
        return [v.strip() for v in self.labels.split(",") if v.strip()]

    @property
    def delimiter(self) -> str:
        """The separator of the labels in a long-format cell (``;`` when left empty)."""
        return self.label_delimiter or ";"

"""The options of a graded-use-pairs study (one frozen value; the flags and the panel come from it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

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
from iaa_desktop.core.kinds.options import Options, option

#: Krippendorff's α distance of a DURel study
DurelLevel = Literal["ordinal", "interval", "nominal"]
#: how the weighted mean Spearman ρ weights an annotator pair (see :class:`DurelOptions`)
SpearmanWeights = Literal["auto", "judged", "valid"]
SPEARMAN_WEIGHTS: tuple[SpearmanWeights, ...] = get_args(SpearmanWeights)


@dataclass(frozen=True)
class DurelOptions(Options):
    level: DurelLevel = option(
        "ordinal",
        "Level of measurement for α",
        "Krippendorff's α distance: ordinal (TRoTR), interval or nominal",
    )
    scale_low: float = option(1.0, "Lowest judgment", "lowest valid judgment of the scale")
    scale_high: float = option(4.0, "Highest judgment", "highest valid judgment of the scale")
    cant_decide: str = option(
        "0,-",
        "Can't-decide values",
        "comma-separated judgments meaning 'can't decide' (a missing value)",
    )
    filter_range: float = option(
        2.0,
        "Filter: range below",
        "keep an item only if max − min of its judgments is below this",
    )
    filter_mean_low: float = option(
        2.0,
        "Filter: drop means above",
        "then drop items whose mean lies strictly between this ...",
    )
    filter_mean_high: float = option(3.0, "Filter: ... and below", "... and this")
    label_threshold: float = option(
        2.5,
        "Binary label 1 from mean",
        "binary label 1 if the item mean is at least this",
    )
    trac_min_spearman: float = option(
        0.15,
        "TRaC: minimum Spearman",
        "targets with a weighted Spearman below this are marked as left out of the TRaC ranking",
    )
    spearman_weights: SpearmanWeights = option(
        "auto",
        "Spearman: weight each pair by",
        "judged: the items both annotators judged, can't-decide included (TRoTR, Periti et al. "
        "2024); valid: the items both judged with a valid value (the WUGs pipeline's "
        "data2agr.py, Schlechtweg et al. 2021); auto: valid for DWUG/WUGs folders, judged "
        "otherwise",
    )
    max_aligned: int = option(
        20000,
        "Align texts up to N pairs",
        "texts of larger studies are aligned when a pair is shown",
    )
    model_annotators: str = model_annotators_option("")
    epsilon: float = epsilon_option()
    competence: bool = competence_option()
    batch_column: str = batch_column_option(
        "a column of the judgments files naming each judgment's batch or date (DURel exports "
        "write 'timestamp'; PhiTag's judgments have none): agreement per batch, with intervals"
    )
    batch_size: str = batch_size_option()
    retest: bool = retest_option(
        "agreement of each annotator with themself on use pairs they judged more than once "
        "(the other figures combine such repeats by their median)"
    )
    occasion_column: str = occasion_column_option(
        "a column of the judgments files telling an annotator's repeated judgments of a pair "
        "apart (default: their order in the files)"
    )
    planning: bool = planning_option(
        "the interval's half-width against the number of doubly annotated items, by resampling"
    )

    @property
    def model_names(self) -> tuple[str, ...]:
        """The model annotators' names, each once, in the order given."""
        return model_names(self.model_annotators)

    @property
    def cant_decide_values(self) -> tuple[str, ...]:
        """The judgments meaning "can't decide", as listed in :attr:`cant_decide`."""
        return tuple(s.strip() for s in self.cant_decide.split(",") if s.strip())

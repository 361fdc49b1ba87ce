"""The options of a candidate-pairs study (one frozen value; the flags and the panel come from it).

The agreement model's options are kept off the settings panel (``gui=False``): a fit takes tens of
seconds and runs only when asked, from the Model tab in the window or with ``--model`` on the
command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

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
from iaa_desktop.core.kinds.options import SEED, IntervalProvenance, Options, option

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.candidates.reader import CandidateColumns

#: the agreement model to fit: none, all five compared, one of the Bernard of Clairvaux study's
#: nested models by name, or a custom one (the names of ``model.data.NAMED_MODELS``)
ModelChoice = Literal["none", "all", "m", "m.M", "m.MB", "m.kMB", "m.klMB", "custom"]
#: how the model is fitted: the full sampler or a quick variational preview
ModelMethod = Literal["nuts", "variational"]


def _column(title: str, help_text: str) -> Any:
    """A column-name option (empty: the column is recognised from the header)."""
    return option("", title, help_text)


def _model(default: Any, label: str, help_text: str) -> Any:
    """An option of the agreement model (command line only)."""
    return option(default, label, help_text, gui=False)


@dataclass(frozen=True)
class CandidatesOptions(Options):
    pair_id: str = _column(
        "Pair id column", "pair id column (recognised from the header when empty)"
    )
    target_text: str = _column("Target text column", "column of the target passage")
    source_text: str = _column("Source text column", "column of the source passage")
    target_lemma: str = _column(
        "Target lemma column", "space-separated lemmas of the target (optional)"
    )
    source_lemma: str = _column(
        "Source lemma column", "space-separated lemmas of the source (optional)"
    )
    factors: str = _column(
        "Factor columns",
        "comma-separated factor columns (recognised when empty: e.g. method, book, known)",
    )
    annotator: str = _column("Annotator column", "annotator column of long labels")
    label: str = _column("Label column", "label column of long labels")
    bins: int = option(5, "Overlap bins", "number of quantile bins of overlap")
    bayes_draws: int = option(4000, "Posterior draws", "draws from the Dirichlet posterior")
    seed: int = option(
        SEED,
        "Random seed",
        "seed of the posterior draws (and of the model annotators' and the planning curve's "
        "resamples and of MACE's random starts)",
    )
    model: ModelChoice = _model(
        "none",
        "Agreement model",
        "fit the hierarchical agreement model of the Bernard of Clairvaux agreement study: 'all' = the five "
        "nested models compared by PSIS-LOO, one of them by name, or 'custom' "
        "(--model-fixed, --model-varying); needs the optional 'model' packages",
    )
    model_fixed: str = _model(
        "",
        "Model: fixed effects",
        "custom model: comma-separated factor columns as fixed effects ('overlap' = lexical "
        "overlap, z-scored)",
    )
    model_varying: str = _model(
        "",
        "Model: varying intercepts",
        "custom model: comma-separated factor columns with varying intercepts",
    )
    model_chains: int = _model(4, "Model: chains", "NUTS chains")
    model_warmup: int = _model(1000, "Model: warm-up", "warm-up iterations per chain")
    model_draws: int = _model(
        1000,
        "Model: draws",
        "most draws per chain after warm-up while the chains agree: drawing stops earlier once "
        "every κ cell has a bulk effective sample size of 400 and every parameter and κ cell "
        "R-hat ≤ 1.01, and goes on, up to three times as many, while an R-hat exceeds 1.01",
    )
    model_seed: int = _model(SEED, "Model: seed", "random seed of the sampler")
    model_target_accept: float = _model(
        0.8,
        "Model: target acceptance",
        "NUTS target acceptance rate (raise to 0.95 after divergent transitions)",
    )
    model_method: ModelMethod = _model(
        "nuts",
        "Model: method",
        "'nuts' (the full sampler) or 'variational' (a quick preview for large studies)",
    )
    model_cache: str = _model(
        "",
        "Model: cache folder",
        "folder where fitted models are kept, so a rerun does not refit (none when empty)",
    )
    max_aligned: int = option(
        20000,
        "Align texts up to N pairs",
        "kept for study files that set it: every pair's passages are now aligned when the pair "
        "is shown, whatever the study's size",
        gui=False,
    )
    model_annotators: str = model_annotators_option(
        "per candidate pair (the pair an item, each annotator's label a nominal category, as "
        "multi-κ counts it; the test scores accuracy)"
    )
    epsilon: float = epsilon_option()
    competence: bool = competence_option(
        "per candidate pair (labels as nominal categories, every label counting, repeats included)"
    )
    batch_column: str = batch_column_option(
        "a column of a long labels table (pair_id, annotator, label, …) naming each label's batch "
        "or date (a round, a timestamp): agreement per batch, with intervals; wide labels have "
        "no such column"
    )
    batch_size: str = batch_size_option()
    retest: bool = retest_option(
        "agreement of each annotator with themself on pairs a long labels table has them label "
        "more than once (the other figures count identical repeats once and leave out "
        "differing ones)"
    )
    occasion_column: str = occasion_column_option(
        "a column of a long labels table telling an annotator's repeated labels of a pair apart "
        "(default: their order in the file)"
    )
    planning: bool = planning_option(
        "the interval's half-width of Krippendorff's α, Fleiss' κ and the mean Cohen's κ "
        "(labels as nominal categories) against the number of doubly annotated pairs, by "
        "resampling"
    )

    @property
    def model_names(self) -> tuple[str, ...]:
        """The model annotators' names, each once, in the order given."""
        return model_names(self.model_annotators)

    @property
    def columns(self) -> CandidateColumns:
        """The column names given (empty: recognised from the header)."""
        from iaa_desktop.core.kinds.candidates.reader import CandidateColumns

        return CandidateColumns(
            self.pair_id,
            self.target_text,
            self.source_text,
            self.target_lemma,
            self.source_lemma,
            self.annotator,
            self.label,
        )

    @property
    def factor_columns(self) -> tuple[str, ...]:
        """The factor columns asked for (empty: those recognised from the header)."""
        return tuple(f.strip() for f in self.factors.split(",") if f.strip())

    @property
    def provenance(self) -> IntervalProvenance:
        """The intervals are central 95% intervals of the conjugate posterior of multi-κ."""
        return IntervalProvenance("bayes", self.bayes_draws, self.seed)

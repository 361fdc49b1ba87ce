"""The catalogue's figures about annotators: the alternative annotator test, competence
(Dawid–Skene, MACE), and the planning curve's half-width, with their help text."""

from __future__ import annotations

from iaa_desktop.core.metrics.catalogue.entry import Help, Metric

__all__ = ["ANNOTATOR_FIGURES"]

_GROUP = "Annotators, human and model"
_ALT = (
    "Calderon, Reichart & Dror (2025), The Alternative Annotator Test for LLM-as-a-Judge: How to "
    "Statistically Justify Replacing Human Annotators with LLMs, ACL 2025; Benjamini & Yekutieli "
    "(2001), Annals of Statistics 29(4)"
)


def _figure(name: str, title: str, symbol: str, help: Help, **kw: object) -> Metric:
    return Metric(
        name,
        title,
        symbol,
        inputs="other",
        scope="other",
        symmetric=False,
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_GROUP,
        help=help,
        **kw,  # type: ignore[arg-type]
    )


ANNOTATOR_FIGURES: tuple[Metric, ...] = (
    _figure(
        "winning_rate",
        "Alt-test winning rate (ω)",
        "ω",
        Help(
            "The alternative annotator test asks whether a model can replace a human annotator. "
            "Each human who shares at least 30 items with the model (items also judged by at "
            "least one other human) is left out in turn; per item, whoever agrees better with "
            "the remaining humans wins (a tie is a win for both). A one-sided t-test asks whether "
            "the human wins more often than the model by less than ε; ω is the share of tested "
            "humans for whom that is shown after the Benjamini–Yekutieli correction (q = 0.05). "
            "The model passes when ω ≥ 0.5.",
            "nothing by chance; ε is an allowance for the model's lower cost (0.2 with experts, "
            "0.15 skilled annotators, 0.1 crowd workers, as the authors suggest).",
            "0 (the model beats no human) to 1 (it beats every human tested).",
            "few humans are tested (with two, ω is 0, 0.5 or 1), items are few (the t-test has "
            "little power), the humans share a systematic bias that the model lacks (the model "
            "then loses against a wrong majority), or ε is chosen after seeing the result.",
            _ALT,
        ),
        aliases=("omega", "alt_test"),
    ),
    _figure(
        "advantage_probability",
        "Alt-test advantage probability (ρ)",
        "ρ",
        Help(
            "The mean, over the tested humans, of the share of items on which the model aligns "
            "with the other humans at least as well as the left-out human does. Meant for "
            "comparing models with each other (higher is better), not as a verdict.",
            "nothing; ties count for the model, so ρ above 0.5 is usual when labels are few.",
            "0 to 1.",
            "categories are few and ties frequent (ρ rises with the tie rate), or the humans "
            "disagree with each other (every annotator aligns poorly, model and human alike).",
            _ALT,
        ),
        aliases=("rho", "rho_model"),
    ),
    _figure(
        "dawid_skene",
        "Dawid–Skene competence",
        "DS",
        Help(
            "Dawid and Skene's model gives every annotator a confusion matrix (the probability of "
            "each answer given each true class) and estimates it with the true classes' "
            "posteriors by EM, from each item's share of responses per class to the fixed point. "
            "Competence is the probability of answering the true class; the inferred label is "
            "the class of highest posterior.",
            "annotators who systematically confuse two classes (their confusion is modelled, "
            "not counted as noise), and differing reliability between annotators.",
            "0 to 1 (competence and posteriors).",
            "annotators err together (the model assumes independent errors given the true "
            "class), classes are ordered (treated as unordered), items are few per annotator "
            "(the confusion matrices over-fit; a posterior of 1.00 then means little), or most "
            "annotators share a bias (the majority's view is learnt as the truth).",
            "Dawid & Skene (1979), Maximum likelihood estimation of observer error-rates using "
            "the EM algorithm, Journal of the Royal Statistical Society C 28(1)",
        ),
        aliases=("dawid_skene_competence", "dawid_skene_posterior"),
    ),
    _figure(
        "mace",
        "MACE competence",
        "MACE",
        Help(
            "MACE models each annotator as either knowing the answer (with probability ξ, the "
            "competence) or guessing from a distribution of their own, and estimates both with "
            "the true labels by variational Bayes EM (Beta(0.5, 0.5) prior, 50 iterations, best "
            "of 10 random starts; the seed is recorded). The inferred label is the one of "
            "highest posterior.",
            "spammers: an annotator who always gives the same answer gets a low competence even "
            "when that answer is often right.",
            "0 to 1.",
            "annotators err systematically rather than guess (a consistent confusion looks like "
            "knowledge), few items per annotator (the prior dominates), or results are compared "
            "across seeds (random starts can end in different optima).",
            "Hovy, Berg-Kirkpatrick, Vaswani & Hovy (2013), Learning Whom to Trust with MACE, "
            "NAACL-HLT",
        ),
        aliases=("mace_competence", "mace_posterior"),
    ),
    _figure(
        "half_width",
        "Interval half-width (planning)",
        "±",
        Help(
            "Half the width of the central 95% interval of a coefficient when the study's doubly "
            "annotated items are resampled with replacement at a given size: how precisely a "
            "study of that many items would report the coefficient.",
            "nothing; it describes sampling uncertainty over items only.",
            "0 to 1 for the coefficients drawn (α and κ are bounded by 1).",
            "future items differ from the study's (other categories' prevalence, other "
            "difficulty), annotators change, or the study is tiny (its own resamples are then a "
            "poor picture of the population).",
            "Efron & Tibshirani (1993), An Introduction to the Bootstrap, Chapman & Hall",
        ),
    ),
)

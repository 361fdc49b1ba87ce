"""The catalogue's figures computed inside a kind of study: coreference (class matching, MUC,
B³, CEAF, BLANC, LEA, CoNLL), spelling normalization, candidate pairs, multi-label and
intervals, and the figures about annotators (the alternative annotator test, Dawid–Skene and
MACE competence, the planning curve's half-width), with their help text."""

from __future__ import annotations

from iaa_desktop.core.metrics.catalogue import functions as _f
from iaa_desktop.core.metrics.catalogue.entry import INF, Help, Metric

__all__ = ["KIND_FIGURES"]

_CHANCE = "agreement that annotators would reach by chance"
_AP2008 = "Artstein & Poesio (2008), Inter-coder agreement for computational linguistics, Computational Linguistics 34(4)"
_PRADHAN = (
    "Pradhan, Luo, Recasens, Hovy, Ng & Strube (2014), Scoring coreference partitions of predicted "
    "mentions: a reference implementation, ACL"
)
_COREF = "Coreference"
_NORM = "Spelling normalization"
_CAND = "Candidate pairs"
_MULTI = "Multi-label"
_UNC = "Uncertainty"
_OCC = "Consistency across occurrences"
_SHANNON = (
    "Shannon (1948), A mathematical theory of communication, Bell System Technical Journal 27"
)

KIND_FIGURES: tuple[Metric, ...] = (
    Metric(
        "form_entropy",
        "Inconsistency of a form (entropy of its treatments)",
        "H",
        inputs="other",
        scope="other",
        bounds=(0.0, INF),
        chance_corrected=False,
        group=_OCC,
        aliases=("entropy",),
        help=Help(
            "Every occurrence of a form (a historical spelling, a span's covered text) and what each annotator made of it (its normalization, its label, or nothing) are pooled; H = −Σ p log₂ p over the shares p of each treatment among those judgments.",
            "nothing: it describes how the treatments are spread, not whether they agree beyond chance.",
            "0 bits (every annotator treated every occurrence the same way) upwards; log₂ k when k treatments are given equally often. Higher = more inconsistent.",
            "a form occurs once: its entropy is then only the annotators' disagreement on that occurrence; and forms that are really different words written alike (homographs) are inconsistent by nature.",
            _SHANNON,
        ),
    ),
    Metric(
        "within_entropy",
        "Inconsistency within annotators",
        "H_w",
        inputs="other",
        scope="other",
        bounds=(0.0, INF),
        chance_corrected=False,
        group=_OCC,
        aliases=(),
        help=Help(
            "For each annotator who met the form at two or more occurrences, the entropy of their own treatments of it; the mean over those annotators.",
            "nothing.",
            "0 bits (each annotator is consistent with themself) upwards; empty when no annotator met the form twice.",
            "an annotator met the form only twice: one change gives a full bit.",
            _SHANNON,
        ),
    ),
    Metric(
        "share_inconsistent",
        "Share of repeated forms treated in more than one way",
        "s_incons",
        inputs="other",
        scope="other",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_OCC,
        aliases=(),
        help=Help(
            "Of the forms an annotator met at two or more occurrences, the share they treated in more than one way (within-annotator consistency is one minus it).",
            "nothing.",
            "0 (always the same treatment for the same form) to 1.",
            "an annotator who saw few repeated forms: the share rests on a handful of forms; and homographs that deserve different treatments count as inconsistent.",
            _SHANNON,
        ),
    ),
    Metric(
        "class_matching_d",
        "Class matching δ (d = D / (D + M))",
        "d",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("d", "delta", "δ", "class_d"),
        help=Help(
            "Each class of annotator A is matched to one class of annotator B by a minimum-cost assignment on set differences. Per matched pair: M = mentions both put in the class, L = only in A's, R = only in B's, D = L + R, d = D / (D + M). Texts with d ≥ 1/3 are flagged for study. Corpus totals add L, M, R over texts, then recompute d.",
            "nothing: it is a disagreement rate, not chance-corrected.",
            "0 (the classes are identical) to 1 (nothing shared). Lower is better.",
            "one annotator splits a class that the other keeps whole: the split part is matched elsewhere or left unmatched, and d depends on the cost chosen (symmetric difference, Jaccard, 'opt').",
            "Erwich, Creating a coreference-annotated corpus for Biblical Hebrew: an analysis of inter-annotator agreement for coreference resolution annotations in the Psalms and beyond (notebook, github.com/cmerwich/participant-analysis)",
        ),
    ),
    Metric(
        "muc",
        "MUC",
        "MUC",
        function=_f.muc_f1,
        inputs="partitions",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=(),
        help=Help(
            "Link-based score: how many of the links needed to form A's classes are also in B's (recall), and vice versa (precision); F1 is their harmonic mean.",
            "nothing; it is a set-overlap score between the two annotations (A as key, B as response).",
            "0 to 1 for recall, precision and F1; 1 = same classes.",
            "there are many singletons (MUC ignores them entirely) or one annotator merges everything into a few big classes (MUC rewards over-merging).",
            "Vilain et al. (1995), A model-theoretic coreference scoring scheme, MUC-6; "
            + _PRADHAN,
        ),
    ),
    Metric(
        "bcub",
        "B³",
        "B³",
        function=_f.bcub_f1,
        inputs="partitions",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("b3", "bcubed", "b_cubed", "b³"),
        help=Help(
            "Mention-based score: for each mention, how much of its class in A is in its class in B; averaged over mentions (recall), and the other way round (precision).",
            "nothing; set overlap per mention.",
            "0 to 1; 1 = same classes.",
            "many singletons inflate it (each counts as a perfectly matched class), and a mention can be credited several times for the same class.",
            "Bagga & Baldwin (1998), Algorithms for scoring coreference chains, LREC workshop; "
            + _PRADHAN,
        ),
    ),
    Metric(
        "ceafm",
        "CEAF-m",
        "CEAF-m",
        function=_f.ceafm_f1,
        inputs="partitions",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("ceaf_m", "ceaf-m"),
        help=Help(
            "Entity alignment score: A's and B's classes are aligned one to one to maximise the number of shared mentions; recall and precision are the shared mentions over each side's mentions.",
            "nothing; optimal one-to-one alignment of classes.",
            "0 to 1; 1 = same classes.",
            "one annotator splits a class: only one part can be aligned, the rest counts as missed.",
            "Luo (2005), On coreference resolution performance metrics, HLT/EMNLP; " + _PRADHAN,
        ),
    ),
    Metric(
        "ceafe",
        "CEAF-e",
        "CEAF-e",
        function=_f.ceafe_f1,
        inputs="partitions",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("ceaf_e", "ceaf-e"),
        help=Help(
            "Entity-based CEAF: the same one-to-one alignment, but each aligned pair scores its similarity 2|A∩B|/(|A|+|B|), so every class weighs the same whatever its size.",
            "nothing; optimal one-to-one alignment of classes.",
            "0 to 1; 1 = same classes.",
            "small classes and singletons weigh as much as the main characters; a text with many singletons looks better or worse than its main chains.",
            "Luo (2005), On coreference resolution performance metrics, HLT/EMNLP; " + _PRADHAN,
        ),
    ),
    Metric(
        "blanc",
        "BLANC",
        "BLANC",
        function=_f.blanc_f1,
        inputs="partitions",
        # the reference scorer's special cases (a key without coreference or without
        # non-coreference links) depend on which side is the key (Luo et al. 2014)
        symmetric=False,
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=(),
        help=Help(
            "Rand-index score: averages the F1 of coreference links (pairs of mentions in one class) and of non-coreference links (pairs in different classes).",
            "the imbalance between the few coreference links and the many non-coreference links, by averaging both kinds.",
            "0 to 1; 1 = same classes.",
            "documents are very short or almost all singletons: one of the two link kinds is nearly empty and dominates the average.",
            "Recasens & Hovy (2011), BLANC: implementing the Rand index for coreference evaluation, Natural Language Engineering 17; "
            + _PRADHAN,
        ),
    ),
    Metric(
        "lea",
        "LEA",
        "LEA",
        function=_f.lea_f1,
        inputs="partitions",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=(),
        help=Help(
            "Link-based entity-aware score: each class is weighted by its size, and scored by the share of its coreference links found in the other annotation.",
            "the weaknesses above: singletons and over-merging are not rewarded, big classes count more.",
            "0 to 1; 1 = same classes.",
            "the annotation scheme has many singleton mentions whose exact span matters: LEA only sees them through their (self-)link.",
            "Moosavi & Strube (2016), Which coreference evaluation metric do you trust? A proposal for a link-based entity aware metric, ACL",
        ),
    ),
    Metric(
        "mentions",
        "Mentions",
        "mentions",
        function=_f.mentions_f1,
        inputs="partitions",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("mention",),
        help=Help(
            "Whether the two annotators marked the same mentions at all (exact spans), whatever their classes.",
            "nothing.",
            "0 to 1; 1 = identical mention spans.",
            "annotators agree on the referent but differ by a word in the span: it counts as two misses.",
            _PRADHAN,
        ),
    ),
    Metric(
        "conll",
        "CoNLL average",
        "CoNLL avg.",
        function=_f.conll_f1,
        inputs="partitions",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_COREF,
        aliases=("conll_average",),
        help=Help(
            "The plain mean of the MUC, B³ and CEAF-e F1 scores, the usual single-number summary.",
            "the particular biases of each of the three scores, by averaging them.",
            "0 to 1; 1 = same classes.",
            "it hides which kind of disagreement is present; look at the three parts.",
            "Pradhan et al. (2012), CoNLL-2012 shared task; " + _PRADHAN,
        ),
    ),
    Metric(
        "normalization_word",
        "Word-based agreement (normalization)",
        "word",
        inputs="other",
        scope="other",
        bounds=None,
        group=_NORM,
        aliases=("word",),
        help=Help(
            "Each annotator's normalized word is the label of the historical token: percent agreement, π* (Fleiss) and α with the normalized Levenshtein distance, for ALL tokens, MEDIUM (at least one annotator changed it) and STRICT (all changed it).",
            "π* and α correct for chance; α_NLD also counts near misses (nähme vs nehme) as partly agreeing.",
            "percent 0–1; π* and α up to 1 (0 = chance).",
            "labels form an open class: π* treats every different spelling as a different category, so it understates agreement on long words; MEDIUM/STRICT exclude the easy unchanged tokens.",
            "Bollmann, Dipper & Petran (2016), Evaluating inter-annotator agreement on historical spelling normalization, LAW-X",
        ),
    ),
    Metric(
        "normalization_character",
        "Character-based agreement (normalization)",
        "char",
        inputs="other",
        scope="other",
        bounds=None,
        group=_NORM,
        aliases=("character",),
        help=Help(
            "Each character of the historical token is a unit: the normalization is aligned to it (Needleman–Wunsch), insertions merge into the neighbouring unit and unchanged characters become the identity label '_'. Percent agreement, π* and α_NLD over all units.",
            "π* and α_NLD correct for chance; the identity label keeps the many unchanged characters from looking like rare agreement.",
            "percent 0–1; π* and α up to 1 (0 = chance).",
            "a token is rewritten completely (a different word): the alignment then pairs unrelated characters and the per-character figures look better than the word-level ones.",
            "Bollmann, Dipper & Petran (2016), Evaluating inter-annotator agreement on historical spelling normalization, LAW-X",
        ),
    ),
    Metric(
        "alpha_nld",
        "α_NLD",
        "α_NLD",
        function=_f.alpha_nld,
        inputs="strings",
        bounds=(-INF, 1.0),
        level="nld",
        group=_NORM,
        aliases=("nld_alpha", "word_alpha", "character_alpha", "alpha_NLD", "α_nld"),
        help=Help(
            "Krippendorff's α with the normalized Levenshtein distance LD(a, b) / max(|a|, |b|) between two labels as the disagreement, so that near spellings disagree only a little.",
            "the disagreement expected between randomly paired labels of the study.",
            "up to 1 (perfect); 0 = chance level.",
            "labels that are short (one character): every difference is a full disagreement and α_NLD behaves like nominal α.",
            "Bollmann, Dipper & Petran (2016), LAW-X; Krippendorff (2011)",
        ),
    ),
    Metric(
        "overlap",
        "Lexical overlap (weighted Jaccard)",
        "J",
        inputs="other",
        scope="other",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_CAND,
        aliases=("weighted_jaccard", "jaccard", "overlap_median"),
        help=Help(
            "Σ_w min(c(w, A), c(w, B)) / Σ_w max(c(w, A), c(w, B)) over the word types (lemmas where given) of the two passages of a candidate pair. Agreement is shown per overlap quintile.",
            "nothing: it describes the pair, not the annotators.",
            "0 (no shared word) to 1 (same words, same counts).",
            "lemmas are missing and inflected forms differ (Latin!): overlap is then understated.",
            "Ioffe (2010), Improved consistent sampling, weighted minhash and L1 sketching; used as in the Bernard of Clairvaux intertextuality study (the Bernard of Clairvaux intertextuality study)",
        ),
    ),
    Metric(
        "per_label_kappa",
        "Per-label κ (multi-label)",
        "κ_e",
        inputs="other",
        scope="pair",
        group=_MULTI,
        aliases=("mean_kappa", "label_kappa"),
        help=Help(
            "For each label, Cohen's κ on 'has this label or not' for each pair of annotators, and their mean; with the percent agreement beside it.",
            "agreement that annotators would reach by chance from each annotator's own frequency of the label.",
            "−1 to 1; 0 = chance level.",
            "a label is very rare or almost always present (κ is unstable and can be undefined).",
            "Levi & Shenhav, A decomposition-based approach for evaluating and analyzing inter-annotator disagreement",
        ),
    ),
    Metric(
        "exact_set_agreement",
        "Exact set agreement",
        "A_set",
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_MULTI,
        aliases=("set_agreement",),
        help=Help(
            "The share of items for which a pair of annotators chose exactly the same set of labels.",
            "nothing.",
            "0 to 1.",
            "sets are large: one differing label makes the whole item disagree.",
            "Levi & Shenhav, A decomposition-based approach",
        ),
    ),
    Metric(
        "first_level",
        "First level (multi-label decomposition)",
        "κ₁",
        inputs="other",
        scope="pair",
        group=_MULTI,
        aliases=("level1", "first", "first level"),
        help=Help(
            "The label combinations are split into two groups S1 and S2 (by default S1 = 'no label at all'): Cohen's κ on which group each annotator chose, per pair, then the mean over pairs. It answers 'do they agree whether…?'.",
            f"{_CHANCE} on the two groups.",
            "−1 to 1; 0 = chance level. Undefined (–) when a pair uses only one group.",
            "one group is tiny: κ is unstable. The exploration ranks all partitions; the top ones may reflect the data's skew rather than a real structure.",
            "Levi & Shenhav, A decomposition-based approach for evaluating and analyzing inter-annotator disagreement",
        ),
    ),
    Metric(
        "second_level",
        "Second level (multi-label decomposition)",
        "κ₂",
        inputs="other",
        scope="pair",
        group=_MULTI,
        aliases=("level2", "second_average", "second", "second level"),
        help=Help(
            "On the items where a pair agrees at the first level, Cohen's κ per label, averaged over labels and then over pairs. It answers 'given they agree whether, do they agree which?'.",
            f"{_CHANCE} per label, on the agreeing items only.",
            "−1 to 1; 0 = chance level. Undefined when a label is constant on those items.",
            "few items remain after the first level: the figure rests on very little data.",
            "Levi & Shenhav, A decomposition-based approach",
        ),
    ),
    Metric(
        "interval",
        "Intervals (bootstrap and Bayesian)",
        "CI",
        inputs="other",
        scope="other",
        bounds=None,
        chance_corrected=False,
        group=_UNC,
        parts=(
            "ci_low",
            "ci_high",
            "ci",
            "bootstrap",
            "bayes_89",
            "bayes_95",
            "95% ci low",
            "95% ci high",
        ),
        help=Help(
            "Bootstrap: items are resampled with replacement (1,000 times, fixed seed) and the 2.5% and 97.5% percentiles of the coefficient are shown. Bayesian: each pair's outcomes get a Dirichlet posterior; the median and the central 89% and 95% intervals of κ are shown.",
            "the uncertainty from having few items; not the uncertainty from choosing annotators.",
            "an interval around the point value.",
            "items are not independent (several items from one text): the interval is too narrow. The Bayesian interval is also too narrow with more than two annotators (in simulations its 95% interval covers the true κ in about 70–80% of studies with four annotators).",
            "Efron & Tibshirani (1993), An introduction to the bootstrap; the Bernard of Clairvaux intertextuality study for the Bayesian model",
        ),
    ),
)


# ---- annotators, human and model ------------------------------------------------------------

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


_ANNOTATOR_FIGURES: tuple[Metric, ...] = (
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
        aliases=("dawid_skene_competence", "dawid_skene_posterior", "Dawid–Skene", "confusion"),
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

#: the annotator figures are listed last in Help → Measures
KIND_FIGURES = KIND_FIGURES + _ANNOTATOR_FIGURES

"""What each agreement measure means, in the app's own words (Help → Measures and tooltips).

One :class:`Measure` per coefficient shown in the results: what it corrects for, its range, when
it misleads, and where it comes from. :func:`tooltip` maps any metric name used in results
(``cohen_kappa_mean``, ``weighted_kappa_linear``, ``ceafe``, ``alpha_nld``, a dotted JSON path
such as ``word.ALL.pi`` or a shown title such as "Cohen's κ") to the same text, so that a
measure's tooltip and its entry in Help → Measures never differ.

Qt-free: the GUI renders :func:`measures_html`; the report and the CLI may use the plain text.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from iaa_desktop.core.metrics import registry

__all__ = ["MEASURES", "Measure", "find", "measures_html", "tooltip"]


@dataclass(frozen=True)
class Measure:
    """One coefficient: its explanation in four parts and the names it appears under.

    Its title and its heading in the help come from the metrics registry
    (:mod:`iaa_desktop.core.metrics.registry`), the one place where titles are written.
    """

    key: str
    summary: str
    corrects_for: str
    range: str
    misleads: str
    reference: str
    aliases: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return registry.get(self.key).title

    @property
    def group(self) -> str:
        return registry.get(self.key).group

    def text(self) -> str:
        """Plain text, a few short paragraphs: the tooltip of the measure."""
        return (
            f"{self.title}: {self.summary}\n"
            f"Corrects for: {self.corrects_for}\n"
            f"Range: {self.range}\n"
            f"Misleads when: {self.misleads}\n"
            f"Source: {self.reference}"
        )

    def html(self) -> str:
        """The same text as rich text, for Help → Measures."""
        e = html.escape
        return (
            f'<h3 id="{e(self.key)}">{e(self.title)}</h3>'
            f"<p>{e(self.summary)}</p>"
            f"<p><b>Corrects for:</b> {e(self.corrects_for)}<br/>"
            f"<b>Range:</b> {e(self.range)}<br/>"
            f"<b>Misleads when:</b> {e(self.misleads)}<br/>"
            f"<b>Source:</b> <i>{e(self.reference)}</i></p>"
        )


_CHANCE = "agreement that annotators would reach by chance"
_AP2008 = "Artstein & Poesio (2008), Inter-coder agreement for computational linguistics, Computational Linguistics 34(4)"
_PRADHAN = (
    "Pradhan, Luo, Recasens, Hovy, Ng & Strube (2014), Scoring coreference partitions of predicted "
    "mentions: a reference implementation, ACL"
)

MEASURES: tuple[Measure, ...] = (
    # ------------------------------------------------------------------ coded items
    Measure(
        "percent_agreement",
        "The share of annotator pairs that gave an item the same label, averaged over the items "
        "that at least two annotators labelled.",
        "nothing: it counts agreement as it is, including what chance alone would produce.",
        "0 (no pair ever agrees) to 1 (every pair always agrees).",
        "one label is very frequent: two annotators who both say 'no' almost always agree highly "
        "without looking at the data. Compare it with a chance-corrected coefficient.",
        _AP2008,
        (
            "agreement",
            "percent",
            "observed_agreement",
            "word_agreement",
            "character_agreement",
            "pct",
        ),
    ),
    Measure(
        "cohen_kappa",
        "Agreement of one pair of annotators beyond chance, where chance is computed from each "
        "annotator's own label distribution. With more annotators the app shows the mean over pairs.",
        f"{_CHANCE} if each labelled at random with their own label frequencies.",
        "−1 to 1; 0 = chance level, 1 = perfect agreement, below 0 = systematic disagreement. "
        "Undefined when both annotators use one single label.",
        "labels are very unevenly distributed (the 'kappa paradox': high percent agreement but low κ), "
        "or annotators differ in how often they use a label (κ rewards that difference slightly).",
        "Cohen (1960), A coefficient of agreement for nominal scales, Educational and Psychological "
        "Measurement 20; " + _AP2008,
        ("kappa", "cohen", "cohens_kappa", "cohen's κ", "κ"),
    ),
    Measure(
        "scott_pi",
        "Like Cohen's κ for one pair, but chance uses the pooled label distribution of both annotators. "
        "With more annotators the app shows the mean over pairs.",
        f"{_CHANCE} if both drew labels from one shared distribution.",
        "−1 to 1; 0 = chance level, 1 = perfect agreement.",
        "labels are very unevenly distributed; like κ it can be low despite high percent agreement.",
        "Scott (1955), Reliability of content analysis: the case of nominal scale coding, Public "
        "Opinion Quarterly 19; " + _AP2008,
        ("scott", "scott's π"),
    ),
    Measure(
        "fleiss_kappa",
        "Multi-annotator generalisation of Scott's π: observed agreement is the mean pairwise "
        "agreement per item; chance uses the pooled distribution of all labels. The normalization "
        "study calls it π* (Artstein & Poesio's name).",
        f"{_CHANCE} drawing from the label distribution of all annotators together.",
        "−1 to 1 (the lower bound depends on the number of annotators); 0 = chance level, 1 = perfect.",
        "labels are rare or very skewed, or annotators have clearly different label preferences "
        "(the pooled chance model hides them).",
        "Fleiss (1971), Measuring nominal scale agreement among many raters, Psychological Bulletin 76; "
        + _AP2008,
        ("fleiss", "pi_star", "π*", "pi", "word_pi", "character_pi", "fleiss' κ"),
    ),
    Measure(
        "multi_kappa",
        "Multi-annotator generalisation of Cohen's κ (Hubert's κ): observed agreement as Fleiss' κ, "
        "chance as the mean over annotator pairs of each pair's own-distribution chance. The "
        "candidate-pairs study adds bootstrap and Bayesian intervals (median, 89% and 95%).",
        f"{_CHANCE}, each annotator with their own label frequencies.",
        "−1 to 1; 0 = chance level, 1 = perfect agreement.",
        "few items per subset (a level of a factor): look at the interval, not the point value; "
        "skewed labels lower it as for κ.",
        "Hubert (1977), Kappa revisited, Psychological Bulletin 84; the Bayesian version follows "
        "the study of inter-annotator agreement on biblical intertextuality in Bernard of Clairvaux "
        "(the Bernard of Clairvaux intertextuality study); " + _AP2008,
        ("multikappa", "multi-κ", "hubert_kappa", "bayes_median"),
    ),
    Measure(
        "gwet_ac1",
        "A chance-corrected agreement whose chance term is small when labels are skewed, so it "
        "stays close to percent agreement where κ collapses.",
        "the chance of agreeing when an annotator is uncertain and guesses, estimated from how "
        "spread the labels are.",
        "about −1 to 1; 0 = chance level, 1 = perfect agreement.",
        "you compare it with κ or α values from other studies: it is systematically higher on "
        "skewed data; it can flatter annotators who agree on the easy majority label.",
        "Gwet (2008), Computing inter-rater reliability and its variance in the presence of high "
        "agreement, British Journal of Mathematical and Statistical Psychology 61",
        ("ac1", "gwet"),
    ),
    Measure(
        "gwet_ac2",
        "Gwet's AC1 for ordered labels: near misses count as partial agreement through weights "
        "from the category values (linear or quadratic, as for weighted κ), in the observed and "
        "in the chance agreement.",
        "the chance of agreeing when an annotator is uncertain, scaled by how much agreement the "
        "weights grant between any two labels.",
        "about −1 to 1; 0 = chance level, 1 = perfect agreement.",
        "the scale's width matters: declare its bounds (e.g. 1–7) when not every point was used, "
        "or the weights are fractions of the observed range; it stays high on skewed data as AC1.",
        "Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed., §3.4",
        ("ac2", "gwet_ac2_linear", "gwet_ac2_quadratic"),
    ),
    Measure(
        "conger_kappa",
        "Cohen's κ for more than two annotators: observed agreement as Fleiss' κ, chance as the "
        "mean over annotator pairs of each pair's own-distribution chance. It is the same number "
        "as multi-κ (Hubert 1977), under the name other tools give it.",
        f"{_CHANCE}, each annotator with their own label frequencies.",
        "−1 to 1; 0 = chance level, 1 = perfect agreement.",
        "annotators label very different subsets of the items (their label distributions then "
        "describe different items); skewed labels lower it as for κ.",
        "Conger (1980), Integration and generalization of kappas for multiple raters, "
        "Psychological Bulletin 88; Gwet (2014), Handbook of Inter-Rater Reliability",
        ("conger", "conger's κ"),
    ),
    Measure(
        "bennett_s",
        "Chance-corrected agreement with a fixed chance term: every category equally likely "
        "(1/q for q categories), whatever the annotators' label frequencies. Also known as "
        "Randolph's free-marginal κ and Brennan & Prediger's coefficient.",
        "the agreement of annotators who pick any of the q categories with equal probability.",
        "−1/(q−1) to 1; 0 = chance level, 1 = perfect agreement.",
        "categories were not equally available (declare the categories when some were never "
        "used), or one category dominates by design: S then looks better than κ.",
        "Bennett, Alpert & Goldstein (1954), Communications through limited response "
        "questioning, Public Opinion Quarterly 18; Randolph (2005), Free-marginal multirater "
        "kappa; Brennan & Prediger (1981)",
        ("randolph_kappa", "free_marginal_kappa", "brennan_prediger", "bp"),
    ),
    Measure(
        "alpha_one_vs_rest",
        "Agreement on one category: Krippendorff's α (and Fleiss' κ) of the data recoded as "
        "'this category or another', and the specific agreement Σ n(n−1)/Σ n(m−1) of its labels.",
        "the disagreement expected if the labels 'this category' and 'another' were paired at random.",
        "up to 1 (perfect); 0 = chance level.",
        "the category is rare: a few items decide the figure; look at how often it was used.",
        "Krippendorff (2008), Systematic and random disagreement and the reliability of nominal "
        "data, Communication Methods and Measures 2(4); Uebersax (1982) for specific agreement",
        ("kappa_one_vs_rest", "specific_agreement", "per_category", "category_alpha"),
    ),
    Measure(
        "weighted_kappa_linear",
        "Cohen's κ for ordered labels where a near miss counts as partial agreement: the "
        "disagreement weight grows linearly with the distance between labels. Mean over pairs.",
        f"{_CHANCE} from each annotator's own distribution, weighted the same way.",
        "−1 to 1; 0 = chance level, 1 = perfect agreement.",
        "the labels are not ordered, or the steps of the scale are not equally far apart.",
        "Cohen (1968), Weighted kappa, Psychological Bulletin 70",
        ("weighted_kappa", "linear_kappa", "weighted κ (linear)"),
    ),
    Measure(
        "weighted_kappa_quadratic",
        "As the linear weighted κ, but the disagreement weight grows with the squared distance: "
        "large misses count much more than near misses. Close to an intraclass correlation.",
        f"{_CHANCE} from each annotator's own distribution, weighted the same way.",
        "−1 to 1; 0 = chance level, 1 = perfect agreement.",
        "a few large disagreements dominate; it can be high although annotators rarely give the "
        "same label.",
        "Cohen (1968), Weighted kappa, Psychological Bulletin 70",
        ("quadratic_kappa", "weighted κ (quadratic)"),
    ),
    Measure(
        "krippendorff_alpha",
        "Reliability as 1 − observed disagreement / expected disagreement, for any number of "
        "annotators and missing labels, with a distance for the level of the labels (nominal, "
        "ordinal, interval, ratio). Graded pairs use the ordinal level with can't-decide as missing.",
        "the disagreement expected if the labels were paired at random across all items "
        "(pooled distribution, small-sample corrected).",
        "up to 1 (perfect); 0 = chance level; below 0 = systematic disagreement. Values ≥ 0.8 are "
        "usually called reliable, ≥ 0.667 acceptable for tentative conclusions.",
        "the wrong level is chosen (ordinal data as nominal loses information; nominal data as "
        "interval invents it), or very few items carry most of the pairable values.",
        "Krippendorff (2011), Computing Krippendorff's alpha-reliability; Krippendorff (2004), "
        "Content analysis, 2nd ed.",
        ("alpha", "krippendorff", "krippendorff's α", "α"),
    ),
    Measure(
        "spearman_weighted",
        "Rank correlation of each pair of annotators over the items both judged, averaged over "
        "pairs weighted by how many items each pair shared (as in the TRoTR study). Per annotator, "
        "the app also shows ρ against the mean of the others.",
        "nothing as such: it measures whether annotators order the items alike, not whether they "
        "give the same values.",
        "−1 to 1; 0 = no monotone relation, 1 = identical order.",
        "one annotator uses the scale shifted (always one point higher): ρ stays 1 although no "
        "label agrees; or pairs share only a handful of items.",
        "Periti, Cassotti, Montanelli, Tahmasebi & Schlechtweg (2024), TRoTR: a framework for "
        "evaluating the recontextualization of text reuse",
        (
            "spearman",
            "spearman_vs_others",
            "spearman_vs_others_all",
            "spearman_vs_others_filtered",
            "spearman_all",
            "spearman_filtered",
            "spearman ρ",
            "spearman ρ (weighted mean)",
            "ρ",
        ),
    ),
    # ------------------------------------------------------------------ coreference
    Measure(
        "class_matching_d",
        "Each class of annotator A is matched to one class of annotator B by a minimum-cost "
        "assignment on set differences. Per matched pair: M = mentions both put in the class, "
        "L = only in A's, R = only in B's, D = L + R, d = D / (D + M). Texts with d ≥ 1/3 are "
        "flagged for study. Corpus totals add L, M, R over texts, then recompute d.",
        "nothing: it is a disagreement rate, not chance-corrected.",
        "0 (the classes are identical) to 1 (nothing shared). Lower is better.",
        "one annotator splits a class that the other keeps whole: the split part is matched "
        "elsewhere or left unmatched, and d depends on the cost chosen (symmetric difference, "
        "Jaccard, 'opt').",
        "Erwich, Creating a coreference-annotated corpus for Biblical Hebrew: an analysis of "
        "inter-annotator agreement for coreference resolution annotations in the Psalms and beyond "
        "(notebook, github.com/cmerwich/participant-analysis)",
        ("d", "delta", "δ", "class_d", "L", "M", "R", "D"),
    ),
    Measure(
        "muc",
        "Link-based score: how many of the links needed to form A's classes are also in B's "
        "(recall), and vice versa (precision); F1 is their harmonic mean.",
        "nothing; it is a set-overlap score between the two annotations (A as key, B as response).",
        "0 to 1 for recall, precision and F1; 1 = same classes.",
        "there are many singletons (MUC ignores them entirely) or one annotator merges everything "
        "into a few big classes (MUC rewards over-merging).",
        "Vilain et al. (1995), A model-theoretic coreference scoring scheme, MUC-6; " + _PRADHAN,
        ("muc_f1",),
    ),
    Measure(
        "bcub",
        "Mention-based score: for each mention, how much of its class in A is in its class in B; "
        "averaged over mentions (recall), and the other way round (precision).",
        "nothing; set overlap per mention.",
        "0 to 1; 1 = same classes.",
        "many singletons inflate it (each counts as a perfectly matched class), and a mention can "
        "be credited several times for the same class.",
        "Bagga & Baldwin (1998), Algorithms for scoring coreference chains, LREC workshop; "
        + _PRADHAN,
        ("b3", "bcubed", "b_cubed", "b³"),
    ),
    Measure(
        "ceafm",
        "Entity alignment score: A's and B's classes are aligned one to one to maximise the number "
        "of shared mentions; recall and precision are the shared mentions over each side's mentions.",
        "nothing; optimal one-to-one alignment of classes.",
        "0 to 1; 1 = same classes.",
        "one annotator splits a class: only one part can be aligned, the rest counts as missed.",
        "Luo (2005), On coreference resolution performance metrics, HLT/EMNLP; " + _PRADHAN,
        ("ceaf_m", "ceaf-m", "ceafm_f1"),
    ),
    Measure(
        "ceafe",
        "Entity-based CEAF: the same one-to-one alignment, but each aligned pair scores its "
        "similarity 2|A∩B|/(|A|+|B|), so every class weighs the same whatever its size.",
        "nothing; optimal one-to-one alignment of classes.",
        "0 to 1; 1 = same classes.",
        "small classes and singletons weigh as much as the main characters; a text with many "
        "singletons looks better or worse than its main chains.",
        "Luo (2005), On coreference resolution performance metrics, HLT/EMNLP; " + _PRADHAN,
        ("ceaf_e", "ceaf-e", "ceafe_f1"),
    ),
    Measure(
        "blanc",
        "Rand-index score: averages the F1 of coreference links (pairs of mentions in one class) and "
        "of non-coreference links (pairs in different classes).",
        "the imbalance between the few coreference links and the many non-coreference links, by "
        "averaging both kinds.",
        "0 to 1; 1 = same classes.",
        "documents are very short or almost all singletons: one of the two link kinds is nearly "
        "empty and dominates the average.",
        "Recasens & Hovy (2011), BLANC: implementing the Rand index for coreference evaluation, "
        "Natural Language Engineering 17; " + _PRADHAN,
        ("blanc_f1",),
    ),
    Measure(
        "lea",
        "Link-based entity-aware score: each class is weighted by its size, and scored by the "
        "share of its coreference links found in the other annotation.",
        "the weaknesses above: singletons and over-merging are not rewarded, big classes count more.",
        "0 to 1; 1 = same classes.",
        "the annotation scheme has many singleton mentions whose exact span matters: LEA only sees "
        "them through their (self-)link.",
        "Moosavi & Strube (2016), Which coreference evaluation metric do you trust? A proposal for "
        "a link-based entity aware metric, ACL",
        ("lea_f1",),
    ),
    Measure(
        "mentions",
        "Whether the two annotators marked the same mentions at all (exact spans), whatever their classes.",
        "nothing.",
        "0 to 1; 1 = identical mention spans.",
        "annotators agree on the referent but differ by a word in the span: it counts as two misses.",
        _PRADHAN,
        ("mention_f1", "mention", "mention f1"),
    ),
    Measure(
        "conll",
        "The plain mean of the MUC, B³ and CEAF-e F1 scores, the usual single-number summary.",
        "the particular biases of each of the three scores, by averaging them.",
        "0 to 1; 1 = same classes.",
        "it hides which kind of disagreement is present; look at the three parts.",
        "Pradhan et al. (2012), CoNLL-2012 shared task; " + _PRADHAN,
        ("conll_f1", "conll_average", "conll f1"),
    ),
    # ------------------------------------------------------------------ normalization
    Measure(
        "normalization_word",
        "Each annotator's normalized word is the label of the historical token: percent agreement, "
        "π* (Fleiss) and α with the normalized Levenshtein distance, for ALL tokens, MEDIUM (at "
        "least one annotator changed it) and STRICT (all changed it).",
        "π* and α correct for chance; α_NLD also counts near misses (nähme vs nehme) as partly agreeing.",
        "percent 0–1; π* and α up to 1 (0 = chance).",
        "labels form an open class: π* treats every different spelling as a different category, so "
        "it understates agreement on long words; MEDIUM/STRICT exclude the easy unchanged tokens.",
        "Bollmann, Dipper & Petran (2016), Evaluating inter-annotator agreement on historical "
        "spelling normalization, LAW-X",
        ("word", "word_pi", "word_alpha"),
    ),
    Measure(
        "normalization_character",
        "Each character of the historical token is a unit: the normalization is aligned to it "
        "(Needleman–Wunsch), insertions merge into the neighbouring unit and unchanged characters "
        "become the identity label '_'. Percent agreement, π* and α_NLD over all units.",
        "π* and α_NLD correct for chance; the identity label keeps the many unchanged characters "
        "from looking like rare agreement.",
        "percent 0–1; π* and α up to 1 (0 = chance).",
        "a token is rewritten completely (a different word): the alignment then pairs unrelated "
        "characters and the per-character figures look better than the word-level ones.",
        "Bollmann, Dipper & Petran (2016), Evaluating inter-annotator agreement on historical "
        "spelling normalization, LAW-X",
        ("character", "character_pi", "character_alpha"),
    ),
    Measure(
        "alpha_nld",
        "Krippendorff's α with the normalized Levenshtein distance LD(a, b) / max(|a|, |b|) between "
        "two labels as the disagreement, so that near spellings disagree only a little.",
        "the disagreement expected between randomly paired labels of the study.",
        "up to 1 (perfect); 0 = chance level.",
        "labels that are short (one character): every difference is a full disagreement and α_NLD "
        "behaves like nominal α.",
        "Bollmann, Dipper & Petran (2016), LAW-X; Krippendorff (2011)",
        ("alpha_NLD", "nld_alpha", "α_nld"),
    ),
    # ------------------------------------------------------------------ candidates
    Measure(
        "overlap",
        "Σ_w min(c(w, A), c(w, B)) / Σ_w max(c(w, A), c(w, B)) over the word types (lemmas where "
        "given) of the two passages of a candidate pair. Agreement is shown per overlap quintile.",
        "nothing: it describes the pair, not the annotators.",
        "0 (no shared word) to 1 (same words, same counts).",
        "lemmas are missing and inflected forms differ (Latin!): overlap is then understated.",
        "Ioffe (2010), Improved consistent sampling, weighted minhash and L1 sketching; used as in "
        "the Bernard of Clairvaux intertextuality study (the Bernard of Clairvaux intertextuality study)",
        ("weighted_jaccard", "jaccard", "overlap_median"),
    ),
    # ------------------------------------------------------------------ multi-label
    Measure(
        "per_label_kappa",
        "For each label, Cohen's κ on 'has this label or not' for each pair of annotators, and "
        "their mean; with the percent agreement beside it.",
        f"{_CHANCE} from each annotator's own frequency of the label.",
        "−1 to 1; 0 = chance level.",
        "a label is very rare or almost always present (κ is unstable and can be undefined).",
        "Levi & Shenhav, A decomposition-based approach for evaluating and analyzing "
        "inter-annotator disagreement",
        ("mean_kappa", "label_kappa"),
    ),
    Measure(
        "exact_set_agreement",
        "The share of items for which a pair of annotators chose exactly the same set of labels.",
        "nothing.",
        "0 to 1.",
        "sets are large: one differing label makes the whole item disagree.",
        "Levi & Shenhav, A decomposition-based approach",
        ("set_agreement",),
    ),
    Measure(
        "first_level",
        "The label combinations are split into two groups S1 and S2 (by default S1 = 'no label at "
        "all'): Cohen's κ on which group each annotator chose, per pair, then the mean over pairs. "
        "It answers 'do they agree whether…?'.",
        f"{_CHANCE} on the two groups.",
        "−1 to 1; 0 = chance level. Undefined (–) when a pair uses only one group.",
        "one group is tiny: κ is unstable. The exploration ranks all partitions; the top ones may "
        "reflect the data's skew rather than a real structure.",
        "Levi & Shenhav, A decomposition-based approach for evaluating and analyzing "
        "inter-annotator disagreement",
        ("first", "level1", "first level"),
    ),
    Measure(
        "second_level",
        "On the items where a pair agrees at the first level, Cohen's κ per label, averaged over "
        "labels and then over pairs. It answers 'given they agree whether, do they agree which?'.",
        f"{_CHANCE} per label, on the agreeing items only.",
        "−1 to 1; 0 = chance level. Undefined when a label is constant on those items.",
        "few items remain after the first level: the figure rests on very little data.",
        "Levi & Shenhav, A decomposition-based approach",
        ("second", "level2", "second level"),
    ),
    # ------------------------------------------------------------------ uncertainty
    Measure(
        "interval",
        "Bootstrap: items are resampled with replacement (1,000 times, fixed seed) and the 2.5% and "
        "97.5% percentiles of the coefficient are shown. Bayesian: each pair's outcomes get a "
        "Dirichlet posterior; the median and the central 89% and 95% intervals of κ are shown.",
        "the uncertainty from having few items; not the uncertainty from choosing annotators.",
        "an interval around the point value.",
        "items are not independent (several items from one text): the interval is too narrow. The "
        "Bayesian interval is also too narrow with more than two annotators (in simulations its "
        "95% interval covers the true κ in about 70–80% of studies with four annotators).",
        "Efron & Tibshirani (1993), An introduction to the bootstrap; the Bernard of Clairvaux intertextuality study for the Bayesian model",
        (
            "ci_low",
            "ci_high",
            "ci",
            "bootstrap",
            "bayes_89",
            "bayes_95",
            "95% ci low",
            "95% ci high",
        ),
    ),
)

_INDEX: dict[str, Measure] = {}


def _norm(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


for _m in MEASURES:
    for _n in (_m.key, _m.title, *_m.aliases):
        _INDEX.setdefault(_norm(_n), _m)
# the coreference letters are case-sensitive in results (L, M, R, D); "d" must not be lost to them
_CASE_SENSITIVE = {"L", "M", "R", "D", "d"}


def find(name: str) -> Measure | None:
    """The measure behind a metric name as it appears in results, or ``None``.

    Accepts keys (``cohen_kappa``), aggregate names (``cohen_kappa_mean``), weighted-kappa and
    score variants (``weighted_kappa_linear_mean``, ``ceafe``), dotted JSON paths
    (``overall.krippendorff_alpha.value``, ``word.ALL.pi``) and shown titles ("Cohen's κ").

    >>> find("scott_pi_mean").title
    "Scott's π"
    >>> find("word.ALL.alpha_nld").key
    'alpha_nld'
    """
    if not name:
        return None
    raw = str(name).strip()
    if raw in _CASE_SENSITIVE:
        return _INDEX.get("d")
    candidates = [raw]
    if "." in raw:  # a JSON path: try the most specific part first
        parts = [p for p in raw.split(".") if p and p not in ("value", "ALL", "MEDIUM", "STRICT")]
        candidates = list(reversed(parts)) + [raw]
    for cand in candidates:
        key = _norm(cand)
        for variant in (key, re.sub(r"_(mean|avg|average|f1|recall|precision)$", "", key)):
            if variant in _INDEX:
                return _INDEX[variant]
        if key.startswith("weighted_kappa"):
            return _INDEX[
                "weighted_kappa_quadratic" if "quadratic" in key else "weighted_kappa_linear"
            ]
    return None


def tooltip(metric_name: str) -> str:
    """The explanation of ``metric_name`` as plain text ("" when the name is not a measure)."""
    m = find(metric_name)
    return m.text() if m else ""


def measures_html() -> str:
    """Every measure, grouped, as one rich-text page (Help → Measures)."""
    parts = [
        "<h2>Measures</h2><p>What each coefficient shown in the results means: what it corrects "
        "for, its range, when it misleads, and where it comes from. The same text is the tooltip "
        "of the measure in the results.</p>"
    ]
    group = None
    for m in MEASURES:
        if m.group != group:
            group = m.group
            parts.append(f"<h2>{html.escape(group)}</h2>")
        parts.append(m.html())
    return "\n".join(parts)

"""The catalogue's figures of labelled spans: span F1 (exact and overlapping match), character-
and token-level coefficients, Krippendorff's unitizing α (αU) and γ; and of the relations between
spans: relation F1 with exact and with overlapping arguments, the relation labels' κ. With their
help text."""

from __future__ import annotations

from iaa_desktop.core.metrics.catalogue import functions as _f
from iaa_desktop.core.metrics.catalogue.entry import INF, Help, Metric, Scope

__all__ = ["RELATION_FIGURES", "SPAN_FIGURES"]

_SPANS = "Labelled spans"
_HRIPCSAK = (
    "Hripcsak & Rothschild (2005), Agreement, the F-measure, and reliability in information "
    "retrieval, Journal of the American Medical Informatics Association 12(3)"
)
_UNITS = (
    "every character (or token) of the text is an item whose label is the span label covering "
    "it, or 'no label'"
)
_MATHET = (
    "Mathet, Widlöcher & Métivier (2015), The unified and holistic method gamma (γ) for "
    "inter-annotator agreement measure and alignment, Computational Linguistics 41(3)"
)
_F1_RANGE = "0 (no span shared) to 1 (the same spans with the same labels)."
_F1_CORRECTS = "nothing: F1 counts matches, and chance agreement on spans is not defined."


def _f1(name: str, title: str, symbol: str, summary: str, misleads: str) -> Metric:
    return Metric(
        name,
        title,
        symbol,
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_SPANS,
        help=Help(summary, _F1_CORRECTS, _F1_RANGE, misleads, _HRIPCSAK),
    )


def _unit_level(
    name: str,
    title: str,
    symbol: str,
    summary: str,
    scope: Scope = "multi",
    aliases: tuple[str, ...] = (),
) -> Metric:
    return Metric(
        name,
        title,
        symbol,
        inputs="other",
        scope=scope,
        bounds=(-INF, 1.0),
        group=_SPANS,
        aliases=aliases,
        help=Help(
            f"{summary} Here {_UNITS}.",
            "agreement that annotators would reach by chance on the units, from the labels' "
            "frequencies.",
            "up to 1 (perfect); 0 = chance level.",
            "spans are few and the text long: the many 'no label' units agree and make the "
            "figure look better than the span boundaries are.",
            "Krippendorff (2004), Content analysis, 2nd ed.; Artstein & Poesio (2008), "
            "Computational Linguistics 34(4)",
        ),
    )


SPAN_FIGURES: tuple[Metric, ...] = (
    _f1(
        "exact_f1",
        "Exact-match span F1 (micro)",
        "exact F1",
        "One annotator's spans are the reference, the other's the response: a span counts as "
        "found when both boundaries and the label are the same. F1 is the harmonic mean of "
        "precision and recall over all spans (micro); it does not depend on which annotator is "
        "the reference.",
        "annotators agree on what to mark but differ by a word or a punctuation mark at the "
        "boundary: each such span counts as two misses.",
    ),
    _f1(
        "exact_f1_macro",
        "Exact-match span F1 (macro over labels)",
        "exact F1 (macro)",
        "The exact-match F1 of each label, then their plain mean: every label weighs the same "
        "whatever its frequency.",
        "a rare label is used a few times: its F1 rests on very little and moves the mean as "
        "much as the frequent labels.",
    ),
    _f1(
        "overlap_f1",
        "Overlap span F1 (micro)",
        "overlap F1",
        "As the exact-match F1, but a span counts as found when a span of the same label "
        "overlaps it by at least one character.",
        "one annotator marks long spans and the other short ones inside them: they count as "
        "agreeing although the boundaries differ widely.",
    ),
    _f1(
        "token_f1",
        "Token-level span F1 (bratiaa's tokens)",
        "token F1",
        "Every span becomes one (label, token) per token it overlaps, tokens being runs of "
        "non-space characters; F1 = 2|T_A ∩ T_B| / (|T_A| + |T_B|) over these multisets, as "
        "bratiaa's token-based agreement (Kolditz et al. 2019) computes it.",
        "a long span weighs as many tokens as it covers, and a boundary error between two "
        "adjacent spans of one label vanishes: the figure is higher than the span-level ones.",
    ),
    _f1(
        "lenient_f1",
        "Lenient overlap span F1 (not one to one)",
        "lenient F1",
        "Overlap without the one-to-one matching: recall is the share of one annotator's spans "
        "that share a character with a span of the other's of the same label, precision the "
        "other way round, F1 their harmonic mean (the 'partial' match of MUC-style scoring, "
        "Chinchor & Sundheim 1993).",
        "one long span covers several short ones of the other annotator: every short one counts "
        "as found, so splitting and merging go unnoticed.",
    ),
    _f1(
        "tolerance_f1",
        "Span F1 within a boundary tolerance (micro)",
        "tolerance F1",
        "For units in time (ELAN, Praat): a unit counts as found when a unit of the same label "
        "has both its start and its end within the tolerance (milliseconds, the setting "
        "‘Boundary tolerance’), one to one (a maximum matching); a tolerance of 0 is the "
        "exact-match F1. Points (Praat point tiers) match points within the tolerance.",
        "the tolerance is wider than the units are long: short units of one label near each "
        "other match whichever way they are paired.",
    ),
    _f1(
        "tolerance_f1_macro",
        "Span F1 within a boundary tolerance (macro over labels)",
        "tolerance F1 (macro)",
        "The tolerance F1 of each label, then their plain mean.",
        "a rare label is used a few times: its F1 rests on very little.",
    ),
    _f1(
        "overlap_f1_macro",
        "Overlap span F1 (macro over labels)",
        "overlap F1 (macro)",
        "The overlap F1 of each label, then their plain mean.",
        "a rare label is used a few times: its F1 rests on very little.",
    ),
    _unit_level(
        "char_fleiss_kappa",
        "Character-level Fleiss' κ",
        "char. κ (Fleiss)",
        "Fleiss' κ over the characters of the texts.",
    ),
    _unit_level(
        "char_krippendorff_alpha",
        "Character-level Krippendorff's α",
        "char. α",
        "Krippendorff's α (nominal) over the characters of the texts.",
        aliases=("char_alpha",),
    ),
    _unit_level(
        "token_fleiss_kappa",
        "Token-level Fleiss' κ",
        "token κ (Fleiss)",
        "Fleiss' κ over the tokens of the texts.",
    ),
    _unit_level(
        "token_krippendorff_alpha",
        "Token-level Krippendorff's α",
        "token α",
        "Krippendorff's α (nominal) over the tokens of the texts.",
    ),
    _unit_level(
        "char_cohen_kappa",
        "Character-level Cohen's κ",
        "char. κ",
        "Cohen's κ of one pair of annotators over the characters of the texts.",
        scope="pair",
    ),
    _unit_level(
        "token_cohen_kappa",
        "Token-level Cohen's κ",
        "token κ",
        "Cohen's κ of one pair of annotators over the tokens of the texts.",
        scope="pair",
    ),
    Metric(
        "unitizing_alpha",
        "Unitizing α (αU)",
        "αU",
        function=_f.unitizing_alpha,
        inputs="units",
        bounds=(-INF, 1.0),
        group=_SPANS,
        aliases=("alpha_u", "αU"),
        help=Help(
            "Krippendorff's α for unitizing: the disagreement of two annotators is the squared "
            "length by which their segments of the text (labelled spans and the gaps between "
            "them) fail to coincide, so a boundary off by one character costs little and a "
            "missing span a lot.",
            "the disagreement expected if the segments of all annotators were placed at random "
            "along the text.",
            "up to 1 (perfect); 0 = chance level; below 0 = systematic disagreement.",
            "documents differ much in length (long ones dominate), or the spans are very short "
            "against the text (the long gaps agree and lift the figure).",
            "Krippendorff (1995), On the reliability of unitizing continuous data, Sociological "
            "Methodology 25; Krippendorff, Mathet, Bouvry & Widlöcher (2016), On the "
            "reliability of unitizing textual continua: further developments, Quality & "
            "Quantity 50",
        ),
    ),
    Metric(
        "gamma",
        "γ (Mathet et al. 2015)",
        "γ",
        inputs="other",
        bounds=(-INF, 1.0),
        group=_SPANS,
        help=Help(
            "The spans of all annotators are aligned (each unit to at most one of every other "
            "annotator's), minimising a dissimilarity of positions and labels; γ compares the "
            "disorder of that alignment with the disorder of random annotations sampled from "
            "the study.",
            "the disorder of annotations drawn at random with the study's span lengths and "
            "label frequencies.",
            "up to 1 (perfect); 0 = chance level.",
            "it is computed by sampling: two runs with other seeds differ slightly; and its "
            "value depends on the dissimilarity weights chosen.",
            _MATHET,
        ),
    ),
    Metric(
        "gamma_cat",
        "γ-cat (Mathet 2017)",
        "γ-cat",
        inputs="other",
        bounds=(-INF, 1.0),
        group=_SPANS,
        help=Help(
            "γ for the categorisation alone: over the pairs of units γ's best alignment puts "
            "together, the disagreement of their labels, weighted by how well their positions "
            "match.",
            "the categorical disorder of the randomly sampled annotations γ itself compares with.",
            "up to 1 (perfect); 0 = chance level.",
            "the annotators rarely mark the same stretches: few aligned pairs remain and the "
            "figure rests on them.",
            "Mathet (2017), The agreement measure γcat a complement to γ focused on "
            "categorization of a continuum, Computational Linguistics 43(3); " + _MATHET,
        ),
    ),
    Metric(
        "gamma_k",
        "γ-k of the label (Mathet 2017)",
        "γ-k",
        inputs="other",
        bounds=(-INF, 1.0),
        group=_SPANS,
        help_from="gamma_cat",
    ),
)


# -- relations between spans ------------------------------------------------------------------

_RELATIONS = "Relations between spans"
_F1_REFERENCE = (
    "Hripcsak & Rothschild (2005), Agreement, the F-measure, and reliability in information "
    "retrieval, JAMIA 12(3); Uzuner, South, Shen & DuVall (2011), 2010 i2b2/VA challenge on "
    "concepts, assertions, and relations in clinical text, JAMIA 18(5)"
)
_REL_F1_RANGE = "0 (no relation shared) to 1 (the same relations, labels and directions)."
_REL_F1_CORRECTS = "nothing: F1 counts matches; chance agreement on links is not defined."


def _relation_f1(name: str, title: str, symbol: str, summary: str, misleads: str) -> Metric:
    return Metric(
        name,
        title,
        symbol,
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_RELATIONS,
        help=Help(summary, _REL_F1_CORRECTS, _REL_F1_RANGE, misleads, _F1_REFERENCE),
    )


RELATION_FIGURES: tuple[Metric, ...] = (
    _relation_f1(
        "relation_exact_f1",
        "Relation F1, exact arguments",
        "relation F1 (exact)",
        "Each relation of one annotator is paired with at most one of the other's (a maximum "
        "one-to-one matching); a pair needs the same relation label, the same direction and both "
        "arguments at exactly the same character offsets, whatever labels the argument spans "
        "carry. F1 = 2·matched / (relations of one + relations of the other); shown as the mean "
        "over annotator pairs (relations.overall.exact_f1).",
        "annotators link the same entities but one of them marks an argument a character longer: "
        "the link counts as two misses although only the span boundary differs.",
    ),
    _relation_f1(
        "relation_overlap_f1",
        "Relation F1, overlapping arguments",
        "relation F1 (overlap)",
        "As the exact relation F1, but each argument need only share at least one character "
        "with its counterpart (relations.overall.overlap_f1); the difference from the exact "
        "figure is the share of links lost to span boundaries alone.",
        "one annotator's long argument span overlaps several of the other's: links to different "
        "entities can count as the same.",
    ),
    Metric(
        "relation_label_kappa",
        "Relation-label κ (on the argument pairs both linked)",
        "relation label κ",
        inputs="other",
        scope="pair",
        bounds=(-INF, 1.0),
        group=_RELATIONS,
        aliases=("label_kappa",),
        help=Help(
            "Cohen's κ of the relation labels over the directed argument pairs (same offsets) "
            "that both annotators linked, per pair and as the mean over pairs; Fleiss' κ over "
            "the argument pairs every annotator linked. It measures the choice of label apart "
            "from whether a link was drawn.",
            "agreement on the labels expected by chance from each annotator's label frequencies.",
            "up to 1 (perfect); 0 = chance level; undefined when no argument pair was linked "
            "by both.",
            "few argument pairs are linked by both: the κ rests on them only, and says nothing "
            "about the links one annotator drew and the other did not.",
            "Cohen (1960), Educational and Psychological Measurement 20(1); Fleiss (1971), "
            "Psychological Bulletin 76(5)",
        ),
    ),
)

"""The catalogue's figures of relations between spans: relation F1 with exact and with
overlapping arguments, and the κ of the relation labels, with their help text."""

from __future__ import annotations

from iaa_desktop.core.metrics.catalogue.entry import INF, Help, Metric

__all__ = ["RELATION_FIGURES"]

_GROUP = "Relations between spans"
_F1_REFERENCE = (
    "Hripcsak & Rothschild (2005), Agreement, the F-measure, and reliability in information "
    "retrieval, JAMIA 12(3); Uzuner, South, Shen & DuVall (2011), 2010 i2b2/VA challenge on "
    "concepts, assertions, and relations in clinical text, JAMIA 18(5)"
)
_F1_RANGE = "0 (no relation shared) to 1 (the same relations, labels and directions)."
_F1_CORRECTS = "nothing: F1 counts matches; chance agreement on links is not defined."


def _f1(name: str, title: str, symbol: str, summary: str, misleads: str) -> Metric:
    return Metric(
        name,
        title,
        symbol,
        inputs="other",
        scope="pair",
        bounds=(0.0, 1.0),
        chance_corrected=False,
        group=_GROUP,
        help=Help(summary, _F1_CORRECTS, _F1_RANGE, misleads, _F1_REFERENCE),
    )


RELATION_FIGURES: tuple[Metric, ...] = (
    _f1(
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
    _f1(
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
        group=_GROUP,
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

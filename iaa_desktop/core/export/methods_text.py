"""Methods paragraphs of the report, written from the options a result was computed with.

Each ``methods_<kind>(result)`` returns ``(paragraphs, reference keys)``; the paragraphs are
escaped HTML a user can paste into a paper (the PDF's text layer keeps them as plain text).
References are cited as (Author Year) and listed with :func:`references_html`.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

#: key → full reference
REFERENCES: dict[str, str] = {
    "artstein2008": "Artstein, R. & Poesio, M. (2008). Inter-coder agreement for computational linguistics. "
    "Computational Linguistics, 34(4), 555–596.",
    "cohen1960": "Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and "
    "Psychological Measurement, 20(1), 37–46.",
    "cohen1968": "Cohen, J. (1968). Weighted kappa: Nominal scale agreement with provision for scaled "
    "disagreement or partial credit. Psychological Bulletin, 70(4), 213–220.",
    "fleiss1971": "Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. "
    "Psychological Bulletin, 76(5), 378–382.",
    "scott1955": "Scott, W. A. (1955). Reliability of content analysis: The case of nominal scale coding. "
    "Public Opinion Quarterly, 19(3), 321–325.",
    "hubert1977": "Hubert, L. (1977). Kappa revisited. Psychological Bulletin, 84(2), 289–297.",
    "gwet2008": "Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence "
    "of high agreement. British Journal of Mathematical and Statistical Psychology, 61(1), 29–48.",
    "krippendorff2011": "Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. "
    "Annenberg School for Communication, University of Pennsylvania, Departmental Papers 43.",
    "krippendorff2004": "Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology "
    "(2nd ed.). Sage. (Reliability guideline α ≥ .800, tentative ≥ .667.)",
    "landis1977": "Landis, J. R. & Koch, G. G. (1977). The measurement of observer agreement for "
    "categorical data. Biometrics, 33(1), 159–174.",
    "efron1993": "Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.",
    "seed_candidates": "Inter-annotator agreement on biblical intertextuality in Bernard of Clairvaux: "
    "a Bayesian multi-annotator κ with contextual factors (seed paper 000 of this project).",
    "seed_coref": "Creating a coreference-annotated corpus for Biblical Hebrew: an analysis of "
    "inter-annotator agreement for coreference resolution annotations in the Psalms and beyond "
    "(ETCBC notebook; seed document 001 of this project).",
    "periti2024": "Periti, F., Cassotti, P., Montanelli, S., Tahmasebi, N. & Schlechtweg, D. (2024). "
    "TRoTR: A framework for evaluating the re-contextualization of text reuse. Proceedings of "
    "EMNLP 2024.",
    "bollmann2016": "Bollmann, M., Dipper, S. & Petran, F. (2016). Evaluating inter-annotator agreement "
    "on historical spelling normalization. Proceedings of the 10th Linguistic Annotation Workshop "
    "(LAW X).",
    "levi2022": "Levi, E. & Shenhav, S. R. (2022). A decomposition-based approach for evaluating and "
    "analyzing inter-annotator disagreement (seed paper 004 of this project).",
    "pradhan2014": "Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V. & Strube, M. (2014). Scoring "
    "coreference partitions of predicted mentions: A reference implementation. Proceedings of ACL "
    "2014 (Short Papers), 30–35.",
    "moosavi2016": "Moosavi, N. S. & Strube, M. (2016). Which coreference evaluation metric do you "
    "trust? A proposal for a link-based entity aware metric. Proceedings of ACL 2016, 632–642.",
    "needleman1970": "Needleman, S. B. & Wunsch, C. D. (1970). A general method applicable to the search "
    "for similarities in the amino acid sequence of two proteins. Journal of Molecular Biology, "
    "48(3), 443–453.",
    "smith1981": "Smith, T. F. & Waterman, M. S. (1981). Identification of common molecular "
    "subsequences. Journal of Molecular Biology, 147(1), 195–197.",
    "kuhn1955": "Kuhn, H. W. (1955). The Hungarian method for the assignment problem. Naval Research "
    "Logistics Quarterly, 2(1–2), 83–97.",
}

_KIND_TITLES = {
    "table": "Judgments of items (generic table)",
    "durel": "Graded use pairs (DURel / TRoTR)",
    "candidates": "Candidate text-reuse pairs",
    "normalization": "Historical spelling normalization",
    "multilabel": "Multi-label annotation",
    "coref": "Coreference",
}


def kind_title(kind: str) -> str:
    try:
        from ..tasks import get_kind

        return str(get_kind(kind).title)
    except Exception:  # an unregistered kind still gets a report
        return _KIND_TITLES.get(kind, kind)


def esc(v: Any) -> str:
    return html.escape("" if v is None else str(v), quote=True)


def references_html(keys: Iterable[str]) -> str:
    keys = list(dict.fromkeys(k for k in keys if k in REFERENCES))
    if not keys:
        return ""
    items = sorted(REFERENCES[k] for k in keys)
    return (
        '<h3 class="nobreak">References</h3><ol class="refs">'
        + "".join(f"<li>{esc(t)}</li>" for t in items)
        + "</ol>"
    )


def _num(v: Any) -> str:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return str(int(f)) if f.is_integer() else f"{f:g}"


def _values(spec: Any) -> list[str]:
    return [s.strip() for s in str(spec or "").split(",") if s.strip()]


def _interval_sentence(options: Mapping[str, Any]) -> tuple[str, list[str]]:
    method = options.get("interval", "bootstrap")
    if method == "bootstrap":
        return (
            f"Intervals are 95% percentile bootstrap intervals over {int(options.get('n_resamples', 1000)):,} "
            f"resamples of the items (seed {options.get('seed', 0)}) (Efron &amp; Tibshirani 1993).",
            ["efron1993"],
        )
    if method == "bayes":
        return (
            "Intervals of multi-κ are central 95% intervals of its conjugate posterior: per annotator pair a "
            "Dirichlet(1 + counts) over the pairwise outcomes, the expected agreement fixed from the data "
            f"(seed {options.get('seed', 0)}).",
            ["seed_candidates"],
        )
    return "No intervals were computed.", []


# ---------------------------------------------------------------------------------------------


def methods_table(result: Any) -> tuple[list[str], list[str]]:
    o = result.options
    level = getattr(result, "level", o.get("level", "nominal"))
    n_ann = len(getattr(result, "annotators", ()))
    names = [m for m in getattr(result, "overall", {})]
    refs = ["artstein2008", "krippendorff2011", "landis1977", "krippendorff2004"]
    coeffs = []
    if "percent_agreement" in names:
        coeffs.append(
            "percent agreement (the share of agreeing annotator pairs per item, averaged over items)"
        )
    if "cohen_kappa_mean" in names:
        coeffs.append(
            "Cohen's κ (Cohen 1960) and Scott's π (Scott 1955), each averaged over annotator pairs"
        )
        refs += ["cohen1960", "scott1955"]
    if "fleiss_kappa" in names:
        coeffs.append("Fleiss' κ (Fleiss 1971; π* in Artstein &amp; Poesio 2008)")
        refs.append("fleiss1971")
    if "multi_kappa" in names:
        coeffs.append("Hubert's multi-κ (Hubert 1977)")
        refs.append("hubert1977")
    if "gwet_ac1" in names:
        coeffs.append("Gwet's AC1 (Gwet 2008)")
        refs.append("gwet2008")
    if "weighted_kappa_linear_mean" in names:
        coeffs.append(
            "weighted κ with linear and quadratic weights (Cohen 1968), averaged over pairs"
        )
        refs.append("cohen1968")
    if "spearman_weighted" in names:
        coeffs.append(
            "Spearman's ρ per annotator pair, averaged with weights equal to the number of items both judged"
        )
    distance = o.get("distance", "level")
    dist_text = (
        "the normalized Levenshtein distance between the labels as text"
        if distance == "nld"
        else f"the {esc(level)} distance metric"
    )
    coeffs.append(f"Krippendorff's α (Krippendorff 2011) with {dist_text}")
    missing = _values(o.get("missing"))
    miss = (
        "Empty cells, and the values "
        + ", ".join(f"‘{esc(m)}’" for m in missing)
        + " (e.g. can't-decide), "
        if missing
        else "Empty cells "
    )
    p1 = (
        f"Agreement among {n_ann} annotators on {getattr(result, 'n_items', 0):,} items was measured at the "
        f"{esc(level)} level of measurement with "
        + "; ".join(coeffs)
        + ". "
        + miss
        + "were treated as missing values, not as a category: items judged by fewer than two annotators do not "
        "count, and every coefficient uses the pairable items only."
    )
    interval, r = _interval_sentence(o)
    refs += r
    group = o.get("group_by") or ""
    p2 = interval + (
        f" Results are also given separately for each value of the column ‘{esc(group)}’."
        if group
        else ""
    )
    p2 += (
        " The interpretation column names the band of a published convention (Landis &amp; Koch 1977 for "
        "κ-type coefficients; Krippendorff 2004 for α) and is not a verdict on the data."
    )
    return [p1, p2], refs


def methods_durel(result: Any) -> tuple[list[str], list[str]]:
    o = result.options
    cd = _values(o.get("cant_decide", "0,-"))
    p1 = (
        f"Graded judgments of use pairs on a scale from {_num(o.get('scale_low', 1))} to {_num(o.get('scale_high', 4))} "
        f"({len(result.annotators)} annotators, {result.overall.get('all', {}).get('n_items', 0):,} pairs, "
        f"{len(result.targets)} targets) were compared as in TRoTR (Periti et al. 2024): Krippendorff's α "
        f"(Krippendorff 2011) with the {esc(result.level)} distance, and Spearman's ρ per annotator pair averaged "
        "with weights equal to the number of pairs both annotators judged. Can't-decide judgments ("
        + ", ".join(f"‘{esc(v)}’" for v in cd)
        + ") are missing values for α and ρ but count in the weights."
    )
    p2 = (
        f"Filter (the TRiC gold set): a pair is kept when the range (max − min) of its valid judgments is below "
        f"{_num(o.get('filter_range', 2))} and then dropped when its mean lies strictly between "
        f"{_num(o.get('filter_mean_low', 2))} and {_num(o.get('filter_mean_high', 3))}; kept pairs get the binary "
        f"label 1 when their mean is at least {_num(o.get('label_threshold', 2.5))}. All figures are given for all "
        "pairs and for the filtered pairs, pooled over targets (not averaged) and per target. Per target, the mean "
        f"judgment ranks topic variation (TRaC: lower mean = more variation; targets with ρ below "
        f"{_num(o.get('trac_min_spearman', 0.15))} are marked). No intervals are computed for this kind. "
        "α is interpreted with Krippendorff's (2004) guideline, a convention rather than a verdict."
    )
    return [p1, p2], ["periti2024", "krippendorff2011", "krippendorff2004", "artstein2008"]


def methods_candidates(result: Any) -> tuple[list[str], list[str]]:
    o = result.options
    n = (
        getattr(result, "overall", {}).get("multi_kappa", {}).get("n_items", 0)
        if isinstance(getattr(result, "overall", None), dict)
        else 0
    )
    factors = list(getattr(result, "by_factor", {}) or {})
    p1 = (
        f"Candidate text-reuse pairs ({n:,}) judged accept/reject by {len(result.annotators)} annotators were compared "
        "with Hubert's multi-κ (Hubert 1977; the multi-annotator κ of the seed study): observed agreement as in "
        "Fleiss' κ, expected agreement the mean over annotator pairs of the chance agreement from each annotator's "
        "own label distribution. Uncertainty comes from the conjugate Bayesian model: per annotator pair, the "
        "pairwise outcomes follow a Dirichlet(1 + counts) posterior; each of "
        f"{int(o.get('bayes_draws', 4000)):,} draws (seed {o.get('seed', 0)}) gives an observed agreement, with the "
        "expected agreement fixed from the data; the median and the central 89% and 95% intervals are reported."
    )
    p2 = (
        "Lexical overlap of each pair is the weighted Jaccard index over word types (lemmas where given, else "
        f"lower-cased tokens); pairs are grouped into {int(o.get('bins', 5))} quantile bins of overlap. Agreement is "
        "given overall, per annotator pair, per level of each factor"
        + (" (" + ", ".join(esc(f) for f in factors if f != "overlap") + ")" if factors else "")
        + " and per overlap bin, each subset on its own. κ bands follow Landis &amp; Koch (1977), a convention, "
        "not a verdict. The hierarchical regression of the seed study is not part of this report."
    )
    return [p1, p2], [
        "seed_candidates",
        "hubert1977",
        "fleiss1971",
        "artstein2008",
        "landis1977",
        "smith1981",
    ]


def methods_normalization(result: Any) -> tuple[list[str], list[str]]:
    o = result.options
    case = "compared in lower case" if o.get("lowercase", True) else "compared with their case"
    punct = (
        "punctuation tokens left out"
        if o.get("drop_punctuation", True)
        else "punctuation tokens kept"
    )
    raw = (
        "as written"
        if o.get("raw_compare")
        else "after simplifying the historical spelling (e.g. long s as s)"
    )
    p1 = (
        f"Normalizations of {result.n_tokens:,} historical tokens by {len(result.annotators)} annotators were "
        "compared as in Bollmann et al. (2016), word-based (the label of a token is its normalized form) and "
        "character-based (every character of the historical token gets the edit label of a Needleman–Wunsch "
        "alignment (Needleman &amp; Wunsch 1970) of the token with the normalization, insertions merged into the "
        "neighbouring character). Each is reported as percent agreement, Fleiss' κ (π*) (Fleiss 1971; "
        "Artstein &amp; Poesio 2008) and Krippendorff's α with the normalized Levenshtein distance "
        f"(Krippendorff 2011). Forms were {case}, with {punct}; a token counts as unchanged when its normalization "
        f"equals the historical form {raw}."
    )
    p2 = (
        "Subsets: ALL tokens; MEDIUM, the tokens at least one annotator changed; STRICT, the tokens all annotators "
        "changed. Agreement on the modernization type (ORIG, NORM, INFL, SEM, EXT) is given with its confusion "
        "matrix, and character-based agreement of the modernized forms per type. No intervals are computed for "
        "this kind; κ bands (Landis &amp; Koch 1977) and the α guideline (Krippendorff 2004) are conventions."
    )
    return [p1, p2], [
        "bollmann2016",
        "fleiss1971",
        "artstein2008",
        "krippendorff2011",
        "needleman1970",
        "landis1977",
        "krippendorff2004",
    ]


def annotators_of(result: Any) -> list[str]:
    """The annotators of any kind's result (some keep them on their data object)."""
    ann = getattr(result, "annotators", None)
    if ann is None:
        ann = getattr(getattr(result, "data", None), "annotators", ())
    return [str(a) for a in ann]


def methods_multilabel(result: Any) -> tuple[list[str], list[str]]:
    labels = list(getattr(result, "labels", ()))
    o = result.options
    s1 = o.get("s1") or "000 (no label: “is there any label at all?”)"
    p1 = (
        f"Each of {len(annotators_of(result))} annotators gave each item a set of the {len(labels)} labels "
        + ", ".join(esc(lab) for lab in labels)
        + " (an item's combination is a bit code, first label = leftmost bit). Per annotator pair and label, "
        "percent agreement and Cohen's κ (Cohen 1960) on “has the label” are reported, with the exact set "
        "agreement."
    )
    p2 = (
        "Disagreement is decomposed as in Levi &amp; Shenhav (2022): a partition of the codes into S1 and S2 "
        "defines a binary label; the first level is Cohen's κ on that label per pair, the second level the "
        "per-label κ on the items where the pair agrees on the first level, averaged over labels; both are then "
        f"averaged over pairs (unrounded). The theory-driven partition is S1 = {esc(s1)}; every partition was "
        "explored and ranked by first level (ascending) and second level (descending). κ undefined for a pair "
        "(expected agreement 1) makes its average undefined. κ bands follow Landis &amp; Koch (1977), a "
        "convention, not a verdict."
    )
    return [p1, p2], ["levi2022", "cohen1960", "landis1977", "artstein2008"]


def methods_coref(result: Any) -> tuple[list[str], list[str]]:
    o = getattr(result, "options", {}) or {}
    cost = {
        "symdiff": "symmetric difference |a △ b| (the seed's method; ties broken by the largest total overlap)",
        "jaccard": "Jaccard distance 1 − |a ∩ b| / |a ∪ b|",
        "opt": "symmetric difference, where leaving a class unmatched costs its size",
    }.get(str(o.get("cost", "symdiff")), str(o.get("cost", "symdiff")))
    p1 = (
        "Coreference annotations of two annotators were compared class by class as in the Psalms study (seed "
        "document 001): the classes (sets of mentions) of the two annotators are matched by a minimum-cost "
        f"assignment (Kuhn 1955) with the cost ‘{esc(cost)}’; each matched pair of classes gives L (mentions only "
        "in A's class), M (in both), R (only in B's), D = L + R and the disagreement δ = D / (L + M + R); totals "
        "per text and for the corpus are recomputed from the summed counts."
    )
    p2 = (
        "Standard coreference scores with the first annotator as key: MUC, B³, CEAF-m, CEAF-e, BLANC "
        "(Pradhan et al. 2014) and LEA (Moosavi &amp; Strube 2016), mention F1 and the CoNLL average."
    )
    return [p1, p2], ["seed_coref", "kuhn1955", "pradhan2014", "moosavi2016"]


def methods_generic(result: Any) -> tuple[list[str], list[str]]:
    opts = ", ".join(
        f"{esc(k)} = {esc(v)}" for k, v in (result.options or {}).items() if v not in ("", None)
    )
    return [
        f"Results of the kind ‘{esc(result.kind)}’ computed with the options: {opts or 'defaults'}. "
        "See the application's METHODS documentation for the definitions."
    ], ["artstein2008"]


METHODS = {
    "table": methods_table,
    "durel": methods_durel,
    "candidates": methods_candidates,
    "normalization": methods_normalization,
    "multilabel": methods_multilabel,
    "coref": methods_coref,
}


def methods_for(result: Any) -> tuple[list[str], list[str]]:
    return METHODS.get(result.kind, methods_generic)(result)

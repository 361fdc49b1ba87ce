"""Methods paragraphs of the report, written from the options a result was computed with.

Each ``methods_<kind>(result)`` returns ``(paragraphs, reference keys)``; the paragraphs are
escaped HTML a user can paste into a paper (the PDF's text layer keeps them as plain text).
References are cited as (Author Year) and listed with :func:`references_html`.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from iaa_desktop.core.bidi import escape_bidi

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
    "gwet2014": "Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.). Advanced "
    "Analytics.",
    "conger1980": "Conger, A. J. (1980). Integration and generalization of kappas for multiple "
    "raters. Psychological Bulletin, 88(2), 322–328.",
    "bennett1954": "Bennett, E. M., Alpert, R. & Goldstein, A. C. (1954). Communications through "
    "limited response questioning. Public Opinion Quarterly, 18(3), 303–308.",
    "randolph2005": "Randolph, J. J. (2005). Free-marginal multirater kappa (multirater κfree): An "
    "alternative to Fleiss' fixed-marginal multirater kappa. Joensuu Learning and Instruction "
    "Symposium.",
    "krippendorff2008": "Krippendorff, K. (2008). Systematic and random disagreement and the "
    "reliability of nominal data. Communication Methods and Measures, 2(4), 323–338.",
    "krippendorff2011": "Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. "
    "Annenberg School for Communication, University of Pennsylvania, Departmental Papers 43.",
    "krippendorff2004": "Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology "
    "(2nd ed.). Sage. (Reliability guideline α ≥ .800, tentative ≥ .667.)",
    "landis1977": "Landis, J. R. & Koch, G. G. (1977). The measurement of observer agreement for "
    "categorical data. Biometrics, 33(1), 159–174.",
    "efron1993": "Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.",
    "seed_candidates": "Inter-annotator agreement on biblical intertextuality in Bernard of Clairvaux: "
    "a Bayesian multi-annotator κ with contextual factors (text reuse in medieval literature).",
    "seed_coref": "Creating a coreference-annotated corpus for Biblical Hebrew: an analysis of "
    "inter-annotator agreement for coreference resolution annotations in the Psalms and beyond "
    "(ETCBC notebook, github.com/cmerwich/participant-analysis).",
    "periti2024": "Periti, F., Cassotti, P., Montanelli, S., Tahmasebi, N. & Schlechtweg, D. (2024). "
    "TRoTR: A framework for evaluating the re-contextualization of text reuse. Proceedings of "
    "EMNLP 2024.",
    "schlechtweg2021": "Schlechtweg, D., Tahmasebi, N., Hengchen, S., Dubossarsky, H. & "
    "McGillivray, B. (2021). DWUG: A large resource of diachronic word usage graphs in four "
    "languages. Proceedings of EMNLP 2021.",
    "bollmann2016": "Bollmann, M., Dipper, S. & Petran, F. (2016). Evaluating inter-annotator agreement "
    "on historical spelling normalization. Proceedings of the 10th Linguistic Annotation Workshop "
    "(LAW X).",
    "levi2022": "Levi, E. & Shenhav, S. R. (2022). A decomposition-based approach for evaluating and "
    "analyzing inter-annotator disagreement. Proceedings of the 16th Linguistic Annotation Workshop (LAW-XVI).",
    "pradhan2014": "Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V. & Strube, M. (2014). Scoring "
    "coreference partitions of predicted mentions: A reference implementation. Proceedings of ACL "
    "2014 (Short Papers), 30–35.",
    "nedoluzhko2022": "Nedoluzhko, A., Novák, M., Popel, M., Žabokrtský, Z., Zeldes, A. & Zeman, D. "
    "(2022). CorefUD 1.0: Coreference meets Universal Dependencies. Proceedings of LREC 2022, "
    "4859–4872.",
    "zabokrtsky2023": "Žabokrtský, Z., Konopík, M., Nedoluzhko, A., Novák, M., Ogrodniczuk, M., "
    "Popel, M., Pražák, O., Sido, J. & Zeman, D. (2023). Findings of the second shared task on "
    "multilingual coreference resolution. Proceedings of CRAC 2023, 1–18.",
    "yu2022": "Yu, J., Khosla, S., Moosavi, N. S., Paun, S., Pradhan, S. & Poesio, M. (2022). The "
    "Universal Anaphora scorer. Proceedings of LREC 2022, 4873–4883.",
    "moosavi2016": "Moosavi, N. S. & Strube, M. (2016). Which coreference evaluation metric do you "
    "trust? A proposal for a link-based entity aware metric. Proceedings of ACL 2016, 632–642.",
    "needleman1970": "Needleman, S. B. & Wunsch, C. D. (1970). A general method applicable to the search "
    "for similarities in the amino acid sequence of two proteins. Journal of Molecular Biology, "
    "48(3), 443–453.",
    "smith1981": "Smith, T. F. & Waterman, M. S. (1981). Identification of common molecular "
    "subsequences. Journal of Molecular Biology, 147(1), 195–197.",
    "kuhn1955": "Kuhn, H. W. (1955). The Hungarian method for the assignment problem. Naval Research "
    "Logistics Quarterly, 2(1–2), 83–97.",
    "hoffman2014": "Hoffman, M. D. & Gelman, A. (2014). The No-U-Turn Sampler: adaptively setting "
    "path lengths in Hamiltonian Monte Carlo. Journal of Machine Learning Research, 15, 1593–1623.",
    "phan2019": "Phan, D., Pradhan, N. & Jankowiak, M. (2019). Composable effects for flexible and "
    "accelerated probabilistic programming in NumPyro. arXiv:1912.11554.",
    "lewandowski2009": "Lewandowski, D., Kurowicka, D. & Joe, H. (2009). Generating random "
    "correlation matrices based on vines and extended onion method. Journal of Multivariate "
    "Analysis, 100(9), 1989–2001.",
    "vehtari2017": "Vehtari, A., Gelman, A. & Gabry, J. (2017). Practical Bayesian model evaluation "
    "using leave-one-out cross-validation and WAIC. Statistics and Computing, 27(5), 1413–1432.",
    "vehtari2021": "Vehtari, A., Gelman, A., Simpson, D., Carpenter, B. & Bürkner, P.-C. (2021). "
    "Rank-normalization, folding, and localization: an improved R-hat for assessing convergence "
    "of MCMC. Bayesian Analysis, 16(2), 667–718.",
    "kolditz2019": "Kolditz, T., Lohr, C., Hellrich, J., Modersohn, L., Betz, B., Kiehntopf, M. "
    "& Hahn, U. (2019). Annotating German clinical documents for de-identification. MedInfo "
    "2019, 203–207 (the agreement of the bratiaa package).",
    "chinchor1993": "Chinchor, N. & Sundheim, B. (1993). MUC-5 evaluation metrics. Proceedings "
    "of the Fifth Message Understanding Conference (MUC-5), 69–78.",
    "hripcsak2005": "Hripcsak, G. & Rothschild, A. S. (2005). Agreement, the F-measure, and "
    "reliability in information retrieval. Journal of the American Medical Informatics "
    "Association, 12(3), 296–298.",
    "uzuner2011": "Uzuner, Ö., South, B. R., Shen, S. & DuVall, S. L. (2011). 2010 i2b2/VA "
    "challenge on concepts, assertions, and relations in clinical text. Journal of the American "
    "Medical Informatics Association, 18(5), 552–556.",
    "krippendorff1995": "Krippendorff, K. (1995). On the reliability of unitizing continuous data. "
    "Sociological Methodology, 25, 47–76.",
    "meyer2014": "Meyer, C. M., Mieskes, M., Stab, C. & Gurevych, I. (2014). DKPro Agreement: An "
    "open-source Java library for measuring inter-rater agreement. Proceedings of COLING 2014: "
    "System Demonstrations, 105–109.",
    "mathet2015": "Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic "
    "method gamma (γ) for inter-annotator agreement measure and alignment. Computational "
    "Linguistics, 41(3), 437–479.",
    "mathet2017": "Mathet, Y. (2017). The agreement measure γcat a complement to γ focused on "
    "categorization of a continuum. Computational Linguistics, 43(3), 661–681.",
    "hopcroft1973": "Hopcroft, J. E. & Karp, R. M. (1973). An n^5/2 algorithm for maximum matchings "
    "in bipartite graphs. SIAM Journal on Computing, 2(4), 225–231.",
    "shannon1948": "Shannon, C. E. (1948). A mathematical theory of communication. Bell System "
    "Technical Journal, 27(3), 379–423.",
    "calderon2025": "Calderon, N., Reichart, R. & Dror, R. (2025). The Alternative Annotator Test "
    "for LLM-as-a-Judge: How to Statistically Justify Replacing Human Annotators with LLMs. "
    "Proceedings of ACL 2025.",
    "benjamini2001": "Benjamini, Y. & Yekutieli, D. (2001). The control of the false discovery rate "
    "in multiple testing under dependency. Annals of Statistics, 29(4), 1165–1188.",
    "dawid1979": "Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer "
    "error-rates using the EM algorithm. Journal of the Royal Statistical Society C, 28(1), 20–28.",
    "hovy2013": "Hovy, D., Berg-Kirkpatrick, T., Vaswani, A. & Hovy, E. (2013). Learning whom to "
    "trust with MACE. Proceedings of NAACL-HLT 2013, 1120–1130.",
}


def esc(v: Any) -> str:
    # a bidirectional control from an input name is shown, never obeyed
    return html.escape(escape_bidi("" if v is None else str(v)), quote=True)


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


def fmt_num(v: Any) -> str:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return str(int(f)) if f.is_integer() else f"{f:g}"


def values_of(spec: Any) -> list[str]:
    return [s.strip() for s in str(spec or "").split(",") if s.strip()]


def interval_sentence(provenance: Any) -> tuple[str, list[str]]:
    """The methods sentence on a result's intervals, from their provenance (``method``,
    ``resamples``, ``seed``)."""
    method = provenance.method
    if method == "bootstrap":
        return (
            f"Intervals are 95% percentile bootstrap intervals over {provenance.resamples:,} "
            f"resamples of the items (seed {provenance.seed}) (Efron &amp; Tibshirani 1993).",
            ["efron1993"],
        )
    if method == "bayes":
        return (
            "Intervals of multi-κ are central 95% intervals of its conjugate posterior: per annotator pair a "
            "Dirichlet(1 + counts) over the pairwise outcomes, the expected agreement fixed from the data "
            f"(seed {provenance.seed}).",
            ["seed_candidates"],
        )
    return "No intervals were computed.", []


# ---------------------------------------------------------------------------------------------


def annotators_of(result: Any) -> list[str]:
    """The annotators of any kind's result (some keep them on their data object)."""
    ann: Any = getattr(result, "annotators", None)
    if ann is None:
        ann = getattr(getattr(result, "data", None), "annotators", ())
    return [str(a) for a in ann]


def methods_generic(result: Any) -> tuple[list[str], list[str]]:
    opts = ", ".join(
        f"{esc(k)} = {esc(v)}" for k, v in (result.options or {}).items() if v not in ("", None)
    )
    return [
        f"Results of the kind ‘{esc(result.kind)}’ computed with the options: {opts or 'defaults'}. "
        "See the application's METHODS documentation for the definitions."
    ], ["artstein2008"]


def methods_for(result: Any) -> tuple[list[str], list[str]]:
    """The methods paragraphs and reference keys of a result, from its kind's spec."""
    spec = getattr(result, "spec", None)
    if spec is None or spec.methods is None:
        return methods_generic(result)
    paragraphs_and_keys: tuple[list[str], list[str]] = spec.methods_text(result)
    return paragraphs_and_keys

"""Agreement coefficients: arrays in, :class:`AgreementResult` out.

No files, no pandas, no Qt, nothing else from the project: each coefficient is one pure,
vectorised function whose docstring gives its formula and reference and a doctest reproducing a
published value.
"""

from iaa_desktop.core.metrics.alpha import (
    LEVELS,
    alpha_from_coincidences,
    alpha_strings_from_codes,
    distance_matrix,
    krippendorff_alpha,
    krippendorff_alpha_strings,
)
from iaa_desktop.core.metrics.coding import (
    MISSING,
    category_counts,
    coincidence_matrix,
    confusion_matrix,
    encode,
    encode_numeric,
    pairable,
    pairwise_confusions,
    unique_rows,
)
from iaa_desktop.core.metrics.coefficients import (
    agreement_weights,
    annotator_distributions,
    bennett_s,
    cohen_kappa,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    gwet_ac2,
    item_agreement,
    item_disagreement,
    kappa_from_confusion,
    multi_kappa,
    pairwise_cohen_kappa,
    pairwise_matrix,
    per_category_agreement,
    percent_agreement,
    scott_pi,
    weighted_kappa,
)
from iaa_desktop.core.metrics.correlation import (
    pairwise_spearman,
    spearman_rho,
    spearman_vs_others,
    spearman_weighted,
)
from iaa_desktop.core.metrics.result import AgreementResult
from iaa_desktop.core.metrics.table import table_coefficients
from iaa_desktop.core.metrics.tally import Aggregates, Tally, aggregate, as_tally, tally
from iaa_desktop.core.metrics.uncertainty import (
    bayes_multi_kappa,
    bootstrap_batch,
    bootstrap_interval,
    bootstrap_plan,
    percentile_interval,
)

__all__ = [
    "as_tally",
    "table_coefficients",
    "LEVELS",
    "MISSING",
    "Aggregates",
    "AgreementResult",
    "Tally",
    "aggregate",
    "agreement_weights",
    "bennett_s",
    "bootstrap_batch",
    "conger_kappa",
    "gwet_ac2",
    "percentile_interval",
    "tally",
    "alpha_from_coincidences",
    "alpha_strings_from_codes",
    "annotator_distributions",
    "bayes_multi_kappa",
    "bootstrap_interval",
    "bootstrap_plan",
    "category_counts",
    "cohen_kappa",
    "coincidence_matrix",
    "confusion_matrix",
    "distance_matrix",
    "encode",
    "encode_numeric",
    "fleiss_kappa",
    "gwet_ac1",
    "item_agreement",
    "item_disagreement",
    "kappa_from_confusion",
    "krippendorff_alpha",
    "krippendorff_alpha_strings",
    "multi_kappa",
    "pairable",
    "pairwise_cohen_kappa",
    "pairwise_confusions",
    "pairwise_matrix",
    "pairwise_spearman",
    "per_category_agreement",
    "percent_agreement",
    "scott_pi",
    "spearman_rho",
    "spearman_vs_others",
    "spearman_weighted",
    "unique_rows",
    "weighted_kappa",
]

# the metrics catalogue installs the ranges every result is checked against (result.py)
from iaa_desktop.core.metrics import catalogue  # noqa: F401

"""Candidate text-reuse pairs: lexical overlap, multi-κ by factor level with Bayesian intervals."""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec.of_package(
    __name__,
    "candidates",
    title="Candidate text-reuse pairs",
    inputs="a pairs table (passages, factors) and accept/reject labels, long or wide",
)

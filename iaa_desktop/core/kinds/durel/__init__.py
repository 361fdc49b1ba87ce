"""Graded use pairs (DURel, TRoTR): ordinal α, weighted Spearman, filters and per-target figures."""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec.of_package(
    __name__,
    "durel",
    title="Graded use pairs (DURel)",
    inputs="a DURel/PhiTag export: judgments and uses of one or more targets",
)

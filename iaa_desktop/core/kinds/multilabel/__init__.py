"""Multi-label annotation: per-label κ and the two-level decomposition of label sets."""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec.of_package(
    __name__,
    "multilabel",
    title="Multi-label annotation",
    inputs="label sets per item: a long table (labels joined) or a wide 0/1 table",
)

"""Coreference: classes matched one to one between annotators, class tables and coreference scores."""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec.of_package(
    __name__,
    "coref",
    title="Coreference",
    inputs="one folder or file per annotator: brat standoff, CoNLL-2012 or mention tables",
)

"""Historical spelling normalization: word- and character-based agreement, modernization types."""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec.of_package(
    __name__,
    "normalization",
    title="Historical spelling normalization",
    inputs="one token table per annotator (text, token, historical form, normalization, modernization)",
    gold_units="iaa_desktop.core.kinds.normalization.adjudication:gold_units",
)

"""Historical spelling normalization: word- and character-based agreement, modernization types.

Modules: ``reader`` (input formats), ``compare`` (the comparison and its result), ``report`` (report
section and methods paragraph), ``adjudication`` (units and gold writers).
"""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec(
    name="normalization",
    title="Historical spelling normalization",
    inputs="one token table per annotator (text, token, historical form, normalization, modernization)",
    compare="iaa_desktop.core.kinds.normalization.compare:KIND",
    report="iaa_desktop.core.kinds.normalization.report:build",
    methods="iaa_desktop.core.kinds.normalization.report:methods",
    adjudication="iaa_desktop.core.kinds.normalization.adjudication:units_for_normalization",
    gold_units="iaa_desktop.core.kinds.normalization.adjudication:gold_units",
)

"""Coreference: classes matched one to one between annotators, class tables and coreference scores.

Modules: ``reader`` (input formats), ``compare`` (the comparison and its result), ``report`` (report
section and methods paragraph), ``adjudication`` (units and gold writers).
"""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec(
    name="coref",
    title="Coreference",
    inputs="one folder or file per annotator: brat standoff, CoNLL-2012 or mention tables",
    compare="iaa_desktop.core.kinds.coref.compare:KIND",
    report="iaa_desktop.core.kinds.coref.report:build",
    methods="iaa_desktop.core.kinds.coref.report:methods",
    adjudication="iaa_desktop.core.kinds.coref.adjudication:units_for_coref",
)

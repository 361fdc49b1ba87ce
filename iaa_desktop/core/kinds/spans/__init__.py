"""Labelled spans (named entities and any span annotation): span F1, κ/α, unitizing α, γ.

Modules: ``readers`` (brat standoff, span tables), ``loading`` (inputs, pairing of documents),
``corpus`` (flat arrays), ``measures`` (the figures), ``compare`` (the kind and its result),
``tables``, ``report`` (report section and methods paragraph), ``adjudication`` (units and gold
writers), ``gamma`` (γ through pygamma-agreement, optional).
"""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec.of_package(
    __name__,
    "spans",
    title="Labelled spans",
    inputs="one folder or file per annotator: brat standoff or span tables (document, start, end, label)",
)

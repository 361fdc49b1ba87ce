"""Labelled spans (named entities and any span annotation): span F1, κ/α, unitizing α, γ.

Modules: ``readers`` (brat standoff, span tables), ``tools`` (annotation tools' exports),
``loading`` (inputs, pairing of documents), ``corpus`` (flat arrays), ``measures`` (the figures),
``compare`` (the kind and its result), ``tables``, ``report`` (report section and methods
paragraph), ``adjudication`` (units), ``writers`` and ``tool_writers`` (gold in the inputs'
format), ``gamma`` (Mathet et al.'s γ, γ-cat and γ-k; on by default).
"""

from iaa_desktop.core.kinds.spec import KindSpec

SPEC = KindSpec.of_package(
    __name__,
    "spans",
    title="Labelled spans",
    inputs=(
        "one folder or file per annotator: brat standoff, WebAnno/INCEpTION TSV 3.x, doccano "
        "JSONL or span tables (document, start, end, label); or one Label Studio JSON, Prodigy "
        "JSONL or INCEpTION project export holding every annotator"
    ),
)

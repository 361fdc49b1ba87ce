"""What the import dialog shows of a normalization study: annotators, texts, first tokens."""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.core.kinds.arrange import Arrangement, arrange_tables
from iaa_desktop.core.kinds.spec import GivenOptions
from iaa_desktop.core.kinds.survey import (
    N_PREVIEW,
    AnnotatorSource,
    Pairing,
    Preview,
    Survey,
    cell,
    plural,
    problems,
)


def survey(inputs: list[Path], opts: GivenOptions) -> Survey:
    """One annotator per token table, and the first tokens' normalizations."""
    from iaa_desktop.core.kinds.normalization.reader import read_normalization

    data = read_normalization(list(inputs))
    sources = data.sources or ("",) * len(data.annotators)
    annotators = tuple(
        AnnotatorSource(a, Path(s).name if s else "", plural(data.n_tokens, "token"))
        for a, s in zip(data.annotators, sources)
    )
    texts = tuple(dict.fromkeys(data.text_ids))
    rows = tuple((t, (True,) * len(data.annotators)) for t in texts)
    cells = [
        (cell(data.text_ids[i]), cell(data.orig[i])) + tuple(cell(v) for v in data.norm[i])
        for i in range(min(N_PREVIEW, data.n_tokens))
    ]
    return Survey(
        annotators=annotators,
        pairing=Pairing("text", data.annotators, rows),
        preview=Preview(
            ("text", "historical form", *data.annotators), tuple(cells), "normalizations"
        ),
        problems=problems(list(data.errors) + list(data.warnings)),
    )


def arrange(paths: list[Path]) -> Arrangement:
    """The files as picked; a folder gives its token tables."""
    from iaa_desktop.core.kinds.normalization.reader import expand_inputs

    return arrange_tables(paths, expand_inputs)

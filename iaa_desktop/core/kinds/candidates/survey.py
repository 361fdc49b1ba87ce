"""What the import dialog shows of a candidate-pairs study: annotators and the first labels."""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.core.kinds.arrange import Arrangement, arrange_tables
from iaa_desktop.core.kinds.spec import GivenOptions
from iaa_desktop.core.kinds.survey import (
    N_PREVIEW,
    AnnotatorSource,
    Preview,
    Survey,
    cell,
    plural,
    problems,
)


def survey(inputs: list[Path], opts: GivenOptions) -> Survey:
    """The annotators of the labels table and the first pairs' labels."""
    from iaa_desktop.core.kinds.candidates.reader import read_candidates

    data = read_candidates(list(inputs))
    labels = data.labels
    src = data.labels_path.name if data.labels_path else "the labels"
    annotators = tuple(
        AnnotatorSource(a, f"labels in {src}", plural(int((labels[a] != "").sum()), "label"))
        for a in data.annotators
    )
    cells = [
        (cell(pid), *(cell(row[a]) for a in data.annotators))
        for pid, row in labels.head(N_PREVIEW).iterrows()
    ]
    pairs_name = data.pairs_path.name if data.pairs_path else "?"
    return Survey(
        annotators=annotators,
        preview=Preview(
            ("pair", *data.annotators), tuple(cells), f"{len(data.pairs)} pairs in {pairs_name}"
        ),
        problems=problems(list(data.errors) + list(data.warnings)),
    )


def arrange(paths: list[Path]) -> Arrangement:
    """The files as picked; a folder gives its pairs and labels tables."""
    from iaa_desktop.core.kinds.candidates.reader import expand

    return arrange_tables(paths, expand)

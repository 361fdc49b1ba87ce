"""What the import dialog shows of a multi-label study: annotators and the first label sets."""

from __future__ import annotations

from pathlib import Path

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
    """The annotators of the table and the first items' label sets."""
    from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions
    from iaa_desktop.core.kinds.multilabel.reader import read_multilabel

    o = MultiLabelOptions.resolve(opts)
    texts = o.texts.strip()
    data = read_multilabel(
        list(inputs),
        labels=o.label_order or None,
        delimiter=o.delimiter,
        texts=Path(texts) if texts else None,
    )
    k = data.k

    def label_set(code: int) -> str:
        if code < 0:
            return "—"
        chosen = [lab for i, lab in enumerate(data.labels) if (code >> (k - 1 - i)) & 1]
        return "; ".join(chosen) or "(none)"

    annotators = tuple(
        AnnotatorSource(
            a, f"the {data.layout} table", plural(int((data.codes[:, x] >= 0).sum()), "item")
        )
        for x, a in enumerate(data.annotators)
    )
    cells = [
        (cell(data.items[i]), cell(data.texts[i] if i < len(data.texts) else ""))
        + tuple(label_set(int(c)) for c in data.codes[i])
        for i in range(min(N_PREVIEW, len(data.items)))
    ]
    return Survey(
        annotators=annotators,
        preview=Preview(
            ("item", "text", *data.annotators), tuple(cells), f"labels: {', '.join(data.labels)}"
        ),
        problems=problems(list(data.errors) + list(data.warnings)),
    )

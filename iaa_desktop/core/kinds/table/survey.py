"""What the import dialog shows of a judgment table: the layout, annotators and first items."""

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
    """The annotators as the table's layout gives them, and each first item's labels."""
    from iaa_desktop.core.kinds.table.options import TableOptions
    from iaa_desktop.core.kinds.table.reader import FILE, ColumnRoles, read_judgments

    o = TableOptions.resolve(opts)
    roles = ColumnRoles(
        item=o.item_columns,
        annotator=o.annotator or None,
        label=o.label or None,
        group_by=o.group_by or None,
        metadata=o.metadata_columns,
    )
    j = read_judgments(list(inputs), roles)
    frame = j.frame
    items = list(j.item_columns)
    annotators = []
    for name, rows in frame.groupby("annotator", sort=False):
        files = sorted({Path(f).name for f in rows[FILE]})
        how = {"per-annotator": "the file", "wide": "a column of"}.get(
            j.layout, "the annotator column of"
        )
        annotators.append(
            AnnotatorSource(str(name), f"{how} {', '.join(files)}", plural(len(rows), "judgment"))
        )
    names = tuple(a.name for a in annotators)
    first = frame.drop_duplicates(items).head(N_PREVIEW)[items]
    head = frame.merge(first, on=items)
    cells = []
    for key, rows in head.groupby(items, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        by = dict(zip(rows["annotator"].astype(str), rows["label"]))
        cells.append(tuple([cell(", ".join(map(str, key)))] + [cell(by.get(a)) for a in names]))
    caption = f"{j.layout} table; items identified by {', '.join(items)}"
    return Survey(
        annotators=tuple(annotators),
        preview=Preview(("item", *names), tuple(cells), caption),
        problems=problems(j.errors),
    )

"""Item texts found beside the annotations.

A multi-label annotation table often holds only item ids (NEAT's annotations refer to its
sentences by id); the texts sit in a table beside it. When no input gave texts, the tables in the
folders of the inputs are looked at: one with a text column whose ids cover the items is used, and
a warning names it, so the items are shown with their text without a second file being added.
Nothing is read when the ``texts`` option names a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import ReaderError

#: at most this many sibling tables are looked at, and only files up to this size
MAX_CANDIDATES = 12
MAX_BYTES = 50 * 1024 * 1024


def with_texts_beside(data: Any, inputs: Sequence[Path]) -> tuple[Any, list[ReaderError]]:
    """``data`` with the texts of a table beside the inputs (and a warning), or unchanged."""
    from iaa_desktop.core.kinds.multilabel.reader import classify_columns, read_texts_table
    from iaa_desktop.core.tabular import TABLE_SUFFIXES, read_table

    if any(data.texts) or not data.items:
        return data, []
    given = {Path(p).resolve() for p in inputs}
    folders = {(Path(p) if Path(p).is_dir() else Path(p).parent).resolve() for p in inputs}
    items = set(data.items)
    for folder in sorted(folders):
        candidates = [
            f
            for f in sorted(folder.iterdir())
            if f.is_file()
            and f.suffix.lower() in TABLE_SUFFIXES
            and f.resolve() not in given
            and f.stat().st_size <= MAX_BYTES
        ][:MAX_CANDIDATES]
        for f in candidates:
            try:
                df = read_table(f)
            except ReaderError:
                continue
            layout, roles = classify_columns(list(df.columns), df.head(500))
            if layout != "texts" or roles.text is None:
                continue
            texts = read_texts_table(f, df, roles)
            if not items <= set(texts):
                continue
            note = ReaderError(
                f,
                None,
                "the item texts were taken from this table beside the annotations (choose "
                "another one with the 'texts' setting).",
            )
            return replace(data, texts=tuple(texts.get(it, "") for it in data.items)), [note]
    return data, []

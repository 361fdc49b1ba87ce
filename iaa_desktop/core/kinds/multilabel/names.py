"""Item, annotator and label names of a multi-label study compared after Unicode NFC
normalization (Unicode Standard Annex #15): "café" with a composed é and with e + a combining
acute are one name. Two raw forms made one are a warning naming the file and line of the first
changed.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.nfc import NameForms
from iaa_desktop.core.tabular import LINE

#: (file, its annotations, "long" or "wide", the label columns of a wide table)
Frame = tuple[Path, pd.DataFrame, str, tuple[str, ...]]


def nfc_frames(
    frames: list[Frame], errors: list[ReaderError]
) -> tuple[list[Frame], list[NameForms]]:
    """The frames with item and annotator names and wide label columns in NFC, and the forms
    met (items, annotators, labels: the last one to be continued by :func:`nfc_label_sets`). Two
    label columns of one table that become one are a problem (the second is left out, in
    ``errors``)."""
    forms = {c: NameForms(w) for c, w in (("item", "item ids"), ("annotator", "annotator names"))}
    labels = NameForms("labels")
    out: list[Frame] = []
    for path, df, layout, cols in frames:
        for c, f in forms.items():
            codes, uniques = pd.factorize(df[c], sort=False)
            first = pd.Series(range(len(codes))).groupby(codes).first()
            lines = df[LINE].to_numpy()
            normal = [f.see(str(u), path, int(lines[first[k]])) for k, u in enumerate(uniques)]
            if normal != [str(u) for u in uniques]:
                df[c] = pd.Index(normal, dtype=object).to_numpy()[codes]
        if layout == "wide":
            kept: list[str] = []
            renamed: dict[str, str] = {}
            for c in cols:
                n = labels.see(c, path, 1)
                if n in kept:
                    errors.append(
                        ReaderError(
                            path,
                            1,
                            f"label columns '{c}' and '{n}' differ only in Unicode normalization; "
                            "the second was left out.",
                        )
                    )
                    df = df.drop(columns="bit:" + c)
                    continue
                kept.append(n)
                renamed["bit:" + c] = "bit:" + n
            df = df.rename(columns=renamed)
            cols = tuple(kept)
        out.append((path, df, layout, cols))
    return out, [*forms.values(), labels]


def nfc_label_sets(
    path: Path, df: pd.DataFrame, sets: list[list[str] | None], forms: NameForms
) -> list[list[str] | None]:
    """The label sets of a long table with every label in NFC (a label named twice once)."""
    lines = df[LINE].tolist()
    return [
        None if s is None else list(dict.fromkeys(forms.see(lab, path, int(ln)) for lab in s))
        for s, ln in zip(sets, lines)
    ]


def nfc_warnings(forms: list[NameForms]) -> list[ReaderError]:
    """The merge warnings of ``forms``."""
    return [w for f in forms if (w := f.warning()) is not None]

"""Names compared after Unicode NFC normalization (Unicode Standard Annex #15).

"café" typed with a composed é (U+00E9) and with e + a combining acute (U+0065 U+0301) are the
same text to a reader and must be the same label, annotator, document or item to a comparison.
Only the distinct values of a column are normalized; when two raw forms become one, a warning
says which, so a merge never goes unnoticed.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

import numpy as np

from iaa_desktop.core.bidi import escape_bidi

if TYPE_CHECKING:
    import pandas as pd


def nfc_column(col: pd.Series, what: str) -> tuple[pd.Series, str | None, int]:
    """``col`` (text) in NFC, a warning naming the raw forms merged (None when none were) and
    the position of the first cell whose raw form was merged into another (-1: none).

    >>> import pandas as pd
    >>> out, warning, at = nfc_column(pd.Series(["caf\\u00e9", "cafe\\u0301", "x"]), "labels")
    >>> out.tolist() == ["caf\\u00e9", "caf\\u00e9", "x"], "2 raw forms" in warning, at
    (True, True, 1)
    """
    import pandas as pd

    codes, uniques = pd.factorize(col, sort=False)
    raw = [str(u) for u in uniques]
    if all(u.isascii() for u in raw):
        return col, None, -1
    normal = [unicodedata.normalize("NFC", u) for u in raw]
    if normal == raw:
        return col, None, -1
    out = pd.Series(pd.Index(normal, dtype=object).to_numpy()[codes], index=col.index)
    out[codes < 0] = col[codes < 0]  # missing cells stay missing
    forms: dict[str, list[str]] = {}
    for r, n in zip(raw, normal):
        forms.setdefault(n, []).append(r)
    merged = {n: rs for n, rs in forms.items() if len(rs) > 1}
    if not merged:
        return out, None, -1
    changed = [k for k, (r, n) in enumerate(zip(raw, normal)) if r != n and n in merged]
    at = int(np.flatnonzero(np.isin(codes, changed))[0])
    shown = ", ".join(
        f"'{escape_bidi(n)}' ({len(rs)} raw forms)" for n, rs in list(merged.items())[:5]
    )
    more = f" and {len(merged) - 5} more" if len(merged) > 5 else ""
    return (
        out,
        f"{what} that differ only in Unicode normalization were compared as one (NFC): "
        f"{shown}{more}.",
        at,
    )

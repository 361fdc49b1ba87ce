"""Names compared after Unicode NFC normalization (Unicode Standard Annex #15).

"café" typed with a composed é (U+00E9) and with e + a combining acute (U+0065 U+0301) are the
same text to a reader and must be the same label, annotator, document or item to a comparison.
Only the distinct values of a column are normalized; when two raw forms become one, a warning
says which, so a merge never goes unnoticed.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

import numpy as np

from iaa_desktop.core.bidi import escape_bidi
from iaa_desktop.core.errors import ReaderError

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
    return out, merged_message(what, merged), at


def merged_message(what: str, merged: dict[str, list[str]]) -> str:
    """The warning on the raw forms (values of ``merged``) read as one NFC name (its keys)."""
    shown = ", ".join(
        f"'{escape_bidi(n)}' ({len(rs)} raw forms)" for n, rs in list(merged.items())[:5]
    )
    more = f" and {len(merged) - 5} more" if len(merged) > 5 else ""
    return (
        f"{what} that differ only in Unicode normalization were compared as one (NFC): "
        f"{shown}{more}."
    )


#: how forms are matched: as written (after NFC), ignoring case, ignoring case and diacritics
FormMatch = Literal["exact", "case", "case_diacritics"]
FORM_MATCHES: tuple[FormMatch, ...] = get_args(FormMatch)


@lru_cache(maxsize=1 << 16)
def fold(form: str, match: FormMatch = "exact") -> str:
    """The key two forms share when they are "the same form" under ``match``.

    >>> fold("Pott\\u00e9e"), fold("Potte\\u0301e") == fold("Pott\\u00e9e")
    ('Pottée', True)
    >>> fold("Pottée", "case"), fold("Pottée", "case_diacritics")
    ('pottée', 'pottee')
    """
    key = unicodedata.normalize("NFC", form)
    if match == "exact":
        return key
    key = key.casefold()
    if match == "case_diacritics":
        decomposed = unicodedata.normalize("NFD", key)
        key = unicodedata.normalize(
            "NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch))
        )
    return key


def fold_with_offsets(text: str, match: FormMatch) -> tuple[str, list[int]]:
    """``text`` folded character by character, with the offset in ``text`` at which each
    character of the folded text starts (and ``len(text)`` at the end), so that a match found in
    the folded text maps back to the original offsets."""
    if match == "exact":
        return text, list(range(len(text) + 1))
    out: list[str] = []
    starts: list[int] = []
    for i, ch in enumerate(text):
        f = fold(ch, match) if not ch.isascii() else (ch.lower() if ch.isalpha() else ch)
        out.append(f)
        starts.extend([i] * len(f))
    starts.append(len(text))
    return "".join(out), starts


class NameForms:
    """The names of one role (labels, annotator names, document names) as they are read, one
    by one: :meth:`see` gives a name's NFC form and remembers where each raw form was first met;
    :meth:`warning` names the raw forms merged, at the file and line of the first one that was
    changed.

    >>> forms = NameForms("labels")
    >>> forms.see("caf\u00e9", "a.ann", 3), forms.see("cafe\u0301", "b.ann", 7) == "caf\u00e9"
    ('café', True)
    >>> str(forms.warning()).startswith("b.ann, line 7: labels that differ")
    True
    """

    def __init__(self, what: str) -> None:
        self.what = what
        self._first: dict[str, tuple[str | Path | None, int | None]] = {}
        self._normal: dict[str, str] = {}

    def see(self, raw: str, path: str | Path | None, line: int | None = None) -> str:
        """``raw`` in NFC; where it was read is kept if it is the first time."""
        if raw not in self._first:
            self._first[raw] = (path, line)
            self._normal[raw] = raw if raw.isascii() else unicodedata.normalize("NFC", raw)
        return self._normal[raw]

    def warning(self) -> ReaderError | None:
        """The merge warning, ``None`` when no two raw forms became one."""
        forms: dict[str, list[str]] = {}
        for raw, n in self._normal.items():
            forms.setdefault(n, []).append(raw)
        merged = {n: rs for n, rs in forms.items() if len(rs) > 1}
        if not merged:
            return None
        at = next(r for r, n in self._normal.items() if n in merged and r != n)
        path, line = self._first[at]
        if line is None and path is not None:
            line = _line_holding(Path(path), at)
        return ReaderError(path, line, merged_message(self.what, merged))


def _line_holding(path: Path, text: str) -> int | None:
    """The first line of the UTF-8 file ``path`` holding ``text`` (``None``: not found there),
    for a warning on a name whose reader keeps no line."""
    try:
        if not path.is_file() or path.stat().st_size > 256 * 2**20:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    k = data.find(text.encode("utf-8"))
    return None if k < 0 else data.count(b"\n", 0, k) + 1

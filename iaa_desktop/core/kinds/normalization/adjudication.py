"""Units of the ``normalization`` kind: each token's final normalization, modernization and type.

A value is ``norm<TAB>mod<TAB>mod_type`` (the three columns of a token file; tabs cannot occur in
them). Units are read from the inputs with :func:`~iaa_desktop.core.kinds.normalization.reader.read_normalization`,
so the gold has every token of the files (also the punctuation the comparison may leave out).

Gold export: ``gold.tsv``, a token file with the columns of the inputs (``text_id, token_id, orig,
norm, mod, mod_type``). An undecided token has an empty normalization: a missing value, which the
reader notes (a warning, not an error) and leaves out of the comparison when the file is loaded
back. The majority strategy is taken on the normalization (see :meth:`NormalizationModel.majority`).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.gold_io import write_table
from iaa_desktop.core.adjudication.model import AdjudicationModel, Suggestion
from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.suggestions import item_suggestions

GOLD = "gold"
TYPES = ("INFL", "SEM", "EXT")
STANDARD = ("text_id", "token_id", "orig", "norm", "mod", "mod_type")
CONTEXT = 25


def encode(norm: str, mod: str = "", mod_type: str = "") -> str:
    return f"{norm}\t{mod}\t{mod_type}"


def decode(value: str) -> tuple[str, str, str]:
    parts = (value.split("\t") + ["", "", ""])[:3]
    return parts[0], parts[1], parts[2]


class NormalizationModel(AdjudicationModel):
    kind = "normalization"

    def __init__(
        self,
        *args: Any,
        text_ids: tuple[str, ...] = (),
        token_ids: tuple[str, ...] = (),
        orig: tuple[str, ...] = (),
        header: list[str] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        self.text_ids, self.token_ids, self.orig = text_ids, token_ids, orig
        self.header = header

    def format_value(self, value: str | None) -> str:
        if value is None:
            return "—"
        norm, mod, typ = decode(value)
        if mod or typ:
            return f"{norm} → {mod or '∅'} ({typ or '?'})"
        return norm

    def parse_value(self, text: str, i: int | None = None) -> str:
        """``norm`` or ``norm | mod | TYPE`` (also ``norm → mod (TYPE)`` as shown)."""
        t = text.strip()
        if "→" in t:
            norm, rest = (s.strip() for s in t.split("→", 1))
            typ = ""
            if rest.endswith(")") and "(" in rest:
                rest, typ = rest[:-1].rsplit("(", 1)
            parts = [norm, rest.strip(), typ.strip()]
        else:
            parts = [p.strip() for p in t.split("|")]
        parts = (parts + ["", "", ""])[:3]
        norm, mod, typ = parts[0], parts[1], parts[2].upper()
        if not norm:
            raise OptionError(
                "Type the normalization (optionally: norm | modernized form | INFL/SEM/EXT)."
            )
        if mod and typ not in TYPES:
            raise OptionError(f"A modernized form needs its type: one of {', '.join(TYPES)}.")
        if typ and not mod:
            raise OptionError("A modernization type needs the modernized form (norm | mod | TYPE).")
        if any("\t" in p for p in (norm, mod, typ)):
            raise OptionError("A value cannot contain a tab.")
        return encode(norm, mod, typ)

    # -- forms: every occurrence of a historical spelling decided at once --------------------

    def form(self, i: int) -> str:
        return self.orig[i]

    def form_treatments(self, i: int) -> list[str]:
        """The normalizations (with modernizations) the historical form of unit ``i`` received
        anywhere, most frequent first."""
        from collections import Counter

        counts: Counter[str] = Counter()
        for j in self.units_of_form(self.form_key(i)):
            counts.update(self.format_value(v) for v in self.versions[j] if v is not None)
        return [t for t, _n in counts.most_common()]

    def form_value(self, i: int, treatment: str) -> str | None:
        return self.parse_value(treatment, i)

    def _window(self, i: int) -> range:
        t = self.text_ids[i]
        lo, hi = max(0, i - CONTEXT), min(len(self.orig), i + CONTEXT + 1)
        while lo < i and self.text_ids[lo] != t:
            lo += 1
        while hi > i + 1 and self.text_ids[hi - 1] != t:
            hi -= 1
        return range(lo, hi)

    def describe(self, i: int) -> str:
        words = [f"[{self.orig[j]}]" if j == i else self.orig[j] for j in self._window(i)]
        return f"Text {self.text_ids[i]}, token {self.token_ids[i]}: {self.orig[i]}\n\n" + " ".join(
            words
        )

    def describe_html(self, i: int, names: Any = None, current: str | None = None) -> str:
        words = []
        for j in self._window(i):
            w = html.escape(self.orig[j])
            words.append(f"<span style='background:#ffe08a'><b>{w}</b></span>" if j == i else w)
        return (
            f"<p>Text <b>{html.escape(self.text_ids[i])}</b>, token {html.escape(self.token_ids[i])}: "
            f"<span style='font-size:150%'><b>{html.escape(self.orig[i])}</b></span></p>"
            f"<p dir='auto'>{' '.join(words)}</p>"
        )

    def majority(self, min_share: float = 0.5, rows: slice | None = None) -> NDArray[Any]:
        """The majority taken on the normalization; the modernization and its type separately.

        A token is decided when more than half (and at least ``min_share``) of its annotators
        gave the same normalization. Its modernization is the one more than half of them gave
        (none when no modernization has a majority), and the type the one most of the annotators
        who gave that modernization chose (the first annotator's among equals).
        """
        versions = self.versions if rows is None else self.versions[rows]
        out = np.full(len(versions), None, dtype=object)
        for r, row in enumerate(versions):
            given = [decode(v) for v in row if v is not None]
            norm = _majority([g[0] for g in given], min_share)
            if norm is None:
                continue
            mod = _majority([g[1] for g in given], min_share) or ""
            typ = ""
            if mod:
                types = [g[2] for g in given if g[1] == mod and g[2]]
                typ = max(types, key=types.count) if types else ""
            out[r] = encode(norm, mod, typ)
        return out

    def write_gold(self, gold: NDArray[Any], out_dir: Path, notes: Any = None) -> list[Path]:
        norm, mod, typ = [], [], []
        for v in gold:
            n, m, t = decode(v) if v is not None else ("", "", "")
            norm.append(n)
            mod.append(m)
            typ.append(t)
        values = {
            "text_id": list(self.text_ids),
            "token_id": list(self.token_ids),
            "orig": list(self.orig),
            "norm": norm,
            "mod": mod,
            "mod_type": typ,
        }
        header = self.header or list(STANDARD)
        out = pd.DataFrame({h: values.get(role, [""] * len(gold)) for h, role in _roles(header)})
        return [write_table(out, out_dir / f"{GOLD}.tsv", "\t")]


def _majority(values: list[str], min_share: float) -> str | None:
    """The value more than half (and at least ``min_share``) of ``values`` are, else ``None``."""
    if not values:
        return None
    best = max(values, key=values.count)
    n, k = len(values), values.count(best)
    return best if 2 * k > n and k >= min_share * n - 1e-12 else None


def _roles(header: list[str]) -> list[tuple[str, str]]:
    """(column name, role) in the inputs' column order."""
    from iaa_desktop.core.kinds.normalization.reader import ALIASES

    out = []
    lower = [h.strip().lower() for h in header]
    for h, lo in zip(header, lower):
        role = next((k for k, names in ALIASES.items() if lo in names), "")
        out.append((h, role))
    return out


def _input_header(inputs: tuple[str, ...]) -> list[str] | None:
    """The header of the first per-annotator token file of the inputs (None for a wide table)."""
    from iaa_desktop.core.kinds.normalization.reader import (
        expand_inputs,
        header_kind,
        line_delimiter,
    )
    from iaa_desktop.core.textio import read_head

    for f in expand_inputs([Path(p) for p in inputs]):
        first = read_head(f).split("\n", 1)[0].rstrip("\r")
        if not first:
            continue
        header = first.split(line_delimiter(first))
        if header_kind([h.strip().lower() for h in header]) == "token":
            return header
        return None
    return None


def model_from_data(
    data: Any, inputs: tuple[str, ...], options: dict[str, Any]
) -> NormalizationModel:
    """Units of a :class:`~iaa_desktop.core.kinds.normalization.reader.NormalizationData`."""
    norm = np.asarray(data.norm, dtype=object)
    mod = np.asarray(data.mod, dtype=object)
    typ = np.asarray(data.mod_type, dtype=object)
    versions = np.empty(norm.shape, dtype=object)
    for (i, x), n in np.ndenumerate(norm):
        versions[i, x] = encode(
            str(n), str(mod[i, x] or ""), str(typ[i, x] or "") if mod[i, x] else ""
        )
    keys = [f"{t}/{k}" for t, k in zip(data.text_ids, data.token_ids)]
    titles = [f"{t}/{k} {o}" for t, k, o in zip(data.text_ids, data.token_ids, data.orig)]
    return NormalizationModel(
        data.annotators,
        keys,
        versions,
        titles=titles,
        groups=list(data.text_ids),
        inputs=inputs,
        options=options,
        text_ids=tuple(data.text_ids),
        token_ids=tuple(data.token_ids),
        orig=tuple(data.orig),
        header=_input_header(inputs),
    )


def model_from_inputs(
    inputs: list[Path] | tuple[str, ...], options: dict[str, Any] | None = None
) -> NormalizationModel:
    from iaa_desktop.core.kinds.normalization.reader import read_normalization

    data = read_normalization([Path(p) for p in inputs])
    return model_from_data(data, tuple(str(p) for p in inputs), dict(options or {}))


def units_for_normalization(result: Any) -> NormalizationModel:
    """Units of a normalization result: every token of its inputs (read again, cheap), with
    the inferred normalization of each token when the study computed competence."""
    model = model_from_inputs(list(result.inputs), result.options)
    figures = getattr(result, "annotator_figures", None)
    competence = getattr(figures, "competence", None)
    if competence is not None:
        model.suggestions = token_suggestions(model, competence.inferred)
    return model


def token_suggestions(
    model: NormalizationModel, inferred: Sequence[Mapping[str, Any]]
) -> dict[str, Suggestion]:
    """Each token's inferred normalization (Dawid & Skene 1979; tokens named ``text | token |
    form``, one unit each). Competence compares the normalizations as the figures do (lower-
    cased when the study says so), so the unit's value is the annotators' version whose
    normalization compares equal to the inferred one (the most frequent such version, with
    its modernization); none when no annotator gave it."""
    from iaa_desktop.core.kinds.normalization.options import NormalizationOptions

    lower = NormalizationOptions.resolve(model.options).lowercase

    def unit_of(item: str) -> str | None:
        parts = item.split(" | ", 2)
        key = f"{parts[0]}/{parts[1]}" if len(parts) == 3 else ""
        return key if key in model.index else None

    def value_of(key: str, label: str) -> str | None:
        given = [v for v in model.versions[model.index[key]] if v is not None]
        same = [v for v in given if (decode(v)[0].lower() if lower else decode(v)[0]) == label]
        return max(same, key=same.count) if same else None

    return item_suggestions(inferred, unit_of, value_of)


def gold_units(inputs: Any, options: dict[str, Any]) -> tuple[NormalizationModel, list[Any]]:
    """The units straight from the token files (the comparison is not needed for the gold)."""
    from iaa_desktop.core.kinds.normalization.reader import read_normalization

    data = read_normalization(list(inputs))
    return model_from_data(data, tuple(str(p) for p in inputs), options), list(data.errors)

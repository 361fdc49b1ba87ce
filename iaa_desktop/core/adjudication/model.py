"""What is adjudicated: units with each annotator's version, and the automatic merge strategies.

An :class:`AdjudicationModel` is built per kind of study from a comparison result
(:func:`iaa_desktop.core.adjudication.units_for`). It holds, for ``n`` units and ``c``
annotators, an object array ``versions`` (``n × c``) of encoded values (``str``; ``None`` = the
annotator has no version of the unit). Values are compared as strings, so every kind encodes its
value canonically (a label; a normalization triple; a sorted set of labels; a sorted mention list).

Strategies (:func:`auto_merge`), vectorised over all units:

* ``unanimous``: every annotator of the unit gave the same value;
* ``majority``: one value was given by more than half of the annotators of the unit (and by at
  least ``min_share`` of them, when that is higher);
* ``annotator:NAME``: that annotator's version, where they have one;
* ``inferred`` (``inferred:T``): the value inferred from every annotator's responses by
  Dawid & Skene's (1979) model, where the study computed it (``--competence``) and, with a
  threshold ``T``, only where its posterior is at least ``T``.

Units left without a value form the adjudication queue.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError


@dataclass(frozen=True, slots=True)
class Choice:
    """One way to decide a unit, offered to the adjudicator.

    ``key`` is the digit (``"1"`` .. ``"9"``) or letter that picks it; ``choice`` is what the
    decision records (``annotator:<name>``, ``majority``, ``mean`` ...).
    """

    key: str
    label: str
    choice: str
    value: str | None
    annotators: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A unit's inferred value (Dawid & Skene 1979), shown to the adjudicator and taken only
    by the ``inferred`` strategy.

    ``text`` is what the adjudicator reads (``Dawid–Skene: B, 0.93``); ``value`` the unit's
    value in the kind's encoding (``None``: the inference names no single value of the unit);
    ``posterior`` the probability the ``inferred:T`` threshold is compared with (for a unit
    inferred in parts, the lowest part's).
    """

    text: str
    value: str | None
    posterior: float


class AdjudicationModel:
    """Units of one comparison with every annotator's version (see the module docstring).

    Subclasses (one per kind) override :meth:`write_gold`, and may override
    :meth:`format_value`, :meth:`parse_value`, :meth:`extra_choices` and :meth:`describe`.
    """

    kind: str = "table"
    #: whether values are numbers, so that mean and median are offered
    numeric: bool = False
    #: level of measurement of graded values (``nominal``, ``ordinal``, ``interval``, ``ratio``)
    level: str = "interval"
    #: the values of the scale, in order (empty = unknown); gold offers are values of it
    scale: tuple[float, ...] = ()

    def __init__(
        self,
        annotators: Sequence[str],
        keys: Sequence[str],
        versions: NDArray[Any],
        titles: Sequence[str] | None = None,
        groups: Sequence[str] | None = None,
        disagreement: NDArray[Any] | None = None,
        inputs: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.annotators = tuple(str(a) for a in annotators)
        self.keys = tuple(str(k) for k in keys)
        if len(set(self.keys)) != len(self.keys):
            raise OptionError(
                "Two adjudication units have the same key; the comparison cannot be adjudicated."
            )
        v = np.asarray(versions, dtype=object)
        if v.shape != (len(self.keys), len(self.annotators)):
            raise ValueError(
                f"versions must be {len(self.keys)} × {len(self.annotators)}, got {v.shape}"
            )
        v.setflags(write=False)
        self.versions = v
        self.titles = tuple(titles) if titles is not None else self.keys
        self.groups = tuple(groups) if groups is not None else ("",) * len(self.keys)
        self.inputs = tuple(str(p) for p in inputs)
        self.options = dict(options or {})
        #: per unit, more text the queue's filter searches (e.g. every mention of a chain)
        self.search_texts: tuple[str, ...] = ()
        #: unit key → the inferred value (empty unless the study computed competence)
        self.suggestions: dict[str, Suggestion] = {}
        self._form_keys: list[str] | None = None
        self.index = {k: i for i, k in enumerate(self.keys)}
        self._codes, self._values = encode_versions(v)
        self.disagreement = (
            np.asarray(disagreement, dtype=float)
            if disagreement is not None
            else version_disagreement(self._codes)
        )

    # -- sizes and encoding ---------------------------------------------------------------------

    @property
    def n_units(self) -> int:
        return len(self.keys)

    @property
    def codes(self) -> NDArray[Any]:
        """Integer codes of ``versions`` (``-1`` = no version), read-only."""
        return self._codes

    @property
    def code_values(self) -> list[str]:
        """Value of each code."""
        return self._values

    # -- forms (consistency across occurrences) -------------------------------------------------

    def form(self, i: int) -> str:
        """The form unit ``i`` is an occurrence of (a historical token, a span's covered text),
        for deciding every occurrence of a form at once; empty when the kind has none."""
        return ""

    def form_key(self, i: int) -> str:
        """:meth:`form` folded as the study's ``occurrence_match`` option says (the key two
        occurrences of one form share)."""
        from iaa_desktop.core.nfc import FORM_MATCHES, fold

        form = self.form(i)
        if not form:
            return ""
        match = self.options.get("occurrence_match") or "exact"
        return fold(form, match if match in FORM_MATCHES else "exact")

    def units_of_form(self, key: str) -> list[int]:
        """The units whose :meth:`form_key` is ``key`` (the keys are computed once)."""
        if self._form_keys is None:
            self._form_keys = [self.form_key(j) for j in range(self.n_units)]
        return [j for j, k in enumerate(self._form_keys) if k and k == key]

    def form_treatments(self, i: int) -> list[str]:
        """The treatments the annotators gave unit ``i``'s form anywhere, most frequent first."""
        return []

    def form_value(self, i: int, treatment: str) -> str | None:
        """Unit ``i``'s value when its form is given ``treatment`` (None: not applicable)."""
        return None

    # -- presentation ---------------------------------------------------------------------------

    def format_value(self, value: str | None) -> str:
        """The value as the adjudicator reads it."""
        return "—" if value is None else (value if value != "" else "∅")

    def parse_value(self, text: str, i: int | None = None) -> str:
        """A typed value in the kind's encoding (raises :class:`OptionError` when invalid)."""
        text = text.strip()
        if text == "":
            raise OptionError("Type a value first.")
        return text

    def value_hint(self, i: int) -> str | None:
        """How a typed value of unit ``i`` is written, when it differs from the kind's
        placeholder (a kind with units of several sorts overrides it); ``None``: the kind's."""
        return None

    def describe(self, i: int) -> str:
        """Plain text shown above the versions (context of the unit)."""
        return self.titles[i]

    def suggestion(self, i: int) -> Suggestion | None:
        """Unit ``i``'s inferred value, if the study computed one."""
        return self.suggestions.get(self.keys[i])

    def suggestion_html(self, i: int) -> str:
        """The suggestion as a line above the unit's context ("" without one); a kind that
        shows it in its own context returns ""."""
        import html

        s = self.suggestion(i)
        if s is None:
            return ""
        return (
            "<p style='color:#444'>Suggested (not decided): "
            f"<b dir='auto'>{html.escape(s.text)}</b></p>"
        )

    def title(self, i: int, names: Sequence[str] | None = None) -> str:
        """Short title of unit ``i``; ``names`` = the names to show per annotator column."""
        return self.titles[i]

    def colour_values(self) -> list[str]:
        """The values in the order that gives each its colour (default: the codes' order); a
        kind whose other tables colour values in another order overrides it."""
        return list(self.code_values)

    def value_text(self, i: int, value: str | None) -> str:
        """A value of unit ``i`` as plain text, for the choices, the decision log and the
        undecided list (default: :meth:`format_value`). A kind whose values quote the unit's
        document overrides it: the text comes from unit ``i``'s own document."""
        return self.format_value(value)

    #: what the text of an annotator without a version means (the queue's legend)
    missing_legend = "— = no version"

    def missing_text(self, i: int, x: int) -> str | None:
        """What annotator ``x``'s cell of unit ``i`` shows when they have no version: a kind
        whose missing versions mean different things (DURel: can't decide, not judged) tells
        them apart; ``None`` (the default): the kind's text for no value."""
        return None

    def describe_value(self, i: int, value: str | None) -> str:
        """A version of unit ``i`` as the adjudicator reads it (default: :meth:`value_text`)."""
        return self.value_text(i, value)

    def describe_html(
        self, i: int, names: Sequence[str] | None = None, current: str | None = None
    ) -> str:
        """Rich text of the unit's context (``current`` = its gold so far); defaults to the
        escaped plain text."""
        import html

        return "<p>" + html.escape(self.describe(i)).replace("\n", "<br>") + "</p>"

    def extra_choices(self, i: int) -> list[Choice]:
        """Kind-specific ways to decide unit ``i`` beyond the versions and the majority.

        Graded units get the median (``d``; ``e`` for the upper one when the median falls between
        two values) and, above the ordinal level, the mean (``a``); on a known scale each is
        rounded to a value of the scale, since a gold label must be one (no "median 4.5" on a
        1–5 scale).
        """
        if not self.numeric:
            return []
        vals = np.sort(np.array([float(x) for x in self.versions[i] if x is not None]))
        if len(vals) < 2:
            return []
        out: list[Choice] = []
        if self.level not in ("nominal", "ordinal"):
            mean = float(vals.mean())
            snapped = self.snap(mean)
            exact = format_number(mean)
            label = f"mean {exact}" + (f" → {format_number(snapped)}" if snapped != mean else "")
            out.append(Choice("a", label, "mean", format_number(snapped)))
        k = len(vals)
        low, high = float(vals[(k - 1) // 2]), float(vals[k // 2])
        if low == high:
            out.append(Choice("d", f"median {format_number(low)}", "median", format_number(low)))
        elif self.scale:
            out.append(
                Choice("d", f"median, lower {format_number(low)}", "median", format_number(low))
            )
            out.append(
                Choice("e", f"median, upper {format_number(high)}", "median", format_number(high))
            )
        else:
            med = (low + high) / 2
            out.append(Choice("d", f"median {format_number(med)}", "median", format_number(med)))
        return out

    def snap(self, x: float) -> float:
        """The value of the scale nearest to ``x`` (``x`` itself when the scale is unknown;
        halfway between two values, the lower one)."""
        if not self.scale:
            return x
        scale = np.asarray(self.scale, dtype=float)
        return float(scale[int(np.argmin(np.abs(scale - x) + 1e-9 * (scale > x)))])

    def choices(
        self,
        i: int,
        order: Sequence[int] | None = None,
        names: Sequence[str] | None = None,
        min_share: float = 0.5,
    ) -> list[Choice]:
        """Versions (keys 1..9 in display ``order``), the majority (``m``) and the extra choices."""
        order = list(range(len(self.annotators))) if order is None else list(order)
        names = list(self.annotators) if names is None else list(names)
        out: list[Choice] = []
        row = [v for v in self.versions[i] if v is not None]
        for pos, x in enumerate(order):
            v = self.versions[i, x]
            key = str(pos + 1) if pos < 9 else ""
            shared = row.count(v) if v is not None else 0
            missing = self.missing_text(i, x) if v is None else None
            out.append(
                Choice(
                    key,
                    f"{names[pos]}: {self.value_text(i, v) if missing is None else missing}"
                    + (f"   (×{shared})" if shared > 1 else ""),
                    f"annotator:{self.annotators[x]}",
                    v,
                    (self.annotators[x],),
                )
            )
        maj = self.majority(min_share, rows=slice(i, i + 1))[0]
        if maj is not None:
            out.append(Choice("m", f"majority: {self.value_text(i, maj)}", "majority", maj))
        out.extend(self.extra_choices(i))
        return out

    def majority(self, min_share: float = 0.5, rows: slice | None = None) -> NDArray[Any]:
        """Per unit (of ``rows``), the majority value (:func:`majority_values`), else ``None``.

        A kind whose value has parts may take the majority part by part (normalization).
        """
        codes = self._codes if rows is None else self._codes[rows]
        return majority_values(codes, self._values, min_share)

    # -- gold -----------------------------------------------------------------------------------

    def write_gold(
        self, gold: NDArray[Any], out_dir: Path, notes: Mapping[str, str] | None = None
    ) -> list[Path]:
        """Write the gold (``None`` = undecided) in the inputs' format; return the files written.

        ``notes`` (unit key → the adjudicator's note) goes where the format has a comment field.
        """
        raise NotImplementedError

    def gold_frame(self, gold: NDArray[Any]) -> pd.DataFrame:
        """A plain table of the gold: unit, title, value."""
        return pd.DataFrame({"unit": self.keys, "title": self.titles, "gold": gold})


def format_number(x: float) -> str:
    """Shortest faithful text of a number: ``3.0`` → ``3``, ``2.6666…`` → ``2.667``."""
    if not np.isfinite(x):
        return ""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.4g}"


def encode_versions(versions: NDArray[Any]) -> tuple[NDArray[Any], list[str]]:
    """Integer codes (``-1`` = ``None``) of an object array of values, and the value per code."""
    flat = versions.ravel()
    present = np.array([x is not None for x in flat], dtype=bool)
    codes = np.full(flat.shape, -1, dtype=np.int64)
    if present.any():
        c, uniq = pd.factorize(pd.Series(flat[present].astype(str)), sort=False)
        codes[present] = c
        values = [str(u) for u in uniq]
    else:
        values = []
    codes = codes.reshape(versions.shape)
    codes.setflags(write=False)
    return codes, values


def _counts(codes: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Per cell: how many annotators of the unit gave the same value; per unit: annotators with a value."""
    valid = codes >= 0
    same = (codes[:, :, None] == codes[:, None, :]) & valid[:, :, None] & valid[:, None, :]
    return same.sum(axis=2), valid.sum(axis=1)


def version_disagreement(codes: NDArray[Any]) -> NDArray[Any]:
    """1 − share of the most frequent value among the annotators of the unit (0 when unanimous)."""
    if codes.size == 0:
        return np.zeros(codes.shape[0])
    counts, n = _counts(codes)
    best = counts.max(axis=1) if codes.shape[1] else np.zeros(codes.shape[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, 1.0 - best / np.maximum(n, 1), 0.0)


def majority_values(
    codes: NDArray[Any], values: Sequence[str], min_share: float = 0.5
) -> NDArray[Any]:
    """Per unit, the value given by more than half (and ≥ ``min_share``) of its annotators, else ``None``."""
    out = np.full(codes.shape[0], None, dtype=object)
    if codes.size == 0:
        return out
    counts, n = _counts(codes)
    best_col = counts.argmax(axis=1)
    best = counts[np.arange(codes.shape[0]), best_col]
    ok = (n > 0) & (2 * best > n) & (best >= min_share * n - 1e-12)
    vals = np.asarray(values, dtype=object)
    rows = np.flatnonzero(ok)
    out[rows] = vals[codes[rows, best_col[rows]]] if len(rows) else []
    return out


def unanimous_values(codes: NDArray[Any], values: Sequence[str]) -> NDArray[Any]:
    """Per unit, the value when every annotator of the unit gave it, else ``None``."""
    out = np.full(codes.shape[0], None, dtype=object)
    if codes.size == 0:
        return out
    valid = codes >= 0
    n = valid.sum(axis=1)
    first = np.where(valid, codes, np.iinfo(np.int64).max).min(axis=1)
    same = np.where(valid, codes == first[:, None], True).all(axis=1)
    ok = (n > 0) & same
    vals = np.asarray(values, dtype=object)
    rows = np.flatnonzero(ok)
    out[rows] = vals[first[rows]] if len(rows) else []
    return out


@dataclass(frozen=True, slots=True)
class Strategy:
    """An automatic merge strategy: ``unanimous``, ``majority`` (with ``min_share``),
    ``annotator:NAME`` or ``inferred`` (with a posterior ``threshold``, 0 = none)."""

    name: str = "unanimous"
    min_share: float = 0.5
    annotator: str = ""
    threshold: float = 0.0

    @classmethod
    def parse(cls, text: str, min_share: float | None = None) -> Strategy:
        text = (text or "unanimous").strip()
        share = 0.5 if min_share is None else float(min_share)
        if not 0.0 <= share <= 1.0:
            raise OptionError(f"--min-share must be between 0 and 1, not {share}.")
        if text in ("unanimous", "majority"):
            return cls(text, share)
        if text.startswith("annotator:") and text[len("annotator:") :].strip():
            return cls("annotator", share, text[len("annotator:") :].strip())
        if text == "inferred" or text.startswith("inferred:"):
            given = text[len("inferred:") :].strip() if ":" in text else "0"
            try:
                threshold = float(given)
            except ValueError:
                threshold = math.nan
            if not 0.0 <= threshold <= 1.0:
                raise OptionError(
                    f"Strategy '{text}': the posterior threshold after 'inferred:' must be a "
                    "number between 0 and 1 (e.g. inferred:0.9)."
                )
            return cls("inferred", share, threshold=threshold)
        raise OptionError(
            f"Unknown strategy '{text}': use unanimous, majority, annotator:NAME, inferred or "
            "inferred:THRESHOLD."
        )

    def __str__(self) -> str:
        if self.name == "annotator":
            return f"annotator:{self.annotator}"
        if self.name == "inferred" and self.threshold > 0:
            return f"inferred:{self.threshold:g}"
        return self.name

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "min_share": self.min_share,
            "annotator": self.annotator,
            "threshold": self.threshold,
        }


def auto_merge(model: AdjudicationModel, strategy: Strategy) -> NDArray[Any]:
    """The automatically merged value of every unit (``None`` = left to the adjudicator)."""
    if strategy.name == "unanimous":
        return unanimous_values(model.codes, model.code_values)
    if strategy.name == "majority":
        return model.majority(strategy.min_share)
    if strategy.name == "inferred":
        return inferred_values(model, strategy.threshold)
    if strategy.annotator not in model.annotators:
        raise OptionError(
            f"No annotator named '{strategy.annotator}'; the annotators are: {', '.join(model.annotators)}."
        )
    x = model.annotators.index(strategy.annotator)
    return np.array(list(model.versions[:, x]), dtype=object)


def inferred_values(model: AdjudicationModel, threshold: float = 0.0) -> NDArray[Any]:
    """Per unit the inferred value (Dawid & Skene 1979) where its posterior is at least
    ``threshold``, else ``None``; refused, naming ``--competence``, when the study inferred
    none."""
    if not model.suggestions:
        raise OptionError(
            "The 'inferred' strategy takes each unit's label inferred by Dawid–Skene, which "
            "this study did not compute: run it with --competence (in the window: the "
            "study's 'Annotator competence' option)."
        )
    out = np.full(model.n_units, None, dtype=object)
    for i, key in enumerate(model.keys):
        s = model.suggestions.get(key)
        if s is not None and s.value is not None and s.posterior >= threshold - 1e-12:
            out[i] = s.value
    return out


@dataclass
class GoldFiles:
    """What a gold export wrote."""

    files: list[Path] = field(default_factory=list)
    n_units: int = 0
    n_undecided: int = 0

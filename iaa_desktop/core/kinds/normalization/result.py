"""The result of the normalization kind: agreement records per subset and everything the
report, the views and the exports show (Bollmann, Dipper & Petran 2016)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.align.characters import EMPTY_LABEL, CharacterAligner
from iaa_desktop.core.kinds.normalization.options import NormalizationOptions
from iaa_desktop.core.kinds.occurrences import Occurrences
from iaa_desktop.core.kinds.spec import TaskResult
from iaa_desktop.core.metrics.subsets import SubsetAgreement

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.normalization.annotators import TokenAnnotators

SUBSETS = ("ALL", "MEDIUM", "STRICT")
#: modernization types in report order; ORIG and NORM are implied when no type is given
TYPES = ("ORIG", "NORM", "INFL", "SEM", "EXT")
MOD_TYPES = ("INFL", "SEM", "EXT")


# ---------------------------------------------------------------------------------------------
# agreement over many subsets


@dataclass(frozen=True)
class Agreement:
    """Percent agreement, π* and α_NLD of one subset."""

    n_tokens: int
    percent_agreement: float
    pi: float
    alpha_nld: float | None = None
    n_units: int | None = None
    expected_pi: float = math.nan

    @classmethod
    def of(
        cls, a: SubsetAgreement, n_tokens: int | None = None, n_units: int | None = None
    ) -> Agreement:
        """The kind's record of a subset's coefficients (tokens, and units at character level)."""
        return cls(
            a.n_items if n_tokens is None else n_tokens,
            a.percent_agreement,
            a.pi,
            a.alpha_nld,
            n_units,
            a.expected_pi,
        )

    def to_json(self, alpha: bool = True) -> dict[str, Any]:
        def f(x: float | None) -> float | None:
            return None if x is None or not math.isfinite(x) else float(x)

        out: dict[str, Any] = {"n_tokens": self.n_tokens}
        if self.n_units is not None:
            out["n_units"] = self.n_units
        out["percent_agreement"] = f(self.percent_agreement)
        out["pi"] = f(self.pi)
        if alpha:
            out["alpha_nld"] = f(self.alpha_nld)
        return out


@dataclass
class NormalizationResult(TaskResult):
    """Everything the ``normalization`` kind computes (see the module docstring)."""

    annotators: tuple[str, ...] = ()
    text_ids: tuple[str, ...] = ()
    token_ids: tuple[str, ...] = ()
    orig: tuple[str, ...] = ()
    norm: NDArray[Any] = field(default_factory=lambda: np.empty((0, 0), object))
    mod: NDArray[Any] = field(default_factory=lambda: np.empty((0, 0), object))
    types: NDArray[Any] = field(default_factory=lambda: np.empty((0, 0), object))
    changed: NDArray[Any] = field(default_factory=lambda: np.empty((0, 0), bool))
    texts: tuple[str, ...] = ()
    word: dict[str, Agreement] = field(default_factory=dict)
    character: dict[str, Agreement] = field(default_factory=dict)
    per_text: list[dict[str, Any]] = field(default_factory=list)
    pairwise: dict[str, pd.DataFrame] = field(default_factory=dict)
    modernization: dict[str, Agreement] = field(default_factory=dict)
    confusion: pd.DataFrame = field(default_factory=pd.DataFrame)
    by_type: dict[str, Agreement] = field(default_factory=dict)
    disagreements: pd.DataFrame = field(default_factory=pd.DataFrame)
    token_agreement: NDArray[Any] = field(default_factory=lambda: np.empty(0))
    n_dropped_punctuation: int = 0
    aligner: CharacterAligner | None = None
    #: every historical form with each annotator's normalization of each occurrence
    occurrences: Occurrences | None = None
    #: the options it was computed with
    chosen: NormalizationOptions = field(default_factory=NormalizationOptions)
    #: the model annotators and the planning curve (empty unless asked for)
    annotator_figures: TokenAnnotators | None = None

    # -- per-token access (the view's character grid) -------------------------------------

    @property
    def n_tokens(self) -> int:
        return len(self.orig)

    def token_units(self, i: int) -> dict[str, Any]:
        """Units of token ``i`` and each annotator's Full/Diff labels (∅ for the empty label),
        plus the modernization layer (units against the modernized form, when one is given)."""
        aligner = self.aligner or CharacterAligner()
        o = self.orig[i]
        ann: dict[str, Any] = {}
        for x, name in enumerate(self.annotators):
            t = aligner.align(o, self.norm[i, x])
            mod = self.mod[i, x]
            m = aligner.align(o, mod) if mod else None
            ann[name] = {
                "norm": self.norm[i, x],
                "type": self.types[i, x],
                "full": [f or EMPTY_LABEL for f in t.full],
                "diff": [d or EMPTY_LABEL for d in t.diff],
                "mod": mod,
                "mod_full": [f or EMPTY_LABEL for f in m.full] if m else None,
                "mod_diff": [d or EMPTY_LABEL for d in m.diff] if m else None,
            }
        return {
            "text": self.text_ids[i],
            "token_id": self.token_ids[i],
            "orig": o,
            "units": list(aligner.units(o)),
            "annotators": ann,
        }

    # -- output ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "annotators": list(self.annotators),
            "n_tokens": self.n_tokens,
            "n_dropped_punctuation": self.n_dropped_punctuation,
            "word": {s: a.to_json() for s, a in self.word.items()},
            "character": {s: a.to_json() for s, a in self.character.items()},
            "per_text": [
                {
                    "text": t["text"],
                    "word": {s: a.to_json() for s, a in t["word"].items()},
                    "character": {s: a.to_json() for s, a in t["character"].items()},
                }
                for t in self.per_text
            ],
            "pairwise": {
                name: {
                    r: {k: _num(v) for k, v in row.items()}
                    for r, row in df.to_dict("index").items()
                }
                for name, df in self.pairwise.items()
            },
            "modernization": {
                **{s: a.to_json(alpha=False) for s, a in self.modernization.items()},
                "confusion": {
                    r: {k: int(v) for k, v in row.items() if TYPES_ORDER(k) >= TYPES_ORDER(r)}
                    for r, row in self.confusion.to_dict("index").items()
                },
                "by_type": {t: a.to_json() for t, a in self.by_type.items()},
            },
            "n_disagreements": int(len(self.disagreements)),
        }
        if self.occurrences is not None:
            out["occurrences"] = self.occurrences.to_json()
        if self.chosen.tokens:
            out["tokens"] = [self.token_units(i) for i in range(self.n_tokens)]
        if self.annotator_figures is not None:
            out.update(self.annotator_figures.to_json())
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        def subset_table(d: Mapping[str, Agreement], alpha: bool = True) -> pd.DataFrame:
            return pd.DataFrame([{"subset": s, **a.to_json(alpha)} for s, a in d.items()])

        rows = []
        for t in self.per_text:
            for level in ("word", "character"):
                for s, a in t[level].items():
                    rows.append({"text": t["text"], "level": level, "subset": s, **a.to_json()})
        out = {
            "word": subset_table(self.word),
            "character": subset_table(self.character),
            "per_text": pd.DataFrame(rows),
        }
        for name, df in self.pairwise.items():
            out[f"pairwise_{name}"] = df.reset_index(names="annotator")
        out["modernization"] = subset_table(self.modernization, alpha=False)
        out["modernization_confusion"] = self.confusion.reset_index(names="type")
        out["modernization_by_type"] = pd.DataFrame(
            [{"type": t, **a.to_json()} for t, a in self.by_type.items()]
        )
        out["disagreements"] = self.disagreements
        if self.occurrences is not None:
            out.update(self.occurrences.tables())
        if self.chosen.tokens:
            out["tokens"] = self.tokens_table()
        if self.annotator_figures is not None:
            out.update(self.annotator_figures.tables())
        return out

    def tokens_table(self) -> pd.DataFrame:
        """Long table: one row per token × unit × annotator with Full and Diff labels."""
        rows = []
        for i in range(self.n_tokens):
            t = self.token_units(i)
            for name, a in t["annotators"].items():
                for u, (unit, f, d) in enumerate(zip(t["units"], a["full"], a["diff"])):
                    rows.append(
                        {
                            "text": t["text"],
                            "token_id": t["token_id"],
                            "orig": t["orig"],
                            "unit_index": u + 1,
                            "unit": unit,
                            "annotator": name,
                            "norm": a["norm"],
                            "full": f,
                            "diff": d,
                        }
                    )
        return pd.DataFrame(rows)

    def headline(self) -> list[tuple[str, str]]:
        def pct(x: float) -> str:
            return "–" if not math.isfinite(x) else f"{100 * x:.2f}%"

        def num(x: float | None) -> str:
            return "–" if x is None or not math.isfinite(x) else f"{x:.4f}"

        w, ch = self.word.get("ALL"), self.character.get("ALL")
        m = self.modernization.get("ALL")
        out = [("Tokens", f"{self.n_tokens:,} × {len(self.annotators)} annotators")]
        if w:
            out.append(
                (
                    "Word agreement",
                    f"{pct(w.percent_agreement)} (π* {num(w.pi)}, α_NLD {num(w.alpha_nld)})",
                )
            )
        if ch:
            out.append(
                (
                    "Character agreement",
                    f"{pct(ch.percent_agreement)} (π* {num(ch.pi)}, α_NLD {num(ch.alpha_nld)})",
                )
            )
        if m:
            out.append(("Modernization type π*", num(m.pi)))
        return out


def TYPES_ORDER(t: str) -> int:
    return TYPES.index(t) if t in TYPES else len(TYPES)


def _num(v: Any) -> Any:
    if isinstance(v, float | np.floating):
        return None if not math.isfinite(v) else float(v)
    if isinstance(v, np.integer):
        return int(v)
    return v

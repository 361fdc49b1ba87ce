"""The result of a spans study: its figures, tables and the corpus they were computed on."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.kinds.occurrences import Occurrences
from iaa_desktop.core.kinds.options import IntervalProvenance
from iaa_desktop.core.kinds.spans import measures as M
from iaa_desktop.core.kinds.spans.annotators import TokenAnnotators
from iaa_desktop.core.kinds.spans.corpus import SpanCorpus
from iaa_desktop.core.kinds.spans.options import SpansOptions
from iaa_desktop.core.kinds.spans.relation_figures import RelationFigures
from iaa_desktop.core.kinds.spec import TaskResult


def figure_value(
    value: float, ci: tuple[float, float] = (math.nan, math.nan)
) -> dict[str, float | None]:
    """A figure and its interval as JSON values (None where not finite)."""

    def f(x: float) -> float | None:
        return float(x) if x is not None and math.isfinite(x) else None

    return {"value": f(value), "ci_low": f(ci[0]), "ci_high": f(ci[1])}


@dataclass
class SpansResult(TaskResult):
    annotators: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    corpus: SpanCorpus | None = None
    groups: M.Groups | None = None
    #: summary figure → {value, ci_low, ci_high}; a pairwise figure also {mean, sd} over pairs
    overall: dict[str, dict[str, float | None]] = field(default_factory=dict)
    frames: dict[str, pd.DataFrame] = field(default_factory=dict)
    confusion: NDArray[Any] | None = None
    gamma_note: str = ""
    #: the options it was computed with, and how its intervals were made
    chosen: SpansOptions = field(default_factory=SpansOptions)
    interval: IntervalProvenance = field(default_factory=IntervalProvenance)
    #: every covered text with each annotator's label at each of its occurrences
    occurrences: Occurrences | None = None
    #: agreement on the relations between the spans, when the inputs hold relations
    relations: RelationFigures | None = None
    #: per token the model annotators and the planning curve (None unless asked for)
    annotator_figures: TokenAnnotators | None = None

    def to_json(self) -> dict[str, Any]:
        def records(name: str) -> list[dict[str, Any]]:
            df = self.frames.get(name)
            if df is None:
                return []
            return [
                {
                    k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                    for k, v in r.items()
                }
                for r in df.to_dict("records")
            ]

        out: dict[str, Any] = {
            "kind": self.kind,
            "annotators": list(self.annotators),
            "labels": list(self.labels),
            "n_documents": len(self.corpus.names) if self.corpus else 0,
            "overall": self.overall,
            "pairs": records("pairs"),
            "per_label": records("labels"),
            "per_pair_label": records("per_pair_label"),
            "documents": records("documents"),
            "pair_disagreements": records("pair_disagreements"),
            "confusion": records("confusion"),
            "disagreements": records("disagreements")[:200],
            "gamma_note": self.gamma_note,
            **({"occurrences": self.occurrences.to_json()} if self.occurrences else {}),
            **self._time_fields(),
        }
        if self.relations is not None:
            out["relations"] = self.relations.to_json()
        if self.annotator_figures is not None:
            out.update(self.annotator_figures.to_json())
        return out

    def _time_fields(self) -> dict[str, Any]:
        """The unit of times and the boundary tolerance, for units in time (ELAN, Praat)."""
        if self.corpus is None or not self.corpus.time_unit:
            return {}
        return {"time_unit": self.corpus.time_unit, "tolerance_ms": self.chosen.tolerance}

    def tables(self) -> dict[str, pd.DataFrame]:
        overall = pd.DataFrame(
            [
                {
                    "measure": k,
                    **{q: v.get(q) for q in ("value", "ci_low", "ci_high", "mean", "sd")},
                }
                for k, v in self.overall.items()
            ]
        )
        extra = {
            **(self.occurrences.tables() if self.occurrences else {}),
            **(self.relations.frames if self.relations is not None else {}),
            **(self.annotator_figures.tables() if self.annotator_figures is not None else {}),
        }
        return {"overall": overall, **self.frames, **extra}

    def headline(self) -> list[tuple[str, str]]:
        out = [
            ("documents", str(len(self.corpus.names) if self.corpus else 0)),
            ("annotators", str(len(self.annotators))),
        ]
        for key, title in (("exact_f1", "span F1"), ("unitizing_alpha", "αU")):
            v = self.overall.get(key, {}).get("value")
            if v is not None and math.isfinite(v):
                out.append((title, f"{v:.3f}"))
        return out

"""Annotators, human and model, in a multi-label study: each label as a 0/1 item × annotator
table (present or absent in the annotator's set), the figures shared by every kind with such a
matrix (:mod:`iaa_desktop.core.kinds.annotators`) computed per label: the model annotators'
alternative annotator test (accuracy) with κ and nominal α, the planning curve, and Dawid–Skene
and MACE competence with an inferred presence of each label per item."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.competence import CompetenceFigures, matrix_competence
from iaa_desktop.core.kinds.annotators.matrix import MatrixFigures, matrix_figures
from iaa_desktop.core.kinds.annotators.models import split_columns
from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions
from iaa_desktop.core.kinds.multilabel.reader import MultiLabelData

__all__ = ["PRESENCE", "LabelAnnotators", "label_annotators", "split_models"]

#: a label's two categories per item, in competence's inferred labels
PRESENCE = ("absent", "present")


def split_models(
    data: MultiLabelData, options: MultiLabelOptions
) -> tuple[MultiLabelData, NDArray[Any] | None, tuple[str, ...]]:
    """The humans' data, the models' codes and names (None and () when no model is named)."""
    wanted = options.model_names
    if not wanted:
        return data, None, ()
    h_idx, m_idx, unknown = split_columns(data.annotators, wanted)
    names = list(data.annotators)
    if unknown:
        raise OptionError(
            f"Model annotators: {', '.join(repr(u) for u in unknown)} is not an annotator of the "
            f"study (annotators: {', '.join(names[:20])}{' …' if len(names) > 20 else ''})."
        )
    if len(h_idx) < 2:
        raise OptionError(
            "Model annotators: with these models, fewer than two human annotators are left; "
            "the humans' agreement and the alternative annotator test need at least two."
        )
    codes = np.ascontiguousarray(data.codes[:, h_idx])
    codes.setflags(write=False)
    humans = replace(data, annotators=tuple(names[k] for k in h_idx), codes=codes)
    return humans, np.ascontiguousarray(data.codes[:, m_idx]), tuple(names[k] for k in m_idx)


def label_bits(codes: NDArray[Any], j: int, k: int) -> NDArray[Any]:
    """1 where label ``j`` (of ``k``, the first the leftmost bit) is in the set, 0 where not,
    −1 where the item was not annotated."""
    return np.where(codes >= 0, (codes >> (k - 1 - j)) & 1, -1).astype(np.int32)


@dataclass(frozen=True)
class LabelAnnotators:
    """Per label the model annotators' figures and the planning curve."""

    per_label: dict[str, MatrixFigures] = field(default_factory=dict)
    asked_models: bool = False
    asked_planning: bool = False
    #: per label Dawid–Skene and MACE on present/absent (empty unless asked for)
    competence: dict[str, CompetenceFigures] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.asked_models:
            out["model_annotators"] = [
                m for lab, f in self.per_label.items() for m in f.models_json(label=lab)
            ]
        if self.competence:
            c = self.competence.values()
            out["competence"] = [row for f in c for row in f.competence]
            out["inferred"] = [row for f in c for row in f.inferred]
            out["competence_fit"] = {lab: f.fit for lab, f in self.competence.items()}
        if self.asked_planning:
            out["planning"] = [
                {"label": lab, **c} for lab, f in self.per_label.items() for c in f.planning
            ]
            out["planning_needed"] = [
                {"label": lab, **c} for lab, f in self.per_label.items() for c in f.planning_needed
            ]
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        out: dict[str, pd.DataFrame] = {}
        if self.asked_models:
            parts = [f.models_tables(label=lab) for lab, f in self.per_label.items()]
            for name in ("model_annotators", "alt_test", "model_agreement"):
                out[name] = pd.concat([p[name] for p in parts], ignore_index=True)
        if self.competence:
            c = self.competence.values()
            for name in ("competence", "inferred"):
                out[name] = pd.concat([f.tables()[name] for f in c], ignore_index=True)
            out["confusion"] = pd.concat([f.confusion_table() for f in c], ignore_index=True)
        if self.asked_planning:
            out["planning"] = pd.DataFrame(self.to_json()["planning"])
        return out


def label_annotators(
    humans: MultiLabelData,
    model_codes: NDArray[Any] | None,
    models: tuple[str, ...],
    options: MultiLabelOptions,
) -> LabelAnnotators:
    """The figures the options ask for, per label (nothing when they ask for none)."""
    if model_codes is None and not options.planning and not options.competence:
        return LabelAnnotators()
    k = humans.k
    out: dict[str, MatrixFigures] = {}
    for j, lab in enumerate(humans.labels):
        out[lab] = matrix_figures(
            label_bits(humans.codes, j, k),
            humans.annotators,
            None if model_codes is None else label_bits(model_codes, j, k),
            models,
            np.array([0.0, 1.0]),
            "nominal",
            epsilon=options.epsilon,
            planning=options.planning,
        )
    competence: dict[str, CompetenceFigures] = {}
    if options.competence:
        every = humans.codes if model_codes is None else np.hstack([humans.codes, model_codes])
        names = humans.annotators + models
        for j, lab in enumerate(humans.labels):
            competence[lab] = matrix_competence(
                label_bits(every, j, k), names, PRESENCE, humans.items, models, first={"label": lab}
            )
    return LabelAnnotators(out, model_codes is not None, options.planning, competence)

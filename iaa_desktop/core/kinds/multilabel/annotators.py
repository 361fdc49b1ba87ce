"""Annotators, human and model, in a multi-label study: each label as a 0/1 item × annotator
table (present or absent in the annotator's set), the figures shared by every kind with such a
matrix (:mod:`iaa_desktop.core.kinds.annotators`) computed per label: the model annotators'
alternative annotator test (accuracy) with κ and nominal α, the planning curve, Dawid–Skene
and MACE competence with an inferred presence of each label per item, agreement per batch and
test–retest agreement (:mod:`iaa_desktop.core.kinds.annotators.batches`) on each label's
presence."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.batches import (
    batch_labels,
    batch_table,
    coded_overall,
    file_order_occasions,
    per_batch,
    retest,
    retest_table,
)
from iaa_desktop.core.kinds.annotators.competence import CompetenceFigures, matrix_competence
from iaa_desktop.core.kinds.annotators.matrix import MatrixFigures, matrix_figures
from iaa_desktop.core.kinds.annotators.models import split_columns
from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions
from iaa_desktop.core.kinds.multilabel.reader import OWN, MultiLabelData
from iaa_desktop.core.kinds.options import N_RESAMPLES, SEED
from iaa_desktop.core.metrics.suite import CodedOptions

__all__ = [
    "PRESENCE",
    "LabelAnnotators",
    "asks_time",
    "label_annotators",
    "split_models",
    "time_columns",
    "with_names",
]

#: a label's two categories per item, in competence's inferred labels
PRESENCE = ("absent", "present")
#: a label's presence as nominal categories 0 (absent) and 1 (present)
_PRESENCE_CODED = CodedOptions(level="nominal", values=np.array([0.0, 1.0]), spearman=False)


def asks_time(options: MultiLabelOptions) -> bool:
    """Whether the options ask for agreement per batch or test–retest agreement."""
    return bool(options.batch_column or options.retest)


def time_columns(options: MultiLabelOptions) -> dict[str, str]:
    """The columns the annotation files must have for the options, each with its option."""
    out: dict[str, str] = {}
    if options.retest and options.occasion_column:
        out[options.occasion_column] = "Occasion column"
    if options.batch_column:
        out[options.batch_column] = "Batch column"
    return out


def with_names(data: MultiLabelData, names: tuple[str, ...]) -> MultiLabelData:
    """``data`` with its annotators renamed to ``names`` (in the responses too)."""
    if names == data.annotators:
        return data
    resp = data.responses
    if resp is not None:
        resp = resp.assign(annotator=resp["annotator"].map(dict(zip(data.annotators, names))))
    return replace(data, annotators=names, responses=resp)


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
    #: ``per_batch[]`` (rows with a ``label``; None unless asked for) and per label the whole
    #: study's figures the batches are compared with
    per_batch: tuple[dict[str, Any], ...] | None = None
    per_batch_study: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: ``retest[]`` (rows with a ``label``; None unless asked for)
    retest: tuple[dict[str, Any], ...] | None = None

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
        if self.per_batch is not None:
            out["per_batch"] = list(self.per_batch)
            out["per_batch_study"] = self.per_batch_study
        if self.retest is not None:
            out["retest"] = list(self.retest)
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
        if self.per_batch is not None:
            out["per_batch"] = batch_table(self.per_batch)
            out["per_batch_study"] = pd.DataFrame(
                [
                    {"label": lab, "metric": k, **v}
                    for lab, study in self.per_batch_study.items()
                    for k, v in study.items()
                ]
            )
        if self.retest is not None:
            out["retest"] = retest_table(self.retest)
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
        if not asks_time(options):
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
    time = _time_figures(humans, models, options) if asks_time(options) else {}
    return LabelAnnotators(out, model_codes is not None, options.planning, competence, **time)


def _own(responses: pd.DataFrame, column: str) -> pd.Series:
    """A column of the annotation files (the reader refused files lacking it)."""
    return responses[OWN + column].astype(object).where(responses[OWN + column].notna(), "")


#: the batch of the annotations whose batch cell is empty
NO_BATCH = "(empty)"


def _batches(values: pd.Series, size: str) -> pd.Series:
    """Each annotation's batch (:func:`batch_labels`); an empty cell is the batch
    :data:`NO_BATCH` of its own, not a reason to read the dates of the others as text."""
    text = values.astype(str).str.strip()
    blank = (text == "").to_numpy()
    if not blank.any():
        return batch_labels(text, size)
    out = pd.Series(NO_BATCH, index=values.index, dtype=object)
    if not blank.all():
        out[~blank] = batch_labels(text[~blank], size).to_numpy()
    return out


def _first_kept(rows: NDArray[Any], cols: NDArray[Any], bits: NDArray[Any], n: int) -> Any:
    """The items × ``n`` code matrix of some responses, the first response of a cell kept;
    items in the order they first appear (as a judgment table of these responses lists them,
    so that the bootstrap draws the same items)."""
    item, _ = pd.factorize(rows)
    first = ~pd.DataFrame({"i": item, "c": cols}).duplicated().to_numpy()
    out = np.full((int(item.max(initial=-1)) + 1, n), -1, dtype=np.int32)
    out[item[first], cols[first]] = bits[first]
    return out


def _time_figures(
    humans: MultiLabelData, models: tuple[str, ...], options: MultiLabelOptions
) -> dict[str, Any]:
    """``per_batch[]`` (the humans' annotations by the batch column) and ``retest[]`` (each
    annotator's annotations by occasion: the occasion column, or the order of their repeats in
    the files), per label, as keyword arguments of :class:`LabelAnnotators`."""
    resp = humans.responses
    assert resp is not None, "the reader keeps the responses when batches or retest are asked"
    k = humans.k
    code = resp["code"].to_numpy(dtype=np.int64)
    items = resp["item"].to_numpy(dtype=object)
    names = resp["annotator"].astype(str)
    out: dict[str, Any] = {}
    if options.batch_column:
        labels = _batches(_own(resp, options.batch_column), options.batch_size)
        human = names.isin(humans.annotators).to_numpy()
        batches = sorted(pd.unique(labels[human]), key=str)
        rows: list[dict[str, Any]] = []
        study: dict[str, dict[str, Any]] = {}
        ann_all, present_all = pd.factorize(names[human])
        for j, lab in enumerate(humans.labels):
            bits = label_bits(code, j, k)
            # the study's matrix as the batches' are built (the same first annotations as the
            # study's code matrix; items and annotators in the order the files give them)
            h = _first_kept(items[human], ann_all, bits[human], len(present_all))
            study[lab] = coded_overall(h, 2, _PRESENCE_CODED, N_RESAMPLES, SEED)
            parts = []
            for b in batches:
                sel = human & (labels == b).to_numpy()
                ann, present = pd.factorize(names[sel])  # in order of first appearance
                m = _first_kept(items[sel], ann, bits[sel], len(present))
                parts.append((str(b), int(sel.sum()), m))
            done = per_batch(parts, 2, _PRESENCE_CODED, study[lab], N_RESAMPLES, SEED)
            rows += [{"label": lab, **r} for r in done]
        out["per_batch"] = tuple(rows)
        out["per_batch_study"] = study
    if options.retest:
        if options.occasion_column:
            occ = _own(resp, options.occasion_column).astype(str)
        else:
            occ = file_order_occasions(pd.DataFrame({"item": items, "annotator": names}))
        mine = {a: (names == a).to_numpy() for a in humans.annotators + models}
        retests: list[dict[str, Any]] = []
        for j, lab in enumerate(humans.labels):
            bits = label_bits(code, j, k)
            per: list[tuple[str, list[str], NDArray[Any]]] = []
            for name, sel in mine.items():
                o = occ[sel]
                occasions = [str(x) for x in pd.unique(o)]
                col = o.map({x: n for n, x in enumerate(occasions)}).to_numpy(dtype=np.int64)
                per.append(
                    (name, occasions, _first_kept(items[sel], col, bits[sel], len(occasions)))
                )
            done = retest(per, 2, _PRESENCE_CODED, N_RESAMPLES, SEED)
            retests += [{"label": lab, **r} for r in done]
        out["retest"] = tuple(retests)
    return out

"""Annotators, human and model, in a candidate-pairs study.

Accept/reject judgments reduce to item × annotator × label: each candidate pair is an item and
each annotator's label a nominal category, as Hubert's multi-κ counts them. The figures shared
by every such kind (:mod:`iaa_desktop.core.kinds.annotators`) are computed on those codes: for
each model annotator the alternative annotator test (Calderon, Reichart & Dror 2025; accuracy
per item) and its Cohen's κ and nominal Krippendorff's α with each human and with the human
majority; the planning curve of the humans' coefficients; Dawid–Skene and MACE competence with an
inferred label per pair (:mod:`iaa_desktop.core.kinds.annotators.competence`; every label of a
long labels table a response, repeats included); agreement per batch and test–retest agreement
(:mod:`iaa_desktop.core.kinds.annotators.batches`) where a long labels table says when and how
often a pair was labelled. Models are taken out of every human coefficient.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.batches import (
    batch_labels,
    code_matrix,
    coded_overall,
    file_order_occasions,
    per_batch,
    retest,
)
from iaa_desktop.core.kinds.annotators.competence import (
    CompetenceFigures,
    crowd_figures,
    matrix_competence,
)
from iaa_desktop.core.kinds.annotators.matrix import StudyAnnotators, matrix_figures
from iaa_desktop.core.kinds.annotators.models import HUMAN_MAJORITY, split_columns
from iaa_desktop.core.kinds.candidates.options import CandidatesOptions
from iaa_desktop.core.kinds.candidates.reader import (
    RESPONSE_COLUMNS,
    CandidateData,
    encode_labels,
    label_order,
)
from iaa_desktop.core.kinds.options import N_RESAMPLES
from iaa_desktop.core.metrics.suite import CodedOptions

__all__ = [
    "CandidatesAnnotators",
    "asks_annotators",
    "candidates_annotators",
    "refuse_wide",
    "split_models",
]


def asks_annotators(options: CandidatesOptions) -> bool:
    """Whether the options ask for any annotator figure."""
    return bool(
        options.model_names
        or options.planning
        or options.competence
        or options.batch_column
        or options.retest
    )


def refuse_wide(data: CandidateData, options: CandidatesOptions) -> None:
    """Batches and test–retest need a long labels table: wide labels (one column per
    annotator) hold one label per pair and annotator and no column of their own, so asking for
    them there is an :class:`OptionError` naming the option and the file."""
    if data.responses is not None:
        return
    name = data.labels_path.name if data.labels_path is not None else "the labels table"
    why = (
        f"the labels file '{name}' is wide (one column per annotator): it holds one label per "
        "pair and annotator and no column of its own; give the labels long (pair_id, "
        "annotator, label and the other columns)"
    )
    if options.batch_column:
        raise OptionError(f"Batch column: {why}.")
    if options.retest:
        raise OptionError(f"Test–retest: {why}, an annotator's repeated labels one row each.")


def split_models(data: CandidateData, options: CandidatesOptions) -> pd.DataFrame | None:
    """The models' labels (pairs × models, "" = no label; None when no model is named), taken
    out of ``data`` in place: its annotators and labels are the humans' afterwards.

    A name that is no annotator, or fewer than two humans left, is an :class:`OptionError`.
    """
    wanted = options.model_names
    if not wanted:
        return None
    names = list(data.annotators)
    h_idx, m_idx, unknown = split_columns(names, wanted)
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
    models = data.labels[[names[k] for k in m_idx]].copy()
    data.annotators = tuple(names[k] for k in h_idx)
    data.labels = data.labels[list(data.annotators)]
    return models


@dataclass(frozen=True)
class CandidatesAnnotators(StudyAnnotators):
    """The annotator figures of a candidate-pairs study (empty when the options ask for none),
    with each model's labels and the human majority ("" = none) for the pair list."""

    model_labels: dict[str, NDArray[Any]] = field(default_factory=dict)


def candidates_annotators(
    humans: pd.DataFrame,
    models: pd.DataFrame | None,
    options: CandidatesOptions,
    responses: pd.DataFrame | None = None,
    labels_path: Path | None = None,
) -> CandidatesAnnotators:
    """The model annotators' figures, the planning curve, annotator competence, agreement per
    batch and test–retest agreement the options ask for.

    ``humans`` and ``models``: pairs × annotators labels ("" = no label), the pairs in the
    study's order (their index the pair ids). The labels of humans and models are coded
    together (the categories any of them used), nominal. ``responses``: every label of a long
    labels table (:attr:`CandidateData.responses`; None for wide labels), read by competence,
    batches and test–retest; ``labels_path`` names that file in messages.
    """
    if not asks_annotators(options):
        return CandidatesAnnotators()
    every = (
        humans
        if models is None
        else pd.DataFrame(np.hstack([humans.to_numpy(dtype=object), models.to_numpy(dtype=object)]))
    )
    codes, cats = encode_labels(every)
    n_h = humans.shape[1]
    figures = matrix_figures(
        np.ascontiguousarray(codes[:, :n_h]),
        tuple(str(a) for a in humans.columns),
        None if models is None else np.ascontiguousarray(codes[:, n_h:]),
        () if models is None else tuple(str(m) for m in models.columns),
        np.arange(len(cats), dtype=float),
        "nominal",
        epsilon=options.epsilon,
        planning=options.planning,
        seed=options.seed,
    )
    labels: dict[str, NDArray[Any]] = {}
    if models is not None and figures.majority is not None:
        for m in models.columns:
            labels[str(m)] = models[m].fillna("").astype(str).to_numpy(dtype=object)
        names = np.array([*cats, ""], dtype=object)
        labels[HUMAN_MAJORITY] = names[figures.majority]  # −1 (none) picks the final ""
    models_named = () if models is None else tuple(str(m) for m in models.columns)
    competence = None
    if options.competence:
        competence = _competence(every, codes, cats, humans, models_named, options, responses)
    time: dict[str, Any] = {}
    if options.batch_column or options.retest:
        time = _time_figures(humans, models_named, options, responses, codes[:, :n_h], labels_path)
    return CandidatesAnnotators(figures, options.planning, labels, competence=competence, **time)


def _competence(
    every: pd.DataFrame,
    codes: NDArray[Any],
    cats: list[str],
    humans: pd.DataFrame,
    models: tuple[str, ...],
    options: CandidatesOptions,
    responses: pd.DataFrame | None,
) -> CompetenceFigures:
    """Dawid–Skene and MACE, each pair an item (named by its id): on every label of a long
    labels table (an annotator's repeats of a pair included, a pair labelled two ways too),
    on the label table itself when the labels are wide."""
    names = tuple(str(a) for a in humans.columns) + models
    keys = [str(k) for k in humans.index]
    if responses is None:
        return matrix_competence(codes, names, cats, keys, models, options.seed)
    mine = responses[responses["annotator"].isin(names)]
    cats = label_order([*cats, *pd.unique(mine["label"])])
    row_of = {k: i for i, k in enumerate(keys)}
    item = mine["pair_id"].map(row_of).to_numpy(dtype=np.int64)
    ann = mine["annotator"].map({n: k for k, n in enumerate(names)}).to_numpy(dtype=np.int64)
    lab = mine["label"].map({c: k for k, c in enumerate(cats)}).to_numpy(dtype=np.int64)
    return crowd_figures(
        item, ann, lab, names, cats, keys, models, options.seed, "too many different labels."
    )


def _column(responses: pd.DataFrame, column: str, what: str, path: Path | None) -> pd.Series:
    if column not in responses.columns:
        given = [c for c in responses.columns if c not in (*RESPONSE_COLUMNS, "__line__")]
        name = f"'{path.name}'" if path is not None else "the labels table"
        raise OptionError(
            f"{what}: '{column}' is no column of {name} besides the pair, the annotator and the "
            "label" + (f" (such columns: {', '.join(given)})." if given else " (it has none).")
        )
    return responses[column].fillna("").astype(str)


def _once(rows: pd.DataFrame) -> pd.DataFrame:
    """The kind's rule for an annotator's repeated labels of a pair: identical ones counted
    once, differing ones all left out."""
    key = ["pair_id", "annotator"]
    n_labels = rows.groupby(key, sort=False)["label"].transform("nunique")
    return rows[(n_labels == 1).to_numpy()].drop_duplicates(key, keep="first")


def _time_figures(
    humans: pd.DataFrame,
    models: Sequence[str],
    options: CandidatesOptions,
    responses: pd.DataFrame | None,
    h_codes: NDArray[Any],
    labels_path: Path | None,
) -> dict[str, Any]:
    """``per_batch[]`` (the humans' labels by the batch column, an annotator's repeats of a
    pair inside a batch treated as the study treats them) and ``retest[]`` (each annotator's
    labels by occasion: the occasion column, or the order of their repeats in the file), as
    keyword arguments of :class:`CandidatesAnnotators`."""
    assert responses is not None  # wide labels are refused before (refuse_wide)
    names = list(humans.columns)
    cats = label_order([*encode_labels(humans)[1], *pd.unique(responses["label"])])
    q = len(cats)
    code_of = {c: k for k, c in enumerate(cats)}
    row_of = {str(k): i for i, k in enumerate(humans.index)}
    coded = CodedOptions(level="nominal", values=np.arange(q, dtype=float), spearman=False)
    out: dict[str, Any] = {}

    def matrix(rows: pd.DataFrame, col: NDArray[Any], n_cols: int) -> NDArray[Any]:
        items = rows["pair_id"].map(row_of).to_numpy(dtype=np.int64)
        codes = rows["label"].map(code_of).to_numpy(dtype=np.int64)
        return code_matrix(items, col, codes, n_cols)

    if options.batch_column:
        labels = batch_labels(
            _column(responses, options.batch_column, "Batch column", labels_path),
            options.batch_size,
        )
        study_codes = encode_labels(humans)[1]
        # the study's codes in the order of ``cats`` (a label only in left-out repeats added)
        recode = np.array([code_of[c] for c in study_codes] + [-1], dtype=np.int32)
        study = coded_overall(recode[h_codes], q, coded, N_RESAMPLES, options.seed)
        human = responses["annotator"].isin(names).to_numpy()
        batches = []
        for b in sorted(pd.unique(labels[human]), key=str):
            rows = responses[human & (labels == b).to_numpy()]
            one = _once(rows)
            ann, present = pd.factorize(one["annotator"])  # in order of first appearance
            batches.append((str(b), len(rows), matrix(one, ann, len(present))))
        out["per_batch"] = tuple(per_batch(batches, q, coded, study, N_RESAMPLES, options.seed))
        out["per_batch_study"] = study
    if options.retest:
        if options.occasion_column:
            occ = _column(responses, options.occasion_column, "Occasion column", labels_path)
        else:
            occ = file_order_occasions(responses[["pair_id", "annotator"]])
        per: list[tuple[str, list[str], NDArray[Any]]] = []
        for name in [*names, *models]:
            mine = (responses["annotator"] == name).to_numpy()
            o = occ[mine]
            occasions = [str(x) for x in pd.unique(o)]
            col = o.map({x: k for k, x in enumerate(occasions)}).to_numpy(dtype=np.int64)
            per.append((name, occasions, matrix(responses[mine], col, len(occasions))))
        out["retest"] = tuple(retest(per, q, coded, N_RESAMPLES, options.seed))
    return out

"""Annotators, human and model, in a graded-use-pairs study.

Graded judgments reduce to item × annotator × label: the judgment matrix's valid values become
ordered category codes, and the figures shared by every such kind
(:mod:`iaa_desktop.core.kinds.annotators`) are computed on them: for each model annotator the
alternative annotator test (Calderon, Reichart & Dror 2025; negative RMSE per item, accuracy at
the nominal level) and its κ and α with each human and with the human majority; the planning
curve of the humans' coefficients; Dawid–Skene and MACE competence with an inferred label per
pair (:mod:`iaa_desktop.core.kinds.annotators.competence`). Models are taken out of every human
coefficient.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.batches import (
    batch_labels,
    coded_overall,
    file_order_occasions,
    per_batch,
    retest,
)
from iaa_desktop.core.kinds.annotators.competence import (
    CompetenceFigures,
    crowd_figures,
    label_text,
    matrix_competence,
)
from iaa_desktop.core.kinds.annotators.matrix import (
    StudyAnnotators,
    matrix_figures,
)
from iaa_desktop.core.kinds.annotators.models import HUMAN_MAJORITY, split_columns
from iaa_desktop.core.kinds.durel.figures import Matrix, item_key
from iaa_desktop.core.kinds.durel.options import DurelOptions
from iaa_desktop.core.kinds.durel.reader import JUDGMENT_COLUMNS, Scale, combine_repeats
from iaa_desktop.core.kinds.options import N_RESAMPLES, SEED
from iaa_desktop.core.metrics.suite import CodedOptions

__all__ = ["DurelAnnotators", "durel_annotators", "split_models", "time_figures"]

#: the reader's columns (any other column of a judgments file is the file's own)
_READER_COLUMNS = frozenset(JUDGMENT_COLUMNS)


def split_models(matrix: Matrix, options: DurelOptions) -> tuple[Matrix, Matrix | None]:
    """The humans' matrix and the models' (None when no model is named).

    A name that is no annotator, or fewer than two humans left, is an :class:`OptionError`.
    """
    wanted = options.model_names
    if not wanted:
        return matrix, None
    h_idx, m_idx, unknown = split_columns(matrix.annotators, wanted)
    if unknown:
        names = list(matrix.annotators)
        raise OptionError(
            f"Model annotators: {', '.join(repr(u) for u in unknown)} is not an annotator of the "
            f"study (annotators: {', '.join(names[:20])}{' …' if len(names) > 20 else ''})."
        )
    if len(h_idx) < 2:
        raise OptionError(
            "Model annotators: with these models, fewer than two human annotators are left; "
            "the humans' agreement and the alternative annotator test need at least two."
        )

    def cols(idx: list[int]) -> Matrix:
        return replace(
            matrix,
            annotators=tuple(matrix.annotators[k] for k in idx),
            values=np.ascontiguousarray(matrix.values[:, idx]),
            judged=np.ascontiguousarray(matrix.judged[:, idx]),
        )

    return cols(h_idx), cols(m_idx)


@dataclass(frozen=True)
class DurelAnnotators(StudyAnnotators):
    """The annotator figures of a DURel study (empty when the options ask for none), with each
    model's labels."""

    model_labels: dict[str, NDArray[Any]] = field(default_factory=dict)


def _codes(values: NDArray[Any], cats: NDArray[Any]) -> NDArray[Any]:
    ok = np.isfinite(values)
    codes = np.full(values.shape, -1, dtype=np.int32)
    codes[ok] = np.searchsorted(cats, values[ok]).astype(np.int32)
    return codes


def durel_annotators(
    humans: Matrix,
    models: Matrix | None,
    options: DurelOptions,
    responses: pd.DataFrame | None = None,
) -> DurelAnnotators:
    """The model annotators' figures, the planning curve, annotator competence, agreement per
    batch and test–retest agreement the options ask for: the valid judgments as ordered
    categories (can't-decide judged but missing; for competence unordered, every judgment
    counting, an annotator's repeats of a pair included)."""
    if models is None and not options.planning and not options.competence:
        if not options.batch_column and not options.retest:
            return DurelAnnotators()
    every = humans.values if models is None else np.hstack([humans.values, models.values])
    cats = np.unique(every[np.isfinite(every)])
    figures = matrix_figures(
        _codes(humans.values, cats),
        humans.annotators,
        None if models is None else _codes(models.values, cats),
        () if models is None else models.annotators,
        cats,
        options.level,
        epsilon=options.epsilon,
        planning=options.planning,
        h_judged=humans.judged,
    )
    labels: dict[str, NDArray[Any]] = {}
    if models is not None and figures.majority is not None:
        for m, name in enumerate(models.annotators):
            labels[name] = models.values[:, m]
        maj = figures.majority
        labels[HUMAN_MAJORITY] = np.where(maj >= 0, cats[np.clip(maj, 0, None)], np.nan)
    competence = None
    if options.competence:
        competence = _competence(humans, models, responses, cats, every)
    time: dict[str, Any] = {}
    if options.batch_column or options.retest:
        time = time_figures(humans, models, options, responses, cats)
    return DurelAnnotators(
        figures, options.planning, model_labels=labels, competence=competence, **time
    )


def _competence(
    humans: Matrix,
    models: Matrix | None,
    responses: pd.DataFrame | None,
    cats: NDArray[Any],
    every: NDArray[Any],
) -> CompetenceFigures:
    """Dawid–Skene and MACE on every valid judgment the reader kept, an annotator's repeats of a
    pair included (can't-decide is no response); from the matrix when the judgments are not
    at hand."""
    names = humans.annotators + (() if models is None else models.annotators)
    models_named = () if models is None else models.annotators
    items = humans.items
    keys = (items["target"] + " | " + items["id1"] + " | " + items["id2"]).astype(str).tolist()
    if responses is None or responses.empty:
        return matrix_competence(
            _codes(every, cats), names, label_text(cats.tolist(), True), keys, models_named
        )
    value = responses["value"].to_numpy(dtype=float)
    ok = np.isfinite(value) & responses["annotator"].isin(names).to_numpy()
    cats = np.unique(np.concatenate([cats, value[ok]]))
    rows = responses[ok]
    item = _item_rows(humans, rows)
    ann = rows["annotator"].map({n: k for k, n in enumerate(names)}).to_numpy(dtype=np.int64)
    lab = np.searchsorted(cats, value[ok]).astype(np.int64)
    return crowd_figures(
        item,
        ann,
        lab,
        names,
        label_text(cats.tolist(), True),
        keys,
        models_named,
        what="too many categories.",
    )


def _item_rows(humans: Matrix, responses: pd.DataFrame) -> NDArray[Any]:
    """Each response's item row of the matrix (the pairs unordered as the matrix's are)."""
    row_of = {k: i for i, k in enumerate(item_key(humans.items, "\x1f"))}
    out: NDArray[Any] = item_key(responses, "\x1f").map(row_of).to_numpy(dtype=np.int64)
    return out


def _column(responses: pd.DataFrame, column: str, what: str) -> pd.Series:
    if column not in responses.columns:
        given = [c for c in responses.columns if c not in _READER_COLUMNS]
        raise OptionError(
            f"{what}: '{column}' is no column of the judgments files besides the pair, the "
            "annotator, the judgment and the comment"
            + (f" (such columns: {', '.join(given)})." if given else " (they have none).")
        )
    return responses[column].fillna("").astype(str)


def _matrix(
    rows: NDArray[Any], cols: NDArray[Any], codes: NDArray[Any], n_cols: int
) -> NDArray[Any]:
    """The items × columns code matrix of some responses (first response of a cell kept), the
    items in the order they first appear (the columns too, as the caller numbers them: the
    order of a judgment table of these responses, so that the bootstrap draws the same)."""
    first = pd.unique(rows)
    rank = {int(r): k for k, r in enumerate(first)}
    out = np.full((len(first), n_cols), -1, dtype=np.int32)
    seen = np.zeros((len(first), n_cols), dtype=bool)
    for r, c, v in zip(rows.tolist(), cols.tolist(), codes.tolist(), strict=True):
        i = rank[r]
        if not seen[i, c]:
            out[i, c] = v
            seen[i, c] = True
    return out


def time_figures(
    humans: Matrix,
    models: Matrix | None,
    options: DurelOptions,
    responses: pd.DataFrame | None,
    cats: NDArray[Any],
) -> dict[str, Any]:
    """``per_batch[]`` (the humans' judgments by the batch column; an annotator's repeats of a
    pair inside a batch combined by their median, as the study combines them) and ``retest[]``
    (each annotator's judgments by occasion: the occasion column, or the order of their
    repeats in the files), as keyword arguments of :class:`DurelAnnotators`."""
    resp = responses if responses is not None else pd.DataFrame()
    if resp.empty:
        resp = pd.DataFrame(columns=["target", "id1", "id2", "annotator", "value", "line"])
    valid = resp["value"].to_numpy(dtype=float)
    cats = np.unique(np.concatenate([cats, valid[np.isfinite(valid)]]))
    coded = CodedOptions(level=options.level, values=cats.astype(float), spearman=False)
    q = len(cats)
    out: dict[str, Any] = {}
    if options.batch_column:
        labels = batch_labels(
            _column(resp, options.batch_column, "Batch column"), options.batch_size
        )
        names = list(humans.annotators)
        scale = Scale(options.scale_low, options.scale_high, options.cant_decide_values)
        study = coded_overall(_codes(humans.values, cats), q, coded, N_RESAMPLES, SEED)
        human = resp["annotator"].isin(names).to_numpy()
        batches = []
        for b in sorted(pd.unique(labels[human]), key=str):
            rows = resp[human & (labels == b).to_numpy()]
            one = combine_repeats(rows.copy(), scale, [])
            codes = _codes(one["value"].to_numpy(dtype=float), cats)
            ann, present = pd.factorize(one["annotator"])  # in order of first appearance
            m = _matrix(_item_rows(humans, one), ann, codes, len(present))
            batches.append((str(b), len(rows), m))
        out["per_batch"] = tuple(per_batch(batches, q, coded, study, N_RESAMPLES, SEED))
        out["per_batch_study"] = study
    if options.retest:
        if options.occasion_column:
            occ = _column(resp, options.occasion_column, "Occasion column")
        else:
            occ = file_order_occasions(
                pd.DataFrame({"item": item_key(resp, "\x1f"), "annotator": resp["annotator"]})
            )
        everyone = humans.annotators + (() if models is None else models.annotators)
        per: list[tuple[str, list[str], NDArray[Any]]] = []
        for name in everyone:
            mine = (resp["annotator"] == name).to_numpy()
            rows = resp[mine]
            o = occ[mine]
            occasions = [str(x) for x in pd.unique(o)]
            col = o.map({x: k for k, x in enumerate(occasions)}).to_numpy(dtype=np.int64)
            codes = _codes(rows["value"].to_numpy(dtype=float), cats)
            m = _matrix(_item_rows(humans, rows), col, codes, len(occasions))
            per.append((name, occasions, m))
        out["retest"] = tuple(retest(per, q, coded, N_RESAMPLES, SEED))
    return out

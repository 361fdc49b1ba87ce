"""Kind ``multilabel``: per-label agreement and the whether/which decomposition (Levi & Shenhav 2022).

Each annotator gives each item a set of k labels, a k-bit code (first label = leftmost bit).
For every annotator pair that shares items: per-label percent agreement and Cohen's κ, the exact
set agreement, and the decomposition of the codes into two sets S1/S2 — first level = κ on
"code in S1 or not", second level = per-label κ on the items where the pair agrees on the first
level (Levi & Shenhav 2022). Every partition is explored from the pairs' joint count matrices
(exhaustively for k ≤ 4; for k ≥ 5 partitions with |S1| ≤ a bound plus a beam search).
The result class lives in :mod:`.result` (partitions in :mod:`.partitions`, codes in :mod:`.codes`).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.errors import InsufficientDataError, ReaderError
from iaa_desktop.core.kinds.multilabel import explore
from iaa_desktop.core.kinds.multilabel.annotators import (
    asks_time,
    label_annotators,
    split_models,
    time_columns,
    with_names,
)
from iaa_desktop.core.kinds.multilabel.codes import code_name, codes_of, parse_s1
from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions
from iaa_desktop.core.kinds.multilabel.reader import (
    MultiLabelData,
    read_multilabel,
    sniff_multilabel,
)
from iaa_desktop.core.kinds.multilabel.result import MultiLabelResult
from iaa_desktop.core.kinds.spec import GivenOptions, rename_annotators
from iaa_desktop.core.metrics import decomposition as dec
from iaa_desktop.core.progress import Progress

__all__ = ["KIND", "MultiLabelKind", "MultiLabelResult", "code_name", "codes_of", "parse_s1"]


class MultiLabelKind:
    """Multi-label annotations (a set of labels per item and annotator)."""

    name = "multilabel"
    settings = MultiLabelOptions.settings()
    #: the kind's options: resolved once (:meth:`MultiLabelOptions.resolve`), computed with as
    #: they are
    options = MultiLabelOptions

    def sniff(self, inputs: Sequence[Path]) -> float:
        return sniff_multilabel(inputs)

    def run(
        self, inputs: Sequence[Path], options: GivenOptions
    ) -> Generator[Progress, None, MultiLabelResult]:
        opts = MultiLabelOptions.resolve(options)
        yield Progress(0, 100, "Reading the annotations")
        texts = opts.texts.strip()
        data = read_multilabel(
            list(inputs),
            labels=opts.label_order or None,
            delimiter=opts.delimiter,
            texts=Path(texts) if texts else None,
            columns=time_columns(opts),
            repeats=opts.retest,
        )
        data = with_names(data, rename_annotators(data.annotators, opts.as_dict()))
        data, model_codes, models = split_models(data, opts)
        found: list[ReaderError] = []
        if not texts:
            from iaa_desktop.core.kinds.multilabel.texts import with_texts_beside

            data, found = with_texts_beside(data, list(inputs))
        result = MultiLabelResult(
            kind=self.name,
            inputs=tuple(str(p) for p in inputs),
            options=opts.record(),  # as given, for the study's record
            errors=list(data.errors),
            warnings=list(data.warnings) + found,
            data=data,
            chosen=opts,
            top=max(0, opts.top) or None,
        )
        if model_codes is not None or opts.planning or opts.competence or asks_time(opts):
            yield Progress(10, 100, "Model annotators, planning, batches per label")
            result.annotator_figures = label_annotators(data, model_codes, models, opts)
        joints = yield from _per_label(result, data)
        k = data.k
        if joints is None:
            result.warnings.append(
                ReaderError(
                    None,
                    None,
                    f"{k} labels and {len(result.pair_index):,} annotator pairs: the "
                    "decomposition would hold "
                    f"{explore.joint_cells(len(result.pair_index), k):,} values at once, "
                    f"more than {explore.JOINT_CELLS_MAX:,}; per-label agreement only.",
                )
            )
            return result
        yield Progress(30, 100, "Decomposition for the chosen S1")
        s1 = parse_s1(opts.s1, data.labels)
        result.s1 = s1
        result.s1_decomposition = dec.decompose(joints, s1[None, :])

        yield Progress(45, 100, "Exploring the partitions")
        parts, sources, info = yield from explore.choose_partitions(joints, k, opts)
        if not len(parts):
            result.warnings.append(
                ReaderError(None, None, f"no partition explored: {info.get('reason', '')}.")
            )
            return result
        exploration = yield from explore.decompose_in_blocks(joints, parts)
        r1, r2 = explore.ranks(exploration)
        rows = explore.listed(r1, r2, result.top or 0)
        info["n_explored"] = len(parts)
        info["n_first_level_undefined"] = int(np.isnan(exploration.first).any(axis=0).sum())
        parts = parts[rows]
        parts.setflags(write=False)
        result.partitions = parts
        result.sources = sources[rows]
        result.exploration = explore.slice_arrays(exploration, rows)
        result.rank_first, result.rank_second = r1[rows], r2[rows]
        info["n_listed"] = len(rows)
        info["top"] = result.top
        result.exploration_info = info
        yield Progress(90, 100, "Building the exploration table")
        result._exploration_frame = result.exploration_table()
        yield Progress(100, 100, "Done")
        return result


def _per_label(
    result: MultiLabelResult, data: MultiLabelData
) -> Generator[Progress, None, NDArray[Any] | None]:
    """Per-label agreement of every pair sharing items; the pairs' joint count matrices when
    they fit (:data:`explore.JOINT_CELLS_MAX`), else None."""
    k = data.k
    yield Progress(15, 100, "Per-label agreement")
    present = data.codes >= 0
    n_ann = len(data.annotators)
    pairs = [
        (a, b)
        for a in range(n_ann)
        for b in range(a + 1, n_ann)
        if (present[:, a] & present[:, b]).any()
    ]
    if not pairs:
        raise InsufficientDataError(
            "No two annotators labelled the same item; agreement cannot be computed."
            + "".join(f"\n{e}" for e in data.errors[:10])
        )
    result.pair_index = pairs
    dense = explore.joints_fit(len(pairs), k)
    joints = np.zeros((len(pairs), 2**k, 2**k), dtype=np.int64) if dense else None
    for p, (a, b) in enumerate(pairs):
        if joints is not None:
            joints[p] = dec.joint_counts(data.codes[:, a], data.codes[:, b], k)
            result.per_label.append(dec.per_label_agreement(joints[p], k))
        else:
            result.per_label.append(
                explore.per_label_from_codes(data.codes[:, a], data.codes[:, b], k)
            )
        if p % 500 == 499:
            yield Progress(15 + 15 * p / len(pairs), 100, f"Per-label agreement ({p + 1:,} pairs)")
    if joints is not None:
        joints.setflags(write=False)
        result.joints = joints
    for (a, b), pl in zip(pairs, result.per_label):
        undefined = [lab for lab, v in zip(data.labels, pl["kappa"]) if np.isnan(v)]
        if undefined:
            result.warnings.append(
                ReaderError(
                    None,
                    None,
                    f"κ of {data.annotators[a]}–{data.annotators[b]} is undefined for "
                    f"{', '.join(undefined)} (both annotators used one value only).",
                )
            )
    return joints


KIND = MultiLabelKind()

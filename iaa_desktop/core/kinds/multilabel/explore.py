"""Which partitions the multi-label kind explores, within stated bounds on memory and work.

The number of partitions of the 2^k codes grows as 2^(2^k − 1) (32,767 for 4 labels,
2,147,483,647 for 5), the joint count matrices of the annotator pairs as m · 4^k cells, and the
decomposition of P partitions costs about P · 4^k · (k + 1) · m multiply-adds
(:func:`iaa_desktop.core.metrics.decomposition.decompose`). So, whatever the input:

* partitions are enumerated exhaustively only up to :data:`EXHAUSTIVE_MAX_PARTITIONS` (k ≤ 4);
  asking for more is refused with a message that offers the bounded enumeration and the search;
* the joint count matrices are built only while they hold at most :data:`JOINT_CELLS_MAX` cells;
  beyond, the per-label agreement comes straight from the label codes and no decomposition is
  made (16 labels would need 32 GiB per pair);
* the decomposition of the explored partitions and the beam search together stay within
  :data:`WORK_MAX` multiply-adds (a few seconds), and yield progress between blocks, so a long
  exploration can be cancelled;
* the partitions *listed* (JSON, CSV, the window) default to the best :data:`DEFAULT_TOP` under
  either criterion; ``top = 0`` lists all.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.metrics import decomposition as dec
from iaa_desktop.core.progress import Progress

if TYPE_CHECKING:  # the options' help quotes this module's limits
    from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions

#: partitions enumerated one by one at most (every partition of the 16 codes of 4 labels)
EXHAUSTIVE_MAX_PARTITIONS = 32_767
#: partitions with a bounded |S1| explored at most
BOUNDED_BUDGET = 50_000
#: cells of all the pairs' joint count matrices together, times the k + 1 products the
#: decomposition holds of each (float64 and its float32 copy: some 400 MiB)
JOINT_CELLS_MAX = 2**25
#: multiply-adds of one exploration (decomposition and search), a few seconds of work
WORK_MAX = 5e9
#: partitions listed by default: the best this many under either criterion
DEFAULT_TOP = 100
#: partitions decomposed per step (progress and cancellation between steps)
BLOCK = 4096


def joint_cells(n_pairs: int, k: int) -> int:
    """The values the decomposition holds at once: the dense joint count matrices of ``n_pairs``
    pairs, each multiplied by the k + 1 columns of ``F``
    (:func:`~iaa_desktop.core.metrics.decomposition.decompose`)."""
    cells: int = n_pairs * 4**k * (k + 1)
    return cells


def joints_fit(n_pairs: int, k: int) -> bool:
    """Whether the decomposition of ``n_pairs`` pairs' joint count matrices fits in the budget
    (11 labels and 6 pairs would hold 2.25 GiB at once)."""
    return joint_cells(n_pairs, k) <= JOINT_CELLS_MAX


def work(n_partitions: int, n_pairs: int, k: int) -> float:
    """Multiply-adds of decomposing ``n_partitions`` partitions for ``n_pairs`` pairs."""
    return float(n_partitions) * 4.0**k * (k + 1) * max(1, n_pairs)


def per_label_from_codes(ca: NDArray[Any], cb: NDArray[Any], k: int) -> dict[str, Any]:
    """:func:`~iaa_desktop.core.metrics.decomposition.per_label_agreement` of one pair, from the
    two annotators' codes on their shared items (no 2^k × 2^k matrix)."""
    both = (ca >= 0) & (cb >= 0)
    a, b = ca[both].astype(np.int64), cb[both].astype(np.int64)
    shifts = np.arange(k - 1, -1, -1, dtype=np.int64)
    bits_a = (a[:, None] >> shifts) & 1
    bits_b = (b[:, None] >> shifts) & 1
    n = float(len(a))
    n11 = (bits_a & bits_b).sum(axis=0).astype(np.float64)
    n1x = bits_a.sum(axis=0).astype(np.float64)
    n1y = bits_b.sum(axis=0).astype(np.float64)
    exact = float((a == b).mean()) if n > 0 else float("nan")
    return dec.label_agreement_from_counts(n, n11, n1x, n1y, exact)


def choose_partitions(
    joints: NDArray[Any], k: int, opts: MultiLabelOptions
) -> Generator[Progress, None, tuple[NDArray[Any], NDArray[Any], dict[str, Any]]]:
    """The partitions to explore, where each comes from, and what was explored (and why not
    more). ``opts``: ``exploration`` (auto/exhaustive/bounded), ``max_s1_size``, ``search``."""
    m = joints.shape[0]
    n_codes = 2**k
    total = dec.n_partitions(k)
    mode = opts.exploration
    info: dict[str, Any] = {"k": k, "n_partitions_total": total}
    exhaustive_ok = total <= EXHAUSTIVE_MAX_PARTITIONS and work(total, m, k) <= WORK_MAX
    if mode == "exhaustive" and not exhaustive_ok:
        raise OptionError(
            f"Exhaustive exploration is refused: {k} labels have {total:,} partitions, more than "
            f"the {EXHAUSTIVE_MAX_PARTITIONS:,} explored one by one (or too much work for "
            f"{m:,} annotator pairs). Choose 'auto' or 'bounded': partitions with a small S1 "
            "plus a beam search for the best ones."
        )
    if mode != "bounded" and exhaustive_ok:
        parts = np.array(dec.exhaustive_partitions(k))
        info.update(mode="exhaustive")
        return parts, np.full(len(parts), "exhaustive", dtype=object), info
    # half of the work for the bounded enumeration, half for the search
    affordable = int(min(BOUNDED_BUDGET, WORK_MAX / 2 / work(1, m, k)))
    bound = opts.max_s1_size or dec.largest_bound(k, max(1, affordable))
    bound = max(1, min(bound, 2 ** (k - 1)))
    while bound > 1 and dec.n_bounded_partitions(k, bound) > affordable:
        bound -= 1
    if dec.n_bounded_partitions(k, bound) > affordable:
        info.update(mode="none", reason=f"{m:,} annotator pairs and {k} labels: too much work")
        return np.zeros((0, n_codes), dtype=bool), np.zeros(0, dtype=object), info
    parts = dec.bounded_partitions(k, bound)
    sources = np.full(len(parts), "bounded", dtype=object)
    info.update(mode="bounded", max_s1_size=bound, n_bounded=len(parts))
    # a round of the search evaluates at most beam × 2^k partitions, for two criteria
    beam = 24
    rounds = int(min(64, WORK_MAX / 2 / (2 * work(beam * n_codes, m, k))))
    if opts.search and rounds >= 1:
        yield Progress(55, 100, "Searching the best partitions")
        found, n_eval = [], 0
        for criterion in ("first", "second"):
            best, n = dec.search_partitions(joints, criterion, beam=beam, top=20, max_rounds=rounds)
            found.append(best)
            n_eval += n
        known = {row.tobytes() for row in parts}
        extra = []
        for row in np.concatenate(found):  # new partitions, each once
            key = row.tobytes()
            if key not in known:
                known.add(key)
                extra.append(row)
        if extra:
            parts = np.concatenate([parts, np.array(extra)])
            sources = np.concatenate([sources, np.full(len(extra), "search", dtype=object)])
        info.update(mode="bounded+search", n_search_evaluated=n_eval, n_search_added=len(extra))
    elif opts.search:
        info.update(search_skipped=f"{m:,} annotator pairs and {k} labels: too much work")
    return parts, sources, info


def decompose_in_blocks(
    joints: NDArray[Any], parts: NDArray[Any], start: float = 60, stop: float = 90
) -> Generator[Progress, None, dec.DecompositionArrays]:
    """:func:`~iaa_desktop.core.metrics.decomposition.decompose` block by block, yielding
    progress (from ``start`` to ``stop`` percent) between blocks."""
    blocks = []
    for lo in range(0, max(1, len(parts)), BLOCK):
        blocks.append(dec.decompose(joints, parts[lo : lo + BLOCK]))
        done = min(len(parts), lo + BLOCK)
        yield Progress(
            start + (stop - start) * done / max(1, len(parts)),
            100,
            f"Computing partitions ({done:,} of {len(parts):,})",
        )
    if len(blocks) == 1:
        return blocks[0]
    return dec.DecompositionArrays(
        first=np.concatenate([b.first for b in blocks], axis=1),
        second=np.concatenate([b.second for b in blocks], axis=1),
        n_items=blocks[0].n_items,
        n_agree=np.concatenate([b.n_agree for b in blocks], axis=1),
    )


def ranks(arr: dec.DecompositionArrays) -> tuple[NDArray[Any], NDArray[Any]]:
    """Rank (1 = best) of each partition by mean first level ↑ and mean second level ↓."""
    first = dec.mean_strict(arr.first, axis=0)
    second = dec.mean_strict(arr.second, axis=(0, 2))
    r1 = np.empty(len(first), dtype=np.int64)
    r1[dec.rank_order(first)] = np.arange(1, len(first) + 1)
    r2 = np.empty(len(second), dtype=np.int64)
    r2[dec.rank_order(second, descending=True)] = np.arange(1, len(second) + 1)
    return r1, r2


def listed(r1: NDArray[Any], r2: NDArray[Any], top: int) -> NDArray[Any]:
    """Rows listed: the best ``top`` under either criterion (all when ``top`` is 0, or when at
    most ``2 · top`` partitions were explored)."""
    if top <= 0 or len(r1) <= 2 * top:
        return np.arange(len(r1))
    return np.flatnonzero((r1 <= top) | (r2 <= top))


def slice_arrays(arr: dec.DecompositionArrays, rows: NDArray[Any]) -> dec.DecompositionArrays:
    return dec.DecompositionArrays(
        first=arr.first[:, rows],
        second=arr.second[:, rows],
        n_items=arr.n_items,
        n_agree=arr.n_agree[:, rows],
    )

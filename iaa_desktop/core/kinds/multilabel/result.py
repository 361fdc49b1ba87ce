"""The result of the multi-label kind: per-label agreement, the decomposition for the chosen S1
and the explored partitions (Levi & Shenhav 2022), as JSON, tables and headline."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.kinds.multilabel import explore, partitions
from iaa_desktop.core.kinds.multilabel.annotators import LabelAnnotators
from iaa_desktop.core.kinds.multilabel.codes import code_name, codes_of, fmt, null_nan
from iaa_desktop.core.kinds.multilabel.options import MultiLabelOptions
from iaa_desktop.core.kinds.multilabel.reader import MultiLabelData
from iaa_desktop.core.kinds.spec import TaskResult
from iaa_desktop.core.metrics import decomposition as dec


@dataclass
class MultiLabelResult(TaskResult):
    """Everything computed for a multi-label study; arrays are read-only snapshots."""

    data: MultiLabelData | None = None
    #: the options the figures were computed with
    chosen: MultiLabelOptions = field(default_factory=MultiLabelOptions)
    #: annotator index pairs (a, b) that share items
    pair_index: list[tuple[int, int]] = field(default_factory=list)
    joints: NDArray[Any] = field(default_factory=lambda: np.zeros((0, 1, 1), dtype=np.int64))
    per_label: list[dict[str, Any]] = field(default_factory=list)
    s1: NDArray[Any] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    #: the decomposition for the theory-driven S1 the options name
    s1_decomposition: dec.DecompositionArrays | None = None
    partitions: NDArray[Any] = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    exploration: dec.DecompositionArrays | None = None
    #: where each explored partition comes from: "exhaustive", "bounded" or "search"
    sources: NDArray[Any] = field(default_factory=lambda: np.zeros(0, dtype=object))
    exploration_info: dict[str, Any] = field(default_factory=dict)
    top: int | None = None
    #: ranks of the listed partitions among every partition explored (first ↑, second ↓)
    rank_first: NDArray[Any] | None = None
    rank_second: NDArray[Any] | None = None
    #: per label the model annotators and the planning curve (empty unless asked for)
    annotator_figures: LabelAnnotators = field(default_factory=LabelAnnotators)
    #: the exploration table, built once (in the worker) and shared by the view and exports
    _exploration_frame: pd.DataFrame | None = field(default=None, repr=False, compare=False)

    # ----------------------------------------------------------------- helpers
    @property
    def annotators(self) -> tuple[str, ...]:
        """The annotators' names (as every kind's result has them)."""
        return self.data.annotators if self.data else ()

    @property
    def labels(self) -> tuple[str, ...]:
        return self.data.labels if self.data else ()

    @property
    def k(self) -> int:
        return len(self.labels)

    def code(self, c: int) -> str:
        return dec.code_string(c, self.k)

    def code_label(self, c: int) -> str:
        return f"{self.code(c)} = {code_name(c, self.labels)}"

    def pair_names(self) -> list[tuple[str, str]]:
        ann = self.data.annotators if self.data else ()
        return [(ann[a], ann[b]) for a, b in self.pair_index]

    def set_codes(self, mask: NDArray[Any]) -> list[str]:
        return [self.code(c) for c in codes_of(mask)]

    # ------------------------------------------------------------- summaries
    def first_level_mean(self, arr: dec.DecompositionArrays) -> tuple[NDArray[Any], NDArray[Any]]:
        return dec.mean_strict(arr.first, axis=0), dec.mean_defined(arr.first, axis=0)

    def second_level_means(self, arr: dec.DecompositionArrays) -> dict[str, NDArray[Any]]:
        """Per label (mean over pairs) and the average (mean over labels, then pairs)."""
        return {
            "per_label": dec.mean_strict(arr.second, axis=0),  # (P, k)
            "average": dec.mean_strict(arr.second, axis=(0, 2)),  # (P,)
            "average_defined": dec.mean_defined(arr.second, axis=(0, 2)),
        }

    def ranks(self) -> tuple[NDArray[Any], NDArray[Any]]:
        """Rank (1 = best) of each listed partition, among every partition explored, by first
        level ↑ and second level ↓."""
        assert self.exploration is not None
        if self.rank_first is not None and self.rank_second is not None:
            return self.rank_first, self.rank_second
        return explore.ranks(self.exploration)

    # ------------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """The ``report --kind multilabel --json`` layout.

        ``labels`` in bit order (the first label is the leftmost bit of every code); ``pairs``:
        ``[{a, b, n_items, exact_set_agreement, per_label: {label: {percent_agreement, kappa}}}]``
        (percent agreement as a share 0..1); ``averages`` over pairs; ``annotators`` with their
        label counts; ``combinations`` (each code's count per annotator); ``decomposition`` for
        the chosen S1: ``{s1, s2, first_level, second_level: {label: κ, average: κ}, pairs}``;
        ``exploration``: the same objects for every explored partition, ordered by first level
        (ascending, undefined last) with both ranks among every partition explored; only those
        ranked ≤ N under either criterion are listed (``--top N``, default 100; 0 = all);
        ``exploration_info`` says what was explored. Undefined κ is ``null``;
        a mean including one is ``null`` with ``*_mean_defined`` beside it.
        """
        assert self.data is not None
        out: dict[str, Any] = {
            "kind": self.kind,
            "labels": list(self.labels),
            "n_items": len(self.data.items),
            "annotators": self._annotators_json(),
            "codes": [
                {"code": self.code(c), "name": code_name(c, self.labels)}
                for c in self._shown_codes()
            ],
            "pairs": self._pairs_json(),
            "averages": self._averages_json(),
            "combinations": self._combinations_json(),
        }
        if self.s1_decomposition is not None:
            out["decomposition"] = partitions.decomposition_json(self)
        if self.exploration is not None:
            rows = partitions.exploration_json(self)
            out["exploration"] = rows
            out["exploration_info"] = dict(self.exploration_info, n_listed=len(rows))
        out.update(self.annotator_figures.to_json())
        json_ready: dict[str, Any] = null_nan(out)
        return json_ready

    def _annotators_json(self) -> list[dict[str, Any]]:
        d = self.data
        assert d is not None
        labels = list(self.labels)
        counts = self._label_count_matrix()
        return [
            {
                "name": name,
                "n_items": int((d.codes[:, x] >= 0).sum()),
                "label_counts": {lab: int(counts[x, j]) for j, lab in enumerate(labels)},
            }
            for x, name in enumerate(d.annotators)
        ]

    def _pairs_json(self) -> list[dict[str, Any]]:
        return [
            {
                "a": a,
                "b": b,
                "n_items": pl["n_items"],
                "exact_set_agreement": pl["exact_set_agreement"],
                "per_label": {
                    lab: {
                        "percent_agreement": float(pl["percent_agreement"][j]),
                        "kappa": float(pl["kappa"][j]),
                    }
                    for j, lab in enumerate(self.labels)
                },
                "mean_kappa": float(np.mean(pl["kappa"])),
            }
            for (a, b), pl in zip(self.pair_names(), self.per_label)
        ]

    def _averages_json(self) -> dict[str, Any]:
        avg = self.per_label_averages()
        out: dict[str, Any] = {
            lab: {
                "percent_agreement": float(avg["percent_agreement"][j]),
                "kappa": float(avg["kappa"][j]),
            }
            for j, lab in enumerate(self.labels)
        }
        for j, lab in enumerate(self.labels):
            if np.isnan(avg["kappa"][j]) and not np.isnan(avg["kappa_defined"][j]):
                out[lab]["kappa_mean_defined"] = float(avg["kappa_defined"][j])
        out["exact_set_agreement"] = float(avg["exact_set_agreement"])
        return out

    def _combinations_json(self) -> list[dict[str, Any]]:
        d = self.data
        assert d is not None
        return [
            {
                "code": r["code"],
                "name": r["labels"],
                "counts": {a: int(r[a]) for a in d.annotators},
                "total": int(r["total"]),
                "share": float(r["share"]),
            }
            for _, r in self.combinations().iterrows()
        ]

    # ----------------------------------------------------------------- tables
    def label_counts(self) -> pd.DataFrame:
        """Items annotated and label counts per annotator (Levi & Shenhav 2022, Table 1)."""
        d = self.data
        assert d is not None
        counts = self._label_count_matrix()
        # a label may be called "annotator" or "n_items": its column says it is a label
        fixed = ("annotator", "n_items")
        titles = [f"{lab} (label)" if lab in fixed else lab for lab in self.labels]
        frame = pd.DataFrame(counts.astype(int), columns=titles)
        frame.insert(0, "n_items", (d.codes >= 0).sum(axis=0).astype(int))
        frame.insert(0, "annotator", list(d.annotators))
        return frame

    def _label_count_matrix(self) -> NDArray[Any]:
        """Annotators × labels: how many items each annotator gave each label."""
        d = self.data
        assert d is not None
        e = dec.bit_matrix(self.k)
        rows = []
        for x in range(len(d.annotators)):
            c = d.codes[:, x]
            rows.append(np.bincount(c[c >= 0], minlength=2**self.k) @ e)
        return np.asarray(rows, dtype=np.int64).reshape(len(d.annotators), self.k)

    def _shown_codes(self) -> NDArray[Any]:
        """Every code for up to 6 labels (64 codes); beyond, the codes somebody gave."""
        d = self.data
        assert d is not None
        if self.k <= 6:
            return np.arange(2**self.k)
        given: NDArray[Any] = np.unique(d.codes[d.codes >= 0])
        return given

    def combinations(self) -> pd.DataFrame:
        """How often each label combination (code) was given, per annotator and overall (every
        code up to 6 labels, else the codes given)."""
        d = self.data
        assert d is not None
        shown = self._shown_codes()
        data: dict[str, Any] = {
            "code": [self.code(c) for c in shown],
            "labels": [code_name(c, self.labels) for c in shown],
        }
        total = np.zeros(len(shown), dtype=np.int64)
        for x, name in enumerate(d.annotators):
            c = d.codes[:, x]
            cnt = np.bincount(np.searchsorted(shown, c[c >= 0]), minlength=len(shown))
            data[name] = cnt
            total += cnt
        data["total"] = total
        data["share"] = total / max(1, total.sum())
        return pd.DataFrame(data)

    def joint(self, p: int) -> pd.DataFrame:
        """Pair ``p``'s joint counts of codes: rows = the first annotator's code, columns = the
        second's (every code up to 6 labels, else the codes either of them gave)."""
        d = self.data
        assert d is not None
        a, b = self.pair_index[p]
        ca, cb = d.codes[:, a], d.codes[:, b]
        both = (ca >= 0) & (cb >= 0)
        shown = self._shown_codes() if self.k <= 6 else np.unique(np.r_[ca[both], cb[both]])
        ia, ib = np.searchsorted(shown, ca[both]), np.searchsorted(shown, cb[both])
        n = len(shown)
        counts = np.bincount(ia * n + ib, minlength=n * n).reshape(n, n)
        return pd.DataFrame(counts, index=list(shown), columns=list(shown))

    def per_label_averages(self) -> dict[str, Any]:
        pa = np.array([pl["percent_agreement"] for pl in self.per_label])
        ka = np.array([pl["kappa"] for pl in self.per_label])
        ex = np.array([pl["exact_set_agreement"] for pl in self.per_label])
        return {
            "percent_agreement": pa.mean(axis=0),
            "kappa": ka.mean(axis=0),
            "kappa_defined": dec.mean_defined(ka, axis=0),
            "exact_set_agreement": ex.mean(),
        }

    def per_label_table(self) -> pd.DataFrame:
        """One row per pair and label, then the averages over pairs."""
        rows = []
        for (a, b), pl in zip(self.pair_names(), self.per_label):
            for j, lab in enumerate(self.labels):
                rows.append(
                    {
                        "a": a,
                        "b": b,
                        "label": lab,
                        "n_items": pl["n_items"],
                        "percent_agreement": pl["percent_agreement"][j],
                        "kappa": pl["kappa"][j],
                    }
                )
        avg = self.per_label_averages()
        for j, lab in enumerate(self.labels):
            rows.append(
                {
                    "a": "average",
                    "b": "",
                    "label": lab,
                    "n_items": sum(pl["n_items"] for pl in self.per_label),
                    "percent_agreement": avg["percent_agreement"][j],
                    "kappa": avg["kappa"][j],
                }
            )
        return pd.DataFrame(rows)

    def pair_table(self) -> pd.DataFrame:
        """One row per pair: items, exact set agreement, κ per label and their mean; then averages."""
        rows = []
        for (a, b), pl in zip(self.pair_names(), self.per_label):
            row: dict[str, Any] = {
                "pair": f"{a}–{b}",
                "n_items": pl["n_items"],
                "exact_set_agreement": pl["exact_set_agreement"],
            }
            for j, lab in enumerate(self.labels):
                row[f"PA {lab}"] = pl["percent_agreement"][j]
            for j, lab in enumerate(self.labels):
                row[f"κ {lab}"] = pl["kappa"][j]
            row["κ mean"] = float(np.mean(pl["kappa"]))
            rows.append(row)
        if rows:
            avg: dict[str, Any] = {"pair": "average", "n_items": sum(r["n_items"] for r in rows)}
            for key in rows[0]:
                if key not in avg:
                    avg[key] = float(np.mean([r[key] for r in rows]))
            rows.append(avg)
        return pd.DataFrame(rows)

    def pair_matrix(self, measure: str = "kappa") -> pd.DataFrame:
        """Annotator × annotator matrix of the mean per-label κ (or exact set agreement)."""
        d = self.data
        assert d is not None
        n = len(d.annotators)
        m = np.full((n, n), np.nan)
        for (a, b), pl in zip(self.pair_index, self.per_label):
            v = float(np.mean(pl["kappa"])) if measure == "kappa" else pl["exact_set_agreement"]
            m[a, b] = m[b, a] = v
        df = pd.DataFrame(m, columns=list(d.annotators))
        df.insert(0, "annotator", list(d.annotators), allow_duplicates=True)
        return df

    def decomposition_table(self) -> pd.DataFrame:
        """The chosen S1: one row per pair, then the average over pairs."""
        if self.s1_decomposition is None:
            return pd.DataFrame()
        rows = []
        for p, (a, b) in enumerate(self.pair_names()):
            row: dict[str, Any] = {
                "pair": f"{a}–{b}",
                "n_items": int(self.s1_decomposition.n_items[p]),
                "n_agree_first_level": int(self.s1_decomposition.n_agree[p, 0]),
                "first_level": self.s1_decomposition.first[p, 0],
            }
            for j, lab in enumerate(self.labels):
                row[lab] = self.s1_decomposition.second[p, 0, j]
            row["second_average"] = float(np.mean(self.s1_decomposition.second[p, 0]))
            rows.append(row)
        sec = self.second_level_means(self.s1_decomposition)
        avg: dict[str, Any] = {
            "pair": "average",
            "n_items": int(self.s1_decomposition.n_items.sum()),
            "n_agree_first_level": int(self.s1_decomposition.n_agree[:, 0].sum()),
            "first_level": float(self.first_level_mean(self.s1_decomposition)[0][0]),
        }
        for j, lab in enumerate(self.labels):
            avg[lab] = float(sec["per_label"][0, j])
        avg["second_average"] = float(sec["average"][0])
        rows.append(avg)
        df = pd.DataFrame(rows)
        df.insert(0, "s1", ",".join(self.set_codes(self.s1)), allow_duplicates=True)
        return df

    def exploration_table(self) -> pd.DataFrame:
        """Every explored partition: S1, S2, |S1|, first level, second level per label and
        average (means over pairs), ranks under both criteria, first level per pair."""
        if self.exploration is None:
            return pd.DataFrame()
        if self._exploration_frame is not None:
            return self._exploration_frame.copy()
        return partitions.exploration_table(self)

    def items_table(self) -> pd.DataFrame:
        """Each item with its text and every annotator's code."""
        d = self.data
        assert d is not None
        codes = np.array([self.code(c) for c in range(2**self.k)] + [""], dtype=object)
        data: dict[str, Any] = {"item": list(d.items), "text": list(d.texts)}
        for x, name in enumerate(d.annotators):
            data[name] = codes[d.codes[:, x]]  # -1 picks the trailing ""
        return pd.DataFrame(data)

    def joint_table(self) -> pd.DataFrame:
        """Non-zero cells of each pair's joint count matrix of codes."""
        rows = []
        for p, (a, b) in enumerate(self.pair_names()):
            j = self.joint(p)
            codes = j.index.to_numpy()
            for ra, rb in np.argwhere(j.to_numpy() > 0):
                rows.append(
                    {
                        "a": a,
                        "b": b,
                        "code_a": self.code(codes[ra]),
                        "code_b": self.code(codes[rb]),
                        "count": int(j.iat[ra, rb]),
                    }
                )
        return pd.DataFrame(rows, columns=["a", "b", "code_a", "code_b", "count"])

    def tables(self) -> dict[str, pd.DataFrame]:
        out = {
            "per_label": self.per_label_table(),
            "pairs": self.pair_table(),
            "pair_matrix_kappa": self.pair_matrix("kappa"),
            "pair_matrix_exact": self.pair_matrix("exact"),
            "label_counts": self.label_counts(),
            "combinations": self.combinations(),
            "joint_counts": self.joint_table(),
            "decomposition": self.decomposition_table(),
            "exploration": self.exploration_table(),
            "items": self.items_table(),
            **self.annotator_figures.tables(),
        }
        return out

    def headline(self) -> list[tuple[str, str]]:
        if not self.per_label:
            return []
        avg = self.per_label_averages()
        out = [
            ("Labels", ", ".join(self.labels)),
            (
                "κ per label (mean over pairs)",
                ", ".join(f"{lab} {fmt(v)}" for lab, v in zip(self.labels, avg["kappa"])),
            ),
            ("Exact set agreement", fmt(avg["exact_set_agreement"] * 100, 1) + "%"),
        ]
        if self.s1_decomposition is not None:
            s1 = ",".join(self.set_codes(self.s1))
            out.append(
                (
                    f"First level (S1 = {s1})",
                    fmt(self.first_level_mean(self.s1_decomposition)[0][0]),
                )
            )
            out.append(
                (
                    "Second level average",
                    fmt(self.second_level_means(self.s1_decomposition)["average"][0]),
                )
            )
        if self.exploration_info:
            out.append(("Partitions explored", f"{self.exploration_info.get('n_explored', 0):,}"))
        return out

    # --------------------------------------------------------------- items
    def partition_items(self, pair: int, s1: NDArray[Any]) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Items where the pair disagrees at the first level, and items where it agrees at the
        first level but not on the label set (second level), with text and both label sets."""
        return partitions.partition_items(self, pair, s1)

"""Kind ``multilabel``: per-label agreement and the whether/which decomposition (Levi & Shenhav 2022).

Each annotator gives each item a set of k labels, a k-bit code (first label = leftmost bit).
For every annotator pair that shares items: per-label percent agreement and Cohen's κ, the exact
set agreement, and the decomposition of the codes into two sets S1/S2 — first level = κ on
"code in S1 or not", second level = per-label κ on the items where the pair agrees on the first
level (Levi & Shenhav 2022). Every partition is explored from the pairs' joint count matrices
(exhaustively for k ≤ 4; for k ≥ 5 partitions with |S1| ≤ a bound plus a beam search).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.errors import InsufficientDataError, OptionError, ReaderError
from iaa_desktop.core.kinds.multilabel import SPEC, explore
from iaa_desktop.core.kinds.multilabel.reader import (
    MultiLabelData,
    read_multilabel,
    sniff_multilabel,
)
from iaa_desktop.core.kinds.spec import Setting, TaskResult, rename_annotators, resolve_options
from iaa_desktop.core.metrics import decomposition as dec
from iaa_desktop.core.progress import Progress


def code_name(code: int, labels: Sequence[str]) -> str:
    """``101`` with labels (Complication, Resolution, Success) → ``Complication + Success``."""
    k = len(labels)
    names = [lab for j, lab in enumerate(labels) if (code >> (k - 1 - j)) & 1]
    return " + ".join(names) if names else "(none)"


def parse_s1(spec: str | Sequence[str] | None, labels: Sequence[str]) -> np.ndarray:
    """Codes of S1 from ``"000"``, ``"101,010"`` or label names joined by ``+``.

    Empty → ``{000…0}`` ("any label at all?"). Raises :class:`OptionError` for bad codes.
    """
    k = len(labels)
    n_codes = 2**k
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        parts = ["0" * k]
    elif isinstance(spec, str):
        parts = [p.strip() for p in spec.split(",") if p.strip()]
    else:
        parts = [str(p).strip() for p in spec if str(p).strip()]
    s1 = np.zeros(n_codes, dtype=bool)
    index = {lab.lower(): j for j, lab in enumerate(labels)}
    for part in parts:
        if len(part) == k and set(part) <= {"0", "1"}:
            s1[int(part, 2)] = True
        elif part.lower() in ("none", "{}", "()"):
            s1[0] = True
        else:
            names = [n.strip().lower() for n in part.split("+")]
            if not all(n in index for n in names):
                raise OptionError(
                    f"S1: '{part}' is neither a {k}-bit code (like {'1' + '0' * (k - 1)}) nor label "
                    f"names joined by '+' ({', '.join(labels)})."
                )
            s1[sum(1 << (k - 1 - index[n]) for n in names)] = True
    if s1.all():
        raise OptionError("S1 holds every code; S2 would be empty.")
    return s1


def codes_of(mask: np.ndarray) -> list[int]:
    return [int(c) for c in np.flatnonzero(mask)]


@dataclass
class MultiLabelResult(TaskResult):
    """Everything computed for a multi-label study; arrays are read-only snapshots."""

    spec = SPEC  # the kind's spec: report section, methods, adjudication

    data: MultiLabelData | None = None
    #: annotator index pairs (a, b) that share items
    pair_index: list[tuple[int, int]] = field(default_factory=list)
    joints: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 1), dtype=np.int64))
    per_label: list[dict[str, Any]] = field(default_factory=list)
    s1: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    chosen: dec.DecompositionArrays | None = None
    partitions: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    exploration: dec.DecompositionArrays | None = None
    #: where each explored partition comes from: "exhaustive", "bounded" or "search"
    sources: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=object))
    exploration_info: dict[str, Any] = field(default_factory=dict)
    top: int | None = None
    #: ranks of the listed partitions among every partition explored (first ↑, second ↓)
    rank_first: np.ndarray | None = None
    rank_second: np.ndarray | None = None
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

    def set_codes(self, mask: np.ndarray) -> list[str]:
        return [self.code(c) for c in codes_of(mask)]

    # ------------------------------------------------------------- summaries
    def first_level_mean(self, arr: dec.DecompositionArrays) -> tuple[np.ndarray, np.ndarray]:
        return dec.mean_strict(arr.first, axis=0), dec.mean_defined(arr.first, axis=0)

    def second_level_means(self, arr: dec.DecompositionArrays) -> dict[str, np.ndarray]:
        """Per label (mean over pairs) and the average (mean over labels, then pairs)."""
        return {
            "per_label": dec.mean_strict(arr.second, axis=0),  # (P, k)
            "average": dec.mean_strict(arr.second, axis=(0, 2)),  # (P,)
            "average_defined": dec.mean_defined(arr.second, axis=(0, 2)),
        }

    def ranks(self) -> tuple[np.ndarray, np.ndarray]:
        """Rank (1 = best) of each listed partition, among every partition explored, by first
        level ↑ and second level ↓."""
        assert self.exploration is not None
        if self.rank_first is not None and self.rank_second is not None:
            return self.rank_first, self.rank_second
        return explore.ranks(self.exploration)

    def _partition_json(
        self,
        arr: dec.DecompositionArrays,
        i: int,
        s1: np.ndarray,
        means: tuple[Any, Any] | None = None,
    ) -> dict[str, Any]:
        # the means over pairs of every partition, computed once by the caller for a long list
        f_strict, f_def = means[0] if means else self.first_level_mean(arr)
        sec = means[1] if means else self.second_level_means(arr)
        second = {lab: float(sec["per_label"][i, j]) for j, lab in enumerate(self.labels)}
        second["average"] = float(sec["average"][i])
        out: dict[str, Any] = {
            "s1": self.set_codes(s1),
            "s2": self.set_codes(~s1),
            "s1_names": [code_name(c, self.labels) for c in codes_of(s1)],
            "first_level": float(f_strict[i]),
            "second_level": second,
        }
        if np.isnan(f_strict[i]) and not np.isnan(f_def[i]):
            out["first_level_mean_defined"] = float(f_def[i])
        if np.isnan(sec["average"][i]) and not np.isnan(sec["average_defined"][i]):
            out["second_level_mean_defined"] = float(sec["average_defined"][i])
        return out

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
        labels = list(self.labels)
        d = self.data
        out: dict[str, Any] = {
            "kind": self.kind,
            "labels": labels,
            "n_items": len(d.items),
            "annotators": [
                {
                    "name": name,
                    "n_items": int((d.codes[:, x] >= 0).sum()),
                    "label_counts": self.label_counts()
                    .set_index("annotator")
                    .loc[name, labels]
                    .astype(int)
                    .to_dict(),
                }
                for x, name in enumerate(d.annotators)
            ],
            "codes": [
                {"code": self.code(c), "name": code_name(c, labels)} for c in self._shown_codes()
            ],
            "pairs": [],
        }
        for (a, b), pl in zip(self.pair_names(), self.per_label):
            out["pairs"].append(
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
                        for j, lab in enumerate(labels)
                    },
                    "mean_kappa": float(np.mean(pl["kappa"])),
                }
            )
        avg = self.per_label_averages()
        out["averages"] = {
            lab: {
                "percent_agreement": float(avg["percent_agreement"][j]),
                "kappa": float(avg["kappa"][j]),
            }
            for j, lab in enumerate(labels)
        }
        for j, lab in enumerate(labels):
            if np.isnan(avg["kappa"][j]) and not np.isnan(avg["kappa_defined"][j]):
                out["averages"][lab]["kappa_mean_defined"] = float(avg["kappa_defined"][j])
        out["averages"]["exact_set_agreement"] = float(avg["exact_set_agreement"])
        comb = self.combinations()
        out["combinations"] = [
            {
                "code": r["code"],
                "name": r["labels"],
                "counts": {a: int(r[a]) for a in d.annotators},
                "total": int(r["total"]),
                "share": float(r["share"]),
            }
            for _, r in comb.iterrows()
        ]
        if self.chosen is not None:
            dj = self._partition_json(self.chosen, 0, self.s1)
            dj["pairs"] = [
                {
                    "a": a,
                    "b": b,
                    "n_items": int(self.chosen.n_items[p]),
                    "n_agree_first_level": int(self.chosen.n_agree[p, 0]),
                    "first_level": float(self.chosen.first[p, 0]),
                    "second_level": {
                        **{lab: float(self.chosen.second[p, 0, j]) for j, lab in enumerate(labels)},
                        "average": float(np.mean(self.chosen.second[p, 0])),
                    },
                }
                for p, (a, b) in enumerate(self.pair_names())
            ]
            out["decomposition"] = dj
        if self.exploration is not None:
            r1, r2 = self.ranks()
            order = np.argsort(r1, kind="stable")  # the partitions listed (run chose them)
            rows = []
            means = (
                self.first_level_mean(self.exploration),
                self.second_level_means(self.exploration),
            )
            for i in order:
                obj = self._partition_json(self.exploration, int(i), self.partitions[i], means)
                obj["size"] = int(self.partitions[i].sum())
                obj["rank_first_level"] = int(r1[i])
                obj["rank_second_level"] = int(r2[i])
                obj["source"] = str(self.sources[i])
                rows.append(obj)
            out["exploration"] = rows
            out["exploration_info"] = dict(self.exploration_info, n_listed=len(rows))
        return _null_nan(out)

    # ----------------------------------------------------------------- tables
    def label_counts(self) -> pd.DataFrame:
        """Items annotated and label counts per annotator (Levi & Shenhav 2022, Table 1)."""
        d = self.data
        assert d is not None
        e = dec.bit_matrix(self.k)
        rows = []
        for x, name in enumerate(d.annotators):
            c = d.codes[:, x]
            c = c[c >= 0]
            counts = np.bincount(c, minlength=2**self.k) @ e
            rows.append(
                {
                    "annotator": name,
                    "n_items": len(c),
                    **{lab: int(counts[j]) for j, lab in enumerate(self.labels)},
                }
            )
        return pd.DataFrame(rows)

    def _shown_codes(self) -> np.ndarray:
        """Every code for up to 6 labels (64 codes); beyond, the codes somebody gave."""
        d = self.data
        assert d is not None
        if self.k <= 6:
            return np.arange(2**self.k)
        return np.unique(d.codes[d.codes >= 0])

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
        if self.chosen is None:
            return pd.DataFrame()
        rows = []
        for p, (a, b) in enumerate(self.pair_names()):
            row: dict[str, Any] = {
                "pair": f"{a}–{b}",
                "n_items": int(self.chosen.n_items[p]),
                "n_agree_first_level": int(self.chosen.n_agree[p, 0]),
                "first_level": self.chosen.first[p, 0],
            }
            for j, lab in enumerate(self.labels):
                row[lab] = self.chosen.second[p, 0, j]
            row["second_average"] = float(np.mean(self.chosen.second[p, 0]))
            rows.append(row)
        sec = self.second_level_means(self.chosen)
        avg: dict[str, Any] = {
            "pair": "average",
            "n_items": int(self.chosen.n_items.sum()),
            "n_agree_first_level": int(self.chosen.n_agree[:, 0].sum()),
            "first_level": float(self.first_level_mean(self.chosen)[0][0]),
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
        parts = self.partitions
        f_strict, f_def = self.first_level_mean(self.exploration)
        sec = self.second_level_means(self.exploration)
        r1, r2 = self.ranks()
        codes = [self.code(c) for c in range(2**self.k)]
        codes_arr = np.array(codes, dtype=object)
        names = np.array(
            [f"{c} = {code_name(i, self.labels)}" for i, c in enumerate(codes)], dtype=object
        )
        data: dict[str, Any] = {
            "s1": [",".join(codes_arr[row]) for row in parts],
            "s2": [",".join(codes_arr[~row]) for row in parts],
            "s1_names": ["; ".join(names[row]) for row in parts],
            "size": parts.sum(axis=1),
            "first_level": f_strict,
        }
        for j, lab in enumerate(self.labels):
            data[f"second {lab}"] = sec["per_label"][:, j]
        data["second_average"] = sec["average"]
        data["rank_first_level"] = r1
        data["rank_second_level"] = r2
        data["first_level_mean_defined"] = f_def
        data["second_average_mean_defined"] = sec["average_defined"]
        for p, (a, b) in enumerate(self.pair_names()):
            data[f"first {a}–{b}"] = self.exploration.first[p]
            data[f"second {a}–{b}"] = self.exploration.second[p].mean(axis=1)
        data["source"] = self.sources
        return pd.DataFrame(data)

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
                ", ".join(f"{lab} {_fmt(v)}" for lab, v in zip(self.labels, avg["kappa"])),
            ),
            ("Exact set agreement", _fmt(avg["exact_set_agreement"] * 100, 1) + "%"),
        ]
        if self.chosen is not None:
            s1 = ",".join(self.set_codes(self.s1))
            out.append((f"First level (S1 = {s1})", _fmt(self.first_level_mean(self.chosen)[0][0])))
            out.append(
                ("Second level average", _fmt(self.second_level_means(self.chosen)["average"][0]))
            )
        if self.exploration_info:
            out.append(("Partitions explored", f"{self.exploration_info.get('n_explored', 0):,}"))
        return out

    # --------------------------------------------------------------- items
    def partition_items(self, pair: int, s1: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Items where the pair disagrees at the first level, and items where it agrees at the
        first level but not on the label set (second level), with text and both label sets."""
        d = self.data
        assert d is not None
        a, b = self.pair_index[pair]
        ca, cb = d.codes[:, a], d.codes[:, b]
        both = (ca >= 0) & (cb >= 0)
        s1 = np.asarray(s1, dtype=bool)
        ina = np.zeros(len(ca), dtype=bool)
        inb = np.zeros(len(cb), dtype=bool)
        ina[both] = s1[ca[both]]
        inb[both] = s1[cb[both]]
        first = both & (ina != inb)
        second = both & (ina == inb) & (ca != cb)
        names = np.array(
            [f"{self.code(c)} {code_name(c, self.labels)}" for c in range(2**self.k)] + [""],
            dtype=object,
        )
        an, bn = d.annotators[a], d.annotators[b]

        def frame(mask: np.ndarray) -> pd.DataFrame:
            idx = np.flatnonzero(mask)
            return pd.DataFrame(
                {
                    "item": np.array(d.items, dtype=object)[idx],
                    "text": np.array(d.texts, dtype=object)[idx],
                    an: names[ca[idx]],
                    bn: names[cb[idx]],
                }
            )

        return frame(first), frame(second)


def _null_nan(o: Any) -> Any:
    """Undefined κ (NaN) becomes ``None`` (JSON ``null``), as Levi & Shenhav (2022) leave it undefined."""
    if isinstance(o, float | np.floating):
        return float(o) if np.isfinite(o) else None
    if isinstance(o, dict):
        return {k: _null_nan(v) for k, v in o.items()}
    if isinstance(o, list | tuple):
        return [_null_nan(v) for v in o]
    return o


def _fmt(v: float, digits: int = 3) -> str:
    return "undefined" if v is None or not np.isfinite(v) else f"{v:.{digits}f}"


def _split(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list | tuple):
        return [str(v).strip() for v in value if str(v).strip()]
    return [v.strip() for v in str(value).split(",") if v.strip()]


class MultiLabelKind:
    """Multi-label annotations (a set of labels per item and annotator)."""

    name = "multilabel"
    title = SPEC.title
    settings = (
        Setting(
            "labels",
            "Label order (bit order)",
            "",
            str,
            help="comma-separated label names; the first is the leftmost bit of every code (default: column order / order in the data)",
        ),
        Setting(
            "s1",
            "Decomposition S1",
            "",
            str,
            help="comma-separated codes of S1 (e.g. 000 or 101,010; label names joined by + also work); default 000…0 = 'any label at all?'",
        ),
        Setting(
            "label_delimiter",
            "Label delimiter",
            ";",
            str,
            help="separator of the labels in a long-format cell",
        ),
        Setting(
            "texts",
            "Texts table",
            "",
            str,
            help="optional table of item id + text, shown beside the items",
        ),
        Setting(
            "exploration",
            "Partitions explored",
            "auto",
            str,
            ("auto", "exhaustive", "bounded"),
            help=(
                f"auto: every partition when there are at most "
                f"{explore.EXHAUSTIVE_MAX_PARTITIONS:,} (4 labels), else those with a small S1 "
                "plus a beam search; exhaustive: every partition (refused above that size); "
                "bounded: a small S1 plus the search, whatever the number of labels"
            ),
        ),
        Setting(
            "max_s1_size",
            "Largest |S1| explored (bounded)",
            0,
            int,
            help=(
                f"explore partitions with at most this many codes in S1 (0 = the largest bound "
                f"within {explore.BOUNDED_BUDGET:,} partitions); k = 5: ≤ 3 → "
                f"{dec.n_bounded_partitions(5, 3):,}, ≤ 4 → {dec.n_bounded_partitions(5, 4):,}, "
                f"≤ 5 → {dec.n_bounded_partitions(5, 5):,} partitions"
            ),
        ),
        Setting(
            "search",
            "Beam search for the best partitions (bounded)",
            True,
            bool,
            help="also search the best partitions under each criterion without enumerating them all",
        ),
        Setting(
            "top",
            "Partitions listed: best N (0 = all)",
            explore.DEFAULT_TOP,
            int,
            help=(
                "list (JSON, CSV, window) only the partitions ranked in the best N under either "
                "criterion; 0 lists every partition explored"
            ),
        ),
    )

    def sniff(self, inputs: Sequence[Path]) -> float:
        return sniff_multilabel(inputs)

    def run(
        self, inputs: Sequence[Path], options: Mapping[str, Any]
    ) -> Generator[Progress, None, MultiLabelResult]:
        opts = resolve_options(self.settings, options)
        yield Progress(0, 100, "Reading the annotations")
        texts = str(opts.get("texts") or "").strip()
        data = read_multilabel(
            list(inputs),
            labels=_split(opts.get("labels")) or None,
            delimiter=str(opts.get("label_delimiter") or ";"),
            texts=Path(texts) if texts else None,
        )
        data = replace(data, annotators=rename_annotators(data.annotators, opts))
        found: list[ReaderError] = []
        if not texts:
            from iaa_desktop.core.kinds.multilabel.texts import with_texts_beside

            data, found = with_texts_beside(data, list(inputs))
        top = int(opts.get("top") if opts.get("top") is not None else explore.DEFAULT_TOP)
        result = MultiLabelResult(
            kind=self.name,
            inputs=tuple(str(p) for p in inputs),
            options=dict(opts),
            errors=list(data.errors),
            warnings=list(data.warnings) + found,
            data=data,
            top=max(0, top) or None,
        )
        joints = yield from _per_label(result, data)
        k = data.k
        if joints is None:
            result.warnings.append(
                ReaderError(
                    None,
                    None,
                    f"{k} labels and {len(result.pair_index):,} annotator pairs: the "
                    f"decomposition would need {len(result.pair_index) * 4**k:,} joint counts, "
                    f"more than {explore.JOINT_CELLS_MAX:,}; per-label agreement only.",
                )
            )
            return result
        yield Progress(30, 100, "Decomposition for the chosen S1")
        s1 = parse_s1(opts.get("s1"), data.labels)
        result.s1 = s1
        result.chosen = dec.decompose(joints, s1[None, :])

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
) -> Generator[Progress, None, np.ndarray | None]:
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

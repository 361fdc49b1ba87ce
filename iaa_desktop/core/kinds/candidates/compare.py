"""Candidate text-reuse pairs judged accept/reject by several annotators (the Bernard of Clairvaux intertextuality study).

* Lexical overlap per pair: weighted Jaccard over token keys (lemmas when given, else
  lower-cased forms), see :mod:`iaa_desktop.core.align.tokens`.
* multi-κ (Hubert) overall, per annotator pair, per level of each factor and per overlap bin
  (quantile bins by ``numpy.quantile``; a value on a boundary goes to the upper bin), each with
  the conjugate Bayesian posterior: per annotator pair θ ~ Dirichlet(1 + counts)
  over the k² outcomes, A_o per draw = mean over pairs of Σ_k θ_kk, A_e fixed from the data;
  reported as the median and the central 89% and 95% intervals. ``ci_low``/``ci_high`` are the
  95% posterior interval.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.errors import InsufficientDataError, ReaderError
from iaa_desktop.core.kinds.candidates.annotators import (
    CandidatesAnnotators,
    asks_annotators,
    candidates_annotators,
    refuse_wide,
    split_models,
)
from iaa_desktop.core.kinds.candidates.model.settings import run_model
from iaa_desktop.core.kinds.candidates.options import CandidatesOptions
from iaa_desktop.core.kinds.candidates.reader import (
    CandidateData,
    encode_labels,
    looks_like_candidates,
    read_candidates,
)
from iaa_desktop.core.kinds.options import IntervalProvenance
from iaa_desktop.core.kinds.spec import (
    StepsKind,
    TaskResult,
    rename_annotators,
    result_fields,
)
from iaa_desktop.core.kinds.use_pairs import PairDetail, json_safe, make_detail, pair_overlaps
from iaa_desktop.core.metrics import bayes_multi_kappa, item_agreement, multi_kappa
from iaa_desktop.core.progress import Progress

#: the settings of the kind, made from the fields of :class:`CandidatesOptions`
SETTINGS = CandidatesOptions.settings()


def kappa_summary(codes: NDArray[Any], q: int, draws: int, seed: int) -> dict[str, Any]:
    """multi-κ with its Bayesian median and 89% / 95% intervals (JSON-ready)."""
    r = multi_kappa(codes, q)
    out: dict[str, Any] = {
        "value": r.value,
        "ci_low": math.nan,
        "ci_high": math.nan,
        "bayes_median": math.nan,
        "bayes_89": [math.nan, math.nan],
        "bayes_95": [math.nan, math.nan],
        "observed": r.observed,
        "expected": r.expected,
        "n_items": r.n_items,
    }
    if r.n_items >= 1 and math.isfinite(r.expected):
        b = bayes_multi_kappa(codes, n_draws=draws, seed=seed, n_categories=q)
        out.update(
            ci_low=b["low95"],
            ci_high=b["high95"],
            bayes_median=b["median"],
            bayes_89=[b["low89"], b["high89"]],
            bayes_95=[b["low95"], b["high95"]],
        )
    return out


def overlap_bins(overlap: NDArray[Any], n_bins: int) -> tuple[NDArray[Any], NDArray[Any]]:
    """Quantile bin (0-based) of each value and the inner edges; a value on an edge goes up.

    >>> b, e = overlap_bins(np.array([0.0, 0.1, 0.2, 0.3, 0.4]), 5)
    >>> b.tolist()
    [0, 1, 2, 3, 4]
    """
    ok = np.isfinite(overlap)
    if not ok.any() or n_bins < 1:
        return np.full(len(overlap), -1), np.zeros(0)
    edges = np.quantile(overlap[ok], np.linspace(0, 1, n_bins + 1)[1:-1])
    bins = np.where(ok, np.searchsorted(edges, overlap, side="right"), -1)
    return bins, edges


@dataclass
class CandidatesResult(TaskResult):
    #: judgments on a graded scale (the pair view's graded agreement panel and severities)
    graded: ClassVar[bool] = False
    #: the result has an agreement model of its own (the pair view's Model tab)
    has_model: ClassVar[bool] = True
    annotators: tuple[str, ...] = ()
    #: the options the figures were computed with
    chosen: CandidatesOptions = field(default_factory=CandidatesOptions)
    #: how the intervals of multi-κ were made (posterior draws and seed)
    interval: IntervalProvenance = field(default_factory=lambda: CandidatesOptions().provenance)
    categories: list[str] = field(default_factory=list)
    overall: dict[str, Any] = field(default_factory=dict)
    pairwise: list[dict[str, Any]] = field(default_factory=list)
    by_factor: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    by_overlap_bin: list[dict[str, Any]] = field(default_factory=list)
    overlap_edges: list[float] = field(default_factory=list)
    factors: list[str] = field(default_factory=list)
    #: one row per pair: id, texts, factors, labels, overlap, overlap bin, disagreement
    pairs: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: the hierarchical agreement model's results (``model.results.ModelResults``), when fitted
    model: Any = None
    #: model annotators and planning (empty unless the options ask for them)
    annotator_figures: CandidatesAnnotators = field(default_factory=CandidatesAnnotators)
    _details: dict[int, PairDetail] = field(default_factory=dict, repr=False)

    # -- view support -------------------------------------------------------------------------
    def pair_table(self) -> pd.DataFrame:
        p = self.pairs
        out = pd.DataFrame({"pair": p["pair_id"]})
        for f in self.factors:
            out[f] = p[f]
        for a in self.annotators:
            out[a] = p[a]
        for m, v in self.annotator_figures.model_labels.items():  # models, the human majority
            out[m] = v
        out["overlap"] = p["overlap"]
        out["overlap_bin"] = p["overlap_bin"]
        out["disagreement"] = p["disagreement"]
        return out

    def filter_columns(self) -> list[str]:
        return list(self.factors) + ["overlap_bin"]

    def pair_detail(self, i: int) -> PairDetail:
        if i in self._details:
            return self._details[i]
        row = self.pairs.iloc[i]
        judgments = tuple((a, str(row[a]) or "–", "") for a in self.annotators)
        labs = [str(row[a]) for a in self.annotators if str(row[a]) != ""]
        counts = pd.Series(labs).value_counts() if labs else pd.Series(dtype=int)
        summary = [
            ("labels", ", ".join(f"{k}: {v}" for k, v in counts.items()) or "–"),
            (
                "agreement",
                f"{1 - row['disagreement']:.2f}" if math.isfinite(row["disagreement"]) else "–",
            ),
        ]
        summary += [(f, str(row[f])) for f in self.factors]
        d = make_detail(
            str(row["pair_id"]),
            str(row["target_text"]),
            str(row["source_text"]),
            row.get("target_lemma") if "target_lemma" in row else None,
            row.get("source_lemma") if "source_lemma" in row else None,
            judgments=judgments,
            summary=tuple(summary),
            label_a="target",
            label_b="source",
        )
        self._details[i] = d
        return d

    # -- output --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        keep = ["pair_id", *self.factors, "overlap", "overlap_bin", "disagreement"]
        extra = {"model": self.model.to_json()} if self.model is not None else {}
        out: dict[str, Any] = json_safe(
            extra
            | {
                "kind": self.kind,
                "annotators": list(self.annotators),
                "categories": self.categories,
                "n_pairs": len(self.pairs),
                "overall": self.overall,
                "pairwise": self.pairwise,
                "by_factor": self.by_factor,
                "by_overlap_bin": self.by_overlap_bin,
                "overlap_bin_edges": self.overlap_edges,
                "pairs": self.pairs[keep].to_dict("records"),
                **self.annotator_figures.to_json(),
            }
        )
        return out

    @staticmethod
    def _flat(k: dict[str, Any]) -> dict[str, Any]:
        return {
            "multi_kappa": k["value"],
            "bayes_median": k["bayes_median"],
            "low89": k["bayes_89"][0],
            "high89": k["bayes_89"][1],
            "low95": k["bayes_95"][0],
            "high95": k["bayes_95"][1],
            "observed": k["observed"],
            "expected": k["expected"],
        }

    def factor_table(self) -> pd.DataFrame:
        rows = []
        for f, levels in list(self.by_factor.items()) + [("overlap_bin", self.by_overlap_bin)]:
            for lv in levels:
                rows.append(
                    {
                        "factor": f,
                        "level": lv["level"],
                        "n_items": lv["n_items"],
                        **self._flat(lv["multi_kappa"]),
                    }
                )
        return pd.DataFrame(rows)

    def tables(self) -> dict[str, pd.DataFrame]:
        overall = pd.DataFrame(
            [
                {
                    "subset": "all",
                    "n_items": self.overall["multi_kappa"]["n_items"],
                    **self._flat(self.overall["multi_kappa"]),
                }
            ]
        )
        pw = pd.DataFrame(
            [
                {"a": p["a"], "b": p["b"], "n_items": p["n_items"], **self._flat(p["multi_kappa"])}
                for p in self.pairwise
            ]
        )
        cols = [
            c
            for c in self.pairs.columns
            if c not in ("target_text", "source_text", "target_lemma", "source_lemma")
        ]
        out = {
            "overall": overall,
            "pairwise": pw,
            "by_factor": self.factor_table(),
            "pairs": self.pairs[cols].copy(),
        }
        if self.model is not None:
            out.update(self.model.tables())
        out.update(self.annotator_figures.tables())
        return out

    def console_text(self) -> str:
        """What the command line prints besides the headline: the model comparison."""
        if self.model is None:
            return ""
        a_e = self.model.chance_eq8
        lines = [
            "Agreement model: PSIS-LOO comparison (ELPD by outcome; by whole item beside it)",
            self.model.elpd_text(),
            f"chance agreement A_e = {a_e:.3f} (Eq. 8 of the Bernard of Clairvaux agreement study: each annotator's "
            "label distribution over the whole data set)",
        ]
        lines += [f"warning: {w}" for w in self.model.warnings()]
        return "\n".join(lines)

    def headline(self) -> list[tuple[str, str]]:
        k = self.overall.get("multi_kappa", {})
        v = k.get("value", math.nan)
        b = k.get("bayes_95", [math.nan, math.nan])
        txt = f"{v:.3f} [{b[0]:.3f}, {b[1]:.3f}]" if math.isfinite(v) else "–"
        out = [
            ("pairs", str(len(self.pairs))),
            ("annotators", str(len(self.annotators))),
            ("multi-κ (95% posterior)", txt),
        ]
        if self.model is not None:
            best = self.model.main
            k = best.kappa["overall"]["kappa"]
            out.append(
                (
                    f"model {best.spec.name}: multi-κ (95%)",
                    f"{k['median']:.3f} [{k['q95'][0]:.3f}, {k['q95'][1]:.3f}]",
                )
            )
        return out


def _rename_annotators(data: CandidateData, opts: CandidatesOptions) -> None:
    """The user's names for the annotators (the ``annotator_names`` option), in place."""
    names = rename_annotators(data.annotators, opts.as_dict())
    if names != data.annotators:
        renamed = dict(zip(data.annotators, names))
        data.labels = data.labels.rename(columns=renamed)
        if data.responses is not None:
            data.responses["annotator"] = data.responses["annotator"].map(
                lambda a: renamed.get(a, a)
            )
        data.annotators = names


def run(
    inputs: Sequence[Path], opts: CandidatesOptions
) -> Generator[Progress, None, CandidatesResult]:
    """The comparison of the inputs with the options resolved (:meth:`CandidatesOptions.resolve`)."""
    yield Progress(0, 100, "Reading pairs and labels")
    data = read_candidates([Path(p) for p in inputs], opts.columns)
    _rename_annotators(data, opts)
    refuse_wide(data, opts)
    models = split_models(data, opts)
    errors: list[ReaderError] = list(data.errors)
    warnings: list[ReaderError] = list(data.warnings)
    if len(data.annotators) < 2:
        raise InsufficientDataError(
            "Agreement needs labels of at least two annotators."
            + "".join(f"\n{e}" for e in errors[:10])
        )
    pairs = data.pairs.drop(columns=["__line__"], errors="ignore").copy()
    if models is not None:  # a model's column of wide labels in the pairs table
        pairs = pairs.drop(columns=list(models.columns), errors="ignore")
    factors = _factors(data, pairs, opts, errors, warnings)
    yield Progress(10, 100, "Lexical overlap")
    overlap = _lexical_overlap(pairs)
    codes, cats = encode_labels(data.labels)
    q = len(cats)
    labels = pd.DataFrame(
        {a: data.labels[a].to_numpy() for a in data.annotators}, index=pairs.index
    )
    pairs = pd.concat([pairs.drop(columns=list(data.annotators), errors="ignore"), labels], axis=1)
    agr = item_agreement(codes, q) if q else np.full(len(pairs), np.nan)
    pairs["disagreement"] = 1.0 - agr
    bins, edges = overlap_bins(overlap, opts.bins)
    bin_names = _bin_names(overlap, edges)
    pairs["overlap_bin"] = [bin_names[b] if b >= 0 else "" for b in bins]
    kappa = _KappaOf(codes, q, opts.bayes_draws, opts.seed)
    yield Progress(25, 100, "multi-κ overall and per annotator pair")
    overall = {"multi_kappa": kappa.of(codes)}
    if (
        not math.isfinite(overall["multi_kappa"]["value"])
        and overall["multi_kappa"]["n_items"] == 0
    ):
        raise InsufficientDataError(
            "No pair was labelled by two or more annotators; agreement cannot be computed."
        )
    pairwise = kappa.per_annotator_pair(data.annotators)
    by_factor = yield from kappa.per_factor_level(pairs, factors)
    yield Progress(88, 100, "multi-κ per overlap bin")
    result = CandidatesResult(
        **result_fields("candidates", inputs, opts.record(), errors, warnings),
        annotators=data.annotators,
        chosen=opts,
        interval=opts.provenance,
        categories=list(cats),
        overall=overall,
        pairwise=pairwise,
        by_factor=by_factor,
        by_overlap_bin=kappa.per_overlap_bin(bins, bin_names, overlap, agr),
        overlap_edges=[float(e) for e in edges],
        factors=factors,
        pairs=pairs,
    )
    if asks_annotators(opts):
        yield Progress(94, 100, "Annotators: models, competence, batches, planning")
        result.annotator_figures = candidates_annotators(
            data.labels, models, opts, data.responses, data.labels_path
        )
    yield Progress(100, 100, "Done")
    result.model = yield from run_model(result, opts.as_dict())
    return result


def _factors(
    data: CandidateData,
    pairs: pd.DataFrame,
    opts: CandidatesOptions,
    errors: list[ReaderError],
    warnings: list[ReaderError],
) -> list[str]:
    """The factors: the columns asked for, else the recognised ones; a column that is missing or
    (when asked for) has one level is an error, a recognised one with one level a note."""
    asked = list(opts.factor_columns)
    factors: list[str] = []
    constant: list[str] = []
    for f in asked or data.factor_candidates:
        if f not in pairs.columns:
            errors.append(
                ReaderError(
                    data.pairs_path, 1, f"the factor column '{f}' is not in the pairs table."
                )
            )
            continue
        n_levels = pairs[f].nunique()
        if n_levels < 2 and asked:
            msg = f"the factor '{f}' has only one level ('{pairs[f].iloc[0]}'); agreement per level is not computed for it."
            errors.append(ReaderError(data.pairs_path, 1, msg))
            continue
        if n_levels < 2:
            constant.append(f)
            continue
        factors.append(f)
    if constant:  # recognised columns with one value: one note, however many there are
        names = ", ".join(f"'{f}'" for f in constant[:10]) + (" …" if len(constant) > 10 else "")
        warnings.append(
            ReaderError(
                data.pairs_path,
                1,
                f"{len(constant)} column(s) with one value only are not used as factors: {names}.",
            )
        )
    return factors


def _lexical_overlap(pairs: pd.DataFrame) -> NDArray[Any]:
    """Weighted Jaccard overlap of each pair's passages (lemmas where given); the table keeps a
    given ``overlap`` column as ``overlap_given`` and gets the computed one as ``overlap``."""
    has_tl, has_sl = "target_lemma" in pairs.columns, "source_lemma" in pairs.columns
    overlap = pair_overlaps(
        pairs["target_text"].tolist(),
        pairs["source_text"].tolist(),
        pairs["target_lemma"].tolist() if has_tl else None,
        pairs["source_lemma"].tolist() if has_sl else None,
    )
    pairs["overlap_given"] = (
        pd.to_numeric(pairs["overlap"], errors="coerce") if "overlap" in pairs.columns else np.nan
    )
    pairs["overlap"] = overlap
    return overlap


def _bin_names(overlap: NDArray[Any], edges: NDArray[Any]) -> list[str]:
    """``Q1 [low, high)`` … of the quantile bins (the last one closed)."""
    bounds = (
        np.concatenate([[np.nanmin(overlap)], edges, [np.nanmax(overlap)]])
        if len(overlap)
        else np.zeros(0)
    )
    return [
        f"Q{k + 1} [{bounds[k]:.3f}, {bounds[k + 1]:.3f}{']' if k == len(bounds) - 2 else ')'}"
        for k in range(len(bounds) - 1)
    ]


@dataclass(frozen=True)
class _KappaOf:
    """multi-κ summaries (:func:`kappa_summary`) of subsets of one study's label codes."""

    codes: NDArray[Any]
    q: int
    draws: int
    seed: int

    def of(self, codes: NDArray[Any]) -> dict[str, Any]:
        return kappa_summary(codes, self.q, self.draws, self.seed)

    def per_annotator_pair(self, annotators: Sequence[str]) -> list[dict[str, Any]]:
        """κ of each annotator pair over the pairs both labelled."""
        out = []
        for x, y in combinations(range(len(annotators)), 2):
            sub = self.codes[:, [x, y]]
            both = (sub >= 0).all(axis=1)
            out.append(
                {
                    "a": annotators[x],
                    "b": annotators[y],
                    "n_items": int(both.sum()),
                    "multi_kappa": self.of(sub[both]),
                }
            )
        return out

    def per_factor_level(
        self, pairs: pd.DataFrame, factors: Sequence[str]
    ) -> Generator[Progress, None, dict[str, list[dict[str, Any]]]]:
        """κ of the pairs of each level of each factor (levels in numeric, then text order)."""
        by_factor: dict[str, list[dict[str, Any]]] = {}
        for k, f in enumerate(factors):
            yield Progress(35 + 50 * k / max(1, len(factors)), 100, f"multi-κ per level of {f}")
            col = pairs[f].astype(str).to_numpy()
            levels = sorted(pd.unique(col), key=lambda s: (_num(s), s))
            rows = []
            for lv in levels:
                m = col == lv
                rows.append(
                    {"level": lv, "n_items": int(m.sum()), "multi_kappa": self.of(self.codes[m])}
                )
            by_factor[f] = rows
        return by_factor

    def per_overlap_bin(
        self, bins: NDArray[Any], bin_names: Sequence[str], overlap: NDArray[Any], agr: NDArray[Any]
    ) -> list[dict[str, Any]]:
        """κ, median overlap and mean percent agreement of the pairs of each overlap bin."""
        by_bin = []
        for b, name in enumerate(bin_names):
            m = bins == b
            k = self.of(self.codes[m])
            by_bin.append(
                {
                    "level": name,
                    "n_items": int(m.sum()),
                    "overlap_median": float(np.median(overlap[m])) if m.any() else math.nan,
                    # a bin whose pairs no two annotators labelled has no agreement
                    "percent_agreement": (
                        float(np.nanmean(agr[m])) if np.isfinite(agr[m]).any() else math.nan
                    ),
                    "multi_kappa": k,
                }
            )
        return by_bin


def _num(s: str) -> float:
    try:
        return float(s)
    except ValueError:
        return math.inf


KIND = StepsKind("candidates", CandidatesOptions, looks_like_candidates, run)

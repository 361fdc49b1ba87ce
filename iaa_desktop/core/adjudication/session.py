"""An adjudication session: a model (units and versions), a store (decisions) and a strategy.

:class:`AdjudicationSession` is Qt-free: the GUI panel, the tests and scripts drive the same
object. The gold of a unit is its decision when there is one, else the automatic merge of the
strategy, else undecided (``None``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.changes import Decide, Decision, now_iso
from iaa_desktop.core.adjudication.model import AdjudicationModel, Choice, Strategy, auto_merge
from iaa_desktop.core.adjudication.store import AdjudicationStore, StoreError
from iaa_desktop.core.errors import OptionError

FILTERS = ("unresolved", "all", "decided", "automatic", "resolved")


class AdjudicationSession:
    """Decisions on the units of one comparison, recorded in ``store``.

    Parameters
    ----------
    model : the units (from :func:`~iaa_desktop.core.adjudication.units_for`)
    store : an open store; its ``meta`` keeps the strategy, blind mode and seed so a resumed
        session continues as it was left
    strategy, blind, seed : override what the store remembers (``None`` = keep it)
    """

    def __init__(
        self,
        model: AdjudicationModel,
        store: AdjudicationStore,
        strategy: Strategy | None = None,
        blind: bool | None = None,
        seed: int | None = None,
    ) -> None:
        self.model = model
        self.store = store
        meta = store.meta()
        if meta.get("kind") and meta["kind"] != model.kind:
            raise StoreError(
                f"{store.path}: this store holds an adjudication of a '{meta['kind']}' study, "
                f"not of this '{model.kind}' study; choose another store file."
            )
        stored = meta.get("strategy") or {}
        self.strategy = strategy or Strategy(
            stored.get("name", "unanimous"),
            float(stored.get("min_share", 0.5)),
            stored.get("annotator", ""),
            float(stored.get("threshold", 0.0)),
        )
        if strategy is None and self.strategy.name == "inferred" and not model.suggestions:
            # the store's inferred merge, on a study computed without competence this time
            self.strategy = Strategy("unanimous", self.strategy.min_share)
        self.blind = bool(meta.get("blind", False)) if blind is None else bool(blind)
        if seed is None:
            seed = meta.get("seed")
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**31 - 1))
        self.seed = int(seed)
        if not store.read_only:
            updates: dict[str, Any] = {
                "strategy": self.strategy.to_json(),
                "blind": self.blind,
                "seed": self.seed,
            }
            if not meta.get("kind"):
                updates.update(
                    kind=model.kind,
                    annotators=list(model.annotators),
                    inputs=list(model.inputs),
                    options=_jsonable(model.options),
                    created=now_iso(),
                )
            if any(meta.get(k) != v for k, v in updates.items()):
                store.set_meta(**updates)
        self._auto = auto_merge(model, self.strategy)
        self._has_auto = np.array([v is not None for v in self._auto], dtype=bool)
        self._decisions: dict[str, Decision] = {}
        self._decided = np.zeros(model.n_units, dtype=bool)
        self._gold = self._auto.copy()
        self._unknown_units: list[str] = []
        for unit, d in store.decisions().items():
            i = model.index.get(unit)
            if i is None:
                self._unknown_units.append(unit)  # kept in the store, shown in the log only
                continue
            self._decisions[unit] = d
            self._decided[i] = True
            self._gold[i] = d.value
        # codes of the gold in the model's coding (new typed values get new codes)
        self._code_of = {v: k for k, v in enumerate(model.code_values)}
        self._gold_codes = np.array([self._code(v) for v in self._gold], dtype=np.int64)
        self._haystack: pd.Series | None = None
        # the queue order never changes with decisions: sort once
        self._by_disagreement = np.lexsort((np.arange(model.n_units), -model.disagreement))
        rng = np.random.default_rng(self.seed)
        self._shuffle = rng.permutation(model.n_units)
        self._annotator_order = (
            rng.permutation(len(model.annotators))
            if self.blind
            else np.arange(len(model.annotators))
        )

    # -- strategy and display -------------------------------------------------------------------

    def set_strategy(self, strategy: Strategy) -> None:
        """Change the automatic merge (decisions are kept; the queue changes)."""
        self._auto = auto_merge(self.model, strategy)
        self._has_auto = np.array([v is not None for v in self._auto], dtype=bool)
        self.strategy = strategy
        for i in np.flatnonzero(~self._decided):
            self._set_gold(int(i), self._auto[i])
        if not self.store.read_only:
            self.store.set_meta(strategy=strategy.to_json())

    def set_blind(self, blind: bool) -> None:
        self.blind = bool(blind)
        rng = np.random.default_rng(self.seed)
        self._shuffle = rng.permutation(self.model.n_units)
        self._annotator_order = (
            rng.permutation(len(self.model.annotators))
            if self.blind
            else np.arange(len(self.model.annotators))
        )
        if not self.store.read_only:
            self.store.set_meta(blind=self.blind)

    @property
    def annotator_order(self) -> list[int]:
        """Annotator columns in display order (shuffled with the seed in blind mode)."""
        return [int(x) for x in self._annotator_order]

    def display_names(self) -> list[str]:
        """Names in display order: real names, or ``Annotator 1`` … in blind mode."""
        if self.blind:
            return [f"Annotator {k + 1}" for k in range(len(self.model.annotators))]
        return [self.model.annotators[x] for x in self._annotator_order]

    def choices(self, i: int) -> list[Choice]:
        return self.model.choices(
            i, self.annotator_order, self.display_names(), self.strategy.min_share
        )

    # -- state ------------------------------------------------------------------------------------

    @property
    def unknown_units(self) -> list[str]:
        """Units decided in the store that this comparison does not have (kept, not shown)."""
        return list(self._unknown_units)

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    @property
    def gold(self) -> NDArray[Any]:
        """Gold value of every unit (``None`` = undecided); a copy."""
        return self._gold.copy()

    @property
    def auto(self) -> NDArray[Any]:
        return self._auto.copy()

    def auto_value(self, i: int) -> str | None:
        """The automatic merge of unit ``i`` (``None`` = none)."""
        value: str | None = self._auto[i]
        return value

    def names_by_column(self) -> list[str]:
        """The name to show for each annotator column (``Annotator k`` in blind mode)."""
        names = list(self.model.annotators)
        for pos, x in enumerate(self.annotator_order):
            names[x] = self.display_names()[pos]
        return names

    def title(self, i: int) -> str:
        """Short title of unit ``i`` as shown (blind mode hides the names)."""
        return self.model.title(i, self.names_by_column())

    def describe_html(self, i: int) -> str:
        """The unit's context, below its inferred value when the study computed one."""
        page = self.model.describe_html(i, self.names_by_column(), current=self._gold[i])
        return self.model.suggestion_html(i) + page

    def decision(self, i: int) -> Decision | None:
        return self._decisions.get(self.model.keys[i])

    def is_decided(self, i: int) -> bool:
        return bool(self._decided[i])

    def resolved_mask(self) -> NDArray[Any]:
        return np.asarray(self._decided | self._has_auto)

    def progress(self) -> tuple[int, int]:
        """(resolved units, all units)."""
        return int(self.resolved_mask().sum()), self.model.n_units

    def queue(
        self,
        filter: str = "unresolved",
        text: str = "",
        pair: tuple[int, int] | None = None,
        label: str | None = None,
    ) -> NDArray[Any]:
        """Unit indices to show, most disagreeing first (shuffled with the seed in blind mode).

        ``filter``: ``unresolved`` (default), ``all``, ``decided``, ``automatic`` (merged by the
        strategy, not decided) or ``resolved``; ``text`` keeps units whose key, title or group
        (target, text, factor) contains it (case-insensitive); ``pair`` (two annotator columns)
        keeps units on which those two gave different versions; ``label`` keeps units on which
        some annotator gave that value.
        """
        if filter not in FILTERS:
            raise OptionError(f"Unknown filter '{filter}'; use one of {', '.join(FILTERS)}.")
        has_auto, decided = self._has_auto, self._decided
        if filter == "unresolved":
            mask = ~(decided | has_auto)
        elif filter == "all":
            mask = np.ones(self.model.n_units, dtype=bool)
        elif filter == "decided":
            mask = decided.copy()
        elif filter == "automatic":
            mask = has_auto & ~decided
        else:
            mask = decided | has_auto
        if text:
            mask &= self._text_mask(text)
        codes = self.model.codes
        if pair is not None and codes.size:
            a, b = codes[:, pair[0]], codes[:, pair[1]]
            mask &= (a >= 0) & (b >= 0) & (a != b)
        if label is not None and codes.size:
            k = self.model.code_values.index(label) if label in self.model.code_values else -2
            mask &= (codes == k).any(axis=1)
        order = self._shuffle if self.blind else self._by_disagreement
        return np.asarray(order[mask[order]])

    def _text_mask(self, text: str) -> NDArray[Any]:
        if self._haystack is None:
            m = self.model
            extra = m.search_texts or ("",) * m.n_units
            self._haystack = (
                pd.Series(
                    [
                        f"{k}\x1f{ti}\x1f{g}\x1f{x}"
                        for k, ti, g, x in zip(m.keys, m.titles, m.groups, extra)
                    ]
                )
                .str.replace("[\u2066-\u2069]", "", regex=True)
                .str.casefold()
            )  # bidi isolates
        return np.asarray(self._haystack.str.contains(text.casefold(), regex=False).to_numpy())

    def next_unresolved(
        self, after: int | None, backwards: bool = False, text: str = ""
    ) -> int | None:
        """The next (previous) unresolved unit in queue order after unit ``after``; wraps around."""
        q = self.queue("all", text)
        if len(q) == 0:
            return None
        unresolved = ~self.resolved_mask()
        if backwards:
            q = q[::-1]
        start = 0
        if after is not None:
            pos = np.flatnonzero(q == after)
            start = int(pos[0]) + 1 if len(pos) else 0
        rolled = np.concatenate([q[start:], q[:start]])
        hit = rolled[unresolved[rolled]]
        return int(hit[0]) if len(hit) else None

    # -- decisions --------------------------------------------------------------------------------

    def make_change(self, i: int, choice: str, value: str | None, note: str = "") -> Decide:
        """The change that records this decision for unit ``i`` (not applied yet)."""
        unit = self.model.keys[i]
        return Decide(
            unit,
            self._decisions.get(unit),
            Decision(choice, value, note, now_iso(), self.store.user),
        )

    def make_clear(self, i: int) -> Decide:
        """The change that removes the decision of unit ``i`` (back to the automatic merge)."""
        unit = self.model.keys[i]
        return Decide(unit, self._decisions.get(unit), None)

    def choose(
        self, i: int, choice: Choice | str, note: str = "", value: str | None = None
    ) -> Decide:
        """Build the change for a :class:`Choice` (or a typed value with ``choice='typed'``)."""
        if isinstance(choice, Choice):
            return self.make_change(i, choice.choice, choice.value, note)
        if choice == "typed":
            return self.make_change(i, "typed", self.model.parse_value(value or "", i), note)
        for c in self.choices(i):
            if c.choice == choice:
                return self.make_change(i, c.choice, c.value, note)
        raise OptionError(f"'{choice}' is not a choice for this unit.")

    def apply(self, change: Decide) -> None:
        """Commit the change to the store, then update the session (the store is the truth)."""
        if change.is_noop:
            return
        i = self.model.index[change.unit]
        versions = {a: self.model.versions[i, x] for x, a in enumerate(self.model.annotators)}
        self.store.apply(change, versions)
        if change.new is None:
            self._decisions.pop(change.unit, None)
            self._decided[i] = False
            self._set_gold(i, self._auto[i])
        else:
            self._decisions[change.unit] = change.new
            self._decided[i] = True
            self._set_gold(i, change.new.value)

    def apply_many(self, changes: Sequence[Decide]) -> None:
        """Commit several changes in one transaction (all or none), then update the session."""
        changes = [c for c in changes if not c.is_noop]
        if not changes:
            return
        versions = []
        for c in changes:
            i = self.model.index[c.unit]
            versions.append(
                {a: self.model.versions[i, x] for x, a in enumerate(self.model.annotators)}
            )
        self.store.apply_many(changes, versions)
        for c in changes:
            i = self.model.index[c.unit]
            if c.new is None:
                self._decisions.pop(c.unit, None)
                self._decided[i] = False
                self._set_gold(i, self._auto[i])
            else:
                self._decisions[c.unit] = c.new
                self._decided[i] = True
                self._set_gold(i, c.new.value)

    def _code(self, v: str | None) -> int:
        if v is None:
            return -1
        k = self._code_of.get(v)
        if k is None:
            k = len(self._code_of)
            self._code_of[v] = k
        return k

    def _set_gold(self, i: int, v: str | None) -> None:
        self._gold[i] = v
        self._gold_codes[i] = self._code(v)

    # -- agreement with the gold -------------------------------------------------------------------

    def agreement_snapshot(
        self, decided_only: bool = False
    ) -> tuple[NDArray[Any], NDArray[Any], tuple[str, ...]]:
        """Read-only inputs of :func:`agreement_with_gold` (safe to hand to a worker thread)."""
        g = self._gold_codes.copy()
        if decided_only:
            g[~self._decided] = -1
        g.setflags(write=False)
        return self.model.codes, g, self.model.annotators

    def agreement(self, decided_only: bool = False) -> pd.DataFrame:
        """Per annotator: units compared with the gold, agreeing units, percent agreement, Cohen's κ.

        ``decided_only`` compares only the units decided by hand (not the automatic merges).
        """
        return agreement_with_gold(*self.agreement_snapshot(decided_only))

    def feedback(self, annotator: str) -> pd.DataFrame:
        """Units where the gold differs from ``annotator``'s version (for the annotator)."""
        x = self.model.annotators.index(annotator)
        codes = self.model.codes[:, x]
        differ = (self._gold_codes >= 0) & (codes >= 0) & (codes != self._gold_codes)
        idx = np.flatnonzero(differ)
        fmt = self.model.value_text
        rows = []
        for i in idx:
            d = self.decision(int(i))
            rows.append(
                {
                    "unit": self.model.keys[i],
                    "title": self.model.titles[i],
                    "group": self.model.groups[i],
                    "your_version": fmt(i, self.model.versions[i, x]),
                    "gold": fmt(i, self._gold[i]),
                    "how": d.choice if d else f"automatic ({self.strategy})",
                    "note": d.note if d else "",
                }
            )
        return pd.DataFrame(
            rows, columns=["unit", "title", "group", "your_version", "gold", "how", "note"]
        )

    def decision_log(self, include_automatic: bool = True) -> pd.DataFrame:
        """One row per decided unit (and per automatically merged unit): versions, decision,
        who was overruled, note, time."""
        fmt = self.model.value_text
        rows = []
        idx = np.flatnonzero(self._decided | (self._has_auto if include_automatic else False))
        for i in idx:
            d = self.decision(int(i))
            gold = self._gold[i]
            row: dict[str, Any] = {
                "unit": self.model.keys[i],
                "title": self.model.titles[i],
                "group": self.model.groups[i],
            }
            for x, a in enumerate(self.model.annotators):
                row[a] = (
                    fmt(i, self.model.versions[i, x])
                    if self.model.versions[i, x] is not None
                    else ""
                )
            overruled = [
                a
                for x, a in enumerate(self.model.annotators)
                if self.model.versions[i, x] is not None and self.model.versions[i, x] != gold
            ]
            row.update(
                {
                    "choice": d.choice if d else f"automatic ({self.strategy})",
                    "decision": fmt(i, gold) if gold is not None else "",
                    "overruled": "; ".join(overruled),
                    "note": d.note if d else "",
                    "time": d.time if d else "",
                    "author": d.author if d else "",
                }
            )
            rows.append(row)
        cols = [
            "unit",
            "title",
            "group",
            *self.model.annotators,
            "choice",
            "decision",
            "overruled",
            "note",
            "time",
            "author",
        ]
        return pd.DataFrame(rows, columns=cols)

    # -- exports -----------------------------------------------------------------------------------

    def write_gold(self, out_dir: str | Path) -> list[Path]:
        """The gold in the kind's own format, plus ``undecided.csv`` (units still to decide)."""
        from iaa_desktop.core.io import write_csv

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        files = self.model.write_gold(
            self._gold.copy(), out, {u: d.note for u, d in self._decisions.items() if d.note}
        )
        und = self.undecided()
        write_csv(und, out / "undecided.csv")
        return [*files, out / "undecided.csv"]

    def undecided(self) -> pd.DataFrame:
        idx = np.flatnonzero(np.array([v is None for v in self._gold], dtype=bool))
        fmt = self.model.value_text
        data: dict[str, Any] = {
            "unit": [self.model.keys[i] for i in idx],
            "title": [self.model.titles[i] for i in idx],
            "group": [self.model.groups[i] for i in idx],
        }
        for x, a in enumerate(self.model.annotators):
            data[a] = [
                fmt(i, self.model.versions[i, x]) if self.model.versions[i, x] is not None else ""
                for i in idx
            ]
        return pd.DataFrame(data)

    def write_decision_log(self, path: str | Path) -> Path:
        from iaa_desktop.core.io import write_csv

        write_csv(self.decision_log(), path)
        return Path(path)

    def write_feedback(self, out_dir: str | Path) -> list[Path]:
        """One CSV per annotator (units where the gold differs from them) and ``agreement_with_gold.csv``."""
        from iaa_desktop.core.io import safe_filename, write_csv

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        files = []
        agreement = self.agreement()
        write_csv(agreement, out / "agreement_with_gold.csv")
        files.append(out / "agreement_with_gold.csv")
        for a in self.model.annotators:
            p = out / f"feedback_{safe_filename(a)}.csv"
            write_csv(self.feedback(a), p)
            files.append(p)
        return files


def agreement_with_gold(
    codes: NDArray[Any], gold_codes: NDArray[Any], annotators: Sequence[str]
) -> pd.DataFrame:
    """Agreement of each annotator with the gold so far.

    Parameters
    ----------
    codes : ``n × c`` integer codes of the annotators' versions (``-1`` = none)
    gold_codes : ``n`` codes of the gold in the same coding (``-1`` = undecided)
    annotators : the ``c`` names

    Returns one row per annotator: ``n_units`` (units with both a version and a gold value),
    ``n_agree``, ``percent_agreement`` = n_agree / n_units, ``cohen_kappa`` (Cohen 1960,
    :func:`iaa_desktop.core.metrics.cohen_kappa` of the annotator against the gold over those
    units; NaN when undefined) and ``n_overruled``. Vectorised: a few milliseconds for
    thousands of units.
    """
    from iaa_desktop.core.metrics import cohen_kappa

    base = gold_codes >= 0
    rows = []
    for x, name in enumerate(annotators):
        both = base & (codes[:, x] >= 0)
        n = int(both.sum())
        agree = int((codes[both, x] == gold_codes[both]).sum())
        kappa = math.nan
        if n >= 2:
            pair = np.stack([codes[both, x], gold_codes[both]], axis=1)
            # compact the codes: κ only needs the categories that occur
            uniq, inv = np.unique(pair, return_inverse=True)
            if len(uniq) >= 2:
                kappa = cohen_kappa(inv.reshape(pair.shape), len(uniq)).value
        rows.append(
            {
                "annotator": name,
                "n_units": n,
                "n_agree": agree,
                "percent_agreement": agree / n if n else math.nan,
                "cohen_kappa": kappa,
                "n_overruled": n - agree,
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "annotator",
            "n_units",
            "n_agree",
            "percent_agreement",
            "cohen_kappa",
            "n_overruled",
        ],
    )


def _jsonable(d: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in d.items():
        if isinstance(v, str | int | float | bool) or v is None:
            out[k] = v
        else:
            out[k] = str(v)
    return out


def decide_all(
    session: AdjudicationSession, indices: Sequence[int], choice: str = "annotator:"
) -> int:
    """Decide many units the same way (scripts and tests); returns how many were decided."""
    n = 0
    for i in indices:
        for c in session.choices(int(i)):
            if c.choice.startswith(choice) and c.value is not None:
                session.apply(session.choose(int(i), c))
                n += 1
                break
    return n

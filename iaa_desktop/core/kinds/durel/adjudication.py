"""Units of the ``durel`` kind: each use pair's final judgment (or the mean or median).

Gold export: for every target a folder with the original ``judgments.tsv`` plus one row per pair
of annotator ``gold`` (comment = the adjudicator's note), and a copy of ``uses.tsv``, so the
folder loads back into this tool and into DURel/PhiTag tooling. A pair left undecided gets the
can't-decide judgment ``0.0`` (a missing value for every DURel reader) with the comment
``undecided``.
"""

from __future__ import annotations

import html
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from iaa_desktop.core.adjudication.gold_io import free_name
from iaa_desktop.core.adjudication.model import AdjudicationModel, format_number
from iaa_desktop.core.io import NameAllocator, path_inside, write_csv
from iaa_desktop.core.kinds.annotators.suggestions import item_suggestions
from iaa_desktop.core.kinds.durel.figures import item_key

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.durel.compare import DurelResult

GOLD = "gold"
COLUMNS = ("identifier1", "identifier2", "annotator", "judgment", "comment", "lemma", "timestamp")


def durel_number(v: str | None) -> str:
    """A judgment as DURel writes it (``3.0``; a mean keeps 4 significant digits)."""
    if v is None:
        return "0.0"
    x = float(v)
    return f"{x:.1f}" if x.is_integer() else f"{x:.4g}"


#: a judgment the annotator made as "can't decide" (DURel's 0), and one they did not make: the
#: same glyphs as the pair tables
CANT_DECIDE = "?"
NOT_JUDGED = ""


class DurelModel(AdjudicationModel):
    kind = "durel"
    numeric = True
    missing_legend = "? = can't decide · empty = not judged"

    def __init__(self, *args: Any, result: Any = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._result = result
        #: units × annotators: the annotator judged the pair "can't decide"
        self.cant_decide: NDArray[np.bool_] = np.zeros(self.versions.shape, dtype=bool)

    def missing_text(self, i: int, x: int) -> str | None:
        return CANT_DECIDE if self.cant_decide[i, x] else NOT_JUDGED

    def _use(self, i: int, which: str) -> Any:
        r = self._result
        if r is None:
            return None
        t, a, b = self.keys[i].split(" | ", 2) if " | " in self.keys[i] else ("", "", "")
        ident = a if which == "1" else b
        return r.uses.get(f"{t}\x1f{ident}")

    def describe(self, i: int) -> str:
        parts = [f"Target {self.groups[i]} — pair {self.titles[i]}"]
        for w in ("1", "2"):
            u = self._use(i, w)
            if u is not None:
                parts.append(f"{u.identifier}: {u.text}")
        return "\n\n".join(parts)

    def describe_html(self, i: int, names: Any = None, current: str | None = None) -> str:
        out = [f"<p><b>{html.escape(self.groups[i])}</b> — {html.escape(self.titles[i])}</p>"]
        for w in ("1", "2"):
            u = self._use(i, w)
            if u is None:
                continue
            t = u.text
            if u.start is not None and u.end is not None and 0 <= u.start <= u.end <= len(t):
                body = (
                    html.escape(t[: u.start])
                    + "<b>"
                    + html.escape(t[u.start : u.end])
                    + "</b>"
                    + html.escape(t[u.end :])
                )
            else:
                body = html.escape(t)
            out.append(f"<p dir='auto'><i>{html.escape(u.identifier)}</i><br>{body}</p>")
        return "".join(out)

    def write_gold(self, gold: NDArray[Any], out_dir: Path, notes: Any = None) -> list[Path]:
        from iaa_desktop.core.kinds.durel.reader import target_sets

        name = free_name(GOLD, self.annotators)
        items = pd.DataFrame(
            [k.split(" | ", 2) for k in self.keys], columns=["target", "id1", "id2"]
        )
        items["gold"] = list(gold)
        notes = notes or {}
        items["note"] = [notes.get(k, "") for k in self.keys]
        sets = {t: (j, u) for t, j, u, _i in target_sets([Path(p) for p in self.inputs])}
        folders = NameAllocator()
        written: list[Path] = []
        for target, grp in items.groupby("target", sort=False):
            folder = path_inside(out_dir, folders.take(str(target) or "target"))
            folder.mkdir(parents=True, exist_ok=True)
            j_path, u_path = sets.get(target, (None, None))
            table = self._original_judgments(j_path)
            lemma = ""
            if "lemma" in table.columns and len(table):
                lemma = str(table["lemma"].iloc[0])
            if lemma == "" and self._result is not None:
                u = self._result.uses.get(f"{target}\x1f{grp['id1'].iloc[0]}")
                lemma = (u.quote or "").replace(" ", "_") if u is not None else ""
            rows = [
                {
                    "identifier1": r.id1,
                    "identifier2": r.id2,
                    "annotator": name,
                    "judgment": durel_number(r.gold),
                    "comment": ("undecided" if r.gold is None else str(r.note))
                    .replace("\t", " ")
                    .replace("\n", " "),
                    "lemma": lemma,
                    "timestamp": "",
                }
                for r in grp.itertuples(index=False)
            ]
            gold_rows = pd.DataFrame(rows).reindex(columns=table.columns, fill_value="")
            out = pd.concat([table, gold_rows], ignore_index=True).fillna("")
            written.append(write_csv(out, folder / "judgments.tsv", sep="\t"))
            if u_path is not None:
                # the user's own uses file, copied byte for byte so DURel tools read it as before
                dest = folder / u_path.name
                shutil.copyfile(u_path, dest)
                written.append(dest)
        return written

    @staticmethod
    def _original_judgments(j_path: Path | None) -> pd.DataFrame:
        """The annotators' judgments as the input holds them (the DURel columns if none)."""
        from iaa_desktop.core.tabular import LINE, read_table

        if j_path is None or j_path.suffix.lower() != ".tsv":
            return pd.DataFrame(columns=list(COLUMNS))
        return read_table(j_path).drop(columns=[LINE])


def units_for_durel(result: DurelResult) -> DurelModel:
    """Units of a :class:`~iaa_desktop.core.kinds.durel.compare.DurelResult` (one per use pair)."""
    items: pd.DataFrame = result.items
    annotators = tuple(result.annotators)
    vals = items[list(annotators)].to_numpy(dtype=float)
    versions = np.empty(vals.shape, dtype=object)
    for (i, x), v in np.ndenumerate(vals):
        versions[i, x] = None if np.isnan(v) else format_number(v)
    keys = item_key(items, " | ").tolist()

    # the uses without their target, which the group column shows: 562-c2 × 563-c1
    def short(col: str) -> pd.Series:
        return items[col].astype(str).str.replace(r"_\([^)]*\)", "", regex=True)

    titles = (short("id1") + " × " + short("id2")).tolist()
    from iaa_desktop.core.adjudication.severity import value_severity

    level = result.chosen.level
    disagreement = np.nan_to_num(value_severity(vals, level), nan=0.0)
    model = DurelModel(
        annotators,
        keys,
        versions,
        titles=titles,
        groups=items["target"].astype(str).tolist(),
        disagreement=disagreement,
        inputs=result.inputs,
        options=result.options,
        result=result,
    )
    model.cant_decide = cant_decide_mask(result, annotators, np.isnan(vals))
    model.level = level
    model.scale = tuple(float(v) for v in np.unique(vals[np.isfinite(vals)]))
    competence = getattr(result.annotator_figures, "competence", None)
    if competence is not None:
        # the inferred judgment of a use pair (Dawid & Skene 1979), in the units' number form
        model.suggestions = item_suggestions(
            competence.inferred,
            lambda k: k if k in model.index else None,
            lambda _k, label: format_number(float(label)),
        )
    return model


def cant_decide_mask(
    result: Any, annotators: tuple[str, ...], missing: NDArray[Any]
) -> NDArray[Any]:
    """Units × annotators: no value, and the annotator's judgment of the pair was "can't
    decide" (not a pair they left unjudged)."""
    mask = np.zeros(missing.shape, dtype=bool)
    judgments = getattr(result, "judgments", None)
    if judgments is None or not len(judgments) or "item" not in judgments.columns:
        return mask
    cant = judgments[judgments["value"].isna()]
    who = {a: x for x, a in enumerate(annotators)}
    for item, a in zip(cant["item"].to_numpy(dtype=int), cant["annotator"].astype(str)):
        x = who.get(a)
        if x is not None and 0 <= item < len(mask):
            mask[item, x] = True
    out: NDArray[Any] = mask & missing
    return out

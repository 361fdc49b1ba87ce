"""DURel and PhiTag exports of graded use-pair judgments (TRoTR, DWUG, ...).

Accepted inputs (any mix):

* a folder of target folders, each holding ``judgments.tsv`` and ``uses.tsv`` (DURel export);
* a single target folder, or its ``judgments.tsv`` (the ``uses.tsv`` beside it is read too);
* PhiTag's files: ``judgments`` (``instanceID, label, comment, annotator``), ``instances``
  (``instanceID, dataIDs`` = two use ids separated by a comma) and ``uses``
  (``dataID, context, indices_target_token, ...``), as files or a folder holding them.

DURel ``judgments.tsv``: ``identifier1, identifier2, annotator, judgment, comment, lemma,
timestamp``; ``uses.tsv``: ``lemma, ..., identifier, ..., context, indexes_target_token, ...``.
``0``/``0.0`` (DURel) and ``-`` (PhiTag) mean *can't decide*: a judgment that was made but is a
missing value. Offsets are code-point offsets, end exclusive (Python ``context[start:end]``).

Problems are collected as :class:`ReaderError` (errors leave the bad unit out, warnings keep it):
judgments naming uses missing from ``uses.tsv`` (left out), offsets outside the text (use kept
without a span), judgments outside the scale (left out), a span whose text does not match the
quoted passage (warning, shown as given). Use pairs are unordered, (u, v) and (v, u) being one
item, and an annotator's repeated judgments of one pair are combined by the median of the
non-zero judgments, a median off the scale being a missing value (the WUGs convention,
Schlechtweg et al. 2021); each combination is a warning that names the lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.tabular import LINE, header_line, read_table

#: columns of the long judgments frame returned by :func:`read_durel`
JUDGMENT_COLUMNS = ("target", "id1", "id2", "annotator", "raw", "value", "comment", "file", "line")

_USE_ID = ("identifier", "dataID", "dataid", "id")
_USE_SPAN = ("indexes_target_token", "indices_target_token", "indexes_target", "span")
_USE_TEXT = ("context", "text", "sentence")
_MAX_MESSAGES = 20  # per kind of problem and file; the rest are counted in one message
#: the reader's own columns (a file's column of such a name is not carried along)
_OWN_COLUMNS = frozenset({*JUDGMENT_COLUMNS, "item"})


@dataclass(frozen=True, slots=True)
class Use:
    """One context (use) of a target: its text and the span of the reused passage.

    ``start``/``end`` are ``None`` when the span is missing or invalid.
    """

    identifier: str
    target: str
    text: str
    start: int | None
    end: int | None
    quote: str = ""  # the quoted passage as the export names it (``lemma`` with spaces)


@dataclass
class DurelData:
    """What the reader found: long judgments, the uses, and the problems."""

    judgments: pd.DataFrame
    uses: dict[str, Use]
    targets: list[str]
    errors: list[ReaderError] = field(default_factory=list)
    warnings: list[ReaderError] = field(default_factory=list)
    #: every judgment kept, in file order, before an annotator's repeats of a pair are combined
    #: (pairs unordered as in ``judgments``), with the files' other columns (``timestamp``, …)
    #: under their own names: what test–retest and per-batch agreement read
    responses: pd.DataFrame = field(default_factory=pd.DataFrame)


@dataclass(frozen=True, slots=True)
class Scale:
    """The judgment scale: valid values ``low..high`` (inclusive) and the can't-decide markers."""

    low: float = 1.0
    high: float = 4.0
    cant_decide: tuple[str, ...] = ("0", "0.0", "-")


# ---------------------------------------------------------------------------------------------
# finding the files


def _first(cols: Sequence[str], names: Sequence[str]) -> str | None:
    lower = {c.lower(): c for c in cols}
    for n in names:
        if n.lower() in lower:
            return lower[n.lower()]
    return None


def _is_judgments_name(p: Path) -> bool:
    """A DURel judgments file: named ``judgments.*`` (or ``judgements.*``), or any table whose
    header has the DURel columns ``identifier1, identifier2, annotator, judgment`` (a renamed or
    downloaded copy)."""
    if not p.is_file() or p.suffix.lower() not in (".tsv", ".csv", ".txt"):
        return False
    if p.stem.lower().startswith(("judgment", "judgement")):
        return True
    columns = {c.strip().strip('"') for c in re.split(r"[\t,]", header_line(p).strip())}
    return {"identifier1", "identifier2", "annotator", "judgment"} <= columns


#: spellings of each file: PhiTag writes ``judgements.tsv`` (British), DURel ``judgments.tsv``
_SPELLINGS = {"judgments": ("judgments", "judgements")}


def _find(folder: Path, stem: str) -> Path | None:
    for name in _SPELLINGS.get(stem, (stem,)):
        for suffix in (".tsv", ".csv", ".txt"):
            p = folder / f"{name}{suffix}"
            if p.is_file():
                return p
    return None


#: folders a WUGs pipeline dataset (DWUG, Schlechtweg et al. 2021) holds beside its ``data``
_WUGS_SIBLINGS = ("clusters", "stats", "graphs", "plots")


def is_wugs_layout(inputs: Sequence[Path]) -> bool:
    """Whether the inputs are a WUGs/DWUG dataset's ``data`` folder, target folders in it, or
    their ``judgments.tsv``: a folder named ``data`` beside the pipeline's ``clusters``,
    ``stats`` or ``graphs`` folders (the layout of the DWUG releases)."""

    def data_folder(p: Path) -> bool:
        return p.name == "data" and any((p.parent / s).is_dir() for s in _WUGS_SIBLINGS)

    found = False
    for p in inputs:
        p = Path(p)
        folder = p if p.is_dir() else p.parent
        if not any(data_folder(f) for f in (folder, folder.parent)):
            return False
        found = True
    return found


def target_sets(inputs: Sequence[Path]) -> list[tuple[str, Path, Path | None, Path | None]]:
    """``(target name, judgments file, uses file or None, instances file or None)`` per target."""
    out: list[tuple[str, Path, Path | None, Path | None]] = []
    for p in inputs:
        p = Path(p)
        if p.is_dir():
            j = _find(p, "judgments")
            if j is not None:
                out.append((p.name, j, _find(p, "uses"), _find(p, "instances")))
                continue
            for sub in sorted(q for q in p.iterdir() if q.is_dir()):
                j = _find(sub, "judgments")
                if j is not None:
                    out.append((sub.name, j, _find(sub, "uses"), _find(sub, "instances")))
        elif _is_judgments_name(p):
            folder = p.parent
            uses = next(
                (
                    q
                    for q in inputs
                    if Path(q).is_file() and Path(q).stem.lower().startswith("uses")
                ),
                None,
            )
            inst = next(
                (
                    q
                    for q in inputs
                    if Path(q).is_file() and Path(q).stem.lower().startswith("instances")
                ),
                None,
            )
            out.append(
                (
                    folder.name,
                    p,
                    Path(uses) if uses else _find(folder, "uses"),
                    Path(inst) if inst else _find(folder, "instances"),
                )
            )
    return out


def looks_like_durel(inputs: Sequence[Path]) -> float:
    """Confidence that the inputs are a DURel/PhiTag export (for auto-detection)."""
    sets = target_sets(inputs)
    if not sets:
        return 0.0
    head = header_line(Path(sets[0][1]))
    if "identifier1" in head or ("instanceid" in head and sets[0][3] is not None):
        return 0.9 if sets[0][2] is not None else 0.6
    return 0.0


# ---------------------------------------------------------------------------------------------
# reading


def normalise_quote(s: str) -> str:
    return re.sub(r"[\W_]+", " ", s.lower()).strip()


def read_uses(
    path: Path, target: str, errors: list[ReaderError], warnings: list[ReaderError]
) -> dict[str, Use]:
    """The uses of one ``uses.tsv``; bad lines are reported and left out or kept without a span."""
    df = read_table(path)
    cols = [c for c in df.columns if c != LINE]
    c_id, c_text, c_span = _first(cols, _USE_ID), _first(cols, _USE_TEXT), _first(cols, _USE_SPAN)
    c_lemma = _first(cols, ("lemma",))
    c_pos = _first(cols, ("pos",))
    if c_id is None or c_text is None:
        raise ReaderError(
            path, 1, "a uses file needs the columns 'identifier' (or 'dataID') and 'context'."
        )
    uses: dict[str, Use] = {}
    n_bad_span = n_mismatch = 0
    for ident, text, span, lemma, pos, line in zip(
        df[c_id],
        df[c_text],
        df[c_span] if c_span else [""] * len(df),
        df[c_lemma] if c_lemma else [""] * len(df),
        df[c_pos] if c_pos else [""] * len(df),
        df[LINE],
    ):
        start = end = None
        quote = lemma.replace("_", " ").strip()
        # in DWUG/WUGs the lemma column holds the dictionary form of the target word (with a part
        # of speech beside it), which an inflected use need not match; only a quoted passage of
        # several words (TRoTR) is compared with the span
        is_quote = not pos.strip() and len(normalise_quote(quote).split()) >= 2
        if span:
            # at most 12 digits: a longer number is outside any text (and int() of thousands of
            # digits is slow, then refused)
            m = re.fullmatch(r"\s*(\d{1,12})\s*:\s*(\d{1,12})\s*", span, re.ASCII)
            if m is None or not (int(m.group(1)) <= int(m.group(2)) <= len(text)):
                n_bad_span += 1
                if n_bad_span <= _MAX_MESSAGES:
                    errors.append(
                        ReaderError(
                            path,
                            int(line),
                            f"the span '{_clip(span)}' of use '{_clip(ident)}' lies outside its text "
                            f"({len(text)} characters); the use is shown without a span.",
                        )
                    )
            else:
                start, end = int(m.group(1)), int(m.group(2))
                got = normalise_quote(text[start:end])
                want = normalise_quote(quote)
                # the export's lemma is the quotation, sometimes cut short: a prefix match is fine
                if is_quote and want and got and not (got.startswith(want) or want.startswith(got)):
                    n_mismatch += 1
                    if n_mismatch <= _MAX_MESSAGES:
                        warnings.append(
                            ReaderError(
                                path,
                                int(line),
                                f"the span {start}:{end} of use '{ident}' reads "
                                f"'{text[start:end]}', not the quoted '{quote}'; shown as given.",
                            )
                        )
        if ident in uses:
            warnings.append(
                ReaderError(
                    path, int(line), f"the use '{ident}' appears twice; the first one is used."
                )
            )
            continue
        uses[ident] = Use(ident, target, text, start, end, quote)
    if n_bad_span > _MAX_MESSAGES:
        errors.append(
            ReaderError(path, None, f"{n_bad_span - _MAX_MESSAGES} more spans outside their text.")
        )
    if n_mismatch > _MAX_MESSAGES:
        warnings.append(
            ReaderError(
                path, None, f"{n_mismatch - _MAX_MESSAGES} more spans not matching the quoted text."
            )
        )
    return uses


def _read_instances(path: Path) -> dict[str, tuple[str, str]]:
    df = read_table(path)
    c_inst = _first(df.columns, ("instanceID", "instance_id", "instance"))
    c_ids = _first(df.columns, ("dataIDs", "data_ids", "dataids"))
    if c_inst is None or c_ids is None:
        raise ReaderError(
            path, 1, "an instances file needs the columns 'instanceID' and 'dataIDs'."
        )
    out: dict[str, tuple[str, str]] = {}
    for inst, ids, line in zip(df[c_inst], df[c_ids], df[LINE]):
        parts = [x.strip() for x in ids.split(",")]
        if len(parts) != 2:
            raise ReaderError(
                path,
                int(line),
                f"instance '{inst}' names {len(parts)} uses in 'dataIDs'; a pair needs two.",
            )
        out[inst] = (parts[0], parts[1])
    return out


def _read_judgments(path: Path, target: str, instances_path: Path | None) -> pd.DataFrame:
    df = read_table(path)
    cols = list(df.columns)
    c1, c2 = _first(cols, ("identifier1", "id1")), _first(cols, ("identifier2", "id2"))
    c_ann = _first(cols, ("annotator", "user", "coder"))
    c_j = _first(cols, ("judgment", "label", "value"))
    c_com = _first(cols, ("comment",))
    c_inst: str | None = None
    if c1 is None or c2 is None:
        c_inst = _first(cols, ("instanceID", "instance_id"))
        if c_inst is None:
            raise ReaderError(
                path,
                1,
                "a judgments file needs 'identifier1' and 'identifier2' (DURel) or 'instanceID' (PhiTag).",
            )
        if instances_path is None:
            raise ReaderError(
                path,
                None,
                "PhiTag judgments name instances, but no instances file was found beside them.",
            )
        inst = _read_instances(instances_path)
        known = df[c_inst].isin(list(inst))
        if not known.all():
            bad = df[~known].iloc[0]
            raise ReaderError(
                path,
                int(bad[LINE]),
                f"instance '{bad[c_inst]}' is not in {instances_path.name} "
                f"({int((~known).sum())} judgments name unknown instances).",
            )
        pairs = df[c_inst].map(inst)
        id1 = pairs.map(lambda p: p[0])
        id2 = pairs.map(lambda p: p[1])
    else:
        id1, id2 = df[c1], df[c2]
    if c_ann is None or c_j is None:
        raise ReaderError(
            path, 1, "a judgments file needs the columns 'annotator' and 'judgment' (or 'label')."
        )
    out = pd.DataFrame(
        {
            "target": target,
            "id1": id1.str.strip(),
            "id2": id2.str.strip(),
            "annotator": df[c_ann].str.strip(),
            "raw": df[c_j].str.strip(),
            "comment": df[c_com].str.strip() if c_com else "",
            "file": str(path),
            "line": df[LINE].astype(int),
        }
    )
    read = {c1, c2, c_inst, c_ann, c_j, c_com, LINE}
    # the file's other columns (timestamp, …), for batches and occasions, joined at once (a file
    # of thousands of columns would fragment the frame column by column)
    extra = [c for c in cols if c not in read and c not in out.columns and c not in _OWN_COLUMNS]
    if extra:
        others = pd.DataFrame({c: df[c].astype(str).str.strip() for c in extra}, index=df.index)
        out = pd.concat([out, others], axis=1)
    return out


def _add_limited(
    out: list[ReaderError], bad: pd.DataFrame, make: Callable[[Any], ReaderError], summary: str
) -> None:
    for row in bad.head(_MAX_MESSAGES).itertuples(index=False):
        out.append(make(row))
    if len(bad) > _MAX_MESSAGES:
        out.append(ReaderError(bad["file"].iloc[0], None, f"{len(bad) - _MAX_MESSAGES} {summary}"))


def validate_judgments(
    frame: pd.DataFrame, scale: Scale, errors: list[ReaderError], warnings: list[ReaderError]
) -> pd.DataFrame:
    """Parse the judgments into ``value`` (NaN = can't decide) and drop the invalid ones; one
    judgment per annotator and pair (:func:`combine_repeats`)."""
    return combine_repeats(parse_judgments(frame, scale, errors), scale, warnings)


def parse_judgments(frame: pd.DataFrame, scale: Scale, errors: list[ReaderError]) -> pd.DataFrame:
    """Parse the judgments into ``value`` (NaN = can't decide), drop the invalid ones and make
    the pairs unordered; an annotator's repeats are all kept, in file order."""
    raw = frame["raw"]
    cant = raw.isin(scale.cant_decide)
    num = pd.to_numeric(raw.str.replace(",", ".", regex=False), errors="coerce")
    cant |= num.isin([float(x) for x in scale.cant_decide if _is_number(x)])
    out_of_scale = ~cant & (num.isna() | (num < scale.low) | (num > scale.high))
    if out_of_scale.any():

        def msg(r: Any) -> ReaderError:
            return ReaderError(
                r.file,
                int(r.line),
                f"the judgment '{r.raw}' of '{r.annotator}' on ({r.id1}, {r.id2}) is outside "
                f"the scale {scale.low:g}–{scale.high:g}; it is left out.",
            )

        _add_limited(errors, frame[out_of_scale], msg, "more judgments outside the scale left out.")
    frame = frame.assign(value=np.where(cant, np.nan, num))[~out_of_scale]
    return unordered_pairs(frame)


def unordered_pairs(frame: pd.DataFrame) -> pd.DataFrame:
    """(u, v) and (v, u) as one item, in the orientation the pair first appears in.

    A use pair is unordered in the WUGs/DURel annotation (Schlechtweg et al. 2021): which use
    an annotator saw first does not make another pair.
    """
    if frame.empty:
        return frame
    a, b = frame["id1"].astype(str), frame["id2"].astype(str)
    lo, hi = a.where(a <= b, b), b.where(a <= b, a)
    keyed = pd.DataFrame(
        {"t": frame["target"].to_numpy(), "lo": lo.to_numpy(), "hi": hi.to_numpy()}
    )
    first = keyed.groupby(["t", "lo", "hi"], sort=False).ngroup().to_numpy()
    idx_first = pd.Series(np.arange(len(frame))).groupby(first).transform("first").to_numpy()
    if (idx_first == np.arange(len(frame))).all():
        return frame
    return frame.assign(
        id1=frame["id1"].to_numpy()[idx_first], id2=frame["id2"].to_numpy()[idx_first]
    )


def combine_repeats(frame: pd.DataFrame, scale: Scale, warnings: list[ReaderError]) -> pd.DataFrame:
    """One judgment per annotator and pair: repeats combined by the median (WUGs convention).

    The median is taken over the judgments that are not *can't decide* (0); when every repeat
    is 0 the pair stays *can't decide*, and a median between two scale points (1.5) is a missing
    value. Each combination is a warning naming the lines.
    """
    key = ["target", "id1", "id2", "annotator"]
    dup = frame.duplicated(key, keep=False)
    if not dup.any():
        return frame
    d = frame[dup]
    drop: list[int] = []
    notes: list[ReaderError] = []
    for _, g in d.groupby(key, sort=False):
        keep = g.index[0]
        drop.extend(g.index[1:])
        vals = g["value"].to_numpy(dtype=float)
        vals = vals[~np.isnan(vals)]
        med = float(np.median(vals)) if len(vals) else np.nan
        on_scale = not np.isnan(med) and med.is_integer() and scale.low <= med <= scale.high
        value = med if on_scale else np.nan
        raw = f"{med:g}" if on_scale else ("0" if not len(vals) else "")
        frame.loc[keep, ["value", "raw"]] = [value, raw]
        r = g.iloc[0]
        lines = ", ".join(str(int(x)) for x in g["line"])
        if g["raw"].nunique() == 1:
            what = f"{len(g)} times with the same judgment; counted once"
        elif on_scale:
            what = f"{len(g)} times ({', '.join(g['raw'])}); the median of the non-zero judgments, {med:g}, is used"
        else:
            shown = "none" if not len(vals) else f"{med:g}"
            what = (
                f"{len(g)} times ({', '.join(g['raw'])}); the median of the non-zero judgments "
                f"({shown}) is not on the scale, so the pair is a missing value"
            )
        notes.append(
            ReaderError(
                r["file"],
                int(r["line"]),
                f"annotator '{r['annotator']}' judged the pair ({r['id1']}, {r['id2']}) {what} "
                f"(lines {lines}).",
            )
        )
    warnings.extend(notes[:_MAX_MESSAGES])
    if len(notes) > _MAX_MESSAGES:
        warnings.append(
            ReaderError(
                notes[0].path,
                None,
                f"{len(notes) - _MAX_MESSAGES} more pairs judged more than once by one annotator, "
                "combined by the median.",
            )
        )
    return frame.drop(index=drop)


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def read_durel(inputs: Sequence[Path], scale: Scale | None = None) -> DurelData:
    """Read every target of the inputs (see the module docstring); problems are collected."""
    scale = scale or Scale()
    errors: list[ReaderError] = []
    warnings: list[ReaderError] = []
    frames: list[pd.DataFrame] = []
    uses: dict[str, Use] = {}
    targets: list[str] = []
    sets = target_sets(inputs)
    if not sets:
        raise ReaderError(
            ", ".join(str(p) for p in inputs),
            None,
            "no DURel/PhiTag judgments were found (expected judgments.tsv in the folder or its sub-folders).",
        )
    for target, j_path, u_path, i_path in sets:
        try:
            frame = _read_judgments(j_path, target, i_path)
        except ReaderError as e:
            errors.append(e)
            continue
        if frame.empty:  # nothing read: a problem naming the file, not a target without pairs
            errors.append(
                ReaderError(j_path, None, "no judgments were found (a header and no rows).")
            )
            continue
        t_uses: dict[str, Use] = {}
        if u_path is None:
            warnings.append(
                ReaderError(
                    j_path.parent,
                    None,
                    "no uses.tsv beside the judgments: the texts cannot be shown.",
                )
            )
        else:
            try:
                t_uses = read_uses(u_path, target, errors, warnings)
            except ReaderError as e:
                errors.append(e)
            if t_uses:
                missing = ~frame["id1"].isin(list(t_uses)) | ~frame["id2"].isin(list(t_uses))
                if missing.any():

                    def msg(r: Any, _u: Path = u_path, _t: Any = t_uses) -> ReaderError:
                        which = r.id1 if r.id1 not in _t else r.id2
                        return ReaderError(
                            r.file,
                            int(r.line),
                            f"the use '{which}' is not in {Path(_u).name}; this judgment is left out.",
                        )

                    _add_limited(
                        errors,
                        frame[missing],
                        msg,
                        "more judgments naming uses that are missing from uses.tsv left out.",
                    )
                    frame = frame[~missing]
        if target in targets:  # two inputs with the same folder name: keep them apart
            target = f"{target} ({j_path.parent})"
            frame = frame.assign(target=target)
        targets.append(target)
        # use ids are unique within a target; prefix to keep them apart across targets
        for ident, u in t_uses.items():
            uses[f"{target}\x1f{ident}"] = u
        frames.append(frame)
    if frames:
        all_j = pd.concat(frames, ignore_index=True)
    else:
        all_j = pd.DataFrame(columns=[c for c in JUDGMENT_COLUMNS if c != "value"])
    parsed = parse_judgments(all_j, scale, errors)
    own = [c for c in parsed.columns if c in _OWN_COLUMNS]
    all_j = combine_repeats(parsed[own].copy(), scale, warnings)
    return DurelData(
        all_j.reset_index(drop=True),
        uses,
        targets,
        errors,
        warnings,
        parsed.reset_index(drop=True),
    )


def use_key(target: str, identifier: str) -> str:
    """Key of a use in :attr:`DurelData.uses`."""
    return f"{target}\x1f{identifier}"


def _clip(s: str, n: int = 40) -> str:
    """A cell quoted in a message, cut to ``n`` characters."""
    return s if len(s) <= n else s[: n - 1] + "…"

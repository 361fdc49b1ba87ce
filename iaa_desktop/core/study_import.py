"""What a selection of files and folders becomes as a study, before anything is computed.

The import dialog shows an :class:`ImportPlan`: the kind detected and why (every kind's sniff
score and what it accepts), which files or folders become which annotator, which documents or
targets pair up across annotators, the files left out and why, and a preview of the first items.
:func:`plan_import` reads the files (it runs in a worker thread in the GUI). Each kind arranges
its inputs (``arrange``, :mod:`iaa_desktop.core.kinds.arrange`) and surveys them (``survey``,
:mod:`iaa_desktop.core.kinds.survey`) with its own reader, so the plan and the computation agree.
A single folder whose sub-folders hold the annotations (``study/A``, ``study/B``) stands for its
sub-folders, unless a kind reads the folder itself (a DURel folder of target folders).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.kinds import KINDS, best_kind, get_kind, sniff_all
from iaa_desktop.core.kinds.arrange import LeftOut, header, own_or_hidden
from iaa_desktop.core.kinds.spec import ANNOTATOR_NAMES
from iaa_desktop.core.kinds.survey import AnnotatorSource, Pairing, Preview
from iaa_desktop.core.study_file import Study

__all__ = [
    "AnnotatorSource",
    "ImportPlan",
    "KindScore",
    "LeftOut",
    "Pairing",
    "Preview",
    "detect",
    "evidence",
    "plan_import",
    "survey",
    "why",
]

MAX_LISTED = 200  # left-out files listed one by one; the rest are counted


@dataclass(frozen=True)
class KindScore:
    """How confident one kind is that the inputs are its (``sniff``), and what it reads."""

    name: str
    title: str
    score: float
    accepts: str


@dataclass(frozen=True)
class ImportPlan:
    """Everything the import dialog shows; :meth:`study` is what opening it starts."""

    selection: tuple[Path, ...]
    inputs: tuple[Path, ...]
    kind: str
    detected: str
    scores: tuple[KindScore, ...]
    evidence: tuple[str, ...] = ()
    annotators: tuple[AnnotatorSource, ...] = ()
    left_out: tuple[LeftOut, ...] = ()
    pairing: Pairing | None = None
    preview: Preview | None = None
    notes: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def can_open(self) -> bool:
        """False when the plan cannot give a comparison (no inputs, or one annotator only)."""
        return bool(self.inputs) and (not self.annotators or len(self.annotators) >= 2)

    def study(self, names: Mapping[str, str] | None = None, title: str = "") -> Study:
        """The study to open: inputs, the kind (as detected or chosen) and the user's names."""
        options = dict(self.options)
        renamed = {k: v.strip() for k, v in (names or {}).items() if v.strip() and v.strip() != k}
        if renamed:
            options[ANNOTATOR_NAMES] = renamed
        return Study(self.inputs, self.kind, options, title)


# --------------------------------------------------------------------------------- selection


def _clean(selection: Sequence[Path]) -> tuple[list[Path], list[LeftOut]]:
    kept: list[Path] = []
    out: list[LeftOut] = []
    for p in dict.fromkeys(Path(s) for s in selection):
        if not p.exists():
            out.append(LeftOut(p, "does not exist"))
        elif (why := own_or_hidden(p)) is not None:
            out.append(LeftOut(p, why))
        else:
            kept.append(p)
    return kept, out


def _subfolders(folder: Path) -> list[Path]:
    try:
        return sorted(q for q in folder.iterdir() if q.is_dir() and not q.name.startswith("."))
    except OSError:
        return []


def detect(selection: Sequence[Path]) -> tuple[list[Path], dict[str, float], str | None]:
    """The inputs to sniff, every kind's score and a note when a folder stood for its sub-folders."""
    inputs = list(selection)
    scores = sniff_all(inputs)
    if len(inputs) == 1 and inputs[0].is_dir():
        subs = _subfolders(inputs[0])
        if len(subs) >= 2:
            sub_scores = sniff_all(subs)
            if best_kind(sub_scores)[1] > best_kind(scores)[1]:
                note = (
                    f"{inputs[0].name} holds one folder per annotator: its sub-folders are the "
                    "annotators."
                )
                return subs, sub_scores, note
    return inputs, scores, None


def _counts(files: Sequence[Path]) -> str:
    counts: dict[str, int] = {}
    for f in files:
        key = f.suffix.lower() or f.name
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))


def evidence(inputs: Sequence[Path]) -> list[str]:
    """What the selection holds, as a reader would see it: file types per folder, table headers."""
    lines: list[str] = []
    for p in (p for p in inputs if p.is_dir()):
        files = [f for f in sorted(p.iterdir()) if f.is_file() and not f.name.startswith(".")]
        subs = _subfolders(p)
        parts = [_counts(files)] if files else []
        if subs:
            parts.append(_plural_folders(len(subs)))
        lines.append(f"{p.name}/: {', '.join(parts) or 'empty'}")
    files = [p for p in inputs if p.is_file()]
    by_folder: dict[Path, list[Path]] = {}
    for f in files:
        by_folder.setdefault(f.parent, []).append(f)
    for folder, group in by_folder.items():
        tables = [f for f in group if f.suffix.lower() in (".csv", ".tsv", ".tab")]
        if len(group) <= 4 and len(tables) == len(group):
            lines.extend(f"{f.name}: columns {header(f) or '(no header)'}" for f in group)
        else:
            lines.append(f"{folder.name}/ (picked): {_counts(group)}")
    return lines


def _plural_folders(n: int) -> str:
    return f"{n} folder{'s' if n != 1 else ''}"


# ------------------------------------------------------------------------------------- plan


def plan_import(
    selection: Sequence[str | Path],
    kind: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> ImportPlan:
    """The plan for opening ``selection`` as a study (reads the files: run it off the GUI thread).

    ``kind`` forces a kind (the user chose one in the dialog); the scores are shown anyway.
    """
    chosen = [Path(p) for p in selection]
    cleaned, left = _clean(chosen)
    candidates, scores, folder_note = detect(cleaned)
    detected, _ = best_kind(scores)
    name = kind or detected
    get_kind(name)  # an unknown kind is an error here, not in the worker
    inputs, more_left, notes = KINDS[name].arranged(candidates)
    if folder_note:
        notes.insert(0, folder_note)
        parent = cleaned[0]
        more_left[:0] = [
            LeftOut(f, "beside the annotators' folders: not an annotator's")
            for f in sorted(parent.iterdir())
            if f.is_file() and not f.name.startswith(".")
        ]
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    plan = ImportPlan(
        selection=tuple(chosen),
        inputs=tuple(inputs),
        kind=name,
        detected=detected,
        scores=tuple(KindScore(n, KINDS[n].title, s, KINDS[n].inputs) for n, s in ranked),
        evidence=tuple(evidence(cleaned)),
        left_out=tuple((left + more_left)[:MAX_LISTED]),
        notes=tuple(notes),
        options=dict(options or {}),
    )
    if len(left) + len(more_left) > MAX_LISTED:
        plan = replace(
            plan,
            notes=(*plan.notes, f"{len(left) + len(more_left) - MAX_LISTED} more files left out"),
        )
    return survey(plan)


def survey(plan: ImportPlan) -> ImportPlan:
    """``plan`` with its annotators, pairing, preview and reading problems filled in by its kind's
    ``survey``; a kind without one gets none (its annotators are found when it is computed)."""
    spec = get_kind(plan.kind)
    if spec.survey is None or not plan.inputs:
        note = "The annotators are found when the study is computed."
        return replace(plan, notes=(*plan.notes, note)) if plan.inputs else plan
    try:
        found = spec.survey(list(plan.inputs), spec.resolve(plan.options))  # the kind's own way
    except IaaError as e:  # unreadable as this kind: say so; the user may choose another kind
        return replace(plan, problems=(*plan.problems, str(e)))
    return replace(
        plan,
        annotators=found.annotators,
        pairing=found.pairing if found.pairing is not None else plan.pairing,
        preview=found.preview,
        notes=(*plan.notes, *found.notes),
        problems=found.problems,
    )


def why(plan: ImportPlan) -> str:
    """One sentence: the kind and the reason it was chosen."""
    top = {s.name: s for s in plan.scores}
    chosen = top[plan.kind]
    if plan.kind != plan.detected:
        det = top[plan.detected]
        return (
            f"{chosen.title}, as chosen (detected: {det.title}, confidence {det.score:.2f}); "
            f"it reads {chosen.accepts}."
        )
    if chosen.score <= 0:
        return (
            f"{chosen.title}: no kind of study recognised these files, so they are read as "
            f"{chosen.accepts}."
        )
    return f"{chosen.title} (confidence {chosen.score:.2f}): it reads {chosen.accepts}."

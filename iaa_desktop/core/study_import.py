"""What a selection of files and folders becomes as a study, before anything is computed.

The import dialog shows an :class:`ImportPlan`: the kind detected and why (every kind's sniff
score and what it accepts), which files or folders become which annotator, which documents or
targets pair up across annotators, the files left out and why, and a preview of the first items.
:func:`plan_import` reads the files (it runs in a worker thread in the GUI); the arrangement rules
follow what each kind's reader does with its inputs, so the plan and the computation agree:

* coreference and brat spans: one folder (or CoNLL file) per annotator. Files picked in several folders stand
  for their folders; files picked in one folder are *one* annotator's documents (never one
  annotator per document); a brat ``.txt`` is the text of the ``.ann`` beside it.
* a single folder whose sub-folders hold the annotations (``study/A``, ``study/B``) stands for its
  sub-folders, unless a kind reads the folder itself (a DURel folder of target folders).
* every other kind: the files as picked; folders give their table files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from iaa_desktop.core.kinds import KINDS, get_kind
from iaa_desktop.core.kinds.spec import ANNOTATOR_NAMES
from iaa_desktop.core.study_file import SUFFIX, Study

TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".xlsx", ".xlsm")
CONLL_SUFFIXES = ("_conll", ".conll", ".key", ".response", ".gold_conll", ".auto_conll")
#: files the application writes itself (stores, locks, temporary files): never inputs
OWN_FILES = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".lock", ".tmp")
MAX_LISTED = 200  # left-out files listed one by one; the rest are counted


@dataclass(frozen=True)
class KindScore:
    """How confident one kind is that the inputs are its (``sniff``), and what it reads."""

    name: str
    title: str
    score: float
    accepts: str


@dataclass(frozen=True)
class AnnotatorSource:
    """One annotator as found in the inputs: its name there and where its annotations come from."""

    name: str
    source: str
    detail: str = ""


@dataclass(frozen=True)
class LeftOut:
    """A file or folder of the selection that is not an input of the study, and why."""

    path: Path
    reason: str


@dataclass(frozen=True)
class Pairing:
    """Documents (or targets, texts) and which annotators have them: what is compared with what."""

    unit: str  # "document", "target", "text"
    annotators: tuple[str, ...]
    rows: tuple[tuple[str, tuple[bool, ...]], ...]

    @property
    def n_shared(self) -> int:
        return sum(1 for _name, has in self.rows if sum(has) >= 2)


@dataclass(frozen=True)
class Preview:
    """The first items as the study will see them: one row per item, a column per annotator."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""


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


def _own_or_hidden(p: Path) -> str | None:
    if p.name.startswith("."):
        return "a hidden file"
    if p.name.endswith(OWN_FILES):
        return "a file the application keeps (adjudication store, lock or temporary file)"
    if p.name.endswith(SUFFIX):
        return "a study file: open it with File → Open study"
    return None


def _clean(selection: Sequence[Path]) -> tuple[list[Path], list[LeftOut]]:
    kept: list[Path] = []
    out: list[LeftOut] = []
    for p in dict.fromkeys(Path(s) for s in selection):
        if not p.exists():
            out.append(LeftOut(p, "does not exist"))
        elif (why := _own_or_hidden(p)) is not None:
            out.append(LeftOut(p, why))
        else:
            kept.append(p)
    return kept, out


def _subfolders(folder: Path) -> list[Path]:
    try:
        return sorted(q for q in folder.iterdir() if q.is_dir() and not q.name.startswith("."))
    except OSError:
        return []


def _sniff_all(inputs: Sequence[Path]) -> dict[str, float]:
    scores = {}
    for name, spec in KINDS.items():
        try:
            scores[name] = float(spec.sniff(list(inputs)))
        except Exception:  # a sniffer failing on odd input means "not mine"  # noqa: BLE001
            scores[name] = 0.0
    return scores


def _best(scores: Mapping[str, float]) -> tuple[str, float]:
    """The most confident kind; ``table`` when nothing claims the inputs (as ``detect_kind``)."""
    best, best_score = "table", 0.0
    for name, score in scores.items():
        if score > best_score:
            best, best_score = name, score
    return best, best_score


def detect(selection: Sequence[Path]) -> tuple[list[Path], dict[str, float], str | None]:
    """The inputs to sniff, every kind's score and a note when a folder stood for its sub-folders."""
    inputs = list(selection)
    scores = _sniff_all(inputs)
    if len(inputs) == 1 and inputs[0].is_dir():
        subs = _subfolders(inputs[0])
        if len(subs) >= 2:
            sub_scores = _sniff_all(subs)
            if _best(sub_scores)[1] > _best(scores)[1]:
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
            lines.extend(f"{f.name}: columns {_header(f) or '(no header)'}" for f in group)
        else:
            lines.append(f"{folder.name}/ (picked): {_counts(group)}")
    return lines


def _plural_folders(n: int) -> str:
    return f"{n} folder{'s' if n != 1 else ''}"


def _header(path: Path) -> str:
    from iaa_desktop.core.textio import read_head

    first = read_head(path, 4096).split("\n", 1)[0].rstrip("\r")
    sep = "\t" if "\t" in first else ","
    cols = [c.strip().strip('"') for c in first.split(sep)]
    shown = ", ".join(cols[:10])
    return shown + (f", … ({len(cols)} columns)" if len(cols) > 10 else "")


# ------------------------------------------------------------------------------- arrangement


def _is_coref_file(f: Path) -> bool:
    """brat, CoNLL-2012 by name, or a format the coreference kind recognises by its content
    (CoNLL-U with CorefUD or Universal Anaphora annotations, WebAnno TSV with chains, INCEpTION)."""
    if f.suffix == ".ann" or f.name.endswith(CONLL_SUFFIXES):
        return True
    from iaa_desktop.core.kinds.coref.sources import is_coref_file

    try:
        return is_coref_file(f)
    except (OSError, ValueError):
        return False


def _is_mention_table(f: Path) -> bool:
    if f.suffix.lower() not in (".csv", ".tsv"):
        return False
    cols = {c.strip().lower() for c in _header(f).split(",")}
    return {"begin", "end"} <= cols


def _has_coref_files(folder: Path) -> bool:
    try:
        return any(
            f.is_file() and (_is_coref_file(f) or _is_mention_table(f)) for f in folder.iterdir()
        )
    except OSError:
        return False


def _brat_text(f: Path) -> bool:
    return f.suffix == ".txt" and f.with_suffix(".ann").exists()


def _arrange_coref(paths: Sequence[Path]) -> tuple[list[Path], list[LeftOut], list[str]]:
    """One input per annotator, in the order picked: folders as given, ``.ann`` files stand for
    their folder, CoNLL files and mention tables for themselves (see the module docstring)."""
    left: list[LeftOut] = []
    notes: list[str] = []
    ann = [f for f in paths if f.is_file() and f.suffix == ".ann"]
    picked_dirs = [p for p in paths if p.is_dir()]
    inputs: list[Path] = []
    for p in paths:
        if p.is_dir() and _has_coref_files(p):
            inputs.append(p)
        elif p.is_dir():
            left.append(LeftOut(p, "no coreference files in it (.ann, CoNLL or a mention table)"))
        elif _brat_text(p):
            left.append(LeftOut(p, f"the text of the brat document {p.stem}, read with its .ann"))
        elif p.suffix == ".ann" and p.parent not in inputs:
            inputs.append(p.parent)
        elif p.suffix != ".ann":
            inputs.append(p)  # a CoNLL file or a mention table: one annotator
    folders = list(dict.fromkeys(f.parent for f in ann))
    if len(folders) == 1 and len(inputs) == 1 and not picked_dirs:
        notes.append(
            f"All the .ann files are in one folder, {folders[0].name}: they are one annotator's "
            "documents. Add the folder of each other annotator (agreement needs two or more)."
        )
    else:
        for folder in folders:
            n_all = len(list(folder.glob("*.ann")))
            n_picked = sum(1 for f in ann if f.parent == folder)
            if n_picked < n_all and folder not in picked_dirs:
                notes.append(
                    f"{folder.name}: the whole folder is one annotator ({n_all} documents; "
                    f"{n_picked} picked)."
                )
    for folder in (p for p in inputs if p.is_dir()):
        for f in sorted(folder.iterdir()):
            if f.is_file() and not (
                _is_coref_file(f) or _brat_text(f) or _is_mention_table(f) or f.name.startswith(".")
            ):
                left.append(LeftOut(f, "not a coreference file (.ann, CoNLL or a mention table)"))
    return list(dict.fromkeys(inputs)), left, notes


def _arrange_durel(paths: Sequence[Path]) -> tuple[list[Path], list[LeftOut], list[str]]:
    from iaa_desktop.core.kinds.durel.reader import target_sets

    sets = target_sets(list(paths))
    used = {p for _t, j, u, i in sets for p in (j, u, i) if p is not None}
    used_dirs = {j.parent for _t, j, _u, _i in sets}
    left: list[LeftOut] = []
    for p in paths:
        if p.is_dir():
            for q in sorted(p.iterdir()):
                if q.is_dir() and q not in used_dirs and not q.name.startswith("."):
                    left.append(LeftOut(q, "no judgments file in it: not a target"))
                elif q.is_file() and q not in used and q.parent not in used_dirs:
                    left.append(LeftOut(q, "not in a target folder"))
                elif q.is_file() and q not in used and not q.name.startswith("."):
                    left.append(LeftOut(q, "not a judgments, uses or instances file"))
    notes = [f"{len(sets)} target{'s' if len(sets) != 1 else ''}: judgments and uses read together"]
    return list(paths), left, notes


def _arrange_tables(
    paths: Sequence[Path], expand_folder: Callable[[list[Path]], Iterable[Path]]
) -> tuple[list[Path], list[LeftOut], list[str]]:
    """Files as picked; a folder gives the files the kind's reader takes from it."""
    left: list[LeftOut] = []
    for p in paths:
        if p.is_dir():
            taken = set(expand_folder([p]))
            for q in sorted(p.iterdir()):
                if q.is_file() and q not in taken and (why := _own_or_hidden(q)) is not None:
                    if not q.name.startswith("."):
                        left.append(LeftOut(q, why))
                elif q.is_dir() and not q.name.startswith("."):
                    left.append(LeftOut(q, "a sub-folder: only the files in the folder are read"))
                elif q.is_file() and q not in taken and not q.name.startswith("."):
                    left.append(
                        LeftOut(q, "not read by this kind of study (not one of its tables)")
                    )
    return list(paths), left, []


def _table_files(paths: Sequence[Path]) -> list[Path]:
    out = []
    for p in paths:
        if p.is_dir():
            out.extend(
                sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in TABLE_SUFFIXES)
            )
        else:
            out.append(p)
    return out


def arrange(kind: str, paths: Sequence[Path]) -> tuple[list[Path], list[LeftOut], list[str]]:
    """The study's inputs for ``kind`` from the cleaned selection, the files left out, notes."""
    if kind == "coref" or (kind == "spans" and any(p.suffix in (".ann", ".txt") for p in paths)):
        return _arrange_coref(paths)  # brat: one folder per annotator
    if kind == "spans":
        return list(paths), [], []  # folders (a brat project: one sub-folder per annotator), tables
    if kind == "durel":
        return _arrange_durel(paths)
    if kind == "candidates":
        from iaa_desktop.core.kinds.candidates.reader import expand

        return _arrange_tables(paths, expand)
    if kind == "normalization":
        from iaa_desktop.core.kinds.normalization.reader import expand_inputs

        return _arrange_tables(paths, expand_inputs)
    return _arrange_tables(paths, _table_files)


# ------------------------------------------------------------------------------------- plan


def plan_import(
    selection: Sequence[str | Path],
    kind: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> ImportPlan:
    """The plan for opening ``selection`` as a study (reads the files: run it off the GUI thread).

    ``kind`` forces a kind (the user chose one in the dialog); the scores are shown anyway.
    """
    from iaa_desktop.core.study_survey import survey

    chosen = [Path(p) for p in selection]
    cleaned, left = _clean(chosen)
    candidates, scores, folder_note = detect(cleaned)
    detected, _ = _best(scores)
    name = kind or detected
    get_kind(name)  # an unknown kind is an error here, not in the worker
    inputs, more_left, notes = arrange(name, candidates)
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


__all__ = [
    "AnnotatorSource",
    "ImportPlan",
    "KindScore",
    "LeftOut",
    "Pairing",
    "Preview",
    "arrange",
    "detect",
    "plan_import",
    "why",
]

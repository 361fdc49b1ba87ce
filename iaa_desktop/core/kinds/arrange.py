"""Which of the files and folders a user picked are a kind's inputs, and why the others are not.

A kind's ``arrange(paths)`` gives an :data:`Arrangement`: the study's inputs, the files left out
(each with its reason) and notes for the import dialog. Two shapes serve every kind so far:

* :func:`arrange_tables`: the files as picked; a folder gives the files the kind's reader takes
  from it.
* :func:`arrange_annotator_folders`: one folder (or file) per annotator, as brat standoff keeps
  them. Files picked in several folders stand for their folders; files picked in one folder are
  *one* annotator's documents (never one annotator per document); a brat ``.txt`` is the text of
  the ``.ann`` beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from iaa_desktop.core.study_file import SUFFIX

TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".xlsx", ".xlsm")
#: files the application writes itself (stores, locks, temporary files): never inputs
OWN_FILES = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".lock", ".tmp")


@dataclass(frozen=True)
class LeftOut:
    """A file or folder of the selection that is not an input of the study, and why."""

    path: Path
    reason: str


#: the study's inputs, the files left out and notes
Arrangement = tuple[list[Path], list[LeftOut], list[str]]


def own_or_hidden(p: Path) -> str | None:
    """Why ``p`` is never an input (hidden, kept by the application, a study file), or None."""
    if p.name.startswith("."):
        return "a hidden file"
    if p.name.endswith(OWN_FILES):
        return "a file the application keeps (adjudication store, lock or temporary file)"
    if p.name.endswith(SUFFIX):
        return "a study file: open it with File → Open study"
    return None


def header(path: Path) -> str:
    """The column names of a table's first line, as shown (at most ten, then how many)."""
    from iaa_desktop.core.textio import read_head

    first = read_head(path, 4096).split("\n", 1)[0].rstrip("\r")
    sep = "\t" if "\t" in first else ","
    cols = [c.strip().strip('"') for c in first.split(sep)]
    shown = ", ".join(cols[:10])
    return shown + (f", … ({len(cols)} columns)" if len(cols) > 10 else "")


def is_mention_table(f: Path) -> bool:
    """A CSV or TSV table with ``begin`` and ``end`` columns (mentions or spans by offsets)."""
    if f.suffix.lower() not in (".csv", ".tsv"):
        return False
    cols = {c.strip().lower() for c in header(f).split(",")}
    return {"begin", "end"} <= cols


def brat_text(f: Path) -> bool:
    """A brat ``.txt``: the text of the ``.ann`` beside it."""
    return f.suffix == ".txt" and f.with_suffix(".ann").exists()


def table_files(paths: Sequence[Path]) -> list[Path]:
    """The files as picked; a folder gives its table files."""
    out = []
    for p in paths:
        if p.is_dir():
            out.extend(
                sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in TABLE_SUFFIXES)
            )
        else:
            out.append(p)
    return out


def arrange_tables(
    paths: Sequence[Path], expand_folder: Callable[[list[Path]], Sequence[Path]]
) -> Arrangement:
    """Files as picked; a folder gives the files the kind's reader takes from it."""
    left: list[LeftOut] = []
    for p in paths:
        if p.is_dir():
            taken = set(expand_folder([p]))
            for q in sorted(p.iterdir()):
                if q.is_file() and q not in taken and (why := own_or_hidden(q)) is not None:
                    if not q.name.startswith("."):
                        left.append(LeftOut(q, why))
                elif q.is_dir() and not q.name.startswith("."):
                    left.append(LeftOut(q, "a sub-folder: only the files in the folder are read"))
                elif q.is_file() and q not in taken and not q.name.startswith("."):
                    left.append(
                        LeftOut(q, "not read by this kind of study (not one of its tables)")
                    )
    return list(paths), left, []


def _has_files(folder: Path, accepts: Callable[[Path], bool]) -> bool:
    try:
        return any(f.is_file() and accepts(f) for f in folder.iterdir())
    except OSError:
        return False


def _notes_on_ann_files(ann: list[Path], inputs: list[Path], picked_dirs: list[Path]) -> list[str]:
    notes: list[str] = []
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
    return notes


def arrange_annotator_folders(
    paths: Sequence[Path], accepts: Callable[[Path], bool], file_kind: str, formats: str
) -> Arrangement:
    """One input per annotator, in the order picked: folders as given, ``.ann`` files stand for
    their folder, other files ``accepts`` takes (CoNLL files, mention tables) for themselves.
    ``file_kind`` (``"coreference"``) and ``formats`` (``".ann, CoNLL or a mention table"``) name
    the files a folder must hold in the reasons for leaving something out."""
    left: list[LeftOut] = []
    ann = [f for f in paths if f.is_file() and f.suffix == ".ann"]
    picked_dirs = [p for p in paths if p.is_dir()]
    inputs: list[Path] = []
    for p in paths:
        if p.is_dir() and _has_files(p, accepts):
            inputs.append(p)
        elif p.is_dir():
            left.append(LeftOut(p, f"no {file_kind} files in it ({formats})"))
        elif brat_text(p):
            left.append(LeftOut(p, f"the text of the brat document {p.stem}, read with its .ann"))
        elif p.suffix == ".ann" and p.parent not in inputs:
            inputs.append(p.parent)
        elif p.suffix != ".ann":
            inputs.append(p)  # a CoNLL file or a table: one annotator
    notes = _notes_on_ann_files(ann, inputs, picked_dirs)
    for folder in (p for p in inputs if p.is_dir()):
        for f in sorted(folder.iterdir()):
            if f.is_file() and not (accepts(f) or brat_text(f) or f.name.startswith(".")):
                left.append(LeftOut(f, f"not a {file_kind} file ({formats})"))
    return list(dict.fromkeys(inputs)), left, notes

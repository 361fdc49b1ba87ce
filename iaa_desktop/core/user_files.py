"""Where the application writes files the user did not name: the user's data folder.

Nothing is written inside the installed package or beside an example: an example study is opened
as a copy in the user's data folder (the copy, not the package, then holds its adjudication), and
the adjudication store of a study that was never saved goes to the data folder too, under a name
derived from the study's inputs so that the same inputs find the same store again.

The data folder itself is a parameter (the GUI passes Qt's ``AppDataLocation``; tests pass a
temporary folder), so this module stays free of Qt and of global state.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

#: sub-folders of the data folder
EXAMPLES = "examples"
ADJUDICATION = "adjudication"


def _is_within(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def is_example(path: str | Path, examples_root: str | Path) -> bool:
    """True when ``path`` lies inside the bundled examples folder ``examples_root``."""
    return Path(examples_root).is_dir() and _is_within(Path(path), Path(examples_root))


def example_copy(study_path: str | Path, examples_root: str | Path, data_dir: str | Path) -> Path:
    """The copy of a bundled example study in the user's data folder, made on first use.

    ``study_path`` is ``<examples_root>/<kind>/<name>.iaa-study``; the whole ``<kind>`` folder is
    copied to ``<data_dir>/examples/<kind>`` (files already there are kept, so an adjudication or
    an edit of the copy survives the next opening) and the copied study file is returned. A path
    outside ``examples_root`` is returned unchanged.
    """
    study_path, root = Path(study_path), Path(examples_root)
    if not is_example(study_path, root):
        return study_path
    rel = study_path.resolve().relative_to(root.resolve())
    source = root.resolve() / rel.parts[0]
    target = Path(data_dir) / EXAMPLES / rel.parts[0]
    for src in sorted(source.rglob("*")):
        dst = target / src.relative_to(source)
        if src.is_dir():
            dst.mkdir(parents=True, exist_ok=True)
        elif src.is_file() and not dst.exists():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)  # contents only: the package's modes (read-only) stay behind
    return target.joinpath(*rel.parts[1:])


def unsaved_store_path(
    inputs: Sequence[str | Path], kind: str | None, data_dir: str | Path
) -> Path:
    """The adjudication store of a study not saved yet: ``<data_dir>/adjudication/<name>-<hash>``.

    The name is readable (the first input's name) and the hash (of the kind and the resolved
    inputs) keeps two studies apart, while reopening the same inputs resumes the same store.
    """
    resolved = [str(Path(p).resolve()) for p in inputs]
    digest = hashlib.sha256("\n".join([kind or "", *resolved]).encode("utf-8")).hexdigest()[:10]
    first = Path(resolved[0]).stem if resolved else "study"
    slug = re.sub(r"[^\w.-]+", "_", first).strip("._")[:40] or "study"
    return Path(data_dir) / ADJUDICATION / f"{slug}-{digest}.adjudication.sqlite"


def start_folder(
    last_used: str | Path | None, documents: str | Path | None, *, avoid: Sequence[Path] = ()
) -> Path:
    """Where a save dialog starts: the folder last saved into, else the user's documents folder.

    A remembered folder that no longer exists, or that lies inside one of ``avoid`` (the bundled
    examples, the installed package), is skipped.
    """
    for candidate in (last_used, documents):
        if not candidate:
            continue
        p = Path(candidate)
        if p.is_dir() and not any(_is_within(p, a) for a in avoid if Path(a).exists()):
            return p
    return Path.home()


__all__ = ["example_copy", "is_example", "start_folder", "unsaved_store_path"]

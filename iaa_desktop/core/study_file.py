"""Study files: what the user opened and how, saved as JSON (``*.iaa-study``).

A study is its kind, its inputs and its options; results are always recomputed from the inputs.
Inputs are stored relative to the study file when they live beside or below it, so a folder
holding a study and its data can be moved or shared as a whole.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.io import write_text_atomic

FORMAT = "iaa-study"
VERSION = 1
SUFFIX = ".iaa-study"


@dataclass(frozen=True)
class Study:
    """A study: kind (``None`` = detect from the inputs), input paths and options."""

    inputs: tuple[Path, ...]
    kind: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    name: str = ""

    @property
    def title(self) -> str:
        if self.name:
            return self.name
        if len(self.inputs) == 1:
            return self.inputs[0].name
        if self.inputs:
            return f"{self.inputs[0].name} + {len(self.inputs) - 1} more"
        return "Untitled study"


def save_study(study: Study, path: str | Path) -> None:
    """Write the study as JSON, atomically."""
    path = Path(path)
    base = path.resolve().parent
    inputs = []
    for p in study.inputs:
        p = Path(p).resolve()
        try:
            rel = os.path.relpath(p, base)
            inputs.append(rel if not rel.startswith("..") or len(Path(rel).parts) <= 3 else str(p))
        except ValueError:  # another drive on Windows
            inputs.append(str(p))
    data = {
        "format": FORMAT,
        "version": VERSION,
        "name": study.name,
        "kind": study.kind,
        "inputs": inputs,
        "options": study.options,
    }
    write_text_atomic(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def load_study(path: str | Path) -> Study:
    """Read a study file; raises :class:`ReaderError` naming the file and the problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReaderError(path, None, "the study file does not exist.") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ReaderError(path, None, f"the study file cannot be read ({e}).") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReaderError(path, e.lineno, f"the study file is not valid JSON ({e.msg}).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReaderError(path, 1, "this is not an iaa_desktop study file.")
    if int(data.get("version", 0)) > VERSION:
        raise ReaderError(
            path, None, "the study file was written by a newer version of iaa_desktop."
        )
    inputs = data.get("inputs") or []
    if not isinstance(inputs, list) or not all(isinstance(i, str) for i in inputs):
        raise ReaderError(path, None, "'inputs' must be a list of paths.")
    base = path.resolve().parent
    resolved = tuple((base / i).resolve() if not Path(i).is_absolute() else Path(i) for i in inputs)
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ReaderError(path, None, "'options' must be an object.")
    return Study(resolved, data.get("kind") or None, options, str(data.get("name") or ""))


def is_study_file(path: str | Path) -> bool:
    return str(path).endswith(SUFFIX)

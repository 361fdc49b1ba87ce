"""Study files: what the user opened and how, saved as JSON (``*.iaa-study``).

A study is its kind, its inputs and its options; results are always recomputed from the inputs.
Inputs are stored relative to the study file when they live beside or below it, so a folder
holding a study and its data can be moved or shared as a whole.

A study file can come from anyone (a shared folder, an e-mail), so opening one must not read or
write anywhere its author chooses: :func:`check_study_paths` lists the inputs outside the study's
folder (``..``, absolute paths, symbolic links leading out), the special files among them (a
device such as ``/dev/zero`` or a pipe, always refused) and the options that name a folder to
write into; :func:`confine_study` applies what the user allowed (the GUI asks, the command line
has ``--allow-outside-inputs`` and ``--allow-study-outputs``).
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import OptionError, ReaderError, shown_path
from iaa_desktop.core.io import write_text_atomic
from iaa_desktop.core.textio import read_text

FORMAT = "iaa-study"
VERSION = 1
SUFFIX = ".iaa-study"
#: a study file is a few kilobytes; anything far larger is not one
MAX_STUDY_BYTES = 16 * 1024 * 1024
#: every option that names a file or folder: ``"in"`` = read as an input, ``"out"`` = a folder
#: written into (the model cache is read and written)
PATH_OPTIONS: dict[str, str] = {"texts": "in", "iaa_dir": "out", "model_cache": "out"}
#: entries of input folders looked at for links leading out of the study's folder
MAX_WALKED = 100_000


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


class _TooLong(ValueError):
    def __init__(self, digits: str) -> None:
        super().__init__("number too long")
        self.digits = digits


def _small_int(digits: str) -> int:
    """JSON integers of a study file (a few digits; thousands are refused before ``int``)."""
    if len(digits.lstrip("-")) > 18:
        raise _TooLong(digits)
    return int(digits)


#: longest path and path component a study may name (what common file systems allow)
MAX_PATH_CHARS, MAX_NAME_CHARS = 4096, 255


def _check_path_length(path: Path, text: str, value: str) -> None:
    """A ReaderError at the line of an input path no file system can hold."""
    if "\x00" in value:
        at = text.find("\\u0000")
        line = text[:at].count("\n") + 1 if at >= 0 else None
        raise ReaderError(path, line, "an input path holds a NUL character; no file has one.")
    longest = max((len(part) for part in Path(value).parts), default=0)
    if len(value) <= MAX_PATH_CHARS and longest <= MAX_NAME_CHARS:
        return
    at = text.find(value[:40])
    line = text[:at].count("\n") + 1 if at >= 0 else None
    raise ReaderError(
        path,
        line,
        f"an input path of {len(value):,} characters (a name of {longest:,}) is longer than a "
        "file system allows.",
    )


def _line_of(text: str, value: str) -> int | None:
    """The line of the study file where ``value`` is written a second time, if found."""
    quoted = json.dumps(value)
    first = text.find(quoted)
    second = text.find(quoted, first + 1) if first >= 0 else -1
    return text.count("\n", 0, second) + 1 if second >= 0 else None


def load_study(path: str | Path) -> Study:
    """Read a study file; raises :class:`ReaderError` naming the file and the problem."""
    path = Path(path)
    if not path.exists():
        raise ReaderError(path, None, "the study file does not exist.")
    text = read_text(path, max_bytes=MAX_STUDY_BYTES)
    try:
        data = json.loads(text, parse_int=_small_int)
    except json.JSONDecodeError as e:
        raise ReaderError(path, e.lineno, f"the study file is not valid JSON ({e.msg}).") from None
    except _TooLong as e:
        line = text[: text.find(e.digits)].count("\n") + 1
        raise ReaderError(path, line, "a number in the study file is far too long.") from None
    except RecursionError:
        raise ReaderError(path, None, "the study file is nested too deeply to be one.") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReaderError(path, 1, "this is not an iaa_desktop study file.")
    version = data.get("version", 0)
    if not isinstance(version, int) or isinstance(version, bool):
        raise ReaderError(path, None, "'version' must be a whole number.")
    if version > VERSION:
        raise ReaderError(
            path, None, "the study file was written by a newer version of iaa_desktop."
        )
    inputs = data.get("inputs") or []
    if not isinstance(inputs, list) or not all(isinstance(i, str) for i in inputs):
        raise ReaderError(path, None, "'inputs' must be a list of paths.")
    for i in inputs:
        _check_path_length(path, text, i)
    base = path.resolve().parent
    resolved = tuple((base / i).resolve() if not Path(i).is_absolute() else Path(i) for i in inputs)
    seen: set[Path] = set()
    for given, p in zip(inputs, resolved):
        if p in seen:  # read twice, an annotator would count twice (and 5,000 times, for hours)
            raise ReaderError(
                path,
                _line_of(text, given),
                f"the input '{given}' is listed twice; list each input once.",
            )
        seen.add(p)
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ReaderError(path, None, "'options' must be an object.")
    kind = data.get("kind") or None
    if kind is not None and not isinstance(kind, str):
        raise ReaderError(path, None, "'kind' must be the name of a kind of study.")
    return Study(resolved, kind, options, str(data.get("name") or ""))


def is_study_file(path: str | Path) -> bool:
    return str(path).endswith(SUFFIX)


@dataclass(frozen=True)
class StudyPaths:
    """What a study file asks to read and write beyond its own folder."""

    folder: Path
    #: inputs (and input options) that are not below the study's folder
    outside: tuple[Path, ...] = ()
    #: inputs that are devices, pipes or sockets: refused whatever the user allows
    special: tuple[Path, ...] = ()
    #: options that name a folder to write into, as the file gives them
    outputs: dict[str, str] = field(default_factory=dict)
    #: the study file (named by a problem with a path it gives that lies outside its folder)
    study_file: Path | None = None

    @property
    def needs_confirmation(self) -> bool:
        return bool(self.outside or self.outputs)

    def describe(self) -> str:
        """The paths in a few lines for a message or a dialog."""
        parts = []
        if self.outside:
            shown = "\n".join(f"  {p}" for p in self.outside[:10])
            more = f"\n  … and {len(self.outside) - 10} more" if len(self.outside) > 10 else ""
            parts.append(f"It reads files outside its folder {self.folder}:\n{shown}{more}")
        if self.outputs:
            shown = "\n".join(f"  {k}: {v}" for k, v in self.outputs.items())
            parts.append(f"It writes into folders it names:\n{shown}")
        return "\n".join(parts)


def _below(p: Path, folder: Path) -> bool:
    try:
        p.resolve().relative_to(folder)
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def _is_special(p: Path) -> bool:
    try:
        mode = os.stat(p).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _links_in(folder: Path) -> list[tuple[Path, Path]]:
    """The symbolic links inside an input folder, each with where it points (where it is read)."""
    links: list[tuple[Path, Path]] = []
    walked = 0
    for root, dirs, names in os.walk(folder):
        for name in (*dirs, *names):
            p = Path(root) / name
            if p.is_symlink():
                try:
                    links.append((p, p.resolve()))  # shown and judged where it points
                except (OSError, RuntimeError):  # a loop of links: reads nothing, still refused
                    links.append((p, p))
        walked += len(dirs) + len(names)
        if walked > MAX_WALKED:
            break
    return links


def check_study_paths(study: Study, study_path: str | Path) -> StudyPaths:
    """The inputs outside the study's folder (links, also inside input folders, judged by
    where they point), the special files and the output options."""
    folder = Path(study_path).resolve().parent
    paths = list(study.inputs)
    outputs: dict[str, str] = {}
    for key, role in PATH_OPTIONS.items():
        value = study.options.get(key)
        if not value:
            continue
        if role == "out":
            outputs[key] = str(value)
        else:
            v = Path(str(value))
            paths.append(v if v.is_absolute() else folder / v)
    links: list[Path] = []  # a link to a special file is named by the link, in the folder
    for p in list(paths):
        if Path(p).is_dir() and _below(Path(p), folder):
            for link, target in _links_in(Path(p)):
                paths.append(target)
                links.append(link)
    outside = tuple(Path(p) for p in paths if not _below(Path(p), folder))
    special = tuple(Path(p) for p in [*study.inputs, *links] if _is_special(Path(p))) or tuple(
        Path(p) for p in paths if _is_special(Path(p))
    )
    return StudyPaths(folder, outside, special, outputs, Path(study_path))


def confine_study(
    study: Study, paths: StudyPaths, allow_outside: bool = False, allow_outputs: bool = False
) -> tuple[Study, list[str]]:
    """The study as the user allowed it, and notes on what was left out.

    Raises :class:`~iaa_desktop.core.errors.ReaderError` for a special file among the inputs and
    :class:`~iaa_desktop.core.errors.OptionError` for inputs outside the folder not allowed.
    """
    if paths.special:
        first = paths.special[0]
        # a link inside the study's folder is named by the link (it is the file at fault), a
        # path the study file gives elsewhere by the study file
        inside = Path(os.path.abspath(first)).is_relative_to(paths.folder)
        if paths.study_file is not None and not inside and not _below(first, paths.folder):
            raise ReaderError(  # a path the study file gives: the study file is at fault
                paths.study_file,
                None,
                f"the study names a device, pipe or socket as an input ({shown_path(first)}); "
                "refused.",
            )
        raise ReaderError(
            first,
            None,
            "the study names a device, pipe or socket (or a link to one) as an input; refused.",
        )
    if paths.outside and not allow_outside:
        raise OptionError(
            "The study file reads files outside its folder; open it only if you trust it "
            "(command line: --allow-outside-inputs).\n" + paths.describe()
        )
    notes: list[str] = []
    options = dict(study.options)
    if paths.outputs and not allow_outputs:
        for key, value in paths.outputs.items():
            options.pop(key, None)
            notes.append(
                f"the study file asks to write into {value} ({key}); not done without your "
                "consent (command line: --allow-study-outputs)."
            )
    if study.options.get("texts"):
        v = Path(str(study.options["texts"]))
        options["texts"] = str(v if v.is_absolute() else paths.folder / v)
    return replace(study, options=options), notes

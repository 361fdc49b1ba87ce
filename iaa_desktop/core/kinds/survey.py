"""What the import dialog shows of a kind's inputs before anything is computed.

Each kind's ``survey(inputs, options)`` reads its inputs with its own reader (so the names and
items shown are the ones the computation will use) and returns a :class:`Survey`: the
annotators and where they come from, which documents (targets, texts) pair up, a preview of the
first items and the reading problems. The helpers below format its cells alike for every kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

N_PREVIEW = 8  # items in the preview
MAX_CELL = 60  # characters of a text shown in a preview cell
MAX_PROBLEMS = 20


@dataclass(frozen=True)
class AnnotatorSource:
    """One annotator as found in the inputs: its name there and where its annotations come from."""

    name: str
    source: str
    detail: str = ""


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
class Survey:
    """A kind's reading of its inputs for the import dialog (see the module docstring)."""

    annotators: tuple[AnnotatorSource, ...]
    preview: Preview
    problems: tuple[str, ...] = ()
    pairing: Pairing | None = None
    notes: tuple[str, ...] = ()


def cell(value: Any) -> str:
    """``value`` as one line of at most :data:`MAX_CELL` characters."""
    text = "" if value is None else str(value)
    text = " ".join(text.split())
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def problems(errors: Sequence[Any]) -> tuple[str, ...]:
    """The first :data:`MAX_PROBLEMS` reading problems, and how many more there are."""
    shown = tuple(str(e) for e in list(errors)[:MAX_PROBLEMS])
    if len(errors) > MAX_PROBLEMS:
        shown += (f"… and {len(errors) - MAX_PROBLEMS} more problems",)
    return shown


def source(path: Path) -> str:
    """An input as shown: folders end with a slash."""
    return str(path) + ("/" if path.is_dir() else "")


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def documents_survey(
    by_annotator: dict[str, dict[str, Any]],
    sources: dict[str, str],
    count: Any,
    caption: str,
    errors: Sequence[Any],
) -> Survey:
    """The survey of annotators' documents (coreference, spans): who has which document, and
    ``count(document)`` (e.g. "3 mentions, 1 chain") for each annotator's first documents."""
    names = tuple(by_annotator)
    docs = sorted(set().union(*(set(d) for d in by_annotator.values()))) if names else []
    annotators = tuple(
        AnnotatorSource(n, sources[n], plural(len(d), "document")) for n, d in by_annotator.items()
    )
    rows = tuple((doc, tuple(doc in by_annotator[a] for a in names)) for doc in docs)
    cells = []
    for doc in docs[:N_PREVIEW]:
        row = [doc]
        for a in names:
            d = by_annotator[a].get(doc)
            row.append(count(d) if d is not None else "—")
        cells.append(tuple(row))
    return Survey(
        annotators=annotators,
        pairing=Pairing("document", names, rows),
        preview=Preview(("document", *names), tuple(cells), caption),
        problems=problems(errors),
    )

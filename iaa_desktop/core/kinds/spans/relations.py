"""Relations between spans: directed, labelled links read with the spans of a document.

A relation is kept by the *offsets* of its two arguments (their fragments), not by the ids the
file gives them, so that two annotators' relations compare whatever ids and span labels their
files use. Formats:

* **brat standoff** (`brat annotation data format
  <https://brat.nlplab.org/standoff.html>`_): ``R1<TAB>Label Arg1:T1 Arg2:T2`` is a relation from
  ``Arg1`` to ``Arg2``. On request (the ``relations_from`` setting) also an event's arguments
  ``E1<TAB>Type:T5 Role:T2 …`` (a link from the trigger ``T5`` to each argument, labelled with its
  role, a trailing number dropped: ``Theme2`` → ``Theme``; an argument that is an event stands for
  its trigger) and equivalences ``*<TAB>Label T1 T2 T3`` (a link from each span to the next in
  text order).
* **WebAnno / INCEpTION TSV 3.x and UIMA CAS XMI**: the relation layers (``#T_RL=``), from the
  governor (the ``BT_`` column) to the dependent (the row the relation is on), labelled by the
  first feature with a value.
* **Label Studio JSON**: ``relation`` results, ``from_id`` → ``to_id`` (reversed for
  ``"direction": "left"``; ``"bi"`` is read as ``from_id`` → ``to_id``), labelled by their
  ``labels`` (one relation per label; ``*`` without).

A relation whose argument is not a span of its document is a problem at its file and line, and is
left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from iaa_desktop.core.errors import ReaderError

Fragments = tuple[tuple[int, int], ...]
#: which brat lines give relations: ``R`` lines; also event arguments; also equivalences
RelationsFrom = Literal["R", "R+E", "R+E+*"]
RELATIONS_FROM: tuple[RelationsFrom, ...] = get_args(RelationsFrom)
NO_LABEL = "*"
_ROLE_NUMBER = re.compile(r"\d+$")


@dataclass(frozen=True, slots=True)
class Relation:
    """A directed, labelled relation from the span at ``source`` to the span at ``target``."""

    label: str
    source: Fragments
    target: Fragments

    def encode(self) -> str:
        """``LABEL s-e[,s-e…]>s-e[,s-e…]``: the canonical text of a relation."""

        def frags(f: Fragments) -> str:
            return ",".join(f"{s}-{e}" for s, e in f)

        return f"{self.label} {frags(self.source)}>{frags(self.target)}"

    @classmethod
    def decode(cls, text: str) -> Relation:
        label, _, args = text.strip().rpartition(" ")
        src, _, tgt = args.partition(">")

        def frags(part: str) -> Fragments:
            out = []
            for f in part.split(","):
                s, _, e = f.partition("-")
                out.append((int(s), int(e)))
            return tuple(sorted(out))

        if not label or not src or not tgt:
            raise ValueError(text)
        return cls(label, frags(src), frags(tgt))


# ------------------------------------------------------------------------------------- brat


def brat_relation_line(line: str) -> bool:
    """Whether a line of a ``.ann`` file may give relations (``R``, ``E`` or ``*``)."""
    return line[:1] in ("R", "E", "*")


def _r_line(fields: list[str]) -> tuple[str, str, str] | None:
    """(label, Arg1 id, Arg2 id) of the fields of an ``R`` line, or None when malformed."""
    args = dict(f.split(":", 1) for f in fields[1:] if ":" in f)
    if len(fields) < 3 or not {"Arg1", "Arg2"} <= set(args):
        return None
    return fields[0], args["Arg1"], args["Arg2"]


def _e_line(fields: list[str]) -> list[tuple[str, str, str]] | None:
    """(role, trigger id, argument id) of each argument of an ``E`` line (None: malformed)."""
    if not fields or ":" not in fields[0]:
        return None
    trigger = fields[0].split(":", 1)[1]
    out = []
    for f in fields[1:]:
        role, _, ref = f.partition(":")
        out.append((_ROLE_NUMBER.sub("", role) or role, trigger, ref))
    return out


_MALFORMED = {
    "R": "an R line must read 'R<n><TAB><type> Arg1:<id> Arg2:<id>'; line left out.",
    "E": "an E line must read 'E<n><TAB><type>:<trigger> <role>:<id> …'; line left out.",
    "*": "an equivalence line must read '*<TAB><type> <id> <id>…'; line left out.",
}


def _links(line: str, relations_from: str) -> list[tuple[str, str, str]] | None:
    """(label, source id, target id) of one ``R``/``E``/``*`` line (none of a kind of line not
    asked for; None when malformed)."""
    fields = line.partition("\t")[2].split()
    if line.startswith("R"):
        one = _r_line(fields)
        return None if one is None else [one]
    if line.startswith("E"):
        if "E" not in relations_from:
            return []
        found = _e_line(fields)
        return None if found is None else [(role, t, a) for role, t, a in found]
    if "*" not in relations_from:
        return []
    if len(fields) < 3:
        return None
    # a link from each member to the next in text order: resolved by the caller
    return [(fields[0], a, b) for a, b in zip(fields[1:], fields[2:])]


def brat_relations(
    path: Path | str,
    lines: Iterable[tuple[int, str]],
    ids: Mapping[str, Fragments],
    relations_from: str = "R",
) -> tuple[list[Relation], list[int], list[ReaderError]]:
    """The relations of the ``R``/``E``/``*`` ``lines`` (number, text) of one ``.ann`` file,
    ``ids`` its text-bound annotations (``T`` id → fragments); their line numbers; problems."""
    out: list[Relation] = []
    where: list[int] = []
    errors: list[ReaderError] = []
    lines = list(lines)
    # an event argument may name another event, which stands for its trigger
    triggers: dict[str, str] = {}
    for _lineno, line in lines:
        head = line.partition("\t")[2].split()[:1]
        if line.startswith("E") and head and ":" in head[0]:
            triggers[line.partition("\t")[0].strip()] = head[0].split(":", 1)[1]
    for lineno, line in lines:
        rid = line.partition("\t")[0].strip()
        links = _links(line, relations_from)
        if links is None:
            errors.append(ReaderError(path, lineno, _MALFORMED[line[0]]))
            continue
        if line.startswith("*") and links:
            refs = [links[0][1], *(b for _, _, b in links)]
            bad = [r for r in refs if ids.get(triggers.get(r, r)) is None]
            if not bad:  # members in text order
                members = sorted(ids[triggers.get(r, r)] for r in refs)
                for a, b in zip(members, members[1:]):
                    out.append(Relation(links[0][0], a, b))
                    where.append(lineno)
                continue
            links = [(links[0][0], bad[0], bad[0])]
        for label, source, target in links:
            src, tgt = ids.get(triggers.get(source, source)), ids.get(triggers.get(target, target))
            if src is None or tgt is None:
                ref = source if src is None else target
                errors.append(
                    ReaderError(
                        path,
                        lineno,
                        f"relation {rid}: argument {ref} is not a text-bound annotation of this "
                        "file (missing or left out); relation left out.",
                    )
                )
                continue
            out.append(Relation(label, src, tgt))
            where.append(lineno)
    return out, where, errors


# ------------------------------------------------------------------------ neutral documents


def linked(
    relations: Iterable[tuple[str, str, str | None, int | None]],
    ids: Mapping[str, Fragments],
    path: Path | str,
) -> tuple[list[Relation], list[int | None], list[ReaderError]]:
    """Relations given as (source id, target id, label, line) over the spans ``ids`` (id →
    fragments) of one document: the relations, their lines, and a problem per missing argument."""
    out: list[Relation] = []
    where: list[int | None] = []
    errors: list[ReaderError] = []
    for source, target, label, line in relations:
        src, tgt = ids.get(source), ids.get(target)
        if src is None or tgt is None:
            ref = source if src is None else target
            errors.append(
                ReaderError(
                    path,
                    line,
                    f"relation {source} → {target}: argument {ref} is not a span of the "
                    "document; relation left out.",
                )
            )
            continue
        out.append(Relation(label or NO_LABEL, src, tgt))
        where.append(line)
    return out, where, errors


def label_studio_relations(
    results: Iterable[object],
) -> list[tuple[str, str, str | None]]:
    """(from id, to id, label) of the ``relation`` results of one Label Studio annotation."""
    out: list[tuple[str, str, str | None]] = []
    for r in results:
        if not isinstance(r, dict) or r.get("type") != "relation":
            continue
        a, b = r.get("from_id"), r.get("to_id")
        if a is None or b is None:
            continue
        src, tgt = (str(b), str(a)) if r.get("direction") == "left" else (str(a), str(b))
        labels = r.get("labels") or [None]
        if not isinstance(labels, list):
            labels = [labels]
        for label in labels:
            out.append((src, tgt, None if label is None else str(label)))
    return out


def label_studio_links(data: object) -> dict[tuple[str, str], list[tuple[str, str, str | None]]]:
    """(task id, annotator) → the (from id, to id, label) links of the ``relation`` results of a
    parsed Label Studio export, tasks and annotators named as the Label Studio parser names them."""
    from iaa_desktop.core.formats.jsonio import scalar_text
    from iaa_desktop.core.formats.label_studio import annotator_name

    out: dict[tuple[str, str], list[tuple[str, str, str | None]]] = {}
    tasks = [data] if isinstance(data, dict) else data if isinstance(data, list) else []
    for t_index, task in enumerate(tasks, start=1):
        if not isinstance(task, dict):
            continue
        item = scalar_text(task.get("id", t_index))
        for ann in task.get("annotations", task.get("completions")) or []:
            if not isinstance(ann, dict) or ann.get("was_cancelled"):
                continue
            results = ann.get("result")
            found = label_studio_relations(results if isinstance(results, list) else [])
            if found:
                who = annotator_name(ann.get("completed_by"))
                out.setdefault((item, who), []).extend(found)
    return out

"""The annotators, the pairing and a preview of an :class:`~iaa_desktop.core.study_import.ImportPlan`.

Each kind's own reader reads the inputs (so the names and items shown are the ones the
computation will use); nothing is computed. A kind without a survey here (a kind added later)
gets none: its annotators are found when the study is computed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.kinds.spec import resolve_options, unique_name
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.core.study_import import AnnotatorSource, ImportPlan, Pairing, Preview

N_PREVIEW = 8  # items in the preview
MAX_CELL = 60  # characters of a text shown in a preview cell
MAX_PROBLEMS = 20


def _cell(value: Any) -> str:
    text = "" if value is None else str(value)
    text = " ".join(text.split())
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def _problems(errors: Sequence[Any]) -> tuple[str, ...]:
    shown = tuple(str(e) for e in list(errors)[:MAX_PROBLEMS])
    if len(errors) > MAX_PROBLEMS:
        shown += (f"… and {len(errors) - MAX_PROBLEMS} more problems",)
    return shown


def _source(path: Path) -> str:
    return str(path) + ("/" if path.is_dir() else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ------------------------------------------------------------------------------ per kind


def _coref(plan: ImportPlan, opts: dict[str, Any]) -> ImportPlan:
    from iaa_desktop.core.kinds.coref.compare import read_annotators

    errors: list[Any] = []
    by_annotator, inputs = run_to_end(read_annotators(list(plan.inputs), opts, errors))
    sources = {n: _source(p) if p else "a project export" for n, p in inputs.items()}
    names = tuple(by_annotator)
    docs = sorted(set().union(*(set(d) for d in by_annotator.values()))) if names else []
    annotators = tuple(
        AnnotatorSource(n, sources[n], _plural(len(d), "document")) for n, d in by_annotator.items()
    )
    rows = tuple((doc, tuple(doc in by_annotator[a] for a in names)) for doc in docs)
    cells = []
    for doc in docs[:N_PREVIEW]:
        row = [doc]
        for a in names:
            d = by_annotator[a].get(doc)
            row.append(
                f"{_plural(len(d.mentions), 'mention')}, {_plural(len(d.classes), 'chain')}"
                if d is not None
                else "—"
            )
        cells.append(tuple(row))
    notes = list(plan.notes)
    if names and all(len(d) == 1 for d in by_annotator.values()) and len(docs) > 1:
        notes.append("Each annotator has one document: they are compared with each other.")
    return replace(
        plan,
        annotators=annotators,
        pairing=Pairing("document", names, rows),
        preview=Preview(("document", *names), tuple(cells), "mentions and chains per document"),
        notes=tuple(notes),
        problems=_problems(errors),
    )


def _table(plan: ImportPlan, opts: dict[str, Any]) -> ImportPlan:
    from iaa_desktop.core.kinds.table.reader import FILE, ColumnRoles, read_judgments

    def split(v: Any) -> tuple[str, ...]:
        return tuple(c.strip() for c in str(v or "").split(",") if c.strip())

    roles = ColumnRoles(
        item=split(opts.get("item")),
        annotator=opts.get("annotator") or None,
        label=opts.get("label") or None,
        group_by=opts.get("group_by") or None,
        metadata=split(opts.get("metadata")),
    )
    j = read_judgments(list(plan.inputs), roles)
    frame = j.frame
    items = list(j.item_columns)
    annotators = []
    for name, rows in frame.groupby("annotator", sort=False):
        files = sorted({Path(f).name for f in rows[FILE]})
        how = {"per-annotator": "the file", "wide": "a column of"}.get(
            j.layout, "the annotator column of"
        )
        annotators.append(
            AnnotatorSource(str(name), f"{how} {', '.join(files)}", _plural(len(rows), "judgment"))
        )
    names = tuple(a.name for a in annotators)
    first = frame.drop_duplicates(items).head(N_PREVIEW)[items]
    head = frame.merge(first, on=items)
    cells = []
    for key, rows in head.groupby(items, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        by = dict(zip(rows["annotator"].astype(str), rows["label"]))
        cells.append(tuple([_cell(", ".join(map(str, key)))] + [_cell(by.get(a)) for a in names]))
    caption = f"{j.layout} table; items identified by {', '.join(items)}"
    return replace(
        plan,
        annotators=tuple(annotators),
        preview=Preview(("item", *names), tuple(cells), caption),
        problems=_problems(j.errors),
    )


def _durel(plan: ImportPlan, opts: dict[str, Any]) -> ImportPlan:
    from iaa_desktop.core.kinds.durel.reader import Scale, read_durel

    cant = tuple(s.strip() for s in str(opts.get("cant_decide") or "").split(",") if s.strip())
    data = read_durel(
        list(plan.inputs), Scale(float(opts["scale_low"]), float(opts["scale_high"]), cant)
    )
    j = data.judgments
    names = tuple(str(a) for a in dict.fromkeys(j["annotator"]))
    annotators = tuple(
        AnnotatorSource(
            a,
            "the annotator column of the judgments",
            f"{_plural(int((j['annotator'] == a).sum()), 'judgment')} in "
            f"{_plural(j.loc[j['annotator'] == a, 'target'].nunique(), 'target')}",
        )
        for a in names
    )
    rows = tuple(
        (t, tuple(bool(((j["target"] == t) & (j["annotator"] == a)).any()) for a in names))
        for t in data.targets
    )
    pairs = j.drop_duplicates(["target", "id1", "id2"]).head(N_PREVIEW)
    cells = []
    for _, pr in pairs.iterrows():
        sel = j[(j["target"] == pr["target"]) & (j["id1"] == pr["id1"]) & (j["id2"] == pr["id2"])]
        by = dict(zip(sel["annotator"].astype(str), sel["raw"]))
        cells.append(
            (_cell(pr["target"]), _cell(f"{pr['id1']} – {pr['id2']}"))
            + tuple(_cell(by.get(a, "")) for a in names)
        )
    return replace(
        plan,
        annotators=annotators,
        pairing=Pairing("target", names, rows),
        preview=Preview(
            ("target", "pair", *names), tuple(cells), "judgments (1–4; 0 or - = can't decide)"
        ),
        problems=_problems(list(data.errors) + list(data.warnings)),
    )


def _candidates(plan: ImportPlan, opts: dict[str, Any]) -> ImportPlan:
    from iaa_desktop.core.kinds.candidates.reader import read_candidates

    data = read_candidates(list(plan.inputs))
    labels = data.labels
    src = data.labels_path.name if data.labels_path else "the labels"
    annotators = tuple(
        AnnotatorSource(a, f"labels in {src}", _plural(int((labels[a] != "").sum()), "label"))
        for a in data.annotators
    )
    cells = [
        (_cell(pid), *(_cell(row[a]) for a in data.annotators))
        for pid, row in labels.head(N_PREVIEW).iterrows()
    ]
    pairs_name = data.pairs_path.name if data.pairs_path else "?"
    return replace(
        plan,
        annotators=annotators,
        preview=Preview(
            ("pair", *data.annotators), tuple(cells), f"{len(data.pairs)} pairs in {pairs_name}"
        ),
        problems=_problems(list(data.errors) + list(data.warnings)),
    )


def _multilabel(plan: ImportPlan, opts: dict[str, Any]) -> ImportPlan:
    from iaa_desktop.core.kinds.multilabel.reader import read_multilabel

    texts = str(opts.get("texts") or "").strip()
    data = read_multilabel(
        list(plan.inputs),
        labels=[s.strip() for s in str(opts.get("labels") or "").split(",") if s.strip()] or None,
        delimiter=str(opts.get("label_delimiter") or ";"),
        texts=Path(texts) if texts else None,
    )
    k = data.k

    def label_set(code: int) -> str:
        if code < 0:
            return "—"
        chosen = [lab for i, lab in enumerate(data.labels) if (code >> (k - 1 - i)) & 1]
        return "; ".join(chosen) or "(none)"

    annotators = tuple(
        AnnotatorSource(
            a, f"the {data.layout} table", _plural(int((data.codes[:, x] >= 0).sum()), "item")
        )
        for x, a in enumerate(data.annotators)
    )
    cells = [
        (_cell(data.items[i]), _cell(data.texts[i] if i < len(data.texts) else ""))
        + tuple(label_set(int(c)) for c in data.codes[i])
        for i in range(min(N_PREVIEW, len(data.items)))
    ]
    return replace(
        plan,
        annotators=annotators,
        preview=Preview(
            ("item", "text", *data.annotators), tuple(cells), f"labels: {', '.join(data.labels)}"
        ),
        problems=_problems(list(data.errors) + list(data.warnings)),
    )


def _normalization(plan: ImportPlan, opts: dict[str, Any]) -> ImportPlan:
    from iaa_desktop.core.kinds.normalization.reader import read_normalization

    data = read_normalization(list(plan.inputs))
    sources = data.sources or ("",) * len(data.annotators)
    annotators = tuple(
        AnnotatorSource(a, Path(s).name if s else "", _plural(data.n_tokens, "token"))
        for a, s in zip(data.annotators, sources)
    )
    texts = tuple(dict.fromkeys(data.text_ids))
    rows = tuple((t, (True,) * len(data.annotators)) for t in texts)
    cells = [
        (_cell(data.text_ids[i]), _cell(data.orig[i])) + tuple(_cell(v) for v in data.norm[i])
        for i in range(min(N_PREVIEW, data.n_tokens))
    ]
    return replace(
        plan,
        annotators=annotators,
        pairing=Pairing("text", data.annotators, rows),
        preview=Preview(
            ("text", "historical form", *data.annotators), tuple(cells), "normalizations"
        ),
        problems=_problems(list(data.errors) + list(data.warnings)),
    )


def _spans(plan: ImportPlan, opts: dict[str, Any]) -> ImportPlan:
    from iaa_desktop.core.kinds.spans.loading import read_input

    errors: list[Any] = []
    by_annotator: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    for p in plan.inputs:
        for who, docs in read_input(Path(p), opts, errors).items():
            name = unique_name(who, by_annotator)  # the kind's own rule
            by_annotator[name] = docs
            sources[name] = _source(Path(p))
    names = tuple(by_annotator)
    doc_names = sorted(set().union(*(set(d) for d in by_annotator.values()))) if names else []
    annotators = tuple(
        AnnotatorSource(n, sources[n], _plural(len(d), "document")) for n, d in by_annotator.items()
    )
    rows = tuple((doc, tuple(doc in by_annotator[a] for a in names)) for doc in doc_names)
    cells = [
        (doc,)
        + tuple(
            _plural(len(by_annotator[a][doc].spans), "span") if doc in by_annotator[a] else "—"
            for a in names
        )
        for doc in doc_names[:N_PREVIEW]
    ]
    return replace(
        plan,
        annotators=tuple(a for a in annotators if by_annotator[a.name]),
        pairing=Pairing("document", names, rows),
        preview=Preview(("document", *names), tuple(cells), "labelled spans per document"),
        problems=_problems(errors),
    )


SURVEYS: dict[str, Callable[[ImportPlan, dict[str, Any]], ImportPlan]] = {
    "spans": _spans,
    "coref": _coref,
    "table": _table,
    "durel": _durel,
    "candidates": _candidates,
    "multilabel": _multilabel,
    "normalization": _normalization,
}


def survey(plan: ImportPlan) -> ImportPlan:
    """``plan`` with its annotators, pairing, preview and reading problems filled in."""
    fn = SURVEYS.get(plan.kind)
    if fn is None or not plan.inputs:
        note = "The annotators are found when the study is computed."
        return replace(plan, notes=(*plan.notes, note)) if plan.inputs else plan
    try:
        opts = resolve_options(get_kind(plan.kind).settings, plan.options)
        return fn(plan, opts)
    except IaaError as e:  # unreadable as this kind: say so; the user may choose another kind
        return replace(plan, problems=(*plan.problems, str(e)))

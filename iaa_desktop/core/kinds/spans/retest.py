"""Test–retest agreement in a span study, per token: an annotator who annotated a task of a Label
Studio JSON export more than once (several annotations with the same ``completed_by``) has
occasions, told apart by the annotations' ``created_at`` ("Label Studio JSON format of annotated
tasks", labelstud.io/guide/task_format; file order where equal or absent). Each occasion's
annotation codes the tokens of the document as the token-level coefficients do (the label of the
span covering a token, or none), and the occasions stand in for annotators
(:func:`iaa_desktop.core.kinds.annotators.batches.retest`). Every other figure keeps the
annotator's first annotation of the task in the file, as without the option.

No other format holds an annotator's repeated annotations of a document: the option is refused
for them, naming the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.formats.jsonio import scalar_text
from iaa_desktop.core.kinds.annotators.batches import retest
from iaa_desktop.core.kinds.spans.corpus import SpanCorpus, build_corpus
from iaa_desktop.core.kinds.spans.measures import unit_code_matrix
from iaa_desktop.core.kinds.spans.readers import SpanDocument
from iaa_desktop.core.metrics import spans as S
from iaa_desktop.core.metrics.suite import CodedOptions

__all__ = ["OCCASIONS", "check_occasions", "label_studio_occasions", "token_retest"]

#: the key of a document's occasions (its annotator's annotations of it, in the order of their
#: creation) in :attr:`SpanDocument.meta`; only where there are two or more
OCCASIONS = "occasions"


def label_studio_occasions(
    data: Any, path: Path, meta: Mapping[str, Any], span_document: Any
) -> dict[tuple[str, str], list[SpanDocument]]:
    """(task id, annotator) → the annotator's annotations of the task, each as the document it
    makes (parsed alone by the export's own parser), in the order of their ``created_at`` (file
    order where equal or absent); only where there are two or more. ``span_document``: the
    Label Studio reader's maker of a document (passed in: the reader imports this module)."""
    from iaa_desktop.core.formats import label_studio

    tasks = data if isinstance(data, list) else [data]
    found: dict[tuple[str, str], list[tuple[Any, dict[str, Any], dict[str, Any]]]] = {}
    for t_index, task in enumerate(tasks, start=1):
        if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
            continue
        item = scalar_text(task.get("id", t_index))
        for ann in task.get("annotations", task.get("completions")) or []:
            if not isinstance(ann, dict) or ann.get("was_cancelled"):
                continue
            who = label_studio.annotator_name(ann.get("completed_by"))
            found.setdefault((item, who), []).append((ann.get("created_at"), ann, task))
    out: dict[tuple[str, str], list[SpanDocument]] = {}
    for (item, who), anns in found.items():
        if len(anns) < 2:
            continue
        when = pd.to_datetime(
            pd.Series([str(a[0]) if a[0] is not None else "" for a in anns]),
            errors="coerce",
            utc=True,
            format="mixed",
        )
        order = sorted(
            range(len(anns)),
            key=lambda k: (pd.isna(when[k]), when[k] if not pd.isna(when[k]) else 0, k),
        )
        docs = []
        for k in order:
            _when, ann, task = anns[k]
            one = {**task, "annotations": [ann]}
            one.pop("completions", None)
            parsed = label_studio.parse_value([one], path)
            if parsed.documents:
                d = parsed.documents[0]
                docs.append(span_document(d, "label-studio", d.name, meta=dict(meta)))
            else:  # an annotation without spans: the document without spans
                text = task["data"].get("text")
                if not isinstance(text, str):
                    text = next((v for v in task["data"].values() if isinstance(v, str)), "")
                docs.append(
                    SpanDocument(item, str(path), text, format="label-studio", meta=dict(meta))
                )
        out[(item, who)] = docs
    return out


def check_occasions(by_annotator: Mapping[str, Mapping[str, SpanDocument]]) -> None:
    """Refuse test–retest when a document was read from a format that cannot hold an
    annotator's repeated annotations of it (naming the option and the file)."""
    for docs in by_annotator.values():
        for d in docs.values():
            if d.format != "label-studio":
                raise OptionError(
                    f"Test–retest: {Path(d.path).name} holds one annotation per annotator and "
                    "document; an annotator's repeated annotations of a document, told apart by "
                    "when they were made, are read from Label Studio JSON exports only."
                )


def token_retest(
    corpus: SpanCorpus, everyone: tuple[str, ...], n_resamples: int, seed: int
) -> tuple[dict[str, Any], ...]:
    """``retest[]``: per annotator (of ``everyone``, the models too) the tokens of the documents
    they annotated more than once, each occasion a column (codes as the study's: its labels,
    then none; tokens covered by two labels of one occasion left out)."""
    repeated: dict[str, dict[str, dict[str, SpanDocument]]] = {}
    for a in everyone:
        docs: dict[str, dict[str, SpanDocument]] = {}
        for name, by in corpus.docs.items():
            first = by.get(a)
            if first is not None and len(first.meta.get(OCCASIONS, ())) >= 2:
                occ = first.meta[OCCASIONS]
                docs[name] = {str(k + 1): d for k, d in enumerate(occ)}
        if docs:
            repeated[a] = docs
    # the study's labels, then those only a repeated annotation gives; none after them
    new = {
        s.label
        for docs in repeated.values()
        for by in docs.values()
        for d in by.values()
        for s in d.spans
    }
    labels = (*corpus.labels, *sorted(new - set(corpus.labels)))
    q = len(labels) + 1
    coded = CodedOptions(level="nominal", values=np.arange(q, dtype=float), spearman=False)
    label_ix = {lab: k for k, lab in enumerate(labels)}
    per: list[tuple[str, list[str], Any]] = []
    for a, docs in repeated.items():
        n_occ = max(len(by) for by in docs.values())
        names = tuple(str(k + 1) for k in range(n_occ))
        mini = build_corpus(names, docs)
        codes, _w, _d = unit_code_matrix(mini, "token")
        codes = codes[~(codes == S.CONFLICT).any(axis=1)]
        # the occasions' own labels as the study's codes; none last
        recode = np.array([label_ix[lab] for lab in mini.labels] + [q - 1, -1], dtype=np.int32)
        codes = recode[np.where(codes < 0, len(mini.labels) + 1, codes)]
        per.append((a, list(names), codes))
    return tuple(retest(per, q, coded, n_resamples, seed))

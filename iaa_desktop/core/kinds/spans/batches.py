"""Agreement over batches in a span study, per token: each annotator's annotation of a document
belongs to the batch of the time it was made — ``created_at`` or ``updated_at`` of a Label
Studio JSON export ("Label Studio JSON format of annotated tasks", labelstud.io/guide/
task_format), or any column of a span table (its first row per annotator and document) — and a
batch is the set of token judgments of those annotations: the tokens of the document, each
coded by the label of the annotator's span covering it, or none (the coding of the token-level
coefficients and of the annotators' competence per token). Every coefficient of that
batch's code matrix comes from :mod:`iaa_desktop.core.kinds.annotators.batches`, with its
interval, beside the same coefficients on every token judgment of the study.

Other formats (brat, WebAnno TSV, UIMA CAS XMI, doccano, Prodigy, INCEpTION, ELAN, Praat) say
nothing of when an annotation was made: the option is refused for them, naming the file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.formats.jsonio import scalar_text
from iaa_desktop.core.kinds.annotators.batches import batch_labels, coded_overall, per_batch
from iaa_desktop.core.kinds.spans.corpus import SpanCorpus
from iaa_desktop.core.kinds.spans.measures import unit_code_matrix
from iaa_desktop.core.kinds.spans.readers import BATCH_VALUE, SpanDocument
from iaa_desktop.core.metrics import spans as S
from iaa_desktop.core.metrics.suite import CodedOptions

__all__ = [
    "BATCH_VALUE",
    "NO_BATCH",
    "check_batch_values",
    "label_studio_stamps",
    "token_batches",
]

#: the batch of the annotations whose batch value is empty
NO_BATCH = "(empty)"
#: Label Studio's span results (as the export's reader takes them)
_SPAN_TYPES = ("labels", "hypertextlabels", "paragraphlabels")
#: the annotation fields of a Label Studio export that say when it was made
LABEL_STUDIO_TIMES = ("created_at", "updated_at")

_TITLES = {
    "brat": "brat standoff",
    "webanno-tsv3": "WebAnno / INCEpTION TSV 3.x",
    "xmi": "UIMA CAS XMI",
    "inception-zip": "INCEpTION project export",
    "doccano": "doccano JSONL",
    "prodigy": "Prodigy JSONL",
    "elan": "ELAN",
    "praat": "Praat TextGrid",
}


def _scalar(value: Any, column: str) -> str:
    """A field's value as text; a whole number of seconds in ``created_at``/``updated_at`` (as
    older Label Studio versions wrote them) as its UTC date and time."""
    if value is None or value == "":
        return ""
    if (
        column in LABEL_STUDIO_TIMES
        and isinstance(value, int | float)
        and not isinstance(value, bool)
    ):
        return dt.datetime.fromtimestamp(float(value), tz=dt.UTC).isoformat()
    return scalar_text(value)


def label_studio_stamps(data: Any, column: str, path: Path) -> dict[tuple[str, str], str]:
    """(task id, annotator) → the value of the field ``column`` of the annotation of the task the
    study keeps (the annotator's first not cancelled one with spans in a Label Studio export,
    else their first); a field that no annotation has is an :class:`OptionError` naming the
    file and the fields its annotations have."""
    from iaa_desktop.core.formats.label_studio import annotator_name

    tasks = data if isinstance(data, list) else [data]
    out: dict[tuple[str, str], str] = {}
    spans: set[tuple[str, str]] = set()  # whose value came from an annotation with spans
    fields: dict[str, None] = {}
    for t_index, task in enumerate(tasks, start=1):
        if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
            continue
        item = scalar_text(task.get("id", t_index))
        for ann in task.get("annotations", task.get("completions")) or []:
            if not isinstance(ann, dict) or ann.get("was_cancelled"):
                continue
            fields.update((k, None) for k, v in ann.items() if not isinstance(v, dict | list))
            who = annotator_name(ann.get("completed_by"))
            key = (item, who)
            # the annotation the study keeps: the first with spans, else the first
            with_spans = any(
                isinstance(r, dict) and r.get("type") in _SPAN_TYPES
                for r in ann.get("result") or []
            )
            if key not in out or (with_spans and key not in spans):
                out[key] = _scalar(ann.get(column), column)
            if with_spans:
                spans.add(key)
    if column not in fields:
        raise OptionError(
            f"Batch column: '{column}' is no field of the annotations of {Path(path).name} "
            f"(a Label Studio export gives each annotation {' and '.join(LABEL_STUDIO_TIMES)}; "
            f"its annotations' fields: {', '.join(fields) or 'none'})."
        )
    return out


def check_batch_values(by_annotator: Mapping[str, Mapping[str, SpanDocument]], column: str) -> None:
    """Refuse the batch column when a document was read from a format that says nothing of when
    its annotation was made (naming the option, the file and what the format lacks)."""
    for docs in by_annotator.values():
        for d in docs.values():
            if BATCH_VALUE in d.meta:
                continue
            title = _TITLES.get(d.format, d.format or "this format")
            raise OptionError(
                f"Batch column: '{column}' cannot be read from {Path(d.path).name}: a {title} "
                "file says nothing of when its annotations were made. Agreement per batch needs "
                "a Label Studio JSON export (created_at, updated_at) or a span table with a "
                "batch or date column."
            )


def _batches(values: pd.Series, size: str) -> pd.Series:
    """Each annotation's batch (:func:`batch_labels`); an empty value is the batch
    :data:`NO_BATCH` of its own."""
    text = values.astype(str).str.strip()
    blank = (text == "").to_numpy()
    if not blank.any():
        return batch_labels(text, size)
    out = pd.Series(NO_BATCH, index=values.index, dtype=object)
    if not blank.all():
        out[~blank] = batch_labels(text[~blank], size).to_numpy()
    return out


def token_batches(corpus: SpanCorpus, size: str, n_resamples: int, seed: int) -> dict[str, Any]:
    """``per_batch[]`` and ``per_batch_study`` of the (human) annotators of ``corpus``: the
    token code matrix (tokens covered by two labels of one annotator left out, as in the
    token-level coefficients), each batch its annotations' cells (tokens in corpus order, the
    annotators in the order those tokens first name them), as keyword arguments of the study's
    annotator figures."""
    codes, _w, udoc = unit_code_matrix(corpus, "token")
    kept = ~(codes == S.CONFLICT).any(axis=1)
    codes, udoc = codes[kept].astype(np.int32), udoc[kept]
    q = len(corpus.labels) + 1  # the labels and none
    coded = CodedOptions(level="nominal", values=np.arange(q, dtype=float), spearman=False)
    study = coded_overall(codes, q, coded, n_resamples, seed)
    cells = [
        (x, d, str(by[a].meta.get(BATCH_VALUE, "")))
        for d, name in enumerate(corpus.names)
        for x, a in enumerate(corpus.annotators)
        if (by := corpus.docs[name]) and a in by
    ]
    labels = _batches(pd.Series([c[2] for c in cells], dtype=object), size)
    batch_of = np.full((len(corpus.annotators), len(corpus.names)), None, dtype=object)
    for (x, d, _v), b in zip(cells, labels.tolist(), strict=True):
        batch_of[x, d] = str(b)
    parts = []
    for b in sorted(pd.unique(labels), key=str):
        sel = (batch_of == b)[:, udoc].T & (codes >= 0)  # tokens × annotators
        rows = sel.any(axis=1)
        # the annotators in the order a judgment table of these judgments (token by token,
        # the study's annotators in order) first names them, as the table kind reads it
        first = np.where(sel.any(axis=0), sel.argmax(axis=0), len(sel))
        cols = np.lexsort((np.arange(len(first)), first))[: int(sel.any(axis=0).sum())]
        m = np.where(sel, codes, -1)[rows][:, cols]
        parts.append((str(b), int(sel.sum()), m))
    return {
        "per_batch": tuple(per_batch(parts, q, coded, study, n_resamples, seed)),
        "per_batch_study": study,
    }

"""What the import dialog shows of a coreference study: annotators' documents, mentions, chains."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from iaa_desktop.core.kinds.arrange import Arrangement, arrange_annotator_folders, is_mention_table
from iaa_desktop.core.kinds.spec import GivenOptions
from iaa_desktop.core.kinds.survey import Survey, documents_survey, plural, source
from iaa_desktop.core.progress import run_to_end

CONLL_SUFFIXES = ("_conll", ".conll", ".key", ".response", ".gold_conll", ".auto_conll")


def survey(inputs: list[Path], opts: GivenOptions) -> Survey:
    """Each annotator's documents, with their mentions and chains, read as the comparison will."""
    from iaa_desktop.core.kinds.coref.compare import read_annotators
    from iaa_desktop.core.kinds.coref.options import CorefOptions

    errors: list[Any] = []
    chosen = CorefOptions.resolve(opts)
    by_annotator, found = run_to_end(read_annotators(list(inputs), chosen, errors))
    sources = {n: source(p) if p else "a project export" for n, p in found.items()}
    out = documents_survey(
        by_annotator,
        sources,
        lambda d: f"{plural(len(d.mentions), 'mention')}, {plural(len(d.classes), 'chain')}",
        "mentions and chains per document",
        errors,
    )
    docs = {doc for d in by_annotator.values() for doc in d}
    if by_annotator and all(len(d) == 1 for d in by_annotator.values()) and len(docs) > 1:
        note = "Each annotator has one document: they are compared with each other."
        return Survey(out.annotators, out.preview, out.problems, out.pairing, (note,))
    return out


def is_coref_input(f: Path) -> bool:
    """brat, CoNLL-2012 by name, a mention table, or a format the coreference kind recognises by
    its content (CoNLL-U with CorefUD or Universal Anaphora annotations, WebAnno TSV with chains,
    INCEpTION)."""
    if f.suffix == ".ann" or f.name.endswith(CONLL_SUFFIXES):
        return True
    from iaa_desktop.core.kinds.coref.sources import is_coref_file

    try:
        if is_coref_file(f):
            return True
    except (OSError, ValueError):
        pass
    return is_mention_table(f)


def arrange(paths: list[Path]) -> Arrangement:
    """One folder (or CoNLL file, or mention table) per annotator."""
    return arrange_annotator_folders(
        paths, is_coref_input, "coreference", ".ann, CoNLL or a mention table"
    )

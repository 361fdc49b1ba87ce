"""Which reader a coreference input needs, from its content (not only its name).

CoNLL-U with CorefUD ``Entity=`` annotations, Universal Anaphora CoNLL-U Plus, WebAnno/INCEpTION
TSV 3.x with a chain layer (one file per annotator, like brat and CoNLL-2012), and INCEpTION
project exports, which hold every annotator at once.
"""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.core.errors import ReaderError
from iaa_desktop.core.formats import read_head
from iaa_desktop.core.kinds.coref.conllu import is_corefud, is_ua, read_corefud, read_ua
from iaa_desktop.core.kinds.coref.readers import CorefDocument
from iaa_desktop.core.kinds.coref.tools import (
    is_inception_zip,
    is_tsv3_with_chains,
    read_inception_zip,
    read_tsv3,
)
from iaa_desktop.core.kinds.spec import unique_name


def coref_format(path: Path) -> str | None:
    """``"ua"``, ``"corefud"``, ``"tsv3"`` or ``None`` for a one-annotator coreference file."""
    if path.suffix.lower() in (".ann", ".zip", ".xlsx"):
        return None
    head = read_head(path, 16384)
    if is_ua(head):
        return "ua"
    if is_corefud(head):
        return "corefud"
    if is_tsv3_with_chains(path):
        return "tsv3"
    return None


def is_coref_file(path: Path) -> bool:
    return coref_format(path) is not None or is_inception_zip(path)


def read_coref_file(path: Path) -> list[CorefDocument]:
    fmt = coref_format(path)
    if fmt == "ua":
        return read_ua(path)
    if fmt == "corefud":
        return read_corefud(path)
    if fmt == "tsv3":
        return read_tsv3(path)
    raise ReaderError(path, None, "not a coreference file.")


def read_project_exports(
    inputs: list[Path], include_curation: bool, errors: list[ReaderError]
) -> tuple[dict[str, dict[str, CorefDocument]], list[Path]]:
    """The annotators of the INCEpTION exports among ``inputs``, and the other inputs."""
    by: dict[str, dict[str, CorefDocument]] = {}
    rest: list[Path] = []
    for p in inputs:
        if p.is_file() and is_inception_zip(p):
            try:
                found, errs = read_inception_zip(p, include_curation)
            except ReaderError as e:
                errors.append(e)
                continue
            errors.extend(errs)
            for user, docs in found.items():
                by[unique_name(user, by)] = docs
        else:
            rest.append(p)
    return by, rest

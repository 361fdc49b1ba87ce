"""Gold coreference chains written in the inputs' format, so they load back as an annotator.

* brat standoff (`brat documentation <https://brat.nlplab.org/standoff.html>`_): ``gold/<doc>.ann``
  with one ``T`` line per gold mention and one ``*\\tCoreference`` line per chain, and the ``.txt``;
* CoNLL-2012 (Pradhan et al. 2012): the first annotator's file with the coreference column
  replaced, mentions in no chain written as one-mention entities (as CoNLL writes singletons);
* a mention table (``begin, end, entityNum, surface``; CorefAnnotator's export), one per document.

Each writer takes, per document, ``(gold mentions, gold chains)`` and writes atomically.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from iaa_desktop.core.io import NameAllocator, path_inside, write_text_atomic

if TYPE_CHECKING:
    from iaa_desktop.core.kinds.coref.options import CorefOptions

Mention = tuple[str, int, int]
Chains = Sequence[tuple[frozenset[Mention], list[frozenset[Mention]]]]
_CONLL_BEGIN = "#begin document"


def conll_token_lines(path: Path) -> tuple[list[str], dict[str, list[int]]]:
    """The lines of a CoNLL file and, per document (named as the coref reader names it), the
    line index of each token."""
    from iaa_desktop.core.textio import text_lines

    lines = text_lines(path)
    out: dict[str, list[int]] = {}
    cur: list[int] | None = None
    for n, line in enumerate(lines):
        if line.startswith(_CONLL_BEGIN):
            name = line[len(_CONLL_BEGIN) :].strip() or f"{path.stem}:{len(out) + 1}"
            cur = out.setdefault(name, [])
            continue
        if line.startswith("#end document"):
            cur = None
            continue
        if cur is None or not line.strip() or line.startswith("#"):
            continue
        cur.append(n)
    return lines, out


def write_brat(docs: Sequence[Any], chains: Chains, out_dir: Path) -> list[Path]:
    folder = out_dir / "gold"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    names = NameAllocator()  # document names become safe, unique file names inside the folder
    for doc, (mentions, doc_chains) in zip(docs, chains):
        # the .ann and .txt of one document share a stem (brat pairs them by it)
        stem = names.take(doc.name)
        ids: dict[Mention, str] = {}
        lines = []
        for k, m in enumerate(sorted(mentions, key=lambda m: (m[1], m[2], m[0])), 1):
            ids[m] = f"T{k}"
            lines.append(f"T{k}\t{m[0] or 'Mention'} {m[1]} {m[2]}\t{doc.surface(m)}")
        for c in doc_chains:
            lines.append(
                "*\tCoreference " + " ".join(ids[m] for m in sorted(c, key=lambda m: (m[1], m[2])))
            )
        ann = path_inside(folder, f"{stem}.ann")
        write_text_atomic(ann, "\n".join(lines) + "\n")
        written.append(ann)
        if doc.text:
            txt = path_inside(folder, f"{stem}.txt")
            write_text_atomic(txt, doc.text)
            written.append(txt)
    return written


def _conll_marks(
    mentions: frozenset[Mention], doc_chains: list[frozenset[Mention]]
) -> dict[int, list[str]]:
    marks: dict[int, list[str]] = {}
    cluster_of = {m: cid for cid, c in enumerate(doc_chains) for m in c}
    next_id = len(doc_chains)
    for m in sorted(mentions, key=lambda m: (m[1], -m[2])):
        cid = cluster_of.get(m)
        if cid is None:  # a mention in no chain: its own entity, as CoNLL writes them
            cid = next_id
            next_id += 1
        first, last = m[1], m[2] - 1
        if first == last:
            marks.setdefault(first, []).append(f"({cid})")
        else:
            marks.setdefault(first, []).append(f"({cid}")
            marks.setdefault(last, []).append(f"{cid})")
    return marks


def write_conll(docs: Sequence[Any], chains: Chains, out_dir: Path) -> list[Path]:
    by_source: dict[Path, list[int]] = {}
    for d, doc in enumerate(docs):
        by_source.setdefault(doc.source[0], []).append(d)
    written = []
    single = len(by_source) == 1
    names = NameAllocator()
    for src, ds in by_source.items():
        lines, token_lines = conll_token_lines(src)
        for d in ds:
            doc, (mentions, doc_chains) = docs[d], chains[d]
            rows = token_lines.get(doc.name)
            if rows is None:  # the comparison paired documents of different names (key/response)
                rows = next(iter(token_lines.values())) if len(token_lines) == 1 else []
            marks = _conll_marks(mentions, doc_chains)
            for k, ln in enumerate(rows):
                col = "|".join(marks.get(k, [])) or "-"

                def put(mm: re.Match[str], col: str = col) -> str:
                    return col + mm.group(1)

                lines[ln] = re.sub(r"\S+(\s*)$", put, lines[ln], count=1)
        if single:
            suffix = src.suffix if re.fullmatch(r"\.\w{1,20}", src.suffix) else ".conll"
            path = path_inside(out_dir, "gold" + suffix)
        else:
            (out_dir / "gold").mkdir(parents=True, exist_ok=True)
            path = path_inside(out_dir / "gold", names.take(src.name))
        write_text_atomic(path, "\n".join(lines) + "\n")
        written.append(path)
    return written


def write_mention_table(
    docs: Sequence[Any], chains: Chains, out_dir: Path, options: CorefOptions
) -> list[Path]:
    """Mention tables (``begin, end, entityNum, surface``), one per document in ``gold/``."""
    import pandas as pd

    from iaa_desktop.core.adjudication.gold_io import write_table

    folder = out_dir / "gold"
    folder.mkdir(parents=True, exist_ok=True)
    doc_col, begin, end, entity = options.mention_columns
    frames = []
    for doc, (mentions, doc_chains) in zip(docs, chains):
        cluster_of = {m: str(cid + 1) for cid, c in enumerate(doc_chains) for m in c}
        ms = sorted(mentions, key=lambda m: (m[1], m[2]))
        df = pd.DataFrame(
            {
                begin: [m[1] for m in ms],
                end: [m[2] for m in ms],
                entity: [cluster_of.get(m, "") for m in ms],
                "surface": [doc.surface(m) for m in ms],
            }
        )
        if doc_col:
            df.insert(0, doc_col, doc.name, allow_duplicates=True)
        frames.append((doc.name, df))
    if doc_col:
        return [
            write_table(
                pd.concat([f for _, f in frames], ignore_index=True), folder / "gold.tsv", "\t"
            )
        ]
    names = NameAllocator()
    return [
        write_table(f, path_inside(folder, names.take(name, ".tsv")), "\t") for name, f in frames
    ]

"""What the import dialog shows of a DURel study: targets, annotators and the first use pairs."""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.core.kinds.arrange import Arrangement, LeftOut
from iaa_desktop.core.kinds.spec import GivenOptions
from iaa_desktop.core.kinds.survey import (
    N_PREVIEW,
    AnnotatorSource,
    Pairing,
    Preview,
    Survey,
    cell,
    plural,
    problems,
)


def survey(inputs: list[Path], opts: GivenOptions) -> Survey:
    """The annotators of every target and the first pairs' judgments, as the reader reads them."""
    from iaa_desktop.core.kinds.durel.options import DurelOptions
    from iaa_desktop.core.kinds.durel.reader import Scale, read_durel

    o = DurelOptions.resolve(opts)
    data = read_durel(list(inputs), Scale(o.scale_low, o.scale_high, o.cant_decide_values))
    j = data.judgments
    names = tuple(str(a) for a in dict.fromkeys(j["annotator"]))
    annotators = tuple(
        AnnotatorSource(
            a,
            "the annotator column of the judgments",
            f"{plural(int((j['annotator'] == a).sum()), 'judgment')} in "
            f"{plural(j.loc[j['annotator'] == a, 'target'].nunique(), 'target')}",
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
            (cell(pr["target"]), cell(f"{pr['id1']} – {pr['id2']}"))
            + tuple(cell(by.get(a, "")) for a in names)
        )
    return Survey(
        annotators=annotators,
        pairing=Pairing("target", names, rows),
        preview=Preview(
            ("target", "pair", *names), tuple(cells), "judgments (1–4; 0 or - = can't decide)"
        ),
        problems=problems(list(data.errors) + list(data.warnings)),
    )


def arrange(paths: list[Path]) -> Arrangement:
    """The folders and files as picked: the reader finds the targets in them."""
    from iaa_desktop.core.kinds.durel.reader import target_sets

    sets = target_sets(list(paths))
    used = {p for _t, j, u, i in sets for p in (j, u, i) if p is not None}
    used_dirs = {j.parent for _t, j, _u, _i in sets}
    left: list[LeftOut] = []
    for p in paths:
        if p.is_dir():
            for q in sorted(p.iterdir()):
                if q.is_dir() and q not in used_dirs and not q.name.startswith("."):
                    left.append(LeftOut(q, "no judgments file in it: not a target"))
                elif q.is_file() and q not in used and q.parent not in used_dirs:
                    left.append(LeftOut(q, "not in a target folder"))
                elif q.is_file() and q not in used and not q.name.startswith("."):
                    left.append(LeftOut(q, "not a judgments, uses or instances file"))
    notes = [f"{len(sets)} target{'s' if len(sets) != 1 else ''}: judgments and uses read together"]
    return list(paths), left, notes

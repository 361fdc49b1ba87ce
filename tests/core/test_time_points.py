"""Points of time (units of length zero) grouped with the units they lie in and with points at
the same time: the disagreements and the units to adjudicate."""

from __future__ import annotations

from iaa_desktop.core.adjudication import units_for
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.kinds.spans.measures import KINDS
from iaa_desktop.core.progress import run_to_end
from tests.core.test_time_report import eaf


def test_points_go_with_the_units_they_lie_in(tmp_path):
    tiers = {
        # a point at the start of the other's interval, one inside one, the same point twice,
        # and a point alone
        "Ana": [(2000, 2000, "apex"), (4500, 4500, "hold"), (8000, 8000, "beat"), (9500, 9500, "nod")],
        "Ben": [(2000, 3000, "apex"), (4000, 5000, "hold"), (8000, 8000, "beat"), (9900, 10000, "x")],
    }  # fmt: skip
    (tmp_path / "talk.eaf").write_text(eaf(tiers), encoding="utf-8")
    r = run_to_end(get_kind("spans").run([tmp_path / "talk.eaf"], {"gamma": False}))
    c, g = r.corpus, r.groups
    group = {
        (c.annotators[int(c.ann[k])], s.start): int(g.of_span[k]) for k, s in enumerate(c.spans)
    }
    assert group["Ana", 2000] == group["Ben", 2000]
    assert group["Ana", 4500] == group["Ben", 4000]
    assert group["Ana", 8000] == group["Ben", 8000]
    assert KINDS[int(g.kind[group["Ana", 8000]])] == "agree"
    assert KINDS[int(g.kind[group["Ana", 2000]])] == "boundary"
    assert group["Ana", 9500] != group["Ben", 9900]
    # adjudication: a unit per group (the point and the unit it lies in decided together)
    assert [t.split(" — ")[1] for t in units_for(r).titles] == [
        "boundary",
        "boundary",
        "agree",
        "only some",
        "only some",
    ]
    # the F1 figures keep their rules: only the two identical points match exactly
    assert r.overall["exact_f1"]["value"] == 2 * 1 / 8

"""Competence and inferred labels in the table kind (``--competence``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.kinds.table.adjudication import units_for_table
from iaa_desktop.core.kinds.table.compare import KIND
from iaa_desktop.core.metrics.crowd import dawid_skene, mace
from iaa_desktop.core.progress import run_to_end


def _study(tmp_path):
    rng = np.random.default_rng(4)
    rows = []
    acc = {"ann": 0.9, "bo": 0.75, "cy": 0.5, "dee": 0.85}
    for i in range(40):
        truth = "ABC"[rng.integers(0, 3)]
        for a, p in acc.items():
            if rng.random() < 0.85:
                lab = truth if rng.random() < p else "ABC"[rng.integers(0, 3)]
                rows.append((f"i{i:02d}", a, lab))
    # repeated judgments: an exact repeat and one with another label; both are responses
    first = rows[0]
    rows.append(first)
    rows.append((first[0], "cy" if first[1] != "cy" else "bo", "C"))
    path = tmp_path / "j.csv"
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_csv(path, index=False)
    return path, rows


def test_competence_counts_every_response_and_suggests_a_label(tmp_path):
    path, rows = _study(tmp_path)
    res = run_to_end(KIND.run([path], {"competence": True, "seed": 5}))
    j = res.to_json()
    # the same fit from the rows directly (items and annotators in order of appearance,
    # categories sorted as the study sorts text labels)
    items = list(dict.fromkeys(r[0] for r in rows))
    anns = list(dict.fromkeys(r[1] for r in rows))
    cats = sorted({r[2] for r in rows})
    it = np.array([items.index(r[0]) for r in rows])
    an = np.array([anns.index(r[1]) for r in rows])
    lab = np.array([cats.index(r[2]) for r in rows])
    ds = dawid_skene(it, an, lab, len(items), len(anns), len(cats))
    mc = mace(it, an, lab, len(items), len(anns), len(cats), seed=5)
    got = {(c["method"], c["annotator"]): c for c in j["competence"]}
    for k, a in enumerate(anns):
        assert got["dawid_skene", a]["competence"] == pytest.approx(ds.competence[k], abs=1e-12)
        assert got["mace", a]["competence"] == pytest.approx(mc.competence[k], abs=1e-12)
        assert got["mace", a]["seed"] == 5
    assert got["dawid_skene", "ann"]["n_responses"] == sum(r[1] == "ann" for r in rows)
    inferred = {r["item"]: r for r in j["inferred"]}
    for i, key in enumerate(items):
        assert inferred[key]["dawid_skene"] == cats[ds.labels[i]]
        assert inferred[key]["dawid_skene_posterior"] == pytest.approx(ds.posterior[i].max())
        assert inferred[key]["mace"] == cats[mc.labels[i]]
    # the most careful annotator is judged more competent than the careless one
    assert got["dawid_skene", "ann"]["competence"] > got["dawid_skene", "cy"]["competence"]
    # adjudication shows the suggestion and decides nothing
    model = units_for_table(res)
    k = model.keys.index("i00")
    hint = dict(model.context(k))["suggested"]
    assert hint == f"Dawid–Skene: {inferred['i00']['dawid_skene']}, " + (
        f"{inferred['i00']['dawid_skene_posterior']:.2f}"
    )
    assert "competence" in res.tables() and "inferred" in res.tables()


def test_without_the_option_nothing_is_added(tmp_path):
    path, _ = _study(tmp_path)
    j = run_to_end(KIND.run([path], {})).to_json()
    assert "competence" not in j and "inferred" not in j and "model_annotators" not in j


def test_too_many_categories_for_dawid_skene_is_refused_by_name(tmp_path, monkeypatch):
    from iaa_desktop.core.errors import OptionError
    from iaa_desktop.core.kinds.annotators import competence

    path, _ = _study(tmp_path)
    monkeypatch.setattr(competence, "MAX_DS_CELLS", 100)
    with pytest.raises(OptionError, match="Annotator competence: 40 items × 4 annotators"):
        run_to_end(KIND.run([path], {"competence": True}))


def test_responses_follow_items_and_annotators_by_name_in_a_retest_study(tmp_path):
    """A second occasion first in the file: the inter-annotator figures use first occasions
    (other items first), competence still every response, matched by item and name."""
    _, rows = _study(tmp_path)
    rows = [(*r, 1) for r in rows]
    second = ("i39", "dee", "A", 2)
    rows = [second, *rows]
    path = tmp_path / "retest.csv"
    pd.DataFrame(rows, columns=["item", "annotator", "label", "session"]).to_csv(path, index=False)
    res = run_to_end(
        KIND.run(
            [path],
            {
                "competence": True,
                "retest": True,
                "occasion_column": "session",
                "annotator_names": {"dee": "Dee D."},
            },
        )
    )
    j = res.to_json()
    items = list(dict.fromkeys(r[0] for r in rows))
    anns = list(dict.fromkeys(r[1] for r in rows))
    cats = sorted({r[2] for r in rows})
    ds = dawid_skene(
        [items.index(r[0]) for r in rows],
        [anns.index(r[1]) for r in rows],
        [cats.index(r[2]) for r in rows],
        len(items),
        len(anns),
        len(cats),
    )
    got = {r["item"]: r for r in j["inferred"]}
    for i, key in enumerate(items):
        assert got[key]["dawid_skene_posterior"] == pytest.approx(ds.posterior[i].max())
        assert got[key]["dawid_skene"] == cats[ds.labels[i]]
    comp = {(c["method"], c["annotator"]): c for c in j["competence"]}
    assert comp["dawid_skene", "Dee D."]["competence"] == pytest.approx(
        ds.competence[anns.index("dee")]
    )
    assert comp["dawid_skene", "Dee D."]["n_responses"] == sum(r[1] == "dee" for r in rows)

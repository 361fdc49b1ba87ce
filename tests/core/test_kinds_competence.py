"""Annotator competence (Dawid–Skene, MACE) in the DURel, multi-label, normalization and span
kinds: ``competence[]`` and ``inferred[]`` equal :mod:`iaa_desktop.core.metrics.crowd` run here
on the items × annotators matrix built from the test's own judgments (not by the kind's code),
and have the table kind's shape."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.kinds.durel.compare import KIND as DUREL
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.metrics.crowd import dawid_skene, mace
from iaa_desktop.core.progress import run_to_end
from tests.core import test_durel_annotators as tdu
from tests.core import test_multilabel_annotators as tml
from tests.core import test_normalization_annotators as tno
from tests.core import test_spans_annotators as tsp

COMPETENCE_KEYS = {"method", "annotator", "model", "n_responses", "competence"}
INFERRED_KEYS = {"item", "dawid_skene", "dawid_skene_posterior", "mace", "mace_posterior"}


def _expected(codes, seed):
    """Dawid–Skene and MACE on an items × annotators code matrix (−1: none)."""
    rows, cols = np.nonzero(codes >= 0)
    lab = codes[rows, cols]
    n, a = codes.shape
    q = int(codes.max()) + 1
    return (
        dawid_skene(rows, cols, lab, n, a, q),
        mace(rows, cols, lab, n, a, q, seed=seed),
    )


def _check(j, codes, annotators, categories, keys, models=(), label=None):
    """The kind's JSON rows (of ``label`` when given) against crowd's fits on ``codes``, MACE
    from the seed the JSON records."""
    fit = j["competence_fit"] if label is None else j["competence_fit"][label]
    seed = fit["mace"]["seed"]
    assert all(r["seed"] == seed for r in j["competence"] if r["method"] == "mace")
    ds, ma = _expected(codes, seed)
    comp = [r for r in j["competence"] if label is None or r["label"] == label]
    inf = [r for r in j["inferred"] if label is None or r["label"] == label]
    assert {tuple(sorted(set(r) - {"confusion", "seed", "label"})) for r in comp} == {
        tuple(sorted(COMPETENCE_KEYS))
    }
    assert {tuple(sorted(set(r) - {"label"})) for r in inf} == {tuple(sorted(INFERRED_KEYS))}
    for method, fit in (("dawid_skene", ds), ("mace", ma)):
        got = {r["annotator"]: r for r in comp if r["method"] == method}
        assert list(got) == list(annotators)
        for k, name in enumerate(annotators):
            assert got[name]["competence"] == pytest.approx(fit.competence[k], abs=1e-9)
            assert got[name]["n_responses"] == int((codes[:, k] >= 0).sum())
            assert got[name]["model"] == (name in models)
            if method == "dawid_skene":
                np.testing.assert_allclose(got[name]["confusion"], fit.confusion[k], atol=1e-9)
    by_item = {r["item"]: r for r in inf}
    assert len(by_item) == int((codes >= 0).any(axis=1).sum())
    for i, key in enumerate(keys):
        if not (codes[i] >= 0).any():
            continue
        r = by_item[key]
        assert r["dawid_skene"] == categories[ds.labels[i]]
        assert r["dawid_skene_posterior"] == pytest.approx(ds.posterior[i].max(), abs=1e-9)
        assert r["mace"] == categories[ma.labels[i]]
        assert r["mace_posterior"] == pytest.approx(ma.posterior[i].max(), abs=1e-9)


def test_durel_competence_equals_crowd_on_the_judgment_matrix(tmp_path):
    rows = tdu._judgments()
    res = run_to_end(
        DUREL.run([tdu._write_durel(tmp_path / "arm", rows)], {"competence": True, "planning": 0})
    )
    j = json.loads(json.dumps(res.to_json()))
    items = list(dict.fromkeys(i for i, _a, _v in rows))
    anns = list(dict.fromkeys(a for _i, a, _v in rows))
    codes = np.full((len(items), len(anns)), -1)
    for i, a, v in rows:
        codes[items.index(i), anns.index(a)] = v - 1  # judgments 1–4, all of them given
    keys = [f"arm | u{i} | v{i}" for i in items]
    _check(j, codes, anns, ["1", "2", "3", "4"], keys)
    assert set(res.tables()) >= {"competence", "inferred", "confusion"}


def test_durel_competence_marks_models_and_the_table_kind_agrees(tmp_path):
    """With a model named, competence still counts it (marked) — and the table kind, given the
    same judgments, finds the same competence (its own reader, its own route)."""
    rows = tdu._judgments(seed=5)
    res = run_to_end(
        DUREL.run(
            [tdu._write_durel(tmp_path / "arm", rows)],
            {"competence": True, "model_annotators": "llm"},
        )
    )
    j = res.to_json()
    table = run_to_end(
        TABLE.run(
            [tdu._write_table(tmp_path / "t.csv", rows)], {"level": "ordinal", "competence": True}
        )
    ).to_json()
    mine = {(r["method"], r["annotator"]): r for r in j["competence"]}
    assert mine[("mace", "llm")]["model"] and not mine[("mace", "ann1")]["model"]
    for r in table["competence"]:
        if r["method"] == "dawid_skene":
            assert mine[(r["method"], r["annotator"])]["competence"] == pytest.approx(
                r["competence"], abs=1e-9
            )
    ds_table = {r["item"].split("|")[1]: r["dawid_skene"] for r in table["inferred"]}
    ds_mine = {r["item"].split(" | ")[1]: r["dawid_skene"] for r in j["inferred"]}
    assert ds_mine == ds_table


def test_multilabel_competence_per_label_equals_crowd(tmp_path):
    rows = tml._sets()
    res = tml._multi(tmp_path, rows, competence=True)
    j = json.loads(json.dumps(res.to_json()))
    items = list(dict.fromkeys(i for i, _a, _s in rows))
    for lab in tml.LABELS:
        codes = np.full((len(items), len(tml.ANNOTATORS)), -1)
        for i, a, s in rows:
            codes[items.index(i), tml.ANNOTATORS.index(a)] = int(lab in s)
        _check(j, codes, tml.ANNOTATORS, ["absent", "present"], items, label=lab)
    assert set(j["competence_fit"]) == set(tml.LABELS)
    tables = res.tables()
    assert set(tables["competence"]["label"]) == set(tml.LABELS)


def test_normalization_competence_per_token_equals_crowd(tmp_path):
    rows = tno._tokens()
    res = run_to_end(tno.NORM.run([tno._norm_folder(tmp_path / "n", rows)], {"competence": True}))
    j = json.loads(json.dumps(res.to_json()))
    cats = sorted({ns[a] for _t, _o, ns in rows for a in tno.ANNOTATORS})
    codes = np.array([[cats.index(ns[a]) for a in tno.ANNOTATORS] for _t, _o, ns in rows])
    keys = [f"T | {t} | {o}" for t, o, _ns in rows]
    _check(j, codes, tno.ANNOTATORS, cats, keys)


def test_spans_competence_per_token_equals_crowd(tmp_path):
    labels = tsp._labels()
    res = tsp._spans(tmp_path, labels, competence=True, model_annotators="bot")
    j = json.loads(json.dumps(res.to_json()))
    cats = [*tsp.LABELS, "(none)"]
    codes = np.array(
        [[cats.index("(none)" if x == tsp.NONE else x) for x in row] for row in labels]
    )
    pos = np.cumsum([0] + [4] * (len(labels) - 1))  # words "w00" … and a space
    keys = [f"doc | {p}–{p + 3} | w{i:02d}" for i, p in enumerate(pos)]
    _check(j, codes, tsp.ANNOTATORS, cats, keys, models=("bot",))
    assert j["competence_fit"]["mace"]["seed"] == res.chosen.seed


@pytest.mark.parametrize("which", ["durel", "multilabel", "normalization", "spans"])
def test_without_the_option_nothing_is_added(tmp_path, which):
    if which == "durel":
        j = run_to_end(
            DUREL.run([tdu._write_durel(tmp_path / "arm", tdu._judgments())], {})
        ).to_json()
    elif which == "multilabel":
        j = tml._multi(tmp_path, tml._sets()).to_json()
    elif which == "normalization":
        j = run_to_end(tno.NORM.run([tno._norm_folder(tmp_path / "n", tno._tokens())], {}))
        j = j.to_json()
    else:
        j = tsp._spans(tmp_path, tsp._labels()).to_json()
    assert not {"competence", "inferred", "competence_fit"} & set(j)


def test_too_many_categories_are_refused_by_name(tmp_path, monkeypatch):
    from iaa_desktop.core.errors import OptionError
    from iaa_desktop.core.kinds.annotators import competence

    monkeypatch.setattr(competence, "MAX_DS_WORK", 100)
    with pytest.raises(OptionError, match="Annotator competence: 44 items × 5 annotators"):
        run_to_end(
            tno.NORM.run([tno._norm_folder(tmp_path / "n", tno._tokens())], {"competence": True})
        )


@pytest.mark.parametrize("which", ["durel", "multilabel", "normalization", "spans"])
def test_report_has_the_competence_section_and_methods(tmp_path, which):
    from iaa_desktop.core.export import report as R

    if which == "durel":
        res = run_to_end(
            DUREL.run([tdu._write_durel(tmp_path / "arm", tdu._judgments())], {"competence": True})
        )
    elif which == "multilabel":
        res = tml._multi(tmp_path, tml._sets(), competence=True)
    elif which == "normalization":
        res = run_to_end(
            tno.NORM.run([tno._norm_folder(tmp_path / "n", tno._tokens())], {"competence": True})
        )
    else:
        res = tsp._spans(tmp_path, tsp._labels(), competence=True)
    html = R.build_report(res, R.ReportContext(title="Annotators")).html
    for part in ("Annotator competence", "Dawid–Skene", "MACE", "least certain first"):
        assert part in html, part
    assert "Dawid, A. P. &amp; Skene" in html and "Hovy, D." in html
    tables = res.tables()
    assert len(pd.DataFrame(tables["competence"])) == 2 * len(
        {r["annotator"] for r in res.to_json()["competence"]}
    ) * (len(tml.LABELS) if which == "multilabel" else 1)


def test_the_new_figures_link_to_the_measures_entries(tmp_path):
    """Help → Measures explains every competence figure a kind's tables and JSON name."""
    from iaa_desktop.core.measures import find

    res = tsp._spans(tmp_path, tsp._labels(), competence=True)
    tables = res.tables()
    assert {find(m).key for m in tables["competence"]["method"]} == {"dawid_skene", "mace"}
    for column, key in (
        ("dawid_skene", "dawid_skene"),
        ("dawid_skene_posterior", "dawid_skene"),
        ("mace", "mace"),
        ("mace_posterior", "mace"),
    ):
        assert column in tables["inferred"].columns
        assert find(column).key == key
        assert find(f"inferred.{column}").key == key
    assert find("confusion").key == "dawid_skene" and "confusion" in tables
    assert list(tables["confusion"].columns) == ["annotator", "true", "answer", "probability"]


def test_durel_competence_counts_every_judgment_repeats_included(tmp_path):
    """An annotator's repeats of a pair are responses of their own (Dawid & Skene 1979 count
    every response), while the other figures combine them by their median."""
    rows = tdu._judgments(seed=8)
    repeats = [(i, a, 5 - v) for i, a, v in rows[:60] if a in ("ann1", "ann3")]
    res = run_to_end(
        DUREL.run(
            [tdu._write_durel(tmp_path / "arm", rows + repeats)],
            {"competence": True, "model_annotators": "llm"},
        )
    )
    j = json.loads(json.dumps(res.to_json()))
    items = list(dict.fromkeys(i for i, _a, _v in rows))
    anns = ["ann1", "ann2", "ann3", "ann4", "llm"]
    every = rows + repeats
    it = np.array([items.index(i) for i, _a, _v in every])
    an = np.array([anns.index(a) for _i, a, _v in every])
    lab = np.array([v - 1 for _i, _a, v in every])
    seed = j["competence_fit"]["mace"]["seed"]
    ds = dawid_skene(it, an, lab, len(items), len(anns), 4)
    ma = mace(it, an, lab, len(items), len(anns), 4, seed=seed)
    got = {(r["method"], r["annotator"]): r for r in j["competence"]}
    for k, a in enumerate(anns):
        n = sum(1 for _i, b, _v in every if b == a)
        assert got[("dawid_skene", a)]["n_responses"] == n
        assert got[("dawid_skene", a)]["competence"] == pytest.approx(ds.competence[k], abs=1e-9)
        assert got[("mace", a)]["competence"] == pytest.approx(ma.competence[k], abs=1e-9)
        assert got[("mace", a)]["model"] == (a == "llm")
    assert [r["dawid_skene"] for r in j["inferred"]] == [str(c + 1) for c in ds.labels]

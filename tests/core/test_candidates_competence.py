"""Annotator competence, agreement per batch and test–retest agreement in a candidate-pairs
study: competence equals :mod:`iaa_desktop.core.metrics.crowd` run here on the matrix the test
builds from its own labels and the table kind's on the same labels written as a table; each
batch's and each annotator's figures equal the table kind's overall figures on a file holding
just those labels (the subset written out and read again)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.batches import RETEST_METRICS
from iaa_desktop.core.kinds.candidates.adjudication import units_for_candidates
from iaa_desktop.core.kinds.candidates.compare import KIND as CANDIDATES
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.metrics.crowd import dawid_skene, mace
from iaa_desktop.core.progress import run_to_end
from tests.core import test_candidates_annotators as tca
from tests.core.test_kinds_competence import _check

ROUNDS = ("2024-05-06", "2024-05-08", "2024-05-14", "2024-05-21")  # three weeks


def _run(files, **options):
    return run_to_end(CANDIDATES.run(files, options))


def _codes(rows):
    """The items × annotators matrix of ``rows`` (one label per cell), items and annotators
    in the order they first appear, labels coded in sorted order."""
    items = list(dict.fromkeys(p for p, _a, _l in rows))
    anns = list(dict.fromkeys(a for _p, a, _l in rows))
    cats = sorted({lab for *_x, lab in rows})
    codes = np.full((len(items), len(anns)), -1)
    for p, a, lab in rows:
        codes[items.index(p), anns.index(a)] = cats.index(lab)
    return codes, items, anns, cats


@pytest.mark.parametrize("wide", [False, True])
def test_competence_equals_crowd_on_the_label_matrix(tmp_path, wide):
    rows = tca._judgments()
    res = _run(tca._write_candidates(tmp_path / "c", rows, wide=wide), competence=True)
    j = json.loads(json.dumps(res.to_json()))
    codes, items, anns, cats = _codes(rows)
    if wide:  # the wide table's columns are in sorted order
        order = sorted(anns)
        codes, anns = codes[:, [anns.index(a) for a in order]], order
    _check(j, codes, anns, cats, items)
    assert set(res.tables()) >= {"competence", "inferred", "confusion"}


def test_models_are_marked_and_the_table_kind_agrees(tmp_path):
    """With a model named, competence still counts it (marked) — and the table kind, given the
    same labels, finds the same competence and inferred labels (its own reader and route)."""
    rows = tca._judgments(seed=5)
    j = _run(
        tca._write_candidates(tmp_path / "c", rows), competence=True, model_annotators="llm"
    ).to_json()
    table = run_to_end(
        TABLE.run(
            [tca._write_table(tmp_path / "t.csv", rows)], {"level": "nominal", "competence": True}
        )
    ).to_json()
    mine = {(r["method"], r["annotator"]): r for r in j["competence"]}
    assert mine[("mace", "llm")]["model"] and not mine[("mace", "ann1")]["model"]
    assert len(table["competence"]) == len(j["competence"]) == 10
    for r in table["competence"]:
        m = mine[(r["method"], r["annotator"])]
        assert m["competence"] == pytest.approx(r["competence"], abs=1e-9)
        assert m["n_responses"] == r["n_responses"]
    assert j["competence_fit"]["mace"]["seed"] == table["competence_fit"]["mace"]["seed"]
    by_item = {r["item"]: r for r in table["inferred"]}
    assert len(j["inferred"]) == len(by_item)
    for r in j["inferred"]:
        t = by_item[r["item"]]
        for k in ("dawid_skene", "mace"):
            assert r[k] == t[k]
            assert r[f"{k}_posterior"] == pytest.approx(t[f"{k}_posterior"], abs=1e-9)


def test_competence_counts_every_label_repeats_included(tmp_path):
    """An annotator's repeated labels of a pair are responses of their own (Dawid & Skene 1979
    count every response), even those given two ways, which the other figures leave out."""
    rows = tca._judgments(seed=8)
    same = [r for r in rows[:30] if r[1] == "ann1"]
    other = [
        (p, a, "reject" if lab == "accept" else "accept") for p, a, lab in rows[:40] if a == "ann3"
    ]
    res = _run(tca._write_candidates(tmp_path / "c", rows + same + other), competence=True)
    j = json.loads(json.dumps(res.to_json()))
    every = rows + same + other
    items = list(dict.fromkeys(p for p, _a, _l in rows))
    anns = list(tca.ANNOTATORS)
    cats = sorted({lab for *_x, lab in every})
    it = np.array([items.index(p) for p, _a, _l in every])
    an = np.array([anns.index(a) for _p, a, _l in every])
    lab = np.array([cats.index(x) for *_x, x in every])
    seed = j["competence_fit"]["mace"]["seed"]
    ds = dawid_skene(it, an, lab, len(items), len(anns), len(cats))
    ma = mace(it, an, lab, len(items), len(anns), len(cats), seed=seed)
    got = {(r["method"], r["annotator"]): r for r in j["competence"]}
    for k, a in enumerate(anns):
        assert got[("dawid_skene", a)]["n_responses"] == sum(1 for r in every if r[1] == a)
        assert got[("dawid_skene", a)]["competence"] == pytest.approx(ds.competence[k], abs=1e-9)
        assert got[("mace", a)]["competence"] == pytest.approx(ma.competence[k], abs=1e-9)
    assert [r["dawid_skene"] for r in j["inferred"]] == [cats[c] for c in ds.labels]
    # the other figures: identical repeats counted once, differing ones left out, as before
    kept = [r for r in rows + same if not (r[1] == "ann3" and r in rows[:40])]
    plain = _run(tca._write_candidates(tmp_path / "k", kept)).to_json()
    assert plain["overall"] == j["overall"] and plain["pairwise"] == j["pairwise"]


@pytest.mark.parametrize("flag", ["competence", "batch_column", "retest"])
def test_without_the_options_nothing_is_added(tmp_path, flag):
    j = _run(tca._write_candidates(tmp_path / "c", tca._judgments())).to_json()
    assert not {"competence", "inferred", "competence_fit", "per_batch", "retest"} & set(j)


# -- batches and test–retest -----------------------------------------------------------------


def _timed(seed=11, n=80):
    """(pair, annotator, label, date, session): each pair labelled on one day by four humans
    (some left out) and a model; then ann1 and ann2 label the first 36 pairs again (session
    2, a later day)."""
    rng = np.random.default_rng(seed)
    rows, truth = [], {}
    for i in range(n):
        truth[i] = int(rng.integers(0, 2))
        day = ROUNDS[i * len(ROUNDS) // n]
        for a, noise in zip(tca.ANNOTATORS, (0.15, 0.25, 0.35, 0.2, 0.3), strict=True):
            if rng.random() < 0.1 and a != "llm":
                continue
            lab = truth[i] if rng.random() > noise else 1 - truth[i]
            rows.append((f"P{i:03d}", a, ("accept", "reject")[lab], day, "1"))
    for i in range(36):
        for a, noise in (("ann1", 0.2), ("ann2", 0.3)):
            lab = truth[i] if rng.random() > noise else 1 - truth[i]
            rows.append((f"P{i:03d}", a, ("accept", "reject")[lab], "2024-05-28", "2"))
    return rows


def _write_timed(folder, rows):
    files = tca._write_candidates(folder, [(p, a, lab) for p, a, lab, *_x in rows])
    long = pd.DataFrame(rows, columns=["pair_id", "annotator", "label", "date", "session"])
    long.to_csv(files[1], sep="\t", index=False)
    return files


def _table_overall(path, rows):
    """The table kind's overall figures of ``rows`` (item, annotator, label), nominal."""
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_csv(path, index=False)
    return run_to_end(TABLE.run([path], {"level": "nominal"})).to_json()["overall"]


def _same(mine, table, names):
    for k in names:
        for part in ("value", "ci_low", "ci_high"):
            assert mine[k][part] == pytest.approx(table[k][part], abs=1e-12), (k, part)


def _week(day: str) -> str:
    d = pd.Timestamp(day)
    return (d - pd.Timedelta(days=d.weekday())).strftime("week of %Y-%m-%d")


def test_per_batch_figures_equal_the_table_kinds_on_each_batchs_labels(tmp_path):
    rows = [r for r in _timed() if r[4] == "1"]  # no repeats: a batch's rows are its labels
    res = _run(_write_timed(tmp_path / "c", rows), batch_column="date", model_annotators="llm")
    j = json.loads(json.dumps(res.to_json()))
    weeks = sorted({_week(d) for *_x, d, _s in rows})
    assert [b["batch"] for b in j["per_batch"]] == weeks and len(weeks) == 3
    for b in j["per_batch"]:
        sub = [(p, a, lab) for p, a, lab, d, _s in rows if _week(d) == b["batch"] and a != "llm"]
        assert b["n_judgments"] == len(sub)
        assert {lab for *_x, lab in sub} == {"accept", "reject"}
        table = _table_overall(tmp_path / f"{b['batch']}.csv", sub)
        assert set(RETEST_METRICS) <= set(b["overall"])
        _same(b["overall"], table, [k for k in b["overall"] if k in table])
        per_item = pd.Series([p for p, *_x in sub]).value_counts()
        assert b["n_items"] == int((per_item >= 2).sum())
    humans = [(p, a, lab) for p, a, lab, *_x in rows if a != "llm"]
    _same(j["per_batch_study"], _table_overall(tmp_path / "all.csv", humans), RETEST_METRICS)
    tables = res.tables()
    assert set(tables["per_batch"]["batch"]) == set(weeks)
    assert {"batch", "n_judgments", "n_items", "metric", "value", "ci_low", "ci_high"} <= set(
        tables["per_batch"].columns
    )


def test_days_as_batches_and_a_missing_column_refused_by_name(tmp_path):
    rows = [r for r in _timed() if r[4] == "1"]
    files = _write_timed(tmp_path / "c", rows)
    j = _run(files, batch_column="date", batch_size="day").to_json()
    assert [b["batch"] for b in j["per_batch"]] == list(ROUNDS)
    with pytest.raises(
        OptionError,
        match="Batch column: 'when' is no column of 'labels.tsv'.*such columns: date, session",
    ):
        _run(files, batch_column="when")
    with pytest.raises(OptionError, match="Occasion column: 'x' is no column of 'labels.tsv'"):
        _run(files, retest=True, occasion_column="x")


@pytest.mark.parametrize("occasion_column", ["", "session"])
def test_retest_equals_the_table_kind_on_each_annotators_occasions(tmp_path, occasion_column):
    rows = _timed()
    res = _run(_write_timed(tmp_path / "c", rows), retest=True, occasion_column=occasion_column)
    j = json.loads(json.dumps(res.to_json()))
    assert [r["annotator"] for r in j["retest"]] == ["ann1", "ann2"]
    for r in j["retest"]:
        mine = [(p, s, lab) for p, a, lab, _d, s in rows if a == r["annotator"]]
        if not occasion_column:  # the order of the annotator's labels of a pair
            seen: dict[str, int] = {}
            ranked = []
            for p, _s, lab in mine:
                seen[p] = seen.get(p, 0) + 1
                ranked.append((p, str(seen[p]), lab))
            mine = ranked
        assert r["n_occasions"] == 2 and r["occasions"] == ["1", "2"]
        twice = pd.Series([p for p, _s, _l in mine]).value_counts()
        assert r["n_items"] == int((twice >= 2).sum()) > 20
        _same(r, _table_overall(tmp_path / f"{r['annotator']}.csv", mine), RETEST_METRICS)
    # the figures between annotators treat the repeats as they did before
    plain = _run(_write_timed(tmp_path / "again", rows)).to_json()
    assert plain["overall"] == j["overall"] and plain["pairwise"] == j["pairwise"]
    assert set(res.tables()["retest"]["metric"]) == set(RETEST_METRICS)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"batch_column": "date"}, "Batch column: the labels file 'labels_wide.csv' is wide"),
        ({"retest": True}, "Test–retest: the labels file 'labels_wide.csv' is wide"),
    ],
)
def test_wide_labels_refuse_batches_and_retest_naming_the_file(tmp_path, options, message):
    files = tca._write_candidates(tmp_path / "c", tca._judgments(), wide=True)
    with pytest.raises(OptionError, match=message):
        _run(files, **options)


# -- report and adjudication ----------------------------------------------------------------


def test_report_has_the_competence_batch_and_retest_sections(tmp_path):
    from iaa_desktop.core.export import report as R

    res = _run(_write_timed(tmp_path / "c", _timed()), competence=True, batch_column="date")
    res2 = _run(_write_timed(tmp_path / "d", _timed()), retest=True)
    html = R.build_report(res, R.ReportContext(title="Annotators")).html
    for part in (
        "Annotator competence",
        "Dawid–Skene",
        "MACE",
        "least certain first",
        "Agreement over batches",
        "‘date’",
    ):
        assert part in html, part
    assert "Dawid, A. P. &amp; Skene" in html and "Hovy, D." in html
    html2 = R.build_report(res2, R.ReportContext(title="Annotators")).html
    for part in ("Test–retest agreement", "the order of their repeated judgments", "Krippendorff"):
        assert part in html2, part


def test_adjudication_suggests_the_inferred_label_never_decides(tmp_path):
    rows = tca._judgments(seed=4)
    res = _run(tca._write_candidates(tmp_path / "c", rows), competence=True)
    model = units_for_candidates(res)
    inferred = {r["item"]: r for r in res.to_json()["inferred"]}
    for i, key in enumerate(model.keys):
        r = inferred[key]
        hint = f"Dawid–Skene: {r['dawid_skene']}, {r['dawid_skene_posterior']:.2f}"
        assert model.context(i) == [("suggested", hint)]
        assert f"suggested: {hint}" in model.describe(i)
        assert hint in model.describe_html(i)
        # the inferred label is a choice the inferred merge can take, never taken by itself
        assert model.suggestion(i).value == r["dawid_skene"]
    plain = units_for_candidates(_run(tca._write_candidates(tmp_path / "p", rows)))
    assert plain.context(0) == [] and "suggested" not in plain.describe(0)
    assert (model.versions == plain.versions).all()  # the choices are the annotators' labels


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.lists(st.sampled_from(["", "0", "1", "2"]), min_size=3, max_size=3),
        min_size=4,
        max_size=12,
    ),
    st.integers(0, 2**16),
)
def test_long_and_wide_labels_give_the_same_competence(tmp_path_factory, grid, shuffle):
    """The same labels written long (rows in any order, annotators first met in one order) or
    wide give the same competence and inferred labels: the layout is not a figure."""
    grid = [row for row in grid if any(row)]
    if len({v for row in grid for v in row if v}) < 2 or len(grid) < 2:
        return
    anns = ["ann1", "ann2", "ann3"]
    rows = [(f"P{i:03d}", a, v) for i, row in enumerate(grid) for a, v in zip(anns, row) if v]
    if {a for _p, a, _v in rows} != set(anns):
        return
    folder = tmp_path_factory.mktemp("c")
    wide = _run(tca._write_candidates(folder / "w", rows, wide=True), competence=True)
    rng = np.random.default_rng(shuffle)
    first = [next(r for r in rows if r[1] == a) for a in anns]  # annotators met in this order
    rest = [rows[k] for k in rng.permutation(len(rows)) if rows[k] not in first]
    long = _run(tca._write_candidates(folder / "l", first + rest), competence=True)
    a, b = wide.to_json(), long.to_json()
    assert [r["annotator"] for r in a["competence"]] == [r["annotator"] for r in b["competence"]]
    for x, y in zip(a["competence"], b["competence"], strict=True):
        assert x["n_responses"] == y["n_responses"]
        assert x["competence"] == pytest.approx(y["competence"], abs=1e-9)
    for x, y in zip(a["inferred"], b["inferred"], strict=True):
        assert (x["item"], x["dawid_skene"], x["mace"]) == (y["item"], y["dawid_skene"], y["mace"])
        assert x["dawid_skene_posterior"] == pytest.approx(y["dawid_skene_posterior"], abs=1e-9)


def test_the_inferred_merge_takes_the_pairs_inferred_labels(tmp_path):
    from iaa_desktop.core.adjudication.model import Strategy, auto_merge

    rows = tca._judgments(seed=4)
    res = _run(tca._write_candidates(tmp_path / "c", rows), competence=True)
    model = units_for_candidates(res)
    inferred = {r["item"]: r for r in res.to_json()["inferred"]}
    gold = auto_merge(model, Strategy.parse("inferred:0.95"))
    for i, key in enumerate(model.keys):
        r = inferred[key]
        want = r["dawid_skene"] if r["dawid_skene_posterior"] >= 0.95 else None
        assert gold[i] == want
    assert any(g is None for g in gold) and any(g is not None for g in gold)

"""Agreement per batch and test–retest agreement in a DURel study: each batch's and each
annotator's figures equal the table kind's overall figures (its own reader and coefficients) on
a file holding just those judgments — the subset written out and read again."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.batches import RETEST_METRICS
from iaa_desktop.core.kinds.durel.compare import KIND as DUREL
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.progress import run_to_end

ANNOTATORS = ("ann1", "ann2", "ann3", "ann4")
DAYS = ("2024-03-04", "2024-03-06", "2024-03-12", "2024-03-14", "2024-03-20")  # 3 weeks


def _rows(seed=11, n=90):
    """(pair, annotator, judgment, timestamp, session): graded judgments 1–4, each pair on one
    day; then ann1 and ann2 judge the first 40 pairs again (session 2, after the others)."""
    rng = np.random.default_rng(seed)
    rows, truth = [], {}
    for i in range(n):
        truth[i] = int(rng.integers(1, 5))
        day = DAYS[i * len(DAYS) // n]
        for a, noise in zip(ANNOTATORS, (0.5, 0.7, 1.0, 0.8), strict=True):
            if rng.random() < 0.1:
                continue
            v = int(np.clip(np.rint(truth[i] + rng.normal(0, noise)), 1, 4))
            rows.append((i, a, v, f"{day} 10:{i % 60:02d}:00", "1"))
    for i in range(40):
        for a, noise in (("ann1", 0.6), ("ann2", 0.9)):
            v = int(np.clip(np.rint(truth[i] + rng.normal(0, noise)), 1, 4))
            rows.append((i, a, v, "2024-03-25 09:00:00", "2"))
    return rows


def _write_durel(folder, rows):
    folder.mkdir(parents=True)
    lines = ["identifier1\tidentifier2\tannotator\tjudgment\tcomment\tlemma\ttimestamp\tsession"]
    lines += [f"u{i}\tv{i}\t{a}\t{v}\t\tarm\t{t}\t{s}" for i, a, v, t, s in rows]
    (folder / "judgments.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _table_overall(path, rows):
    """The table kind's overall figures of ``rows`` (item, annotator, label), ordinal."""
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_csv(path, index=False)
    j = run_to_end(TABLE.run([path], {"level": "ordinal"})).to_json()
    return j["overall"]


def _same(mine, table, names):
    for k in names:
        for part in ("value", "ci_low", "ci_high"):
            assert mine[k][part] == pytest.approx(table[k][part], abs=1e-12), (k, part)


def _week(day: str) -> str:
    d = pd.Timestamp(day).normalize()
    return (d - pd.Timedelta(days=d.weekday())).strftime("week of %Y-%m-%d")


def test_per_batch_figures_equal_the_table_kinds_on_each_batchs_rows(tmp_path):
    rows = [r for r in _rows() if r[4] == "1"]  # no repeats: a batch's rows are its judgments
    res = run_to_end(
        DUREL.run([_write_durel(tmp_path / "arm", rows)], {"batch_column": "timestamp"})
    )
    j = json.loads(json.dumps(res.to_json()))
    weeks = sorted({_week(t[:10]) for *_x, t, _s in rows})
    assert [b["batch"] for b in j["per_batch"]] == weeks
    for b in j["per_batch"]:
        sub = [(f"u{i}", a, v) for i, a, v, t, _s in rows if _week(t[:10]) == b["batch"]]
        assert b["n_judgments"] == len(sub)
        assert {v for *_x, v in sub} == {1, 2, 3, 4}  # the study's categories in each batch
        table = _table_overall(tmp_path / f"{b['batch']}.csv", sub)
        assert set(RETEST_METRICS) <= set(b["overall"])
        _same(b["overall"], table, [k for k in b["overall"] if k in table])
        per_item = pd.Series([i for i, *_x in sub]).value_counts()
        assert b["n_items"] == int((per_item >= 2).sum())
    whole = _table_overall(tmp_path / "all.csv", [(f"u{i}", a, v) for i, a, v, *_x in rows])
    _same(j["per_batch_study"], whole, RETEST_METRICS)
    tables = res.tables()
    assert set(tables["per_batch"]["batch"]) == set(weeks)
    study = tables["per_batch_study"].set_index("metric")
    assert (
        study.loc["krippendorff_alpha", "value"]
        == j["per_batch_study"]["krippendorff_alpha"]["value"]
    )
    assert {"batch", "n_judgments", "n_items", "metric", "value", "ci_low", "ci_high"} <= set(
        tables["per_batch"].columns
    )


def test_days_as_batches_and_a_missing_column_refused_by_name(tmp_path):
    rows = [r for r in _rows() if r[4] == "1"]
    folder = _write_durel(tmp_path / "arm", rows)
    res = run_to_end(DUREL.run([folder], {"batch_column": "timestamp", "batch_size": "day"}))
    assert [b["batch"] for b in res.to_json()["per_batch"]] == list(DAYS)
    with pytest.raises(
        OptionError,
        match="Batch column: 'when' is no column.*such columns: lemma, timestamp, session",
    ):
        run_to_end(DUREL.run([folder], {"batch_column": "when"}))
    with pytest.raises(OptionError, match="Occasion column: 'x' is no column"):
        run_to_end(DUREL.run([folder], {"retest": True, "occasion_column": "x"}))


@pytest.mark.parametrize("occasion_column", ["", "session"])
def test_retest_equals_the_table_kind_on_each_annotators_occasions(tmp_path, occasion_column):
    rows = _rows()
    res = run_to_end(
        DUREL.run(
            [_write_durel(tmp_path / "arm", rows)],
            {"retest": True, "occasion_column": occasion_column},
        )
    )
    j = json.loads(json.dumps(res.to_json()))
    assert [r["annotator"] for r in j["retest"]] == ["ann1", "ann2"]
    for r in j["retest"]:
        mine = [(f"u{i}", s, v) for i, a, v, _t, s in rows if a == r["annotator"]]
        if not occasion_column:  # the order of the annotator's judgments of a pair
            seen: dict[str, int] = {}
            ranked = []
            for i, _s, v in mine:
                seen[i] = seen.get(i, 0) + 1
                ranked.append((i, str(seen[i]), v))
            mine = ranked
        assert r["n_occasions"] == 2 and r["occasions"] == ["1", "2"]
        twice = pd.Series([i for i, _s, _v in mine]).value_counts()
        assert r["n_items"] == int((twice >= 2).sum()) > 30
        table = _table_overall(tmp_path / f"{r['annotator']}.csv", mine)
        _same(r, table, RETEST_METRICS)
    # the figures between annotators still combine the repeats by their median
    plain = run_to_end(DUREL.run([_write_durel(tmp_path / "again", rows)], {})).to_json()
    assert plain["overall"] == j["overall"]
    assert set(res.tables()["retest"]["metric"]) == set(RETEST_METRICS)


def test_report_has_the_batch_and_retest_sections(tmp_path):
    from iaa_desktop.core.export import report as R

    res = run_to_end(
        DUREL.run(
            [_write_durel(tmp_path / "arm", _rows())],
            {"batch_column": "timestamp", "retest": True},
        )
    )
    html = R.build_report(res, R.ReportContext(title="Annotators")).html
    for part in (
        "Agreement over batches",
        "Test–retest agreement",
        "‘timestamp’",
        "the order of their repeated judgments in the files",
        "Krippendorff 2004",
    ):
        assert part in html, part


def test_a_judgments_file_of_many_columns_is_read_without_fragmenting(tmp_path):
    """Hundreds of other columns are kept for batches and occasions in one piece (column by
    column, pandas warned that the frame was highly fragmented, an error under -W error)."""
    import warnings

    folder = tmp_path / "wide"
    folder.mkdir()
    extra = [f"x{k}" for k in range(300)]
    head = "identifier1\tidentifier2\tannotator\tjudgment\ttimestamp\t" + "\t".join(extra)
    lines = [head]
    for i in range(12):
        for a, v in (("ann1", 1 + i % 4), ("ann2", 1 + (i + i % 2) % 4)):
            lines.append(f"u{i}\tv{i}\t{a}\t{v}\t2024-03-0{1 + i % 9} 10:00\t" + "\t".join(extra))
    (folder / "judgments.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        js = run_to_end(DUREL.run([folder], {"batch_column": "x7"})).to_json()
    assert [b["batch"] for b in js["per_batch"]] == ["x7"]

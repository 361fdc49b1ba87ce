"""Agreement per batch and test–retest agreement in a multi-label study, per label: each batch's
and each annotator's figures on a label equal the table kind's overall figures (its own reader
and coefficients) on a judgments file holding just that label's presence (1) or absence (0) in
those annotations — the subset written out and read again."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.batches import RETEST_METRICS
from iaa_desktop.core.kinds.multilabel.compare import KIND as MULTILABEL
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.progress import run_to_end

LABELS = ("Complication", "Resolution", "Success")
ANNOTATORS = ("A1", "A2", "A3", "A4")
DAYS = ("2024-03-04", "2024-03-06", "2024-03-12", "2024-03-14", "2024-03-20")  # 3 weeks


def _rows(seed=5, n=90):
    """(item, annotator, label set, timestamp, round): each item on one day; then A1 and A2
    label the first 40 items again (round 2, after the others)."""
    rng = np.random.default_rng(seed)
    rows, truth = [], {}

    def noisy(t, p):
        return tuple(lab for lab, v in zip(LABELS, t, strict=True) if (rng.random() < p) == v)

    for i in range(n):
        truth[i] = tuple(bool(rng.random() < 0.45) for _ in LABELS)
        day = DAYS[i * len(DAYS) // n]
        for a, p in zip(ANNOTATORS, (0.92, 0.85, 0.75, 0.8), strict=True):
            if rng.random() < 0.1:
                continue
            rows.append((f"s{i:02d}", a, noisy(truth[i], p), f"{day} 10:{i % 60:02d}:00", "1"))
    for i in range(40):
        for a, p in (("A1", 0.9), ("A2", 0.8)):
            rows.append((f"s{i:02d}", a, noisy(truth[i], p), "2024-03-25 09:00:00", "2"))
    return rows


def _write_long(path, rows):
    lines = ["item\tannotator\tlabels\ttimestamp\tround"]
    lines += [f"{i}\t{a}\t{';'.join(s)}\t{t}\t{r}" for i, a, s, t, r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _table_overall(path, rows):
    """The table kind's overall figures of ``rows`` (item, annotator, 0/1), nominal."""
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_csv(path, index=False)
    res = run_to_end(TABLE.run([path], {"level": "nominal", "categories": "0,1"}))
    return res.to_json()["overall"]


def _same(mine, table, names):
    assert names
    for k in names:
        for part in ("value", "ci_low", "ci_high"):
            assert mine[k][part] == pytest.approx(table[k][part], abs=1e-12, nan_ok=True), (
                k,
                part,
            )


def _week(day: str) -> str:
    d = pd.Timestamp(day).normalize()
    return (d - pd.Timedelta(days=d.weekday())).strftime("week of %Y-%m-%d")


def test_per_batch_figures_equal_the_table_kinds_per_label(tmp_path):
    rows = [r for r in _rows() if r[4] == "1"]  # no repeats: a batch's rows are its annotations
    path = _write_long(tmp_path / "plot.tsv", rows)
    res = run_to_end(MULTILABEL.run([path], {"batch_column": "timestamp"}))
    j = json.loads(json.dumps(res.to_json()))
    weeks = sorted({_week(t[:10]) for *_x, t, _r in rows})
    assert len(weeks) == 3
    assert [(b["label"], b["batch"]) for b in j["per_batch"]] == [
        (lab, w) for lab in LABELS for w in weeks
    ]
    for b in j["per_batch"]:
        sub = [
            (i, a, int(b["label"] in s)) for i, a, s, t, _r in rows if _week(t[:10]) == b["batch"]
        ]
        assert b["n_judgments"] == len(sub)
        table = _table_overall(tmp_path / "batch.csv", sub)
        assert set(RETEST_METRICS) <= set(b["overall"])
        _same(b["overall"], table, [k for k in b["overall"] if k in table])
        per_item = pd.Series([i for i, *_x in sub]).value_counts()
        assert b["n_items"] == int((per_item >= 2).sum())
    for lab in LABELS:
        whole = _table_overall(
            tmp_path / "all.csv", [(i, a, int(lab in s)) for i, a, s, *_ in rows]
        )
        _same(j["per_batch_study"][lab], whole, list(RETEST_METRICS))
    tables = res.tables()
    assert list(tables["per_batch"].columns[:2]) == ["label", "batch"]
    assert set(tables["per_batch_study"]["label"]) == set(LABELS)
    # the other figures are the study's as without batches
    plain = run_to_end(MULTILABEL.run([path], {})).to_json()
    assert {k: v for k, v in j.items() if not k.startswith("per_batch")} == json.loads(
        json.dumps(plain)
    )


def test_a_drifting_batch_is_flagged_below_the_study(tmp_path):
    rng = np.random.default_rng(3)
    rows = []
    for i in range(120):
        late = i >= 80
        day = "2024-05-06" if i < 40 else "2024-05-13" if i < 80 else "2024-05-20"
        truth = rng.random() < 0.5
        for a in ANNOTATORS:
            keep = truth if rng.random() < (0.55 if late else 0.97) else not truth
            rows.append((f"s{i:03d}", a, ("Success",) if keep else ("Resolution",), day, "1"))
    path = _write_long(tmp_path / "drift.tsv", rows)
    j = run_to_end(MULTILABEL.run([path], {"batch_column": "timestamp"})).to_json()
    success = [b for b in j["per_batch"] if b["label"] == "Success"]
    assert "krippendorff_alpha" in success[-1]["below_study"]
    assert success[0]["below_study"] == []


@pytest.mark.parametrize("occasion_column", ["", "round"])
def test_retest_equals_the_table_kind_per_annotator_and_label(tmp_path, occasion_column):
    rows = _rows()
    path = _write_long(tmp_path / "plot.tsv", rows)
    res = run_to_end(MULTILABEL.run([path], {"retest": True, "occasion_column": occasion_column}))
    j = json.loads(json.dumps(res.to_json()))
    assert [(r["label"], r["annotator"]) for r in j["retest"]] == [
        (lab, a) for lab in LABELS for a in ("A1", "A2")
    ]
    for r in j["retest"]:
        mine = [(i, o, int(r["label"] in s)) for i, a, s, _t, o in rows if a == r["annotator"]]
        if not occasion_column:  # the order of the annotator's annotations of an item
            seen: dict[str, int] = {}
            ranked = []
            for i, _o, v in mine:
                seen[i] = seen.get(i, 0) + 1
                ranked.append((i, str(seen[i]), v))
            mine = ranked
        assert r["n_occasions"] == 2 and r["occasions"] == ["1", "2"]
        twice = pd.Series([i for i, _o, _v in mine]).value_counts()
        assert r["n_items"] == int((twice >= 2).sum()) > 30
        table = _table_overall(tmp_path / "ann.csv", mine)
        _same(r, table, list(RETEST_METRICS))
    # every other figure keeps each annotator's first annotation, as without retest — where
    # the repeats are reported as problems
    plain = run_to_end(MULTILABEL.run([path], {}))
    met: set[tuple[str, str]] = set()
    kept = [r for r in rows if (r[0], r[1]) not in met and not met.add((r[0], r[1]))]
    firsts = _write_long(tmp_path / "firsts.tsv", kept)
    first = run_to_end(MULTILABEL.run([firsts], {})).to_json()
    assert json.loads(json.dumps(plain.to_json())) == json.loads(json.dumps(first))
    assert {k: v for k, v in j.items() if k != "retest"} == json.loads(json.dumps(first))
    twice = [e for e in plain.errors if "a second time" in str(e)]
    assert len(twice) == len(rows) - len({(i, a) for i, a, *_x in rows}) > 60
    assert not [e for e in res.errors if "a second time" in str(e)]
    assert set(res.tables()["retest"]["label"]) == set(LABELS)


def test_a_missing_column_is_refused_naming_the_option_the_file_and_its_columns(tmp_path):
    path = _write_long(tmp_path / "plot.tsv", _rows()[:50])
    with pytest.raises(
        OptionError,
        match=r"Batch column: 'when' is no column of plot\.tsv \(its columns: item, annotator, "
        r"labels, timestamp, round\)",
    ):
        run_to_end(MULTILABEL.run([path], {"batch_column": "when"}))
    with pytest.raises(OptionError, match="Occasion column: 'session' is no column of plot.tsv"):
        run_to_end(MULTILABEL.run([path], {"retest": True, "occasion_column": "session"}))
    # one file of two lacking it is named
    other = tmp_path / "more.tsv"
    other.write_text("item\tannotator\tlabels\ns99\tA1\tSuccess\n", encoding="utf-8")
    with pytest.raises(OptionError, match=r"no column of more\.tsv \(its columns: item, annot"):
        run_to_end(MULTILABEL.run([path, other], {"batch_column": "timestamp"}))


def test_a_wide_table_carries_a_batch_column_that_is_no_label(tmp_path):
    rows = [r for r in _rows() if r[4] == "1"]
    long = _write_long(tmp_path / "plot.tsv", rows)
    wide = tmp_path / "plot.csv"
    pd.DataFrame(
        [
            {"item": i, "annotator": a, **{lab: int(lab in s) for lab in LABELS}, "round": t[:10]}
            for i, a, s, t, _r in rows
        ]
    ).to_csv(wide, index=False)
    options = {"batch_column": "timestamp", "batch_size": "day"}
    from_long = run_to_end(MULTILABEL.run([long], options)).to_json()
    from_wide = run_to_end(MULTILABEL.run([wide], {**options, "batch_column": "round"})).to_json()
    assert from_wide["labels"] == list(LABELS)  # the batch column is no label
    assert from_wide["per_batch"] == from_long["per_batch"]
    assert [b["batch"] for b in from_wide["per_batch"][:5]] == list(DAYS)
    # without the option, the same table is not recognised (its dates are no 0/1 column)
    with pytest.raises(Exception, match="neither a long table"):
        run_to_end(MULTILABEL.run([wide], {}))


def test_nothing_new_without_the_options(tmp_path):
    path = _write_long(tmp_path / "plot.tsv", [r for r in _rows() if r[4] == "1"])
    res = run_to_end(MULTILABEL.run([path], {}))
    j = res.to_json()
    assert "per_batch" not in j and "retest" not in j
    assert res.data.responses is None
    assert not {"per_batch", "per_batch_study", "retest"} & set(res.tables())


def test_report_has_the_batch_and_retest_sections_per_label(tmp_path):
    from iaa_desktop.core.export import report as R

    path = _write_long(tmp_path / "plot.tsv", _rows())
    res = run_to_end(
        MULTILABEL.run([path], {"batch_column": "timestamp", "retest": True, "n_resamples": 200})
    )
    html = R.build_report(res, R.ReportContext(title="Batches")).html
    for part in (
        "Agreement over batches",
        "Test–retest agreement",
        "‘timestamp’",
        "the order of their repeated judgments in the files",
        "Krippendorff 2004",
        "Resolution",
    ):
        assert part in html, part


def test_an_empty_batch_cell_is_a_batch_of_its_own(tmp_path):
    rows = [r for r in _rows() if r[4] == "1"]
    rows[5] = (*rows[5][:3], "", rows[5][4])
    path = _write_long(tmp_path / "plot.tsv", rows)
    j = run_to_end(MULTILABEL.run([path], {"batch_column": "timestamp"})).to_json()
    batches = list(dict.fromkeys(b["batch"] for b in j["per_batch"]))
    assert batches == ["(empty)", *sorted({_week(t[:10]) for *_x, t, _r in rows if t})]
    empty = [b for b in j["per_batch"] if b["batch"] == "(empty)"]
    assert all(b["n_judgments"] == 1 and b["overall"] == {} for b in empty)


def test_without_retest_a_repeat_stays_a_problem_and_out_of_the_batches(tmp_path):
    rows = _rows()
    path = _write_long(tmp_path / "plot.tsv", rows)
    res = run_to_end(MULTILABEL.run([path], {"batch_column": "timestamp"}))
    firsts = len({(i, a) for i, a, *_x in rows})
    twice = [e for e in res.errors if "a second time; the first annotation was kept" in str(e)]
    assert len(twice) == len(rows) - firsts
    one_label = [b for b in res.to_json()["per_batch"] if b["label"] == LABELS[0]]
    assert sum(b["n_judgments"] for b in one_label) == firsts


def test_a_wide_tables_zero_one_batch_column_and_retest(tmp_path):
    """A 0/1 batch column of a wide table would pass for a label; named as the batch column it
    is none. Test–retest from a wide table equals the long table's."""
    rows = _rows()
    long = _write_long(tmp_path / "plot.tsv", rows)
    wide = tmp_path / "plot.csv"
    pd.DataFrame(
        [
            {"item": i, "annotator": a, **{lab: int(lab in s) for lab in LABELS}, "half": k % 2}
            for k, (i, a, s, _t, _r) in enumerate(rows)
        ]
    ).to_csv(wide, index=False)
    assert run_to_end(MULTILABEL.run([wide], {})).to_json()["labels"] == [*LABELS, "half"]
    j = run_to_end(MULTILABEL.run([wide], {"batch_column": "half", "retest": True})).to_json()
    assert j["labels"] == list(LABELS)
    assert [b["batch"] for b in j["per_batch"][:2]] == ["0", "1"]
    from_long = run_to_end(MULTILABEL.run([long], {"retest": True})).to_json()
    assert j["retest"] == from_long["retest"]

"""Agreement over batches in a span study, per token: each annotator's annotation of a document
is in the batch of when it was made (a Label Studio export's ``created_at``/``updated_at``, a span
table's column), and each batch's figures equal the table kind's overall figures (its own reader
and coefficients) on that batch's token labels written as a judgment table — the tokens coded
here, independently of the spans kind, as the label of the span covering them, or none."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.annotators.batches import RETEST_METRICS
from iaa_desktop.core.kinds.spans.compare import KIND as SPANS
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.progress import run_to_end

# sorted names and labels, "~none" after them: the tally's rows come in the same order
ANNOTATORS = ("a1", "a2", "a3")
LABELS = ("LOC", "PER")
NONE = "~none"
WORDS = "Anna met Ben in Rome , then Carl flew to Oslo and Dana stayed home".split()
# three weeks: Monday 2024-03-04, 2024-03-11, 2024-03-18
STAMPS = ("2024-03-05T09:15:00.123456Z", "2024-03-13T16:40:10.5Z", "2024-03-20T08:00:00Z")
_TOKEN = re.compile(r"\w+|[^\w\s]")


def _study(seed=3, n_docs=12):
    """Per document its words and per annotator the label of each word (one-word spans) and the
    time of the annotation (each annotator's own schedule over the three weeks)."""
    rng = np.random.default_rng(seed)
    docs = []
    for d in range(n_docs):
        words = list(rng.permutation(WORDS))
        truth = rng.choice([*LABELS, NONE], size=len(words), p=(0.25, 0.25, 0.5))
        by = {}
        for x, (a, err) in enumerate(zip(ANNOTATORS, (0.1, 0.2, 0.35), strict=True)):
            wrong = rng.random(len(words)) < err
            labels = np.where(wrong, rng.choice([*LABELS, NONE], size=len(words)), truth)
            week = (d + x) * len(STAMPS) // (n_docs + 2)
            by[a] = (list(labels), STAMPS[min(week, 2)])
        docs.append((f"{d + 1}", words, by))
    return docs


def _spans_of(words, labels):
    """(start, end, label) of the labelled words of the text ``" ".join(words)``."""
    out, pos = [], 0
    for w, lab in zip(words, labels, strict=True):
        if lab != NONE:
            out.append((pos, pos + len(w), lab))
        pos += len(w) + 1
    return out


def _label_studio(path, docs, users=None):
    users = users or {a: k + 10 for k, a in enumerate(ANNOTATORS)}
    tasks = []
    for name, words, by in docs:
        text = " ".join(words)
        anns = []
        for a, (labels, stamp) in by.items():
            result = [
                {
                    "id": f"r{name}{a}{s}",
                    "from_name": "label",
                    "to_name": "text",
                    "type": "labels",
                    "value": {"start": s, "end": e, "text": text[s:e], "labels": [lab]},
                }
                for s, e, lab in _spans_of(words, labels)
            ]
            anns.append(
                {
                    "id": len(anns) + 1,
                    "completed_by": users[a],
                    "result": result,
                    "was_cancelled": False,
                    "ground_truth": False,
                    "created_at": stamp,
                    "updated_at": stamp,
                    "lead_time": 12.5,
                    "task": int(name),
                }
            )
        tasks.append({"id": int(name), "data": {"text": text}, "annotations": anns})
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return path


def _span_table(folder, docs):
    folder.mkdir()
    rows = []
    for name, words, by in docs:
        (folder / f"d{name}.txt").write_text(" ".join(words), encoding="utf-8")
        for a, (labels, stamp) in by.items():
            for s, e, lab in _spans_of(words, labels):
                rows.append((f"d{name}", a, s, e, lab, stamp[:10]))
    pd.DataFrame(rows, columns=["document", "annotator", "start", "end", "label", "day"]).to_csv(
        folder / "spans.csv", index=False
    )
    return folder


def _week(stamp: str) -> str:
    d = pd.Timestamp(stamp[:10])
    return (d - pd.Timedelta(days=d.weekday())).strftime("week of %Y-%m-%d")


def _judgments(docs, who, prefix=""):
    """(item, annotator, label) of every token of the annotations ``who(annotator, stamp)``
    keeps, tokens in document order."""
    rows = []
    for d, (name, words, by) in enumerate(docs):
        text = " ".join(words)
        for t, m in enumerate(_TOKEN.finditer(text)):
            word = text[: m.start()].count(" ")
            for a, (labels, stamp) in by.items():
                if who(a, stamp):  # items named in token order (the table kind sorts them)
                    rows.append((f"{d:03d} {prefix}{name}:{t:03d}", a, labels[word]))
    return rows


def _table_overall(path, rows, seed):
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_csv(path, index=False)
    options = {"level": "nominal", "categories": ",".join([*LABELS, NONE]), "n_resamples": 300}
    res = run_to_end(TABLE.run([path], {**options, "seed": seed}))
    return res.to_json()["overall"]


def _same(mine, table, names):
    assert names
    for k in names:
        for part in ("value", "ci_low", "ci_high"):
            assert mine[k][part] == pytest.approx(table[k][part], abs=1e-12, nan_ok=True), (k, part)


def _check_batches(tmp_path, j, docs, batch_of, prefix=""):
    batches = sorted({batch_of(s) for *_x, by in docs for _l, s in by.values()})
    assert [b["batch"] for b in j["per_batch"]] == batches and len(batches) == 3
    for b in j["per_batch"]:
        sub = _judgments(docs, lambda _a, s, b=b: batch_of(s) == b["batch"], prefix)
        assert b["n_judgments"] == len(sub)
        table = _table_overall(tmp_path / "batch.csv", sub, 11)
        assert set(b["overall"]) == set(table)
        _same(b["overall"], table, list(table))
    whole = _table_overall(tmp_path / "all.csv", _judgments(docs, lambda _a, _s: True, prefix), 11)
    _same(j["per_batch_study"], whole, list(whole))


def test_label_studio_batches_by_created_at_equal_the_table_kinds(tmp_path):
    docs = _study()
    path = _label_studio(tmp_path / "export.json", docs)
    options = {"gamma": False, "n_resamples": 300, "seed": 11}
    res = run_to_end(SPANS.run([path], {**options, "batch_column": "created_at"}))
    j = res.to_json()
    _check_batches(tmp_path, j, docs, _week)
    for name in ("per_batch", "per_batch_study"):
        assert name in res.tables()
    # by day, updated_at: one batch per day of the stamps
    day = run_to_end(
        SPANS.run([path], {**options, "batch_column": "updated_at", "batch_size": "day"})
    ).to_json()
    assert [b["batch"] for b in day["per_batch"]] == [s[:10] for s in STAMPS]
    # the other figures are the study's as without batches
    plain = run_to_end(SPANS.run([path], options)).to_json()
    assert "per_batch" not in plain
    assert {k: v for k, v in j.items() if not k.startswith("per_batch")} == plain


def test_span_table_batches_by_a_column_equal_the_table_kinds(tmp_path):
    docs = _study(seed=8)
    folder = _span_table(tmp_path / "table", docs)
    options = {"gamma": False, "n_resamples": 300, "seed": 11, "batch_column": "day"}
    j = run_to_end(SPANS.run([folder / "spans.csv"], options)).to_json()
    _check_batches(tmp_path, j, docs, _week, prefix="d")
    assert RETEST_METRICS[0] in j["per_batch"][0]["overall"]


def test_a_batch_below_the_study_is_flagged(tmp_path):
    docs = _study(seed=5, n_docs=15)
    # the third week: the third annotator labels at random
    rng = np.random.default_rng(1)
    for _n, words, by in docs:
        labels, stamp = by["a3"]
        if stamp == STAMPS[2]:
            by["a3"] = (list(rng.choice([*LABELS, NONE], size=len(words))), stamp)
        for a in ("a1", "a2"):
            by[a] = (by[a][0], by["a3"][1])
    path = _label_studio(tmp_path / "export.json", docs)
    j = run_to_end(
        SPANS.run([path], {"gamma": False, "n_resamples": 300, "batch_column": "created_at"})
    ).to_json()
    flagged = {b["batch"] for b in j["per_batch"] if "krippendorff_alpha" in b["below_study"]}
    assert flagged == {_week(STAMPS[2])}


def test_formats_without_times_and_missing_columns_are_refused(tmp_path):
    docs = _study(n_docs=3)
    path = _label_studio(tmp_path / "export.json", docs)
    with pytest.raises(
        OptionError,
        match=r"Batch column: 'when' is no field of the annotations of export\.json \(a Label "
        r"Studio export gives each annotation created_at and updated_at; its annotations' "
        r"fields: id, completed_by, was_cancelled, ground_truth, created_at, updated_at, "
        r"lead_time, task\)",
    ):
        run_to_end(SPANS.run([path], {"batch_column": "when", "gamma": False}))
    folder = _span_table(tmp_path / "table", docs)
    with pytest.raises(
        OptionError,
        match=r"Batch column: 'round' is no column of spans\.csv \(its columns: document, "
        r"annotator, start, end, label, day\)",
    ):
        run_to_end(SPANS.run([folder / "spans.csv"], {"batch_column": "round", "gamma": False}))
    # brat: no time at all
    brat = tmp_path / "brat"
    for a in ANNOTATORS:
        (brat / a).mkdir(parents=True)
        (brat / a / "doc.txt").write_text("Anna met Ben", encoding="utf-8")
        (brat / a / "doc.ann").write_text("T1\tPER 0 4\tAnna\n", encoding="utf-8")
    with pytest.raises(
        OptionError,
        match=r"Batch column: 'created_at' cannot be read from doc\.ann: a brat standoff file "
        r"says nothing of when its annotations were made",
    ):
        run_to_end(SPANS.run([brat], {"batch_column": "created_at", "gamma": False}))


def test_report_has_the_batch_section_and_its_methods(tmp_path):
    from iaa_desktop.core.export import report as R

    path = _label_studio(tmp_path / "export.json", _study())
    options = {"gamma": False, "n_resamples": 200, "batch_column": "created_at"}
    res = run_to_end(SPANS.run([path], {**options, "batch_size": "day"}))
    html = R.build_report(res, R.ReportContext(title="Batches")).html
    for part in ("Agreement over batches", "‘created_at’", "(binned: day)", "the token labels of"):
        assert part in html, part
    assert "per_batch" in res.tables() and len(res.tables()["per_batch"]) > 0
    _with_repeats(path, _study())
    res = run_to_end(SPANS.run([path], {"gamma": False, "n_resamples": 200, "retest": True}))
    html = R.build_report(res, R.ReportContext(title="Retest")).html
    for part in (
        "Test–retest agreement",
        "in the order of their creation time",
        "Krippendorff 2004",
    ):
        assert part in html, part
    assert set(res.tables()["retest"]["annotator"]) == {"10", "11"}


def test_a_span_tables_annotation_is_in_the_batch_of_its_first_row(tmp_path):
    docs = _study(seed=8, n_docs=4)
    folder = _span_table(tmp_path / "table", docs)
    frame = pd.read_csv(folder / "spans.csv")
    first = frame.iloc[0]
    later = frame.index[(frame["document"] == first["document"]) & (frame["annotator"] == "a1")]
    assert len(later) >= 2
    frame.loc[later[1:], "day"] = "2024-04-30"  # a later row of the same annotation, elsewhere
    frame.to_csv(folder / "spans.csv", index=False)
    res = run_to_end(
        SPANS.run(
            [folder / "spans.csv"], {"gamma": False, "n_resamples": 50, "batch_column": "day"}
        )
    )
    said = [str(e) for e in res.errors if "batch column" in str(e)]
    assert len(said) == 1 and "counts in the batch of its first row" in said[0], said
    assert f"document {first['document']} of a1" in said[0]
    assert "week of 2024-04-29" not in {b["batch"] for b in res.to_json()["per_batch"]}


def test_model_annotators_stay_out_of_the_batches(tmp_path):
    docs = _study(n_docs=8)
    path = _label_studio(tmp_path / "export.json", docs)
    options = {"gamma": False, "n_resamples": 200, "seed": 11, "batch_column": "created_at"}
    both = run_to_end(SPANS.run([path], {**options, "model_annotators": "12"})).to_json()
    assert both["model_annotators"]
    humans = _label_studio(
        tmp_path / "humans.json", [(n, w, {a: by[a] for a in ("a1", "a2")}) for n, w, by in docs]
    )
    alone = run_to_end(SPANS.run([humans], options)).to_json()
    assert both["per_batch"] == alone["per_batch"]
    assert both["per_batch_study"] == alone["per_batch_study"]


def _with_repeats(path, docs, seed=4):
    """The export with a1 and a2 annotating the first six tasks again a week later (a1's
    second annotation written before the first in the file: created_at orders them)."""
    rng = np.random.default_rng(seed)
    tasks = json.loads(path.read_text(encoding="utf-8"))
    again = {}
    for task, (name, words, by) in zip(tasks[:6], docs[:6], strict=True):
        for a, user, err in (("a1", 10, 0.15), ("a2", 11, 0.3)):
            first = np.array(by[a][0], dtype=object)
            wrong = rng.random(len(words)) < err
            labels = list(np.where(wrong, rng.choice([*LABELS, NONE], size=len(words)), first))
            again[(name, a)] = labels
            text = " ".join(words)
            ann = {
                "id": 100 + len(again),
                "completed_by": user,
                "result": [
                    {
                        "from_name": "label",
                        "to_name": "text",
                        "type": "labels",
                        "value": {"start": s, "end": e, "text": text[s:e], "labels": [lab]},
                    }
                    for s, e, lab in _spans_of(words, labels)
                ],
                "was_cancelled": False,
                "created_at": "2024-04-02T10:00:00Z",
            }
            if a == "a1":
                task["annotations"].insert(0, ann)
            else:
                task["annotations"].append(ann)
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return again


def test_label_studio_retest_by_created_at_equals_the_table_kinds(tmp_path):
    docs = _study()
    path = _label_studio(tmp_path / "export.json", docs)
    options = {"gamma": False, "n_resamples": 300, "seed": 11}
    plain = run_to_end(SPANS.run([path], options)).to_json()
    again = _with_repeats(path, docs)
    res = run_to_end(SPANS.run([path], {**options, "retest": True}))
    assert not [e for e in res.errors if "twice" in str(e)]
    j = res.to_json()
    assert [r["annotator"] for r in j["retest"]] == ["10", "11"]  # Label Studio's user ids
    for r, a in zip(j["retest"], ("a1", "a2"), strict=True):
        assert r["occasions"] == ["1", "2"]
        rows = []
        for d, (name, words, by) in enumerate(docs[:6]):
            text = " ".join(words)
            for t, m in enumerate(_TOKEN.finditer(text)):
                word = text[: m.start()].count(" ")
                item = f"{d:03d}:{t:03d}"
                rows += [(item, "1", by[a][0][word]), (item, "2", again[(name, a)][word])]
        assert r["n_items"] == len(rows) // 2
        table = _table_overall(tmp_path / f"{a}.csv", rows, 11)
        _same(r, table, list(RETEST_METRICS))
    # without the option a repeat stays a problem, left out
    res = run_to_end(SPANS.run([path], options))
    assert len([e for e in res.errors if "twice" in str(e)]) == 12
    assert "retest" not in res.to_json()
    # the other figures keep each annotator's first annotation in the file, as without retest
    kept = {k: v for k, v in j.items() if k not in ("retest", "errors", "warnings")}
    assert kept == {k: v for k, v in res.to_json().items() if k not in ("errors", "warnings")}
    assert plain != kept  # a1's first annotations in the file are the repeats


def test_retest_is_refused_for_formats_without_repeats(tmp_path):
    folder = _span_table(tmp_path / "table", _study(n_docs=3))
    with pytest.raises(
        OptionError, match=r"Test–retest: spans\.csv holds one annotation per annotator and doc"
    ):
        run_to_end(SPANS.run([folder / "spans.csv"], {"retest": True, "gamma": False}))

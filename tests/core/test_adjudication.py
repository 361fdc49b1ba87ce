"""Adjudication session, strategies and gold export per kind (Qt-free)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.cli import compute
from iaa_desktop.core.adjudication import (
    AdjudicationModel,
    AdjudicationSession,
    AdjudicationStore,
    StoreError,
    Strategy,
    auto_merge,
    units_for,
)
from iaa_desktop.core.adjudication.model import majority_values, unanimous_values
from iaa_desktop.core.errors import OptionError
from tests.conftest import shared_path

# ---------------------------------------------------------------------------------------------
# strategies


def _model(rows: list[list[str | None]], names=("A", "B", "C")) -> AdjudicationModel:
    return AdjudicationModel(
        names, [f"i{k}" for k in range(len(rows))], np.array(rows, dtype=object)
    )


def test_strategies_on_a_small_table() -> None:
    m = _model(
        [
            ["a", "a", "a"],
            ["a", "a", "b"],
            ["a", "b", None],
            ["x", None, None],
            [None, None, None],
            ["a", "b", "c"],
            ["a", "a", None],
        ]
    )
    assert list(auto_merge(m, Strategy("unanimous"))) == ["a", None, None, "x", None, None, "a"]
    assert list(auto_merge(m, Strategy("majority"))) == ["a", "a", None, "x", None, None, "a"]
    # 2 of 3 is more than half but below a share of 0.7
    assert list(auto_merge(m, Strategy("majority", 0.7))) == ["a", None, None, "x", None, None, "a"]
    assert list(auto_merge(m, Strategy.parse("annotator:B"))) == [
        "a",
        "a",
        "b",
        None,
        None,
        "b",
        "a",
    ]
    with pytest.raises(OptionError):
        auto_merge(m, Strategy.parse("annotator:Z"))
    with pytest.raises(OptionError):
        Strategy.parse("plurality")
    with pytest.raises(OptionError):
        Strategy.parse("majority", 1.5)


rows_strategy = st.lists(
    st.lists(st.one_of(st.none(), st.sampled_from("abc")), min_size=4, max_size=4),
    min_size=1,
    max_size=30,
)


@settings(max_examples=100, deadline=None)
@given(rows_strategy, st.sampled_from([0.0, 0.5, 0.6, 0.75, 1.0]))
def test_majority_and_unanimous_match_a_plain_count(rows, share) -> None:
    m = _model(rows, names=("A", "B", "C", "D"))
    maj = majority_values(m.codes, m.code_values, share)
    una = unanimous_values(m.codes, m.code_values)
    for k, row in enumerate(rows):
        vals = [v for v in row if v is not None]
        if not vals:
            assert maj[k] is None and una[k] is None
            continue
        ((best, n_best),) = Counter(vals).most_common(1)
        expect = best if (n_best * 2 > len(vals) and n_best >= share * len(vals) - 1e-12) else None
        assert maj[k] == expect
        assert una[k] == (vals[0] if len(set(vals)) == 1 else None)


# ---------------------------------------------------------------------------------------------
# session


def _session(tmp_path: Path, model: AdjudicationModel, **kw) -> AdjudicationSession:
    return AdjudicationSession(
        model, AdjudicationStore.open(tmp_path / "s.adjudication.sqlite"), **kw
    )


def test_session_queue_progress_undo_and_feedback(tmp_path: Path) -> None:
    m = _model([["a", "a", "a"], ["a", "b", "b"], ["a", "b", "c"], ["x", "y", None]])
    s = _session(tmp_path, m)
    assert s.progress() == (1, 4)
    q = list(s.queue())
    assert q[0] == 2 and set(q) == {1, 2, 3}  # most disagreeing first
    assert s.next_unresolved(None) == q[0]
    assert s.next_unresolved(q[0]) == q[1]
    assert s.next_unresolved(q[0], backwards=True) == q[-1]
    c1 = s.choose(2, "annotator:C", note="C was right")
    s.apply(c1)
    assert s.gold[2] == "c" and s.progress() == (2, 4)
    s.apply(s.choose(1, "majority"))
    typed = s.choose(3, "typed", value="z")
    s.apply(typed)
    assert s.progress() == (4, 4) and len(s.queue()) == 0
    ag = s.agreement().set_index("annotator")
    assert ag.loc["A", "n_agree"] == 1 and ag.loc["A", "n_units"] == 4
    assert ag.loc["C", "percent_agreement"] == 1.0 and ag.loc["C", "n_units"] == 3
    assert ag.loc["B", "percent_agreement"] == 0.5
    fb = s.feedback("A")
    assert set(fb["unit"]) == {"i1", "i2", "i3"}
    log = s.decision_log()
    row = log.set_index("unit").loc["i2"]
    assert (
        row["choice"] == "annotator:C"
        and row["overruled"] == "A; B"
        and row["note"] == "C was right"
    )
    assert log.set_index("unit").loc["i0", "choice"].startswith("automatic")
    # undo = apply the inverse
    s.apply(typed.inverse())
    assert s.gold[3] is None and s.progress() == (3, 4)
    s.apply(typed)
    s.store.close()
    # resume: the decisions and the strategy come back
    s2 = _session(tmp_path, m)
    assert list(s2.gold) == ["a", "b", "c", "z"]
    s2.store.close()


def test_changing_strategy_keeps_decisions(tmp_path: Path) -> None:
    m = _model([["a", "a", "b"], ["a", "b", "c"]])
    s = _session(tmp_path, m)
    s.apply(s.choose(1, "annotator:B"))
    assert s.progress() == (1, 2)
    s.set_strategy(Strategy("majority"))
    assert list(s.gold) == ["a", "b"] and s.progress() == (2, 2)
    s.store.close()
    s2 = _session(tmp_path, m)
    assert s2.strategy.name == "majority"
    s2.store.close()


def test_blind_mode_is_reproducible_from_the_seed(tmp_path: Path) -> None:
    rows = [["a", str(k), "b"] for k in range(40)]
    m = _model(rows)
    s = _session(tmp_path, m, blind=True, seed=123)
    q1 = list(s.queue())
    assert q1 != sorted(q1)
    assert s.display_names() == ["Annotator 1", "Annotator 2", "Annotator 3"]
    assert all(c.label.startswith("Annotator") for c in s.choices(0)[:3])
    s.store.close()
    s2 = _session(tmp_path, m)  # seed and blind come from the store
    assert s2.blind and s2.seed == 123 and list(s2.queue()) == q1
    s2.store.close()


def test_store_of_another_kind_is_refused(tmp_path: Path) -> None:
    m = _model([["a", "b", "c"]])
    s = _session(tmp_path, m)
    s.store.close()

    class Other(AdjudicationModel):
        kind = "durel"

    with (
        AdjudicationStore.open(tmp_path / "s.adjudication.sqlite") as st_,
        pytest.raises(StoreError, match="table"),
    ):
        AdjudicationSession(Other(("A",), ["x"], np.array([["a"]], dtype=object)), st_)


def test_text_filter(tmp_path: Path) -> None:
    m = AdjudicationModel(
        ("A", "B"),
        ["k1", "k2", "k3"],
        np.array([["a", "b"], ["a", "c"], ["d", "e"]], dtype=object),
        titles=["apple", "banana", "cherry"],
        groups=["T1", "T2", "T1"],
    )
    s = _session(tmp_path, m)
    assert set(s.queue(text="t1")) == {0, 2}
    assert list(s.queue(text="BAN")) == [1]
    with pytest.raises(OptionError):
        s.queue("nonsense")
    s.store.close()


# ---------------------------------------------------------------------------------------------
# gold export and load-back per kind


def _agree_fully(model, gold, model2, name="gold") -> None:
    """The re-loaded gold annotator equals the session's gold on every unit (undecided = missing)."""
    x = model2.annotators.index(name)
    back = dict(zip(model2.keys, model2.versions[:, x]))
    for k, g in zip(model.keys, gold):
        assert back.get(k) == g, (k, back.get(k), g)


def _decide_some(s: AdjudicationSession, n: int) -> None:
    for i in s.queue()[:n]:
        ch = [c for c in s.choices(int(i)) if c.value is not None]
        s.apply(s.choose(int(i), ch[-1], note="checked"))


@pytest.mark.parametrize("layout", ["long", "wide", "per-annotator"])
def test_table_gold_round_trip(tmp_path: Path, layout: str) -> None:
    data = pd.DataFrame(
        {
            "item": ["i1", "i1", "i1", "i2", "i2", "i2", "i3", "i3", "i3", "i4", "i4"],
            "annotator": ["A", "B", "C"] * 3 + ["A", "B"],
            "label": ["x", "x", "y", "y", "y", "y", "x", "y", "z", "z", "x"],
            "domain": ["d1"] * 3 + ["d2"] * 3 + ["d1"] * 5,
        }
    )
    src = tmp_path / "in"
    src.mkdir()
    if layout == "long":
        inputs = [src / "j.csv"]
        data.to_csv(inputs[0], index=False)
    elif layout == "wide":
        inputs = [src / "j.tsv"]
        data.pivot(index="item", columns="annotator", values="label").fillna(
            ""
        ).reset_index().to_csv(inputs[0], sep="\t", index=False)
    else:
        inputs = []
        for a, g in data.groupby("annotator"):
            p = src / f"{a}.csv"
            g[["item", "label"]].to_csv(p, index=False)
            inputs.append(p)
    r = compute("table", inputs, {})
    m = units_for(r)
    s = _session(tmp_path, m, strategy=Strategy("majority"))
    _decide_some(s, 1)
    assert any(v is None for v in s.gold)  # i3 or i4 still undecided
    files = s.write_gold(tmp_path / "gold")
    assert (tmp_path / "gold" / "undecided.csv").exists()
    r2 = compute("table", [*inputs, files[0]], {})
    _agree_fully(m, s.gold, units_for(r2))
    s.store.close()


def test_durel_gold_round_trip(tmp_path: Path) -> None:
    trotr = shared_path("trotr")
    r = compute("durel", [trotr / "(Genesis 1 1)", trotr / "(Psalm 23 1)"], {})
    m = units_for(r)
    assert m.numeric
    s = _session(tmp_path, m)
    _decide_some(s, 10)
    i = int(s.queue()[0])
    # DURel judgments are ordinal: the median is offered, as a value of the scale, and no mean
    assert not [c for c in s.choices(i) if c.choice == "mean"]
    median = next(c for c in s.choices(i) if c.choice == "median")
    assert float(median.value) in m.scale
    s.apply(s.choose(i, median, note="split"))
    files = s.write_gold(tmp_path / "gold")
    assert any(f.name == "uses.tsv" for f in files)
    r2 = compute("durel", [tmp_path / "gold"], {})
    assert not r2.errors
    _agree_fully(m, s.gold, units_for(r2))
    s.store.close()


@pytest.mark.parametrize("labels", ["labels.tsv", "labels_wide.csv"])
def test_candidates_gold_round_trip(tmp_path: Path, labels: str) -> None:
    d = shared_path("candidates")
    r = compute("candidates", [d / "pairs.tsv", d / labels], {})
    m = units_for(r)
    s = _session(tmp_path, m)
    _decide_some(s, 15)
    files = s.write_gold(tmp_path / "gold")
    r2 = compute("candidates", [d / "pairs.tsv", files[0]], {})
    _agree_fully(m, s.gold, units_for(r2))
    s.store.close()


@pytest.mark.parametrize("name", ["annotations.tsv", "annotations_wide.tsv"])
def test_multilabel_gold_round_trip(tmp_path: Path, name: str) -> None:
    d = shared_path("multilabel")
    r = compute("multilabel", [d / name], {})
    m = units_for(r)
    s = _session(tmp_path, m)
    _decide_some(s, 15)
    i = int(s.queue()[0])
    s.apply(s.choose(i, "typed", value="Resolution, complication"))
    assert s.gold[i] == "Complication;Resolution"
    files = s.write_gold(tmp_path / "gold")
    r2 = compute("multilabel", [d / name, files[0]], {})
    _agree_fully(m, s.gold, units_for(r2))
    s.store.close()


def test_normalization_gold_round_trip(tmp_path: Path) -> None:
    d = shared_path("normalization")
    inputs = sorted(d.glob("annotator_*.tsv"))[:3]
    from iaa_desktop.core.kinds.normalization.adjudication import model_from_inputs

    m = model_from_inputs(inputs)
    s = _session(tmp_path, m)
    _decide_some(s, 10)
    i = int(s.queue()[0])
    s.apply(s.choose(i, "typed", value="jeder | jeder | EXT"))
    with pytest.raises(OptionError):
        m.parse_value("jeder | jeder")
    files = s.write_gold(tmp_path / "gold")
    header = files[0].read_text(encoding="utf-8").splitlines()[0]
    assert header == inputs[0].read_text(encoding="utf-8").splitlines()[0]
    m2 = model_from_inputs([*inputs, files[0]])
    x = m2.annotators.index("gold")
    back = dict(zip(m2.keys, m2.versions[:, x]))
    for k, g in zip(m.keys, s.gold):
        # undecided tokens have an empty normalization: the reader leaves them out (missing)
        assert back.get(k) == g
    s.store.close()


def test_decision_log_and_feedback_files(tmp_path: Path) -> None:
    m = _model([["a", "a", "a"], ["a", "b", "b"], ["=cmd", "b", "c"]])
    s = _session(tmp_path, m)
    s.apply(s.choose(1, "annotator:A", note="A knew"))
    s.apply(s.choose(2, "annotator:C"))
    log_path = s.write_decision_log(tmp_path / "log.csv")
    log = pd.read_csv(log_path, dtype=str, keep_default_na=False)
    assert list(log.columns[:3]) == ["unit", "title", "group"]
    assert {"A", "B", "C", "choice", "decision", "overruled", "note", "time"} <= set(log.columns)
    row = log.set_index("unit").loc["i1"]
    assert row["overruled"] == "B; C" and row["note"] == "A knew" and row["time"]
    assert log.set_index("unit").loc["i2", "A"] == "'=cmd"  # neutralised against formula injection
    files = s.write_feedback(tmp_path / "fb")
    names = sorted(f.name for f in files)
    assert names == [
        "agreement_with_gold.csv",
        "feedback_A.csv",
        "feedback_B.csv",
        "feedback_C.csv",
    ]
    fb_b = pd.read_csv(tmp_path / "fb" / "feedback_B.csv", dtype=str, keep_default_na=False)
    assert list(fb_b["unit"]) == ["i1", "i2"]
    assert list(fb_b["gold"]) == ["a", "c"]
    ag = pd.read_csv(tmp_path / "fb" / "agreement_with_gold.csv").set_index("annotator")
    assert ag.loc["A", "n_agree"] == 2 and ag.loc["C", "n_agree"] == 2
    s.store.close()


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_session_undo_of_any_sequence_restores_gold_progress_and_agreement(data) -> None:
    import tempfile

    rows = data.draw(rows_strategy)
    m = _model(rows, names=("A", "B", "C", "D"))
    with tempfile.TemporaryDirectory() as d:
        s = AdjudicationSession(
            m, AdjudicationStore.open(Path(d) / "s.sqlite"), strategy=Strategy("majority")
        )
        gold0, prog0, ag0 = list(s.gold), s.progress(), s.agreement()
        done = []
        for _ in range(data.draw(st.integers(1, 8))):
            i = data.draw(st.integers(0, m.n_units - 1))
            opts = [c for c in s.choices(i) if c.value is not None]
            if opts and data.draw(st.booleans()):
                change = s.choose(
                    i, data.draw(st.sampled_from(opts)), note=data.draw(st.text(max_size=3))
                )
            elif data.draw(st.booleans()):
                change = s.choose(i, "typed", value=data.draw(st.sampled_from(["x", "a", "zz"])))
            else:
                change = s.make_clear(i)
            if change.is_noop:
                continue
            s.apply(change)
            done.append(change)
        for c in reversed(done):
            s.apply(c.inverse())
        assert list(s.gold) == gold0 and s.progress() == prog0
        pd.testing.assert_frame_equal(s.agreement(), ag0)
        assert s.store.snapshot() == {}
        s.store.close()


def test_graded_offers_are_values_of_the_scale() -> None:
    from iaa_desktop.core.adjudication import AdjudicationModel

    versions = np.array([["4", "5"], ["1", "5"], ["2", "3"]], dtype=object)
    m = AdjudicationModel(("A", "B"), ["u1", "u2", "u3"], versions)
    m.numeric, m.scale = True, (1.0, 2.0, 3.0, 4.0, 5.0)
    m.level = "ordinal"
    offers = {c.key: c for c in m.choices(0) if c.choice in ("mean", "median")}
    assert {k: c.value for k, c in offers.items()} == {"d": "4", "e": "5"}  # no "median 4.5"
    m.level = "interval"
    mean = next(c for c in m.choices(1) if c.choice == "mean")
    assert mean.value == "3" and "3" in mean.label
    mean = next(c for c in m.choices(2) if c.choice == "mean")
    assert mean.value == "2" and mean.label == "mean 2.5 → 2"  # halfway: the lower value
    m.scale = ()  # unknown scale: the plain median
    assert next(c for c in m.choices(0) if c.choice == "median").value == "4.5"


def test_severity_follows_the_level_of_measurement() -> None:
    from iaa_desktop.core.adjudication.severity import item_severity, label_severity

    codes = np.array([[3, 4, -1, -1], [0, 2, 4, 1], [2, 2, 2, -1], [0, -1, -1, -1]])
    scale = [1, 2, 3, 4, 5]
    interval = item_severity(codes, "interval", scale)
    # 4 vs 5: δ = 1 of at most 16; 1/3/5/2: mean δ over the six pairs = 35/6, over 16
    assert interval[0] == pytest.approx(1 / 16) and interval[1] == pytest.approx(35 / 6 / 16)
    assert interval[2] == 0 and np.isnan(interval[3])
    nominal = item_severity(codes, "nominal", scale)
    assert nominal[0] == nominal[1] == 1.0  # the share of disagreeing pairs ignores the scale
    assert interval[0] < interval[1]
    ordinal = item_severity(codes, "ordinal", scale)
    assert 0 < ordinal[0] < ordinal[1] <= 1
    text = label_severity(
        np.array([["4", "5.0", ""], ["1", "3", "5"]], dtype=object),
        "interval",
        [1.0, 3.0, 4.0, 5.0],
    )
    assert text[0] == pytest.approx(1 / 16)


def test_bulk_decisions_and_queue_filters(tmp_path: Path) -> None:
    from iaa_desktop.core.adjudication import AdjudicationModel, bulk

    versions = np.array(
        [["4", "5", "4"], ["4", "5", "4"], ["1", "1", "1"], ["2", "3", None], ["1", "2", "1"]],
        dtype=object,
    )
    m = AdjudicationModel(
        ("A", "B", "C"),
        ["u1", "u2", "u3", "u4", "u5"],
        versions,
        groups=["d1", "d1", "d1", "d2", "d2"],
    )
    s = AdjudicationSession(m, AdjudicationStore.open(tmp_path / "s.sqlite"))
    # filters: the units on which A and B differ; the units where somebody said "3"
    assert set(s.queue("all", pair=(0, 1)).tolist()) == {0, 1, 3, 4}
    assert s.queue("all", label="3").tolist() == [3]
    assert bulk.same_disagreement(s, 0).tolist() == [0, 1]
    assert bulk.same_group(s, 3).tolist() == [3, 4]
    s.apply(s.choose(0, next(c for c in s.choices(0) if c.choice == "annotator:A")))
    changes = bulk.take_version(s, "B", bulk.same_disagreement(s, 0))
    assert [c.unit for c in changes] == ["u2"]  # the unit decided by hand is left alone
    s.apply_many(changes)
    assert s.gold[1] == "5" and s.gold[0] == "4"
    changes = bulk.accept_unanimous(s)
    assert [c.unit for c in changes] == ["u3"]
    s.apply_many(changes)
    assert s.decision(2).choice == "unanimous" and s.is_decided(2)
    # undo of a bulk step: the inverses in one transaction
    s.apply_many([c.inverse() for c in reversed(changes)])
    assert not s.is_decided(2)
    s.store.close()

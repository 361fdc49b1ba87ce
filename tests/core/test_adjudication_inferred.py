"""The inferred label of ``--competence`` in adjudication (Dawid & Skene 1979): shown as a
suggestion above each unit of the DURel, multi-label, normalization and span kinds, decided
only by the ``inferred`` merge strategy (``inferred:T``: only where the posterior is ≥ T).

Each study is written here; the expected suggestions come from the study's own ``inferred[]``
rows, mapped to the units by hand (not by the kinds' code)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore, units_for
from iaa_desktop.core.adjudication.model import Strategy, auto_merge
from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.durel.compare import KIND as DUREL
from iaa_desktop.core.kinds.multilabel.compare import KIND as MULTI
from iaa_desktop.core.kinds.normalization.compare import KIND as NORM
from iaa_desktop.core.kinds.spans.compare import KIND as SPANS
from iaa_desktop.core.progress import run_to_end

# -- the studies ------------------------------------------------------------------------------


def durel_study(tmp_path: Path, competence: bool = True):
    """Four annotators judge 30 use pairs of one target on the 1–4 scale (the last of them
    careless; some pairs split two against two, so some posteriors are low)."""
    rng = np.random.default_rng(11)
    folder = tmp_path / "durel" / "arm"
    folder.mkdir(parents=True)
    uses = ["identifier\tcontext\tindexes_target_token\tlemma"]
    rows = ["identifier1\tidentifier2\tannotator\tjudgment\tcomment\tlemma"]
    for i in range(30):
        uses.append(f"u{i}\tthe arm of u{i}\t4:7\tarm")
        uses.append(f"v{i}\tan arm of v{i}\t3:6\tarm")
        truth = int(rng.integers(1, 5))
        for a, err in (("ann", 0.05), ("bea", 0.15), ("cid", 0.2), ("dot", 0.6)):
            j = truth if rng.random() > err else int(rng.integers(1, 5))
            if i % 7 == 3 and a in ("cid", "dot"):
                j = 1 + truth % 4  # a split pair
            rows.append(f"u{i}\tv{i}\t{a}\t{j}.0\t\tarm")
    (folder / "uses.tsv").write_text("\n".join(uses) + "\n", encoding="utf-8")
    (folder / "judgments.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    opts = {"competence": True} if competence else {}
    return run_to_end(DUREL.run([folder], opts))


LABELS = ("Complication", "Resolution", "Success")


def multilabel_study(tmp_path: Path):
    """Four annotators give 30 texts a set of three labels (long table)."""
    rng = np.random.default_rng(12)
    lines = ["item\tannotator\tlabels"]
    for i in range(30):
        truth = {lab for lab in LABELS if rng.random() < 0.4}
        for a, err in (("A1", 0.05), ("A2", 0.1), ("A3", 0.2), ("A4", 0.45)):
            got = {lab for lab in LABELS if (lab in truth) != (rng.random() < err)}
            lines.append(f"t{i:02d}\t{a}\t{';'.join(sorted(got))}")
    path = tmp_path / "sets.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return run_to_end(MULTI.run([path], {"competence": True}))


def normalization_study(tmp_path: Path):
    """Four annotators normalize 24 historical tokens of one text (one of them with a
    modernization); the study compares normalizations lower-cased."""
    rng = np.random.default_rng(13)
    forms = [("vnd", ["und", "vnd"]), ("Jar", ["Jahr", "jar"]), ("seyn", ["sein", "seyn", "sain"])]
    folder = tmp_path / "norm"
    folder.mkdir()
    tokens = [(f"{k:03d}", *forms[k % 3]) for k in range(24)]
    for a, err in (("a1", 0.05), ("a2", 0.15), ("a3", 0.25), ("a4", 0.5)):
        out = ["text_id\ttoken_id\torig\tnorm\tmod\tmod_type"]
        for tid, orig, norms in tokens:
            n = norms[0] if rng.random() > err else norms[int(rng.integers(0, len(norms)))]
            if a == "a1" and tid == "000":
                out.append(f"T\t{tid}\t{orig}\t{n.upper()}\tand\tSEM")  # a case variant
            else:
                out.append(f"T\t{tid}\t{orig}\t{n}\t\t")
        (folder / f"{a}.tsv").write_text("\n".join(out) + "\n", encoding="utf-8")
    return run_to_end(NORM.run([folder], {"competence": True}))


SPAN_TEXT = "Maria Ruiz met Jon in Paris and Rome today"


def spans_study(tmp_path: Path):
    """Four annotators mark names in one sentence (brat): "Maria Ruiz" PER over two tokens
    (one annotator marks only "Maria"), "Jon" PER, "Paris" and "Rome" LOC (one annotator
    calls Paris ORG, another misses Rome)."""
    spans = {
        "a1": [("PER", 0, 10), ("PER", 15, 18), ("LOC", 22, 27), ("LOC", 32, 36)],
        "a2": [("PER", 0, 10), ("PER", 15, 18), ("LOC", 22, 27), ("LOC", 32, 36)],
        "a3": [("PER", 0, 5), ("PER", 15, 18), ("ORG", 22, 27), ("LOC", 32, 36)],
        "a4": [("PER", 0, 10), ("LOC", 15, 18), ("LOC", 22, 27)],
    }
    root = tmp_path / "brat"
    for a, marks in spans.items():
        d = root / a
        d.mkdir(parents=True)
        (d / "doc.txt").write_text(SPAN_TEXT, encoding="utf-8")
        ann = [f"T{k + 1}\t{lab} {s} {e}\t{SPAN_TEXT[s:e]}" for k, (lab, s, e) in enumerate(marks)]
        (d / "doc.ann").write_text("\n".join(ann) + "\n", encoding="utf-8")
    return run_to_end(SPANS.run([root], {"competence": True, "gamma": False}))


def _inferred(result):
    return json.loads(json.dumps(result.to_json()))["inferred"]


def _text(label: str, p: float) -> str:
    return f"Dawid–Skene: {label}, {p:.2f}"


# -- the suggestion shown, per kind -----------------------------------------------------------


def test_durel_pair_shows_its_inferred_judgment(tmp_path):
    res = durel_study(tmp_path)
    model = units_for(res)
    rows = _inferred(res)
    assert len(rows) == model.n_units == 30
    for r in rows:
        i = model.index[r["item"]]  # "arm | u3 | v3": the use pair
        s = model.suggestion(i)
        assert s.text == _text(r["dawid_skene"], r["dawid_skene_posterior"])
        assert s.value == r["dawid_skene"] and s.posterior == r["dawid_skene_posterior"]
        assert "Suggested (not decided)" in model.suggestion_html(i)
    # the suggestion is shown, nothing is decided by it
    session = AdjudicationSession(model, AdjudicationStore.open(tmp_path / "s.sqlite"))
    page = session.describe_html(model.index[rows[0]["item"]])
    assert _text(rows[0]["dawid_skene"], rows[0]["dawid_skene_posterior"]) in page
    assert all(session.gold[i] == auto_merge(model, Strategy())[i] for i in range(30))


def test_multilabel_item_shows_each_labels_presence(tmp_path):
    res = multilabel_study(tmp_path)
    model = units_for(res)
    rows = _inferred(res)
    by_item: dict[str, list[dict]] = {}
    for r in rows:
        by_item.setdefault(r["item"], []).append(r)
    assert set(by_item) == set(model.keys)
    for item, rs in by_item.items():
        rs.sort(key=lambda r: LABELS.index(r["label"]))
        s = model.suggestion(model.index[item])
        said = ", ".join(
            f"{r['label']} {'yes' if r['dawid_skene'] == 'present' else 'no'} "
            f"{r['dawid_skene_posterior']:.2f}"
            for r in rs
        )
        assert s.text == f"Dawid–Skene: {said}"
        assert s.value == ";".join(r["label"] for r in rs if r["dawid_skene"] == "present")
        assert s.posterior == min(r["dawid_skene_posterior"] for r in rs)


def test_normalization_token_shows_its_inferred_normalization(tmp_path):
    res = normalization_study(tmp_path)
    model = units_for(res)
    rows = _inferred(res)
    assert len(rows) == model.n_units == 24
    for r in rows:
        text, token, _form = r["item"].split(" | ")
        i = model.index[f"{text}/{token}"]
        s = model.suggestion(i)
        assert s.text == _text(r["dawid_skene"], r["dawid_skene_posterior"])
        # the value: an annotator's version whose (lower-cased) normalization is the label
        assert s.value.split("\t")[0].lower() == r["dawid_skene"]
        assert s.value in list(model.versions[i])
    # token 000: "und" from three annotators, "UND → and (SEM)" from one: the most frequent
    # version of the inferred normalization is taken whole
    assert model.suggestion(model.index["T/000"]).value in ("und\t\t", "vnd\t\t")


def test_span_group_shows_per_token_labels_and_takes_a_matching_version(tmp_path):
    res = spans_study(tmp_path)
    model = units_for(res)
    rows = {r["item"]: r for r in _inferred(res)}

    def token(s, e):
        r = rows[f"doc | {s}–{e} | {SPAN_TEXT[s:e]}"]
        return r["dawid_skene"], r["dawid_skene_posterior"]

    maria = model.index["doc|0|10"]
    s = model.suggestion(maria)
    (lm, pm), (lr, pr) = token(0, 5), token(6, 10)
    assert s.text == (
        f"Dawid–Skene: ‘\u2068Maria\u2069’ {lm} {pm:.2f}, ‘\u2068Ruiz\u2069’ {lr} {pr:.2f}"
    )
    assert (lm, lr) == ("PER", "PER") and s.posterior == min(pm, pr)
    # both tokens PER: the version with one span over both (three annotators), not "Maria"
    assert s.value == "PER 0-10"
    # Paris: LOC from three annotators, ORG from one; the version of the inferred label
    paris = model.suggestion(model.index["doc|22|27"])
    assert paris.value == f"{token(22, 27)[0]} 22-27"
    # a token no span covers is no unit; every group has its tokens' suggestion
    assert set(model.suggestions) == set(model.keys)


# -- the inferred merge strategy ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ["durel", "multilabel", "normalization", "spans"])
def test_inferred_strategy_takes_the_suggestions_above_the_threshold(tmp_path, kind):
    res = {
        "durel": durel_study,
        "multilabel": multilabel_study,
        "normalization": normalization_study,
        "spans": spans_study,
    }[kind](tmp_path)
    model = units_for(res)
    every = auto_merge(model, Strategy.parse("inferred"))
    assert list(every) == [model.suggestion(i).value for i in range(model.n_units)]
    posts = np.array([model.suggestion(i).posterior for i in range(model.n_units)])
    cut = float(np.quantile(posts, 0.3)) if kind != "spans" else 0.9
    strict = auto_merge(model, Strategy.parse(f"inferred:{cut}"))
    for i in range(model.n_units):
        assert strict[i] == (every[i] if posts[i] >= cut else None)
    if kind != "spans":
        assert any(v is None for v in strict) and any(v is not None for v in strict)


def test_durel_inferred_gold_written_and_read_back(tmp_path):
    res = durel_study(tmp_path)
    model = units_for(res)
    cut = float(np.median([model.suggestion(i).posterior for i in range(model.n_units)]))
    gold = auto_merge(model, Strategy.parse(f"inferred:{cut!r}"))
    model.write_gold(gold, tmp_path / "out")
    table = pd.read_csv(tmp_path / "out" / "arm" / "judgments.tsv", sep="\t", dtype=str)
    mine = table[table["annotator"] == "gold"]
    want = {
        (r["item"].split(" | ")[1]): r["dawid_skene"]
        for r in _inferred(res)
        if r["dawid_skene_posterior"] >= cut
    }
    for r in mine.itertuples():
        if r.identifier1 in want:
            assert float(r.judgment) == float(want[r.identifier1])
        else:
            assert r.judgment == "0.0" and r.comment == "undecided"
    assert 0 < len(want) < 30


def test_inferred_strategy_without_competence_names_the_option(tmp_path):
    model = units_for(durel_study(tmp_path, competence=False))
    assert not model.suggestions and model.suggestion(0) is None
    with pytest.raises(OptionError, match="--competence"):
        auto_merge(model, Strategy.parse("inferred"))


@pytest.mark.parametrize("bad", ["inferred:high", "inferred:1.5", "inferred:-0.1"])
def test_a_bad_threshold_is_refused(bad):
    with pytest.raises(OptionError, match="between 0 and 1"):
        Strategy.parse(bad)


def test_strategy_round_trips_through_the_store(tmp_path):
    res = durel_study(tmp_path)
    model = units_for(res)
    store = AdjudicationStore.open(tmp_path / "s.sqlite")
    s = AdjudicationSession(model, store, strategy=Strategy.parse("inferred:0.9"))
    assert str(s.strategy) == "inferred:0.9"
    store.close()
    again = AdjudicationSession(model, AdjudicationStore.open(tmp_path / "s.sqlite"))
    assert again.strategy == Strategy.parse("inferred:0.9")
    assert list(again.gold) == list(auto_merge(model, Strategy.parse("inferred:0.9")))


def test_gold_command_with_the_inferred_strategy(tmp_path):
    from iaa_desktop.cli import main

    res = normalization_study(tmp_path)
    folder = tmp_path / "norm"
    out = tmp_path / "gold"
    args = ["gold", "--kind", "normalization", str(folder), "--out", str(out), "-q"]
    assert main([*args, "--competence", "--strategy", "inferred:0.9"]) == 0
    summary = json.loads((out / "gold_summary.json").read_text(encoding="utf-8"))
    model = units_for(res)
    want = auto_merge(model, Strategy.parse("inferred:0.9"))
    assert summary["strategy"] == "inferred:0.9" and summary["threshold"] == 0.9
    assert summary["n_undecided"] == sum(v is None for v in want)
    gold = pd.read_csv(out / "gold.tsv", sep="\t", dtype=str, keep_default_na=False)
    assert list(gold["norm"]) == [("" if v is None else v.split("\t")[0]) for v in want]


def test_gold_command_without_competence_names_the_option(tmp_path, capsys):
    from iaa_desktop.cli import main

    normalization_study(tmp_path)
    code = main(
        ["gold", "--kind", "normalization", str(tmp_path / "norm"), "--out", str(tmp_path / "g")]
        + ["-q", "--strategy", "inferred"]
    )
    assert code != 0 and "--competence" in capsys.readouterr().err


def test_table_kind_inferred_strategy_from_the_gold_command(tmp_path):
    """The table kind keeps its "suggested" context line, now with the value the inferred
    merge takes; the gold command writes those labels."""
    from iaa_desktop.cli import main
    from iaa_desktop.core.kinds.table.compare import KIND as TABLE
    from tests.core.test_table_competence import _study

    path, _rows = _study(tmp_path)
    res = run_to_end(TABLE.run([path], {"competence": True}))
    model = units_for(res)
    rows = _inferred(res)
    for r in rows:
        i = model.index[r["item"]]
        assert dict(model.context(i))["suggested"] == _text(
            r["dawid_skene"], r["dawid_skene_posterior"]
        )
        assert model.suggestion(i).value == r["dawid_skene"]
    out = tmp_path / "g"
    args = ["gold", "--kind", "table", str(path), "--out", str(out), "-q", "--competence"]
    # written (1: the study's conflicting repeat is reported, as for any strategy)
    cut = float(np.median([r["dawid_skene_posterior"] for r in rows]))
    assert main([*args, "--strategy", f"inferred:{cut!r}"]) == 1
    gold = pd.read_csv(out / "gold.csv", dtype=str, keep_default_na=False)
    gold = gold[gold["annotator"] == "gold"].set_index("item")["label"]
    for r in rows:
        want = r["dawid_skene"] if r["dawid_skene_posterior"] >= cut else ""
        assert gold[r["item"]] == want
    assert (gold == "").any() and (gold != "").any()


def test_a_stored_inferred_merge_without_competence_falls_back_to_unanimous(tmp_path):
    with_c = units_for(durel_study(tmp_path / "a"))
    store = AdjudicationStore.open(tmp_path / "s.sqlite")
    AdjudicationSession(with_c, store, strategy=Strategy.parse("inferred"))
    store.close()
    without = units_for(durel_study(tmp_path / "b", competence=False))
    again = AdjudicationSession(without, AdjudicationStore.open(tmp_path / "s.sqlite"))
    assert str(again.strategy) == "unanimous"

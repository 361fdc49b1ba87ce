"""Kind ``multilabel``: reading, per-label κ, decomposition and exploration (METHODS.md §6)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.errors import InsufficientDataError, OptionError
from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.kinds.multilabel.compare import KIND, code_name, parse_s1
from iaa_desktop.core.kinds.multilabel.reader import infer_label_order
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, REPO, shared_path

sklearn_metrics = pytest.importorskip("sklearn.metrics")
FIX = FIXTURES / "multilabel"
LABELS = ("Complication", "Resolution", "Success")


def run(inputs, **options):
    return run_to_end(KIND.run(list(inputs), options))


@pytest.fixture(scope="module")
def neat():
    d = shared_path("multilabel")
    return run([d / "annotations.tsv"], texts=str(d / "sentences.tsv"))


def _pair_codes(result, p):
    a, b = result.pair_index[p]
    c = result.data.codes
    both = (c[:, a] >= 0) & (c[:, b] >= 0)
    return c[both, a], c[both, b]


# ------------------------------------------------------------------ published figures (NEAT)
PUBLISHED_KAPPA = {
    ("A1", "A2"): {"Complication": 0.788, "Resolution": 0.652, "Success": 0.690},
    ("A1", "A3"): {"Complication": 0.796, "Resolution": 0.650, "Success": 0.703},
}
PUBLISHED_EXACT = {("A1", "A2"): 0.753, ("A1", "A3"): 0.745}


def test_neat_per_label_kappa_published_and_sklearn(neat) -> None:
    js = neat.to_json()
    assert js["labels"] == list(LABELS)
    assert [(p["a"], p["b"]) for p in js["pairs"]] == [("A1", "A2"), ("A1", "A3")]
    for p_i, pair in enumerate(js["pairs"]):
        key = (pair["a"], pair["b"])
        x, y = _pair_codes(neat, p_i)
        assert pair["n_items"] == len(x)
        for j, lab in enumerate(LABELS):
            k = pair["per_label"][lab]["kappa"]
            assert round(k, 3) == PUBLISHED_KAPPA[key][lab]
            bx, by = (x >> (2 - j)) & 1, (y >> (2 - j)) & 1
            assert k == pytest.approx(sklearn_metrics.cohen_kappa_score(bx, by), abs=1e-12)
            assert pair["per_label"][lab]["percent_agreement"] == pytest.approx((bx == by).mean())
        assert round(pair["exact_set_agreement"], 3) == PUBLISHED_EXACT[key]


def test_neat_table1_label_counts(neat) -> None:
    t = neat.label_counts().set_index("annotator")
    assert t.loc["A1"].tolist() == [2209, 1083, 448, 312]
    assert t.loc["A2"].tolist() == [1135, 504, 262, 137]
    assert t.loc["A3"].tolist() == [1074, 569, 296, 168]


def test_neat_combinations(neat) -> None:
    comb = neat.combinations().set_index("code")
    assert comb["total"].sum() == 4418
    assert round(comb.loc["101", "share"], 4) == 0.0095
    assert round(comb.loc["000", "share"], 4) == 0.3336
    assert comb.loc["101", "labels"] == "Complication + Success"


def test_neat_exploration_127_equals_brute_force(neat) -> None:
    assert len(neat.partitions) == 127
    js = neat.to_json()
    assert len(js["exploration"]) == 127
    assert js["exploration_info"]["mode"] == "exhaustive"
    for p in range(2):
        x, y = _pair_codes(neat, p)
        for i, s1 in enumerate(neat.partitions):
            cx, cy = s1[x].astype(int), s1[y].astype(int)
            first = sklearn_metrics.cohen_kappa_score(cx, cy)
            assert neat.exploration.first[p, i] == pytest.approx(first, abs=1e-12)
            agree = cx == cy
            for j in range(3):
                second = sklearn_metrics.cohen_kappa_score(
                    (x[agree] >> (2 - j)) & 1, (y[agree] >> (2 - j)) & 1
                )
                assert neat.exploration.second[p, i, j] == pytest.approx(second, abs=1e-12)


def test_neat_theory_driven_decomposition(neat) -> None:
    d = neat.to_json()["decomposition"]
    assert d["s1"] == ["000"]
    # seed Table 3: Plot 0.70, second level average 0.83 (our simulated annotators)
    assert round(d["first_level"], 2) == 0.70
    assert round(d["second_level"]["average"], 2) == 0.83
    pairs = d["pairs"]
    assert d["first_level"] == pytest.approx(np.mean([p["first_level"] for p in pairs]))
    assert d["second_level"]["Complication"] == pytest.approx(
        np.mean([p["second_level"]["Complication"] for p in pairs])
    )
    assert d["second_level"]["average"] == pytest.approx(
        np.mean([[p["second_level"][lab] for lab in LABELS] for p in pairs])
    )


def test_neat_rankings(neat) -> None:
    rows = neat.to_json()["exploration"]
    firsts = [r["first_level"] for r in rows]
    assert firsts == sorted(firsts)
    assert [r["rank_first_level"] for r in rows] == list(range(1, 128))
    seconds = sorted(rows, key=lambda r: r["rank_second_level"])
    vals = [r["second_level"]["average"] for r in seconds]
    assert vals == sorted(vals, reverse=True)


def test_long_and_wide_give_the_same_result() -> None:
    d = shared_path("multilabel")
    a = run([d / "annotations.tsv"]).to_json()
    b = run([d / "annotations_wide.tsv"]).to_json()
    assert a["pairs"] == b["pairs"]
    assert a["exploration"] == b["exploration"]


# -------------------------------------------------------------------------- fixtures
def test_fixture_long_wide_csv_and_xlsx_agree(tmp_path) -> None:
    long = run([FIX / "long.tsv"]).to_json()
    wide = run([FIX / "wide.csv"]).to_json()
    df = pd.read_csv(FIX / "wide.csv", dtype=str)
    xlsx = tmp_path / "wide.xlsx"
    df.to_excel(xlsx, index=False)
    excel = run([xlsx]).to_json()
    assert long["pairs"] == wide["pairs"] == excel["pairs"]
    assert long["decomposition"] == wide["decomposition"]
    assert [p["a"] + p["b"] for p in long["pairs"]] == ["A1A2", "A1A3", "A2A3"]


def test_texts_given_as_input_or_setting() -> None:
    r1 = run([FIX / "long.tsv", FIX / "texts.tsv"])
    r2 = run([FIX / "long.tsv"], texts=str(FIX / "texts.tsv"))
    assert r1.data.texts == r2.data.texts
    assert "הממשלה" in r1.data.texts[r1.data.items.index("T04")]


def test_bad_lines_are_collected_not_fatal() -> None:
    r = run([FIX / "bad.tsv"])
    msgs = " | ".join(str(e) for e in r.errors)
    assert "must be 0 or 1" in msgs and "line 5" in msgs
    assert "a second time" in msgs
    assert "empty" in msgs
    # X2 (bad value for A2) is left out; X1, X3, X4 remain for the pair
    assert r.to_json()["pairs"][0]["n_items"] == 3


def test_label_order_setting_changes_the_bits() -> None:
    r = run([FIX / "long.tsv"], labels="Success,Resolution,Complication")
    js = r.to_json()
    assert js["labels"] == ["Success", "Resolution", "Complication"]
    base = run([FIX / "long.tsv"]).to_json()
    for a, b in zip(js["pairs"], base["pairs"]):
        assert a["per_label"] == b["per_label"]  # per-label κ does not depend on the bit order
    assert js["decomposition"]["s1"] == ["000"]


def test_unknown_label_with_given_order_is_an_error_line() -> None:
    r = run([FIX / "long.tsv"], labels="Complication,Resolution")
    assert any("unknown label" in str(e) for e in r.errors)
    assert r.k == 2


def test_infer_label_order() -> None:
    assert infer_label_order([["b"], ["a", "b"], ["c"], ["a", "c"], ["b", "c"]]) == ["a", "b", "c"]


def test_parse_s1() -> None:
    assert np.flatnonzero(parse_s1("", LABELS)).tolist() == [0]
    assert np.flatnonzero(parse_s1("101,010", LABELS)).tolist() == [2, 5]
    assert np.flatnonzero(parse_s1("Complication+Success, none", LABELS)).tolist() == [0, 5]
    with pytest.raises(OptionError):
        parse_s1("12", LABELS)
    with pytest.raises(OptionError):
        parse_s1(",".join(format(c, "03b") for c in range(8)), LABELS)
    assert code_name(5, LABELS) == "Complication + Success"
    assert code_name(0, LABELS) == "(none)"


def test_chosen_s1_matches_its_exploration_row() -> None:
    r = run([FIX / "long.tsv"], s1="101,010")
    js = r.to_json()
    row = next(e for e in js["exploration"] if e["s1"] == ["010", "101"])
    assert js["decomposition"]["s1"] == ["010", "101"]
    assert row["first_level"] == js["decomposition"]["first_level"]
    assert row.get("first_level_mean_defined") == pytest.approx(
        js["decomposition"].get("first_level_mean_defined")
    )
    assert row["second_level"] == pytest.approx(js["decomposition"]["second_level"], nan_ok=True)


def test_undefined_kappa_is_null_and_ranked_last(tmp_path) -> None:
    p = tmp_path / "u.tsv"
    # both annotators always give Complication: every per-label κ and many partitions undefined
    lines = ["item\tannotator\tlabels"] + [
        f"i{i}\t{a}\tComplication" for i in range(5) for a in "XY"
    ]
    lines += ["i9\tX\tResolution;Success", "i9\tY\t"]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run([p], labels="Complication,Resolution,Success")
    js = r.to_json()
    text = json.dumps(js)
    assert "NaN" not in text
    rows = js["exploration"]
    undefined = [e for e in rows if e["first_level"] is None]
    assert undefined
    n_def = len(rows) - len(undefined)
    assert all(e["rank_first_level"] > n_def for e in undefined)


def test_k5_offers_bounded_plus_search() -> None:
    r = run([FIX / "five_labels.tsv"], label_delimiter="|", labels="a,b,c,d,e", max_s1_size=2)
    info = r.exploration_info
    assert info["mode"] == "bounded+search"
    assert info["max_s1_size"] == 2 and info["n_bounded"] == 32 + 496
    assert info["n_partitions_total"] == 2**31 - 1
    assert info["n_explored"] == info["n_bounded"] + info["n_search_added"]
    assert set(r.sources) <= {"bounded", "search"}
    r2 = run([FIX / "five_labels.tsv"], label_delimiter="|", search=False)
    assert r2.exploration_info["mode"] == "bounded"
    assert r2.exploration_info["max_s1_size"] == 4


def test_top_limits_the_json() -> None:
    js = run([FIX / "long.tsv"], top=3).to_json()
    assert all(e["rank_first_level"] <= 3 or e["rank_second_level"] <= 3 for e in js["exploration"])
    assert 3 <= len(js["exploration"]) <= 6


def test_partition_items() -> None:
    r = run([FIX / "long.tsv", FIX / "texts.tsv"])
    s1 = parse_s1("000", r.labels)
    first, second = r.partition_items(0, s1)
    x, y = _pair_codes(r, 0)
    assert len(first) == ((x == 0) != (y == 0)).sum()
    assert len(second) == (((x == 0) == (y == 0)) & (x != y)).sum()
    assert list(first.columns) == ["item", "text", "A1", "A2"]


def test_tables_and_headline() -> None:
    r = run([FIX / "long.tsv"])
    t = r.tables()
    for name in (
        "per_label",
        "pairs",
        "pair_matrix_kappa",
        "label_counts",
        "combinations",
        "decomposition",
        "exploration",
        "items",
        "joint_counts",
    ):
        assert name in t and len(t[name]) > 0
    assert len(t["exploration"]) == 127
    assert dict(r.headline())["Labels"] == ", ".join(LABELS)


def test_no_shared_items(tmp_path) -> None:
    p = tmp_path / "x.tsv"
    p.write_text("item\tannotator\tlabels\na\tX\tA\nb\tY\tB\n", encoding="utf-8")
    with pytest.raises(InsufficientDataError):
        run([p])


def test_sniff_and_registry() -> None:
    assert get_kind("multilabel").kind is KIND
    assert KIND.sniff([FIX / "long.tsv"]) >= 0.9
    assert KIND.sniff([FIX / "wide.csv"]) >= 0.9
    assert KIND.sniff([FIX / "texts.tsv"]) == 0.0
    assert detect_kind([FIX / "long.tsv"]) == "multilabel"


def test_cli_report_json_and_csv(tmp_path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "iaa_desktop",
            "report",
            "--kind",
            "multilabel",
            str(FIX / "long.tsv"),
            "--top",
            "2",
            "--json",
            "-",
            "--csv",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    js = json.loads(out.stdout)
    assert js["labels"] == list(LABELS) and js["kind"] == "multilabel"
    assert set(js["decomposition"]) >= {"s1", "first_level", "second_level"}
    assert (tmp_path / "exploration.csv").exists()
    with open(tmp_path / "per_label.csv", newline="", encoding="utf-8") as f:
        assert next(csv.reader(f))[:3] == ["a", "b", "label"]


def test_shared_folder_as_input() -> None:
    """The whole folder: texts picked up, the wide copy and the gold file left out with warnings."""
    d = shared_path("multilabel")
    r = run([d])
    assert not r.errors
    msgs = " | ".join(str(w) for w in r.warnings)
    assert "same annotations" in msgs and "gold.tsv" in msgs
    assert r.data.texts[0].startswith("Washington (CNN)")
    assert len(r.partitions) == 127
    assert detect_kind([d]) == "multilabel"
    js = r.to_json()
    assert round(js["pairs"][0]["per_label"]["Complication"]["kappa"], 3) == 0.788


def test_spreadsheet_booleans_and_numbers(tmp_path) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["item", "annotator", "Complication", "Resolution", "Success"])
    rows = [
        ("a", "X", 1, 0, True),
        ("a", "Y", 1.0, 0, False),
        ("b", "X", 0, 1, 0),
        ("b", "Y", 0, 1, 0),
        ("c", "X", 1, 1, 0),
        ("c", "Y", 0, 1, 0),
    ]
    for r in rows:
        ws.append(list(r))
    p = tmp_path / "bools.xlsx"
    wb.save(p)
    r = run([p])
    assert not r.errors
    assert r.data.codes[:, 0].tolist() == [0b101, 0b010, 0b110]
    assert r.data.codes[:, 1].tolist() == [0b100, 0b010, 0b010]


def test_labels_named_like_the_count_columns(tmp_path) -> None:
    """A label called "annotator" or "n_items" keeps its own counts (it was looked up as the
    annotator column, a KeyError)."""
    p = tmp_path / "reserved.tsv"
    lines = ["item\tannotator\tlabels"]
    lines += [f"i{i}\t{a}\tannotator" for i in range(4) for a in ("X", "Y")]
    lines += ["i5\tX\tn_items;annotator", "i5\tY\tn_items", "i6\tX\t", "i6\tY\tn_items"]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run([p], labels="annotator,n_items")
    js = r.to_json()
    by_name = {a["name"]: a for a in js["annotators"]}
    assert by_name["X"]["label_counts"] == {"annotator": 5, "n_items": 1}
    assert by_name["Y"]["label_counts"] == {"annotator": 4, "n_items": 2}
    counts = r.label_counts()
    assert list(counts.columns) == ["annotator", "n_items", "annotator (label)", "n_items (label)"]
    assert counts["annotator"].tolist() == ["X", "Y"]
    assert counts["annotator (label)"].tolist() == [5, 4]

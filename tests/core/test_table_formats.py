"""Judgment tables in the layouts of textbooks and in annotation tools' exports.

Every file here holds the same four items judged by two annotators (``sentiment_wide.csv``, a
layout that always opened); each format must give the same figures from the command line.
"""

from __future__ import annotations

import json

import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.kinds import detect_kind
from tests.conftest import FIXTURES

F = FIXTURES / "formats"
T = F / "tables"
FIGURES = (
    "percent_agreement",
    "cohen_kappa_mean",
    "fleiss_kappa",
    "krippendorff_alpha",
    "gwet_ac1",
)


def report(args, capsys) -> tuple[int, dict, str]:
    code = cli_main(["report", "--interval", "none", *map(str, args), "--json", "-"])
    cap = capsys.readouterr()
    return code, (json.loads(cap.out) if cap.out.strip() else {}), cap.err


def figures(data: dict) -> dict[str, float]:
    return {k: round(data["overall"][k]["value"], 10) for k in FIGURES}


@pytest.fixture
def reference(capsys) -> dict[str, float]:
    code, data, _ = report(["--kind", "table", T / "sentiment_wide.csv"], capsys)
    assert code == 0 and data["n_items"] == 4
    return figures(data)


@pytest.mark.parametrize(
    ("inputs", "extra"),
    [
        ([F / "label_studio" / "sentiment.json"], ["--question", "sentiment"]),
        ([F / "prodigy" / "sentiment.jsonl"], []),
        ([F / "doccano" / "alice.jsonl", F / "doccano" / "bob.jsonl"], []),
        ([T / "sentiment_contingency.csv"], []),
        ([T / "sentiment_square.csv"], ["--layout", "contingency"]),
        ([T / "sentiment_counts.csv"], []),
        ([T / "sentiment_triples.txt"], []),
        ([T / "sentiment_no_item.csv"], []),
        ([T / "sentiment_units.tsv"], []),
        ([T / "sentiment_group.csv"], ["--metadata", "Group"]),
    ],
    ids=[
        "label-studio",
        "prodigy",
        "doccano",
        "contingency",
        "contingency-option",
        "counts",
        "nltk-triples",
        "wide-no-item",
        "units-column",
        "metadata-first-column",
    ],
)
def test_same_figures_as_the_wide_table(inputs, extra, reference, capsys):
    code, data, err = report(["--kind", "table", *extra, *inputs], capsys)
    assert code == 0, err
    assert data["n_items"] == 4 and data["n_annotators"] == 2
    assert figures(data) == reference
    assert data["errors"] == []


def test_kind_detected_for_tool_exports():
    assert detect_kind([F / "label_studio" / "sentiment.json"]) == "table"
    assert detect_kind([F / "prodigy" / "sentiment.jsonl"]) == "table"
    assert detect_kind([F / "doccano" / "alice.jsonl", F / "doccano" / "bob.jsonl"]) == "table"


def test_label_studio_rating_question(capsys):
    code, data, _ = report(
        [
            "--kind",
            "table",
            "--question",
            "stars",
            "--level",
            "interval",
            F / "label_studio" / "sentiment.json",
        ],
        capsys,
    )
    assert code == 0
    assert data["categories"] == [1, 3, 4, 5]
    # the same ratings as a wide table
    code2, wide, _ = report(
        ["--kind", "table", "--level", "interval", T / "stars_wide.csv"], capsys
    )
    assert figures(data) == figures(wide)


def test_label_studio_two_questions_warns_and_names_them(capsys):
    code, data, err = report(["--kind", "table", F / "label_studio" / "sentiment.json"], capsys)
    assert code == 0
    assert "sentiment, stars" in err and "--question" in err


def test_counts_table_reproduces_fleiss_kappa_wikipedia_example(capsys):
    """Fleiss' κ = 0.210 for the 10 × 5 count table of 14 raters (Fleiss 1971 layout)."""
    import numpy as np
    from statsmodels.stats.inter_rater import fleiss_kappa

    path = T / "fleiss_wikipedia_counts.csv"
    code, data, err = report(["--kind", "table", path], capsys)
    assert code == 0 and "count table" in err
    assert data["n_items"] == 10 and data["n_annotators"] == 14
    assert round(data["overall"]["fleiss_kappa"]["value"], 3) == 0.210
    counts = np.loadtxt(path, delimiter=",", skiprows=1)[:, 1:]
    assert data["overall"]["fleiss_kappa"]["value"] == pytest.approx(fleiss_kappa(counts))


def test_counts_layout_can_be_refused(capsys):
    """With --layout wide the same file is read as one column per annotator, as asked."""
    code, data, err = report(
        ["--kind", "table", "--layout", "wide", T / "fleiss_wikipedia_counts.csv"], capsys
    )
    assert code == 0 and "count table" not in err
    assert data["n_annotators"] == 5


def test_square_numbers_need_a_layout(capsys):
    code, _, err = report(["--kind", "table", T / "sentiment_square.csv"], capsys)
    assert code != 0
    assert "--layout contingency" in err and "Traceback" not in err


def test_json_that_fits_no_format_lists_the_formats_tried(tmp_path, capsys):
    p = tmp_path / "x.json"
    p.write_text('{"a": 1}', encoding="utf-8")
    code, _, err = report(["--kind", "table", p], capsys)
    assert code != 0
    assert "malformed" not in err
    for name in ("label-studio", "prodigy", "doccano"):
        assert name in err


def test_span_export_is_not_read_as_judgments(capsys):
    code, _, err = report(["--kind", "table", F / "label_studio" / "ner.json"], capsys)
    assert code != 0 and "span" in err


def test_multiple_choice_is_refused_with_a_pointer(tmp_path, capsys):
    p = tmp_path / "multi.jsonl"
    rows = [
        {
            "text": "t",
            "accept": ["A", "B"],
            "answer": "accept",
            "_input_hash": 1,
            "_session_id": "d-x",
        },
        {"text": "t", "accept": ["A"], "answer": "accept", "_input_hash": 1, "_session_id": "d-y"},
    ]
    p.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    code, _, err = report(["--kind", "table", p], capsys)
    assert code != 0 and "multilabel" in err


def test_gold_of_a_tool_export_loads_back(tmp_path, capsys):
    from iaa_desktop.core.kinds import get_kind
    from iaa_desktop.core.progress import run_to_end

    result = run_to_end(
        get_kind("table").run([F / "prodigy" / "sentiment.jsonl"], {"interval": "none"})
    )
    model = get_kind("table").units_for(result)
    gold = [v[0] for v in model.versions]
    paths = model.write_gold(gold, tmp_path)
    code, data, err = report(["--kind", "table", F / "prodigy" / "sentiment.jsonl", *paths], capsys)
    assert code == 0, err
    assert data["annotators"] == ["alice", "bob", "gold"] and data["n_items"] == 4

"""Report options that were silently ignored or failed: ``--adjudication`` with ``--json`` or
with the console summary only, and ``--group-by`` naming the item, annotator or label column."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iaa_desktop.cli import main
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.progress import run_to_end

RTL_FIXTURE = Path(__file__).parents[1] / "fixtures" / "report" / "rtl_emoji.tsv"


@pytest.fixture(autouse=True)
def _debug(monkeypatch):
    monkeypatch.setenv("IAA_DEBUG", "1")  # a bug raises instead of becoming "internal error"


def _store(tmp_path: Path):
    from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore, units_for
    from iaa_desktop.core.adjudication.session import decide_all
    from iaa_desktop.core.export.report import adjudication_from_session

    result = run_to_end(get_kind("table").run([RTL_FIXTURE], {"interval": "none"}))
    path = tmp_path / "study.adjudication.sqlite"
    store = AdjudicationStore.open(path)
    session = AdjudicationSession(units_for(result), store, seed=1)
    decide_all(session, session.queue()[:3])
    expected = adjudication_from_session(session)
    store.close()
    return path, expected


def test_the_json_document_carries_the_adjudication_record(tmp_path: Path, capsys) -> None:
    path, expected = _store(tmp_path)
    args = ["report", "--kind", "table", "--interval", "none", str(RTL_FIXTURE)]
    assert main([*args, "--json", "-", "--adjudication", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    record = data["adjudication"]
    assert record["resolved"] == expected.resolved and record["open"] == expected.open
    assert record["store"] == str(path)
    assert record["overruled"] == dict(expected.overruled)
    assert {a: v["value"] for a, v in record["agreement_with_gold"].items()} == pytest.approx(
        {a: v for a, (_, v) in expected.agreement_with_gold.items()}, nan_ok=True
    )
    assert main([*args, "--json", "-"]) == 0  # without a store: no such key
    assert "adjudication" not in json.loads(capsys.readouterr().out)


def test_the_console_summary_names_the_adjudication_progress(tmp_path: Path, capsys) -> None:
    path, expected = _store(tmp_path)
    code = main(
        ["report", "--kind", "table", "--interval", "none", str(RTL_FIXTURE)]
        + ["--adjudication", str(path)]
    )
    out = capsys.readouterr().out
    assert code == 0 and f"adjudication: {expected.resolved} of 8 units resolved" in out


def test_a_damaged_store_named_with_json_is_an_error(tmp_path: Path, capsys) -> None:
    path = tmp_path / "s.adjudication.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    code = main(
        ["report", "--kind", "table", "--interval", "none", str(RTL_FIXTURE)]
        + ["--json", str(tmp_path / "r.json"), "--adjudication", str(path)]
    )
    err = capsys.readouterr().err
    assert code != 0 and "internal error" not in err and str(path) in err


@pytest.mark.parametrize("column", ["item", "annotator", "label"])
def test_group_by_an_item_annotator_or_label_column_is_explained(
    tmp_path: Path, capsys, column: str
) -> None:
    t = tmp_path / "g.csv"
    t.write_text(
        "item,annotator,label,genre\n1,A,x,n\n1,B,x,n\n2,A,y,f\n2,B,x,f\n", encoding="utf-8"
    )
    code = main(["report", "--kind", "table", "--group-by", column, str(t)])
    err = capsys.readouterr().err
    assert code != 0 and "internal error" not in err
    assert f"{t}, line 1: the group-by column '{column}' is the {column} column" in err


def test_group_by_the_item_column_of_a_wide_table(tmp_path: Path, capsys) -> None:
    t = tmp_path / "w.csv"
    t.write_text("item,A,B,genre\n1,x,x,n\n2,y,x,f\n", encoding="utf-8")
    code = main(["report", "--kind", "table", "--group-by", "item", str(t)])
    err = capsys.readouterr().err
    assert code != 0 and "the group-by column 'item' is the item column" in err

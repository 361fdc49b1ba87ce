"""One registry of kinds: every kind is complete, and a new kind is one package and one line.

The test-only kind in ``tests/fixtures/toy_kind`` is registered here with one line and run through
every headless command (``report --json``, ``--csv``, the HTML report and ``gold``) and the import
plan; ``tests/gui/test_kind_views.py`` runs it through the window (example, view, adjudication).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iaa_desktop.cli import main
from iaa_desktop.core.kinds import KINDS, KindSpec
from iaa_desktop.core.kinds.spec import TypedKind

TAGS = "item,annotator,tag\n" + "".join(
    f"i{i},{a},{t}\n"
    for i, tags in enumerate(["yyy", "ynn", "nnn", "yyn", "nnn", "yyy"])
    for a, t in zip("ABC", tags, strict=True)
)


@pytest.fixture
def toy(monkeypatch, tmp_path: Path) -> Path:
    from tests.fixtures.toy_kind import SPEC

    monkeypatch.setitem(KINDS, SPEC.name, SPEC)  # the one line that registers a kind
    path = tmp_path / "tags.csv"
    path.write_text(TAGS.replace(",y\n", ",yes\n").replace(",n\n", ",no\n"), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_registered_kind_is_complete(name: str) -> None:
    spec = KINDS[name]
    assert isinstance(spec, KindSpec) and spec.name == name and spec.title and spec.inputs
    assert spec.kind.settings is not None and callable(spec.kind.run)
    assert spec.kind.name == name
    assert isinstance(spec.kind, TypedKind), f"kind '{name}' does not declare typed options"
    assert list(spec.kind.settings) == list(spec.kind.options.settings())
    for part in (spec.report, spec.methods, spec.adjudication, spec.survey):
        assert callable(part), f"kind '{name}' lacks a part"
    assert spec.example is not None and spec.example.shown and spec.example.blurb
    assert spec.view and spec.placeholder
    titles = [s.title for s in KINDS.values()]
    assert len(set(titles)) == len(titles), "two kinds share a title"


def test_a_new_kind_runs_through_report_json(toy: Path, capsys) -> None:
    assert main(["report", "--kind", "toy", str(toy), "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "toy" and data["annotators"] == ["A", "B", "C"]
    # 6 items × 3 annotators; Fleiss' κ of this table, worked by hand:
    # P̄ = (1 + 1/3 + 1 + 1/3 + 1 + 1) / 6 = 7/9; p_yes = 9/18 → P̄e = 1/2; κ = (7/9 − 1/2)/(1/2)
    assert data["fleiss_kappa"] == pytest.approx(5 / 9)


def test_a_new_kind_takes_its_typed_options_from_the_command_line(toy: Path, capsys) -> None:
    from tests.fixtures.toy_kind import SPEC

    assert isinstance(SPEC.kind, TypedKind)
    assert main(["report", "--kind", "toy", "--yes", "maybe", str(toy), "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["percent_agreement"] == 1.0  # no tag means "maybe": every item is a "no"


def test_a_new_kind_runs_through_csv_report_and_gold(toy: Path, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    html = tmp_path / "report.html"
    assert main(["report", "--kind", "toy", str(toy), "--csv", str(out), "--html", str(html)]) == 0
    assert (out / "items.csv").read_text(encoding="utf-8").startswith("item,")
    page = html.read_text(encoding="utf-8")
    assert "Yes/no tags (test kind)" in page and "Tags of every item" in page and "0.556" in page
    gold = tmp_path / "gold"
    assert (
        main(["gold", "--kind", "toy", "--strategy", "majority", str(toy), "--out", str(gold)]) == 0
    )
    lines = (gold / "gold.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "item,annotator,tag" and "i1,gold,no" in lines and "i3,gold,yes" in lines
    summary = json.loads((gold / "gold_summary.json").read_text(encoding="utf-8"))
    assert summary["kind"] == "toy" and summary["n_units"] == 6 and summary["n_undecided"] == 0


def test_a_new_kind_is_surveyed_in_the_import_plan(toy: Path) -> None:
    from iaa_desktop.core.study_import import plan_import

    plan = plan_import([toy], kind="toy")
    assert [a.name for a in plan.annotators] == ["A", "B", "C"]
    assert [a.detail for a in plan.annotators] == ["6 tags"] * 3
    assert plan.preview is not None and plan.preview.rows[1] == ("i1", "yes", "no", "no")
    assert plan.can_open and plan.inputs == (toy,)


def test_a_result_reaches_its_kind_through_the_registry(toy: Path) -> None:
    from iaa_desktop.core.progress import run_to_end
    from tests.fixtures.toy_kind import SPEC

    result = run_to_end(SPEC.kind.run([toy], {"yes": "yes"}))
    assert result.spec is SPEC

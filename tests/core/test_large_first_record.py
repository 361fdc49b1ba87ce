"""Exports whose first task or record is long are recognised by their structure.

Label Studio writes a task's ``annotations`` before its ``data``; with many regions the first
task runs to hundreds of kilobytes, past any fixed-size head. The first task (JSON) or record
(JSONL) is parsed as far as it goes and its keys decide the format.
"""

from __future__ import annotations

import json

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.formats import identify
from iaa_desktop.core.kinds import detect_kind
from tests.conftest import FIXTURES

F = FIXTURES / "formats"


def _report(args, capsys):
    code = cli_main(["report", *map(str, args), "--json", "-"])
    cap = capsys.readouterr()
    return code, (json.loads(cap.out) if cap.out.strip() else {}), cap.err


def _padded_sentiment(tmp_path):
    """The sentiment fixture with 200 KB of regions of another control in its first task,
    written before its data, as Label Studio writes them."""
    tasks = json.loads((F / "label_studio" / "sentiment.json").read_text(encoding="utf-8"))
    note = {"from_name": "note", "to_name": "text", "type": "textarea", "origin": "manual"}
    for ann in tasks[0]["annotations"]:
        ann["result"] += [
            {**note, "id": f"n{k}", "value": {"text": [f"remark {k}"]}} for k in range(2500)
        ]
    tasks = [{"annotations": t.pop("annotations"), **t} for t in tasks]
    path = tmp_path / "sentiment.json"
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    assert path.read_text(encoding="utf-8").index('"data"') > 200_000
    return path


def test_label_studio_export_with_a_200_kb_first_task_opens(tmp_path, capsys):
    path = _padded_sentiment(tmp_path)
    assert identify(path)["label-studio"] is None
    code, ref, err = _report(["--kind", "table", F / "label_studio" / "sentiment.json"], capsys)
    assert code == 0, err
    code, data, err = _report(["--kind", "table", path], capsys)
    assert code in (0, 1), err
    assert "column" not in err
    assert data["overall"] == ref["overall"] and data["annotators"] == ref["annotators"]


def test_label_studio_spans_export_with_a_long_first_task_is_detected(tmp_path):
    text = " ".join(f"word{k % 10}" for k in range(3000))
    regions = [
        {
            "id": f"r{k}",
            "from_name": "label",
            "to_name": "text",
            "type": "labels",
            "value": {"start": k * 6, "end": k * 6 + 5, "text": f"word{k % 10}", "labels": ["PER"]},
        }
        for k in range(1500)
    ]
    anns = [{"id": w, "completed_by": w, "result": regions, "was_cancelled": False} for w in (1, 2)]
    path = tmp_path / "ner.json"
    path.write_text(json.dumps([{"annotations": anns, "id": 1, "data": {"text": text}}]), "utf-8")
    assert path.stat().st_size > 200_000
    assert detect_kind([path]) == "spans"


def test_jsonl_first_record_longer_than_the_head(tmp_path):
    lines = (F / "doccano" / "alice.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["Comments"] = ["x" * 200_000]
    path = tmp_path / "alice.jsonl"
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    assert identify(path)["doccano"] is None
    prodigy = (F / "prodigy" / "sentiment.jsonl").read_text(encoding="utf-8").splitlines()
    rec = json.loads(prodigy[0])
    rec["meta"] = {"note": "y" * 200_000}
    path = tmp_path / "prodigy.jsonl"
    path.write_text("\n".join([json.dumps(rec), *prodigy[1:]]) + "\n", encoding="utf-8")
    assert identify(path)["prodigy"] is None


def test_not_json_and_empty_list_are_told_apart(tmp_path):
    (tmp_path / "empty.json").write_text("[]", encoding="utf-8")
    assert "empty" in identify(tmp_path / "empty.json")["label-studio"]
    (tmp_path / "bad.json").write_text("[{" + '"a": 1, ' * 50_000, encoding="utf-8")
    assert "not valid JSON" in identify(tmp_path / "bad.json")["label-studio"]

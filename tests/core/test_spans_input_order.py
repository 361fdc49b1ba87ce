"""The pooled unitizing α lays the documents end to end in input order, not name order.

A Prodigy export names its documents by input hash; with name order the pooled αU moved when
the same annotations were exported with other hash values.
"""

from __future__ import annotations

import json

from iaa_desktop.cli import main as cli_main

TEXTS = [
    "Ada met Charles in London on Monday.",
    "Paris is big.",
    "Grace Hopper wrote the first compiler for a computer in Philadelphia long ago.",
]
SPANS = {
    "alice": [[(0, 3, "PER"), (18, 24, "LOC")], [(0, 5, "LOC")], [(0, 12, "PER"), (64, 76, "LOC")]],
    "bob": [[(0, 3, "PER"), (8, 15, "PER")], [(0, 5, "PER")], [(0, 5, "PER"), (64, 76, "LOC")]],
}


def _export(path, hashes):
    lines = []
    for who, docs in SPANS.items():
        for text, h, spans in zip(TEXTS, hashes, docs, strict=True):
            rec = {
                "text": text,
                "_input_hash": h,
                "_task_hash": h * 10,
                "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in spans],
                "answer": "accept",
                "_annotator_id": f"ner-{who}",
                "_session_id": f"ner-{who}",
            }
            lines.append(json.dumps(rec))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _alpha_u(path, capsys):
    code = cli_main(["report", "--kind", "spans", str(path), "--json", "-"])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    return json.loads(cap.out)["overall"]["unitizing_alpha"]["value"]


def test_pooled_alpha_u_does_not_move_with_input_hashes(tmp_path, capsys):
    _export(tmp_path / "a.jsonl", [101, 202, 303])
    _export(tmp_path / "b.jsonl", [303, 101, 202])  # the same records, other hash values
    first, second = _alpha_u(tmp_path / "a.jsonl", capsys), _alpha_u(tmp_path / "b.jsonl", capsys)
    assert first == second

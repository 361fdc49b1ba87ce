"""Files the user did not choose: links inside a study's input folders are judged by where they
point, every option naming a path is guarded, no output replaces an input, and outputs are only
ever regular files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.kinds import KINDS
from iaa_desktop.core.study_file import PATH_OPTIONS, check_study_paths, load_study

TABLE = "item,A,B\n1,x,x\n2,x,y\n3,y,y\n"


def run(args: list[object], capsys) -> tuple[int, str, str]:
    code = cli_main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _study(path: Path, kind: str, inputs: list[str], **options: object) -> Path:
    path.write_text(
        json.dumps(
            {
                "format": "iaa-study",
                "version": 1,
                "kind": kind,
                "inputs": inputs,
                "options": options,
            }
        ),
        encoding="utf-8",
    )
    return path


def test_a_link_inside_an_input_folder_pointing_outside_is_an_outside_input(
    tmp_path: Path, capsys
) -> None:
    secret = tmp_path / "private" / "d.ann"
    secret.parent.mkdir()
    secret.write_text("T1\tMention 0 5\tSECRET\n", encoding="utf-8")
    study = tmp_path / "study"
    for who in ("A", "B"):
        (study / who).mkdir(parents=True)
        (study / who / "d.txt").write_text("David came.", encoding="utf-8")
    (study / "A" / "d.ann").write_text("T1\tMention 0 5\tDavid\n", encoding="utf-8")
    (study / "B" / "d.ann").symlink_to(secret)
    s = _study(study / "s.iaa-study", "coref", ["A", "B"])
    paths = check_study_paths(load_study(s), s)
    assert secret.resolve() in paths.outside
    code, out, err = run(["report", s], capsys)
    assert code == 2 and "reads files outside its folder" in err and str(secret.resolve()) in err
    code, out, err = run(["report", s, "--allow-outside-inputs"], capsys)
    assert code == 0
    # a link that stays inside the study's folder asks nothing
    (study / "B" / "d.ann").unlink()
    (study / "kept.ann").write_text("T1\tMention 0 5\tDavid\n", encoding="utf-8")
    (study / "B" / "d.ann").symlink_to(study / "kept.ann")
    assert check_study_paths(load_study(s), s).outside == ()


#: options of type str that name no file or folder (column names, lists, codes, encodings):
#: every other one must be in PATH_OPTIONS, so a new path option cannot go unguarded
NOT_PATHS = {
    "scale", "categories", "missing", "group_by", "item", "annotator", "label", "question",
    "metadata", "encoding", "relation_types", "doc_column", "begin_column", "end_column",
    "entity_column", "cant_decide", "pair_id", "target_text", "source_text", "target_lemma",
    "source_lemma", "factors", "model_fixed", "model_varying", "labels", "s1",
    "label_delimiter", "layer", "feature", "document_column", "start_column", "label_column",
    "annotator_column", "model_annotators", "batch_column", "batch_size", "occasion_column",
    "occurrence_column", "tiers", "relation_layer", "relation_feature",
}  # fmt: skip


def test_every_option_naming_a_path_is_guarded() -> None:
    free_text = {
        s.name for spec in KINDS.values() for s in spec.settings if s.type is str and not s.choices
    }
    unclassified = free_text - NOT_PATHS - set(PATH_OPTIONS)
    assert unclassified == set(), f"classify these options: {sorted(unclassified)}"
    assert set(PATH_OPTIONS) <= free_text


def test_the_model_cache_outside_the_study_is_not_written_without_consent(tmp_path: Path) -> None:
    s = _study(
        tmp_path / "s.iaa-study",
        "candidates",
        ["pairs.tsv"],
        model_cache=str(tmp_path.parent / "cache-elsewhere"),
    )
    paths = check_study_paths(load_study(s), s)
    assert paths.outputs == {"model_cache": str(tmp_path.parent / "cache-elsewhere")}
    assert paths.needs_confirmation


def test_report_csv_never_replaces_an_input(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    victim = folder / "overall.csv"  # an annotator's table named like a result table
    victim.write_text(TABLE, encoding="utf-8")
    for inputs in ([victim], [folder]):
        code, _, err = run(
            ["report", "--kind", "table", "--interval", "none", *inputs, "--csv", folder], capsys
        )
        assert code == 2 and "is one of the study's inputs" in err and "overall.csv" in err
        assert victim.read_text(encoding="utf-8") == TABLE
    # a link in the output folder to the input is the input too
    out = tmp_path / "out"
    out.mkdir()
    (out / "overall.csv").symlink_to(victim)
    code, _, err = run(
        ["report", "--kind", "table", "--interval", "none", victim, "--csv", out], capsys
    )
    assert code == 2 and victim.read_text(encoding="utf-8") == TABLE


def test_gold_out_never_replaces_an_input(tmp_path: Path, capsys) -> None:
    victim = tmp_path / "undecided.csv"
    victim.write_text(TABLE, encoding="utf-8")
    code, _, err = run(["gold", "--kind", "table", victim, "--out", tmp_path], capsys)
    assert code == 2 and "is one of the study's inputs" in err
    assert victim.read_text(encoding="utf-8") == TABLE


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_planted_in_the_output_folder_is_refused_not_opened(tmp_path: Path, capsys) -> None:
    table = tmp_path / "t.csv"
    table.write_text(TABLE, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "overall.csv")  # opening it for writing would wait for a reader forever
    code, _, err = run(
        ["report", "--kind", "table", "--interval", "none", table, "--csv", out], capsys
    )
    assert code == 2 and "not a regular file" in err
    gold = tmp_path / "gold"
    gold.mkdir()
    os.mkfifo(gold / "undecided.csv")
    code, _, err = run(["gold", "--kind", "table", table, "--out", gold], capsys)
    assert code == 2 and "not a regular file" in err

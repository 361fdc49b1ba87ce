"""Opening a study: what becomes which annotator, the kind detected and why, files left out."""

from __future__ import annotations

import shutil

import pytest

from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.core.study_import import plan_import, why
from iaa_desktop.core.user_files import example_copy, is_example, start_folder, unsaved_store_path
from tests.conftest import FIXTURES, shared_path


def test_a_renamed_durel_judgments_file_is_a_durel_study(tmp_path):
    """A DURel export is recognised by its columns, not only by its file name: opened alone under
    another name it is a DURel study (ordinal α), not a nominal table."""
    source = shared_path("trotr", "(Genesis 1 1)", "judgments.tsv")
    copy = tmp_path / "genesis.tsv"
    shutil.copyfile(source, copy)
    assert detect_kind([copy]) == "durel"
    result = run_to_end(get_kind("durel").run([copy], {}))
    # the published figure of this target (Periti et al., TRoTR)
    assert result.overall["all"]["krippendorff_alpha"] == pytest.approx(0.15052176, abs=1e-6)


def test_a_table_that_is_not_durel_stays_a_table():
    assert detect_kind([FIXTURES / "table" / "k2011_wide.csv"]) == "table"


# ----------------------------------------------------------------------------- the plan

COREF = FIXTURES / "coref"


def test_brat_folders_are_one_annotator_each_and_their_documents_pair_up():
    plan = plan_import([COREF / "heb_A", COREF / "heb_B"])
    assert plan.kind == "coref" and plan.detected == "coref"
    assert plan.inputs == (COREF / "heb_A", COREF / "heb_B")
    assert [a.name for a in plan.annotators] == ["heb_A", "heb_B"]
    assert plan.pairing.unit == "document" and plan.pairing.n_shared == len(plan.pairing.rows)
    assert plan.preview.columns == ("document", "heb_A", "heb_B")
    assert plan.can_open
    assert "Coreference" in why(plan) and "0.95" in why(plan)


def test_ann_files_of_one_folder_are_one_annotator_and_their_texts_are_left_out():
    files = sorted((COREF / "heb_A").iterdir())
    plan = plan_import(files)
    assert [a.name for a in plan.annotators] == ["heb_A"]  # not one annotator per document
    assert plan.inputs == (COREF / "heb_A",)
    assert {lo.path for lo in plan.left_out} == {f for f in files if f.suffix == ".txt"}
    assert not plan.can_open
    assert any("one annotator's documents" in n for n in plan.notes)


def test_an_inception_export_is_every_annotator_and_twin_folders_get_a_prime(tmp_path):
    """The survey names the annotators as the coreference kind will: each user of an INCEpTION
    project export is one (its source "a project export"), each other input one named after
    it, a prime added for a name already taken."""
    export = FIXTURES / "formats" / "inception" / "project.zip"
    plan = plan_import([export], kind="coref")
    assert [(a.name, a.source) for a in plan.annotators] == [
        ("alice", "a project export"),
        ("bob", "a project export"),
    ]
    for parent in ("x", "y"):
        shutil.copytree(COREF / "heb_A", tmp_path / parent / "heb_A")
    plan = plan_import([tmp_path / "x" / "heb_A", tmp_path / "y" / "heb_A"], kind="coref")
    assert [a.name for a in plan.annotators] == ["heb_A", "heb_A'"]
    assert [a.source for a in plan.annotators] == [
        f"{tmp_path / 'x' / 'heb_A'}/",
        f"{tmp_path / 'y' / 'heb_A'}/",
    ]
    result = run_to_end(get_kind("coref").run(plan.inputs, {}))
    assert result.annotators == ("heb_A", "heb_A'")


def test_a_folder_of_annotator_folders_stands_for_them(tmp_path):
    for who in ("A", "B"):
        shutil.copytree(COREF / f"heb_{who}", tmp_path / who)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.md").write_text("x")
    (tmp_path / "README.md").write_text("x")
    plan = plan_import([tmp_path])
    assert plan.inputs == (tmp_path / "A", tmp_path / "B")
    assert [a.name for a in plan.annotators] == ["A", "B"]
    left = {lo.path.name: lo.reason for lo in plan.left_out}
    assert "README.md" in left and "notes" in left


def test_application_files_and_missing_paths_are_left_out_with_a_reason(tmp_path):
    files = [FIXTURES / "table" / "per_annotator" / f for f in ("alice.csv", "bruno.csv")]
    store = tmp_path / "x.adjudication.sqlite"
    store.write_bytes(b"")
    plan = plan_import([*files, store, tmp_path / "gone.csv"])
    assert plan.inputs == tuple(files)
    reasons = {lo.path.name: lo.reason for lo in plan.left_out}
    assert reasons["gone.csv"] == "does not exist"
    assert "adjudication store" in reasons["x.adjudication.sqlite"]
    assert [a.name for a in plan.annotators] == ["alice", "bruno"]
    assert plan.annotators[0].source == "the file alice.csv"


def test_a_chosen_kind_is_kept_and_the_detected_one_still_shown():
    plan = plan_import([FIXTURES / "table" / "k2011_wide.csv"], kind="multilabel")
    assert plan.kind == "multilabel" and plan.detected == "table"
    assert "as chosen" in why(plan)


def test_the_study_carries_the_kind_and_the_users_names():
    plan = plan_import([COREF / "heb_A", COREF / "heb_B"])
    study = plan.study({"heb_A": "Ada ", "heb_B": "heb_B"})
    assert study.kind == "coref" and study.inputs == plan.inputs
    assert study.options == {"annotator_names": {"heb_A": "Ada"}}
    result = run_to_end(get_kind(study.kind).run(list(study.inputs), study.options))
    assert result.annotators == ("Ada", "heb_B")


# ----------------------------------------------------------------------------- user files


def test_an_example_is_copied_once_and_the_copy_is_kept(tmp_path):
    root = tmp_path / "examples"
    (root / "judgments").mkdir(parents=True)
    (root / "judgments" / "ratings.csv").write_text("item,a,b\n1,x,x\n")
    study = root / "judgments" / "ratings.iaa-study"
    study.write_text("{}")
    data = tmp_path / "data"
    copy = example_copy(study, root, data)
    assert copy == data / "examples" / "judgments" / "ratings.iaa-study"
    assert (copy.parent / "ratings.csv").read_text() == "item,a,b\n1,x,x\n"
    (copy.parent / "ratings.csv").write_text("edited")
    (copy.parent / "ratings.adjudication.sqlite").write_text("store")
    assert example_copy(study, root, data) == copy
    assert (copy.parent / "ratings.csv").read_text() == "edited"  # the user's copy is kept
    assert sorted(p.name for p in (root / "judgments").iterdir()) == [
        "ratings.csv",
        "ratings.iaa-study",
    ]
    other = tmp_path / "mine.iaa-study"
    assert example_copy(other, root, data) == other
    assert not is_example(other, root) and is_example(study, root)


def test_stores_of_unsaved_studies_are_named_after_their_inputs(tmp_path):
    a = unsaved_store_path(
        [tmp_path / "pairs.tsv", tmp_path / "labels.tsv"], "candidates", tmp_path
    )
    assert a == unsaved_store_path(
        [tmp_path / "pairs.tsv", tmp_path / "labels.tsv"], "candidates", tmp_path
    )
    assert a.parent == tmp_path / "adjudication" and a.name.startswith("pairs-")
    assert a != unsaved_store_path([tmp_path / "pairs.tsv"], "candidates", tmp_path)
    assert a != unsaved_store_path(
        [tmp_path / "pairs.tsv", tmp_path / "labels.tsv"], None, tmp_path
    )


def test_save_dialogs_start_in_the_last_folder_or_documents_never_in_the_package(tmp_path):
    docs, last, package = tmp_path / "Documents", tmp_path / "last", tmp_path / "pkg"
    for d in (docs, last, package):
        d.mkdir()
    assert start_folder(last, docs) == last
    assert start_folder(None, docs) == docs
    assert start_folder(tmp_path / "gone", docs) == docs
    assert start_folder(package / "examples", docs, avoid=(package,)) == docs

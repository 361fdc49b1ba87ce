"""Opening studies made of folders through the import dialog, and what the window writes where."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtWidgets import QAbstractItemView, QDialogButtonBox, QFileDialog

from iaa_desktop.core.io import to_json_text
from iaa_desktop.core.kinds.spec import result_json
from iaa_desktop.gui.import_dialog import ImportDialog, enable_multi_selection
from iaa_desktop.gui.start_page import examples_dir
from tests.conftest import FIXTURES, shared_path
from tests.gui import user

ROOT = Path(__file__).resolve().parents[2]


def planned(qtbot, window, paths) -> ImportDialog:
    dialog = window.open_selection([Path(p) for p in paths])
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=120000)
    return dialog


def compare(qtbot, window, dialog):
    assert dialog.open_button.isEnabled(), dialog.status.text()
    with qtbot.waitSignal(window.session.results_ready, timeout=180000) as blocker:
        user.press(qtbot, dialog.open_button)
    return blocker.args[0]


def cli_json(*args: str) -> dict:
    r = subprocess.run(
        [sys.executable, "-m", "iaa_desktop", "report", *args, "--json", "-"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def gui_json(result) -> dict:
    return json.loads(to_json_text(result_json(result)))


def test_two_brat_folders_give_the_same_figures_as_the_cli(qtbot, window):
    a, b = shared_path("psalms-coref", "A"), shared_path("psalms-coref", "B")
    dialog = planned(qtbot, window, [a, b])
    plan = dialog.plan
    assert plan.kind == "coref" and plan.detected == "coref"
    assert [x.name for x in plan.annotators] == ["A", "B"]
    assert plan.pairing.n_shared == 5  # the five Psalms pair up
    assert dialog.preview.rowCount() == 5 and dialog.pairing.rowCount() == 5
    assert "Coreference" in dialog.why_label.text()
    result = compare(qtbot, window, dialog)
    assert gui_json(result) == cli_json(str(a), str(b))


def test_a_durel_folder_gives_the_same_figures_as_the_cli(qtbot, window):
    trotr = shared_path("trotr")
    dialog = planned(qtbot, window, [trotr])
    plan = dialog.plan
    assert plan.kind == "durel"
    assert {x.name for x in plan.annotators} == {"Nisha", "AndreaMariaC", "shur", "iosakwe"}
    left = {lo.path.name: lo.reason for lo in plan.left_out}
    assert "README.md" in left and "expected_per_target.csv" in left
    assert plan.pairing.unit == "target" and len(plan.pairing.rows) == 10
    result = compare(qtbot, window, dialog)
    data = gui_json(result)
    assert data == cli_json(str(trotr))
    assert data["level"] == "ordinal"


def test_picking_one_annotators_ann_files_is_one_annotator_not_one_per_document(qtbot, window):
    folder = shared_path("psalms-coref", "A")
    dialog = planned(qtbot, window, sorted(folder.iterdir()))  # *.ann and *.txt of A
    plan = dialog.plan
    assert [x.name for x in plan.annotators] == ["A"]
    assert plan.inputs == (folder,)
    texts = [lo for lo in plan.left_out if lo.path.suffix == ".txt"]
    assert len(texts) == 5 and all("text of the brat document" in lo.reason for lo in texts)
    assert not dialog.open_button.isEnabled()
    assert "one annotator's documents" in dialog.notes.text()
    dialog.add_paths([shared_path("psalms-coref", "B")])  # the other annotator's folder
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=120000)
    assert [x.name for x in dialog.plan.annotators] == ["A", "B"]
    assert dialog.open_button.isEnabled()


def test_names_can_be_changed_and_the_kind_chosen(qtbot, window):
    files = [FIXTURES / "table" / "per_annotator" / f for f in ("alice.csv", "bruno.csv")]
    dialog = planned(qtbot, window, files)
    assert dialog.plan.kind == "table"
    user.edit_cell(qtbot, dialog.annotators, 0, 0, "bruno")
    assert not dialog.open_button.isEnabled()  # two annotators with one name
    user.edit_cell(qtbot, dialog.annotators, 0, 0, "Alice Martin")
    assert dialog.open_button.isEnabled()
    result = compare(qtbot, window, dialog)
    assert result.annotators == ("Alice Martin", "bruno")
    assert window.session.study.options["annotator_names"] == {"alice": "Alice Martin"}
    assert [window.study_panel.annotators.item(i).text() for i in range(2)] == [
        "Alice Martin",
        "bruno",
    ]
    # the kind can be changed in the dialog: the plan is made again for that kind
    other = planned(qtbot, window, files)
    user.choose(qtbot, other.kind_combo, "multilabel")
    qtbot.waitUntil(
        lambda: other.plan is not None and other.plan.kind == "multilabel", timeout=60000
    )
    assert other.plan.detected == "table"
    assert "as chosen" in other.why_label.text()


def test_folder_dialog_selects_several_folders(qtbot):
    root = shared_path("psalms-coref")
    dialog = QFileDialog(None, "folders", str(root))
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    enable_multi_selection(dialog)
    qtbot.addWidget(dialog)
    dialog.show()
    view = next(v for v in dialog.findChildren(QAbstractItemView) if v.objectName() == "listView")
    model = view.model()
    qtbot.waitUntil(lambda: model.rowCount(view.rootIndex()) >= 2, timeout=20000)
    rows = {
        model.index(r, 0, view.rootIndex()).data(): model.index(r, 0, view.rootIndex())
        for r in range(model.rowCount(view.rootIndex()))
    }
    user.activate(qtbot, dialog)
    for name, mods in (
        ("A", Qt.KeyboardModifier.NoModifier),
        ("B", Qt.KeyboardModifier.ControlModifier),
    ):
        view.scrollTo(rows[name])
        qtbot.mouseClick(
            view.viewport(), Qt.MouseButton.LeftButton, mods, view.visualRect(rows[name]).center()
        )
    buttons = dialog.findChild(QDialogButtonBox)
    user.press(qtbot, buttons.button(QDialogButtonBox.StandardButton.Open))
    assert [Path(p) for p in dialog.selectedFiles()] == [root / "A", root / "B"]


def test_an_example_opens_as_a_copy_in_the_users_data_folder(qtbot, window, tmp_path):
    before = sorted(p.relative_to(examples_dir()) for p in examples_dir().rglob("*"))
    card = next(c for c in window.start_page.cards if c.example.kind_folder == "judgments")
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        user.press(qtbot, card.button)
    copy = tmp_path / "user-data" / "examples" / "judgments"
    assert window.study_path == copy / "ratings.iaa-study"
    assert all(Path(p).is_relative_to(copy) for p in window.session.study.inputs)
    assert window.recent_files()[0] == str(copy / "ratings.iaa-study")
    # adjudicating the example keeps its store beside the copy, not inside the package
    user.activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    dlg = window.adjudication_window
    qtbot.addWidget(dlg)
    assert dlg.panel.session.store.path.parent == copy
    dlg.close()
    after = sorted(p.relative_to(examples_dir()) for p in examples_dir().rglob("*"))
    assert after == before  # nothing written inside the installed package


def test_an_unsaved_studys_store_goes_to_the_users_data_folder(qtbot, window, tmp_path):
    d = FIXTURES / "candidates"
    with qtbot.waitSignal(window.session.results_ready, timeout=60000):
        window.open_inputs([d / "pairs.tsv", d / "labels.tsv"], "candidates", {})
    assert window.study_path is None
    user.activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    dlg = window.adjudication_window
    qtbot.addWidget(dlg)
    store = dlg.panel.session.store.path
    assert store.parent == tmp_path / "user-data" / "adjudication"
    assert store.name.startswith("pairs-") and store.name.endswith(".adjudication.sqlite")
    dlg.close()
    assert not list(d.glob("*.sqlite*"))


def test_save_dialogs_start_in_the_documents_folder_then_the_last_used(qtbot, window, tmp_path):
    docs = Path(window.commands.save_start("x")).parent
    assert docs != FIXTURES and not docs.is_relative_to(examples_dir())
    window.state.remember_save(tmp_path / "reports" / "r.pdf")
    (tmp_path / "reports").mkdir()
    assert Path(window.commands.save_start("study.iaa-study")) == tmp_path / "reports" / (
        "study.iaa-study"
    )


def test_every_main_window_part_fits_1280_by_720(qtbot, window):
    """The start page, the docks, the status bar and the import dialog fit a 1280 × 720 screen."""
    limit = QSize(1280, 720)
    hint = window.minimumSizeHint()
    assert hint.width() <= limit.width() and hint.height() <= limit.height(), hint
    dialog = planned(qtbot, window, [FIXTURES / "table" / "k2011_wide.csv"])
    d = dialog.minimumSizeHint()
    assert d.width() <= limit.width() and d.height() <= limit.height(), d
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        window.open_inputs([FIXTURES / "table" / "k2011_wide.csv"], "table", {"interval": "none"})
    window.headline_label.setText("x" * 400)  # a long headline does not widen the window
    hint = window.minimumSizeHint()
    assert hint.width() <= limit.width() and hint.height() <= limit.height(), hint


def test_geometry_is_remembered_per_kind_of_view(qtbot, window):
    table = FIXTURES / "table" / "k2011_wide.csv"
    coref = [FIXTURES / "coref" / "heb_A", FIXTURES / "coref" / "heb_B"]
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        window.open_inputs([table], "table", {"interval": "none"})
    window.resize(1000, 650)
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        window.open_inputs(coref, "coref", {})
    assert (window.width(), window.height()) != (1000, 650)  # not carried over
    window.resize(1200, 700)
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        window.open_inputs([table], "table", {"interval": "none"})
    QTimer.singleShot(0, lambda: None)
    assert (window.width(), window.height()) == (1000, 650)
    assert window.settings.value("view/coref/size") == QSize(1200, 700)


def test_the_example_study_gives_the_cli_figures_intervals_included(qtbot, window):
    """The 80-item example with bootstrap intervals: the window shows what `report` writes."""
    study = examples_dir() / "judgments" / "ratings.iaa-study"
    with qtbot.waitSignal(window.session.results_ready, timeout=300000) as blocker:
        window.open_path(study)
    data = gui_json(blocker.args[0])
    assert data["overall"]["krippendorff_alpha"]["ci_low"] is not None
    assert data == cli_json(str(study))

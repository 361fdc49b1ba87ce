"""Opening a study file that reaches beyond its folder asks first, in the window's message bar
(never a modal dialog), and devices are refused; the bundled examples open without a question."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMessageBox

from iaa_desktop.gui.confirm import CANCEL, OPEN, OPEN_NO_OUTPUTS, Outcome
from iaa_desktop.gui.start_page import find_examples

RATINGS = "item,coder,label\n1,a,x\n1,b,x\n2,a,x\n2,b,y\n3,a,y\n3,b,y\n"


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    """Any modal dialog would hang the test: make opening one fail it instead."""

    def fail(*_a, **_k):
        pytest.fail("a modal dialog was opened")

    for name in ("warning", "critical", "information", "question"):
        monkeypatch.setattr(QMessageBox, name, fail)
    monkeypatch.setattr(QMessageBox, "exec", fail)
    monkeypatch.setattr(QDialog, "exec", fail)


def _study(folder: Path, inputs: list[str], **options) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / "s.iaa-study"
    data = {"format": "iaa-study", "version": 1, "kind": "table", "inputs": inputs}
    p.write_text(json.dumps({**data, "options": {"interval": "none", **options}}), "utf-8")
    return p


def _data(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(RATINGS, encoding="utf-8")
    return path


def test_a_study_inside_its_folder_opens_without_asking(qtbot, window, tmp_path):
    _data(tmp_path / "s" / "sub" / "data.csv")
    p = _study(tmp_path / "s", ["sub/data.csv"])
    with qtbot.waitSignal(window.session.results_ready, timeout=60000):
        assert window.open_path(p) is Outcome.OPENED
    assert not window.message_bar.isVisible()
    assert window.study_path == p


@pytest.mark.parametrize("kind", [e.kind_folder for e in find_examples()])
def test_every_bundled_example_opens_without_asking(qtbot, window, kind):
    """An example opens as its copy in the user's data folder, inputs copied beside it."""
    card = next(c for c in window.start_page.cards if c.example.kind_folder == kind)
    with qtbot.waitSignal(window.session.study_changed, timeout=60000):
        qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    assert not window.message_bar.isVisible()
    copy = window.data_dir / "examples" / kind
    assert window.study_path.is_relative_to(copy)
    assert all(
        Path(p).resolve().is_relative_to(copy.resolve()) for p in window.session.study.inputs
    )
    window.session.cancel()


def test_outside_inputs_ask_and_cancel_opens_nothing(qtbot, window, tmp_path):
    data = _data(tmp_path / "elsewhere" / "data.csv")
    p = _study(tmp_path / "s", [str(data)], iaa_dir=str(tmp_path / "out"))
    assert window.open_path(p) is Outcome.ASKED
    bar = window.message_bar
    assert bar.isVisible() and bar.asking
    assert str(data) in bar.details.text() and str(tmp_path / "out") in bar.details.text()
    assert set(bar.buttons) == {OPEN, OPEN_NO_OUTPUTS, CANCEL}
    qtbot.mouseClick(bar.buttons[CANCEL], Qt.MouseButton.LeftButton)
    assert not bar.isVisible()
    assert window.session.study is None and window.study_path is None
    assert window.stack.currentWidget() is window.start_page


def test_outside_inputs_ask_and_open_opens_with_the_outputs(qtbot, window, tmp_path):
    data = _data(tmp_path / "elsewhere" / "data.csv")
    p = _study(tmp_path / "s", ["../elsewhere/data.csv"], iaa_dir=str(tmp_path / "out"))
    assert window.open_path(p) is Outcome.ASKED
    assert window.session.study is None  # nothing before the answer
    with qtbot.waitSignal(window.session.results_ready, timeout=60000) as blocker:
        qtbot.mouseClick(window.message_bar.buttons[OPEN], Qt.MouseButton.LeftButton)
    assert window.study_path == p
    assert [Path(x).resolve() for x in blocker.args[0].inputs] == [data.resolve()]
    assert window.session.study.options["iaa_dir"] == str(tmp_path / "out")


def test_output_folders_are_dropped_unless_allowed(qtbot, window, tmp_path):
    _data(tmp_path / "s" / "data.csv")
    p = _study(tmp_path / "s", ["data.csv"], iaa_dir=str(tmp_path / "out"))
    assert window.open_path(p) is Outcome.ASKED  # inputs inside, but a folder to write into
    assert set(window.message_bar.buttons) == {OPEN, OPEN_NO_OUTPUTS, CANCEL}
    with qtbot.waitSignal(window.session.results_ready, timeout=60000):
        qtbot.mouseClick(window.message_bar.buttons[OPEN_NO_OUTPUTS], Qt.MouseButton.LeftButton)
    assert "iaa_dir" not in window.session.study.options
    assert "iaa_dir" in window.status_label.text() or window.session.result is not None


def test_a_question_left_open_is_cancelled_by_opening_something_else(qtbot, window, tmp_path):
    data = _data(tmp_path / "elsewhere" / "data.csv")
    p = _study(tmp_path / "s", [str(data)])
    assert window.open_path(p) is Outcome.ASKED
    inside = _study(tmp_path / "t", ["data.csv"])
    _data(tmp_path / "t" / "data.csv")
    with qtbot.waitSignal(window.session.results_ready, timeout=60000):
        assert window.open_path(inside) is Outcome.OPENED
    assert not window.message_bar.isVisible() and window.study_path == inside


def test_a_device_is_refused_without_asking(qtbot, window, tmp_path):
    p = _study(tmp_path, ["/dev/zero"])
    assert window.open_path(p) is Outcome.REFUSED
    bar = window.message_bar
    assert bar.isVisible() and not bar.asking
    assert "device, pipe or socket" in bar.text.text() and "/dev/zero" in bar.details.text()
    assert window.session.study is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_below_the_folder_is_refused_too(qtbot, window, tmp_path):
    os.mkfifo(tmp_path / "ratings.csv")
    p = _study(tmp_path, ["ratings.csv"])
    assert window.open_path(p) is Outcome.REFUSED
    assert window.session.study is None


def test_an_unreadable_study_file_is_told_in_the_bar(qtbot, window, tmp_path):
    p = tmp_path / "bad.iaa-study"
    p.write_text("{not json", encoding="utf-8")
    assert window.open_path(p) is Outcome.REFUSED
    assert "not valid JSON" in window.message_bar.details.text()


def test_the_screenshot_command_takes_the_allow_flags(tmp_path):
    """``open`` asks nobody: without --allow-outside-inputs it says what the study reaches and
    stops; with it, the study opens (its output folder only with --allow-study-outputs)."""
    import subprocess
    import sys

    data = _data(tmp_path / "elsewhere" / "data.csv")
    p = _study(tmp_path / "s", [str(data)])
    png = tmp_path / "shot.png"
    base = [sys.executable, "-m", "iaa_desktop", "open", str(p), "--screenshot", str(png)]
    refused = subprocess.run(base, capture_output=True, text=True)
    assert refused.returncode == 2 and "--allow-outside-inputs" in refused.stderr
    assert str(data) in refused.stderr and not png.exists()
    allowed = subprocess.run([*base, "--allow-outside-inputs"], capture_output=True, text=True)
    assert allowed.returncode == 0, allowed.stderr
    assert png.stat().st_size > 10_000

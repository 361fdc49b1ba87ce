"""Opening a study file that reaches beyond its folder asks first (and refuses devices)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from iaa_desktop.core.study_file import load_study
from iaa_desktop.gui.confirm import confirm_study


def _study(folder: Path, inputs: list[str], **options) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / "s.iaa-study"
    p.write_text(
        json.dumps({"format": "iaa-study", "version": 1, "inputs": inputs, "options": options}),
        encoding="utf-8",
    )
    return p


@pytest.mark.parametrize(
    "answer", [QMessageBox.StandardButton.Open, QMessageBox.StandardButton.Cancel]
)
def test_outside_inputs_and_output_folders_are_asked_for(qtbot, tmp_path, monkeypatch, answer):
    asked = []

    def fake_exec(box):
        asked.append(box.informativeText())
        return answer

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    p = _study(tmp_path / "s", ["../data.csv"], iaa_dir="/tmp/x")
    got = confirm_study(None, p, load_study(p))
    assert len(asked) == 1 and "data.csv" in asked[0] and "/tmp/x" in asked[0]
    if answer == QMessageBox.StandardButton.Open:
        assert got is not None and got.options["iaa_dir"] == "/tmp/x"
    else:
        assert got is None


def test_a_study_inside_its_folder_opens_without_asking(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "exec", lambda box: pytest.fail("asked"))
    p = _study(tmp_path, ["data.csv"])
    assert confirm_study(None, p, load_study(p)) is not None


def test_a_device_is_refused_without_asking(qtbot, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: pytest.fail("asked"))
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    p = _study(tmp_path, ["/dev/zero"])
    assert confirm_study(None, p, load_study(p)) is None
    assert "device, pipe or socket" in shown[0]

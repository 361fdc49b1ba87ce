"""pytest-qt: faults of the adjudication store reach the user in the window, and nothing the
user made is lost (a full disk while deciding, a damaged or empty store when opening)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from iaa_desktop.cli import compute
from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore, units_for
from iaa_desktop.core.adjudication.session import decide_all
from iaa_desktop.gui.adjudication import AdjudicationPanel, open_adjudication
from tests.conftest import shared_path


class _DiskFull:
    """A connection whose writes fail as on a full disk (reads go through)."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.con.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.con, name)


def _result():
    d = shared_path("candidates")
    return compute("candidates", [d / "pairs.tsv", d / "labels.tsv"], {})


def test_a_full_disk_while_deciding_shows_a_message_bar(qtbot, tmp_path: Path) -> None:
    result = _result()
    store = AdjudicationStore.open(tmp_path / "s.adjudication.sqlite")
    panel = AdjudicationPanel(AdjudicationSession(units_for(result), store))
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    s = panel.session
    first = panel.current
    real = store._con
    store._con = _DiskFull(real)
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_1)
    assert panel.message_bar.isVisible()
    assert panel.message_bar.text.text() == "The decision was not recorded."
    assert "disk is full" in panel.message_bar.details.text()
    assert not s.is_decided(first) and panel.current == first
    assert panel.undo_stack.count() == 0
    store._con = real  # space freed: the same key records it
    qtbot.mouseClick(panel.message_bar.buttons["Close"], Qt.MouseButton.LeftButton)
    assert not panel.message_bar.isVisible()
    qtbot.keyClick(panel.queue_view, Qt.Key.Key_1)
    assert s.is_decided(first) and store.decision(s.model.keys[first]) is not None
    panel.close_store()


def _stored_decisions(path: Path) -> None:
    session = AdjudicationSession(units_for(_result()), AdjudicationStore.open(path), seed=1)
    decide_all(session, session.queue()[:20])
    session.store.close()


def test_adjudicate_on_a_damaged_store_says_so_and_opens_it_read_only(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    study = tmp_path / "study.json"
    path = tmp_path / "study.adjudication.sqlite"
    _stored_decisions(path)
    page = int.from_bytes(path.read_bytes()[16:18], "big")
    with open(path, "r+b") as fh:
        fh.seek(2 * page)
        fh.write(os.urandom(page))
    damaged = path.read_bytes()
    asked: list[str] = []

    def answer(*args: Any, **kw: Any) -> QMessageBox.StandardButton:
        asked.append(args[2])
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    dlg = open_adjudication(None, _result(), study, show=False)
    assert dlg is not None
    qtbot.addWidget(dlg)
    assert "damaged" in asked[0] and "restore from the backup beside it" in asked[0]
    assert dlg.panel.session.read_only and "damaged" in dlg.panel.session.store.damaged
    dlg.close()
    assert path.read_bytes() == damaged


def test_adjudicate_on_an_empty_store_never_starts_over(qtbot, tmp_path: Path, monkeypatch) -> None:
    study = tmp_path / "study.json"
    path = tmp_path / "study.adjudication.sqlite"
    path.write_bytes(b"")
    asked: list[str] = []

    def answer(*args: Any, **kw: Any) -> QMessageBox.StandardButton:
        asked.append(args[2])
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", answer)
    assert open_adjudication(None, _result(), study, show=False) is None
    assert "empty (0 bytes" in asked[0]
    assert path.read_bytes() == b""

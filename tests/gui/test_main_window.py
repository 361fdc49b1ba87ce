"""The main window and its session: live recompute, newest result wins, files, studies, export."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from iaa_desktop.core.study_file import Study, load_study
from iaa_desktop.gui.app import create_main_window
from iaa_desktop.gui.confirm import OPEN, Outcome
from tests.conftest import FIXTURES, shared_path
from tests.gui import user

K2011 = FIXTURES / "table" / "k2011_wide.csv"


def open_and_wait(qtbot, window, inputs, kind=None, options=None, timeout=60000):
    with qtbot.waitSignal(window.session.results_ready, timeout=timeout) as blocker:
        window.open_inputs([Path(p) for p in inputs], kind, options)
    return blocker.args[0]


def test_opens_a_table_study_and_shows_the_overview(qtbot, window):
    result = open_and_wait(
        qtbot, window, [K2011], "table", {"level": "interval", "interval": "none"}
    )
    assert result.overall["krippendorff_alpha"].value == pytest.approx(0.849, abs=5e-4)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert titles[0] == "Overview"
    overview = window.tabs.widget(0)
    assert overview.metrics_model.rowCount() >= 8
    assert overview.items_model.rowCount() == 12
    assert [window.study_panel.annotators.item(i).text() for i in range(4)] == ["A", "B", "C", "D"]
    assert "Krippendorff" in window.headline_label.text()


def test_clicking_an_item_shows_labels_side_by_side(qtbot, window):
    open_and_wait(qtbot, window, [K2011], "table", {"interval": "none"})
    overview = window.tabs.widget(0)
    user.click_row(qtbot, overview.items_view, 0)
    html = overview.detail.toHtml()
    for a in "ABCD":
        assert f">{a}<" in html


def test_items_table_filters_and_sorts(qtbot, window):
    open_and_wait(qtbot, window, [K2011], "table", {"interval": "none"})
    overview = window.tabs.widget(0)
    user.type_filter(qtbot, overview.bar.filter, "11")
    qtbot.waitUntil(lambda: overview.items_model.rowCount() == 1, timeout=3000)
    user.type_filter(qtbot, overview.bar.filter, "")
    qtbot.waitUntil(lambda: overview.items_model.rowCount() == 12, timeout=3000)
    user.sort_by(qtbot, overview.items_view, 0)
    if overview.items_model.frame["item"].iloc[0] != "1":
        user.sort_by(qtbot, overview.items_view, 0)  # the first click sorted descending
    assert overview.items_model.frame["item"].iloc[0] == "1"


def test_settings_change_recomputes(qtbot, window):
    open_and_wait(qtbot, window, [K2011], "table", {"level": "nominal", "interval": "none"})
    editor = window.settings_panel.editor("level")
    assert editor is not None
    user.click_tab(qtbot, window, "Settings")
    with qtbot.waitSignal(window.session.results_ready, timeout=30000) as blocker:
        user.choose(qtbot, editor, "ordinal")
    assert blocker.args[0].level == "ordinal"
    assert blocker.args[0].overall["krippendorff_alpha"].value == pytest.approx(0.815, abs=5e-4)


def test_superseded_runs_are_dropped(qtbot, window):
    open_and_wait(qtbot, window, [K2011], "table", {"level": "nominal", "interval": "none"})
    received = []
    window.session.results_ready.connect(received.append)
    for level in ("ordinal", "interval", "ratio"):
        window.session.set_option("level", level)
        window.session.recompute(immediately=True)  # start at once, superseding the previous run
    qtbot.waitUntil(lambda: not window.session.running and bool(received), timeout=30000)
    qtbot.wait(200)
    assert [r.level for r in received] == ["ratio"]


def test_file_change_on_disk_recomputes(qtbot, window, tmp_path):
    data = tmp_path / "study.csv"
    data.write_text("item,a,b\n1,x,x\n2,y,y\n3,x,y\n4,y,y\n")
    first = open_and_wait(qtbot, window, [data], "table", {"interval": "none"})
    assert first.overall["percent_agreement"].value == pytest.approx(0.75)
    with qtbot.waitSignal(window.session.results_ready, timeout=20000) as blocker:
        time.sleep(0.05)
        data.write_text("item,a,b\n1,x,x\n2,y,y\n3,y,y\n4,y,y\n")
    assert blocker.args[0].overall["percent_agreement"].value == pytest.approx(1.0)


def test_malformed_file_keeps_last_good_results(qtbot, window, tmp_path):
    data = tmp_path / "study.csv"
    data.write_text("item,a,b\n1,x,x\n2,y,y\n3,x,y\n")
    good = open_and_wait(qtbot, window, [data], "table", {"interval": "none"})
    with qtbot.waitSignal(window.session.computation_failed, timeout=20000) as blocker:
        data.write_bytes(b"\x00\x01binary junk")
    assert str(data) in blocker.args[0]
    assert window.session.result is good
    assert window.tabs.count() >= 1  # the old results are still on screen
    errors = [
        window.study_panel.errors.item(i).text() for i in range(window.study_panel.errors.count())
    ]
    assert any("not a text file" in e for e in errors)
    assert "last results stay" in window.status_label.text()


def test_partial_errors_are_listed_with_file_and_line(qtbot, window, tmp_path):
    data = tmp_path / "dup.csv"
    data.write_text("item,coder,label\n1,a,x\n1,b,x\n2,a,x\n2,b,y\n1,a,z\n3,a,x\n3,b,x\n")
    open_and_wait(qtbot, window, [data], "table", {"interval": "none"})
    errors = [
        window.study_panel.errors.item(i).text() for i in range(window.study_panel.errors.count())
    ]
    assert any(f"{data}, line 6" in e for e in errors)


def test_study_saves_and_reopens(qtbot, window, tmp_path, settings):
    open_and_wait(qtbot, window, [K2011], "table", {"level": "ordinal", "interval": "none"})
    path = tmp_path / "my.iaa-study"
    window.write_study(path)
    study = load_study(path)
    assert study.kind == "table" and study.options["level"] == "ordinal"
    assert [p.resolve() for p in study.inputs] == [K2011.resolve()]
    assert window.recent_files()[0] == str(path)
    other = create_main_window(settings=settings)
    qtbot.addWidget(other)
    assert other.recent_files()[0] == str(path)  # persisted in the settings
    with qtbot.waitSignal(other.session.results_ready, timeout=30000) as blocker:
        # its input lies outside the study's folder: the window asks before reading it
        assert other.open_path(path) is Outcome.ASKED
        other.show()
        user.press(qtbot, other.message_bar.buttons[OPEN])
    assert blocker.args[0].level == "ordinal"
    other.session.cancel()


def test_geometry_persists(qtbot, settings):
    w = create_main_window(settings=settings)
    qtbot.addWidget(w)
    w.resize(900, 640)
    w.show()
    w.close()
    w2 = create_main_window(settings=settings)
    qtbot.addWidget(w2)
    assert (w2.width(), w2.height()) == (900, 640)


def test_dropped_files_open_through_the_import_dialog(qtbot, window):
    mime = QMimeData()
    mime.setUrls(
        [
            QUrl.fromLocalFile(str(FIXTURES / "table" / "per_annotator" / "alice.csv")),
            QUrl.fromLocalFile(str(FIXTURES / "table" / "per_annotator" / "bruno.csv")),
        ]
    )
    with warnings.catch_warnings():  # PySide marks the only constructor Qt 6 has deprecated
        warnings.simplefilter("ignore", DeprecationWarning)
        enter = QDragEnterEvent(
            QPoint(10, 10),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
    QApplication.sendEvent(window, enter)  # what the platform sends as the files arrive
    assert enter.isAccepted()
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(window, event)  # dropped files go through the import dialog first
    dialog = window.open_flow.dialog
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=60000)
    assert [a.name for a in dialog.plan.annotators] == ["alice", "bruno"]
    with qtbot.waitSignal(window.session.results_ready, timeout=30000) as blocker:
        user.press(qtbot, dialog.open_button)
    assert blocker.args[0].annotators == ("alice", "bruno")


def test_export_writes_csv_and_json(qtbot, window, tmp_path):
    open_and_wait(
        qtbot,
        window,
        [FIXTURES / "table" / "long_groups.csv"],
        "table",
        {"group_by": "genre", "interval": "none"},
    )
    written = window.export_tables_to(tmp_path / "out")
    names = {p.name for p in written}
    assert {"overall.csv", "pairwise.csv", "items.csv", "groups.csv"} <= names
    data = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert data["kind"] == "table" and len(data["groups"]) == 2
    items = (tmp_path / "out" / "items.csv").read_text(encoding="utf-8")
    assert "'=cmd" in items


def test_a_report_is_not_written_over_an_input(qtbot, window, tmp_path, monkeypatch):
    """Choosing one of the study's files as the report's file is refused with a message; the
    file stays as it was and no writer starts."""
    import importlib

    from PySide6.QtWidgets import QMessageBox

    data = tmp_path / "study.csv"
    data.write_text("item,a,b\n1,x,x\n2,y,y\n3,x,y\n", encoding="utf-8")
    result = open_and_wait(qtbot, window, [data], "table", {"interval": "none"})
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[1:]))
    report = importlib.import_module("iaa_desktop.core.export.report")
    window.commands.write_report(report, result, str(data))
    assert shown and shown[0][0] == "Report not written" and "study's inputs" in shown[0][1]
    assert data.read_text(encoding="utf-8").startswith("item,a,b")
    assert getattr(window.commands, "report_worker", None) is None


def test_cancel_stops_the_run(qtbot, window, tmp_path):
    big = _big_study(tmp_path, 100_000)
    window.open_inputs([big], "table", {"interval": "bootstrap"})
    qtbot.waitUntil(lambda: window.session.running, timeout=5000)
    with qtbot.waitSignal(window.session.computation_cancelled, timeout=5000):
        user.press(qtbot, window.cancel_button)
    assert not window.session.running
    assert window.status_label.text() == "Cancelled — press F5 to compute again."


def _big_study(tmp_path: Path, n_items: int, n_annotators: int = 5) -> Path:
    rng = np.random.default_rng(0)
    truth = rng.integers(1, 6, n_items)
    labels = np.where(
        rng.random((n_items, n_annotators)) < 0.7,
        truth[:, None],
        rng.integers(1, 6, (n_items, n_annotators)),
    )
    path = tmp_path / f"big_{n_items}.csv"
    header = "item," + ",".join(f"a{j}" for j in range(n_annotators))
    body = np.column_stack([np.arange(n_items), labels])
    np.savetxt(path, body, fmt="%d", delimiter=",", header=header, comments="")
    return path


def test_reading_and_computing_run_off_the_gui_thread(qtbot, window, tmp_path, monkeypatch):
    """The files are read and the figures computed in a worker thread, and the GUI thread keeps
    running its event loop meanwhile (how long it is held up is measured by
    bench/bench_gui_heartbeat.py, not asserted here)."""
    import threading

    from iaa_desktop.core.kinds.table import compare

    big = _big_study(tmp_path, 20_000)
    threads: list[int] = []
    original = compare.read_judgments

    def recording(*args, **kwargs):
        threads.append(threading.get_ident())
        return original(*args, **kwargs)

    monkeypatch.setattr(compare, "read_judgments", recording)
    beats: list[int] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: beats.append(threading.get_ident()))
    timer.start()
    try:
        with qtbot.waitSignal(window.session.results_ready, timeout=180000) as blocker:
            window.open_inputs([big], "table", {"level": "ordinal"})
    finally:
        timer.stop()
    assert blocker.args[0].n_items == 20_000
    gui = threading.get_ident()
    assert threads and all(t != gui for t in threads)
    assert beats and set(beats) == {gui}


def test_screenshot_command_on_trotr(tmp_path):
    import subprocess
    import sys

    target = shared_path("trotr", "(Genesis 1 1)", "judgments.tsv")
    png = tmp_path / "shot.png"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "iaa_desktop",
            "open",
            str(target),
            "--kind",
            "table",
            "--level",
            "ordinal",
            "--missing",
            "0",
            "--interval",
            "none",
            "--screenshot",
            str(png),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert r.returncode == 0, r.stderr
    assert png.stat().st_size > 10_000


def test_study_value_object_title():
    assert Study((Path("a.csv"), Path("b.csv"))).title == "a.csv + 1 more"

"""A name, a label or a text of any length: the window shows it shortened ("…"), stays within
the screen and keeps it whole in what it exports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from iaa_desktop.gui.widgets.short_text import NAME_CHARS, shown, tip
from tests.conftest import FIXTURES
from tests.gui import user

#: an annotator's name of 100,000 characters (the window took half a minute on one of a
#: megabyte and could not be drawn: widgets millions of pixels wide)
GIANT = " ".join(["a"] * 50_000)
SCREEN_W, SCREEN_H = 1280, 720


def _multilabel(tmp_path: Path) -> list[Path]:
    src = (FIXTURES / "multilabel" / "long.tsv").read_text(encoding="utf-8")
    (tmp_path / "annotations.tsv").write_text(src.replace("\tA2\t", f"\t{GIANT}\t"), "utf-8")
    texts = tmp_path / "texts.tsv"
    texts.write_text((FIXTURES / "multilabel" / "texts.tsv").read_text("utf-8"), "utf-8")
    return [tmp_path / "annotations.tsv", texts]


def _table(tmp_path: Path) -> Path:
    rows = ["item\tannotator\tlabel"]
    for i in range(1, 13):
        for a, lab in (("A1", "xy"[i % 2]), ("A2", "xy"[i % 3 == 0]), (GIANT, "xy"[i % 4 == 0])):
            rows.append(f"I{i}\t{a}\t{lab}")
    p = tmp_path / "giant.tsv"
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return p


def _open(qtbot, window, inputs, kind, options=None):
    window.resize(SCREEN_W, SCREEN_H)
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        window.open_inputs([Path(p) for p in inputs], kind, options or {})
    return blocker.args[0]


def _within_screen(window) -> None:
    hint, least = window.minimumSizeHint(), window.minimumSize()
    assert hint.width() <= SCREEN_W and hint.height() <= SCREEN_H, hint
    assert least.width() <= SCREEN_W and least.height() <= SCREEN_H, least
    window.resize(SCREEN_W, SCREEN_H)  # the window fits a 1280×720 screen
    assert (window.width(), window.height()) == (SCREEN_W, SCREEN_H)
    assert not window.grab().isNull()  # the window can be drawn


def _annotator_entry(window):
    names = window.study_panel.annotators
    return next(names.item(i) for i in range(names.count()) if names.item(i).text()[0] == "a")


def test_display_form_of_names() -> None:
    assert shown("Complication") == "Complication"  # a normal name looks as it did
    assert shown("x" * NAME_CHARS) == "x" * NAME_CHARS
    cut = shown(GIANT)
    assert len(cut) == NAME_CHARS and cut.endswith("…") and GIANT.startswith(cut[:-1])
    # never a combining mark without its letter before the "…"
    marked = "e\u0301" * 100
    assert shown(marked) == marked[:78] + "…"
    assert len(tip(GIANT)) < 1100 and f"({len(GIANT):,} characters)" in tip(GIANT)


def test_multilabel_study_with_a_giant_annotator_name(qtbot, window, tmp_path, monkeypatch):
    result = _open(qtbot, window, _multilabel(tmp_path), "multilabel")
    assert GIANT in result.annotators
    _within_screen(window)
    entry = _annotator_entry(window)
    assert entry.text() == shown(GIANT) and entry.text().endswith("…")
    assert entry.toolTip().startswith("a a a") and len(entry.toolTip()) < 1100
    # the items list: a column per annotator, the giant one's title shortened
    user.click_tab(qtbot, window, "Items")
    items = window.tabs.currentWidget()
    model = items.model
    col = model.column_of(GIANT)
    assert model.headerData(col, Qt.Orientation.Horizontal) == shown(GIANT)
    # a row clicked: its detail names the annotator shortened
    user.click_row(qtbot, items.view, 0)
    detail = items.detail.toPlainText()
    assert shown(GIANT) in detail and len(detail) < 5000
    # the pair chosen by a person in the Partition items tab: its tables name the whole pair
    user.click_tab(qtbot, window, "Partition items")
    part = window.tabs.currentWidget()
    pair = next(i for i, (a, b) in enumerate(result.pair_names()) if GIANT in (a, b))
    user.choose(qtbot, part.pair_box, None, index=pair)
    assert GIANT in part.first_model.columns() or GIANT in part.second_model.columns()
    assert len(part.first_group.title()) < 400
    _within_screen(window)
    # the full name is the data: File → Export tables writes it whole
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(out))
    user.menu_command(qtbot, window, window.file_menu, "&Export tables")
    qtbot.waitUntil(lambda: (out / "results.json").exists())
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert GIANT in [a["name"] for a in data["annotators"]]


def test_table_study_with_a_giant_annotator_name(qtbot, window, tmp_path):
    result = _open(qtbot, window, [_table(tmp_path)], "table", {"interval": "none"})
    assert GIANT in result.annotators
    _within_screen(window)
    assert _annotator_entry(window).text() == shown(GIANT)
    overview = window.tabs.widget(0)
    assert len(overview.summary_label.text()) < 1000  # the names in the summary, shortened
    model = overview.items_model
    assert model.headerData(model.column_of(GIANT), Qt.Orientation.Horizontal) == shown(GIANT)
    user.click_row(qtbot, overview.items_view, 0)
    assert shown(GIANT) in overview.detail.toPlainText()
    user.click_row(qtbot, overview.items_view, 1)
    _within_screen(window)


def test_study_file_with_a_giant_name(qtbot, window, tmp_path):
    data = _table(tmp_path)
    study = tmp_path / "giant.iaa-study"
    study.write_text(
        json.dumps(
            {
                "format": "iaa-study",
                "version": 1,
                "name": GIANT,
                "kind": "table",
                "inputs": [data.name],
                "options": {"interval": "none"},
            }
        ),
        encoding="utf-8",
    )
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        window.open_path(study)
    title = window.study_panel.title.text()
    assert shown(GIANT) in title and len(title) < 200
    _within_screen(window)


def test_spans_study_with_a_giant_label(qtbot, window, tmp_path):
    import shutil

    example = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples"
    example = example / "spans"
    folders = []
    for who in ("Lena", "Noa", "Omar"):
        shutil.copytree(example / who, tmp_path / who)
        folders.append(tmp_path / who)
    ann = tmp_path / "Noa" / "news.ann"
    first, *rest = ann.read_text(encoding="utf-8").splitlines()
    key, what, quote = first.split("\t")
    giant = "L" + "x" * 99_999
    ann.write_text("\n".join([f"{key}\t{giant} {what.split(' ', 1)[1]}\t{quote}", *rest]) + "\n")
    result = _open(qtbot, window, folders, "spans")
    assert giant in result.corpus.labels
    _within_screen(window)
    user.click_tab(qtbot, window, "Spans side by side")
    side = window.tabs.currentWidget()
    assert len(side.text.toPlainText()) < 50_000


def test_a_passage_of_any_length_is_shown_shortened(qtbot, window, tmp_path):
    from iaa_desktop.gui.widgets.short_text import PASSAGE_CHARS

    example = Path(__file__).resolve().parents[2] / "iaa_desktop" / "resources" / "examples"
    lines = (example / "candidates" / "pairs.tsv").read_text(encoding="utf-8").splitlines()
    cells = lines[1].split("\t")
    long_text = "verbum " * 6000  # 42,000 characters
    cells[4] = long_text
    lines[1] = "\t".join(cells)
    (tmp_path / "pairs.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    labels = (example / "candidates" / "labels.tsv").read_text(encoding="utf-8")
    (tmp_path / "labels.tsv").write_text(labels, encoding="utf-8")
    _open(qtbot, window, [tmp_path / "pairs.tsv", tmp_path / "labels.tsv"], "candidates")
    user.click_tab(qtbot, window, "Pairs")
    panel = window.tabs.currentWidget()
    row = panel.model.row_where(panel.model.columns()[0], cells[0])
    user.click_row(qtbot, panel.list_view, row)
    shown_passage = panel.text_a.toPlainText()
    assert shown_passage.startswith("verbum verbum")
    assert len(shown_passage) < PASSAGE_CHARS + 100
    total = int(shown_passage.rsplit("(", 1)[1].split(" ")[0].replace(",", ""))
    assert shown_passage.endswith(" characters)") and total >= 40_000
    _within_screen(window)

"""One colour per label set in every multi-label table, and "not annotated" drawn apart from
disagreement: the example opened in the window, its tabs clicked."""

from __future__ import annotations

from PySide6.QtCore import Qt

from iaa_desktop.core.study_file import load_study
from iaa_desktop.gui.adjudication import open_adjudication
from iaa_desktop.gui.start_page import examples_dir
from tests.gui import user


def _colours(model, columns) -> dict[str, str]:
    """Display text → background colour of the label cells in ``columns``."""
    out: dict[str, str] = {}
    for row in range(model.rowCount()):
        for name in columns:
            index = model.index(row, model.column_of(name))
            brush = model.data(index, Qt.ItemDataRole.BackgroundRole)
            text = str(model.data(index) or "")
            if text and brush is not None:
                out.setdefault(text, brush.color().name())
                assert out[text] == brush.color().name()  # within one table too
    return out


def test_one_colour_per_label_set_in_every_table(qtbot, window, tmp_path):
    path = next((examples_dir() / "multilabel").glob("*.iaa-study"))
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        window.open_study(load_study(path), path)
    result = blocker.args[0]
    names = list(result.data.annotators)
    user.click_tab(qtbot, window, "Items")
    items = window.tabs.currentWidget().model
    in_items = _colours(items, names)
    user.click_tab(qtbot, window, "Partition items")
    part = window.tabs.currentWidget()
    in_partition = {}
    for model in (part.first_model, part.second_model):
        cols = [c for c in model.columns() if c in names]
        for text, colour in _colours(model, cols).items():
            in_partition[text.split(" ", 1)[1]] = colour  # "001 Success" → "Success"
    assert in_partition and all(in_items[t] == c for t, c in in_partition.items())
    dlg = open_adjudication(None, result, None, store_path=tmp_path / "s.sqlite", show=True)
    qtbot.addWidget(dlg)
    q = dlg.panel.queue_model
    m = dlg.panel.session.model
    for i, unit in enumerate(q.indices()):
        for x in range(len(m.annotators)):
            value = m.versions[int(unit), x]
            if value:  # a non-empty label set: the colour the Items tab gives it
                brush = q.colours.colour(value)
                shown = " + ".join(value.split(";"))
                assert brush.name() == in_items[shown], (i, value)
    dlg.close()


def test_cells_of_annotators_who_never_saw_an_item_are_not_tinted(qtbot, window, tmp_path):
    data = tmp_path / "labels.tsv"
    data.write_text(
        "item\tannotator\tlabels\n"
        "i1\tA\tx\ni1\tB\ty\n"  # C never saw i1: its cell is blank, not red
        "i2\tA\tx\ni2\tB\tx\ni2\tC\tx\n"
        "i3\tA\ty\ni3\tB\tx;y\ni3\tC\ty\n",
        encoding="utf-8",
    )
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        window.open_inputs([data], "multilabel", {})
    user.click_tab(qtbot, window, "Items")
    model = window.tabs.currentWidget().model
    row = model.row_where("item", "i1")
    blank = model.index(row, model.column_of("C"))
    assert model.data(blank) == ""
    assert model.data(blank, Qt.ItemDataRole.BackgroundRole) is None
    assert model.data(model.index(row, model.column_of("A")), Qt.ItemDataRole.BackgroundRole)

"""The coreference view: documents side by side, class table, selection, right-to-left text."""

from __future__ import annotations

from iaa_desktop.core.kinds.coref.compare import KIND
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.gui.kinds.coref import create_panels
from iaa_desktop.gui.main_window import ViewContext
from tests.conftest import FIXTURES, shared_path
from tests.gui import user


def _panel(qtbot, inputs):
    result = run_to_end(KIND.run(inputs, {}))
    ctx = ViewContext()
    panels = create_panels(result, ctx)
    panel = panels[0][1]
    qtbot.addWidget(panel)
    panel.resize(1400, 800)
    panel.show()
    return result, panel, ctx


def test_psalm_67_side_by_side_and_class_selection(qtbot, tmp_path):
    root = shared_path("psalms-coref")
    result, panel, ctx = _panel(qtbot, [root / "A", root / "B"])
    names = list(panel.doc_model.frame["document"])
    user.click_row(qtbot, panel.doc_view, names.index("Psalms_067"))
    assert "Psalms_067" in panel.label_a.text()
    # the class table is sorted worst first
    d = list(panel.class_model.frame["d"])
    assert d == sorted(d, reverse=True)
    # selecting a matched row makes its mentions bold on both sides
    frame = panel.class_model.frame
    row = next(
        i
        for i, r in enumerate(frame.itertuples())
        if r.class_a not in ("-", "S") and r.class_b not in ("-", "S")
    )
    user.click_row(qtbot, panel.class_view, row)
    assert "font-weight:600" in panel.text_a.toHtml() or "font-weight:700" in panel.text_a.toHtml()
    panel.grab().save(str(tmp_path / "psalm67.png"))
    # a recompute keeps the same widget
    assert create_panels(result, ctx)[0][1] is panel


def test_right_to_left_document(qtbot):
    _result, panel, _ctx = _panel(
        qtbot, [FIXTURES / "coref" / "heb_A", FIXTURES / "coref" / "heb_B"]
    )
    from PySide6.QtCore import Qt

    text = panel.result.documents[0].docs["heb_A"].text
    shown = panel.text_a.toPlainText().replace("\u2029", "\n")
    assert shown.strip() == text.strip()  # combining marks and offsets intact
    block = panel.text_a.document().firstBlock()
    assert block.blockFormat().layoutDirection() == Qt.LayoutDirection.RightToLeft
